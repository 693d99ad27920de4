"""An informer's initial sync against the real apiserver: kgen next to client-go, on small
objects (ConfigMaps) and on realistic Pods.

One namespace holds N ConfigMaps (10,000 by default; seeded: labels, annotations and ~1 KB of
data each), another N Pods (bench/scale_fill.py: bench/pods.py's Deployment pods, created with
their status). A run starts a fresh informer factory for one namespace's objects and is timed
from ``start()`` until a handler has been handed all N objects and its registration has synced
(client-go: ``HasSyncedChecker``), with WatchList on (one watch with ``sendInitialEvents``) and
off (a list, then a watch). Measured in the same run, on the same server and objects:

- kgen's generated ``SharedInformerFactory`` (threads) and ``AsyncSharedInformerFactory``;
- client-go's ``informers.NewSharedInformerFactoryWithOptions`` (hack/oracle/informer,
  ``sync-bench`` mode, client-go at the envtest version; its WatchListClient feature gate
  switched per run), the clientset as users get it (JSON);
- kgen's bare paginated list (``list_all`` in pages of 500, typed), the floor an informer
  that decodes every object can hardly go below.

Every client runs unthrottled (QPS -1): the figures are the clients', not a rate limiter's.
Runs alternate between modes, ``repeats`` each; figures are medians. The goals (issue 36) are on
small objects: a sync within ``GOAL_VS_LIST`` of the bare list and ``GOAL_VS_CLIENT_GO`` of
client-go on JSON; the Pods rows print the same ratios, for information.
"""

from __future__ import annotations

import asyncio
import gc
import json
import random
import statistics
import subprocess
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast

from .generation import REPO
from .report import Row, Table, seconds, times

NAMESPACE = "bench-informer-sync"
POD_NAMESPACE = "bench-informer-pods"
PAGE_SIZE = 500
TIMEOUT = 600.0
GOAL_VS_LIST = 1.1
"""The goal on ConfigMaps: kgen's sync ÷ kgen's bare paginated list at most this."""
GOAL_VS_CLIENT_GO = 0.8
"""The goal on ConfigMaps: kgen's sync ÷ client-go's (JSON) at most this."""


@dataclass(frozen=True)
class Kind:
    """One kind the bench syncs: its name in the table, its namespace, the resource client-go's
    ``-resource`` names and the generated factory's accessor."""

    title: str
    namespace: str
    resource: str
    accessor: str  # core_v1.<accessor>() on a factory, core_v1.<accessor>(namespace) on a clientset
    has_goal: bool


CONFIG_MAPS = Kind("ConfigMaps", NAMESPACE, "configmaps", "config_maps", True)
PODS = Kind("Pods", POD_NAMESPACE, "pods", "pods", False)
KINDS = (CONFIG_MAPS, PODS)


@dataclass(frozen=True)
class KindTimes:
    kind: Kind
    #: (client, WatchList on?) → median seconds; ``client`` is kgen, kgen-async or client-go.
    sync: dict[tuple[str, bool], float]
    paginated_list: float


@dataclass(frozen=True)
class SyncTimes:
    objects: int
    repeats: int
    kinds: list[KindTimes]
    #: Why client-go's rows are empty, when they are.
    client_go_missing: str = ""


def _config_map(rng: random.Random, i: int) -> dict[str, Any]:
    app = rng.choice(["checkout", "payments", "catalog", "search", "frontend", "orders"])
    return {
        "metadata": {
            "name": f"cm-{i:05d}",
            "labels": {"app.kubernetes.io/name": app, "team": rng.choice(["platform", "data", "growth"]),
                       "shard": str(i % 16)},
            "annotations": {"checksum/config": "%064x" % rng.getrandbits(256)},
        },
        "data": {
            "config.yaml": "".join(f"key{k}: {rng.getrandbits(64):x}\n" for k in range(24)),
            "LOG_LEVEL": rng.choice(["info", "debug"]),
            "REPLICAS": str(rng.randint(1, 9)),
        },
    }


