"""`kgen manifests` then `kgen generate --crd`: the CRD written from the user's classes gives back
models with the same fields, wire names, Python types and required-ness (issue 14's contract).

The comparison is structural, field by field, down through nested models (whose regenerated
class names follow the generator's naming, not the user's). Two differences are the generator's
documented choices, not losses, and the comparison states them instead of hiding them:

- a string enum (``Literal["A", "B"]``, a str ``Enum``) regenerates as ``Literal["A", "B"] | str``:
  generated clients accept values a newer server adds;
- a field with a Python default regenerates optional, with the default in the class's
  ``DEFAULTS`` (applied by the server, never by the client), so required-ness is the same
  (neither is in the schema's ``required``) and the default is compared through ``DEFAULTS``.
"""

from __future__ import annotations

import enum
import importlib
import typing
from pathlib import Path
from typing import Any

import msgspec
import pytest

from kgen.generator.cli import main as kgen
from kgen.runtime.apimachinery import Model
from kgen.runtime.apimachinery.markers import Nullable
from tests.support.manifests import gadgets, shapes, widgets
from tests.support.packages import generate, import_all

#: package name -> extra `kgen generate` arguments. By default a CRD's stock subschemas come back as
#: the stock classes themselves (generator/stock.py); with --no-stock-types as generated copies.
PACKAGES = {"kgen_manifests_round_trip": (), "kgen_manifests_round_trip_copies": ("--no-stock-types",)}
#: meta/v1 types compared by name: both sides take them from a kgen-generated meta/v1 module.
_META = {"ObjectMeta", "ListMeta"}
#: (class, wire name) -> the type its generated copy comes back as, where the CRD says more than the
#: class: meta/v1 Condition's status gets controller-gen's enum (known_types.py). Checked, not skipped.
_DOCUMENTED = {("Condition", "status"): typing.Union[typing.Literal["True", "False", "Unknown"], str]}


@pytest.fixture(scope="module", params=sorted(PACKAGES))
def regenerated(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, str], type]:
    package: str = request.param
    tmp = tmp_path_factory.mktemp("round_trip")
    crds = tmp / "crds"
    modules = [arg for m in (widgets, gadgets, shapes) for arg in ("--module", m.__name__)]
    assert kgen(["manifests", "--allow-dangerous-types", *modules, "--out", str(crds)]) == 0
    generate(tmp / "out", package, "--crd", str(crds), *PACKAGES[package])
    list(import_all(tmp / "out", package))
    found: dict[tuple[str, str], type] = {}
    for group, version in (("widgets_manifests_kgen_test", "v1"), ("gadgets_manifests_kgen_test", "v1"),
                           ("gadgets_manifests_kgen_test", "v2"), ("shapes_manifests_kgen_test", "v1beta1")):
        module = importlib.import_module(f"{package}.models.{group}.{version}")
        for obj in vars(module).values():
            if isinstance(obj, type) and getattr(obj, "KIND", None) and obj.__module__ == module.__name__:
                found[(str(getattr(obj, "API_VERSION")), str(getattr(obj, "KIND")))] = obj
    return found


def _strip_none(tp: Any) -> tuple[Any, bool]:
    if typing.get_origin(tp) in (typing.Union, type(int | str)) and type(None) in typing.get_args(tp):
        rest = tuple(a for a in typing.get_args(tp) if a is not type(None))
        return (rest[0] if len(rest) == 1 else typing.Union[rest]), True
    return tp, False


def _fields(cls: type) -> dict[str, tuple[str, Any, bool, Any]]:
    """wire name -> (Python name, type without None, required in the schema, default)."""
    hints = typing.get_type_hints(cls)
    out = {}
    for info in msgspec.structs.fields(cls):
        tp, optional = _strip_none(hints[info.name])
        default = info.default_factory() if info.default_factory is not msgspec.NODEFAULT else info.default
        default = None if default is msgspec.NODEFAULT else default
        out[info.encode_name] = (info.name, tp, info.required and not optional, default)
    return out


def _nullable(cls: type) -> dict[str, bool]:
    """wire name -> whether the user marked it Nullable() (looked for through ``| None``)."""
    def marked(tp: Any) -> bool:
        if typing.get_origin(tp) is typing.Annotated:
            inner, *extras = typing.get_args(tp)
            return any(isinstance(e, Nullable) for e in extras) or marked(inner)
        return typing.get_origin(tp) in (typing.Union, type(int | str)) and any(marked(a) for a in typing.get_args(tp))

    hints = typing.get_type_hints(cls, include_extras=True)
    return {info.encode_name: marked(hints[info.name]) for info in msgspec.structs.fields(cls)}


def _enum_values(tp: Any) -> list[Any] | None:
    if typing.get_origin(tp) is typing.Literal:
        return list(typing.get_args(tp))
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return [e.value for e in tp]
    return None


