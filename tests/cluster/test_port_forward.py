"""kgen's port-forward (``pods(ns).port_forward``) on the whole cluster, with kubectl
port-forward of the same release as the oracle: an echo server on this machine stands behind
kwok's ClusterPortForward for the pod's port 80, and 50 connections at once, each sending its
own bytes, must get the same bytes back through kgen's forwarder and through kubectl's. The
pod's port 81 leads to a local port nothing listens on: the local connection is closed, the
server's message is logged (the same message kubectl prints), and the forwarder goes on
serving. Threads and asyncio alike.
"""

from __future__ import annotations

import asyncio
import logging
import random
import re
import socket
import socketserver
import subprocess
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager

import pytest

from kgen.kubernetes import AsyncClientset, Clientset
from kgen.kubernetes.models.core.v1 import Pod
from kgen.runtime.rest import load_kubeconfig
from kgen.runtime.testing import Cluster
from kgen.runtime.tools.portforward import PortForwarder, PortForwardError
from tests.cluster.conftest import wait_for

pytestmark = pytest.mark.timeout(120)

CONNECTIONS = 50
PAYLOAD = 64 * 1024
LOGGER = "kgen.runtime.tools.portforward"


class _EchoServer(socketserver.ThreadingTCPServer):
    daemon_threads = True
    request_queue_size = 128  # the default 5 overflows under 50 connections at once


class _Echo(socketserver.BaseRequestHandler):
    def handle(self) -> None:
        try:
            while data := self.request.recv(65536):
                self.request.sendall(data)
        except (ConnectionResetError, BrokenPipeError):  # the forwarder's end went away: nothing to echo to
            pass


@pytest.fixture(scope="module")
def echo_port() -> Iterator[int]:
    """A TCP echo server on this machine (what the pod's port 80 reaches)."""
    server = _EchoServer(("127.0.0.1", 0), _Echo)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield server.server_address[1]
    server.shutdown()
    server.server_close()


def _unused_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _payload(i: int) -> bytes:
    return f"connection {i:02d} ".encode() + random.Random(i).randbytes(PAYLOAD)


def _exchange(port: int, payload: bytes, barrier: threading.Barrier | None = None) -> bytes:
    """Sends ``payload`` through local ``port`` and reads until as many bytes came back or the
    connection ended; with ``barrier``, every connection is open before any sends."""
    with socket.create_connection(("127.0.0.1", port), timeout=30) as s:
        if barrier is not None:
            barrier.wait(timeout=30)
        sender = threading.Thread(target=s.sendall, args=(payload,))
        sender.start()
        got = bytearray()
        while len(got) < len(payload) and (chunk := s.recv(65536)):
            got += chunk
        sender.join()
        return bytes(got)


def _all_at_once(port: int) -> list[bytes]:
    barrier = threading.Barrier(CONNECTIONS)
    with ThreadPoolExecutor(CONNECTIONS) as pool:
        return list(pool.map(lambda i: _exchange(port, _payload(i), barrier), range(CONNECTIONS)))


def _refused(port: int) -> bytes:
    """What a connection through ``port`` to the pod's port 81 reads before it is closed."""
    with socket.create_connection(("127.0.0.1", port), timeout=30) as s:
        s.sendall(b"anyone there?")
        got = b""
        while chunk := s.recv(65536):
            got += chunk
        return got


@pytest.fixture
def pod(cs: Clientset, ns: str, kube_cluster: Cluster, echo_port: int) -> Iterator[str]:
    """A Running pod whose port 80 reaches the echo server and port 81 a port nothing listens
    on; returns once a connection through kgen's forwarder is echoed (kwok has the rule)."""
    cs.core_v1.pods(ns).create(
        Pod.from_dict({"metadata": {"name": "echo"}, "spec": {"containers": [{"name": "app", "image": "example.com/echo:1"}]}})
    )
    kube_cluster.set_cluster_port_forward(ns, {80: echo_port, 81: _unused_port()}, namespaces=[ns])

    def running() -> bool:
        status = cs.core_v1.pods(ns).get("echo").status
        return status is not None and status.phase == "Running"

    wait_for("the pod Running", running)
    with cs.core_v1.pods(ns).port_forward("echo", {0: 80}) as pf:
        wait_for("an echo through the forwarder", lambda: _exchange(pf.local_port(80), b"ping") == b"ping")
    yield "echo"
    kube_cluster.delete_kwok_rule("ClusterPortForward", ns)