async def _fill(kubeconfig: str, objects: int, seed: int) -> None:
    from kgen.kubernetes import AsyncClientset
    from kgen.kubernetes.models.core.v1 import ConfigMap, Namespace
    from kgen.kubernetes.models.meta.v1 import ObjectMeta

    config = _config(kubeconfig)
    rng = random.Random(seed)
    bodies = [ConfigMap.from_dict(_config_map(rng, i)) for i in range(objects)]
    async with AsyncClientset(config) as cs:
        await cs.core_v1.namespaces().create(Namespace(metadata=ObjectMeta(name=NAMESPACE)))
        cms = cs.core_v1.config_maps(NAMESPACE)
        gate = asyncio.Semaphore(16)

        async def create(body: ConfigMap) -> None:
            async with gate:
                await cms.create(body)

        await asyncio.gather(*(create(body) for body in bodies))


def _filled(kubeconfig: str, namespace: str) -> bool:
    """Whether ``namespace`` exists on that cluster (filled by an earlier run)."""
    from kgen.kubernetes import Clientset
    from kgen.runtime.apimachinery.errors import NotFound

    with Clientset(_config(kubeconfig)) as cs:
        try:
            cs.core_v1.namespaces().get(namespace)
        except NotFound:
            return False
    return True


def _config(kubeconfig: str) -> Any:
    from kgen.runtime.rest import load_kubeconfig

    config = load_kubeconfig(kubeconfig)
    config.qps = -1
    return config


class _Counter:
    """Counts a handler's adds (one handler: one worker, no race); calls ``done`` at the last."""

    def __init__(self, objects: int, done: Callable[[], None]) -> None:
        self.objects, self.count, self.done = objects, 0, done

    def add(self, _: Any) -> None:
        self.count += 1
        if self.count == self.objects:
            self.done()


class KgenRuns:
    """kgen's runs: one clientset per flavour for all of them (connected before the first), as
    client-go's runs share one clientset; a fresh informer factory per run."""

    def __init__(self, kubeconfig: str, objects: int) -> None:
        from kgen.kubernetes import AsyncClientset, Clientset

        self.objects = objects
        self.clientset = Clientset(_config(kubeconfig))
        self.clientset.core_v1.config_maps(NAMESPACE).list(limit=1)
        self.loop = asyncio.new_event_loop()
        self.async_clientset = AsyncClientset(_config(kubeconfig))
        self.loop.run_until_complete(self.async_clientset.core_v1.config_maps(NAMESPACE).list(limit=1))

    def close(self) -> None:
        self.clientset.close()
        self.loop.run_until_complete(self.async_clientset.close())
        self.loop.close()

    def sync(self, watch_list: bool, kind: Kind = CONFIG_MAPS) -> float:
        from kgen.kubernetes.informers.factory import SharedInformerFactory

        factory = SharedInformerFactory(self.clientset, namespace=kind.namespace, watch_list=watch_list)
        informer = getattr(factory.core_v1, kind.accessor)().informer
        all_seen = threading.Event()
        seen = _Counter(self.objects, all_seen.set)
        registration = informer.add_event_handler(on_add=seen.add)
        gc.collect()
        started = time.perf_counter()
        factory.start()
        try:
            if not all_seen.wait(TIMEOUT):
                raise RuntimeError(f"kgen informer: {seen.count} of {self.objects} objects after {TIMEOUT:.0f} s")
            while not registration.has_synced():
                time.sleep(0.001)
            elapsed = time.perf_counter() - started
            assert len(informer.indexer.list_keys()) == self.objects
        finally:
            factory.shutdown()
        return elapsed

    def async_sync(self, watch_list: bool, kind: Kind = CONFIG_MAPS) -> float:
        return self.loop.run_until_complete(self._async_sync(watch_list, kind))

    async def _async_sync(self, watch_list: bool, kind: Kind) -> float:
        from kgen.kubernetes.informers.factory import AsyncSharedInformerFactory

        factory = AsyncSharedInformerFactory(self.async_clientset, namespace=kind.namespace, watch_list=watch_list)
        informer = getattr(factory.core_v1, kind.accessor)().informer
        all_seen = asyncio.Event()
        registration = informer.add_event_handler(on_add=_Counter(self.objects, all_seen.set).add)
        gc.collect()
        started = time.perf_counter()
        factory.start()
        try:
            await asyncio.wait_for(all_seen.wait(), TIMEOUT)
            while not registration.has_synced():
                await asyncio.sleep(0.001)
            elapsed = time.perf_counter() - started
            assert len(informer.indexer.list_keys()) == self.objects
        finally:
            await factory.shutdown()
        return elapsed

    def paginated_list(self, kind: Kind = CONFIG_MAPS) -> float:
        client = getattr(self.clientset.core_v1, kind.accessor)(kind.namespace)
        gc.collect()
        started = time.perf_counter()
        listed = client.list_all(page_size=PAGE_SIZE)
        elapsed = time.perf_counter() - started
        assert len(listed.items or []) == self.objects
        return elapsed


