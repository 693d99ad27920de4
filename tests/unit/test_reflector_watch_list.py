"""The reflector's WatchList mode: ports of client-go's tools/cache/reflector_watchlist_test.go
(TestWatchList, TestWatchListResourceVersion) and of the WatchList switch (the
WatchListClient feature gate, IsWatchListSemanticsUnSupported), on both flavours.

A scripted lister-watcher (client-go's fakeListWatcher) records every request; each scenario
checks the requests in order, the store, the error ListAndWatch returns, and where the
reflector's resourceVersion ends up."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import pytest

from kgen.runtime.apimachinery.errors import ApiError
from kgen.runtime.tools.cache.reflector import AsyncReflector, Reflector
from kgen.runtime.rest.watch import Bookmark
from kgen.runtime.tools.cache.reflector_state import INITIAL_EVENTS_END, WATCH_LIST_CLIENT_ENV, ReflectorBackoff
from kgen.runtime.tools.cache.store import Store
from kgen.runtime.util.wait import Backoff
from tests.support.fake_source import api_error, name_of, pod, pod_list, rv_of
from tests.support.flavours import Flavour
from tests.support.scripted_watch import (
    END,
    STOP,
    AsyncScriptedListWatch,
    ScriptedListWatch,
    ScriptedWatch,
    added,
    bookmark,
    deleted,
    modified,
)

WATCH_LIST = {"send_initial_events": True, "allow_watch_bookmarks": True, "resource_version_match": "NotOlderThan"}
FIRST_LIST = {"resource_version": "0", "limit": 500}


def watch_at(rv: str) -> dict[str, Any]:
    return {"allow_watch_bookmarks": True, "resource_version": rv}


class NoWait(ReflectorBackoff):
    """client-go's fakeDelayFunc: backs off without waiting, counting."""

    def __init__(self) -> None:
        super().__init__(Backoff(duration=0.0), reset_after=0.0)
        self.calls = 0

    def next_delay(self) -> float:
        self.calls += 1
        return 0.0


class Scenario:
    """One reflector over a scripted lister-watcher; ``STOP`` in a script sets its stop signal."""

    def __init__(self, flavour: Flavour, watches: Any = (), list_result: Any = None, store: Any = None,
                 **options: Any) -> None:
        self.flavour = flavour
        self.stop = flavour.event()
        self.lw = ScriptedListWatch(watches if callable(watches) else list(watches), list_result)
        self.store = store if store is not None else Store()
        client = AsyncScriptedListWatch(self.lw) if flavour.is_async else self.lw
        options.setdefault("watch_list", True)
        self.reflector = flavour.pick(Reflector, AsyncReflector)(client, self.store, **options)
        self.reflector.backoff = NoWait()

    def on_stop(self) -> None:
        self.flavour.set_event(self.stop)

    def watch(self, *script: Any) -> ScriptedWatch:
        return ScriptedWatch(script, self.on_stop)

    def list_and_watch(self) -> BaseException | None:
        """ListAndWatch until the script stops it; the error it returned, if any."""
        try:
            self.flavour.call(self.reflector.list_and_watch, self.stop, timeout=20)
        except Exception as e:  # noqa: BLE001 - the scenario checks it
            return e
        return None

    def requests(self) -> list[tuple[str, dict[str, Any]]]:
        """The requests in order, as client-go's verifyRequestOptions compares them: every
        watch has a timeout, whose value is not compared, nor empty values."""
        out = []
        for kind, options in self.lw.requests:
            if kind == "watch":
                assert 300 <= options["timeout_seconds"] < 600
                assert options["idle_timeout"] == options["timeout_seconds"] + 60
            out.append((kind, {k: v for k, v in options.items()
                               if k not in ("timeout_seconds", "idle_timeout") and v not in (None, "")}))
        return out

    def content(self) -> dict[str, str]:
        return {name_of(o): rv_of(o) for o in self.store.list()}


def p(name: str, rv: str) -> dict[str, Any]:
    return pod(name, rv)


# -- TestWatchList ------------------------------------------------------------------------------


def test_the_reflector_is_not_synced_before_the_bookmark(flavour: Flavour) -> None:
    s = Scenario(flavour)
    s.lw.watches = [s.watch(added(p("p1", "1")), STOP)]
    assert s.list_and_watch() is None
    assert s.requests() == [("watch", WATCH_LIST)]
    assert s.content() == {} and s.reflector.last_sync_resource_version == ""


def test_watch_list_off_lists_and_watches(flavour: Flavour) -> None:
    s = Scenario(flavour, list_result=pod_list("1", [p("p1", "1")]), watch_list=False)
    s.lw.watches = [s.watch(STOP)]
    assert s.list_and_watch() is None
    assert s.requests() == [("list", FIRST_LIST), ("watch", watch_at("1"))]
    assert s.content() == {"p1": "1"}


