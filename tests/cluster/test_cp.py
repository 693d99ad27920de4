"""``copy_to_pod`` / ``copy_from_pod`` on the whole cluster, with ``kubectl cp`` of the same
release as the oracle. kwok runs a pod's exec as a local process in a work folder, so the
folder is "the pod's filesystem" and the pod's ``tar`` is this machine's GNU tar: kubectl and
kgen copy the same sources to sibling destinations, and the two results must hold the same
names, types, bytes, link targets and modes.

The refusals need an archive GNU tar does not write by itself: a second pod's exec gets
``TAR_OPTIONS`` (read by GNU tar from the environment) that keep and rewrite member names, so
that its ``tar cf -`` writes an entry escaping the destination (``d/../../escaped``) and entries
outside the requested path (``other/...``).
"""

from __future__ import annotations

import asyncio
import os
import shutil
import stat
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from kgen.kubernetes import AsyncClientset, Clientset
from kgen.kubernetes.models.core.v1 import Pod
from kgen.runtime.kubectl import CopyError, async_copy_from_pod, async_copy_to_pod, copy_from_pod, copy_to_pod
from kgen.runtime.rest import load_kubeconfig
from kgen.runtime.testing import Cluster
from tests.cluster.conftest import wait_for

pytestmark = pytest.mark.timeout(120)

Snapshot = dict[str, tuple[str, int, bytes]]


def _tree(root: Path) -> Path:
    """Files of several modes and sizes, a nested and an empty directory, odd names, a symlink."""
    (root / "sub" / "deeper").mkdir(parents=True)
    (root / "empty").mkdir()
    (root / "empty").chmod(0o700)
    files = {
        "a.txt": (b"hello\n", 0o644),
        "run.sh": (b"#!/bin/sh\necho hi\n", 0o755),
        "secret": (b"s3cr3t", 0o600),
        "setuid": (b"x", 0o4755),
        "sub/binary": (os.urandom(1_500_000), 0o640),
        "sub/deeper/name with spaces \u00fcn\u00ef.txt": ("\u00fc\n".encode(), 0o664),
        "sub/empty-file": (b"", 0o444),
    }
    for name, (data, mode) in files.items():
        (root / name).write_bytes(data)
        (root / name).chmod(mode)
    (root / "link").symlink_to("a.txt")
    (root / "sub" / "absolute-link").symlink_to("/etc/passwd")
    return root


def _snapshot(root: Path) -> Snapshot:
    """Every path under ``root`` (``root`` itself as "."): its type, mode and bytes or link target."""
    found: Snapshot = {}
    paths = [root, *sorted(root.rglob("*"))] if root.is_dir() and not root.is_symlink() else [root]
    for path in paths:
        info = path.lstat()
        name = "." if path == root else str(path.relative_to(root))
        if stat.S_ISLNK(info.st_mode):
            found[name] = ("link", 0, os.readlink(path).encode())
        elif stat.S_ISDIR(info.st_mode):
            found[name] = ("dir", stat.S_IMODE(info.st_mode), b"")
        else:
            found[name] = ("file", stat.S_IMODE(info.st_mode), path.read_bytes())
    return found


def _kubectl_cp(kube_cluster: Cluster, source: str, destination: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(kube_cluster.assets / "kubectl"), f"--kubeconfig={kube_cluster.kubeconfig}", "cp", source, destination],
        capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=60, cwd=cwd,
    )


def _pod(kube_cluster: Cluster, cs: Clientset, ns: str, name: str, work: Path, env: dict[str, str] | None = None) -> str:
    """A Running pod whose exec runs in ``work`` (with ``env``), once kwok has the rule."""
    work.mkdir(parents=True, exist_ok=True)
    kube_cluster.set_cluster_exec(f"{ns}-{name}", work_dir=work, env=env, namespaces=[ns], pods=[name])
    cs.core_v1.pods(ns).create(
        Pod.from_dict({"metadata": {"name": name}, "spec": {"containers": [{"name": "app", "image": "example.com/app:1"}]}})
    )

    def ready() -> bool:
        status = cs.core_v1.pods(ns).get(name).status
        if status is None or status.phase != "Running":
            return False
        try:
            return cs.core_v1.pods(ns).exec(name, ["pwd"], timeout=10).stdout == f"{work}\n".encode()
        except Exception:  # kwok without the rule yet: "no exec found"
            return False

    wait_for(f"pod {name} running with its exec rule", ready)
    return name


@pytest.fixture
def plain(kube_cluster: Cluster, cs: Clientset, ns: str, tmp_path: Path) -> Iterator[tuple[str, Path]]:
    work = tmp_path / "pod"
    pod = _pod(kube_cluster, cs, ns, "plain", work)
    yield pod, work
    kube_cluster.delete_kwok_rule("ClusterExec", f"{ns}-plain")


