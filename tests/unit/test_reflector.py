"""Reflector: ports of client-go's tools/cache/reflector_test.go against an in-memory
lister-watcher (client-go's ListWatch + watch.NewFake(), or a scripted one). Every test runs on
both flavours, the thread ``Reflector`` and the asyncio ``AsyncReflector`` (the ``flavour``
fixture). Backoff delays are checked on a fake clock; WatchList mode has its own module
(test_reflector_watch_list.py), so these run with it off, as client-go's ports do."""

from __future__ import annotations

import asyncio
import logging
import random
import time
from typing import Any

import httpx
import pytest

from kgen.runtime.rest.watch import WatchEvent
from kgen.runtime.tools.cache.reflector import AsyncReflector, Reflector, VeryShortWatchError, Wait
from kgen.runtime.tools.cache.reflector_state import ReflectorBackoff, reflector_backoff
from kgen.runtime.util.wait import Backoff
from kgen.runtime.tools.cache.store import Store
from kgen.runtime.apimachinery.errors import Expired, Forbidden, InternalError
from tests.support.flavours import Flavour
from tests.support.fake_source import (
    AsyncFakeWatch, AsyncListWatch, FakeWatch, ListWatch, api_error, name_of, pod, pod_list, rv_of, status,
)
from tests.support.scripted_watch import (
    END, STOP, AsyncScriptedListWatch, ScriptedListWatch, ScriptedWatch, added, bookmark, deleted, modified,
)


class CountingBackoff(ReflectorBackoff):
    """client-go's fakeDelayFunc: no waiting, only counting."""

    def __init__(self) -> None:
        super().__init__(Backoff(duration=0.0), reset_after=0.0)
        self.calls = 0

    def next_delay(self) -> float:
        self.calls += 1
        return 0.0


def reflector(flavour: Flavour, lw: ListWatch, store: Any = None, **kwargs: Any) -> Any:
    """A Reflector, or an AsyncReflector over the same lister-watcher, that never waits to back off."""
    client = AsyncListWatch(lw) if flavour.is_async else lw
    kwargs.setdefault("watch_list", False)
    r = flavour.pick(Reflector, AsyncReflector)(client, store if store is not None else Store(), **kwargs)
    r.backoff = CountingBackoff()
    return r


def scripted(flavour: Flavour, lw: ScriptedListWatch, store: Any = None, **kwargs: Any) -> Any:
    """``reflector`` over a scripted lister-watcher."""
    client = AsyncScriptedListWatch(lw) if flavour.is_async else lw
    kwargs.setdefault("watch_list", False)
    r = flavour.pick(Reflector, AsyncReflector)(client, store if store is not None else Store(), **kwargs)
    r.backoff = CountingBackoff()
    return r


def content(store: Store) -> dict[str, str]:
    return {name_of(o): rv_of(o) for o in store.list()}


class FakeClock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def on_fake_clock(flavour: Flavour, lw: ListWatch, clock: FakeClock, **kwargs: Any) -> tuple[Any, list[float]]:
    """A reflector whose waits pass on ``clock`` at once (client-go's reflectors take a clock);
    returns it and the list of the waits it made."""
    waits: list[float] = []

    class SyncOnClock(Reflector):
        def _perform(self, step: Any, run: Any) -> Any:
            if isinstance(step, Wait):
                waits.append(step.seconds)
                clock.now += step.seconds
                return None
            return super()._perform(step, run)

    class AsyncOnClock(AsyncReflector):
        async def _perform(self, step: Any, run: Any) -> Any:
            if isinstance(step, Wait):
                waits.append(step.seconds)
                clock.now += step.seconds
                return None
            return await super()._perform(step, run)

    client = AsyncListWatch(lw) if flavour.is_async else lw
    r = flavour.pick(SyncOnClock, AsyncOnClock)(client, Store(), watch_list=False, **kwargs)
    r.clock = clock
    return r, waits


def assert_backoff_bounds(waits: list[float], initial: float, cap: float, reset_after: float) -> None:
    """client-go's Backoff.DelayWithReset with full jitter: the k-th delay since the sequence last
    started over is in [b, 2b) for b = initial * 2**k capped at ``cap``; the sequence starts over
    once more than ``reset_after`` passed since it last did."""
    now, started_over, base = 0.0, 0.0, initial
    for number, wait in enumerate(waits):
        if now - started_over > reset_after:
            started_over, base = now, initial
        assert base <= wait < 2 * base, f"wait {number} is {wait}, not in [{base}, {2 * base})"
        now += wait
        base = min(base * 2, cap)


