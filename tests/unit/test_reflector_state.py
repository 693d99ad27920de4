"""The reflector without I/O: ReflectorState, ListPager, the backoff and ReflectorCore's steps, with an
injected clock and random source (client-go's values and rules, reflector.go / tools/pager)."""

from __future__ import annotations

import random
from typing import Any

import httpx
import pytest

from kgen.runtime.rest.watch import ADDED, Bookmark, WatchEvent
from kgen.runtime.tools.pager import PAGE_SIZE, ListPager
from kgen.runtime.tools.cache.reflector import Consume, ListPage, OpenWatch, ReflectorCore, Stepper, Wait
from kgen.runtime.tools.cache.store import Store
from kgen.runtime.tools.cache.reflector_state import (
    BACKOFF, MIN_WATCH_TIMEOUT, RELIST, REWATCH, ReflectorState,
    VeryShortWatchError, is_connection_refused, is_too_large_resource_version, reflector_backoff,
)
from kgen.runtime.apimachinery.errors import Expired, Gone, TooManyRequests
from tests.support.fake_source import api_error, pod, pod_list, status


class FixedRandom(random.Random):
    def __init__(self, value: float) -> None:
        super().__init__()
        self.value = value

    def random(self) -> float:
        return self.value


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def expired() -> Expired:
    error = api_error(410, "Expired", "too old resource version")
    assert isinstance(error, Expired)
    return error


TOO_LARGE = [
    api_error(504, "Timeout", "too large resource version", [{"reason": "ResourceVersionTooLarge"}]),
    api_error(504, "Timeout", "too large resource version", [{"message": "Too large resource version"}]),
    api_error(504, "Timeout", "Too large resource version"),
]


def test_list_resource_version_is_0_then_the_last_seen_then_empty_after_410() -> None:
    state = ReflectorState()
    assert state.list_resource_version() == "0"  # first list: from the watch cache
    state.listed("0", _listed("10"))
    assert state.list_resource_version() == "10"
    state.last_sync_resource_version = "15"  # watch events move it
    assert state.list_resource_version() == "15"
    assert state.list_failed(expired()) is True
    assert state.list_resource_version() == ""  # a consistent read
    state.listed("", _listed("20"))
    assert state.list_resource_version() == "20"


@pytest.mark.parametrize("error", TOO_LARGE, ids=["cause", "1.17-cause-message", "pre-1.17-message"])
def test_too_large_resource_version_makes_the_next_list_consistent(error: Exception) -> None:
    assert is_too_large_resource_version(error)
    state = ReflectorState(last_sync_resource_version="20")
    assert state.list_failed(error) is True
    assert state.list_resource_version() == ""


@pytest.mark.parametrize(
    "error", [api_error(500, "InternalError"), api_error(403, "Forbidden"), api_error(504, "Timeout", "slow"),
              httpx.ConnectError("boom")],
)
def test_other_list_errors_keep_the_resource_version(error: Exception) -> None:
    assert not is_too_large_resource_version(error)
    state = ReflectorState(last_sync_resource_version="20")
    assert state.list_failed(error) is False
    assert state.list_resource_version() == "20"


def _listed(rv: str, paginated: bool = False) -> ListPager:
    pager = ListPager("x", 0)
    pager.list_resource_version, pager.paginated = rv, paginated
    return pager


def test_page_limit_follows_client_go_rules() -> None:
    state = ReflectorState()
    assert state.page_limit("0") == PAGE_SIZE == 500
    assert state.page_limit("") == 500
    assert state.page_limit("42") == 0  # unpaged, so the watch cache can serve it
    state.listed("42", _listed("43", paginated=True))  # paginated, but not the RV="0" list
    assert state.page_limit("43") == 0
    state.listed("0", _listed("44", paginated=True))  # RV="0" came back in pages: no watch cache
    assert state.page_limit("44") == 500
    state.page_size = 4  # WatchListPageSize
    assert state.page_limit("44") == state.page_limit("0") == 4


def test_watch_options_have_bookmarks_and_a_timeout_in_300_to_600_seconds() -> None:
    low = ReflectorState(last_sync_resource_version="7", rng=FixedRandom(0.0)).watch_options()
    high = ReflectorState(last_sync_resource_version="7", rng=FixedRandom(0.999999)).watch_options()
    assert low == {"resource_version": "7", "allow_watch_bookmarks": True, "timeout_seconds": 300}
    assert high["timeout_seconds"] == 599
    rng = random.Random(3)
    timeouts = {ReflectorState(rng=rng).watch_options()["timeout_seconds"] for _ in range(2000)}
    assert min(timeouts) >= MIN_WATCH_TIMEOUT and max(timeouts) < 2 * MIN_WATCH_TIMEOUT
    assert len(timeouts) > 200  # spread, so that clients do not reconnect in lockstep