@contextmanager
def _kubectl_port_forward(kube_cluster: Cluster, ns: str, pod: str, remote: int) -> Iterator[tuple[int, subprocess.Popen[str]]]:
    """``kubectl port-forward pod/POD :REMOTE``: the local port it chose, and the process."""
    kubectl = subprocess.Popen(
        [str(kube_cluster.assets / "kubectl"), f"--kubeconfig={kube_cluster.kubeconfig}", "port-forward", "-n", ns,
         f"pod/{pod}", "--address=127.0.0.1", f":{remote}"],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        assert kubectl.stdout is not None
        line = kubectl.stdout.readline()
        found = re.match(rf"Forwarding from 127\.0\.0\.1:(\d+) -> {remote}$", line.strip())
        assert found, f"kubectl port-forward printed {line!r}, stderr: {kubectl.stderr.read() if kubectl.stderr else ''}"
        yield int(found[1]), kubectl
    finally:
        kubectl.terminate()
        kubectl.wait(timeout=10)


def _server_errors(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == LOGGER and r.levelno == logging.ERROR]


def test_kgen_and_kubectl_forward_the_same_bytes_over_50_connections_at_once(
    kube_cluster: Cluster, cs: Clientset, ns: str, pod: str
) -> None:
    expected = [_payload(i) for i in range(CONNECTIONS)]
    with _kubectl_port_forward(kube_cluster, ns, pod, 80) as (local, _):
        through_kubectl = _all_at_once(local)
    with cs.core_v1.pods(ns).port_forward(pod, [":80"]) as pf:
        assert [p.remote for p in pf.ports] == [80] and pf.ports[0].local == pf.local_port(80) != 0
        through_kgen = _all_at_once(pf.local_port(80))
    assert through_kubectl == expected  # the oracle sees the echo server
    assert through_kgen == through_kubectl


def test_a_refused_pod_port_closes_the_connection_logs_the_servers_message_and_the_forwarder_goes_on(
    kube_cluster: Cluster, cs: Clientset, ns: str, pod: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.ERROR, logger=LOGGER)
    with cs.core_v1.pods(ns).port_forward(pod, [":80", ":81"]) as pf:
        assert _refused(pf.local_port(81)) == b""
        assert _exchange(pf.local_port(80), b"still serving") == b"still serving"
        assert _refused(pf.local_port(81)) == b""
        assert _all_at_once(pf.local_port(80)) == [_payload(i) for i in range(CONNECTIONS)]
    logged = _server_errors(caplog)
    assert len(logged) == 2, logged
    prefix = f"an error occurred forwarding {pf.local_port(81)} -> 81: "
    assert all(m.startswith(prefix) for m in logged), logged
    server_message = logged[0][len(prefix):]

    # kubectl's local connection is closed too, and it prints the same message from the server
    # (then client-go 1.31+ closes its one shared connection: kubectl port-forward ends).
    with _kubectl_port_forward(kube_cluster, ns, pod, 81) as (local, kubectl):
        assert _refused(local) == b""
        kubectl.wait(timeout=30)
        assert kubectl.stderr is not None
        stderr = kubectl.stderr.read()
    assert server_message in stderr, (server_message, stderr)


def test_a_pod_that_is_not_running_is_refused_as_kubectl_refuses_it(kube_cluster: Cluster, cs: Clientset, ns: str) -> None:
    # No node can take it (a node selector nobody matches): Pending for good.
    cs.core_v1.pods(ns).create(Pod.from_dict({"metadata": {"name": "pending"}, "spec": {
        "nodeSelector": {"kgen.test/nowhere": "true"}, "containers": [{"name": "app", "image": "example.com/app:1"}]}}))
    kubectl = kube_cluster.kubectl("port-forward", "-n", ns, "pod/pending", ":80", timeout=30)
    assert kubectl.returncode != 0
    with pytest.raises(PortForwardError) as refused:
        PortForwarder(cs.core_v1.pods(ns)._client, "pending", [80]).start()
    assert f"error: {refused.value}\n" == kubectl.stderr


def test_async_forwarder_echoes_50_connections_and_survives_a_refused_port(
    kube_cluster: Cluster, ns: str, pod: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.ERROR, logger=LOGGER)

    async def exchange(port: int, payload: bytes) -> bytes:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(payload)
        got = bytearray()
        while len(got) < len(payload) and (chunk := await reader.read(65536)):
            got += chunk
        writer.close()
        await writer.wait_closed()
        return bytes(got)

    async def scenario() -> int:
        async with AsyncClientset(load_kubeconfig(kube_cluster.kubeconfig)) as acs:
            async with acs.core_v1.pods(ns).port_forward(pod, [":80", ":81"]) as pf:
                assert await exchange(pf.local_port(81), b"anyone there?") == b""
                answers = await asyncio.gather(*(exchange(pf.local_port(80), _payload(i)) for i in range(CONNECTIONS)))
                assert answers == [_payload(i) for i in range(CONNECTIONS)]
                assert await exchange(pf.local_port(81), b"anyone there?") == b""
                return pf.local_port(81)

    refused_local = asyncio.run(scenario())
    logged = _server_errors(caplog)
    prefix = f"an error occurred forwarding {refused_local} -> 81: "
    assert len(logged) == 2 and all(m.startswith(prefix) and len(m) > len(prefix) for m in logged), logged
