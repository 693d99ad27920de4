"""kgen.runtime.tools.watch: the RetryWatcher's rules (resume after a server timeout, a dropped
connection and a bookmark from the last resourceVersion; a 410 bridged by a relist whose
differences come as events; errors no retry cures raised) with a scripted lister-watcher, and
until / until_with_sync (conditions, preconditions, WaitTimeout's message) on the fake clientset.
Every test runs on both flavours."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from kgen.kubernetes.fake import AsyncFakeClientset, FakeClientset
from kgen.kubernetes.models.core.v1 import ConfigMap
from kgen.kubernetes.models.meta.v1 import ObjectMeta
from kgen.runtime.apimachinery.errors import Expired, Forbidden, InternalError
from kgen.runtime.rest.watch import Bookmark, WatchEvent
from kgen.runtime.tools.watch import (
    AsyncRetryWatcher,
    RetryWatcher,
    RetryWatcherCore,
    WaitTimeout,
    async_until,
    async_until_with_sync,
    until,
    until_with_sync,
)
from tests.support.flavours import Flavour


def obj(name: str, rv: str, uid: str = "", value: str = "") -> dict[str, Any]:
    return {"apiVersion": "v1", "kind": "ConfigMap", "data": {"v": value},
            "metadata": {"name": name, "namespace": "ns", "resourceVersion": rv, "uid": uid or f"uid-{name}"}}


def listed(rv: str, *items: dict[str, Any]) -> dict[str, Any]:
    return {"kind": "ConfigMapList", "metadata": {"resourceVersion": rv}, "items": list(items)}


def status(code: int, reason: str) -> dict[str, Any]:
    return {"kind": "Status", "code": code, "reason": reason, "message": reason}


class _Stream:
    """A scripted watch: its events, then an end (or the exception in the script)."""

    def __init__(self, script: list[Any]) -> None:
        self.script = script
        self.closed = False
        self._events: Iterator[Any] | None = None

    def _read(self) -> Iterator[Any]:
        for item in self.script:
            if isinstance(item, BaseException):
                raise item
            yield item

    def __iter__(self) -> Iterator[Any]:
        if self._events is None:
            self._events = self._read()
        return self._events

    def __aiter__(self) -> Any:
        events = iter(self)

        async def read() -> Any:
            for item in events:
                yield item
        if not hasattr(self, "_async"):
            self._async = read()
        return self._async

    def stop(self) -> None:
        pass

    def close(self) -> None:
        self.closed = True

    async def aclose(self) -> None:
        self.closed = True


class Scripted:
    """A lister-watcher answering from scripts: each list and each watch takes the next answer
    (an exception is raised); it records the options it was called with."""

    def __init__(self, lists: list[Any], watches: list[Any]) -> None:
        self.lists, self.watches = lists, watches
        self.list_calls: list[dict[str, Any]] = []
        self.watch_calls: list[dict[str, Any]] = []
        self.streams: list[_Stream] = []

    def list(self, **options: Any) -> Any:
        self.list_calls.append(options)
        answer = self.lists.pop(0)
        if isinstance(answer, BaseException):
            raise answer
        return answer

    def open_watch(self, **options: Any) -> Any:
        self.watch_calls.append(options)
        answer = self.watches.pop(0)
        if isinstance(answer, BaseException):
            raise answer
        self.streams.append(_Stream(answer))
        return self.streams[-1]


class AsyncScripted(Scripted):
    async def list(self, **options: Any) -> Any:
        return Scripted.list(self, **options)

    async def open_watch(self, **options: Any) -> Any:
        return Scripted.open_watch(self, **options)


@pytest.fixture(autouse=True)
def no_backoff(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """Backoffs recorded, not slept."""
    delays: list[float] = []

    def record(self: Any) -> float:
        delays.append(1.0)
        return 0.0
    monkeypatch.setattr("kgen.runtime.tools.cache.reflector_state.ReflectorBackoff.next_delay", record)
    return delays


def take(flavour: Flavour, client: Scripted, count: int, **kwargs: Any) -> tuple[list[WatchEvent[Any]], Any]:
    """The first ``count`` events of a watcher of this flavour over ``client``."""
    if flavour.is_async:
        watcher: Any = AsyncRetryWatcher(client, **kwargs)

        async def collect() -> list[WatchEvent[Any]]:
            got: list[WatchEvent[Any]] = []
            async for event in watcher:
                got.append(event)
                if len(got) == count:
                    break
            return got
        return flavour.call(collect), watcher
    watcher = RetryWatcher(client, **kwargs)
    got: list[WatchEvent[Any]] = []
    for event in watcher:
        got.append(event)
        if len(got) == count:
            break
    return got, watcher


def scripted(flavour: Flavour, lists: list[Any], watches: list[Any]) -> Scripted:
    client: Scripted = flavour.pick(Scripted, AsyncScripted)(lists, watches)
    return client


def summary(events: list[WatchEvent[Any]]) -> list[tuple[str, str, str]]:
    return [(e.type, e.object["metadata"]["name"], e.object["metadata"]["resourceVersion"]) for e in events]


def test_lists_first_then_watches_from_the_lists_resource_version(flavour: Flavour) -> None:
    client = scripted(flavour, [listed("10", obj("a", "9"))], [[WatchEvent("MODIFIED", obj("a", "11"))]])
    events, watcher = take(flavour, client, 1, label_selector="app=x")
    assert summary(events) == [("MODIFIED", "a", "11")]
    assert client.list_calls == [{"label_selector": "app=x"}]
    assert client.watch_calls[0]["resource_version"] == "10"
    assert client.watch_calls[0]["allow_watch_bookmarks"] is True
    assert client.watch_calls[0]["label_selector"] == "app=x"
    assert 300 <= client.watch_calls[0]["timeout_seconds"] < 600
    assert watcher.resource_version == "11"


def test_resumes_from_the_last_event_and_bookmark_after_a_timeout_and_a_dropped_connection(
    flavour: Flavour, no_backoff: list[float]
) -> None:
    client = scripted(flavour, [], [
        [WatchEvent("ADDED", obj("a", "21")), Bookmark("25")],                    # the server's timeout
        [WatchEvent("MODIFIED", obj("a", "26")), httpx.ReadError("connection reset")],  # dropped
        [Bookmark("30"), InternalError(status(500, "InternalError"), 500)],       # an in-stream 500
        [WatchEvent("DELETED", obj("a", "31"))],
    ])
    events, watcher = take(flavour, client, 3, resource_version="20")
    assert summary(events) == [("ADDED", "a", "21"), ("MODIFIED", "a", "26"), ("DELETED", "a", "31")]
    assert [c["resource_version"] for c in client.watch_calls] == ["20", "25", "26", "30"]
    assert client.list_calls == []  # no relist for any of these
    assert len(no_backoff) == 2  # after the dropped connection and the 500, not after the timeout
    assert all(s.closed for s in client.streams[:3])
    assert watcher.objects == {}


def test_a_410_relists_and_hands_on_what_changed_against_the_state_known(flavour: Flavour) -> None:
    known = [obj("same", "5"), obj("changed", "6"), obj("gone", "7"), obj("replaced", "8", uid="old")]
    client = scripted(flavour, [listed("50", obj("same", "5"), obj("changed", "40"), obj("replaced", "41", uid="new"),
                                      obj("new", "42"))],
                      [[WatchEvent("MODIFIED", obj("same", "5")), Expired(status(410, "Expired"), 410)],
                       [WatchEvent("ADDED", obj("later", "51"))]])
    events, watcher = take(flavour, client, 7, resource_version="9", known=known)
    assert sorted(summary(events[1:6])) == sorted([
        ("MODIFIED", "changed", "40"), ("DELETED", "gone", "7"), ("DELETED", "replaced", "8"),
        ("ADDED", "replaced", "41"), ("ADDED", "new", "42"),
    ])
    deleted_then_added = [e.type for e in events[1:6] if e.object["metadata"]["name"] == "replaced"]
    assert deleted_then_added == ["DELETED", "ADDED"]
    assert summary(events[6:]) == [("ADDED", "later", "51")]
    assert client.list_calls == [{}]
    assert [c["resource_version"] for c in client.watch_calls] == ["9", "50"]
    assert watcher.relists == 1
    assert sorted(watcher.objects) == ["ns/changed", "ns/later", "ns/new", "ns/replaced", "ns/same"]


def test_a_410_when_the_watch_opens_relists_too(flavour: Flavour) -> None:
    client = scripted(flavour, [listed("70", obj("a", "69"))],
                      [Expired(status(410, "Expired"), 410), [WatchEvent("DELETED", obj("a", "71"))]])
    events, _ = take(flavour, client, 2, resource_version="3")
    assert summary(events) == [("ADDED", "a", "69"), ("DELETED", "a", "71")]


def test_errors_no_retry_cures_are_raised_and_retriable_ones_are_not(flavour: Flavour, no_backoff: list[float]) -> None:
    client = scripted(flavour, [], [InternalError(status(503, "ServiceUnavailable"), 503), httpx.ConnectError("refused"),
                                    Forbidden(status(403, "Forbidden"), 403)])
    with pytest.raises(Forbidden):
        take(flavour, client, 1, resource_version="1")
    assert len(client.watch_calls) == 3 and len(no_backoff) == 2


def test_a_watch_ending_at_once_without_events_backs_off(flavour: Flavour, no_backoff: list[float]) -> None:
    client = scripted(flavour, [], [[], [], [WatchEvent("ADDED", obj("a", "2"))]])
    events, _ = take(flavour, client, 1, resource_version="1")
    assert summary(events) == [("ADDED", "a", "2")] and len(no_backoff) == 2


def test_core_treats_resource_version_0_as_list_first() -> None:
    core: RetryWatcherCore[Any] = RetryWatcherCore("0")
    steps = core.steps()
    assert type(next(steps)).__name__ == "ListAll"


# -- until and until_with_sync on the fake clientset ----------------------------------------------

def cm(name: str, value: str = "") -> ConfigMap:
    return ConfigMap(metadata=ObjectMeta(name=name, namespace="ns"), data={"v": value})


def clients(flavour: Flavour, *objects: ConfigMap) -> tuple[FakeClientset, Any]:
    cs = FakeClientset(*objects)
    if flavour.is_async:
        return cs, AsyncFakeClientset(tracker=cs.tracker).core_v1.config_maps("ns")
    return cs, cs.core_v1.config_maps("ns")


def run_until_with_sync(flavour: Flavour, client: Any, *args: Any, **kwargs: Any) -> Any:
    fn = flavour.pick(until_with_sync, async_until_with_sync)
    return flavour.call(lambda: fn(client, *args, **kwargs), timeout=20)


def has_value(value: str) -> Any:
    return lambda e: e.type != "DELETED" and (e.object.data or {}).get("v") == value


def test_until_with_sync_sees_the_listed_object_as_added(flavour: Flavour) -> None:
    _, client = clients(flavour, cm("a", "ready"))
    event = run_until_with_sync(flavour, client, has_value("ready"), name="a", timeout=5)
    assert event.type == "ADDED" and event.object.metadata.name == "a"


def test_until_with_sync_waits_for_a_change_made_later_to_that_object_only(flavour: Flavour) -> None:
    cs, client = clients(flavour, cm("a"), cm("b"))
    flavour.later(0.2, lambda: cs.core_v1.config_maps("ns").update(cm("b", "ready")))
    flavour.later(0.4, lambda: cs.core_v1.config_maps("ns").update(cm("a", "ready")))
    event = run_until_with_sync(flavour, client, has_value("ready"), name="a", timeout=10)
    assert event.type == "MODIFIED" and event.object.metadata.name == "a"


def test_until_with_sync_precondition_answers_from_the_list(flavour: Flavour) -> None:
    _, client = clients(flavour, cm("b"))
    assert run_until_with_sync(flavour, client, lambda e: False, precondition=lambda store: "ns/a" not in store,
                               name="a", timeout=5) is None


def test_until_times_out_naming_what_it_waited_for_and_the_last_state(flavour: Flavour) -> None:
    cs, client = clients(flavour, cm("a", "not yet"))
    with pytest.raises(WaitTimeout) as caught:
        run_until_with_sync(flavour, client, has_value("ready"), name="a", timeout=0.5, waiting_for="a to be ready")
    message = str(caught.value)
    assert isinstance(caught.value, TimeoutError)
    assert message.startswith("timed out after 0.5s waiting for a to be ready; last seen: ConfigMap ns/a (resourceVersion ")
    assert caught.value.last is not None and caught.value.last.object.metadata.name == "a"


def test_until_from_a_resource_version_sees_only_later_events(flavour: Flavour) -> None:
    cs, client = clients(flavour, cm("a", "ready"))
    start = cs.tracker.resource_version
    flavour.later(0.2, lambda: cs.core_v1.config_maps("ns").create(cm("c", "ready")))
    fn = flavour.pick(until, async_until)
    event = flavour.call(lambda: fn(client, start, has_value("ready"), timeout=10), timeout=20)
    assert event.type == "ADDED" and event.object.metadata.name == "c"


def test_until_across_a_compaction_loses_no_change(flavour: Flavour) -> None:
    cs, client = clients(flavour, cm("a"), cm("b"))
    start = cs.tracker.resource_version
    known = cs.core_v1.config_maps("ns").list().items
    cms = cs.core_v1.config_maps("ns")
    cms.update(cm("a", "1"))
    cms.delete("b")
    cms.create(cm("c"))
    cs.tracker.compact()
    seen: list[tuple[str, str]] = []

    def condition(event: WatchEvent[Any]) -> bool:
        seen.append((event.type, event.object.metadata.name))
        return len(seen) == 3
    watcher = flavour.pick(RetryWatcher, AsyncRetryWatcher)(client, start, known=known)
    if flavour.is_async:
        async def collect() -> None:
            async for event in watcher:
                if condition(event):
                    return
        flavour.call(collect)
    else:
        for event in watcher:
            if condition(event):
                break
    assert sorted(seen) == [("ADDED", "c"), ("DELETED", "b"), ("MODIFIED", "a")]
    assert watcher.relists == 1


def test_bad_arguments_are_refused_with_what_was_expected() -> None:
    with pytest.raises(ValueError, match="timeout must be a number of seconds >= 0"):
        until_with_sync(FakeClientset().core_v1.config_maps("ns"), lambda e: True, timeout=-1)
    with pytest.raises(ValueError, match="name must be an object's name"):
        asyncio.run(async_until_with_sync(AsyncFakeClientset().core_v1.config_maps("ns"), lambda e: True, name=""))


def test_until_with_sync_on_the_dynamic_clients_resource_clients(flavour: Flavour) -> None:
    from kgen.runtime.dynamic import AsyncDynamicClient, DynamicClient

    cs = FakeClientset(cm("a"))
    if flavour.is_async:
        client: Any = AsyncDynamicClient(AsyncFakeClientset(tracker=cs.tracker).rest).resource(
            "", "v1", "configmaps", "ns", namespaced=True, kind="ConfigMap")
    else:
        client = DynamicClient(cs.rest).resource("", "v1", "configmaps", "ns", namespaced=True, kind="ConfigMap")
    flavour.later(0.2, lambda: cs.core_v1.config_maps("ns").update(cm("a", "ready")))
    event = run_until_with_sync(flavour, client, lambda e: e.object["data"].get("v") == "ready", name="a", timeout=10)
    assert event.type == "MODIFIED" and isinstance(event.object, dict) and event.object["metadata"]["name"] == "a"
