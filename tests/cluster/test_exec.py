"""exec and attach (kgen.runtime.tools.remotecommand) on the whole cluster, side by side with
kubectl of the same release: the same stdout, stderr and exit code for a table of commands
(binary output with every byte value, 10 MB of output, stdin through ``cat``, ``exit 3``, a
command that does not exist), sync and async; a TTY resized mid-run sees its new size as under
``kubectl exec -t`` on a pseudo-terminal; attach reads what the container writes, as
``kubectl attach`` does.

kwok answers exec with local processes in a work folder (its ClusterExec rule; a TTY gets a
pseudo-terminal that resizes apply to) and attach by following a CRI log file from its end
(ClusterAttach; kwok ignores attach's stdin and the session ends only when the client leaves).
"""

from __future__ import annotations

import asyncio
import fcntl
import hashlib
import os
import pty
import queue
import select
import signal
import struct
import subprocess
import termios
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from kgen.kubernetes import AsyncClientset, Clientset
from kgen.kubernetes.models.core.v1 import Namespace, Pod
from kgen.kubernetes.models.meta.v1 import ObjectMeta
from kgen.runtime.apimachinery import BadRequest, NotFound
from kgen.runtime.rest import load_kubeconfig
from kgen.runtime.testing import Cluster, cri_log_line
from kgen.runtime.testing._kwok import rule_selector
from kgen.runtime.tools.remotecommand import ExecResult, ExitCodeError, RemoteCommandError
from tests.cluster.conftest import wait_for

pytestmark = pytest.mark.timeout(120)

TEN_MB = 10 * 1000 * 1000


@dataclass
class Shell:
    """A Running pod whose exec runs local processes in ``work_dir``, and whose attach follows ``attach_log``."""

    namespace: str
    pod: str
    work_dir: Path
    attach_log: Path


@pytest.fixture(scope="module")
def shell(kube_cluster: Cluster, cs: Clientset, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Shell]:
    namespace = f"exec-{uuid.uuid4().hex[:8]}"
    work_dir = tmp_path_factory.mktemp("exec")
    (work_dir / "bytes.bin").write_bytes(bytes(range(256)) * 256)  # 64 KiB, every byte value
    attach_log = work_dir / "attach.log"
    attach_log.write_text("")
    cs.core_v1.namespaces().create(Namespace(metadata=ObjectMeta(name=namespace)))
    pods = cs.core_v1.pods(namespace)
    pods.create(Pod.from_dict({"metadata": {"name": "shell"},
                               "spec": {"containers": [{"name": "app", "image": "example.com/app:1"}]}}))
    kube_cluster.set_cluster_exec(namespace, work_dir=work_dir, namespaces=[namespace])
    kube_cluster.apply_kwok_rule("ClusterAttach", namespace, {"selector": rule_selector([namespace], []),
                                                               "attaches": [{"logsFile": str(attach_log)}]})
    shell = Shell(namespace, "shell", work_dir, attach_log)
    # The pod runs, and kwok has the exec rule (until then exec fails: "no exec found").
    wait_for("exec in the pod", lambda: kubectl_exec(kube_cluster, shell, ["true"]).returncode == 0)
    yield shell
    kube_cluster.delete_kwok_rule("ClusterExec", namespace)
    kube_cluster.delete_kwok_rule("ClusterAttach", namespace)
    cs.core_v1.namespaces().delete(namespace)