def stop_when_watching(stop: Any) -> Any:
    """A WatchFunc that stops the reflector as soon as it starts watching (client-go's
    "we're only interested in the list")."""

    def watch(options: dict[str, Any]) -> FakeWatch:
        stop.set()
        return FakeWatch()

    return watch


def names(store: Store) -> list[str]:
    return sorted(name_of(o) for o in store.list())


def expired() -> Expired:
    error = api_error(410, "Expired", "The resourceVersion for the provided watch is too old.")
    assert isinstance(error, Expired)
    return error


def pods(n: int) -> list[dict[str, Any]]:
    return [pod(f"pod-{i}", str(i)) for i in range(n)]


def test_close_watch_channel_on_error(flavour: Flavour) -> None:
    fw = FakeWatch()
    lw = ListWatch(lambda o: pod_list("1"), lambda o: fw)
    r = reflector(flavour, lw)
    fw.error(api_error(500, "InternalError", "boom"))
    flavour.call(r.list_and_watch, flavour.event())  # returns: the error ends the watch, a relist is due
    assert fw.closed, "watch left open after an error"


def test_run_until(flavour: Flavour) -> None:
    fw = FakeWatch()
    store = Store()
    r = reflector(flavour, ListWatch(lambda o: pod_list("1"), lambda o: fw), store)
    thread = flavour.start(r.run)
    fw.add(pod("bar", "2"))
    deadline = time.monotonic() + 5
    while names(store) != ["bar"] and time.monotonic() < deadline:
        time.sleep(0.01)
    assert names(store) == ["bar"]
    flavour.do(r.stop)
    thread.join(5)
    assert not thread.is_alive(), "run did not return after stop"
    assert fw.closed, "watch left open after stopping"


def test_reflector_watch_stopped_before(flavour: Flavour) -> None:
    lw = ListWatch(lambda o: pytest.fail("list called"), lambda o: pytest.fail("watch called"))
    stop = flavour.event()
    stop.set()
    flavour.call(reflector(flavour, lw).list_and_watch, stop)
    assert lw.list_options == [] and lw.watch_options == []


def test_reflector_watch_stopped_after(flavour: Flavour) -> None:
    watches: list[FakeWatch] = []
    r = reflector(flavour, ListWatch(lambda o: pytest.fail("list called"), lambda o: watches.append(FakeWatch()) or watches[-1]))
    flavour.later(0.05, r.stop)
    flavour.call(r.watch)
    assert len(watches) == 1 and watches[0].closed


def test_reflector_handle_watch_result_chan_closed_before(flavour: Flavour) -> None:
    errors: list[BaseException] = []
    fw = FakeWatch()
    fw.end()
    r = reflector(flavour, ListWatch(lambda o: pod_list("1"), lambda o: fw), watch_error_handler=errors.append)
    flavour.call(r.list_and_watch, flavour.event())
    assert [type(e) for e in errors] == [VeryShortWatchError]
    assert fw.closed


def test_reflector_handle_watch_result_chan_closed_after(flavour: Flavour) -> None:
    errors: list[BaseException] = []
    fw = FakeWatch()
    flavour.later(0.01, fw.end)
    r = reflector(flavour, ListWatch(lambda o: pod_list("1"), lambda o: fw), watch_error_handler=errors.append)
    flavour.call(r.list_and_watch, flavour.event())
    assert [type(e) for e in errors] == [VeryShortWatchError]
    assert fw.closed


def test_reflector_watch_handler(flavour: Flavour) -> None:
    """An object of another type (a Service in a Pod watch) is dropped: neither stored nor a
    resourceVersion; the others reach the store, and the last event's version is the reflector's."""
    store = Store()
    store.add(pod("foo"))
    store.add(pod("bar"))
    stop = flavour.event()
    rejected = {"apiVersion": "v1", "kind": "Service", "metadata": {"name": "rejected", "resourceVersion": "99"}}
    fw = ScriptedWatch([added(rejected), deleted(pod("foo")), modified(pod("bar", "55")), added(pod("baz", "32")), STOP],
                       lambda: flavour.set_event(stop))
    r = scripted(flavour, ScriptedListWatch([fw]), store, expected_type=("v1", "Pod"))
    r.state.last_sync_resource_version = "1"
    flavour.call(r.watch, stop)
    assert content(store) == {"bar": "55", "baz": "32"}
    assert r.last_sync_resource_version == "32" and fw.closed


