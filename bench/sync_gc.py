"""An informer's initial sync without an apiserver: what Python's cyclic GC costs it.

A real ``SharedIndexInformer`` (threads; kgen's defaults: watch-list, ``default_transform``)
over an in-memory lister-watcher whose watch-list stream hands the reflector N Pods as the
apiserver writes them: bench/pods.py's realistic Pod, with the ``managedFields`` a server
keeps for a Pod created by one manager and given its status by another (fieldsV1 derived from
the Pod's own fields, structured-merge-diff's way: ``f:`` fields, ``k:`` list keys), as
``{"type":"ADDED","object":...}`` lines in 64 KiB chunks, then the initial-events-end bookmark.
The informer reads a typed ``WatchStream`` (over an httpx response whose body is made in
memory), decodes, transforms, queues in the DeltaFIFO and stores in the indexer exactly as
against a server; only the socket is missing. The JSON is
made on the fly from a pool of distinct Pods (each event's name, uid and resourceVersion its
own), so the process holds the cache and not N JSON documents.

Measured from ``run()`` until the handler has seen N adds and ``has_synced()``: the process's
CPU seconds, the wall time, and the collections of each generation (``gc.callbacks``: count and
seconds). Then the steady state that follows: ``--updates`` MODIFIED events (a tenth of N by
default) on the same watch, with the collections they cost: a hold that defers the collector's
work shows it there.

Strategies (``--strategy``, each in a fresh interpreter so that none inherits another's heap):

- ``none``: ``hold_gc_during_sync=False``, the collector as Python sets it;
- ``hold``: kgen's default (runtime/tools/cache/sync_gc.py): collection held off during the
  sync, then the survivors moved to the oldest generation (``gc.freeze()`` + ``gc.unfreeze()``);
- ``hold-plain``: held off, then simply re-enabled;
- ``hold-collect``: held off, then one full ``gc.collect()``;
- ``hold-frozen``: held off, then ``gc.freeze()`` only (the cache never scanned again, nor any
  garbage cycle through what was alive at that moment: a leak risk, shown for comparison);
- ``threshold``: no hold, generation 0's threshold raised to 100,000 during the sync.

    python -m bench.sync_gc --count 100000 [--strategy none,hold] [--updates 10000]
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx

from kgen.kubernetes.models.core.v1 import Pod, PodList
from kgen.runtime.apimachinery import ModelCodec
from kgen.runtime.gentype.watch import WatchStream
from kgen.runtime.rest.watch import WatchDecoder

from .pods import make_pod

STRATEGIES = ("none", "hold", "hold-plain", "hold-collect", "hold-frozen", "threshold")
POOL = 500
CHUNK = 64 * 1024
SEED = 20240301
TIMEOUT = 900.0

JSON = dict[str, Any]

#: List fields whose items structured-merge-diff keys, and by what (the Pod schema's
#: x-kubernetes-list-map-keys); other lists of objects are atomic.
_LIST_KEYS = {
    "containers": ("name",), "volumes": ("name",), "env": ("name",), "volumeMounts": ("mountPath",),
    "ports": ("containerPort", "protocol"), "conditions": ("type",), "ownerReferences": ("uid",),
    "hostIPs": ("ip",), "podIPs": ("ip",),
}


def _fields(value: Any) -> JSON:
    """fieldsV1 of ``value``: what a manager that set all of it owns."""
    if not isinstance(value, dict):
        return {}
    owned: JSON = {}
    for key, item in value.items():
        keys = _LIST_KEYS.get(key)
        if keys is not None and isinstance(item, list):
            owned[f"f:{key}"] = {
                "k:" + json.dumps({k: element[k] for k in keys}, separators=(",", ":")): {".": {}, **_fields(element)}
                for element in item
            }
        else:
            owned[f"f:{key}"] = _fields(item)
    return owned


def server_pod(rng: random.Random, index: int) -> JSON:
    """bench/pods.py's Pod with the managedFields a server keeps: the creating manager's
    metadata and spec, the status writer's status (as bench/scale_fill.py leaves a Pod)."""
    pod = make_pod(rng, index)
    meta = pod["metadata"]
    owned_meta = {k: meta[k] for k in ("generateName", "labels", "annotations", "ownerReferences")}
    meta["managedFields"] = [
        {"manager": "kube-controller-manager", "operation": "Update", "apiVersion": "v1",
         "time": meta["creationTimestamp"], "fieldsType": "FieldsV1",
         "fieldsV1": {"f:metadata": _fields(owned_meta), "f:spec": _fields(pod["spec"])}},
        {"manager": "kubelet", "operation": "Update", "apiVersion": "v1", "time": meta["creationTimestamp"],
         "fieldsType": "FieldsV1", "fieldsV1": {"f:status": _fields(pod["status"])}, "subresource": "status"},
    ]
    return pod


