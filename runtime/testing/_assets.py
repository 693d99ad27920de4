"""Finds the kube-apiserver and etcd binaries the test harness runs, for one named version.

Order: ``KUBEBUILDER_ASSETS`` (setup-envtest's layout: a folder holding ``etcd`` and
``kube-apiserver``, taken as it is); otherwise the versions asked for (``find_assets``'s
arguments, else ``$KGEN_ENVTEST_KUBERNETES_VERSION`` / ``$KGEN_ENVTEST_ETCD_VERSION``, else the
pinned ``PINNED``): in a source checkout of kgen ``hack/envtest/build.sh`` builds them once from
the Go module proxy; outside one they are looked up in kgen's envtest cache under
``envtest/k8s-<kubernetes>-etcd-<etcd>``, the folder ``kgen envtest`` builds with the same
rules. Never "whatever build the cache holds": a server of another Kubernetes version than the
one named would pass or fail tests for the wrong reasons.
"""

from __future__ import annotations

import os
import re
import subprocess
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from kgen.runtime.util.paths import cache_root

BINARIES = ("etcd", "kube-apiserver")
KUBERNETES_VERSION_ENV = "KGEN_ENVTEST_KUBERNETES_VERSION"
"""The environment variable naming the Kubernetes version the harness runs (also read by
``kgen envtest`` and hack/envtest/build.sh)."""
ETCD_VERSION_ENV = "KGEN_ENVTEST_ETCD_VERSION"
"""The environment variable naming the etcd version the harness runs."""

_VERSION = re.compile(r"\d+\.\d+\.\d+")
_MINOR = re.compile(r"\d+\.\d+")


class AssetsNotFound(RuntimeError):
    """No kube-apiserver and etcd binaries were found (or building them failed)."""


@dataclass(frozen=True)
class EnvtestVersions:
    """A Kubernetes version and the etcd version it runs with."""

    kubernetes: str
    etcd: str

    @property
    def folder_name(self) -> str:
        """The cache folder's name: ``k8s-<kubernetes>-etcd-<etcd>``."""
        return f"k8s-{self.kubernetes}-etcd-{self.etcd}"


SUPPORTED: tuple[EnvtestVersions, ...] = tuple(
    EnvtestVersions(kubernetes=release, etcd="3.7.3") for release in ("1.34.4", "1.35.4", "1.36.3", "1.37.2")
)
"""The releases kgen supports, one per minor, oldest first; the last is pinned. They are
hack/envtest/versions.env's, which a test checks (kgen-runtime ships without that file). A
Kubernetes minor asked for ("1.35") means its entry here, and a Kubernetes version asked for
without an etcd version runs with its minor's etcd."""
PINNED = SUPPORTED[-1]
"""What the harness and ``kgen envtest`` run when no version is asked for."""


def requested_versions(
    kubernetes: str | None = None,
    etcd: str | None = None,
    *,
    environ: Mapping[str, str] | None = None,
    names: tuple[str, str] = ("kubernetes_version", "etcd_version"),
) -> EnvtestVersions:
    """The versions to run: those given, else ``$KGEN_ENVTEST_KUBERNETES_VERSION`` /
    ``$KGEN_ENVTEST_ETCD_VERSION``, else ``PINNED``. ``kubernetes`` may be a minor ("1.37"), meaning
    its pinned release. ValueError for a malformed version or an unknown minor, naming where it
    came from (``names``: how the caller calls the two arguments)."""
    env = os.environ if environ is None else environ
    kubernetes_from, etcd_from = names
    if not kubernetes and env.get(KUBERNETES_VERSION_ENV):
        kubernetes, kubernetes_from = env[KUBERNETES_VERSION_ENV], f"${KUBERNETES_VERSION_ENV}"
    if not etcd and env.get(ETCD_VERSION_ENV):
        etcd, etcd_from = env[ETCD_VERSION_ENV], f"${ETCD_VERSION_ENV}"
    kubernetes = kubernetes or PINNED.kubernetes
    if _MINOR.fullmatch(kubernetes):
        pinned = [v for v in SUPPORTED if _minor(v.kubernetes) == kubernetes]
        if not pinned:
            minors = ", ".join(_minor(v.kubernetes) for v in SUPPORTED)
            raise ValueError(f"{kubernetes_from}: Kubernetes {kubernetes} is not supported by kgen (supported: {minors}); give X.Y.Z")
        kubernetes = pinned[0].kubernetes
    if not _VERSION.fullmatch(kubernetes):
        raise ValueError(f"{kubernetes_from}: expected a version like {PINNED.kubernetes}, got {kubernetes!r}")
    if not etcd:
        etcd = next((v.etcd for v in SUPPORTED if _minor(v.kubernetes) == _minor(kubernetes)), PINNED.etcd)
    if not _VERSION.fullmatch(etcd):
        raise ValueError(f"{etcd_from}: expected a version like {PINNED.etcd}, got {etcd!r}")
    return EnvtestVersions(kubernetes, etcd)


def _minor(version: str) -> str:
    return version.rsplit(".", 1)[0]


def _complete(folder: Path) -> bool:
    return all(os.access(folder / name, os.X_OK) for name in BINARIES)


def _build_script() -> Path | None:
    # runtime/testing/_assets.py -> <checkout>/hack/envtest/build.sh (absent in a wheel install)
    script = Path(__file__).resolve().parents[2] / "hack" / "envtest" / "build.sh"
    return script if script.is_file() else None


def build_command(versions: EnvtestVersions) -> str:
    """The ``kgen envtest`` command line that builds these versions into the cache the harness reads."""
    flags = ""
    if versions.kubernetes != PINNED.kubernetes or versions.etcd != PINNED.etcd:
        flags = f" --kubernetes-version {versions.kubernetes} --etcd-version {versions.etcd}"
    return f"kgen envtest{flags}"


