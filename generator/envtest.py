"""`kgen envtest`: the kube-apiserver and etcd binaries for a project's tests, found or built.

controller-runtime's setup-envtest plays this role for Go projects: it puts the binaries in a
folder and prints it, for ``KUBEBUILDER_ASSETS`` (the layout kgen's test harness,
``kgen.runtime.testing``, reads). kgen builds them instead of downloading them: kube-apiserver
from ``k8s.io/kubernetes`` and etcd from ``go.etcd.io/etcd/server/v3``, through the Go module
proxy, with the Go modules and script of ``hack/envtest/`` — which kgen's wheel ships as
``kgen/envtest/``, so the command works from an install, outside this repository. The pinned
versions (``versions.env``) build from the checked-in Go modules; other versions from modules
build.sh writes the same way (k8s.io/kubernetes's staging modules replaced by their
v0.<minor>.<patch> releases, read from its go.mod, as the DESIGN notes).

The versions: the flags, else ``$KGEN_ENVTEST_KUBERNETES_VERSION`` / ``$KGEN_ENVTEST_ETCD_VERSION``,
else the pinned ones, resolved by the test harness's own rule (``kgen.runtime.testing``'s
``requested_versions``), so both name the same folder. The folder is
``<cache>/envtest/k8s-<kubernetes>-etcd-<etcd>`` (cache: ``--cache-dir``, else
``$KGEN_CACHE_DIR``, else ``$XDG_CACHE_HOME/kgen``, else ``~/.cache/kgen``): the same folder the
repository's ``make test`` builds into, so one build serves both. A complete folder is reused; a
build goes to a temporary folder that is renamed into place, so an interrupted build leaves none.

``--cluster``: a whole test cluster's binaries instead (``kgen.runtime.testing.Cluster``): the
same two, plus kube-controller-manager, kube-scheduler and kubectl of the same Kubernetes version
and kwok (simulated nodes, built with the recipe's kwok-exec.patch) with its Stages and CRDs, by
the recipe's ``cluster.sh``; the folder printed is
``<cache>/cluster/k8s-<kubernetes>-etcd-<etcd>-kwok-<kwok>-<patch digest>``, for
``$KGEN_CLUSTER_ASSETS``.

Exit codes: 0 the folder is printed; 1 the build failed, or ``--no-build`` and it is missing;
2 the request cannot be met here (a malformed version, no Go toolchain or one older than the
recipe's go.mod needs) — one line on stderr saying what to do.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from kgen.runtime.testing._assets import requested_versions
from kgen.runtime.util.paths import cache_root

BINARIES = ("etcd", "kube-apiserver")
CLUSTER_BINARIES = (*BINARIES, "kube-controller-manager", "kube-scheduler", "kubectl", "kwok")
_GO_VERSION = re.compile(r"go(\d+)\.(\d+)")


class EnvtestError(Exception):
    """The request cannot be met here: exit 2 with this message."""


class BuildFailed(Exception):
    """The binaries could not be provided: exit 1 with this message."""


@dataclass(frozen=True)
class Recipe:
    """The folder `hack/envtest/` (installed: `kgen/envtest/`) and the versions it pins."""

    folder: Path
    kubernetes: str
    etcd: str
    go: tuple[int, int]  # the newest `go` directive of its go.mod files
    kwok: str = ""

    @property
    def script(self) -> Path:
        return self.folder / "build.sh"

    @property
    def cluster_script(self) -> Path:
        return self.folder / "cluster.sh"

    @property
    def kwok_patch_id(self) -> str:
        """What cluster.sh keys kwok's build by: the first 12 hex digits of the patch's SHA-256."""
        return hashlib.sha256((self.folder / "kwok-exec.patch").read_bytes()).hexdigest()[:12]


def recipe() -> Recipe:
    spec = importlib.util.find_spec("kgen.envtest")
    locations = list(spec.submodule_search_locations or []) if spec else []
    for location in map(Path, locations):
        if (location / "build.sh").is_file() and (location / "versions.env").is_file():
            pins = _read_env(location / "versions.env")
            go = max(_go_directive(location / module / "go.mod") for module in BINARIES)
            return Recipe(location, pins["KUBERNETES_VERSION"], pins["ETCD_VERSION"], go, pins.get("KWOK_VERSION", ""))
    raise EnvtestError("kgen's envtest recipe (kgen/envtest/build.sh) is missing from this installation")


def _read_env(path: Path) -> dict[str, str]:
    pairs = (line.split("=", 1) for line in path.read_text().splitlines() if "=" in line and not line.startswith("#"))
    return {key.strip(): value.strip() for key, value in pairs}


def _go_directive(go_mod: Path) -> tuple[int, int]:
    found = re.search(r"^go (\d+)\.(\d+)", go_mod.read_text(), re.MULTILINE)
    if found is None:
        raise EnvtestError(f"{go_mod}: no go directive")
    return int(found[1]), int(found[2])


def assets_folder(root: Path, kubernetes: str, etcd: str) -> Path:
    return root / "envtest" / f"k8s-{kubernetes}-etcd-{etcd}"


def cluster_folder(root: Path, kubernetes: str, etcd: str, pinned: Recipe) -> Path:
    return root / "cluster" / f"k8s-{kubernetes}-etcd-{etcd}-kwok-{pinned.kwok}-{pinned.kwok_patch_id}"


def complete(folder: Path, binaries: tuple[str, ...] = BINARIES) -> bool:
    return all(os.access(folder / name, os.X_OK) for name in binaries)


def _check_go(needed: tuple[int, int], missing: str) -> None:
    go = shutil.which("go")
    if go is None:
        raise EnvtestError(f"{missing}; building them needs the Go toolchain (go {needed[0]}.{needed[1]} or newer) on PATH")
    result = subprocess.run([go, "env", "GOVERSION"], capture_output=True, text=True, check=False)
    found = _GO_VERSION.match(result.stdout.strip())
    if result.returncode != 0 or found is None:
        raise EnvtestError(f"{missing}; `{go} env GOVERSION` did not answer a Go version")
    have = (int(found[1]), int(found[2]))
    if have < needed:
        raise EnvtestError(
            f"{missing}; building them needs go {needed[0]}.{needed[1]} or newer, and {go} is {result.stdout.strip()}"
        )


def ensure(kubernetes: str | None, etcd: str | None, root: Path, *, build: bool, cluster: bool = False) -> Path:
    """The folder holding both binaries for these versions (``cluster``: a whole cluster's), built
    if missing and ``build``.

    Raises EnvtestError (exit 2) or BuildFailed (exit 1)."""
    pinned = recipe()
    # The same resolution as the test harness's find_assets (kgen.runtime.testing): the flags,
    # else $KGEN_ENVTEST_KUBERNETES_VERSION / $KGEN_ENVTEST_ETCD_VERSION, else the pinned versions,
    # so the folder printed here is the one the harness runs.
    try:
        versions = requested_versions(kubernetes, etcd, names=("--kubernetes-version", "--etcd-version"))
    except ValueError as e:
        raise EnvtestError(str(e)) from None
    kubernetes, etcd = versions.kubernetes, versions.etcd
    binaries: tuple[str, ...]
    if cluster:
        folder, binaries, script = cluster_folder(root, kubernetes, etcd, pinned), CLUSTER_BINARIES, pinned.cluster_script
        what = "the cluster's binaries (" + ", ".join(CLUSTER_BINARIES) + ")"
    else:
        folder, binaries, script = assets_folder(root, kubernetes, etcd), BINARIES, pinned.script
        what = "kube-apiserver and etcd"
    if complete(folder, binaries):
        return folder
    missing = f"{what} for Kubernetes {kubernetes} / etcd {etcd} are not in {folder}"
    if not build:
        raise BuildFailed(f"{missing} (--no-build)")
    _check_go(pinned.go, missing)
    env = dict(os.environ, KGEN_CACHE_DIR=str(root), KGEN_ENVTEST_KUBERNETES_VERSION=kubernetes,
               KGEN_ENVTEST_ETCD_VERSION=etcd)
    # build.sh reports its progress on stderr and prints the folder last on stdout.
    with subprocess.Popen(["bash", str(script)], stdout=subprocess.PIPE, text=True, env=env) as proc:
        try:
            stdout, _ = proc.communicate()
        except KeyboardInterrupt:
            # Ctrl-C reached build.sh too: give its EXIT trap the time to remove the temporary
            # folders (subprocess.run would SIGKILL it after a quarter of a second).
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.terminate()
            raise
    built = Path(stdout.strip().splitlines()[-1]) if stdout.strip() else None
    if proc.returncode != 0 or built != folder or not complete(folder, binaries):
        raise BuildFailed(f"building {what} failed (exit code {proc.returncode}; its errors are above)")
    return folder


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    try:
        pinned: Recipe | None = recipe()
    except EnvtestError:
        pinned = None
    kubernetes, etcd = (pinned.kubernetes, pinned.etcd) if pinned else ("pinned", "pinned")
    parser = sub.add_parser(
        "envtest",
        help="find or build kube-apiserver and etcd for tests; print their folder (for KUBEBUILDER_ASSETS)",
        description="Find, or build from the Go module proxy (needs Go), the kube-apiserver and etcd binaries "
        "kgen.runtime.testing runs, and print the folder holding them: "
        'export KUBEBUILDER_ASSETS="$(kgen envtest)". '
        f"Default versions: Kubernetes {kubernetes}, etcd {etcd} (built from checked-in Go modules; "
        "other versions resolve theirs through the proxy). The first build takes several minutes; "
        "later runs reuse it.",
    )
    parser.add_argument("--kubernetes-version", "--kubernetes", metavar="X.Y.Z",
                        help=f"kube-apiserver version (default: $KGEN_ENVTEST_KUBERNETES_VERSION, else {kubernetes})")
    parser.add_argument("--etcd-version", metavar="X.Y.Z",
                        help=f"etcd version (default: $KGEN_ENVTEST_ETCD_VERSION, else {etcd})")
    parser.add_argument("--cache-dir", type=Path, metavar="DIR",
                        help="cache root; the binaries go to DIR/envtest/k8s-<version>-etcd-<version> "
                        "(default: $KGEN_CACHE_DIR, else ~/.cache/kgen)")
    parser.add_argument("--no-build", action="store_true", help="only look in the cache; exit 1 if they are missing")
    parser.add_argument("--cluster", action="store_true",
                        help="a whole test cluster instead: also kube-controller-manager, kube-scheduler and kubectl "
                        "of the same version, and kwok's simulated nodes (kgen.runtime.testing.Cluster; "
                        "for KGEN_CLUSTER_ASSETS)")


def run(args: argparse.Namespace) -> int:
    try:
        # Absolute: the folder printed is meant for KUBEBUILDER_ASSETS, read from anywhere.
        root = (args.cache_dir or cache_root()).absolute()
        folder = ensure(args.kubernetes_version, args.etcd_version, root, build=not args.no_build, cluster=args.cluster)
    except EnvtestError as e:
        print(f"kgen envtest: {e}", file=sys.stderr)
        return 2
    except BuildFailed as e:
        print(f"kgen envtest: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        # build.sh got the same SIGINT and removed its temporary folders: no cache entry is half made.
        print("kgen envtest: interrupted", file=sys.stderr)
        return 130
    print(folder)
    return 0
