"""Port-forward: kgen's forwarder against ``kubectl port-forward`` of the same release, on a
whole cluster (``kgen.runtime.testing.Cluster``: apiserver, controllers, scheduler and kwok's
nodes), both forwarding to the same echo server behind kwok's ClusterPortForward.

    .venv/bin/python -m bench --only portforward

Each forwarder runs in a process of its own (kubectl, and ``python -m bench.portforward
--serve-kgen``), as does the echo server, so the measuring client shares no interpreter with
either; the client measures both the same way, through their local ports:

- throughput: ``--pf-megabytes`` MB sent through one connection while the echo comes back on
  the same connection, MB/s of payload from the first byte sent to the last echoed;
- connection latency: connect and first echo of 16 bytes, over ``--pf-connections``
  sequential connections (p50, p99), and over 50 connections opened at once (p50, p99).

The ratio is kgen / kubectl: above 1 kgen is faster for throughput, slower for latency.
Rounds alternate the two forwarders; each figure is the median of the rounds.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field

from .report import Row, Table, times

CONCURRENT = 50
PROBE = b"0123456789abcdef"
_FORWARDING = re.compile(r"Forwarding from 127\.0\.0\.1:(\d+) -> 80")


@dataclass
class Figures:
    """One forwarder's measurements, one entry a round."""

    throughput: list[float] = field(default_factory=list)  # MB/s
    sequential: list[list[float]] = field(default_factory=list)  # seconds per connection
    concurrent: list[list[float]] = field(default_factory=list)

    def median_throughput(self) -> float:
        return statistics.median(self.throughput)

    def percentile(self, which: str, q: float) -> float:
        rounds: list[list[float]] = getattr(self, which)
        return statistics.median(_percentile(samples, q) for samples in rounds)


def _percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


# -- the processes ----------------------------------------------------------------------------