def test_a_watch_event_of_an_unknown_type_is_logged_and_stores_nothing(
    flavour: Flavour, caplog: pytest.LogCaptureFixture
) -> None:
    store = Store()
    stop = flavour.event()
    fw = ScriptedWatch([WatchEvent("SURPRISE", pod("a", "7")), added(pod("b", "8")), STOP], lambda: flavour.set_event(stop))
    r = scripted(flavour, ScriptedListWatch([fw]), store)
    r.state.last_sync_resource_version = "1"
    with caplog.at_level(logging.ERROR, "kgen.runtime.tools.cache.reflector"):
        flavour.call(r.watch, stop)
    assert content(store) == {"b": "8"} and r.last_sync_resource_version == "8"
    assert [r.getMessage() for r in caplog.records] == ["unknown watch event type 'SURPRISE'"]


def test_reflector_stop_watch(flavour: Flavour) -> None:
    stop = flavour.event()
    stop.set()
    lw = ListWatch(lambda o: pod_list("1"), lambda o: pytest.fail("watch called"))
    flavour.call(reflector(flavour, lw).watch, stop)


def test_reflector_list_and_watch(flavour: Flavour) -> None:
    """The first list asks for RV "0" in pages of 500; the watch starts at the list's RV with
    bookmarks; a watch that ends is resumed from the last event's RV, without a relist."""
    stop = flavour.event()
    on_stop = lambda: flavour.set_event(stop)  # noqa: E731
    lw = ScriptedListWatch(
        [ScriptedWatch([added(pod("foo", "2")), END]), ScriptedWatch([added(pod("bar", "3")), added(pod("baz", "4")), STOP], on_stop)],
        pod_list("1"),
    )
    store = Store()
    flavour.call(scripted(flavour, lw, store).list_and_watch, stop)
    assert [(kind, o.get("resource_version"), o.get("limit")) for kind, o in lw.requests] == [
        ("list", "0", 500), ("watch", "1", None), ("watch", "2", None)]
    assert all(o["allow_watch_bookmarks"] for kind, o in lw.requests if kind == "watch")
    assert content(store) == {"foo": "2", "bar": "3", "baz": "4"}


@pytest.mark.parametrize("watch_list", [True, False], ids=["UseWatchList enabled", "UseWatchList disabled"])
def test_reflector_list_and_watch_in_both_modes(flavour: Flavour, watch_list: bool) -> None:
    """client-go's TestReflectorListAndWatch: the same changes reach the store whether the initial
    state comes from a watch-list (no list request) or from a list."""
    stop = flavour.event()
    later = [modified(pod("foo", "2")), *(added(pod(n, rv)) for n, rv in (("bar", "3"), ("baz", "4"), ("qux", "5"), ("zoo", "6")))]
    if watch_list:
        initial = [added(pod("foo", "1")), bookmark("1", "true")]
        lw = ScriptedListWatch([ScriptedWatch([*initial, *later, STOP], lambda: flavour.set_event(stop))])
    else:
        lw = ScriptedListWatch([ScriptedWatch([*later, STOP], lambda: flavour.set_event(stop))],
                               pod_list("1", [pod("foo", "1")]))
    store = Store()
    flavour.call(scripted(flavour, lw, store, watch_list=watch_list).list_and_watch, stop)
    assert content(store) == {"foo": "2", "bar": "3", "baz": "4", "qux": "5", "zoo": "6"}
    options = [(kind, {k: v for k, v in o.items() if k not in ("timeout_seconds", "idle_timeout") and v is not None})
               for kind, o in lw.requests]
    if watch_list:
        assert options == [("watch", {"resource_version": "", "allow_watch_bookmarks": True, "send_initial_events": True,
                                      "resource_version_match": "NotOlderThan"})]
    else:
        assert options == [("list", {"resource_version": "0", "limit": 500}),
                           ("watch", {"resource_version": "1", "allow_watch_bookmarks": True})]


