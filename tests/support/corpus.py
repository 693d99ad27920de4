"""Real test data, fetched at test time from the Go module proxy and never committed.

- ``api_fixtures()``: ``k8s.io/api@<the envtest release>/testdata/HEAD/*.json`` — one object per
  kind with every field populated (the round-trip corpus).
- ``crd_files(project)``: the CustomResourceDefinition YAMLs that eight real projects ship, at
  pinned versions (``CRD_SOURCES``): gateway-api, cert-manager, prometheus-operator,
  external-secrets, KEDA, Velero, Kueue and Flux's source-controller. (Cluster API is not among
  them: its module zip leaves config/crd out. KEDA and source-controller are pinned below their
  newest releases, which need a newer Go than the one here to download.)

Modules are fetched with ``go mod download -json`` into kgen's cache (a module cache of its own),
once; later calls only read the cache.
"""

from __future__ import annotations

import functools
import json
import os
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kgen.generator.yamlfile import load_all
from kgen.runtime.util.paths import cache_root

REPO = Path(__file__).resolve().parents[2]


def _pinned_versions() -> dict[str, str]:
    pins = {}
    for line in (REPO / "hack" / "envtest" / "versions.env").read_text().splitlines():
        if "=" in line and not line.lstrip().startswith("#"):
            key, value = line.split("=", 1)
            pins[key.strip()] = value.strip()
    return pins


def api_module_version() -> str:
    """k8s.io/api's tag for the pinned Kubernetes release: 1.37.2 -> v0.37.2."""
    major, minor, patch = _pinned_versions()["KUBERNETES_VERSION"].split(".")
    return f"v0.{minor}.{patch}"


@dataclass(frozen=True)
class CRDSource:
    module: str
    version: str
    folder: str


CRD_SOURCES = {
    "gateway-api": CRDSource("sigs.k8s.io/gateway-api", "v1.6.3", "config/crd/standard"),
    "cert-manager": CRDSource("github.com/cert-manager/cert-manager", "v1.21.2", "deploy/crds"),
    "prometheus-operator": CRDSource(
        "github.com/prometheus-operator/prometheus-operator", "v0.85.0", "example/prometheus-operator-crd"
    ),
    # config/crds/bases also holds a kustomization.yaml: crd_files keeps only CRD files.
    "external-secrets": CRDSource("github.com/external-secrets/external-secrets", "v1.3.2", "config/crds/bases"),
    "keda": CRDSource("github.com/kedacore/keda/v2", "v2.20.2", "config/crd/bases"),
    "velero": CRDSource("github.com/vmware-tanzu/velero", "v1.18.3", "config/crd/v1/bases"),
    "kueue": CRDSource("sigs.k8s.io/kueue", "v0.17.0", "config/components/crd/bases"),
    "flux-source-controller": CRDSource("github.com/fluxcd/source-controller", "v1.9.6", "config/crd/bases"),
}


@functools.cache
def module_dir(module: str, version: str) -> Path:
    """The extracted source of ``module@version``, downloaded into kgen's cache if missing."""
    env = dict(
        os.environ,
        GOMODCACHE=str(cache_root() / "gomod"),
        GOFLAGS="-mod=mod",
        GOTOOLCHAIN="local",
        GO111MODULE="on",
    )
    with tempfile.TemporaryDirectory() as outside_any_module:
        result = subprocess.run(
            ["go", "mod", "download", "-json", f"{module}@{version}"],
            cwd=outside_any_module,
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
    try:
        info = json.loads(result.stdout)
    except json.JSONDecodeError:
        info = {}
    if result.returncode != 0 or "Dir" not in info:
        detail = info.get("Error") or result.stderr.strip()
        raise RuntimeError(f"go mod download {module}@{version} failed: {detail}")
    return Path(info["Dir"])


def api_fixtures() -> list[Path]:
    folder = module_dir("k8s.io/api", api_module_version()) / "testdata" / "HEAD"
    return sorted(folder.glob("*.json"))


def crd_files(project: str) -> list[Path]:
    """The YAML files of ``project`` (a key of CRD_SOURCES) that hold CustomResourceDefinitions."""
    return list(_crd_files(project))


@functools.cache
def _crd_files(project: str) -> tuple[Path, ...]:
    source = CRD_SOURCES[project]
    folder = module_dir(source.module, source.version) / source.folder
    return tuple(p for p in sorted(folder.glob("*.yaml")) if any(_is_crd(d) for d in load_documents(p)))


def load_documents(path: Path) -> list[dict[str, Any]]:
    return [d for d in load_all(path.read_text()) if isinstance(d, dict)]


def _is_crd(doc: dict[str, Any]) -> bool:
    return doc.get("kind") == "CustomResourceDefinition" and str(doc.get("apiVersion", "")).startswith(
        "apiextensions.k8s.io/"
    )


def crds(project: str) -> list[dict[str, Any]]:
    return [d for p in crd_files(project) for d in load_documents(p) if _is_crd(d)]
