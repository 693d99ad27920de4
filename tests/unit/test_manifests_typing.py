"""Users' natural code with the markers type-checks under ``mypy --strict``: ``Annotated``
markers, ``@resource``/``@constraints`` keeping the class's type (constructor and attributes
still checked), and the emitter's own modules."""

from __future__ import annotations

from pathlib import Path

from tests.support.packages import REPO, mypy_strict

USER_CODE = '''
from __future__ import annotations

from typing import Annotated, Literal

from kgen.kubernetes.models.meta.v1 import ObjectMeta
from kgen.runtime.apimachinery import Model, field
from kgen.runtime.apimachinery.markers import (
    Maximum, Minimum, Pattern, PrinterColumn, Scale, XValidation, constraints, resource,
)


@constraints(XValidation(rule="self.low <= self.high", message="low above high"))
class Band(Model, kw_only=True):
    low: int
    high: int


class ShipSpec(Model, kw_only=True):
    crew: Annotated[int, Minimum(1), Maximum(500)] = 10
    call_sign: Annotated[str, Pattern("^[A-Z]{3}$")] = field(name="callSign")
    band: Band | None = None
    mode: Literal["Sail", "Dock"] | None = None


@resource(group="fleet.example.com", version="v1", status=True,
          scale=Scale(".spec.crew", ".status.crew"),
          printer_columns=[PrinterColumn("Crew", "integer", ".spec.crew")])
class Ship(Model, kw_only=True):
    metadata: ObjectMeta | None = None
    spec: ShipSpec


ship = Ship(metadata=ObjectMeta(name="a"), spec=ShipSpec(call_sign="ABC", band=Band(low=1, high=2)))
crew: int = ship.spec.crew
api_version: str | None = Ship.API_VERSION
'''

BROKEN = '''
from kgen.runtime.apimachinery.markers import Minimum, resource

Minimum("one")
resource(group="g.example.com", version="v1", scope="Global")
'''


def test_user_code_with_markers_passes_mypy_strict(tmp_path: Path) -> None:
    (tmp_path / "user_api.py").write_text(USER_CODE)
    fixtures = [REPO / "tests" / "support" / "manifests" / n for n in ("widgets.py", "gadgets.py")]
    result = mypy_strict(tmp_path, tmp_path / "user_api.py", *fixtures)
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_catches_a_wrong_marker_value(tmp_path: Path) -> None:
    (tmp_path / "broken.py").write_text(BROKEN)
    result = mypy_strict(tmp_path, tmp_path / "broken.py")
    assert result.returncode == 1
    assert 'Argument 1 to "Minimum" has incompatible type "str"' in result.stdout
    assert 'Argument "scope" to "resource" has incompatible type' in result.stdout