def test_reflector_list_and_watch_with_errors(flavour: Flavour) -> None:
    """client-go's TestReflectorListAndWatchWithErrors: six list-and-watch calls through ONE
    store; before each, the store holds exactly what that step's list says the server has."""
    foo2, bar3, qux5, baz6 = pod("foo", "2"), pod("bar", "3"), pod("qux", "5"), pod("baz", "6")
    list_error, watch_error = RuntimeError("a list error"), RuntimeError("a watch error")
    table: list[tuple[Any, list[Any], BaseException | None]] = [
        (pod_list("1"), [added(foo2), added(bar3)], None),
        (pod_list("3", [foo2, bar3]), [deleted(pod("foo", "4")), added(qux5)], None),
        (list_error, [], None),
        (pod_list("5", [bar3, qux5]), [], watch_error),
        (pod_list("5", [bar3, qux5]), [added(baz6)], None),
        (pod_list("6", [bar3, qux5, baz6]), [], None),
    ]
    store = Store()
    for line, (listed, events, failing_watch) in enumerate(table):
        if not isinstance(listed, BaseException):
            assert content(store) == {name_of(o): rv_of(o) for o in listed["items"]}, f"step {line}"
        stop = flavour.event()
        watches: list[Any] = [failing_watch] if failing_watch else [
            ScriptedWatch([*events, STOP], lambda: flavour.set_event(stop)), RuntimeError("second watch")]
        r = scripted(flavour, ScriptedListWatch(watches, listed), store)
        try:
            flavour.call(r.list_and_watch, stop)
            error = None
        except Exception as e:  # noqa: BLE001 - compared below
            error = e
        expected = listed if isinstance(listed, BaseException) else failing_watch
        assert error is expected, f"step {line}: {error!r}"


@pytest.mark.parametrize("failures", [5, 40], ids=["cap not reached", "cap reached"])
def test_reflector_list_and_watch_init_conn_backoff(flavour: Flavour, failures: int) -> None:
    """client-go's TestReflectorListAndWatchInitConnBackoff, on a fake clock: connection refused
    when the watch starts means back off and watch again, without relisting; the delays grow
    exponentially from 1 ms to the 50 ms cap, with jitter, and start over every 100 ms."""
    remaining = failures
    stop = flavour.event()

    def watch(options: dict[str, Any]) -> Any:
        nonlocal remaining
        if remaining:
            remaining -= 1
            return httpx.ConnectError("[Errno 111] Connection refused")
        flavour.set_event(stop)
        return FakeWatch()

    clock = FakeClock()
    lw = ListWatch(lambda o: pod_list("1"), watch)
    r, waits = on_fake_clock(flavour, lw, clock)
    r.backoff = ReflectorBackoff(Backoff(duration=0.001, factor=2.0, jitter=1.0, cap=0.05), reset_after=0.1,
                                 clock=clock, rng=random.Random(failures))
    flavour.call(r.list_and_watch, stop)
    assert len(lw.list_options) == 1 and len(lw.watch_options) == failures + 1 and len(waits) == failures
    assert_backoff_bounds(waits, 0.001, 0.05, 0.1)
    if failures == 5:  # 1, 2, 4, 8 and 16 ms, each up to twice as long
        assert 0.031 <= clock.now < 0.062


@pytest.mark.parametrize("custom", [True, False], ids=["custom backoff", "default backoff"])
def test_new_reflector_with_custom_backoff(flavour: Flavour, custom: bool) -> None:
    """client-go's TestNewReflectorWithCustomBackoff on a fake clock: 10 ms doubling to a 100 ms
    cap without jitter takes exactly 10+20+40+80+100 ms for five refusals; the default backoff
    takes 0.8 s then 1.6 s, each up to twice as long."""
    remaining = 5 if custom else 2
    stop = flavour.event()

    def watch(options: dict[str, Any]) -> Any:
        nonlocal remaining
        if remaining:
            remaining -= 1
            return httpx.ConnectError("[Errno 111] Connection refused")
        flavour.set_event(stop)
        return FakeWatch()

    clock = FakeClock()
    r, waits = on_fake_clock(flavour, ListWatch(lambda o: pod_list("1"), watch), clock)
    if custom:
        r.backoff = ReflectorBackoff(Backoff(duration=0.01, factor=2.0, cap=0.1), reset_after=120.0, clock=clock)
    else:
        r.backoff = reflector_backoff(clock=clock, rng=random.Random(3))
    flavour.call(r.list_and_watch, stop)
    if custom:
        assert waits == pytest.approx([0.01, 0.02, 0.04, 0.08, 0.1]) and clock.now == pytest.approx(0.25)
    else:
        assert_backoff_bounds(waits, 0.8, 30.0, 120.0)
        assert len(waits) == 2 and 2.4 <= clock.now < 4.8