def _client_go_binary() -> str:
    build = subprocess.run([str(REPO / "hack" / "oracle" / "build.sh"), "informer"], capture_output=True,
                           text=True, timeout=1800)
    if build.returncode != 0:
        raise RuntimeError(f"building the client-go oracle failed: {build.stderr.strip()[-500:]}")
    return build.stdout.strip().splitlines()[-1]


def _client_go(binary: str, kubeconfig: str, objects: int, kind: Kind = CONFIG_MAPS) -> dict[bool, float]:
    """One client-go run with WatchList on and one with it off, in one process."""
    done = subprocess.run(
        [binary, "sync-bench", "-kubeconfig", kubeconfig, "-namespace", kind.namespace, "-objects", str(objects),
         "-resource", kind.resource, "-repeats", "1"],
        capture_output=True, text=True, timeout=TIMEOUT * 2,
    )
    if done.returncode != 0:
        raise RuntimeError(f"client-go sync-bench failed: {done.stderr.strip()[-500:]}")
    result = json.loads(done.stdout)
    return {True: result["watchList"][0], False: result["list"][0]}


def _fill_kind(kind: Kind, target: str, objects: int, seed: int, progress: Callable[[str], None]) -> None:
    progress(f"informer sync: creating {objects} {kind.title}")
    if kind is PODS:
        from .scale_fill import fill

        asyncio.run(fill(target, kind.namespace, objects, seed, progress))
    else:
        asyncio.run(_fill(target, objects, seed))


def measure(objects: int, repeats: int, seed: int, progress: Callable[[str], None],
            kubeconfig: str | None = None, kinds: tuple[Kind, ...] = KINDS) -> SyncTimes:
    """Fills a fresh apiserver (or the one ``kubeconfig`` names, unless its namespaces are there
    already: the runs of a profile need not fill again) with ``objects`` of each kind, then runs
    every client ``repeats`` times, round by round, kind by kind."""
    from contextlib import nullcontext

    from kgen.runtime.testing import KubeAPIServer

    runs: dict[tuple[str, str, bool], list[float]] = {}
    lists: dict[str, list[float]] = {}
    missing = ""
    try:
        binary = _client_go_binary()
    except (RuntimeError, OSError, subprocess.TimeoutExpired) as e:
        binary, missing = "", str(e)
    with KubeAPIServer() if kubeconfig is None else nullcontext() as server:
        target = kubeconfig or cast(KubeAPIServer, server).kubeconfig
        for kind in kinds:
            if kubeconfig is None or not _filled(target, kind.namespace):
                _fill_kind(kind, target, objects, seed, progress)
        kgen = KgenRuns(target, objects)
        try:
            for i in range(repeats):
                for kind in kinds:
                    progress(f"informer sync: {kind.title}, round {i + 1} of {repeats} (kgen on threads and "
                             "asyncio, client-go; WatchList on and off; the paginated list)")
                    for watch_list in (True, False):
                        runs.setdefault((kind.title, "kgen", watch_list), []).append(kgen.sync(watch_list, kind))
                        runs.setdefault((kind.title, "kgen-async", watch_list), []).append(
                            kgen.async_sync(watch_list, kind))
                    lists.setdefault(kind.title, []).append(kgen.paginated_list(kind))
                    if binary and not missing:
                        try:
                            for watch_list, took in _client_go(binary, target, objects, kind).items():
                                runs.setdefault((kind.title, "client-go", watch_list), []).append(took)
                        except (RuntimeError, subprocess.TimeoutExpired) as e:
                            missing = str(e)
        finally:
            kgen.close()
    if missing:
        runs = {key: v for key, v in runs.items() if key[1] != "client-go"}
    return SyncTimes(objects, repeats, [
        KindTimes(kind, {(client, wl): statistics.median(v) for (title, client, wl), v in runs.items()
                         if title == kind.title}, statistics.median(lists[kind.title]))
        for kind in kinds
    ], missing)