def test_copies_into_the_pod_equal_kubectl_cps(
    kube_cluster: Cluster, cs: Clientset, ns: str, plain: tuple[str, Path], tmp_path: Path
) -> None:
    pod, work = plain
    local = tmp_path / "local"
    _tree(local / "tree")
    pods = cs.core_v1.pods(ns)
    cases = [  # (local source, remote destination): new names, existing directories, a file, a trailing slash
        ("tree", "new"), ("tree", "existing"), ("tree/a.txt", "file-copy"), ("tree/sub/binary", "existing"),
        ("tree/", "slashed/"), ("tree/empty", "empty-copy"), ("tree/link", "link-copy"),
    ]
    for who in ("kubectl", "kgen", "async"):
        (work / who / "existing").mkdir(parents=True)
    for source, destination in cases:
        done = _kubectl_cp(kube_cluster, source, f"{ns}/{pod}:kubectl/{destination}", cwd=local)
        assert done.returncode == 0, (source, done.stderr)
        copy_to_pod(pods, pod, local / source if not source.endswith("/") else f"{local / source}/", f"kgen/{destination}")
    expected = _snapshot(work / "kubectl")
    assert _snapshot(work / "kgen") == expected
    # not comparing empty trees: the copies hold the tree with its modes
    assert expected["new/run.sh"][:2] == ("file", 0o755) and expected["new/secret"][:2] == ("file", 0o600)
    assert expected["existing/tree/setuid"][1] == 0o4755 and expected["empty-copy"] == ("dir", 0o700, b"")
    assert expected["existing/binary"][2] == (local / "tree/sub/binary").read_bytes() and expected["new/link"] == ("link", 0, b"a.txt")

    async def copy_async() -> None:
        async with AsyncClientset(load_kubeconfig(kube_cluster.kubeconfig)) as acs:
            for source, destination in cases:
                await async_copy_to_pod(acs.core_v1.pods(ns), pod, str(local / source), f"async/{destination}")

    asyncio.run(copy_async())
    assert _snapshot(work / "async") == expected

    # the pod's tar fails (no such parent): kubectl exits with its code after its messages
    failed = _kubectl_cp(kube_cluster, "tree", f"{ns}/{pod}:no/such/parent", cwd=local)
    assert failed.returncode == 2 and "command terminated with exit code 2" in failed.stderr, failed

    async def fail_async() -> CopyError:
        async with AsyncClientset(load_kubeconfig(kube_cluster.kubeconfig)) as acs:
            with pytest.raises(CopyError) as e:
                await async_copy_to_pod(acs.core_v1.pods(ns), pod, str(local / "tree"), "no/such/parent")
            return e.value

    error = asyncio.run(fail_async())
    assert error.exit_code == failed.returncode and error.stderr and error.stderr in failed.stdout + failed.stderr

    missing = _kubectl_cp(kube_cluster, "nowhere", f"{ns}/{pod}:x", cwd=local)
    with pytest.raises(FileNotFoundError) as e:
        copy_to_pod(pods, pod, "nowhere", "x")
    assert missing.returncode == 1 and f"error: {e.value}\n" == missing.stderr


def test_copies_out_of_the_pod_equal_kubectl_cps(
    kube_cluster: Cluster, cs: Clientset, ns: str, plain: tuple[str, Path], tmp_path: Path
) -> None:
    pod, work = plain
    _tree(work / "tree")
    pods = cs.core_v1.pods(ns)
    cases = [  # (remote source, local destination)
        ("tree", "new"), ("tree", "existing"), ("tree/a.txt", "file-copy"), ("tree/sub/", "slashed"),
        (f"{work}/tree/sub/deeper", "absolute"), ("tree/empty", "empty-copy"),
    ]
    warnings: dict[str, list[str]] = {}
    for who in ("kubectl", "kgen", "async"):
        (tmp_path / who / "existing").mkdir(parents=True)
        warnings[who] = []
    for source, destination in cases:
        done = _kubectl_cp(kube_cluster, f"{ns}/{pod}:{source}", str(tmp_path / "kubectl" / destination), cwd=tmp_path)
        assert done.returncode == 0, (source, done.stderr)
        warnings["kubectl"] += [line.replace(str(tmp_path / "kubectl"), "<dest>") for line in done.stderr.splitlines()]
        result = copy_from_pod(pods, pod, source, tmp_path / "kgen" / destination)
        warnings["kgen"] += ["warning: " + w.replace(str(tmp_path / "kgen"), "<dest>") for w in result.warnings]

    async def copy_async() -> None:
        async with AsyncClientset(load_kubeconfig(kube_cluster.kubeconfig)) as acs:
            for source, destination in cases:
                result = await async_copy_from_pod(acs.core_v1.pods(ns), pod, source, str(tmp_path / "async" / destination))
                warnings["async"] += ["warning: " + w.replace(str(tmp_path / "async"), "<dest>") for w in result.warnings]

    asyncio.run(copy_async())
    expected = _snapshot(tmp_path / "kubectl")
    assert _snapshot(tmp_path / "kgen") == expected
    assert _snapshot(tmp_path / "async") == expected
    assert expected["existing/sub/binary"][2] == (work / "tree/sub/binary").read_bytes()
    assert not {"link", "absolute-link"} & {Path(name).name for name in expected}  # symlinks skipped
    # kubectl's words; its first symlink warning goes on with a hint to use "kubectl exec ... tar"
    assert len(warnings["kubectl"]) == len(warnings["kgen"]) == 5  # two symlinks in each copy of the tree, one in sub
    assert all(k.startswith(g) for k, g in zip(warnings["kubectl"], warnings["kgen"], strict=True)), warnings
    assert 'warning: skipping symlink: "<dest>/new/link" -> "a.txt"' in warnings["kgen"]
    assert 'warning: skipping symlink: "<dest>/existing/sub/absolute-link" -> "/etc/passwd"' in warnings["kgen"]
    assert warnings["async"] == warnings["kgen"]

    missing = _kubectl_cp(kube_cluster, f"{ns}/{pod}:nowhere", str(tmp_path / "nowhere"), cwd=tmp_path)
    with pytest.raises(CopyError) as e:
        copy_from_pod(pods, pod, "nowhere", tmp_path / "nowhere-kgen")
    # kubectl prints the pod tar's complaint on stdout (as much of it as arrives before it exits,
    # which races with the end of the archive: all, some or none) and exits 0, having copied
    # nothing; kgen raises,
    # with tar's exit code and whole message: a script should not take it for a copy
    assert e.value.exit_code == 2
    assert "tar: nowhere: Cannot stat: No such file or directory" in e.value.stderr
    assert missing.returncode == 0 and e.value.stderr.startswith(missing.stdout), missing
    assert not (tmp_path / "nowhere").exists() and not (tmp_path / "nowhere-kgen").exists()


