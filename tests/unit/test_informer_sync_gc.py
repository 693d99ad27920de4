"""The informer holds Python's cyclic GC off while its cache first fills (runtime/tools/cache/
sync_gc.py), on threads and on asyncio alike: off during the list and while the first list is
handed to the indexer, back on once synced, after a failed list, after a stop in the middle of
the list, after the last of overlapping syncs; never touched when the process had it off or
when the informer opts out; and garbage cycles made meanwhile are collected afterwards."""

from __future__ import annotations

import asyncio
import gc
import random
import threading
import time
import weakref
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from kgen.runtime.tools.cache import sync_gc
from kgen.runtime.tools.cache.reflector_state import reflector_backoff
from kgen.runtime.tools.cache.shared_informer import AsyncSharedIndexInformer, SharedIndexInformer
from kgen.runtime.tools.cache.sync_gc import SyncGCHold
from tests.support.fake_source import api_error, pod, pod_list
from tests.support.flavours import Flavour

Informer = SharedIndexInformer[Any] | AsyncSharedIndexInformer[Any]
PODS = [pod(f"p{i}", namespace="ns") for i in range(5)]


@pytest.fixture(autouse=True)
def collector_on() -> Iterator[None]:
    """Each test starts with automatic collection on and no hold, and leaves it so."""
    assert sync_gc.holders() == 0
    gc.enable()
    yield
    gc.enable()
    gc.unfreeze()


class Seen:
    """What the collector looked like at each moment a test asks about."""

    def __init__(self) -> None:
        self.states: list[tuple[str, bool, int]] = []
        self.lock = threading.Lock()

    def record(self, moment: str) -> None:
        with self.lock:
            self.states.append((moment, gc.isenabled(), sync_gc.holders()))

    def at(self, moment: str) -> list[tuple[bool, int]]:
        with self.lock:
            return [(enabled, holders) for m, enabled, holders in self.states if m == moment]


class Source:
    """A lister-watcher with no watch-list (400: the reflector lists), whose list records the
    collector's state, may fail, and may wait for ``gate`` (a threading.Event, polled on
    asyncio so the loop runs on)."""

    def __init__(self, flavour: Flavour, seen: Seen, *, fail: int = 0, gate: threading.Event | None = None,
                 during_list: Callable[[], None] | None = None) -> None:
        self.is_async = flavour.is_async
        self.seen = seen
        self.fail = fail
        self.gate = gate
        self.during_list = during_list
        self.listing = threading.Event()
        self.lists = 0

    def _list(self) -> Any:
        self.lists += 1
        self.seen.record("list")
        self.listing.set()
        if self.during_list is not None:
            self.during_list()
        if self.lists <= self.fail:
            raise api_error(500, "InternalError", "list failed")
        return pod_list("10", PODS)

    def _watch(self, options: dict[str, Any]) -> Any:
        if options.get("send_initial_events"):
            raise api_error(400, "BadRequest", "no watch-list here")
        return _IdleWatch()

    def list(self, **options: Any) -> Any:
        if self.is_async:
            return self._async_list()
        if self.gate is not None:
            self.listing.set()
            self.gate.wait(10)
        return self._list()

    async def _async_list(self) -> Any:
        if self.gate is not None:
            self.listing.set()
            while not self.gate.is_set():
                await asyncio.sleep(0.005)
        return self._list()

    def open_watch(self, **options: Any) -> Any:
        if self.is_async:
            return self._async_watch(options)
        return self._watch(options)

    async def _async_watch(self, options: dict[str, Any]) -> Any:
        return _AsyncIdleWatch(self._watch(options))


class _IdleWatch:
    """A watch on which nothing happens until it is stopped."""

    def __init__(self) -> None:
        self.stopped = threading.Event()

    def stop(self) -> None:
        self.stopped.set()

    def __enter__(self) -> "_IdleWatch":
        return self

    def __exit__(self, *_: object) -> None:
        self.stop()

    def __iter__(self) -> Iterator[Any]:
        self.stopped.wait(30)
        return iter(())


