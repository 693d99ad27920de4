"""The kubelet's endpoints through the apiserver, on the whole cluster: pods/log, pods/exec and
pods/portforward, which kwok answers from its ClusterLogs, ClusterExec and ClusterPortForward
rules with local files, processes and sockets.

kgen's typed log call (``pods(ns).log``) is checked, and kubectl of the same version, an
independent client, checks logs -f, exec (stdout, stderr, exit code, stdin to EOF) and
port-forward; the exit code and the end of stdin are what kwok-exec.patch fixes in kwok v0.8.0.
"""

from __future__ import annotations

import queue
import re
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from kgen.kubernetes import Clientset
from kgen.kubernetes.models.core.v1 import Pod
from kgen.kubernetes.typed.core.v1 import PodsClient
from kgen.runtime.apimachinery import ApiError
from kgen.runtime.testing import Cluster, cri_log_line
from tests.cluster.conftest import hello_server, wait_for

pytestmark = pytest.mark.timeout(120)


@pytest.fixture
def pod(cs: Clientset, ns: str) -> str:
    """A pod the scheduler put on a kwok node, Running and Ready."""
    cs.core_v1.pods(ns).create(
        Pod.from_dict({"metadata": {"name": "shell"}, "spec": {"containers": [{"name": "app", "image": "example.com/app:1"}]}})
    )

    def running() -> bool:
        status = cs.core_v1.pods(ns).get("shell").status
        return status is not None and status.phase == "Running"

    wait_for("the pod Running", running)
    return "shell"


@pytest.fixture
def log_file(kube_cluster: Cluster, ns: str, tmp_path: Path) -> Iterator[Path]:
    path = tmp_path / "app.log"
    path.write_text("".join(cri_log_line(text) for text in ("one", "two", "three")))
    kube_cluster.set_cluster_logs(ns, path, namespaces=[ns])
    yield path
    kube_cluster.delete_kwok_rule("ClusterLogs", ns)


@pytest.fixture
def exec_dir(kube_cluster: Cluster, ns: str, tmp_path: Path) -> Iterator[Path]:
    kube_cluster.set_cluster_exec(ns, work_dir=tmp_path, env={"KGEN_GREETING": "hello"}, namespaces=[ns])
    yield tmp_path
    kube_cluster.delete_kwok_rule("ClusterExec", ns)


def _configured_log(pods: PodsClient, pod: str) -> list[str] | None:
    """The pod's log once kwok has picked its ClusterLogs rule up (within about a second; until
    then the log is empty, or an error)."""
    try:
        return list(pods.log(pod)) or None
    except ApiError:
        return None


def _append(path: Path, text: str) -> None:
    with path.open("a") as f:
        f.write(cri_log_line(text))