def test_the_default_backoff_starts_over_every_two_minutes_of_failures(flavour: Flavour) -> None:
    """client-go's DelayWithReset: counted from when the delays last started over, not from the
    last delay (the delays here are never two minutes apart, and still start over)."""
    remaining = 12
    stop = flavour.event()

    def watch(options: dict[str, Any]) -> Any:
        nonlocal remaining
        if remaining:
            remaining -= 1
            return api_error(429, "TooManyRequests", "busy")
        flavour.set_event(stop)
        return FakeWatch()

    clock = FakeClock()
    r, waits = on_fake_clock(flavour, ListWatch(lambda o: pod_list("1"), watch), clock)
    r.backoff = reflector_backoff(clock=clock, rng=random.Random(5))
    flavour.call(r.list_and_watch, stop)
    assert_backoff_bounds(waits, 0.8, 30.0, 120.0)
    assert any(w < 1.6 for w in waits[1:]), "the delays never started over"


def test_backoff_on_too_many_requests(flavour: Flavour) -> None:
    r: Reflector

    def watch(options: dict[str, Any]) -> Any:
        if r.backoff.calls == 0:
            return api_error(429, "TooManyRequests", "too many requests")
        if r.backoff.calls == 1:
            fw = FakeWatch()
            fw.error(api_error(429, "TooManyRequests", "too many requests"))
            return fw
        fw = FakeWatch()
        fw.stop()
        return fw

    r = reflector(flavour, ListWatch(lambda o: pod_list("1"), watch))
    flavour.call(r.list_and_watch, flavour.event())  # the stopped third watch is very short: relist due
    assert r.backoff.calls == 2


def test_no_relist_on_too_many_requests(flavour: Flavour) -> None:
    stop = flavour.event()

    def watch(options: dict[str, Any]) -> Any:
        if len(lw.watch_options) < 5:
            return api_error(429, "TooManyRequests", "too many requests")
        stop.set()
        return FakeWatch()

    lw = ListWatch(lambda o: pod_list("1"), watch)
    r = reflector(flavour, lw)
    flavour.call(r.list_and_watch, stop)
    assert len(lw.list_options) == 1 and len(lw.watch_options) == 5 and r.backoff.calls == 4


def test_retry_internal_error_relists_after_a_backoff(flavour: Flavour) -> None:
    """client-go retries in-stream InternalErrors only within MaxInternalErrorRetryDuration,
    which defaults to 0: an internal error ends the list-and-watch."""
    errors: list[BaseException] = []

    def watch(options: dict[str, Any]) -> FakeWatch:
        fw = FakeWatch()
        fw.error(api_error(500, "InternalError", "etcdserver: no leader"))
        return fw

    lw = ListWatch(lambda o: pod_list("1"), watch)
    flavour.call(reflector(flavour, lw, watch_error_handler=errors.append).list_and_watch, flavour.event())
    assert len(lw.watch_options) == 1 and [type(e) for e in errors] == [InternalError]


def test_reflector_watch_list_page_size(flavour: Flavour) -> None:
    stop = flavour.event()
    items = pods(10)

    def list_(options: dict[str, Any]) -> Any:
        assert options["limit"] == 4
        return {
            "": pod_list("10", items[0:4], continue_="C1"),
            "C1": pod_list("10", items[4:8], continue_="C2"),
            "C2": pod_list("10", items[8:10]),
        }[options["continue_"]]

    store = Store()
    r = reflector(flavour, ListWatch(list_, stop_when_watching(stop)), store)
    r.state.last_sync_resource_version = "10"  # pagination also for a list that is not consistent
    r.state.page_size = 4
    flavour.call(r.list_and_watch, stop)
    assert len(store.list()) == 10


def test_reflector_not_paginating_not_consistent_reads(flavour: Flavour) -> None:
    stop = flavour.event()

    def list_(options: dict[str, Any]) -> Any:
        assert options["resource_version"] == "10" and options["limit"] == 0
        return pod_list("10", pods(10))

    store = Store()
    r = reflector(flavour, ListWatch(list_, stop_when_watching(stop)), store)
    r.state.last_sync_resource_version = "10"
    flavour.call(r.list_and_watch, stop)
    assert len(store.list()) == 10


def test_reflector_paginating_non_consistent_reads_if_watch_cache_disabled(flavour: Flavour) -> None:
    items = pods(10)

    def list_(options: dict[str, Any]) -> Any:
        assert options["limit"] == 500
        return {
            "": pod_list("10", items[0:4], continue_="C1"),
            "C1": pod_list("10", items[4:8], continue_="C2"),
            "C2": pod_list("10", items[8:10]),
        }[options["continue_"]]

    stop = flavour.event()
    store = Store()
    lw = ListWatch(list_, stop_when_watching(stop))
    r = reflector(flavour, lw, store)
    flavour.call(r.list_and_watch, stop)  # the RV="0" list came back in pages...
    assert len(store.list()) == 10
    flavour.do(stop.clear)
    flavour.call(r.list_and_watch, stop)  # ...so the RV="10" relist is paged too
    assert len(store.list()) == 10
    assert [o["resource_version"] for o in lw.list_options if not o["continue_"]] == ["0", "10"]


