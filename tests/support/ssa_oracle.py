"""The two sides of the server-side apply comparisons, answering the same cases
(tests/support/ssa_cases.py) in the same form ({"object"} or {"error": {code, reason, message}}):

- ``GoFieldManager``: hack/oracle/fieldmanager as a running subprocess, apimachinery's field
  manager answering one apply or update at a time (a sequence feeds each answer into the next
  case, so the cases cannot be sent in one batch);
- ``kgen_engine``: ``kgen.runtime.apimachinery.util.managedfields.fieldmanager.FieldManager``, with the custom
  resources' schemas from packages generated from their CRDs (``generate_crd_schemas``).

``RESET_FIELDS`` mirrors the oracle's table of the registry strategies' GetResetFields, in the
form ``FieldManager`` takes them; ``OLDER_RESET_FIELDS`` its entries for an older release's
behaviour (a key of tests/support/versions.py's ``DIFFERENCES``), which both sides take as
``older``: the oracle as ``-older KEY``, kgen's engine as those reset fields.
"""

from __future__ import annotations

import copy
import json
import subprocess
import sys
import tempfile
from collections.abc import Callable, Collection, Iterator
from pathlib import Path
from types import TracebackType
from typing import Any

import pytest

from kgen.runtime.apimachinery.util.managedfields.fieldmanager import ApplyConflict, FieldManager
from kgen.runtime.apimachinery.mergeschema import TypeSchema, schema_for
from tests.support.oracle import oracle_binary
from tests.support.packages import generate
from tests.support.ssa_cases import NOW

REPO = Path(__file__).resolve().parents[2]
OPENAPI_V3 = REPO / "openapi" / "kubernetes-1.37.2" / "openapi" / "v3"
SSA_CRD = Path(__file__).resolve().parent / "ssa_crd.yaml"
FOO_CRD = REPO / "examples" / "sample_controller" / "crd.yaml"

#: "<apiVersion> <Kind> <subresource>" -> reset field paths (hack/oracle/fieldmanager resetFields)
RESET_FIELDS: dict[str, list[tuple[str, ...]]] = {
    "apps/v1 Deployment ": [("status",)],
    "apps/v1 Deployment status": [("spec",), ("metadata", "labels")],
    "v1 Pod ": [("status",)],
    "v1 Pod status": [("spec",), ("metadata", "deletionTimestamp"), ("metadata", "ownerReferences")],
    "v1 Service ": [("status",)],
    "v1 Service status": [("spec",)],
    "ssa.kgen.dev/v1 Gizmo ": [("status",)],
    "ssa.kgen.dev/v1 Gizmo status": [("metadata",), ("spec",)],
    "samplecontroller.kgen.dev/v1alpha1 Foo ": [("status",)],
    "samplecontroller.kgen.dev/v1alpha1 Foo status": [("metadata",), ("spec",)],
}
#: older behaviour -> the RESET_FIELDS entries it replaces (hack/oracle/fieldmanager olderResetFields):
#: up to 1.35 a custom resource's status strategy resets spec only (apiextensions-apiserver v0.35)
OLDER_RESET_FIELDS: dict[str, dict[str, list[tuple[str, ...]]]] = {
    "cr-status-writes-metadata": {
        "ssa.kgen.dev/v1 Gizmo status": [("spec",)],
        "samplecontroller.kgen.dev/v1alpha1 Foo status": [("spec",)],
    },
}


def reset_fields(older: Collection[str] = ()) -> dict[str, list[tuple[str, ...]]]:
    """RESET_FIELDS with the entries of the ``older`` behaviours (keys of OLDER_RESET_FIELDS)."""
    fields = dict(RESET_FIELDS)
    for key in older:
        fields.update(OLDER_RESET_FIELDS[key])
    return fields