def _pool() -> list[bytes]:
    """Event lines with placeholders for the event type, name, uid and resourceVersion."""
    rng = random.Random(SEED)
    lines = []
    for i in range(POOL):
        pod = server_pod(rng, i)
        pod["metadata"].update(name="@N@", uid="@U@", resourceVersion="@R@")
        lines.append(json.dumps({"type": "@T@", "object": pod}, separators=(",", ":")).encode())
    return lines


def _event(pool: list[bytes], index: int, resource_version: int, event_type: bytes) -> bytes:
    line = pool[index % POOL]
    return (line.replace(b"@T@", event_type).replace(b"@N@", b"pod-%08d" % index)
            .replace(b"@U@", b"00000000-0000-4000-8000-%012d" % index)
            .replace(b"@R@", b"%d" % resource_version) + b"\n")


def _bookmark(resource_version: int) -> bytes:
    return json.dumps({"type": "BOOKMARK", "object": {"kind": "Pod", "apiVersion": "v1", "metadata": {
        "resourceVersion": str(resource_version), "annotations": {"k8s.io/initial-events-end": "true"}}}},
        separators=(",", ":")).encode() + b"\n"


class _Body(httpx.SyncByteStream):
    """The watch-list's response body, made as it is read: N ADDED events in 64 KiB chunks,
    the bookmark, then ``updates`` MODIFIED events once ``go_on`` is set, then nothing more
    until ``done`` is."""

    def __init__(self, pods: "MemoryPods") -> None:
        self._pods = pods

    def __iter__(self) -> Iterator[bytes]:
        pods, count = self._pods, self._pods.count
        yield from _chunks(_event(pods.pool, i, i + 1, b"ADDED") for i in range(count))
        yield _bookmark(count)
        pods.go_on.wait()
        yield from _chunks(_event(pods.pool, i % count, count + 1 + i, b"MODIFIED") for i in range(pods.updates))
        pods.done.wait()


def _chunks(lines: Iterator[bytes]) -> Iterator[bytes]:
    chunk: list[bytes] = []
    size = 0
    for line in lines:
        chunk.append(line)
        size += len(line)
        if size >= CHUNK:
            yield b"".join(chunk)
            chunk, size = [], 0
    if chunk:
        yield b"".join(chunk)


class MemoryPods:
    """The lister-watcher: a typed Pod ``WatchStream`` (the one a ``ResourceClient`` returns)
    over an in-memory response; watch-list only (a list would mean the informer fell back)."""

    def __init__(self, count: int, updates: int) -> None:
        self.count, self.updates = count, updates
        self.pool = _pool()
        self.go_on, self.done = threading.Event(), threading.Event()

    def list(self, **options: Any) -> Any:
        raise RuntimeError("bench.sync_gc serves a watch-list only")

    def open_watch(self, **options: Any) -> WatchStream[Pod]:
        if not options.get("send_initial_events"):
            raise RuntimeError(f"bench.sync_gc serves a watch-list only, asked {options}")
        response = httpx.Response(200, headers={"content-type": "application/json"}, stream=_Body(self))
        return WatchStream(response, WatchDecoder(ModelCodec(Pod, PodList).decode, "memory pods"))


