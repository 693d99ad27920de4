"""The harness leaves nothing behind: not on success, not on SIGINT/SIGTERM, not on SIGKILL."""

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


def _start_session(tmp_path: Path) -> tuple[subprocess.Popen[bytes], dict]:
    (tmp_path / "test_session.py").write_text(_SESSION)
    report = tmp_path / "report.json"
    proc = subprocess.Popen(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_session.py"],
        cwd=tmp_path,
        env=dict(os.environ, KGEN_REPORT=str(report)),
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


def test_killed_session_takes_its_servers_along_and_next_start_sweeps_its_dir(tmp_path: Path) -> None:
    proc, started = _start_session(tmp_path)
    proc.kill()  # no cleanup code runs at all
    proc.wait()
    assert _wait_gone(started["pids"]) == []  # PR_SET_PDEATHSIG took the children along
    assert Path(started["dir"]).is_dir()  # only a new start can remove what a SIGKILL left

    from kgen.runtime.testing._server import _sweep_stale_dirs

    _sweep_stale_dirs()
    assert not Path(started["dir"]).exists()


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