class GoFieldManager:
    """The oracle program, started once; ``ask(case)`` writes one JSON line and reads the answer.
    ``older``: the older releases' behaviours it models (keys of OLDER_RESET_FIELDS)."""

    def __init__(self, *crds: Path, older: Collection[str] = ()) -> None:
        unknown = set(older) - set(OLDER_RESET_FIELDS)
        assert not unknown, f"the fieldmanager oracle does not model {sorted(unknown)}"
        self.command = [str(oracle_binary("fieldmanager")), "-openapi", str(OPENAPI_V3),
                        *(arg for crd in (crds or (SSA_CRD, FOO_CRD)) for arg in ("-crd", str(crd))),
                        *(arg for key in sorted(older) for arg in ("-older", key))]
        self._stderr = tempfile.TemporaryFile()
        self._process: subprocess.Popen[str] | None = None

    def __enter__(self) -> GoFieldManager:
        self._process = subprocess.Popen(self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=self._stderr, text=True, bufsize=1)
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, tb: TracebackType | None) -> None:
        assert self._process is not None and self._process.stdin is not None
        self._process.stdin.close()
        try:
            self._process.wait(30)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait(10)
        if self._process.stdout is not None:
            self._process.stdout.close()
        self._stderr.close()

    def ask(self, case: dict[str, Any]) -> dict[str, Any]:
        process = self._process
        assert process is not None and process.stdin is not None and process.stdout is not None
        process.stdin.write(json.dumps(case) + "\n")
        process.stdin.flush()
        line = process.stdout.readline()
        if not line:
            self._stderr.seek(0)
            raise RuntimeError(f"the fieldmanager oracle ended: {self._stderr.read()[-4000:].decode(errors='replace')}")
        answer: dict[str, Any] = json.loads(line)
        if "usage" in answer:
            raise ValueError(f"the fieldmanager oracle refused the case: {answer['usage']}\n{json.dumps(case)}")
        return answer


# -- kgen's side -------------------------------------------------------------------------------------

Engine = Callable[[dict[str, Any]], dict[str, Any]]
GIZMO = "ssa.kgen.dev/v1"
FOO = "samplecontroller.kgen.dev/v1alpha1"
#: the apiserver's reason for a status code (apierrors' constructors; a plain error's 500 has none)
REASONS = {400: "BadRequest", 409: "Conflict", 422: "Invalid", 500: ""}


def generate_crd_schemas(out: Path) -> dict[str, TypeSchema]:
    """apiVersion -> the custom resource's TypeSchema, from packages generated into ``out``."""
    sys.path.insert(0, str(out))
    schemas = {}
    for package, crd, api_version, kind in (("ssa_gizmos", SSA_CRD, GIZMO, "Gizmo"), ("ssa_foos", FOO_CRD, FOO, "Foo")):
        generate(out, package, "--crd", str(crd))
        ts = schema_for(api_version, kind, package=package)
        assert ts is not None
        schemas[api_version] = ts
    return schemas


def kgen_engine(crds: dict[str, TypeSchema], older: Collection[str] = ()) -> Engine:
    """kgen's field manager answering a case as the oracle does (its time is ``NOW``), with the
    reset fields of the ``older`` behaviours (the field manager's part of them)."""
    managers: dict[tuple[str, str, str], FieldManager] = {}
    resets = reset_fields(older)

    def answer(case: dict[str, Any]) -> dict[str, Any]:
        key = (case["apiVersion"], case["kind"], case["subresource"])
        if key not in managers:
            managers[key] = FieldManager(*key, schema=crds.get(case["apiVersion"]),
                                         reset_fields=resets.get(" ".join(key), []))
        fm = managers[key]
        live, obj = copy.deepcopy(case["live"]), copy.deepcopy(case["obj"])
        try:
            if case["op"] == "apply":
                return {"object": fm.apply(live, obj, case["manager"], force=case["force"], now=NOW)}
            return {"object": fm.update(live, obj, case["manager"], now=NOW)}
        except ApplyConflict as e:
            return {"error": {"code": 409, "reason": "Conflict", "message": str(e)}}
        except ValueError as e:
            code = getattr(e, "code", None)
            return {"error": {"code": code, "reason": REASONS.get(code, "?") if isinstance(code, int) else "?",
                              "message": str(e)}}
        except Exception as e:  # a crash is a mismatch, shown as such
            return {"crash": f"{type(e).__name__}: {e}"}

    return answer


@pytest.fixture(scope="module")
def crd_schemas(tmp_path_factory: pytest.TempPathFactory) -> dict[str, TypeSchema]:
    """The merge schemas of the CRDs the SSA cases use, from a package generated for them."""
    return generate_crd_schemas(tmp_path_factory.mktemp("ssacrd"))


@pytest.fixture(scope="module")
def oracle() -> Iterator[GoFieldManager]:
    """hack/oracle/fieldmanager, one process per test module."""
    with GoFieldManager() as go:
        yield go