@pytest.mark.parametrize("refusal", [
    ValueError("dummy error"),
    api_error(422, "Invalid", "streaming is not allowed"),
    api_error(400, "BadRequest", "sendInitialEvents is not supported"),
], ids=["any error", "invalid", "bad request"])
def test_a_refused_watch_list_falls_back_to_list_and_watch(flavour: Flavour, refusal: Exception) -> None:
    def watches(options: dict[str, Any]) -> Any:
        return refusal if options.get("send_initial_events") else s.watch(added(p("p2", "2")), STOP)

    s = Scenario(flavour, watches, list_result=pod_list("1", [p("p1", "1")]))
    assert s.list_and_watch() is None
    assert s.requests() == [("watch", WATCH_LIST), ("list", FIRST_LIST), ("watch", watch_at("1"))]
    assert s.content() == {"p1": "1", "p2": "2"}


def test_the_reflector_is_synced_by_the_bookmark(flavour: Flavour) -> None:
    s = Scenario(flavour)
    s.lw.watches = [s.watch(added(p("p1", "1")), added(p("p2", "2")), bookmark("2", "true"), STOP)]
    assert s.list_and_watch() is None
    assert s.requests() == [("watch", WATCH_LIST)]
    assert s.content() == {"p1": "1", "p2": "2"} and s.reflector.last_sync_resource_version == "2"


def test_updates_and_deletes_during_the_stream_reach_the_initial_state(flavour: Flavour) -> None:
    s = Scenario(flavour)
    s.lw.watches = [s.watch(
        added(p("p1", "1")), added(p("p2", "2")), modified(p("p1", "3")), added(p("p3", "4")),
        deleted(p("p3", "5")), bookmark("5", "true"), STOP,
    )]
    assert s.list_and_watch() is None
    assert s.content() == {"p1": "3", "p2": "2"} and s.reflector.last_sync_resource_version == "5"


def test_429_is_retried_after_a_backoff(flavour: Flavour) -> None:
    busy = api_error(429, "TooManyRequests", "busy, check again later")
    s = Scenario(flavour)
    s.lw.watches = [busy, busy, s.watch(added(p("p1", "1")), bookmark("2", "true"), STOP)]
    assert s.list_and_watch() is None
    assert s.requests() == [("watch", WATCH_LIST)] * 3
    assert s.content() == {"p1": "1"} and s.reflector.backoff.calls == 2


def test_a_stream_closed_before_the_bookmark_is_streamed_again(flavour: Flavour) -> None:
    s = Scenario(flavour)
    first = s.watch(added(p("p1", "1")), END)
    s.lw.watches = [first, s.watch(added(p("p1", "1")), bookmark("1", "true"), STOP)]
    assert s.list_and_watch() is None
    assert s.requests() == [("watch", WATCH_LIST)] * 2
    assert s.content() == {"p1": "1"} and first.closed


def test_the_stream_goes_on_as_the_watch_and_a_rewatch_starts_at_its_last_event(flavour: Flavour) -> None:
    s = Scenario(flavour)
    first = s.watch(added(p("p1", "1")), added(p("p2", "2")), bookmark("2", "true"), added(p("p3", "3")), END)
    second = s.watch(added(p("p4", "4")), STOP)
    s.lw.watches = [first, second]
    assert s.list_and_watch() is None
    assert s.requests() == [("watch", WATCH_LIST), ("watch", watch_at("3"))]
    assert s.content() == {"p1": "1", "p2": "2", "p3": "3", "p4": "4"}
    assert first.closed and second.closed


def test_an_expired_rewatch_after_the_watch_list_ends_list_and_watch(flavour: Flavour) -> None:
    s = Scenario(flavour)
    rv_expired = api_error(410, "Expired", "rv already expired")
    s.lw.watches = [s.watch(added(p("p1", "1")), bookmark("2", "true"), added(p("p3", "3")), END), rv_expired]
    assert s.list_and_watch() is rv_expired
    assert s.requests() == [("watch", WATCH_LIST), ("watch", watch_at("3"))]
    assert s.content() == {"p1": "1", "p3": "3"}


def test_only_a_bookmark_annotated_true_ends_the_initial_events(flavour: Flavour) -> None:
    s = Scenario(flavour)
    s.lw.watches = [s.watch(added(p("p1", "1")), added(p("p2", "2")), bookmark("2", "false"), STOP)]
    assert s.list_and_watch() is None
    assert s.requests() == [("watch", WATCH_LIST)] and s.content() == {}


# -- beyond client-go's table: resourceVersions, the one replace, the stream's end ------------


