"""Finds the kube-apiserver and etcd binaries the test harness runs.

Order: ``KUBEBUILDER_ASSETS`` (setup-envtest's layout: a folder holding ``etcd`` and
``kube-apiserver``); in a source checkout of kgen, ``hack/envtest/build.sh`` (which builds them
from the Go module proxy once and prints the cache folder); otherwise the newest folder in
kgen's envtest cache.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from kgen.runtime.util.paths import cache_root

BINARIES = ("etcd", "kube-apiserver")


class AssetsNotFound(RuntimeError):
    """No kube-apiserver and etcd binaries were found (or building them failed)."""


def _complete(folder: Path) -> bool:
    return all(os.access(folder / name, os.X_OK) for name in BINARIES)


def _build_script() -> Path | None:
    # runtime/testing/_assets.py -> <checkout>/hack/envtest/build.sh (absent in a wheel install)
    script = Path(__file__).resolve().parents[2] / "hack" / "envtest" / "build.sh"
    return script if script.is_file() else None


def find_assets() -> Path:
    """The folder of the kube-apiserver and etcd binaries: ``$KUBEBUILDER_ASSETS``; else what the
    checkout's hack/envtest/build.sh builds; else the newest complete build in kgen's cache.
    ``AssetsNotFound`` otherwise."""
    explicit = os.environ.get("KUBEBUILDER_ASSETS")
    if explicit:
        folder = Path(explicit)
        if not _complete(folder):
            raise AssetsNotFound(
                f"KUBEBUILDER_ASSETS={explicit}: expected executable files {', '.join(BINARIES)} in it"
            )
        return folder
    script = _build_script()
    if script is not None:
        result = subprocess.run([str(script)], stdout=subprocess.PIPE, text=True, check=False)
        if result.returncode != 0:
            raise AssetsNotFound(f"{script} failed with exit code {result.returncode} (its errors are above)")
        return Path(result.stdout.strip().splitlines()[-1])
    entries = sorted(
        (p for p in (cache_root() / "envtest").glob("k8s-*") if _complete(p)),
        key=lambda p: p.stat().st_mtime,
    )
    if entries:
        return entries[-1]
    raise AssetsNotFound(
        "no kube-apiserver/etcd binaries found: set KUBEBUILDER_ASSETS to a folder holding "
        "'etcd' and 'kube-apiserver' (e.g. from setup-envtest), or run `kgen envtest` "
        f"(pip install kgen; needs Go) to build them into {cache_root() / 'envtest'}"
    )
