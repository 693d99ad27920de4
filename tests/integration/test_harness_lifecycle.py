"""The harness leaves nothing behind: not on success, not on SIGINT/SIGTERM, not on SIGKILL; and
hack/check-leftovers.sh, which checks that after `make test`, blames a run only for what it
started itself (its run log), never for another run's servers on the same machine."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from kgen.runtime.testing import KubeAPIServer
from kgen.runtime.testing._run_log import ENV as RUN_LOG_ENV
from kgen.runtime.testing._server import _sweep_stale_dirs

CHECK_LEFTOVERS = Path(__file__).resolve().parents[2] / "hack" / "check-leftovers.sh"

# A test session that starts the fixture, reports what it started, then waits to be stopped.
_SESSION = textwrap.dedent(
    """
    import json, os, time

    def test_wait(kube_apiserver):
        procs = [p.pid for p in kube_apiserver._procs]
        report = {"pids": procs, "dir": str(kube_apiserver._dir), "version": kube_apiserver.version}
        with open(os.environ["KGEN_REPORT"], "w") as f:
            json.dump(report, f)
        time.sleep(600)
    """
)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # a zombie (exited, not yet reaped by its parent) counts as gone
    try:
        return Path(f"/proc/{pid}/stat").read_text().split()[2] != "Z"
    except OSError:
        return False


def _wait_gone(pids: list[int], timeout: float = 20.0) -> list[int]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        left = [p for p in pids if _alive(p)]
        if not left:
            return []
        time.sleep(0.1)
    return [p for p in pids if _alive(p)]


def _start_session(tmp_path: Path, run_log: Path | None = None) -> tuple[subprocess.Popen[bytes], dict]:
    """A pytest session in a process of its own, recording into ``run_log`` if given (else into
    this run's log, if any)."""
    (tmp_path / "test_session.py").write_text(_SESSION)
    report = tmp_path / "report.json"
    env = dict(os.environ, KGEN_REPORT=str(report))
    if run_log is not None:
        env[RUN_LOG_ENV] = str(run_log)
    proc = subprocess.Popen(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_session.py"],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    deadline = time.monotonic() + 120
    while not report.exists() or not report.read_text():
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            out = proc.communicate()[0].decode(errors="replace")
            pytest.fail(f"the inner session never started its apiserver:\n{out}")
        time.sleep(0.2)
    return proc, json.loads(report.read_text())


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_interrupted_session_stops_servers_and_removes_temp_dir(tmp_path: Path, sig: signal.Signals) -> None:
    proc, started = _start_session(tmp_path)
    assert len(started["pids"]) == 2 and all(_alive(p) for p in started["pids"])
    assert Path(started["dir"]).is_dir()

    proc.send_signal(sig)
    proc.communicate(timeout=60)
    assert _wait_gone(started["pids"]) == []
    assert not Path(started["dir"]).exists()


def _check_leftovers(run_log: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(CHECK_LEFTOVERS), str(run_log)], capture_output=True, text=True, timeout=60)


def test_killed_session_takes_its_servers_along_and_next_start_sweeps_its_dir(tmp_path: Path) -> None:
    run_log = tmp_path / "run.log"
    proc, started = _start_session(tmp_path, run_log)
    proc.kill()  # no cleanup code runs at all
    proc.wait()
    assert _wait_gone(started["pids"]) == []  # PR_SET_PDEATHSIG took the children along
    assert Path(started["dir"]).is_dir()  # only a new start can remove what a SIGKILL left
    check = _check_leftovers(run_log)
    assert check.returncode == 1 and f"folder {started['dir']}" in check.stderr, check.stderr
    assert "process" not in check.stderr, "its servers are gone"

    _sweep_stale_dirs()
    assert not Path(started["dir"]).exists()
    check = _check_leftovers(run_log)
    assert check.returncode == 0, check.stderr
    assert "(2 envtest processes, 1 temp folders)" in check.stdout


def test_check_leftovers_blames_its_own_run_only(tmp_path: Path) -> None:
    """Another run's servers on the same machine, still running, are not this run's leftovers;
    this run's own server is, until it stops."""
    other_run = tmp_path / "other"
    other_run.mkdir()
    other, other_started = _start_session(other_run, other_run / "run.log")
    own_log = tmp_path / "own-run.log"
    try:
        with KubeAPIServer(run_log=own_log) as server:
            own_pids = [p.pid for p in server._procs]
            while_running = _check_leftovers(own_log)
            assert server._dir is not None
            own_dir = server._dir
        after = _check_leftovers(own_log)
        assert all(_alive(p) for p in other_started["pids"]), "the other run's servers stopped too early"
        assert Path(other_started["dir"]).is_dir()
        assert _check_leftovers(other_run / "run.log").returncode == 1, "its own check sees them"
    finally:
        other.send_signal(signal.SIGINT)  # the other run ends as runs do: it stops its servers
        try:
            other.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            other.kill()
            other.communicate()
    assert while_running.returncode == 1
    for pid in own_pids:
        assert f"process {pid} " in while_running.stderr
    assert f"folder {own_dir}" in while_running.stderr
    assert str(other_started["dir"]) not in while_running.stderr
    assert after.returncode == 0, after.stderr
    assert "(2 envtest processes, 1 temp folders)" in after.stdout
    assert _wait_gone(other_started["pids"]) == []
    assert _check_leftovers(other_run / "run.log").returncode == 0, "the other run cleaned up after itself"


def test_context_manager_stops_everything(tmp_path: Path) -> None:
    with KubeAPIServer() as server:
        pids = [p.pid for p in server._procs]
        folder = server._dir
        assert server.running and server.version.startswith("v1.")
        assert Path(server.kubeconfig).is_file()
    assert not server.running
    assert _wait_gone(pids) == []
    assert folder is not None and not folder.exists()


def test_failed_start_reports_the_log_and_leaves_nothing(tmp_path: Path) -> None:
    from kgen.runtime.testing import StartupError

    server = KubeAPIServer(apiserver_flags=("--no-such-flag=1",), startup_timeout=30)
    with pytest.raises(StartupError, match="no-such-flag"):
        server.start()
    assert not server.running and server._dir is None


def test_restart_apiserver_keeps_etcd_and_rewrites_the_kubeconfig(tmp_path: Path) -> None:
    from kgen.kubernetes import Clientset
    from kgen.kubernetes.models.core.v1 import ConfigMap
    from kgen.kubernetes.models.meta.v1 import ObjectMeta

    with KubeAPIServer(run_log=tmp_path / "run.log") as server:
        etcd, apiserver = list(server._procs)
        url = server.url
        Clientset.from_kubeconfig(server.kubeconfig).core_v1.config_maps("default").create(
            ConfigMap(metadata=ObjectMeta(name="kept"), data={"a": "1"}))
        server.restart_apiserver()
        assert apiserver.poll() is not None and etcd.poll() is None
        assert server.url != url and server.running
        kept = Clientset.from_kubeconfig(server.kubeconfig).core_v1.config_maps("default").get("kept")
        assert kept.data == {"a": "1"}
    assert etcd.poll() is not None and not server.running
    with pytest.raises(RuntimeError, match="not running"):
        server.restart_apiserver()