@pytest.mark.parametrize("unavailable", [
    api_error(410, "Expired", "too old resource version"),
    api_error(504, "Timeout", "too large resource version", [{"reason": "ResourceVersionTooLarge"}]),
], ids=["expired", "too large"])
def test_a_watch_list_from_an_unavailable_version_streams_again_from_the_newest(
    flavour: Flavour, unavailable: ApiError
) -> None:
    s = Scenario(flavour)
    s.reflector.state.last_sync_resource_version = "5"
    s.lw.watches = [unavailable, s.watch(added(p("p1", "7")), bookmark("7", "true"), STOP)]
    assert s.list_and_watch() is None
    assert s.requests() == [("watch", {**WATCH_LIST, "resource_version": "5"}), ("watch", WATCH_LIST)]
    assert s.content() == {"p1": "7"} and s.reflector.last_sync_resource_version == "7"
    assert not s.reflector.state.resource_version_unavailable and s.reflector.backoff.calls == 0


class RecordingStore(Store):
    def __init__(self) -> None:
        super().__init__()
        self.calls: list[tuple[Any, ...]] = []

    def add(self, obj: Any) -> None:
        self.calls.append(("add", name_of(obj)))
        super().add(obj)

    def replace(self, objects: Any, resource_version: str = "") -> None:
        objects = list(objects)
        self.calls.append(("replace", sorted(name_of(o) for o in objects), resource_version))
        super().replace(objects, resource_version)


def test_the_initial_state_replaces_the_store_in_one_call_at_the_bookmark_version(flavour: Flavour) -> None:
    store = RecordingStore()
    store.add(pod("gone"))
    store.calls.clear()
    s = Scenario(flavour, store=store)
    s.lw.watches = [s.watch(added(p("a", "3")), added(p("b", "2")), bookmark("4", "true"), added(p("c", "5")), STOP)]
    assert s.list_and_watch() is None
    assert store.calls == [("replace", ["a", "b"], "4"), ("add", "c")]
    assert s.reflector.last_sync_resource_version == "5"


def test_a_stop_before_the_bookmark_leaves_the_store_untouched(flavour: Flavour) -> None:
    store = Store()
    store.add(pod("old", "1"))
    s = Scenario(flavour, store=store)
    first = s.watch(added(p("new", "2")), STOP)
    s.lw.watches = [first]
    assert s.list_and_watch() is None
    assert s.content() == {"old": "1"} and first.closed


def test_a_very_short_watch_list_falls_back_to_a_list(flavour: Flavour) -> None:
    s = Scenario(flavour, list_result=pod_list("1", [p("p1", "1")]))
    s.lw.watches = [s.watch(), s.watch(STOP)]  # the first ends at once, without an event
    assert s.list_and_watch() is None
    assert s.requests() == [("watch", WATCH_LIST), ("list", FIRST_LIST), ("watch", watch_at("1"))]


def test_a_typed_bookmark_ends_the_initial_events(flavour: Flavour) -> None:
    """Generated models keep annotations in ``metadata.annotations``: the bookmark is found there."""
    from kgen.kubernetes.models.core.v1 import ConfigMap

    def cm(rv: str, **meta: Any) -> ConfigMap:
        return ConfigMap.from_dict({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"resourceVersion": rv, **meta}})

    s = Scenario(flavour, expected_type=("v1", "ConfigMap"))
    end = Bookmark("4", {INITIAL_EVENTS_END: "true"})
    s.lw.watches = [s.watch(added(cm("3", name="a", namespace="ns")), end, STOP)]
    assert s.list_and_watch() is None
    assert [o.metadata.name for o in s.store.list()] == ["a"] and s.reflector.last_sync_resource_version == "4"


def test_objects_of_another_type_are_dropped_during_the_stream(flavour: Flavour, caplog: pytest.LogCaptureFixture) -> None:
    service = {"apiVersion": "v1", "kind": "Service", "metadata": {"name": "rejected", "resourceVersion": "9"}}
    s = Scenario(flavour, expected_type=("v1", "Pod"))
    s.lw.watches = [s.watch(added(service), added(p("p1", "1")), bookmark("2", "true"), added(service), STOP)]
    with caplog.at_level(logging.ERROR, "kgen.runtime.tools.cache.reflector"):
        assert s.list_and_watch() is None
    assert s.content() == {"p1": "1"} and s.reflector.last_sync_resource_version == "2"
    assert sum("unexpected watch event object type" in r.getMessage() for r in caplog.records) == 2


# -- the switch -------------------------------------------------------------------------------


class Unsupported(ScriptedListWatch):
    """A client that says it cannot (client-go's fake clientsets: IsWatchListSemanticsUnSupported)."""

    def is_watch_list_semantics_unsupported(self) -> bool:
        return True


