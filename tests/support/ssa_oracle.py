"""hack/oracle/fieldmanager as a running subprocess: apimachinery's field manager answering one
server-side apply or update at a time (a sequence feeds each answer into the next case, so the
cases cannot be sent in one batch).

``RESET_FIELDS`` mirrors the oracle's table of the registry strategies' GetResetFields, in the
form ``kgen.runtime.apimachinery.fieldmanager.FieldManager`` takes them.
"""

from __future__ import annotations

import json
import subprocess
import tempfile
from pathlib import Path
from types import TracebackType
from typing import Any

from tests.support.oracle import oracle_binary

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


class GoFieldManager:
    """The oracle program, started once; ``ask(case)`` writes one JSON line and reads the answer."""

    def __init__(self, *crds: Path) -> None:
        self.command = [str(oracle_binary("fieldmanager")), "-openapi", str(OPENAPI_V3),
                        *(arg for crd in (crds or (SSA_CRD, FOO_CRD)) for arg in ("-crd", str(crd)))]
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