def test_reflector_resync_with_resource_version(flavour: Flavour) -> None:
    items = pods(8)

    def list_(options: dict[str, Any]) -> Any:
        return {"0": pod_list("10", items[0:4]), "10": pod_list("11", items[0:8])}[options["resource_version"]]

    stop = flavour.event()
    store = Store()
    lw = ListWatch(list_, stop_when_watching(stop))
    r = reflector(flavour, lw, store)
    flavour.call(r.list_and_watch, stop)
    assert len(store.list()) == 4
    flavour.do(stop.clear)
    flavour.call(r.list_and_watch, stop)  # the relist asks for what was last seen, never older data
    assert len(store.list()) == 8
    assert [o["resource_version"] for o in lw.list_options] == ["0", "10"]


def test_reflector_expired_exact_resource_version(flavour: Flavour) -> None:
    items = pods(8)

    def list_(options: dict[str, Any]) -> Any:
        return {
            "0": pod_list("10", items[0:4]),
            "10": expired(),  # the watch cache is off and RV 10 was compacted
            "": pod_list("11", items[0:8]),
        }[options["resource_version"]]

    stop = flavour.event()
    store = Store()
    lw = ListWatch(list_, stop_when_watching(stop))
    r = reflector(flavour, lw, store)
    flavour.call(r.list_and_watch, stop)
    assert len(store.list()) == 4
    flavour.do(stop.clear)
    flavour.call(r.list_and_watch, stop)  # RV 10 expired: retried at once with RV ""
    assert len(store.list()) == 8
    assert [o["resource_version"] for o in lw.list_options] == ["0", "10", ""]


def test_reflector_full_list_if_expired(flavour: Flavour) -> None:
    items = pods(8)

    def list_(options: dict[str, Any]) -> Any:
        return {
            ("0", "", 4): pod_list("10", items[0:4]),
            ("10", "", 4): pod_list("11", items[0:4], continue_="C1"),
            ("", "C1", 4): expired(),
            ("10", "", 0): pod_list("11", items[0:8]),
        }[(options["resource_version"], options["continue_"], options["limit"])]

    stop = flavour.event()
    store = Store()
    lw = ListWatch(list_, stop_when_watching(stop))
    r = reflector(flavour, lw, store)
    r.state.page_size = 4
    flavour.call(r.list_and_watch, stop)
    assert len(store.list()) == 4
    flavour.do(stop.clear)
    flavour.call(r.list_and_watch, stop)  # page 2 expired: one full list at RV 10
    assert len(store.list()) == 8
    assert [o["resource_version"] for o in lw.list_options] == ["0", "10", "", "10"]


def test_reflector_full_list_if_too_large(flavour: Flavour) -> None:
    version = 30

    def list_(options: dict[str, Any]) -> Any:
        nonlocal version
        rv = options["resource_version"]
        if rv == "0":
            return pod_list("20")
        if rv == "20":
            return api_error(504, "Timeout", "too large resource version", [{"reason": "ResourceVersionTooLarge"}])
        if rv == "30":  # api servers 1.17.0-1.18.5
            return api_error(504, "Timeout", "too large resource version", [{"message": "Too large resource version"}])
        if rv == "40":  # api servers before 1.17.0
            return api_error(504, "Timeout", "Too large resource version")
        assert rv == ""
        version += 10
        return pod_list(str(version - 10))

    lw = ListWatch(list_)
    r = reflector(flavour, lw)
    for _ in range(4):
        stop = flavour.event()
        lw.watch_func = stop_when_watching(stop)
        flavour.call(r.list_and_watch, stop)
    assert [o["resource_version"] for o in lw.list_options] == ["0", "20", "", "30", "", "40", ""]


@pytest.mark.parametrize(
    "min_watch_timeout, expected_min", [(0.0, 300), (1.0, 300), (1800.0, 1800)],
    ids=["no timeout", "small timeout not honored", "30m timeout"],
)
def test_watch_timeout(flavour: Flavour, min_watch_timeout: float, expected_min: int) -> None:
    stop = flavour.event()
    lw = ListWatch(lambda o: pod_list("10"), stop_when_watching(stop))
    flavour.call(reflector(flavour, lw, min_watch_timeout=min_watch_timeout).list_and_watch, stop)
    timeout = lw.watch_options[0]["timeout_seconds"]
    assert expected_min <= timeout <= 2 * expected_min
    assert lw.watch_options[0]["idle_timeout"] == timeout + 60  # a dead connection is noticed


