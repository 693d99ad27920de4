"""Watches against the real apiserver: ordering, bookmarks, 410 after compaction, dead streams."""

from __future__ import annotations

import asyncio
import threading
import time
import uuid

import httpx
import pytest

from kgen.kubernetes.models.core.v1 import ConfigMap, ConfigMapList
from kgen.kubernetes.models.meta.v1 import ObjectMeta
from kgen.runtime.apimachinery.codec import ModelCodec
from kgen.runtime.apimachinery.errors import Expired
from kgen.runtime.gentype import AsyncResourceClient, ResourceClient, ResourceInfo
from kgen.runtime.rest.client import AsyncRESTClient, RESTClient
from kgen.runtime.testing import KubeAPIServer
from kgen.runtime.rest.watch import Bookmark, WatchEvent
from tests.support.apiserver import unthrottled_config
from tests.support.faultproxy import Chaos, FaultProxy

CONFIGMAPS = ResourceInfo("", "v1", "configmaps", True, "ConfigMap")
INITIAL_EVENTS_END = "k8s.io/initial-events-end"




def configmaps(rest: RESTClient, ns: str) -> ResourceClient[ConfigMap, ConfigMapList]:
    return ResourceClient(rest, CONFIGMAPS, ns, ModelCodec(ConfigMap, ConfigMapList))


def _cm(name: str, **data: str) -> ConfigMap:
    return ConfigMap(metadata=ObjectMeta(name=name), data=data)


def _rv(obj: ConfigMap | ConfigMapList) -> str:
    assert obj.metadata is not None and obj.metadata.resource_version
    return obj.metadata.resource_version


def _changes(events: list[WatchEvent[ConfigMap]]) -> list[tuple[str, str | None, dict[str, str] | None]]:
    return [(e.type, e.object.metadata.name if e.object.metadata else None, e.object.data) for e in events]


def _write_history(cms: ResourceClient[ConfigMap, ConfigMapList]) -> list[str]:
    """Creates, modifies and deletes ``w``; returns the resourceVersion of each write."""
    created = cms.create(_cm("w", n="1"))
    modified = cms.patch("w", {"data": {"n": "2"}})
    cms.delete("w")
    return [_rv(created), _rv(modified)]


EXPECTED_HISTORY = [("ADDED", "w", {"n": "1"}), ("MODIFIED", "w", {"n": "2"}), ("DELETED", "w", {"n": "2"})]


def test_watch_from_a_resource_version_replays_later_changes_in_order(rest: RESTClient, namespace: str) -> None:
    cms = configmaps(rest, namespace)
    cms.create(_cm("before"))
    start = _rv(cms.list())
    write_rvs = _write_history(cms)
    events = []
    for event in cms.watch(resource_version=start, timeout_seconds=10):
        events.append(event)
        if event.type == "DELETED":
            break
    assert _changes(events) == EXPECTED_HISTORY  # "before" predates the resourceVersion
    assert [_rv(e.object) for e in events[:2]] == write_rvs
    assert int(_rv(events[2].object)) > int(write_rvs[1])


def test_live_watch_sees_changes_made_after_it_started(rest: RESTClient, namespace: str) -> None:
    cms = configmaps(rest, namespace)
    start = _rv(cms.list())
    writer = threading.Timer(0.5, _write_history, [cms])
    writer.start()
    events = []
    for event in cms.watch(resource_version=start, timeout_seconds=15):
        events.append(event)
        if event.type == "DELETED":
            break
    writer.join()
    assert _changes(events) == EXPECTED_HISTORY


def test_watch_ends_when_the_server_timeout_expires(rest: RESTClient, namespace: str) -> None:
    cms = configmaps(rest, namespace)
    started = time.monotonic()
    assert list(cms.watch(resource_version=_rv(cms.list()), timeout_seconds=1)) == []
    assert time.monotonic() - started < 10


def test_bookmark_before_the_server_timeout_carries_progress_made_elsewhere(
    rest: RESTClient, namespace: str
) -> None:
    """The watch cache sends a bookmark ~2 s before ``timeoutSeconds`` runs out, once the
    resource's resourceVersion has moved on, here through a write in another namespace."""
    cms = configmaps(rest, namespace)
    elsewhere = configmaps(rest, "default")
    name = f"elsewhere-{uuid.uuid4().hex[:8]}"
    start = _rv(cms.list())
    written: list[str] = []
    writer = threading.Timer(0.3, lambda: written.append(_rv(elsewhere.create(_cm(name)))))
    writer.start()
    try:
        events = list(cms.watch(resource_version=start, bookmarks=True, timeout_seconds=5))
    finally:
        writer.join()
        elsewhere.delete(name)
    assert events and all(isinstance(e, Bookmark) for e in events)
    assert int(events[-1].resource_version) >= int(written[0])  # type: ignore[union-attr]