def test_watch_that_ended_is_resumed_unless_it_was_very_short() -> None:
    assert ReflectorState.watch_ended(None, 30.0, 0) == (REWATCH, None)
    assert ReflectorState.watch_ended(None, 0.2, 3) == (REWATCH, None)
    decision, error = ReflectorState.watch_ended(None, 0.2, 0)
    assert decision == RELIST and isinstance(error, VeryShortWatchError)
    # A dropped connection or a read timeout ends a watch the same way.
    assert ReflectorState.watch_ended(httpx.RemoteProtocolError("incomplete chunked read"), 30.0, 5) == (REWATCH, None)
    assert ReflectorState.watch_ended(httpx.ReadTimeout("idle"), 400.0, 0) == (REWATCH, None)


def test_watch_410_relists_at_the_last_resource_version() -> None:
    state = ReflectorState(last_sync_resource_version="30")
    error = expired()
    assert state.watch_ended(error, 10.0, 4) == (RELIST, error)
    # client-go: a list at RV returns data at least that fresh, so no need for a quorum read.
    assert state.list_resource_version() == "30"
    gone = api_error(410, "Gone")
    assert isinstance(gone, Gone) and state.watch_ended(gone, 10.0, 0) == (RELIST, gone)


def test_watch_429_backs_off_and_other_errors_relist() -> None:
    too_many = api_error(429, "TooManyRequests")
    assert isinstance(too_many, TooManyRequests)
    assert ReflectorState.watch_ended(too_many, 10.0, 0) == (BACKOFF, too_many)
    for error in (api_error(500, "InternalError"), api_error(403, "Forbidden"), ValueError("undecodable")):
        assert ReflectorState.watch_ended(error, 10.0, 1) == (RELIST, error)


def test_watch_start_backs_off_on_429_and_connection_refused_only() -> None:
    refused = httpx.ConnectError("[Errno 111] Connection refused")
    wrapped = httpx.ConnectError("connect failed")
    wrapped.__cause__ = ConnectionRefusedError(111, "Connection refused")
    assert is_connection_refused(refused) and is_connection_refused(wrapped)
    assert ReflectorState.watch_start_retriable(api_error(429, "TooManyRequests"))
    assert ReflectorState.watch_start_retriable(refused)
    for error in (expired(), api_error(500, "InternalError"), httpx.ConnectError("certificate verify failed")):
        assert not ReflectorState.watch_start_retriable(error)


def test_apply_moves_the_resource_version_with_every_event_and_bookmark() -> None:
    from kgen.runtime.tools.cache.store import Store
    from kgen.runtime.rest.watch import WatchEvent

    store, state = Store(), ReflectorState(last_sync_resource_version="1")
    state.apply(WatchEvent("ADDED", pod("a", "2")), store)
    state.apply(WatchEvent("MODIFIED", pod("a", "3")), store)
    state.apply(Bookmark("5"), store)
    assert state.last_sync_resource_version == "5" and store.list_keys() == ["a"]
    state.apply(WatchEvent("DELETED", pod("a", "6")), store)
    assert state.last_sync_resource_version == "6" and store.list_keys() == []


def test_list_pager_drops_the_resource_version_on_continue_pages() -> None:
    pager = ListPager("10", 2)
    assert pager.first() == {"resource_version": "10", "limit": 2, "continue_": None}
    assert pager.received(pod_list("11", [pod("a"), pod("b")], continue_="C1")) == {
        "resource_version": None, "limit": 2, "continue_": "C1"}
    assert pager.received(pod_list("11", [pod("c")])) is None
    assert [p["metadata"]["name"] for p in pager.items] == ["a", "b", "c"]
    assert pager.list_resource_version == "11" and pager.paginated


def test_list_pager_lists_in_full_at_the_requested_version_when_a_continue_token_expires() -> None:
    pager = ListPager("10", 2)
    pager.received(pod_list("11", [pod("a"), pod("b")], continue_="C1"))
    assert pager.failed(expired()) == {"resource_version": "10", "limit": None, "continue_": None}
    assert pager.received(pod_list("12", [pod("a"), pod("b"), pod("c")], continue_="ignored")) is None
    assert len(pager.items) == 3 and pager.list_resource_version == "12"
    with pytest.raises(Expired):
        pager.failed(expired())  # the full list expiring too is the caller's problem


def test_list_pager_raises_an_expired_first_page_and_other_errors() -> None:
    with pytest.raises(Expired):
        ListPager("10", 2).failed(expired())
    pager = ListPager("10", 2)
    pager.received(pod_list("11", [pod("a")], continue_="C1"))
    with pytest.raises(TooManyRequests):
        pager.failed(api_error(429, "TooManyRequests"))


def test_list_pager_raises_a_status_sent_with_200_in_place_of_the_list() -> None:
    with pytest.raises(Expired):
        ListPager("10", 0).received(status(410, "Expired", "too old resource version"))


