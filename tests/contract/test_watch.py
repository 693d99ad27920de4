"""Watch: history replayed in order from a resourceVersion, live events, bookmarks, selectors, timeouts."""

from __future__ import annotations

import threading
import time
from contextlib import closing

from kgen.kubernetes import Clientset
from kgen.kubernetes.models.core.v1 import ConfigMap
from kgen.runtime.rest.watch import Bookmark, WatchEvent

from .builders import config_map


def rv_of(event: WatchEvent[ConfigMap] | Bookmark) -> int:
    if isinstance(event, Bookmark):
        return int(event.resource_version)
    assert event.object.metadata
    return int(str(event.object.metadata.resource_version))


def summary(events: list[WatchEvent[ConfigMap]] | list[WatchEvent[ConfigMap] | Bookmark]) -> list[tuple[str, object]]:
    return [(e.type, e.object.metadata.name if e.object.metadata else None) for e in events if isinstance(e, WatchEvent)]


def test_watch_replays_history_in_order_then_streams_live_events_and_bookmarks(cs: Clientset, ns: str) -> None:
    cms = cs.core_v1.config_maps(ns)
    start = cms.list().metadata.resource_version
    watched = {"watched": "yes"}
    w = cms.create(config_map("w", labels=watched))
    w.data = {"k": "v"}
    cms.update(w)
    cms.delete("w")

    stop = threading.Event()

    def writer() -> None:
        cms.create(config_map("live", labels=watched))
        # Writes the watch does not select still move the resourceVersion on, which is what the
        # apiserver sends bookmarks for.
        for i in range(100):
            if stop.wait(0.3):
                return
            cms.create(config_map(f"tick-{i}"))

    events: list[WatchEvent[ConfigMap] | Bookmark] = []
    thread = threading.Thread(target=writer)
    thread.start()
    try:
        stream = cms.watch(resource_version=start, label_selector="watched=yes", bookmarks=True, timeout_seconds=5)
        with closing(stream):
            for event in stream:
                events.append(event)
                if event.type == "BOOKMARK" and ("ADDED", "live") in summary(events):
                    break
    finally:
        stop.set()
        thread.join()

    assert summary(events) == [("ADDED", "w"), ("MODIFIED", "w"), ("DELETED", "w"), ("ADDED", "live")]
    versions = [rv_of(e) for e in events if isinstance(e, WatchEvent)]
    assert versions == sorted(set(versions))  # strictly increasing
    bookmark = events[-1]
    assert isinstance(bookmark, Bookmark) and bookmark.type == "BOOKMARK" and not bookmark.initial_events_end
    assert rv_of(bookmark) >= versions[-1]
    assert all(rv_of(e) >= rv_of(prev) for prev, e in zip(events, events[1:]))


def test_a_watch_that_does_not_ask_to_see_bookmarks_gets_only_object_events(cs: Clientset, ns: str) -> None:
    # The server is asked for bookmarks (the same writes as above make it send some), the
    # caller did not ask to see them: only object events reach it.
    cms = cs.core_v1.config_maps(ns)
    start = cms.list().metadata.resource_version
    stop = threading.Event()

    def writer() -> None:
        for i in range(100):
            if stop.wait(0.3):
                return
            cms.create(config_map(f"tick-{i}", labels={"watched": "yes" if i == 0 else "no"}))

    thread = threading.Thread(target=writer)
    thread.start()
    try:
        events = list(cms.watch(resource_version=start, label_selector="watched=yes", timeout_seconds=3))
    finally:
        stop.set()
        thread.join()
    assert [type(e) for e in events] == [WatchEvent] and summary(events) == [("ADDED", "tick-0")]


def test_watch_from_zero_starts_with_the_current_objects(cs: Clientset, ns: str) -> None:
    cms = cs.core_v1.config_maps(ns)
    for name in "ba":
        cms.create(config_map(name))
    events = list(cms.watch(resource_version="0", timeout_seconds=1))
    assert sorted(summary(events)) == [("ADDED", "a"), ("ADDED", "b")]


def test_watch_from_a_resource_version_sees_only_later_changes(cs: Clientset, ns: str) -> None:
    cms = cs.core_v1.config_maps(ns)
    cms.create(config_map("before"))
    listed = cms.list()
    cms.create(config_map("after"))
    assert listed.metadata
    events = list(cms.watch(resource_version=listed.metadata.resource_version, timeout_seconds=1))
    assert summary(events) == [("ADDED", "after")]


def test_leaving_a_watched_selection_is_a_deleted_event_with_the_previous_state(cs: Clientset, ns: str) -> None:
    cms = cs.core_v1.config_maps(ns)
    start = cms.list().metadata.resource_version
    created = cms.create(config_map("r", labels={"team": "a"}))
    assert created.metadata
    created.metadata.labels = {"team": "b"}
    moved = cms.update(created)
    created.metadata.labels = {"team": "a"}
    created.metadata.resource_version = moved.metadata.resource_version
    back = cms.update(created)
    events = list(cms.watch(resource_version=start, label_selector="team=a", timeout_seconds=1))
    assert summary(events) == [("ADDED", "r"), ("DELETED", "r"), ("ADDED", "r")]
    left = events[1].object
    assert left.metadata and left.metadata.labels == {"team": "a"}
    assert left.metadata.resource_version == moved.metadata.resource_version
    assert rv_of(events[2]) == int(str(back.metadata.resource_version))


def test_watch_ends_after_timeout_seconds(cs: Clientset, ns: str) -> None:
    cms = cs.core_v1.config_maps(ns)
    started = time.monotonic()
    events = list(cms.watch(resource_version=cms.list().metadata.resource_version, timeout_seconds=1))
    assert events == []
    assert 0.5 <= time.monotonic() - started < 10
