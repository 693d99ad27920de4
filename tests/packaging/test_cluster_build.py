"""hack/envtest/cluster.sh (and `kgen envtest --cluster`) when it cannot finish: no Go, a failed
build, an interrupted build. Each says so and leaves no cache folder, whole or half made.

The envtest part (kube-apiserver, etcd) is a stand-in folder here, so the script goes straight
to the controllers' build; the stand-in `go` fails or hangs where the real one would build. The
real, complete build is exercised by tests/cluster, which make test runs on 1.37 and 1.34.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "hack" / "envtest" / "cluster.sh"
VERSIONS = dict(
    line.split("=", 1)
    for line in (ROOT / "hack" / "envtest" / "versions.env").read_text().splitlines()
    if "=" in line and not line.startswith("#")
)

FAKE_GO = """#!/usr/bin/env bash
# A stand-in for the Go toolchain: `build` fails, or hangs with FAKE_GO_HANG (writing its pid).
case "$1" in
  env) echo go1.26.0 ;;
  build)
    if [[ -n "${FAKE_GO_HANG:-}" ]]; then echo $$ > "$FAKE_GO_HANG"; sleep 60; fi
    echo "fake go: build failed" >&2; exit 1 ;;
  *) exit 0 ;;
esac
"""


@pytest.fixture
def cache(tmp_path: Path) -> Path:
    """A cache root whose envtest folder for the pinned versions is complete (stand-in binaries)."""
    root = tmp_path / "cache"
    envtest = root / "envtest" / f"k8s-{VERSIONS['KUBERNETES_VERSION']}-etcd-{VERSIONS['ETCD_VERSION']}"
    envtest.mkdir(parents=True)
    for name in ("etcd", "kube-apiserver"):
        (envtest / name).write_text("#!/bin/sh\n")
        (envtest / name).chmod(0o755)
    return root


def _path_without_go(tmp_path: Path, fake_go: bool) -> str:
    """PATH with the system tools and, if asked, the stand-in go; never the real Go."""
    folder = tmp_path / "bin"
    folder.mkdir(exist_ok=True)
    if fake_go:
        (folder / "go").write_text(FAKE_GO)
        (folder / "go").chmod(0o755)
    system = [p for p in os.environ["PATH"].split(os.pathsep) if not (Path(p) / "go").exists()]
    return os.pathsep.join([str(folder), *system])


def _env(cache: Path, path: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("KGEN_ENVTEST_", "KGEN_CLUSTER"))}
    return {**env, "KGEN_CACHE_DIR": str(cache), "PATH": path}


def _entries(cache: Path) -> list[str]:
    """What the build left in the cache besides the envtest stand-in (hidden temp folders too)."""
    return sorted(
        str(p.relative_to(cache)) for folder in ("cluster", "kwok") if (cache / folder).is_dir() for p in (cache / folder).iterdir()
    )


def test_without_go_the_build_says_so_in_one_line_and_leaves_no_folder(cache: Path, tmp_path: Path) -> None:
    done = subprocess.run([str(SCRIPT)], capture_output=True, text=True, env=_env(cache, _path_without_go(tmp_path, False)))
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr == (
        "cluster.sh: the Go toolchain is needed to build kube-controller-manager, kube-scheduler and kubectl "
        "(install Go, then run this again)\n"
    )
    assert _entries(cache) == []


def test_kgen_envtest_cluster_without_go_exits_2_naming_what_is_missing(cache: Path, tmp_path: Path) -> None:
    kgen = Path(sys.executable).with_name("kgen")
    done = subprocess.run(
        [str(kgen), "envtest", "--cluster", "--cache-dir", str(cache)],
        capture_output=True, text=True, env=_env(cache, _path_without_go(tmp_path, False)),
    )
    assert done.returncode == 2 and done.stdout == ""
    (line,) = done.stderr.splitlines()
    assert line.startswith("kgen envtest: the cluster's binaries (etcd, kube-apiserver, kube-controller-manager, ")
    assert f"for Kubernetes {VERSIONS['KUBERNETES_VERSION']} / etcd {VERSIONS['ETCD_VERSION']} are not in {cache}/cluster/" in line
    assert line.endswith("building them needs the Go toolchain (go 1.26 or newer) on PATH")
    assert _entries(cache) == []


def test_a_failed_build_leaves_no_folder(cache: Path, tmp_path: Path) -> None:
    done = subprocess.run([str(SCRIPT)], capture_output=True, text=True, env=_env(cache, _path_without_go(tmp_path, True)))
    assert done.returncode != 0 and done.stdout == ""
    assert "fake go: build failed" in done.stderr
    assert _entries(cache) == []


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_an_interrupted_build_leaves_no_folder(cache: Path, tmp_path: Path, sig: signal.Signals) -> None:
    hung = tmp_path / "go.pid"
    env = {**_env(cache, _path_without_go(tmp_path, True)), "FAKE_GO_HANG": str(hung)}
    # Its own process group, signalled whole, as a terminal's Ctrl-C or a CI runner's stop does.
    proc = subprocess.Popen([str(SCRIPT)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, start_new_session=True)
    deadline = time.monotonic() + 30
    while not hung.exists():
        assert proc.poll() is None and time.monotonic() < deadline, "the build never reached `go build`"
        time.sleep(0.05)
    assert [p.name for p in (cache / "cluster").iterdir()] != []  # mid-build: its temp folders exist
    os.killpg(proc.pid, sig)
    proc.wait(timeout=30)
    assert proc.returncode != 0
    assert _entries(cache) == []
