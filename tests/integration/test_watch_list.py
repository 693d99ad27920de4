"""Watches and informers over 10,000 ConfigMaps on the real apiserver, with the watch cache on and
off: nothing is lost.

The apiserver (WatchListCompression) gzips a watch-list one gzip member per flush, and a watch
from resourceVersion "" with bookmarks is one; a client that reads only the first member (httpx
alone) gets a few hundred of the 10,000 ADDED events, no end bookmark and no later event. Each
watch here must deliver every initial object, the bookmark annotated
``k8s.io/initial-events-end``, and the writes made after it. The informer in WatchList mode must
sync the 10,000 objects from one streamed request (no list), hold exactly what client-go's own
informer holds (hack/oracle/informer, WatchList on), and follow later changes; refused by the
server, it falls back to list and watch.

The 10,000 ConfigMaps are made once per server for the module (plain httpx on 16 threads, about
20 s) and deleted with one delete-collection at the end.
"""

from __future__ import annotations

import asyncio
import json
import random
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import httpx
import pytest

from kgen.kubernetes import AsyncClientset, Clientset
from kgen.kubernetes.informers.factory import AsyncSharedInformerFactory, SharedInformerFactory
from kgen.kubernetes.models.core.v1 import ConfigMap
from kgen.kubernetes.models.meta.v1 import ObjectMeta
from kgen.runtime.rest import Config
from kgen.runtime.rest.watch import Bookmark, WatchEvent
from kgen.runtime.testing import KubeAPIServer
from tests.support.apiserver import unthrottled_config, wait_for
from tests.support.faultproxy import FaultProxy, Scripted
from tests.support.oracle import GoInformer

OBJECTS = 10_000
INITIAL_EVENTS_END = "k8s.io/initial-events-end"


@dataclass
class Populated:
    server: KubeAPIServer
    namespace: str
    names: set[str]


def _create(server: KubeAPIServer, namespace: str, count: int, threads: int = 16) -> set[str]:
    """``count`` small ConfigMaps, made fast: bodies encoded up front, plain httpx, ``threads``
    connections (kgen's async client costs more CPU per request than the apiserver here)."""
    rng = random.Random(20370)
    names = [f"cm-{i:05d}" for i in range(count)]
    bodies = [json.dumps({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": name},
                          "data": {"payload": "%064x" % rng.getrandbits(256)}}).encode() for name in names]

    def create(share: int) -> None:
        with server.admin_client(timeout=60.0) as client:
            for body in bodies[share::threads]:
                answer = client.post(f"/api/v1/namespaces/{namespace}/configmaps", content=body,
                                     headers={"Content-Type": "application/json"})
                assert answer.status_code == 201, answer.text

    with ThreadPoolExecutor(threads) as pool:
        list(pool.map(create, range(threads)))
    return set(names)


@pytest.fixture(scope="module", params=["watch cache", "no watch cache"])
def populated(request: pytest.FixtureRequest) -> Iterator[Populated]:
    fixture = "kube_apiserver" if request.param == "watch cache" else "kube_apiserver_without_watch_cache"
    server: KubeAPIServer = request.getfixturevalue(fixture)
    namespace = f"wl-{uuid.uuid4().hex[:8]}"
    with server.admin_client(timeout=120.0) as admin:
        admin.post("/api/v1/namespaces", json={"metadata": {"name": namespace}}).raise_for_status()
        try:
            yield Populated(server, namespace, _create(server, namespace, OBJECTS))
        finally:
            admin.delete(f"/api/v1/namespaces/{namespace}/configmaps")
            admin.delete(f"/api/v1/namespaces/{namespace}")


def cm(name: str, **data: str) -> ConfigMap:
    return ConfigMap(metadata=ObjectMeta(name=name), data=data or {"v": "1"})


def is_initial_events_end(event: WatchEvent[ConfigMap] | Bookmark) -> bool:
    return isinstance(event, Bookmark) and event.annotations.get(INITIAL_EVENTS_END) == "true"


WATCHES = {
    # A watch without a resourceVersion starts with the current objects; the end bookmark reaches
    # the caller when it asks to see bookmarks (the server is asked for them either way).
    "bookmarks": {"bookmarks": True},
    "bookmarks, no resourceVersion": {"bookmarks": True, "resource_version": ""},
    "watch-list": {"send_initial_events": True, "resource_version_match": "NotOlderThan", "bookmarks": True},
}