def kubectl(kube_cluster: Cluster, *args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    """kubectl of the cluster's release as the admin, bytes in and out."""
    return subprocess.run([str(kube_cluster.assets / "kubectl"), f"--kubeconfig={kube_cluster.kubeconfig}", *args],
                          input=stdin, stdin=None if stdin is not None else subprocess.DEVNULL,
                          capture_output=True, timeout=90)


def kubectl_exec(kube_cluster: Cluster, shell: Shell, command: list[str],
                 stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    flags = ["-i"] if stdin is not None else []
    return kubectl(kube_cluster, "exec", *flags, "-n", shell.namespace, shell.pod, "--", *command, stdin=stdin)


def kgen_exec(cs: Clientset, kube_cluster: Cluster, flavour: str, shell: Shell, command: list[str],
              stdin: bytes | None = None, timeout: float | None = 60) -> ExecResult:
    if flavour == "sync":
        return cs.core_v1.pods(shell.namespace).exec(shell.pod, command, stdin=stdin, timeout=timeout)

    async def main() -> ExecResult:
        async with AsyncClientset(load_kubeconfig(kube_cluster.kubeconfig)) as acs:
            return await acs.core_v1.pods(shell.namespace).exec(shell.pod, command, stdin=stdin, timeout=timeout)

    return asyncio.run(main())


CASES = {
    "binary output, every byte value": (["sh", "-c", "cat bytes.bin; printf 'e\\000\\377' >&2"], None),
    "10 MB of output": (["sh", "-c", f"yes 0123456789abcdefghijklmnopqrstuvwxyz | head -c {TEN_MB}"], None),
    "stdin piped through cat": (["cat"], bytes(range(256)) * 4096 + b"last line without newline"),
    "exit 3": (["sh", "-c", "echo to-stdout; echo to-stderr >&2; exit 3"], None),
}
FLAVOURS = pytest.mark.parametrize("flavour", ["sync", "async"])


@FLAVOURS
@pytest.mark.parametrize("case", list(CASES))
def test_exec_gives_kubectls_stdout_stderr_and_exit_code(
    kube_cluster: Cluster, cs: Clientset, shell: Shell, case: str, flavour: str
) -> None:
    command, stdin = CASES[case]
    expected = kubectl_exec(kube_cluster, shell, command, stdin)
    result = kgen_exec(cs, kube_cluster, flavour, shell, command, stdin)
    assert result.exit_code == expected.returncode
    assert hashlib.sha256(result.stdout).hexdigest() == hashlib.sha256(expected.stdout).hexdigest()
    assert len(result.stdout) == len(expected.stdout) > 0
    if result.exit_code:
        # kubectl adds client-go's message for a non-zero exit after the command's own stderr.
        assert expected.stderr == result.stderr + f"command terminated with exit code {result.exit_code}\n".encode()
        with pytest.raises(ExitCodeError, match=f"command terminated with exit code {result.exit_code}"):
            result.check()
    else:
        assert result.stderr == expected.stderr
        assert result.check() is result


@FLAVOURS
def test_a_command_that_does_not_exist_reports_kubectls_error(
    kube_cluster: Cluster, cs: Clientset, shell: Shell, flavour: str
) -> None:
    expected = kubectl_exec(kube_cluster, shell, ["no-such-command", "x"])
    with pytest.raises(RemoteCommandError) as raised:
        kgen_exec(cs, kube_cluster, flavour, shell, ["no-such-command", "x"])
    assert expected.returncode == 1 and expected.stdout == b""
    assert expected.stderr.decode() == f"error: {raised.value.message}\n"
    assert raised.value.status is not None and raised.value.status["status"] == "Failure"
    assert f"pod {shell.namespace}/{shell.pod}" in str(raised.value)


def test_refused_requests_raise_the_apiservers_errors(kube_cluster: Cluster, cs: Clientset, shell: Shell) -> None:
    pods = cs.core_v1.pods(shell.namespace)
    with pytest.raises(NotFound) as missing:
        pods.exec("no-such-pod", ["true"])
    expected = kubectl(kube_cluster, "exec", "-n", shell.namespace, "no-such-pod", "--", "true")
    assert expected.stderr.decode() == f'Error from server (NotFound): {missing.value.status["message"]}\n'
    with pytest.raises(BadRequest, match="container no-such-container is not valid for pod shell"):
        pods.exec(shell.pod, ["true"], container="no-such-container")


@FLAVOURS
def test_a_timeout_ends_the_call_naming_the_pod_and_command(
    kube_cluster: Cluster, cs: Clientset, shell: Shell, flavour: str
) -> None:
    started = time.monotonic()
    with pytest.raises(TimeoutError, match=rf"^exec 'sleep 30' in pod {shell.namespace}/shell: did not finish within 2 s"):
        kgen_exec(cs, kube_cluster, flavour, shell, ["sleep", "30"], timeout=2)
    assert time.monotonic() - started < 10  # 2 s and the time to drop the connection, on a loaded machine


def test_exec_stream_streams_10_mb_through_cat(cs: Clientset, shell: Shell) -> None:
    """cp's pattern: stdin written while stdout is read, both 10 MB, in bounded memory."""
    data = hashlib.sha256(b"seed").digest() * (TEN_MB // 32)
    with cs.core_v1.pods(shell.namespace).exec_stream(shell.pod, ["cat"], stdin=True) as session:
        def feed() -> None:
            for start in range(0, len(data), 1 << 20):
                session.stdin.write(data[start:start + (1 << 20)])
            session.stdin.close()

        writer = threading.Thread(target=feed)
        writer.start()
        digest, size = hashlib.sha256(), 0
        while chunk := session.stdout.read(65536):
            assert len(chunk) <= 65536
            digest.update(chunk)
            size += len(chunk)
        writer.join()
        assert session.wait(timeout=30) == 0
        assert session.stderr.read() == b""
    assert (size, digest.hexdigest()) == (len(data), hashlib.sha256(data).hexdigest())


def test_async_exec_stream_reads_lines_and_the_exit_code(kube_cluster: Cluster, shell: Shell) -> None:
    async def main() -> tuple[list[bytes], bytes, int]:
        async with AsyncClientset(load_kubeconfig(kube_cluster.kubeconfig)) as acs:
            pods = acs.core_v1.pods(shell.namespace)
            async with pods.exec_stream(shell.pod, ["sh", "-c", "cat; echo bye >&2; exit 7"], stdin=True) as session:
                await session.stdin.write(b"one\ntwo\n")
                await session.stdin.close()
                lines = [line async for line in session.stdout]
                return lines, await session.stderr.read(), await session.wait(timeout=30)

    assert asyncio.run(main()) == ([b"one\n", b"two\n"], b"bye\n", 7)


# -- TTY -----------------------------------------------------------------------------------

# Waits for the terminal's first size (a new pty is 0x0 until the client sends one), prints it,
# waits for it to change, prints the new one: "rows columns" each time. The command awaits the
# resizes itself, so neither client races its resize against the command. It then waits for a
# line before it exits: kwok's TTY exec can lose a process's last output when the process exits
# right after writing it (seen with kubectl -t and kgen alike: the second size missing, the
# session ended with Success).
SIZES = ["sh", "-c", 'while [ "$(stty size)" = "0 0" ]; do sleep 0.02; done; s=$(stty size); echo "$s"; '
                     'while [ "$(stty size)" = "$s" ]; do sleep 0.02; done; stty size; read done']


def _sizes(output: bytes) -> list[str]:
    return [line.strip() for line in output.decode().split("\n") if line.strip()[:1].isdigit()]


def _kubectl_tty_sizes(kube_cluster: Cluster, shell: Shell) -> list[str]:
    """``kubectl exec -ti`` on a pseudo-terminal of 30x100, resized to 40x120 once the command has
    printed the first size (the kernel sends kubectl SIGWINCH): the sizes the command printed."""
    args = [str(kube_cluster.assets / "kubectl"), f"--kubeconfig={kube_cluster.kubeconfig}", "exec", "-ti",
            "-n", shell.namespace, shell.pod, "--", *SIZES]
    pid, master = pty.fork()
    if pid == 0:  # the child: kubectl, with the pty as its controlling terminal
        os.execv(args[0], args)
    output = b""

    def until(count: int) -> None:
        nonlocal output
        deadline = time.monotonic() + 30
        while len(_sizes(output)) < count:
            assert time.monotonic() < deadline, f"kubectl -t printed {output!r}"
            if select.select([master], [], [], 1)[0]:
                try:
                    output += os.read(master, 4096)
                except OSError as e:  # EIO: kubectl has exited
                    raise AssertionError(f"kubectl -t ended early ({e}) after {output!r}") from None

    try:
        fcntl.ioctl(master, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
        until(1)
        fcntl.ioctl(master, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
        until(2)
        os.write(master, b"\r")  # the command's last read: it exits
        return _sizes(output)
    finally:
        try:
            os.kill(pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
        os.waitpid(pid, 0)
        os.close(master)


def test_a_tty_resized_mid_run_sees_the_new_size_as_under_kubectl(
    kube_cluster: Cluster, cs: Clientset, shell: Shell
) -> None:
    expected = _kubectl_tty_sizes(kube_cluster, shell)
    with cs.core_v1.pods(shell.namespace).exec_stream(shell.pod, SIZES, stdin=True, tty=True) as session:
        session.resize(100, 30)
        first = session.stdout.readline()
        session.resize(120, 40)
        second = session.stdout.readline()
        session.stdin.write(b"\r")
        assert session.wait(timeout=30) == 0
        assert session.stderr.read() == b""  # a terminal has one output stream
    assert _sizes(first + second) == expected == ["30 100", "40 120"], (first, second, expected)


def test_resize_needs_a_tty(cs: Clientset, shell: Shell) -> None:
    with cs.core_v1.pods(shell.namespace).exec_stream(shell.pod, ["true"]) as session:
        with pytest.raises(ValueError, match="tty=True"):
            session.resize(80, 24)
        assert session.wait(timeout=30) == 0


# -- attach --------------------------------------------------------------------------------


def _lines_into(stream: Callable[[], bytes], into: queue.Queue[bytes]) -> threading.Thread:
    def pump() -> None:
        while line := stream():
            into.put(line)

    thread = threading.Thread(target=pump, daemon=True)
    thread.start()
    return thread


def _after_markers(lines: queue.Queue[bytes]) -> list[bytes]:
    """The lines after the last marker, to the end (kubectl's own notices on stderr, "If you
    don't see a command prompt...", come before)."""
    seen: list[bytes] = []
    while not seen or seen[-1] != b"end\n":
        seen.append(lines.get(timeout=30))
    last_marker = max(i for i, line in enumerate(seen) if line == b"marker\n")
    return seen[last_marker + 1:]


def test_attach_reads_what_the_container_writes_as_kubectl_attach(
    kube_cluster: Cluster, cs: Clientset, shell: Shell
) -> None:
    kubectl_attach = subprocess.Popen(
        [str(kube_cluster.assets / "kubectl"), f"--kubeconfig={kube_cluster.kubeconfig}", "attach", "-n",
         shell.namespace, shell.pod], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert kubectl_attach.stdout is not None and kubectl_attach.stderr is not None
    streams = {name: queue.Queue[bytes]() for name in ("kubectl out", "kubectl err", "kgen out", "kgen err")}
    try:
        with cs.core_v1.pods(shell.namespace).attach_stream(shell.pod) as session:
            _lines_into(kubectl_attach.stdout.readline, streams["kubectl out"])
            _lines_into(kubectl_attach.stderr.readline, streams["kubectl err"])
            _lines_into(session.stdout.readline, streams["kgen out"])
            _lines_into(session.stderr.readline, streams["kgen err"])

            def both_following() -> bool:
                # kwok follows the file from its end: write until both clients have read a line.
                with shell.attach_log.open("a") as log:
                    log.write(cri_log_line("marker") + cri_log_line("marker", "stderr"))
                return all(not streams[name].empty() for name in streams)

            wait_for("both clients attached", both_following, interval=0.1)
            with shell.attach_log.open("a") as log:
                log.write("".join([cri_log_line("to stdout"), cri_log_line("to stderr", "stderr"),
                                   cri_log_line("\x01binary \xff"), cri_log_line("end"), cri_log_line("end", "stderr")]))
            kgen = [_after_markers(streams["kgen out"]), _after_markers(streams["kgen err"])]
            expected = [_after_markers(streams["kubectl out"]), _after_markers(streams["kubectl err"])]
            assert session.exit_code is None  # kwok's attach never ends by itself
    finally:
        kubectl_attach.terminate()
        kubectl_attach.wait(timeout=10)
    assert kgen == expected == [[b"to stdout\n", "\x01binary \xff\n".encode(), b"end\n"], [b"to stderr\n", b"end\n"]]


@FLAVOURS
def test_attach_to_a_process_that_keeps_running_ends_at_the_timeout(
    kube_cluster: Cluster, cs: Clientset, shell: Shell, flavour: str
) -> None:
    def attach() -> ExecResult:
        if flavour == "sync":
            return cs.core_v1.pods(shell.namespace).attach(shell.pod, timeout=2)

        async def main() -> ExecResult:
            async with AsyncClientset(load_kubeconfig(kube_cluster.kubeconfig)) as acs:
                return await acs.core_v1.pods(shell.namespace).attach(shell.pod, timeout=2)

        return asyncio.run(main())

    with pytest.raises(TimeoutError, match=rf"^attach to pod {shell.namespace}/shell: did not finish within 2 s"):
        attach()