class StoreWithRV(Store):
    def __init__(self) -> None:
        super().__init__()
        self.resource_versions: list[str] = []

    def update_resource_version(self, resource_version: str) -> None:
        self.resource_versions.append(resource_version)


def test_reflector_resource_version_update(flavour: Flavour) -> None:
    store = StoreWithRV()
    stop = flavour.event()
    fw = ScriptedWatch([added(pod("p", "10")), modified(pod("p", "20")), bookmark("30"), deleted(pod("p", "40")), STOP],
                       lambda: flavour.set_event(stop))
    flavour.call(scripted(flavour, ScriptedListWatch([fw], pod_list("10")), store).list_and_watch, stop)
    assert store.resource_versions == ["10", "20", "30", "40"]


def test_watch_410_as_http_status_relists_at_the_last_resource_version(flavour: Flavour) -> None:
    lw = ListWatch(lambda o: pod_list("5"), lambda o: expired())
    r = reflector(flavour, lw)
    with pytest.raises(Expired):
        flavour.call(r.list_and_watch, flavour.event())
    stop = flavour.event()
    lw.watch_func = stop_when_watching(stop)
    flavour.call(r.list_and_watch, stop)
    assert [o["resource_version"] for o in lw.list_options] == ["0", "5"]


def test_watch_410_error_event_relists_and_never_rewatches_the_expired_version(flavour: Flavour) -> None:
    errors: list[BaseException] = []
    fw = FakeWatch()
    fw.add(pod("a", "6"))
    fw.error(expired())
    lw = ListWatch(lambda o: pod_list("5"), lambda o: fw)
    r = reflector(flavour, lw, watch_error_handler=errors.append)
    flavour.call(r.list_and_watch, flavour.event())
    assert [type(e) for e in errors] == [Expired] and len(lw.watch_options) == 1
    assert r.state.list_resource_version() == "6"


def test_list_410_inside_a_200_is_retried_at_once_with_a_consistent_read(flavour: Flavour) -> None:
    stop = flavour.event()
    answers = iter([pod_list("5"), status(410, "Expired", "too old"), pod_list("9", [pod("a", "8")])])
    lw = ListWatch(lambda o: next(answers), stop_when_watching(stop))
    r = reflector(flavour, lw)
    flavour.call(r.list_and_watch, stop)
    flavour.do(stop.clear)
    flavour.call(r.list_and_watch, stop)
    assert [o["resource_version"] for o in lw.list_options] == ["0", "5", ""]
    assert r.last_sync_resource_version == "9"


def test_run_reports_list_errors_to_the_watch_error_handler_and_backs_off(flavour: Flavour) -> None:
    errors: list[BaseException] = []
    r = reflector(flavour, ListWatch(lambda o: api_error(403, "Forbidden", "Access Denied")), watch_error_handler=errors.append)
    thread = flavour.start(r.run)
    deadline = time.monotonic() + 5
    while len(errors) < 3 and time.monotonic() < deadline:
        time.sleep(0.01)
    flavour.do(r.stop)
    thread.join(5)
    assert len(errors) >= 3 and all(isinstance(e, Forbidden) for e in errors)
    assert r.backoff.calls >= 3


def test_stop_during_a_paginated_list_leaves_the_store_untouched(flavour: Flavour) -> None:
    store = Store()
    store.add(pod("old"))
    stop = flavour.event()

    def list_(options: dict[str, Any]) -> Any:
        stop.set()  # stopped while the first page is in flight
        return pod_list("10", [pod("a")], continue_="C1")

    flavour.call(reflector(flavour, ListWatch(list_), store).list_and_watch, stop)
    assert names(store) == ["old"]