class Received:
    """What one watch delivered, in order: the initial ADDED names, whether the end bookmark
    came, and the later events (not bookmarks) as (type, name, data)."""

    def __init__(self) -> None:
        self.initial: list[str] = []
        self.ended = False
        self.later: list[tuple[str, str, dict[str, str] | None]] = []

    def take(self, event: WatchEvent[ConfigMap] | Bookmark) -> bool:
        """Records ``event``; True once the later writes' last event (the DELETED) came."""
        if isinstance(event, Bookmark):
            self.ended = self.ended or event.initial_events_end
            return False
        meta = event.object.metadata
        if not self.ended:
            assert event.type == "ADDED" and meta is not None
            self.initial.append(str(meta.name))
        else:
            assert meta is not None
            self.later.append((event.type, str(meta.name), event.object.data))
        return bool(self.later) and self.later[-1][0] == "DELETED"


def _later_writes(cms: Any) -> None:
    cms.create(cm("later", v="1"))
    cms.patch("later", {"data": {"v": "2"}})
    cms.delete("later")


async def _async_later_writes(cms: Any) -> None:
    await cms.create(cm("later", v="1"))
    await cms.patch("later", {"data": {"v": "2"}})
    await cms.delete("later")


LATER = [("ADDED", "later", {"v": "1"}), ("MODIFIED", "later", {"v": "2"}), ("DELETED", "later", {"v": "2"})]


@pytest.mark.parametrize("options", WATCHES.values(), ids=WATCHES.keys())
def test_a_watch_delivers_every_initial_event_the_end_bookmark_and_later_writes(
    populated: Populated, options: dict[str, Any]
) -> None:
    with Clientset(unthrottled_config(populated.server)) as cs:
        cms = cs.core_v1.config_maps(populated.namespace)
        received = Received()
        for event in cms.watch(timeout_seconds=120, **options):
            if received.take(event):
                break
            if is_initial_events_end(event):
                _later_writes(cms)
    assert len(received.initial) == OBJECTS and set(received.initial) == populated.names
    assert received.ended and received.later == LATER


@pytest.mark.parametrize("options", WATCHES.values(), ids=WATCHES.keys())
def test_an_async_watch_delivers_every_initial_event_the_end_bookmark_and_later_writes(
    populated: Populated, options: dict[str, Any]
) -> None:
    async def scenario() -> Received:
        async with AsyncClientset(unthrottled_config(populated.server)) as acs:
            cms = acs.core_v1.config_maps(populated.namespace)
            received = Received()
            async for event in cms.watch(timeout_seconds=120, **options):
                if received.take(event):
                    break
                if is_initial_events_end(event):
                    await _async_later_writes(cms)
            return received

    received = asyncio.run(scenario())
    assert len(received.initial) == OBJECTS and set(received.initial) == populated.names
    assert received.ended and received.later == LATER


# -- the informer in WatchList mode ------------------------------------------------------------


def _requests_of(client: httpx.Client | httpx.AsyncClient, asynchronous: bool) -> list[str]:
    """The kinds of the configmap requests ``client`` sends: "watch-list", "watch" or "list"."""
    sent: list[str] = []

    def record(request: httpx.Request) -> None:
        if request.url.path.endswith("/configmaps") and request.method == "GET":
            params = request.url.params
            sent.append("watch-list" if params.get("sendInitialEvents") == "true"
                        else "watch" if params.get("watch") else "list")

    async def record_async(request: httpx.Request) -> None:
        record(request)

    client.event_hooks["request"].append(record_async if asynchronous else record)
    return sent


def _server_state(server: KubeAPIServer, namespace: str) -> dict[str, str]:
    with server.admin_client(timeout=60.0) as admin:
        items = admin.get(f"/api/v1/namespaces/{namespace}/configmaps").json()["items"]
    return {item["metadata"]["name"]: item["metadata"]["resourceVersion"] for item in items}


def _cache(informer: Any) -> dict[str, str]:
    return {obj.metadata.name: obj.metadata.resource_version for obj in informer.indexer.list()}


