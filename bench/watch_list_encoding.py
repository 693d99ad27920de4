"""A watch-list in gzip or in identity encoding? Bytes on the wire and client CPU, both ways.

    .venv/bin/python -m bench.watch_list_encoding [--objects 10000] [--rounds 5]

Starts a kube-apiserver (envtest), creates ``--objects`` small ConfigMaps (64 random hex
characters of data each, plus what the apiserver adds: uid, timestamps, managedFields) in one
namespace, then streams the namespace as a watch-list (sendInitialEvents, bookmarks) until the
initial-events-end bookmark, once asking for ``Accept-Encoding: gzip`` (what httpx and
client-go send; the apiserver answers one gzip member per flush) and once for ``identity``,
interleaved for ``--rounds`` rounds on a fresh client each. It measures:

- wire bytes: the response body as received (before decoding), not counting TLS and HTTP/1.1
  chunk framing;
- client CPU: this process's CPU seconds from sending the request to the bookmark, which
  covers TLS, the gzip decoding and decoding every event into a typed ConfigMap;
- wall time, for the same span.

Figures go to stdout as JSON (medians, and every round).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from kgen.kubernetes.models.core.v1 import ConfigMap, ConfigMapList
from kgen.runtime.apimachinery.codec import ModelCodec
from kgen.runtime.gentype import ResourceInfo
from kgen.runtime.gentype.resource import _Requests
from kgen.runtime.rest import load_kubeconfig
from kgen.runtime.rest.client import RESTClient
from kgen.runtime.rest.content_encoding import MultiMemberGzipDecoder
from kgen.runtime.rest.watch import Bookmark, WatchDecoder
from kgen.runtime.testing import KubeAPIServer

CONFIGMAPS = ResourceInfo("", "v1", "configmaps", True, "ConfigMap")
CODEC = ModelCodec(ConfigMap, ConfigMapList)


def create_configmaps(server: KubeAPIServer, namespace: str, count: int, threads: int = 16) -> None:
    """``count`` small ConfigMaps, bodies encoded up front and posted by plain httpx on
    ``threads`` connections (kgen's async client spends more CPU per create than this)."""
    rng = random.Random(1)
    bodies = [json.dumps({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": f"cm-{i:05d}"},
                          "data": {"payload": "%064x" % rng.getrandbits(256)}}).encode() for i in range(count)]

    def create(share: int) -> None:
        with server.admin_client(timeout=60.0) as client:
            for body in bodies[share::threads]:
                client.post(f"/api/v1/namespaces/{namespace}/configmaps", content=body,
                            headers={"Content-Type": "application/json"}).raise_for_status()

    with ThreadPoolExecutor(threads) as pool:
        list(pool.map(create, range(threads)))


def stream_once(server: KubeAPIServer, namespace: str, encoding: str) -> dict[str, Any]:
    config = load_kubeconfig(server.kubeconfig)
    config.qps = -1
    with RESTClient(config) as rest:
        req = _Requests(CONFIGMAPS, namespace, CODEC).watch(
            60.0, send_initial_events=True, resource_version_match="NotOlderThan", allow_watch_bookmarks=True,
            timeout_seconds=60,
        )
        req.stream = True
        req.headers["Accept-Encoding"] = encoding
        cpu, wall = time.process_time(), time.perf_counter()
        response = rest.send(req)
        wire, events = 0, 0
        gzipped = response.headers.get("Content-Encoding") == "gzip"
        gunzip = MultiMemberGzipDecoder()
        decoder = WatchDecoder(CODEC.decode)
        try:
            for raw in response.iter_raw():  # the bytes as they came, decoded here as the client does
                wire += len(raw)
                for event in decoder.feed(gunzip.decode(raw) if gzipped else raw):
                    events += 1
                    if isinstance(event, Bookmark) and event.initial_events_end:
                        raise StopIteration
        except StopIteration:
            pass
        finally:
            response.close()
        return {"encoding": response.headers.get("Content-Encoding", "identity"), "wire_bytes": wire,
                "events": events, "cpu_s": time.process_time() - cpu, "wall_s": time.perf_counter() - wall}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--objects", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    with KubeAPIServer() as server, server.admin_client(timeout=30.0) as admin:
        namespace = "bench-encoding"
        admin.post("/api/v1/namespaces", json={"metadata": {"name": namespace}}).raise_for_status()
        started = time.perf_counter()
        create_configmaps(server, namespace, args.objects)
        created_s = time.perf_counter() - started
        rounds: dict[str, list[dict[str, Any]]] = {"gzip": [], "identity": []}
        stream_once(server, namespace, "gzip")  # warm the watch cache and the connection path
        for _ in range(args.rounds):
            for encoding in ("gzip", "identity"):
                result = stream_once(server, namespace, encoding)
                assert result["events"] == args.objects + 1, result
                rounds[encoding].append(result)
    medians = {
        encoding: {key: statistics.median(r[key] for r in runs) for key in ("wire_bytes", "cpu_s", "wall_s")}
        for encoding, runs in rounds.items()
    }
    print(json.dumps({"objects": args.objects, "create_s": round(created_s, 1), "median": medians, "rounds": rounds},
                     indent=1))


if __name__ == "__main__":
    main()