async def _echo_main() -> None:
    async def echo(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while data := await reader.read(256 * 1024):
                writer.write(data)
                await writer.drain()
        except ConnectionError:
            pass
        writer.close()

    server = await asyncio.start_server(echo, "127.0.0.1", 0, backlog=256)
    print(server.sockets[0].getsockname()[1], flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)


def _serve_kgen(kubeconfig: str, namespace: str, pod: str) -> None:
    """kgen's forwarder as kubectl is run: prints where it listens, forwards until stdin ends."""
    from kgen.kubernetes import Clientset
    from kgen.runtime.rest import load_kubeconfig

    with Clientset(load_kubeconfig(kubeconfig)) as cs, cs.core_v1.pods(namespace).port_forward(pod, [":80"]) as pf:
        print(f"Forwarding from 127.0.0.1:{pf.local_port(80)} -> 80", flush=True)
        sys.stdin.read()


@contextmanager
def _process(args: list[str], pattern: re.Pattern[str]) -> Iterator[int]:
    """Starts ``args``, yields the port its first line names; ends it when done."""
    proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        found = pattern.search(line)
        if found is None:
            raise RuntimeError(f"{' '.join(args[:3])}... printed {line!r}: {proc.stderr.read() if proc.stderr else ''}")
        yield int(found[1])
    finally:
        if proc.stdin is not None:
            proc.stdin.close()
        proc.terminate()
        proc.wait(timeout=30)


# -- the client -------------------------------------------------------------------------------

def _throughput(port: int, megabytes: int) -> float:
    import socket

    chunk = os.urandom(256 * 1024)
    total = megabytes * 1_000_000 // len(chunk) * len(chunk)
    with socket.create_connection(("127.0.0.1", port), timeout=60) as s:
        def send() -> None:
            for _ in range(total // len(chunk)):
                s.sendall(chunk)

        started = time.perf_counter()
        sender = threading.Thread(target=send)
        sender.start()
        got = 0
        while got < total:
            data = s.recv(1 << 20)
            if not data:
                raise RuntimeError(f"the echo ended after {got} of {total} bytes")
            got += len(data)
        elapsed = time.perf_counter() - started
        sender.join()
    return total / 1e6 / elapsed


def _connect_and_echo(port: int) -> float:
    import socket

    started = time.perf_counter()
    with socket.create_connection(("127.0.0.1", port), timeout=60) as s:
        s.sendall(PROBE)
        got = b""
        while len(got) < len(PROBE):
            data = s.recv(64)
            if not data:
                raise RuntimeError("the connection ended before the echo")
            got += data
    return time.perf_counter() - started


def _concurrent(port: int) -> list[float]:
    barrier = threading.Barrier(CONCURRENT)

    def one(_: int) -> float:
        barrier.wait(timeout=60)
        return _connect_and_echo(port)

    with ThreadPoolExecutor(CONCURRENT) as pool:
        return list(pool.map(one, range(CONCURRENT)))


def _measure_one(port: int, figures: Figures, megabytes: int, connections: int) -> None:
    _connect_and_echo(port)  # warm: the first connection pays for the forwarder's first dial
    figures.throughput.append(_throughput(port, megabytes))
    figures.sequential.append([_connect_and_echo(port) for _ in range(connections)])
    figures.concurrent.append(_concurrent(port))


def measure(megabytes: int, connections: int, rounds: int, progress: Callable[[str], None]) -> tuple[Figures, Figures]:
    """kgen's and kubectl's figures, ``rounds`` alternated rounds on one cluster."""
    from kgen.runtime.testing import Cluster

    kgen, kubectl = Figures(), Figures()
    python = sys.executable
    with Cluster(nodes=1) as cluster, _process([python, "-m", "bench.portforward", "--echo"], re.compile(r"(\d+)")) as echo:
        namespace = "bench-portforward"
        cluster.kubectl("create", "namespace", namespace, check=True)
        cluster.kubectl("run", "echo", "-n", namespace, "--image=example.com/echo:1", check=True)
        cluster.kubectl("wait", "-n", namespace, "--for=condition=Ready", "pod/echo", "--timeout=120s", check=True)
        cluster.set_cluster_port_forward(namespace, {80: echo}, namespaces=[namespace])
        kubectl_args = [str(cluster.assets / "kubectl"), f"--kubeconfig={cluster.kubeconfig}", "port-forward", "-n",
                        namespace, "pod/echo", "--address=127.0.0.1", ":80"]
        kgen_args = [python, "-m", "bench.portforward", "--serve-kgen", str(cluster.kubeconfig), namespace, "echo"]
        _wait_for_rule(kubectl_args)
        for r in range(rounds):
            for name, args, figures in (("kgen", kgen_args, kgen), ("kubectl", kubectl_args, kubectl)):
                progress(f"port-forward round {r + 1}/{rounds}: {name}")
                with _process(args, _FORWARDING) as port:
                    _measure_one(port, figures, megabytes, connections)
    return kgen, kubectl


def _wait_for_rule(kubectl_args: list[str]) -> None:
    """Until kwok has read the ClusterPortForward rule, the echo is refused (and kubectl ends)."""
    deadline = time.monotonic() + 60
    while True:
        try:
            with _process(kubectl_args, _FORWARDING) as port:
                _connect_and_echo(port)
                return
        except (RuntimeError, OSError):
            if time.monotonic() > deadline:
                raise
            time.sleep(0.5)


def table(kgen: Figures, kubectl: Figures, megabytes: int, connections: int) -> Table:
    def ms(value: float) -> str:
        return f"{value * 1000:.1f} ms"

    rows = [Row(f"throughput, one connection, {megabytes} MB echoed", (f"{kgen.median_throughput():.1f} MB/s",
                f"{kubectl.median_throughput():.1f} MB/s"), times(kgen.median_throughput() / kubectl.median_throughput()),
                "(info)", None)]
    for which, label in (("sequential", f"{connections} sequential"), ("concurrent", f"{CONCURRENT} at once")):
        for q, name in ((0.5, "p50"), (0.99, "p99")):
            k, c = kgen.percentile(which, q), kubectl.percentile(which, q)
            rows.append(Row(f"connect + first echo, {label}, {name}", (ms(k), ms(c)), times(k / c), "(info)", None))
    return Table("Port-forward through the apiserver to kwok's echo (ratio = kgen / kubectl)", ("kgen", "kubectl"), rows)


def notes(rounds: int) -> list[str]:
    return [
        f"- port-forward: medians of {rounds} alternated rounds on one cluster; kgen's forwarder (PortForwarder: "
        "one event-loop thread) and kubectl port-forward each in its own process, the echo server in a third; kgen opens one WebSocket "
        "(v4.channel.k8s.io) per connection, kubectl one SPDY-over-WebSocket connection with a stream pair per "
        "connection, so kgen's connection latency includes a WebSocket upgrade through the apiserver",
    ]


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.portforward")
    parser.add_argument("--echo", action="store_true", help="run the echo server (prints its port)")
    parser.add_argument("--serve-kgen", nargs=3, metavar=("KUBECONFIG", "NAMESPACE", "POD"),
                        help="run kgen's forwarder to POD's port 80 until stdin ends")
    parser.add_argument("--megabytes", type=int, default=50)
    parser.add_argument("--connections", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    if args.echo:
        asyncio.run(_echo_main())
    elif args.serve_kgen:
        _serve_kgen(*args.serve_kgen)
    else:
        kgen, kubectl = measure(args.megabytes, args.connections, args.rounds,
                                lambda m: print(f"bench: {m}", file=sys.stderr, flush=True))
        print(table(kgen, kubectl, args.megabytes, args.connections).render())
        print("\n".join(notes(args.rounds)))


if __name__ == "__main__":
    main()