@pytest.mark.parametrize("asynchronous", [False, True], ids=["sync", "async"])
def test_an_informer_in_watch_list_mode_syncs_10000_objects_then_follows_changes_as_client_go_does(
    populated: Populated, asynchronous: bool
) -> None:
    server, namespace = populated.server, populated.namespace
    with GoInformer(server.kubeconfig, namespace, {"all": ""}, watch_list=True) as go:
        assert go.watch_list
        if asynchronous:
            sent, synced, followed = asyncio.run(_async_informer(unthrottled_config(server), namespace))
        else:
            sent, synced, followed = _sync_informer(unthrottled_config(server), namespace)
        go.wait_calls(lambda calls: any(c.handler == "delete" and c.name == "later" for c in calls), 120,
                      "the delete of later")
        client_go = go.dump()["all"]
    assert sent[0] == "watch-list" and "list" not in sent, sent
    assert set(synced) == populated.names and len(synced) == OBJECTS
    assert followed == client_go == _server_state(server, namespace)
    assert any("sendInitialEvents=true" in request for request in go.requests())  # client-go streamed it too


def _sync_informer(config: Config, namespace: str) -> tuple[list[str], dict[str, str], dict[str, str]]:
    """A factory's informer in WatchList mode: the requests it sent, its cache once synced, and
    its cache once it saw the later writes."""
    with Clientset(config) as cs:
        sent = _requests_of(cs.rest.http, asynchronous=False)
        factory = SharedInformerFactory(cs, namespace=namespace, watch_list=True)
        informer = factory.core_v1.config_maps().informer
        deleted: list[str] = []
        informer.add_event_handler(on_delete=lambda obj: deleted.append(obj.metadata.name))
        factory.start()
        try:
            assert all(factory.wait_for_cache_sync(timeout=120).values())
            synced = _cache(informer)
            _later_writes(cs.core_v1.config_maps(namespace))
            wait_for(lambda: deleted == ["later"], timeout=60)
            return sent, synced, _cache(informer)
        finally:
            factory.shutdown()


async def _async_informer(config: Config, namespace: str) -> tuple[list[str], dict[str, str], dict[str, str]]:
    async with AsyncClientset(config) as acs:
        sent = _requests_of(acs.rest.http, asynchronous=True)
        factory = AsyncSharedInformerFactory(acs, namespace=namespace, watch_list=True)
        informer = factory.core_v1.config_maps().informer
        deleted = asyncio.Event()
        informer.add_event_handler(on_delete=lambda obj: deleted.set())
        factory.start()
        try:
            assert all((await factory.wait_for_cache_sync(timeout=120)).values())
            synced = _cache(informer)
            await _async_later_writes(acs.core_v1.config_maps(namespace))
            await asyncio.wait_for(deleted.wait(), 60)
            return sent, synced, _cache(informer)
        finally:
            await factory.shutdown()


@pytest.mark.parametrize("asynchronous", [False, True], ids=["sync", "async"])
def test_an_informer_whose_watch_list_is_refused_lists_and_watches(populated: Populated, asynchronous: bool) -> None:
    """A server that refuses the watch-list (400, here from a proxy in front of it): the
    informer falls back to a list and a watch, syncs and follows changes."""
    server = populated.server
    namespace = f"wl-refused-{uuid.uuid4().hex[:6]}"
    with server.admin_client(timeout=30.0) as admin, FaultProxy(server) as proxy:
        admin.post("/api/v1/namespaces", json={"metadata": {"name": namespace}}).raise_for_status()
        try:
            for name in ("a", "b"):
                admin.post(f"/api/v1/namespaces/{namespace}/configmaps", json={"metadata": {"name": name}})
            proxy.script.append(Scripted(400, path="/configmaps"))  # the informer's first request: its watch-list
            config = proxy.config()
            if asynchronous:
                sent, synced, followed = asyncio.run(_async_informer(config, namespace))
            else:
                sent, synced, followed = _sync_informer(config, namespace)
            assert proxy.faults["scripted 400"] == 1
            assert sent[:3] == ["watch-list", "list", "watch"], sent
            assert set(synced) == {"a", "b"}
            assert followed == _server_state(server, namespace)
        finally:
            admin.delete(f"/api/v1/namespaces/{namespace}/configmaps")
            admin.delete(f"/api/v1/namespaces/{namespace}")
            # The proxy notices a client that left only when it next forwards an event.
            admin.post(f"/api/v1/namespaces/{namespace}/configmaps", json={"metadata": {"name": "bye"}})
