"""Refreshes openapi/kubernetes-<version>/ from a real kube-apiserver started for the purpose.

Run through `make snapshot`: starts the envtest apiserver, runs `kgen snapshot` against it.
"""

from __future__ import annotations

import sys
from pathlib import Path

from kgen.generator.cli import main as kgen
from kgen.runtime.testing import KubeAPIServer

OPENAPI = Path(__file__).resolve().parent.parent / "openapi"

with KubeAPIServer() as server:
    out = OPENAPI / f"kubernetes-{server.version.lstrip('v')}"
    sys.exit(kgen(["snapshot", "--out", str(out), "--kubeconfig", server.kubeconfig]))