class _AsyncIdleWatch:
    def __init__(self, watch: _IdleWatch) -> None:
        self.watch = watch

    def stop(self) -> None:
        self.watch.stop()

    async def __aenter__(self) -> "_AsyncIdleWatch":
        return self

    async def __aexit__(self, *_: object) -> None:
        self.stop()

    def __aiter__(self) -> "_AsyncIdleWatch":
        return self

    async def __anext__(self) -> Any:
        while not self.watch.stopped.is_set():
            await asyncio.sleep(0.005)
        raise StopAsyncIteration


def informer_for(flavour: Flavour, source: Source, seen: Seen, **kwargs: Any) -> Informer:
    """An informer of this flavour over ``source`` whose indexer records the collector's state
    as the first list's objects reach it (the process loop's half of the sync)."""

    def index(obj: Any) -> list[str]:
        seen.record("index")
        return []

    def make() -> Informer:
        cls = AsyncSharedIndexInformer if flavour.is_async else SharedIndexInformer
        informer: Informer = cls(source, indexers={"record": index}, **kwargs)
        informer.reflector.backoff = reflector_backoff(initial=0.01, cap=0.05)
        return informer

    informer: Informer = flavour.do(make)
    return informer


def synced(flavour: Flavour, informer: Informer) -> bool:
    ok: bool = flavour.call(informer.wait_for_cache_sync, 10, timeout=15)
    return ok


def wait_until(condition: Callable[[], bool], timeout: float = 10.0) -> bool:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.005)
    return True


def test_the_collector_is_off_during_the_first_list_and_on_once_synced(flavour: Flavour) -> None:
    seen = Seen()
    informer = informer_for(flavour, Source(flavour, seen), seen)
    flavour.call(informer.run)
    assert synced(flavour, informer)
    assert seen.at("list") == [(False, 1)]
    assert seen.at("index") == [(False, 1)] * len(PODS)  # the process loop's half too
    assert wait_until(lambda: sync_gc.holders() == 0)
    assert gc.isenabled()
    assert gc.get_freeze_count() == 0  # the survivors went to the oldest generation, not frozen
    flavour.call(informer.stop)


def test_the_collector_is_on_between_a_failed_list_and_the_next(flavour: Flavour) -> None:
    seen = Seen()
    informer = informer_for(flavour, Source(flavour, seen, fail=2), seen)
    informer.set_watch_error_handler(lambda error: seen.record("failed"))
    flavour.call(informer.run)
    assert synced(flavour, informer)
    assert seen.at("failed") == [(True, 0), (True, 0)]  # reported after the hold ended
    assert seen.at("list") == [(False, 1)] * 3  # and each new attempt holds again
    assert wait_until(lambda: sync_gc.holders() == 0) and gc.isenabled()
    flavour.call(informer.stop)


def test_a_stop_in_the_middle_of_the_list_turns_the_collector_back_on(flavour: Flavour) -> None:
    seen, gate = Seen(), threading.Event()
    source = Source(flavour, seen, gate=gate)
    informer = informer_for(flavour, source, seen)
    flavour.call(informer.run)
    assert source.listing.wait(10)
    assert not gc.isenabled() and sync_gc.holders() == 1
    try:
        flavour.call(informer.stop, 0.2, timeout=15)
        assert gc.isenabled() and sync_gc.holders() == 0
    finally:
        gate.set()
    assert not informer.has_synced()
    time.sleep(0.1)  # the released list returns into a stopped reflector: nothing holds again
    assert gc.isenabled() and sync_gc.holders() == 0


def test_overlapping_syncs_share_one_hold_and_the_last_ends_it(flavour: Flavour) -> None:
    seen, gate = Seen(), threading.Event()
    slow_source = Source(flavour, seen, gate=gate)
    slow = informer_for(flavour, slow_source, seen)
    fast = informer_for(flavour, Source(flavour, Seen()), Seen())
    flavour.call(slow.run)
    assert slow_source.listing.wait(10)
    flavour.call(fast.run)
    try:
        assert synced(flavour, fast)
        assert wait_until(lambda: sync_gc.holders() == 1)
        assert not gc.isenabled()  # the slow informer still holds it
    finally:
        gate.set()
    assert synced(flavour, slow)
    assert wait_until(lambda: sync_gc.holders() == 0)
    assert gc.isenabled()
    flavour.call(fast.stop)
    flavour.call(slow.stop)