@pytest.fixture
def crafty(kube_cluster: Cluster, cs: Clientset, ns: str, tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """A pod whose ``tar cf -`` rewrites ``d/x`` as ``d/../../escaped`` and ``e/...`` as ``other/...``."""
    work = tmp_path / "crafty"
    for folder in ("d", "e"):
        (work / folder).mkdir(parents=True)
        for name in ("x", "y"):
            (work / folder / name).write_text(f"{folder}/{name}\n")
    options = r"--absolute-names --transform=s,^d/x$,d/../../escaped, --transform=s,^e/,other/,"
    pod = _pod(kube_cluster, cs, ns, "crafty", work, env={"TAR_OPTIONS": options})
    yield pod, work
    kube_cluster.delete_kwok_rule("ClusterExec", f"{ns}-crafty")


def test_entries_escaping_the_destination_are_skipped_and_foreign_ones_refused_as_kubectl_does(
    kube_cluster: Cluster, cs: Clientset, ns: str, crafty: tuple[str, Path], tmp_path: Path
) -> None:
    pod, _ = crafty
    pods = cs.core_v1.pods(ns)
    for who in ("kubectl", "kgen"):
        (tmp_path / who / "nested").mkdir(parents=True)
    done = _kubectl_cp(kube_cluster, f"{ns}/{pod}:d", str(tmp_path / "kubectl" / "nested" / "out"), cwd=tmp_path)
    result = copy_from_pod(pods, pod, "d", tmp_path / "kgen" / "nested" / "out")
    assert done.returncode == 0, done.stderr
    assert done.stderr == f'warning: file "{tmp_path}/kubectl/escaped" is outside target destination, skipping\n'
    assert result.warnings == [f'file "{tmp_path}/kgen/escaped" is outside target destination, skipping']
    assert _snapshot(tmp_path / "kgen") == _snapshot(tmp_path / "kubectl")
    assert sorted(p.name for p in (tmp_path / "kgen").rglob("*")) == ["nested", "out", "y"]  # nothing escaped

    refused = _kubectl_cp(kube_cluster, f"{ns}/{pod}:e", str(tmp_path / "kubectl-e"), cwd=tmp_path)
    assert refused.returncode == 1 and refused.stderr == "error: tar contents corrupted\n"
    with pytest.raises(CopyError, match="^tar contents corrupted$"):
        copy_from_pod(pods, pod, "e", tmp_path / "kgen-e")

    async def refused_async() -> None:
        async with AsyncClientset(load_kubeconfig(kube_cluster.kubeconfig)) as acs:
            shutil.rmtree(tmp_path / "kgen")
            result = await async_copy_from_pod(acs.core_v1.pods(ns), pod, "d", str(tmp_path / "kgen" / "nested" / "out"))
            assert result.warnings == [f'file "{tmp_path}/kgen/escaped" is outside target destination, skipping']
            with pytest.raises(CopyError, match="^tar contents corrupted$"):
                await async_copy_from_pod(acs.core_v1.pods(ns), pod, "e", str(tmp_path / "async-e"))

    asyncio.run(refused_async())
    assert not (tmp_path / "escaped").exists()
