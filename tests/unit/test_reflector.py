"""Reflector: ports of client-go's tools/cache/reflector_test.go against an in-memory
lister-watcher (client-go's ListWatch + watch.NewFake()). Every test runs on both flavours, the
thread ``Reflector`` and the asyncio ``AsyncReflector`` (the ``flavour`` fixture)."""

from __future__ import annotations

import time
from typing import Any

import pytest

from kgen.runtime.tools.cache.reflector import AsyncReflector, Reflector, VeryShortWatchError
from kgen.runtime.util.wait import Backoff, ExponentialBackoffManager
from kgen.runtime.tools.cache.store import Store
from kgen.runtime.apimachinery.errors import ApiError, Expired, Forbidden, InternalError
from tests.support.flavours import Flavour
from tests.support.fake_source import (
    AsyncListWatch, FakeWatch, ListWatch, api_error, name_of, pod, pod_list, rv_of, status,
)


class CountingBackoff(ExponentialBackoffManager):
    """client-go's fakeBackoff: no waiting, only counting."""

    def __init__(self) -> None:
        super().__init__(Backoff(duration=0.0), reset_after=0.0)
        self.calls = 0

    def next_delay(self) -> float:
        self.calls += 1
        return 0.0


def reflector(flavour: Flavour, lw: ListWatch, store: Any = None, **kwargs: Any) -> Any:
    """A Reflector, or an AsyncReflector over the same lister-watcher, that never waits to back off."""
    client = AsyncListWatch(lw) if flavour.is_async else lw
    r = flavour.pick(Reflector, AsyncReflector)(client, store if store is not None else Store(), **kwargs)
    r.backoff = CountingBackoff()
    return r


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
    store = Store()
    store.add(pod("foo"))
    store.add(pod("bar"))
    fw = FakeWatch()
    fw.delete(pod("foo"))
    fw.modify(pod("bar", "55"))
    fw.add(pod("baz", "32"))
    stop = flavour.event()
    r = reflector(flavour, ListWatch(lambda o: pytest.fail("list called"), lambda o: fw), store)
    r.state.last_sync_resource_version = "1"
    original_apply = r.state.apply

    def apply(event: Any, s: Any) -> None:
        original_apply(event, s)
        if rv_of(event.object) == "32":
            stop.set()

    r.state.apply = apply  # type: ignore[method-assign]
    flavour.call(r.watch, stop)
    assert {name_of(o): rv_of(o) for o in store.list()} == {"bar": "55", "baz": "32"}
    assert r.last_sync_resource_version == "32"


def test_reflector_stop_watch(flavour: Flavour) -> None:
    stop = flavour.event()
    stop.set()
    lw = ListWatch(lambda o: pod_list("1"), lambda o: pytest.fail("watch called"))
    flavour.call(reflector(flavour, lw).watch, stop)


def test_reflector_list_and_watch(flavour: Flavour) -> None:
    """The first list asks for RV "0" in pages of 500; the watch starts at the list's RV with
    bookmarks; a watch that ends is resumed from the last event's RV, without a relist."""
    store = Store()
    watches = [FakeWatch(), FakeWatch()]
    watches[0].add(pod("foo", "2"))
    watches[0].end()
    stop = flavour.event()

    def watch(options: dict[str, Any]) -> FakeWatch:
        if len(lw.watch_options) == 2:
            watches[1].add(pod("bar", "3"))
            watches[1].add(pod("baz", "4"))
            flavour.later(0.05, stop.set)
            flavour.later(0.1, watches[1].end)
        return watches[len(lw.watch_options) - 1]

    lw = ListWatch(lambda o: pod_list("1"), watch)
    flavour.call(reflector(flavour, lw, store).list_and_watch, stop)
    assert [(o["resource_version"], o["limit"]) for o in lw.list_options] == [("0", 500)]
    assert [o["resource_version"] for o in lw.watch_options] == ["1", "2"]
    assert all(o["allow_watch_bookmarks"] for o in lw.watch_options)
    assert names(store) == ["bar", "baz", "foo"]


@pytest.mark.parametrize(
    "list_error, watch_error",
    [
        (api_error(500, "InternalError", "a list error"), None),
        (None, api_error(403, "Forbidden", "a watch error")),
        (None, None),
    ],
)
def test_reflector_list_and_watch_with_errors(flavour: Flavour, list_error: ApiError | None, watch_error: ApiError | None) -> None:
    stop = flavour.event()

    def watch(options: dict[str, Any]) -> Any:
        if watch_error is not None:
            return watch_error
        stop.set()
        return FakeWatch()

    lw = ListWatch(lambda o: list_error or pod_list("1", [pod("a", "1")]), watch)
    r = reflector(flavour, lw)
    if list_error is not None or watch_error is not None:
        with pytest.raises(ApiError) as raised:
            flavour.call(r.list_and_watch, stop)
        assert raised.value is (list_error or watch_error)
    else:
        flavour.call(r.list_and_watch, stop)


def test_reflector_list_and_watch_init_conn_backoff(flavour: Flavour) -> None:
    """Connection refused when the watch starts: back off and watch again, without relisting."""
    import httpx

    failures = 5

    def watch(options: dict[str, Any]) -> Any:
        nonlocal failures
        if failures:
            failures -= 1
            return httpx.ConnectError("[Errno 111] Connection refused")
        stop.set()
        return FakeWatch()

    stop = flavour.event()
    lw = ListWatch(lambda o: pod_list("1"), watch)
    r = reflector(flavour, lw)
    flavour.call(r.list_and_watch, stop)
    assert r.backoff.calls == 5 and len(lw.list_options) == 1 and len(lw.watch_options) == 6


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
    fw = FakeWatch()
    stop = flavour.event()
    fw.add(pod("p", "10"))
    fw.modify(pod("p", "20"))
    fw.bookmark({"metadata": {"resourceVersion": "30"}})
    fw.delete(pod("p", "40"))
    flavour.later(0.05, stop.set)
    flavour.later(0.1, fw.end)
    flavour.call(reflector(flavour, ListWatch(lambda o: pod_list("10"), lambda o: fw), store).list_and_watch, stop)
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