def test_a_collector_the_process_turned_off_stays_off(flavour: Flavour) -> None:
    seen = Seen()
    informer = informer_for(flavour, Source(flavour, seen), seen)
    gc.disable()
    flavour.call(informer.run)
    assert synced(flavour, informer)
    assert wait_until(lambda: sync_gc.holders() == 0)
    assert not gc.isenabled()
    assert gc.get_freeze_count() == 0
    flavour.call(informer.stop)


def test_garbage_cycles_made_during_the_sync_are_collected_afterwards(flavour: Flavour) -> None:
    refs: list[weakref.ref[Any]] = []

    class Node:
        def __init__(self) -> None:
            self.other: Node | None = None

    def make_a_cycle() -> None:
        a, b = Node(), Node()
        a.other, b.other = b, a
        refs.append(weakref.ref(a))

    seen = Seen()
    informer = informer_for(flavour, Source(flavour, seen, during_list=make_a_cycle), seen)
    flavour.call(informer.run)
    assert synced(flavour, informer)
    assert wait_until(lambda: sync_gc.holders() == 0)
    assert seen.at("list") == [(False, 1)]
    assert refs[0]() is not None  # nothing collected it during the hold
    gc.collect()
    assert refs[0]() is None
    flavour.call(informer.stop)


def test_the_opt_out_leaves_the_collector_alone(flavour: Flavour) -> None:
    seen = Seen()
    informer = informer_for(flavour, Source(flavour, seen), seen, hold_gc_during_sync=False)
    flavour.call(informer.run)
    assert synced(flavour, informer)
    assert seen.at("list") == [(True, 0)]
    assert seen.at("index") == [(True, 0)] * len(PODS)
    assert gc.isenabled() and gc.get_freeze_count() == 0
    flavour.call(informer.stop)


def test_a_hold_is_counted_and_closing_twice_releases_once() -> None:
    first, second, off = SyncGCHold(), SyncGCHold(), SyncGCHold(enabled=False)
    first.open()
    first.open()  # already held: not counted again
    second.open()
    off.open()
    assert sync_gc.holders() == 2 and not gc.isenabled()
    first.close()
    first.close()
    assert sync_gc.holders() == 1 and not gc.isenabled()
    second.close()
    assert sync_gc.holders() == 0 and gc.isenabled()


def test_what_a_hold_made_joins_the_oldest_generation_uncollected() -> None:
    hold = SyncGCHold()
    hold.open()
    made = [[i] for i in range(1000)]  # more than generation 0's threshold, not collected
    assert gc.get_count()[0] >= 1000
    hold.close()
    assert gc.get_count()[0] < 10  # no young collection owed to them
    oldest = {id(o) for o in gc.get_objects(generation=2)}
    assert id(made) in oldest and id(made[-1]) in oldest


def test_the_sync_gc_bench_syncs_its_pods_through_a_real_informer() -> None:
    """bench/sync_gc.py at a tiny size: every Pod cached (managedFields dropped by the default
    transform), every update seen, the collector on again after the held sync."""
    from bench.sync_gc import run_one, server_pod

    pod_json = server_pod(random.Random(1), 0)
    assert [m["manager"] for m in pod_json["metadata"]["managedFields"]] == ["kube-controller-manager", "kubelet"]
    figures = run_one("hold", 30, 3)
    assert figures["objects"] == 30 and figures["updates"] == 3
    assert figures["gcEnabledAfter"] is True
    assert sync_gc.holders() == 0


@pytest.mark.parametrize("hold", [True, False])
def test_the_generated_factories_pass_the_opt_out_to_their_informers(hold: bool) -> None:
    from kgen.kubernetes import AsyncClientset, Clientset
    from kgen.kubernetes.informers.factory import AsyncSharedInformerFactory, SharedInformerFactory
    from kgen.runtime.rest import Config

    config = Config(host="https://127.0.0.1:1")
    factory = SharedInformerFactory(Clientset(config), hold_gc_during_sync=hold)
    assert factory.core_v1.config_maps().informer.reflector.sync_gc.enabled is hold
    async_factory = AsyncSharedInformerFactory(AsyncClientset(config), hold_gc_during_sync=hold)
    assert async_factory.core_v1.config_maps().informer.reflector.sync_gc.enabled is hold