class AsyncUnsupported(AsyncScriptedListWatch):
    def is_watch_list_semantics_unsupported(self) -> bool:
        return True


@pytest.mark.parametrize("env, option, expected", [
    (None, None, True), ("false", None, False), ("0", None, False), ("F", None, False), ("true", None, True),
    ("not-a-bool", None, True), ("false", True, True), (None, False, False),
], ids=["default", "env false", "env 0", "env F", "env true", "env invalid", "option over env", "option off"])
def test_watch_list_follows_the_option_else_the_feature_gate(
    flavour: Flavour, monkeypatch: pytest.MonkeyPatch, env: str | None, option: bool | None, expected: bool
) -> None:
    if env is None:
        monkeypatch.delenv(WATCH_LIST_CLIENT_ENV, raising=False)
    else:
        monkeypatch.setenv(WATCH_LIST_CLIENT_ENV, env)
    r = flavour.pick(Reflector, AsyncReflector)(ScriptedListWatch([]), Store(), watch_list=option)
    assert r.use_watch_list is expected


def test_a_client_without_watch_list_semantics_lists_even_when_asked_to_stream(flavour: Flavour) -> None:
    stop = flavour.event()
    lw = ScriptedListWatch([ScriptedWatch([STOP], lambda: flavour.set_event(stop))], pod_list("1", [p("p1", "1")]))
    client = AsyncUnsupported(lw) if flavour.is_async else Unsupported(lw.watches, lw.list_result)
    r = flavour.pick(Reflector, AsyncReflector)(client, Store(), watch_list=True)
    assert not r.use_watch_list
    flavour.call(r.list_and_watch, stop, timeout=20)
    requests = (client.source if flavour.is_async else client).requests
    assert [kind for kind, _ in requests] == ["list", "watch"]
    assert not any(options.get("send_initial_events") for _, options in requests)


def test_an_error_from_a_fallback_list_is_what_list_and_watch_returns(flavour: Flavour) -> None:
    forbidden = api_error(403, "Forbidden", "no list")
    s = Scenario(flavour, [ValueError("no streaming")], list_result=forbidden)
    assert s.list_and_watch() is forbidden
    assert [kind for kind, _ in s.requests()] == ["watch", "list"]


# -- kgen's fake clientset: like client-go's, its informers list and watch ---------------------


def test_an_informer_on_the_fake_clientset_lists_and_watches_even_when_asked_to_stream(flavour: Flavour) -> None:
    from kgen.kubernetes.fake import AsyncFakeClientset, FakeClientset
    from kgen.kubernetes.informers.factory import AsyncSharedInformerFactory, SharedInformerFactory
    from kgen.kubernetes.models.core.v1 import ConfigMap
    from kgen.kubernetes.models.meta.v1 import ObjectMeta

    def cm(name: str) -> ConfigMap:
        return ConfigMap(metadata=ObjectMeta(name=name, namespace="ns"))

    cs = flavour.pick(FakeClientset, AsyncFakeClientset)(cm("a"))
    sent: list[str] = []

    def record(request: Any) -> None:
        # GETs only: the scenario's create is a POST to the same path, and under load it can
        # go out before the reflector's watch.
        if request.method == "GET" and request.url.path.endswith("/configmaps"):
            sent.append("watch-list" if request.url.params.get("sendInitialEvents") else
                        "watch" if request.url.params.get("watch") else "list")

    async def record_async(request: Any) -> None:
        record(request)

    cs.rest.http.event_hooks["request"].append(flavour.pick(record, record_async))
    factory = flavour.pick(SharedInformerFactory, AsyncSharedInformerFactory)(cs, namespace="ns", watch_list=True)
    informer = factory.core_v1.config_maps()
    assert not informer.informer.reflector.use_watch_list
    seen = flavour.event()

    def on_add(obj: Any) -> None:
        if obj.metadata.name == "b":
            flavour.set_event(seen)

    informer.informer.add_event_handler(on_add=on_add)

    async def scenario_async() -> None:
        factory.start()
        assert all((await factory.wait_for_cache_sync(timeout=20)).values())
        await cs.core_v1.config_maps("ns").create(cm("b"))
        await asyncio.wait_for(seen.wait(), 20)
        await factory.shutdown()

    if flavour.is_async:
        flavour.call(scenario_async, timeout=60)
    else:
        factory.start()
        try:
            assert all(factory.wait_for_cache_sync(timeout=20).values())
            cs.core_v1.config_maps("ns").create(cm("b"))
            assert seen.wait(20)
        finally:
            factory.shutdown()
    assert sorted(o.metadata.name for o in informer.lister.config_maps("ns").list()) == ["a", "b"]
    assert sent[:2] == ["list", "watch"] and "watch-list" not in sent