def _same_type(user: Any, back: Any, where: str, problems: list[str]) -> None:
    values = _enum_values(user)
    if values is not None:
        if all(isinstance(v, str) for v in values):
            expected: Any = typing.Union[typing.Literal[tuple(values)], str]  # the generator's widening
        else:
            expected = type(values[0])
        if back != expected:
            problems.append(f"{where}: {user} came back as {back}, expected {expected}")
        return
    if isinstance(user, type) and issubclass(user, Model):
        if not (isinstance(back, type) and issubclass(back, Model)):
            problems.append(f"{where}: model {user.__name__} came back as {back}")
        elif user.__name__ in _META:
            if back.__name__ != user.__name__:
                problems.append(f"{where}: {user.__name__} came back as {back.__name__}")
        else:
            _same_model(user, back, where, problems)
        return
    origin = typing.get_origin(user)
    if origin in (list, dict):
        if typing.get_origin(back) is not origin:
            problems.append(f"{where}: {user} came back as {back}")
            return
        for i, (u, b) in enumerate(zip(typing.get_args(user), typing.get_args(back))):
            _same_type(u, b, f"{where}[{i}]", problems)
        return
    if origin is typing.Union:
        same = set(typing.get_args(user)) == set(typing.get_args(back))
    else:
        same = user == back
    if not same:
        problems.append(f"{where}: {user} came back as {back}")


def _same_model(user: type, back: type, where: str, problems: list[str], documented: bool = True) -> None:
    mine, theirs = _fields(user), _fields(back)
    if mine.keys() != theirs.keys():
        problems.append(f"{where}: wire names {sorted(mine)} came back as {sorted(theirs)}")
    server_defaults = getattr(back, "DEFAULTS", {})
    nullable = sorted(wire for wire, marked in _nullable(user).items() if marked)
    if nullable != sorted(getattr(back, "NULLABLE", ())):
        problems.append(f"{where}: nullable {nullable} came back as {sorted(getattr(back, 'NULLABLE', ()))}")
    for wire in sorted(mine.keys() & theirs.keys()):
        name, tp, required, default = mine[wire]
        b_name, b_tp, b_required, _ = theirs[wire]
        at = f"{where}.{wire}"
        if name != b_name:
            problems.append(f"{at}: Python name {name} came back as {b_name}")
        if required != b_required:
            problems.append(f"{at}: required={required} came back as required={b_required}")
        if default is not None and msgspec.to_builtins(default) != server_defaults.get(b_name):
            problems.append(f"{at}: default {default!r} came back as {server_defaults.get(b_name)!r}")
        copy = user.__module__.endswith(".models.meta.v1") and not back.__module__.endswith(".models.meta.v1")
        planned = _DOCUMENTED.get((user.__name__, wire)) if copy else None
        if documented and planned is not None and tp is str:
            if b_tp != planned:
                problems.append(f"{at}: {tp} came back as {b_tp}, expected {planned}")
            continue
        _same_type(tp, b_tp, at, problems)


@pytest.mark.parametrize(
    ("user", "api_version"),
    [
        (widgets.Widget, "widgets.manifests.kgen.test/v1"),
        (gadgets.GadgetV1, "gadgets.manifests.kgen.test/v1"),
        (gadgets.GadgetV2, "gadgets.manifests.kgen.test/v2"),
        (shapes.Shape, "shapes.manifests.kgen.test/v1beta1"),
    ],
    ids=["widget-v1", "gadget-v1", "gadget-v2", "shape-v1beta1"],
)
def test_regenerated_models_match_the_users_classes(
    user: type, api_version: str, regenerated: dict[tuple[str, str], type]
) -> None:
    back = regenerated[(api_version, str(getattr(user, "KIND")))]
    problems: list[str] = []
    _same_model(user, back, user.__name__, problems)
    assert problems == []


def test_the_comparison_sees_a_planted_difference(regenerated: dict[tuple[str, str], type]) -> None:
    """The harness can fail: a v1 Gadget compared with the regenerated v2 (a renamed field, an
    added one) must be reported, field by field."""
    back = regenerated[("gadgets.manifests.kgen.test/v2", "Gadget")]
    problems: list[str] = []
    _same_model(gadgets.GadgetV1, back, "GadgetV1", problems)
    assert problems == [
        "GadgetV1.spec: wire names ['color', 'count'] came back as ['colour', 'count', 'shiny']",
    ]


def test_regenerated_condition_keeps_fields_and_gains_the_status_enum(
    regenerated: dict[tuple[str, str], type],
) -> None:
    """meta/v1 Condition is written as controller-gen writes it (known_types.py). By default it
    comes back as the package's meta/v1 Condition (a stock type, generator/stock.py), the same
    fields as the user's; as a generated copy (--no-stock-types) its status enum comes back as
    ``Literal[...] | str`` where the user's (generated) Condition says ``str``; everything else
    is the same."""
    from kgen.kubernetes.models.meta.v1 import Condition

    back_status = _fields(regenerated[("widgets.manifests.kgen.test/v1", "Widget")])["status"][1]
    back_condition = typing.get_args(_fields(back_status)["conditions"][1])[0]
    problems: list[str] = []
    _same_model(Condition, back_condition, "Condition", problems, documented=False)
    if back_condition.__module__.endswith(".models.meta.v1"):
        assert back_condition.__name__ == "Condition" and problems == []
        assert back_condition.__module__.split(".")[0] == "kgen_manifests_round_trip"
    else:
        assert back_condition.__module__.split(".")[0] == "kgen_manifests_round_trip_copies"
        assert problems == [
            "Condition.status: <class 'str'> came back as typing.Union[typing.Literal['True', 'False', 'Unknown'], str]"
        ]


def test_regenerated_package_is_on_disk(regenerated: dict[tuple[str, str], type]) -> None:
    package = next(iter(regenerated.values())).__module__.split(".")[0]
    assert package in PACKAGES
    module = importlib.import_module(package)
    assert module.__file__ is not None and Path(module.__file__).name == "__init__.py"