def test_the_typed_log_call_returns_the_configured_log(cs: Clientset, ns: str, pod: str, log_file: Path) -> None:
    pods = cs.core_v1.pods(ns)
    lines = wait_for("the configured log", lambda: _configured_log(pods, pod))
    assert lines == ["one", "two", "three"]
    assert list(pods.log(pod, tail_lines=1)) == ["three"]
    stamped = list(pods.log(pod, timestamps=True))
    assert [line.split(" ", 1)[1] for line in stamped] == ["one", "two", "three"]
    assert all(re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+Z", line.split(" ", 1)[0]) for line in stamped)


def test_the_typed_log_call_follows_appended_lines(cs: Clientset, ns: str, pod: str, log_file: Path) -> None:
    pods = cs.core_v1.pods(ns)
    wait_for("the configured log", lambda: _configured_log(pods, pod))
    # Read on this thread: a generator blocked in another thread cannot be closed from here.
    # A line that never comes hangs next(), and the test's timeout fails it.
    stream = pods.log(pod, follow=True)
    assert [next(stream) for _ in range(3)] == ["one", "two", "three"]
    _append(log_file, "four")
    assert next(stream) == "four"
    _append(log_file, "five")
    assert next(stream) == "five"
    getattr(stream, "close")()  # ends the request (the typed call returns a generator)


def test_kubectl_logs_follow_sees_appended_lines(kube_cluster: Cluster, cs: Clientset, ns: str, pod: str, log_file: Path) -> None:
    wait_for("the configured log", lambda: _configured_log(cs.core_v1.pods(ns), pod))
    kubectl = subprocess.Popen(
        [str(kube_cluster.assets / "kubectl"), f"--kubeconfig={kube_cluster.kubeconfig}", "logs", "-f", pod, "-n", ns],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    seen: queue.Queue[str] = queue.Queue()
    assert kubectl.stdout is not None
    out = kubectl.stdout

    def read() -> None:
        for line in out:
            seen.put(line)

    threading.Thread(target=read, daemon=True).start()
    try:
        assert [seen.get(timeout=20) for _ in range(3)] == ["one\n", "two\n", "three\n"]
        _append(log_file, "appended later")
        assert seen.get(timeout=20) == "appended later\n"
        assert kubectl.poll() is None  # still following
    finally:
        kubectl.terminate()
        kubectl.wait(timeout=10)


def _exec(kube_cluster: Cluster, ns: str, pod: str, *command: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    flags = ["-i"] if stdin is not None else []
    return kube_cluster.kubectl("exec", *flags, pod, "-n", ns, "--", *command, input=stdin, timeout=30)


def test_kubectl_exec_returns_the_commands_stdout_stderr_and_exit_code(
    kube_cluster: Cluster, ns: str, pod: str, exec_dir: Path
) -> None:
    # Until kwok has the rule, exec fails ("no exec found"): wait for the first command to run.
    first = wait_for("the exec rule", lambda: r if (r := _exec(kube_cluster, ns, pod, "pwd")).returncode == 0 else None)
    assert first.stdout == f"{exec_dir}\n"
    assert _exec(kube_cluster, ns, pod, "sh", "-c", "echo $KGEN_GREETING").stdout == "hello\n"

    done = _exec(kube_cluster, ns, pod, "sh", "-c", "echo to-stdout; echo to-stderr >&2; exit 3")
    assert done.returncode == 3, done
    assert done.stdout == "to-stdout\n"
    assert "to-stderr\n" in done.stderr
    assert "Internal error" not in done.stderr  # kwok v0.8.0 unpatched: "Internal error ... exit status 3", code 1
    assert _exec(kube_cluster, ns, pod, "sh", "-c", "exit 0").returncode == 0
    assert _exec(kube_cluster, ns, pod, "false").returncode == 1


def test_kubectl_exec_stdin_reaches_eof(kube_cluster: Cluster, ns: str, pod: str, exec_dir: Path) -> None:
    wait_for("the exec rule", lambda: _exec(kube_cluster, ns, pod, "true").returncode == 0)
    # `cat` ends only when its stdin does (kwok v0.8.0 unpatched never closed it: this hung).
    piped = _exec(kube_cluster, ns, pod, "cat", stdin="x\nsecond line\n")
    assert (piped.returncode, piped.stdout) == (0, "x\nsecond line\n")
    counted = _exec(kube_cluster, ns, pod, "wc", "-l", stdin="a\nb\nc\n")
    assert (counted.returncode, counted.stdout.strip()) == (0, "3")


def test_kubectl_port_forward_reaches_the_configured_local_port(kube_cluster: Cluster, ns: str, pod: str) -> None:
    with hello_server(lambda path: f"hello from {path}".encode()) as port:
        kube_cluster.set_cluster_port_forward(ns, {8080: port}, namespaces=[ns])
        try:
            assert wait_for("a response through the port-forward", lambda: _forward(kube_cluster, ns, pod), timeout=30) == (
                "200 hello from /through-the-apiserver"
            )
        finally:
            kube_cluster.delete_kwok_rule("ClusterPortForward", ns)


def _forward(kube_cluster: Cluster, ns: str, pod: str) -> str | None:
    """One kubectl port-forward and one request through it; None if that failed (until kwok
    has the rule, kwok refuses the stream and kubectl ends)."""
    kubectl = subprocess.Popen(
        [str(kube_cluster.assets / "kubectl"), f"--kubeconfig={kube_cluster.kubeconfig}", "port-forward",
         f"pod/{pod}", "-n", ns, "--address=127.0.0.1", ":8080"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert kubectl.stdout is not None
        line = kubectl.stdout.readline()  # "Forwarding from 127.0.0.1:<local> -> 8080"
        found = re.match(r"Forwarding from 127\.0\.0\.1:(\d+) -> 8080", line)
        if found is None:  # kubectl ended early
            return None
        try:
            response = httpx.get(f"http://127.0.0.1:{found[1]}/through-the-apiserver", timeout=5)
        except httpx.HTTPError:
            return None
        return f"{response.status_code} {response.text}"
    finally:
        kubectl.terminate()
        kubectl.wait(timeout=10)