def _explicit_folder(variable: str, complete: Callable[[Path], bool], expected: str) -> Path | None:
    """The folder ``$variable`` names (``None`` when unset), refused unless ``complete``."""
    explicit = os.environ.get(variable)
    if not explicit:
        return None
    folder = Path(explicit)
    if not complete(folder):
        raise AssetsNotFound(f"{variable}={explicit}: expected {expected} in it")
    return folder


def _versions(kubernetes_version: str | None, etcd_version: str | None) -> EnvtestVersions:
    try:
        return requested_versions(kubernetes_version, etcd_version)
    except ValueError as e:
        raise AssetsNotFound(str(e)) from None


def _run_recipe(script: Path, versions: EnvtestVersions) -> Path:
    """Runs a checkout's build recipe (build.sh, cluster.sh) for ``versions``: it builds once, then
    prints the cached folder as its last line."""
    env = dict(os.environ, **{KUBERNETES_VERSION_ENV: versions.kubernetes, ETCD_VERSION_ENV: versions.etcd})
    result = subprocess.run([str(script)], stdout=subprocess.PIPE, text=True, check=False, env=env)
    if result.returncode != 0:
        raise AssetsNotFound(f"{script} failed with exit code {result.returncode} (its errors are above)")
    return Path(result.stdout.strip().splitlines()[-1])


def find_assets(kubernetes_version: str | None = None, etcd_version: str | None = None) -> Path:
    """The folder of the kube-apiserver and etcd binaries: ``$KUBEBUILDER_ASSETS``; else, for the
    versions asked for (see ``requested_versions``; default ``PINNED``), what the checkout's
    hack/envtest/build.sh builds, or outside a checkout the cache folder ``kgen envtest`` builds.
    ``AssetsNotFound`` otherwise, saying the command that builds them."""
    explicit = _explicit_folder("KUBEBUILDER_ASSETS", _complete, f"executable files {', '.join(BINARIES)}")
    if explicit is not None:
        return explicit
    versions = _versions(kubernetes_version, etcd_version)
    script = _build_script()
    if script is not None:
        return _run_recipe(script, versions)
    cache = cache_root() / "envtest"
    folder = cache / versions.folder_name
    if _complete(folder):
        return folder
    others = sorted(p.name for p in cache.glob("k8s-*") if _complete(p)) if cache.is_dir() else []
    held = f" (it holds {', '.join(others)})" if others else ""
    raise AssetsNotFound(
        f"no kube-apiserver/etcd for Kubernetes {versions.kubernetes} / etcd {versions.etcd} in {folder}{held}: "
        f"build them with `{build_command(versions)}` (pip install kgen-k8s; needs Go), or set "
        "KUBEBUILDER_ASSETS to a folder holding 'etcd' and 'kube-apiserver' (e.g. from setup-envtest)"
    )


# -- the whole cluster (Cluster): the envtest binaries plus controllers, scheduler, kubectl, kwok --

CLUSTER_BINARIES = (*BINARIES, "kube-controller-manager", "kube-scheduler", "kubectl", "kwok")
CLUSTER_ASSETS_ENV = "KGEN_CLUSTER_ASSETS"
"""The environment variable naming a ready cluster folder (as ``kgen envtest --cluster`` prints)."""
KWOK_VERSION = "0.8.0"
"""The kwok release the cluster's simulated nodes run (hack/envtest/versions.env's KWOK_VERSION)."""


def _cluster_complete(folder: Path) -> bool:
    return _complete_names(folder, CLUSTER_BINARIES) and (folder / "kwok-stages").is_dir() and (
        folder / "kwok-crds"
    ).is_dir()


def _complete_names(folder: Path, names: tuple[str, ...]) -> bool:
    return all(os.access(folder / name, os.X_OK) for name in names)


def find_cluster_assets(kubernetes_version: str | None = None, etcd_version: str | None = None) -> Path:
    """The folder of a whole cluster's binaries (``CLUSTER_BINARIES``, kwok's Stages and CRDs):
    ``$KGEN_CLUSTER_ASSETS``; else, for the versions asked for (as ``find_assets``), what the
    checkout's hack/envtest/cluster.sh builds, or outside a checkout the folder
    ``kgen envtest --cluster`` builds. ``$KUBEBUILDER_ASSETS`` is not read: it names an
    apiserver-only folder. ``AssetsNotFound`` otherwise, saying the command that builds them."""
    explicit = _explicit_folder(
        CLUSTER_ASSETS_ENV, _cluster_complete,
        f"executable files {', '.join(CLUSTER_BINARIES)} and the folders kwok-stages, kwok-crds",
    )
    if explicit is not None:
        return explicit
    versions = _versions(kubernetes_version, etcd_version)
    script = _build_script()
    if script is not None:
        return _run_recipe(script.with_name("cluster.sh"), versions)
    cache = cache_root() / "cluster"
    # The folder name ends with the kwok patch's digest, which only the recipe knows: any build of
    # this kwok release for these versions serves, the newest first.
    pattern = f"{versions.folder_name}-kwok-{KWOK_VERSION}-*"
    found = sorted((p for p in cache.glob(pattern) if _cluster_complete(p)), key=lambda p: p.stat().st_mtime)
    if found:
        return found[-1]
    flags = f" --kubernetes-version {versions.kubernetes} --etcd-version {versions.etcd}"
    raise AssetsNotFound(
        f"no cluster binaries for Kubernetes {versions.kubernetes} / etcd {versions.etcd} / kwok {KWOK_VERSION} "
        f"in {cache}: build them with `kgen envtest --cluster{flags}` (pip install kgen-k8s; needs Go), or set "
        f"{CLUSTER_ASSETS_ENV} to a folder it printed"
    )
