"""HTTP/2 or HTTP/1.1 for watches? 50 concurrent watches on the real apiserver, both ways.

    .venv/bin/python -m bench.http2_watches [--watches 50] [--events 40] [--rounds 3]

(needs the optional ``h2`` package for the HTTP/2 runs: pip install h2). Each round opens
``--watches`` watches on one namespace's ConfigMaps through one kgen client — HTTP/1.1, one
connection per watch, or HTTP/2 through httpx's h2 support, all watches multiplexed on one
connection — on asyncio (tasks) and on threads, then creates ``--events`` ConfigMaps, one
every 20 ms, from a separate plain httpx client, and measures:

- delivery latency: from just before each create is sent to each watch's receipt of its
  ADDED event (watches x events samples; p50, p99, max);
- CPU: this process's CPU seconds from the first create to the last event (the writer's
  share is the same in both modes);
- sockets: this process's open sockets while the watches are open, less those before.

Modes are interleaved round by round on a fresh client each. Figures go to stdout as JSON.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import threading
import time
import uuid
from collections.abc import Callable
from typing import Any

import httpx

from kgen.runtime.rest import Config, load_kubeconfig
from kgen.runtime.rest.client import AsyncRESTClient, Request, RESTClient
from kgen.runtime.rest.transport import limits, socket_options
from kgen.runtime.rest.watch import Bookmark, WatchDecoder
from kgen.runtime.testing import KubeAPIServer


def _sockets() -> int:
    count = 0
    for fd in os.listdir("/proc/self/fd"):
        try:
            count += os.readlink(f"/proc/self/fd/{fd}").startswith("socket:")
        except OSError:
            pass
    return count


def _watch_request(namespace: str, rv: str) -> Request:
    params = [("watch", "true"), ("resourceVersion", rv), ("allowWatchBookmarks", "false")]
    return Request("GET", f"/api/v1/namespaces/{namespace}/configmaps", params, stream=True,
                   timeout=httpx.Timeout(None, connect=30.0))


class Writer:
    """Creates the events from its own HTTP/1.1 client, recording when each create started."""

    def __init__(self, server: KubeAPIServer, namespace: str) -> None:
        self.server, self.namespace = server, namespace
        self.sent: dict[str, float] = {}

    def run(self, events: int) -> None:
        with self.server.admin_client(timeout=30.0) as admin:
            for i in range(events):
                name = f"e{i}-{uuid.uuid4().hex[:6]}"
                self.sent[name] = time.perf_counter()
                admin.post(f"/api/v1/namespaces/{self.namespace}/configmaps",
                           json={"metadata": {"name": name}}).raise_for_status()
                time.sleep(0.02)


def _summary(latencies: list[float], cpu: float, sockets: int, open_seconds: float) -> dict[str, Any]:
    ordered = sorted(latencies)
    return {
        "samples": len(ordered),
        "p50_ms": round(statistics.median(ordered) * 1000, 2),
        "p99_ms": round(ordered[int(len(ordered) * 0.99) - 1] * 1000, 2),
        "max_ms": round(ordered[-1] * 1000, 2),
        "cpu_s": round(cpu, 3),
        "sockets": sockets,
        "open_s": round(open_seconds, 3),
    }


def run_async(server: KubeAPIServer, config: Config, http2: bool, watches: int, events: int) -> dict[str, Any]:
    namespace = f"h2b-{uuid.uuid4().hex[:8]}"
    with server.admin_client() as admin:
        admin.post("/api/v1/namespaces", json={"metadata": {"name": namespace}}).raise_for_status()
        rv = admin.get(f"/api/v1/namespaces/{namespace}/configmaps").json()["metadata"]["resourceVersion"]
    received: list[dict[str, float]] = [{} for _ in range(watches)]
    writer = Writer(server, namespace)

    async def main() -> dict[str, Any]:
        transport = httpx.AsyncHTTPTransport(verify=config.ssl_context(), http2=http2, limits=limits(),
                                             socket_options=socket_options())
        before = _sockets()
        async with AsyncRESTClient(config, transport=transport) as rest:
            started = time.perf_counter()
            responses = await asyncio.gather(*(rest.send(_watch_request(namespace, rv)) for _ in range(watches)))
            open_seconds = time.perf_counter() - started
            sockets = _sockets() - before
            assert all(r.http_version == ("HTTP/2" if http2 else "HTTP/1.1") for r in responses)

            async def consume(i: int, response: httpx.Response) -> None:
                decoder = WatchDecoder(lambda b: json.loads(b))
                async for chunk in response.aiter_bytes():
                    for event in decoder.feed(chunk):
                        if not isinstance(event, Bookmark):  # none asked for (allowWatchBookmarks=false)
                            received[i][event.object["metadata"]["name"]] = time.perf_counter()
                    if len(received[i]) == events:
                        return

            consumers = [asyncio.create_task(consume(i, r)) for i, r in enumerate(responses)]
            cpu0 = time.process_time()
            await asyncio.gather(asyncio.to_thread(writer.run, events), *consumers)
            cpu = time.process_time() - cpu0
            for r in responses:
                await r.aclose()
        latencies = [got[name] - writer.sent[name] for got in received for name in got]
        return _summary(latencies, cpu, sockets, open_seconds)

    return asyncio.run(main())


def run_threads(server: KubeAPIServer, config: Config, http2: bool, watches: int, events: int) -> dict[str, Any]:
    namespace = f"h2b-{uuid.uuid4().hex[:8]}"
    with server.admin_client() as admin:
        admin.post("/api/v1/namespaces", json={"metadata": {"name": namespace}}).raise_for_status()
        rv = admin.get(f"/api/v1/namespaces/{namespace}/configmaps").json()["metadata"]["resourceVersion"]
    received: list[dict[str, float]] = [{} for _ in range(watches)]
    writer = Writer(server, namespace)
    transport = httpx.HTTPTransport(verify=config.ssl_context(), http2=http2, limits=limits(),
                                    socket_options=socket_options())
    before = _sockets()
    with RESTClient(config, transport=transport) as rest:
        started = time.perf_counter()
        responses: list[httpx.Response] = [None] * watches  # type: ignore[list-item]

        def open_one(i: int) -> None:
            responses[i] = rest.send(_watch_request(namespace, rv))

        _all(open_one, watches)
        open_seconds = time.perf_counter() - started
        sockets = _sockets() - before

        def consume(i: int) -> None:
            decoder = WatchDecoder(lambda b: json.loads(b))
            for chunk in responses[i].iter_bytes():
                for event in decoder.feed(chunk):
                    if not isinstance(event, Bookmark):  # none asked for (allowWatchBookmarks=false)
                        received[i][event.object["metadata"]["name"]] = time.perf_counter()
                if len(received[i]) == events:
                    return

        threads = [threading.Thread(target=consume, args=(i,)) for i in range(watches)]
        for t in threads:
            t.start()
        cpu0 = time.process_time()
        writer.run(events)
        for t in threads:
            t.join(120)
        cpu = time.process_time() - cpu0
        for r in responses:
            r.close()
    latencies = [got[name] - writer.sent[name] for got in received for name in got]
    return _summary(latencies, cpu, sockets, open_seconds)


def _all(fn: Callable[[int], None], n: int) -> None:
    threads = [threading.Thread(target=fn, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--watches", type=int, default=50)
    parser.add_argument("--events", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    results: dict[str, list[dict[str, Any]]] = {}
    with KubeAPIServer() as server:
        config = load_kubeconfig(server.kubeconfig)
        config.qps = -1
        for _ in range(args.rounds):
            for flavour, run in (("asyncio", run_async), ("threads", run_threads)):
                for http2 in (False, True):
                    key = f"{flavour} {'HTTP/2' if http2 else 'HTTP/1.1'}"
                    results.setdefault(key, []).append(run(server, config, http2, args.watches, args.events))
                    print(key, results[key][-1], flush=True)
    print(json.dumps(results))


if __name__ == "__main__":
    main()