class GCTimes:
    """Collections per generation since ``reset``: how many and how long."""

    def __init__(self) -> None:
        self.count = [0, 0, 0]
        self.seconds = [0.0, 0.0, 0.0]
        self._started = 0.0
        gc.callbacks.append(self._callback)

    def _callback(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
        else:
            generation = info["generation"]
            self.count[generation] += 1
            self.seconds[generation] += time.perf_counter() - self._started

    def reset(self) -> None:
        self.count, self.seconds = [0, 0, 0], [0.0, 0.0, 0.0]

    def figures(self) -> JSON:
        return {"collections": list(self.count), "gcSeconds": [round(s, 3) for s in self.seconds]}


def _strategy(name: str) -> bool:
    """Installs ``name``'s begin and end of the hold; whether the informer holds at all."""
    from kgen.runtime.tools.cache import sync_gc

    saved = gc.get_threshold()

    def end_plain(disabled_here: bool) -> None:
        if disabled_here:
            gc.enable()

    def end_collect(disabled_here: bool) -> None:
        if disabled_here:
            gc.enable()
            gc.collect()

    def end_frozen(disabled_here: bool) -> None:
        if disabled_here:
            gc.freeze()
            gc.enable()

    def begin_threshold() -> bool:
        gc.set_threshold(100_000, *saved[1:])
        return True

    def end_threshold(disabled_here: bool) -> None:
        gc.set_threshold(*saved)

    ends = {"hold-plain": end_plain, "hold-collect": end_collect, "hold-frozen": end_frozen,
            "threshold": end_threshold}
    if name in ends:
        sync_gc._end = ends[name]
    if name == "threshold":
        sync_gc._begin = begin_threshold
    return name != "none"


def run_one(strategy: str, count: int, updates: int) -> JSON:
    """One strategy at one size, in this process: the figures as a dict."""
    from kgen.runtime.tools.cache.shared_informer import SharedIndexInformer

    hold = _strategy(strategy)
    pods = MemoryPods(count, updates)
    informer: SharedIndexInformer[Any] = SharedIndexInformer(pods, watch_list=True, hold_gc_during_sync=hold)
    informer.reflector.expected_type = ("v1", "Pod")
    seen = {"added": 0, "updated": 0}
    synced, updated = threading.Event(), threading.Event()

    def on_add(_: Any) -> None:
        seen["added"] += 1
        if seen["added"] == count:
            synced.set()

    def on_update(_: Any, __: Any) -> None:
        seen["updated"] += 1
        if seen["updated"] == updates:
            updated.set()

    registration = informer.add_event_handler(on_add=on_add, on_update=on_update)
    gc.collect()
    times = GCTimes()
    cpu, wall = time.process_time(), time.perf_counter()
    informer.run()
    if not synced.wait(TIMEOUT):
        raise RuntimeError(f"{seen['added']} of {count} adds after {TIMEOUT:.0f} s")
    while not registration.has_synced():
        time.sleep(0.001)
    figures: JSON = {"strategy": strategy, "objects": count, "syncCpu": round(time.process_time() - cpu, 3),
                     "syncWall": round(time.perf_counter() - wall, 3), **times.figures(),
                     "gcEnabledAfter": gc.isenabled()}
    times.reset()
    cpu = time.process_time()
    pods.go_on.set()
    if updates and not updated.wait(TIMEOUT):
        raise RuntimeError(f"{seen['updated']} of {updates} updates after {TIMEOUT:.0f} s")
    figures["updates"] = updates
    figures["updatesCpu"] = round(time.process_time() - cpu, 3)
    figures["updatesCollections"], figures["updatesGcSeconds"] = times.count, [round(s, 3) for s in times.seconds]
    if len(informer.indexer.list_keys()) != count:
        raise RuntimeError(f"the cache holds {len(informer.indexer.list_keys())} objects, not {count}")
    pods.done.set()
    informer.stop()
    return figures


def _row(f: JSON) -> str:
    return (f"| {f['objects']:,} | {f['strategy']} | {f['syncCpu']:.2f} | {f['syncWall']:.2f} | "
            f"{f['collections'][2]} | {f['gcSeconds'][2]:.2f} | {sum(f['gcSeconds']):.2f} | "
            f"{f['updatesCpu']:.2f} | {f['updatesCollections'][2]} | {sum(f['updatesGcSeconds']):.2f} |")


HEADER = ("| Pods | strategy | sync CPU s | sync wall s | gen-2 collections | gen-2 s | all GC s | "
          f"updates CPU s | updates gen-2 | updates GC s |\n|{'---|' * 10}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.sync_gc", description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", default="10000,50000,100000", help="Pods, comma-separated")
    parser.add_argument("--strategy", default="none,hold", help=f"comma-separated, of {', '.join(STRATEGIES)}")
    parser.add_argument("--updates", type=int, default=-1, help="MODIFIED events after the sync (default: N/10)")
    parser.add_argument("--one", action="store_true", help=argparse.SUPPRESS)  # a child: one run, JSON out
    args = parser.parse_args(argv)
    try:
        counts = [int(c) for c in args.count.split(",")]
    except ValueError:
        parser.error(f"--count: want comma-separated Pod counts such as 10000,100000, got {args.count!r}")
    strategies = args.strategy.split(",")
    if unknown := [s for s in strategies if s not in STRATEGIES]:
        parser.error(f"--strategy: unknown {', '.join(unknown)}; want some of {', '.join(STRATEGIES)}")
    if args.one:
        updates = counts[0] // 10 if args.updates < 0 else args.updates
        print(json.dumps(run_one(strategies[0], counts[0], updates)))
        return 0
    print(HEADER)
    for count in counts:
        for strategy in strategies:
            command = [sys.executable, "-m", "bench.sync_gc", "--one", "--count", str(count),
                       "--strategy", strategy, "--updates", str(args.updates)]
            done = subprocess.run(command, capture_output=True, text=True, timeout=TIMEOUT)
            if done.returncode != 0:
                print(f"| {count:,} | {strategy} | failed: {done.stderr.strip().splitlines()[-1:]} |")
                continue
            print(_row(json.loads(done.stdout.strip().splitlines()[-1])), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