def test_backoff_doubles_from_800ms_to_a_30s_cap() -> None:
    clock = Clock()
    backoff = reflector_backoff(clock=clock, rng=FixedRandom(0.0))
    delays = []
    for _ in range(9):
        delays.append(backoff.next_delay())
        clock.now += 1
    assert delays == pytest.approx([0.8, 1.6, 3.2, 6.4, 12.8, 25.6, 30.0, 30.0, 30.0])


def test_backoff_jitter_adds_up_to_the_delay_itself() -> None:
    clock = Clock()
    low = reflector_backoff(clock=clock, rng=FixedRandom(0.0))
    high = reflector_backoff(clock=clock, rng=FixedRandom(0.999))
    assert low.next_delay() == pytest.approx(0.8)
    assert high.next_delay() == pytest.approx(0.8 * 1.999)
    spread = reflector_backoff(clock=clock, rng=random.Random(1))
    for _ in range(20):
        spread.reset()
        assert 0.8 <= spread.next_delay() < 1.6


def test_backoff_resets_after_2_minutes_without_a_backoff() -> None:
    clock = Clock()
    backoff = reflector_backoff(clock=clock, rng=FixedRandom(0.0))
    for _ in range(4):
        backoff.next_delay()
    clock.now += 120.0  # not more than 2 minutes: keeps growing
    assert backoff.next_delay() == pytest.approx(12.8)
    clock.now += 120.1
    assert backoff.next_delay() == pytest.approx(0.8)


# -- ReflectorCore: the reflector's loops as steps, driven by hand (no I/O, no flavour) ---------


def core(store: Store | None = None, **kwargs: Any) -> ReflectorCore:
    c = ReflectorCore(None, store if store is not None else Store(), name="pods", **{"watch_list": False, **kwargs})
    c.backoff = reflector_backoff(clock=Clock(), rng=FixedRandom(0.0))
    return c


def test_core_lists_then_watches_from_the_list_and_returns_for_a_relist_after_410() -> None:
    store = Store()
    c = core(store)
    steps = Stepper(c.list_and_watch_steps())
    first = steps.next()
    assert isinstance(first, ListPage) and (first.options["resource_version"], first.options["limit"]) == ("0", 500)
    steps.done(pod_list("5", [pod("a", "5")]))
    opened = steps.next()
    assert isinstance(opened, OpenWatch) and opened.options["resource_version"] == "5"
    assert opened.options["allow_watch_bookmarks"] is True
    steps.done("the stream")
    consume = steps.next()
    assert consume == Consume("the stream")
    c.apply(WatchEvent(ADDED, pod("b", "6")))
    steps.done((1, expired()))
    assert steps.next() is None  # a relist is due: list_and_watch returns
    assert sorted(o["metadata"]["name"] for o in store.list()) == ["a", "b"]
    assert c.last_sync_resource_version == "6" and c.state.list_resource_version() == "6"


def test_core_backs_off_and_watches_again_when_the_watch_start_is_refused() -> None:
    c = core()
    steps = Stepper(c.watch_steps())
    assert isinstance(steps.next(), OpenWatch)
    steps.failed(httpx.ConnectError("[Errno 111] Connection refused"))
    wait = steps.next()
    assert wait == Wait(0.8)
    steps.done(None)
    assert isinstance(steps.next(), OpenWatch)  # no relist in between


def test_core_run_reports_a_failed_list_and_backs_off_before_listing_again() -> None:
    errors: list[BaseException] = []
    c = core(watch_error_handler=errors.append)
    steps = Stepper(c.run_steps())
    assert isinstance(steps.next(), ListPage)
    forbidden = api_error(403, "Forbidden", "Access Denied")
    steps.failed(forbidden)
    assert steps.next() == Wait(0.8) and errors == [forbidden]
    steps.done(None)
    assert isinstance(steps.next(), ListPage)


def test_core_abandoned_between_pages_never_replaces_the_store() -> None:
    store = Store()
    store.add(pod("old"))
    steps = Stepper(core(store).list_steps())
    assert isinstance(steps.next(), ListPage)
    steps.done(pod_list("10", [pod("a")], continue_="C1"))
    second = steps.next()
    assert isinstance(second, ListPage) and second.options["continue_"] == "C1"
    steps.close()  # the driver was stopped
    assert [o["metadata"]["name"] for o in store.list()] == ["old"]


def test_core_resync_steps_wait_the_period_and_resync_only_when_asked() -> None:
    resyncs: list[str] = []

    class Recording(Store):
        def resync(self) -> None:
            resyncs.append("resync")

    answers = iter([False, True])
    c = core(Recording(), resync_period=30.0, should_resync=lambda: next(answers))
    steps = Stepper(c.resync_steps())
    assert steps.next() == Wait(30.0)
    assert steps.next() == Wait(30.0) and resyncs == []
    assert steps.next() == Wait(30.0) and resyncs == ["resync"]