def _goal_met(kind: Kind, vs_go: float | None, vs_list: float) -> bool | None:
    """Both goals met (a missing client-go figure misses its goal), or None: no goal on this kind."""
    if not kind.has_goal:
        return None
    return vs_go is not None and vs_go <= GOAL_VS_CLIENT_GO and vs_list <= GOAL_VS_LIST


def table(result: SyncTimes) -> Table:
    rows = []
    for times_of in result.kinds:
        kind = times_of.kind
        for watch_list in (True, False):
            mode = "WatchList on" if watch_list else "WatchList off (list, then watch)"
            go = times_of.sync.get(("client-go", watch_list))
            for name, label in (("kgen", "kgen (threads)"), ("kgen-async", "kgen (asyncio)")):
                mine = times_of.sync[(name, watch_list)]
                vs_go, vs_list = (mine / go if go else None), mine / times_of.paginated_list
                rows.append(Row(
                    f"{kind.title}: {label}, {mode}",
                    (seconds(mine), seconds(go), seconds(times_of.paginated_list)),
                    f"{times(vs_go) if vs_go is not None else '—'} / {times(vs_list)}",
                    f"≤ {GOAL_VS_CLIENT_GO:.1f}× / ≤ {GOAL_VS_LIST:.1f}×" if kind.has_goal else "(info)",
                    _goal_met(kind, vs_go, vs_list),
                ))
        rows.append(Row(f"{kind.title}: bare paginated list, pages of {PAGE_SIZE} (kgen list_all, typed)",
                        ("", "", seconds(times_of.paginated_list)), "", "", None))
    kinds = " and ".join(t.kind.title for t in result.kinds)
    return Table(f"Informer initial sync of {result.objects:,} {kinds} against the real apiserver "
                 f"(medians of {result.repeats}; ratios: kgen ÷ client-go (JSON) / kgen ÷ paginated list, "
                 "lower is better)", ("kgen", "client-go", "paginated list"), rows)


def notes(result: SyncTimes) -> list[str]:
    lines = [
        f"- informer sync: from the factory's start() until a handler was handed all {result.objects:,} "
        "objects and its registration synced; a fresh factory per run, one clientset per client for all runs, "
        "QPS limits off; client-go's WatchListClient gate and kgen's watch_list option switched per run",
        f"- informer sync goals (issue 36, on small objects: ConfigMaps): kgen ≤ {GOAL_VS_CLIENT_GO}× client-go "
        f"on JSON and ≤ {GOAL_VS_LIST}× kgen's bare paginated list, both per row; the Pods rows are for information",
    ]
    for times_of in result.kinds:
        if not times_of.kind.has_goal:
            continue
        for (client, watch_list), mine in sorted(times_of.sync.items()):
            if client == "client-go":
                continue
            go = times_of.sync.get(("client-go", watch_list))
            missed = []
            if go is None or mine / go > GOAL_VS_CLIENT_GO:
                missed.append(f"vs client-go {times(mine / go) if go else '(no figure)'}")
            if mine / times_of.paginated_list > GOAL_VS_LIST:
                missed.append(f"vs the bare list {times(mine / times_of.paginated_list)}")
            if missed:
                mode = "WatchList on" if watch_list else "WatchList off"
                lines.append(f"- {times_of.kind.title}, {client}, {mode}: goal missed ({'; '.join(missed)})")
    if result.client_go_missing:
        lines.append(f"- client-go's informer rows are empty: {result.client_go_missing}")
    return lines


def main() -> None:
    """``python -m bench.informer_sync [--objects N] [--repeats R] [--kubeconfig PATH] [--kinds ...]``:
    this table alone (on a fresh apiserver, or the cluster of PATH, filled once)."""
    import argparse
    import sys

    parser = argparse.ArgumentParser(prog="python -m bench.informer_sync", description=main.__doc__)
    parser.add_argument("--objects", type=int, default=10_000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=20240301)
    parser.add_argument("--kubeconfig", help="measure on this cluster instead of a fresh apiserver")
    parser.add_argument("--kinds", nargs="+", choices=[k.title for k in KINDS], default=[k.title for k in KINDS],
                        help="which kinds to sync (default: both)")
    args = parser.parse_args()
    kinds = tuple(k for k in KINDS if k.title in args.kinds)
    result = measure(args.objects, args.repeats, args.seed, lambda m: print(f"bench: {m}", file=sys.stderr),
                     args.kubeconfig, kinds)
    print(table(result).render())
    for note in notes(result):
        print(note)


if __name__ == "__main__":
    main()