def test_run_relists_after_an_expired_watch_and_closes_the_open_watch_on_stop(flavour: Flavour) -> None:
    fw = FakeWatch()
    fw.add(pod("a", "6"))
    fw.error(expired())
    answers = iter([pod_list("5"), pod_list("7", [pod("a", "6"), pod("b", "7")])])
    second = FakeWatch()
    watches = iter([fw, second])
    lw = ListWatch(lambda o: next(answers), lambda o: next(watches))
    store = Store()
    errors: list[BaseException] = []
    r = reflector(flavour, lw, store, watch_error_handler=errors.append)
    thread = flavour.start(r.run)
    deadline = time.monotonic() + 5
    while len(lw.watch_options) < 2 and time.monotonic() < deadline:
        time.sleep(0.01)
    flavour.do(r.stop)
    thread.join(5)
    assert not thread.is_alive(), "run did not return after stop"
    assert [o["resource_version"] for o in lw.list_options] == ["0", "6"]
    assert [o["resource_version"] for o in lw.watch_options] == ["5", "7"]
    assert names(store) == ["a", "b"] and [type(e) for e in errors] == [Expired]
    assert second.closed, "the watch open at stop() was not closed"


def test_list_retries_too_large_and_expired_versions_with_a_consistent_read(flavour: Flavour) -> None:
    def list_(options: dict[str, Any]) -> Any:
        return {
            "0": pod_list("20"),
            "20": api_error(504, "Timeout", "too large", [{"reason": "ResourceVersionTooLarge"}]),
            "": pod_list("30", pods(3)),
            "30": expired(),
        }[options["resource_version"]]

    lw = ListWatch(list_)
    store = Store()
    r = reflector(flavour, lw, store)
    for _ in range(3):
        flavour.call(r.list, flavour.event())
    assert [o["resource_version"] for o in lw.list_options] == ["0", "20", "", "30", ""]
    assert len(store.list()) == 3


# -- resync: only while watching (client-go's watchWithResync) --------------------------------


def test_reflector_resync(flavour: Flavour) -> None:
    """client-go's TestReflectorResync: with a resync period, the store is resynced while the
    reflector watches."""
    resyncs: list[str] = []

    class Resyncing(Store):
        def resync(self) -> None:
            resyncs.append("resync")
            r.stop()

    fw = FakeWatch()  # open until stopped
    r = reflector(flavour, ListWatch(lambda o: pod_list("1"), lambda o: fw), Resyncing(), resync_period=0.001)
    flavour.call(r.list_and_watch, timeout=20)  # returns once a resync stopped it
    assert resyncs and fw.closed


class Phases:
    """A lister-watcher that says what the reflector is doing when the store resyncs: its lists
    are slow (0.2 s, long enough for dozens of resync periods) and the first fails (then the
    reflector backs off 0.2 s); its watch ends after three resyncs, and the third list stops
    the reflector."""

    SLOW = 0.2

    def __init__(self, flavour: Flavour) -> None:
        self.flavour = flavour
        self.phase = "starting"
        self.lists = 0
        self.watch = FakeWatch()
        self.seen: list[str] = []
        self.reflector: Any = None

    def resynced(self) -> None:
        self.seen.append(self.phase)
        if len(self.seen) == 3:
            self.phase = "watch ending"  # the resync may tick once more before the watch returns
            self.watch.end()

    def before_list(self) -> bool:
        self.lists += 1
        if self.lists == 3:
            self.reflector.stop()
            return False
        self.phase = "listing"
        return True

    def after_list(self) -> Any:
        if self.lists == 1:
            self.phase = "backing off"
            raise api_error(500, "InternalError", "the first list fails")
        self.phase = "listed"
        return pod_list("1")

    def list(self, **options: Any) -> Any:
        if self.before_list():
            time.sleep(self.SLOW)
            return self.after_list()
        return pod_list("1")

    def open_watch(self, **options: Any) -> Any:
        self.phase = "watching"
        return self.watch


class AsyncPhases(Phases):
    async def list(self, **options: Any) -> Any:  # type: ignore[override]
        if self.before_list():
            await asyncio.sleep(self.SLOW)
            return self.after_list()
        return pod_list("1")

    async def open_watch(self, **options: Any) -> Any:  # type: ignore[override]
        self.phase = "watching"
        return AsyncFakeWatch(self.watch)


def test_resync_runs_only_while_watching_never_during_a_list_or_a_backoff(flavour: Flavour) -> None:
    source = flavour.pick(Phases, AsyncPhases)(flavour)

    class Recording(Store):
        def resync(self) -> None:
            source.resynced()

    r = flavour.pick(Reflector, AsyncReflector)(source, Recording(), resync_period=0.005, watch_list=False)
    r.backoff = ReflectorBackoff(Backoff(duration=Phases.SLOW), reset_after=120.0)
    source.reflector = r
    flavour.call(r.run, timeout=30)
    assert source.lists == 3, "the watch that resyncs ended, and the reflector listed again"
    assert len(source.seen) >= 3 and set(source.seen) <= {"watching", "watch ending"}, source.seen
