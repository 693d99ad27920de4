"""`kgen generate --cluster` reads the live server's OpenAPI v3 and discovery."""

from __future__ import annotations

from pathlib import Path

from kgen.runtime.testing import KubeAPIServer
from tests.support.packages import REPO, generate


def test_cluster_source_matches_the_embedded_snapshot_of_the_same_release(
    kube_apiserver: KubeAPIServer, tmp_path: Path
) -> None:
    package = generate(
        tmp_path, "live", "--cluster", "--kubeconfig", kube_apiserver.kubeconfig, "--groups", "apps/v1"
    )
    stock = REPO / "generated" / "kubernetes"
    generated = sorted(p.relative_to(package).as_posix() for p in package.rglob("*.py"))
    assert "models/apps/v1.py" in generated and "models/meta/v1.py" in generated
    assert "models/batch/v1.py" not in generated  # --groups keeps apps/v1 and what it uses
    compared = 0
    for rel in generated:
        if rel.startswith("models/") and rel.count("/") == 2:
            if rel.endswith("/__init__.py") and _versions(package, rel) != _versions(stock, rel):
                continue  # a group's docstring lists its generated versions: --groups keeps fewer
            assert (package / rel).read_text() == (stock / rel).read_text(), rel
            compared += 1
    assert compared >= 3  # apps/v1, meta/v1 and what they use, byte for byte


def _versions(package: Path, init: str) -> set[str]:
    """The version modules generated beside a group's ``__init__.py``."""
    return {p.name for p in (package / init).parent.glob("*.py") if p.name != "__init__.py"}