def test_watch_list_ends_its_initial_events_with_a_bookmark(rest: RESTClient, namespace: str) -> None:
    cms = configmaps(rest, namespace)
    last = ""
    for name in ("c", "a", "b"):
        last = _rv(cms.create(_cm(name, key=name)))
    events = []
    for event in cms.watch(
        send_initial_events=True, resource_version_match="NotOlderThan", bookmarks=True, timeout_seconds=10
    ):
        events.append(event)
        if event.type == "BOOKMARK":
            break
    assert sorted(_changes(events[:-1])) == [("ADDED", n, {"key": n}) for n in ("a", "b", "c")]
    bookmark = events[-1]
    assert isinstance(bookmark, Bookmark) and bookmark.annotations.get(INITIAL_EVENTS_END) == "true"
    assert bookmark.initial_events_end and int(bookmark.resource_version) >= int(last)


def test_watch_from_a_compacted_resource_version_raises_expired(
    kube_apiserver_without_watch_cache: KubeAPIServer,
) -> None:
    server = kube_apiserver_without_watch_cache
    name = f"compacted-{uuid.uuid4().hex[:8]}"
    with RESTClient(unthrottled_config(server)) as rest:
        cms = configmaps(rest, "default")
        old = _rv(cms.create(_cm(name, n="1")))
        # Two writes: compaction keeps the newest revision, so a watch could start right at it.
        cms.patch(name, {"data": {"n": "2"}})
        cms.patch(name, {"data": {"n": "3"}})
        server.compact_etcd()
        received = []
        with pytest.raises(Expired) as e:
            for event in cms.watch(resource_version=old, timeout_seconds=10):
                received.append(event)
        cms.delete(name)
    assert received == []
    assert e.value.code == 410 and e.value.reason == "Expired" and e.value.message
    assert "GET /api/v1/namespaces/default/configmaps" in str(e.value)


def test_watch_stream_that_stalls_raises_read_timeout_instead_of_hanging(
    kube_apiserver: KubeAPIServer, namespace: str
) -> None:
    with FaultProxy(kube_apiserver) as proxy, RESTClient(proxy.config()) as rest:
        cms = configmaps(rest, namespace)
        start = _rv(cms.list())
        cms.create(_cm("s"))
        # Through the healthy proxy, the same watch delivers the event.
        for event in cms.watch(resource_version=start, timeout_seconds=10, idle_timeout=1):
            assert (event.type, event.object.metadata and event.object.metadata.name) == ("ADDED", "s")
            break
        proxy.set_chaos(Chaos(stall_stream=1.0, stall_seconds=6))
        started = time.monotonic()
        with pytest.raises(httpx.ReadTimeout):
            list(cms.watch(resource_version=start, timeout_seconds=30, idle_timeout=1))
        assert time.monotonic() - started < 4
        assert proxy.faults["stall stream"] >= 1


def test_watch_whose_answer_stalls_raises_read_timeout_and_is_not_retried(
    kube_apiserver: KubeAPIServer, namespace: str
) -> None:
    with FaultProxy(kube_apiserver) as proxy, RESTClient(proxy.config()) as rest:
        cms = configmaps(rest, namespace)
        proxy.set_chaos(Chaos(stall=1.0, stall_seconds=6))
        started = time.monotonic()
        with pytest.raises(httpx.ReadTimeout):
            list(cms.watch(timeout_seconds=30, idle_timeout=1))
        assert time.monotonic() - started < 4
        assert proxy.faults["stall before answer"] == 1


def test_async_watch_from_a_resource_version_replays_changes_in_order(
    kube_apiserver: KubeAPIServer, rest: RESTClient, namespace: str
) -> None:
    cms = configmaps(rest, namespace)
    start = _rv(cms.list())
    _write_history(cms)

    async def watch() -> list[WatchEvent[ConfigMap]]:
        async with AsyncRESTClient(unthrottled_config(kube_apiserver)) as arest:
            acms = AsyncResourceClient(arest, CONFIGMAPS, namespace, ModelCodec(ConfigMap, ConfigMapList))
            events = []
            async for event in acms.watch(resource_version=start, timeout_seconds=10):
                events.append(event)
                if event.type == "DELETED":
                    break
            return events

    assert _changes(asyncio.run(watch())) == EXPECTED_HISTORY


def test_async_watch_from_a_compacted_resource_version_raises_expired(
    kube_apiserver_without_watch_cache: KubeAPIServer,
) -> None:
    server = kube_apiserver_without_watch_cache
    name = f"acompacted-{uuid.uuid4().hex[:8]}"

    async def scenario() -> None:
        async with AsyncRESTClient(unthrottled_config(server)) as arest:
            acms = AsyncResourceClient(arest, CONFIGMAPS, "default", ModelCodec(ConfigMap, ConfigMapList))
            old = _rv(await acms.create(_cm(name)))
            await acms.patch(name, {"data": {"n": "2"}})
            await acms.patch(name, {"data": {"n": "3"}})
            server.compact_etcd()
            with pytest.raises(Expired):
                async for _ in acms.watch(resource_version=old, timeout_seconds=10):
                    pass
            await acms.delete(name)

    asyncio.run(scenario())
