"""Informers, listers and the informer factory against the real apiserver, thread and asyncio
flavours; the 410 relist after an etcd compaction, with tombstones for what was deleted while
the informer was cut off."""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import msgspec
import pytest

from kgen.kubernetes import Clientset
from kgen.kubernetes.informers.factory import SharedInformerFactory
from kgen.kubernetes.models.core.v1 import ConfigMap, ConfigMapList
from kgen.kubernetes.models.meta.v1 import ObjectMeta
from kgen.runtime.tools.cache.delta_fifo import DeletedFinalStateUnknown
from kgen.runtime.tools.cache.listers import Lister
from kgen.runtime.tools.cache.reflector_state import reflector_backoff
from kgen.runtime.tools.cache.shared_informer import AsyncSharedIndexInformer, SharedIndexInformer
from kgen.runtime.apimachinery.codec import ModelCodec
from kgen.runtime.apimachinery.errors import Expired, NotFound
from kgen.runtime.gentype import AsyncResourceClient, ResourceClient, ResourceInfo
from kgen.runtime.rest.client import AsyncRESTClient, RESTClient
from kgen.runtime.apimachinery.selectors import labels
from kgen.runtime.testing import KubeAPIServer
from tests.support.apiserver import unthrottled_config
from tests.support.faultproxy import Chaos, FaultProxy
from tests.support.handler_log import HandlerLog

CONFIGMAPS = ResourceInfo("", "v1", "configmaps", True, "ConfigMap")
CODEC = ModelCodec(ConfigMap, ConfigMapList)




def configmaps(rest: RESTClient, ns: str | None) -> ResourceClient[ConfigMap, ConfigMapList]:
    return ResourceClient(rest, CONFIGMAPS, ns, CODEC)


def cm(name: str, **labels_: str) -> ConfigMap:
    return ConfigMap(metadata=ObjectMeta(name=name, labels=labels_ or None), data={"v": "1"})


def rv(obj: Any) -> str:
    return str(obj.metadata.resource_version)


def wait_until(condition: Callable[[], bool], timeout: float = 15.0, what: str = "condition") -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.05)


async def async_wait_until(condition: Callable[[], bool], timeout: float = 15.0, what: str = "condition") -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        await asyncio.sleep(0.05)


def cached(informer: Any) -> dict[str, str]:
    return {key: rv(obj) for key in informer.indexer.list_keys() if (obj := informer.indexer.get_by_key(key))}


def server_state(client: ResourceClient[ConfigMap, ConfigMapList], ns: str) -> dict[str, str]:
    return {f"{ns}/{o.metadata.name}": rv(o) for o in client.list().items or []}


def test_informer_sees_create_update_and_delete(rest: RESTClient, namespace: str) -> None:
    cms = configmaps(rest, namespace)
    before = cms.create(cm("before"))
    informer = SharedIndexInformer(configmaps(rest, namespace))
    log = HandlerLog()
    handle = log.register(informer)
    informer.run()
    try:
        assert informer.wait_for_cache_sync(timeout=15)
        wait_until(handle.has_synced, what="the handler's initial adds")
        assert log.of(f"{namespace}/before") == [("add", rv(before))]

        created = cms.create(cm("a"))
        updated = cms.patch("a", {"data": {"v": "2"}})
        cms.delete("a")
        key = f"{namespace}/a"
        wait_until(lambda: len(log.of(key)) == 3, what="create, update and delete")
        kinds = log.of(key)
        assert [k for k, _ in kinds] == ["add", "update", "delete"]
        assert kinds[0][1] == rv(created) and kinds[1][1] == rv(updated)
        assert int(kinds[2][1]) > int(rv(updated))  # the DELETED event carries the final state
        assert informer.indexer.list_keys() == [f"{namespace}/before"]
        assert int(informer.last_sync_resource_version) >= int(kinds[2][1])
        assert log.regressions == []
    finally:
        informer.stop()


def test_open_watch_is_stopped_from_another_thread(rest: RESTClient, namespace: str) -> None:
    """The reflector's way out of a blocked read (resource.WatchStream.stop)."""
    import threading

    cms = configmaps(rest, namespace)
    start = rv(cms.list())
    cms.create(cm("a"))
    with cms.open_watch(resource_version=start, timeout_seconds=60) as stream:
        events = iter(stream)
        assert next(events).type == "ADDED"
        threading.Timer(0.3, stream.stop).start()
        started = time.monotonic()
        assert list(events) == []  # blocked in a read until stop()
        assert time.monotonic() - started < 5
    assert [o.metadata.name for o in cms.list().items or []] == ["a"]


def test_stop_closes_the_watch_and_joins_every_thread(rest: RESTClient, namespace: str) -> None:
    import threading

    before = set(threading.enumerate())
    informer = SharedIndexInformer(configmaps(rest, namespace), resync_period=1.0)
    informer.add_event_handler(lambda obj: None)
    informer.run()
    assert informer.wait_for_cache_sync(timeout=15)
    time.sleep(0.2)  # the watch is open, blocked in a read
    started = time.monotonic()
    informer.stop()
    assert time.monotonic() - started < 2.0, "stop() waited for the watch to time out"
    assert [t for t in set(threading.enumerate()) - before if t.is_alive()] == []
    configmaps(rest, namespace).list()  # the client's connection pool is still fine


def test_async_informer_sees_create_update_and_delete(
    kube_apiserver: KubeAPIServer, rest: RESTClient, namespace: str
) -> None:
    cms = configmaps(rest, namespace)

    async def scenario() -> None:
        async with AsyncRESTClient(unthrottled_config(kube_apiserver)) as arest:
            acms = AsyncResourceClient(arest, CONFIGMAPS, namespace, CODEC)
            informer = AsyncSharedIndexInformer(acms)
            log = HandlerLog()
            handle = log.register(informer)
            informer.start()
            try:
                assert await informer.wait_for_cache_sync(timeout=15)
                await async_wait_until(handle.has_synced)
                created = await acms.create(cm("a"))
                updated = await acms.patch("a", {"data": {"v": "2"}})
                await acms.delete("a")
                key = f"{namespace}/a"
                await async_wait_until(lambda: len(log.of(key)) == 3, what="create, update and delete")
                assert [k for k, _ in log.of(key)] == ["add", "update", "delete"]
                assert [v for _, v in log.of(key)[:2]] == [rv(created), rv(updated)]
                assert informer.indexer.list_keys() == []
                assert log.regressions == []
            finally:
                await informer.stop()

    asyncio.run(scenario())
    assert not cms.list().items


def test_lister_lists_by_label_selector_and_gets_by_name(rest: RESTClient, namespace: str) -> None:
    cms = configmaps(rest, namespace)
    for name, app, tier in (("web-1", "web", "fe"), ("web-2", "web", "be"), ("db-1", "db", "be")):
        cms.create(cm(name, app=app, tier=tier))
    cms.create(cm("plain"))
    informer = SharedIndexInformer(configmaps(rest, namespace))
    informer.run()
    try:
        assert informer.wait_for_cache_sync(timeout=15)
        lister: Lister[ConfigMap] = Lister(informer.indexer, "configmaps", namespaced=True)

        def names(objs: list[ConfigMap]) -> list[str]:
            return sorted(str(o.metadata.name) for o in objs if o.metadata)

        assert names(lister.list()) == ["db-1", "plain", "web-1", "web-2"]
        assert names(lister.list("app=web")) == ["web-1", "web-2"]
        assert names(lister.list(labels(app="web").eq("tier", "be"))) == ["web-2"]
        assert names(lister.list("tier in (fe,be),app!=web")) == ["db-1"]
        assert names(lister.list("!app")) == ["plain"]
        scoped = lister.namespaced(namespace)
        assert names(scoped.list("tier=be")) == ["db-1", "web-2"]
        assert lister.namespaced("elsewhere").list() == []
        assert scoped.get("web-1").data == {"v": "1"}
        with pytest.raises(NotFound) as missing:
            scoped.get("nope")
        assert missing.value.code == 404 and "nope" in missing.value.message
        with pytest.raises(TypeError, match="namespaced"):
            lister.get("web-1")
    finally:
        informer.stop()


@pytest.fixture
def clientset(kube_apiserver: KubeAPIServer) -> Iterator[Clientset]:
    with Clientset(unthrottled_config(kube_apiserver)) as cs:
        yield cs


def test_factory_makes_one_informer_per_type_scoped_to_its_namespace(
    clientset: Clientset, rest: RESTClient, namespace: str
) -> None:
    mark = uuid.uuid4().hex[:8]
    configmaps(rest, namespace).create(cm("inside", mark=mark))
    configmaps(rest, "default").create(cm(f"outside-{mark}", mark=mark))
    factory = SharedInformerFactory(clientset, namespace=namespace)
    cms = factory.core_v1.config_maps()
    assert factory.core_v1.config_maps().informer is cms.informer  # one informer per type
    factory.start()
    try:
        synced = factory.wait_for_cache_sync(timeout=15)
        assert synced == {("", "v1", "configmaps"): True}
        # A type asked for after start() starts at once.
        secrets = factory.core_v1.secrets()
        assert secrets.informer.has_started()
        assert all(factory.wait_for_cache_sync(timeout=15).values())
        assert [o.metadata.name for o in cms.lister.list(f"mark={mark}")] == ["inside"]
        assert cms.lister.config_maps(namespace).get("inside").metadata.labels == {"mark": mark}
    finally:
        factory.shutdown()
        configmaps(rest, "default").delete(f"outside-{mark}")
    assert cms.informer.is_stopped() and secrets.informer.is_stopped()
    with pytest.raises(RuntimeError, match="shut down"):
        factory.core_v1.pods()


def test_factory_applies_tweak_list_options_and_transform(clientset: Clientset, rest: RESTClient, namespace: str) -> None:
    cms = configmaps(rest, namespace)
    cms.create(cm("picked", team="a"))
    cms.create(cm("ignored", team="b"))
    requests: list[httpx.Request] = []
    clientset.rest.http.event_hooks["request"].append(requests.append)

    def drop_managed_fields(obj: ConfigMap) -> ConfigMap:
        assert obj.metadata is not None
        return msgspec.structs.replace(obj, metadata=msgspec.structs.replace(obj.metadata, managed_fields=None))

    factory = SharedInformerFactory(
        clientset, namespace=namespace, transform=drop_managed_fields,
        tweak_list_options=lambda options: {**options, "label_selector": "team=a"},
    )
    informer = factory.core_v1.config_maps().informer
    log = HandlerLog()
    log.register(informer)
    factory.start()
    try:
        assert all(factory.wait_for_cache_sync(timeout=15).values())
        cms.create(cm("picked-later", team="a"))
        cms.create(cm("ignored-later", team="b"))
        wait_until(lambda: len(informer.indexer.list_keys()) == 2, what="the second matching object")
        time.sleep(0.3)
        assert sorted(informer.indexer.list_keys()) == [f"{namespace}/picked", f"{namespace}/picked-later"]
        assert all(o.metadata.managed_fields is None for o in informer.indexer.list())
        assert all(o.metadata.managed_fields is None for _, _, _, o in log.snapshot())
        assert log.keys("add") == {f"{namespace}/picked", f"{namespace}/picked-later"}
        sent = [r.url.params.get("labelSelector") for r in requests if r.url.path.endswith("/configmaps")]
        assert sent and set(sent) == {"team=a"}, "the selector reaches both the list and the watch"
    finally:
        factory.shutdown()


def _count_lists(client: RESTClient) -> list[str]:
    """The requests for a whole state: lists, and watch-lists (WatchList mode)."""
    lists: list[str] = []

    def hook(request: httpx.Request) -> None:
        params = request.url.params
        if request.method == "GET" and request.url.path.endswith("/configmaps") and (
            not params.get("watch") or params.get("sendInitialEvents") == "true"
        ):
            lists.append(str(request.url))

    client.http.event_hooks["request"].append(hook)
    return lists


def test_resync_replays_the_cache_and_never_lists_again(kube_apiserver: KubeAPIServer, namespace: str) -> None:
    with RESTClient(unthrottled_config(kube_apiserver)) as client:
        lists = _count_lists(client)
        configmaps(client, namespace).create(cm("a"))
        configmaps(client, namespace).create(cm("b"))
        informer = SharedIndexInformer(configmaps(client, namespace), resync_period=1.0)
        resyncing, quiet = HandlerLog(), HandlerLog()
        resyncing.register(informer)
        quiet.register(informer, resync_period=0)
        informer.run()
        try:
            assert informer.wait_for_cache_sync(timeout=15)
            wait_until(lambda: len([c for c in resyncing.snapshot() if c[0] == "sync"]) >= 4, timeout=10,
                       what="two resyncs of both objects")
            assert [c for c in quiet.snapshot() if c[0] != "add"] == []
            assert len(lists) == 1, f"resync listed again: {lists}"
        finally:
            informer.stop()


def test_factory_per_type_resync_overrides_the_default(clientset: Clientset, rest: RESTClient, namespace: str) -> None:
    configmaps(rest, namespace).create(cm("a"))
    factory = SharedInformerFactory(clientset, resync=0, namespace=namespace, custom_resync={"v1/configmaps": 1.0})
    cms_informer = factory.core_v1.config_maps().informer
    secrets_informer = factory.core_v1.secrets().informer
    assert cms_informer.resync_check_period == 1.0 and secrets_informer.resync_check_period == 0
    log = HandlerLog()
    log.register(cms_informer)
    factory.start()
    try:
        assert all(factory.wait_for_cache_sync(timeout=15).values())
        wait_until(lambda: any(c[0] == "sync" for c in log.snapshot()), timeout=10, what="a resync")
    finally:
        factory.shutdown()


# -- 410 after an etcd compaction -------------------------------------------------------------


@pytest.fixture
def compacting_namespace(kube_apiserver_without_watch_cache: KubeAPIServer) -> Iterator[str]:
    name = f"t-{uuid.uuid4().hex[:10]}"
    with kube_apiserver_without_watch_cache.admin_client(timeout=30.0) as admin:
        admin.post("/api/v1/namespaces", json={"metadata": {"name": name}}).raise_for_status()
        yield name
        admin.delete(f"/api/v1/namespaces/{name}")


class CutOff:
    """Cuts an informer off through the proxy: its watch stream is cut at the next event, and
    the watch it opens next is held back, long enough to delete and compact meanwhile."""

    HOLD = 4.0

    def __init__(self, proxy: FaultProxy) -> None:
        self.proxy = proxy
        self.chaos = Chaos()
        proxy.set_chaos(self.chaos)  # requests in flight read this same object

    def start(self) -> None:
        self.chaos.stall_seconds = self.HOLD
        self.chaos.stall = 1.0
        self.chaos.cut_stream = 1.0

    def cut(self) -> bool:
        return self.proxy.faults["cut stream"] >= 1

    def end(self) -> None:
        self.chaos.stall = 0.0
        self.chaos.cut_stream = 0.0


def _while_cut_off(server: KubeAPIServer, direct: ResourceClient[ConfigMap, ConfigMapList], cut_off: CutOff) -> None:
    """B deleted, C created, A changed twice, then etcd compacted: the informer's resourceVersion
    is gone."""
    direct.delete("b")
    wait_until(cut_off.cut, timeout=10, what="the watch to be cut")
    direct.create(cm("c"))
    direct.patch("a", {"data": {"v": "3"}})
    direct.patch("a", {"data": {"v": "4"}})
    server.compact_etcd()
    cut_off.end()


def _release_proxied_watches(direct: ResourceClient[ConfigMap, ConfigMapList]) -> None:
    """The proxy notices that a client left only when it next forwards an event: send two, so
    that no watch is left open upstream to delay the apiserver's shutdown."""
    direct.create(cm("bye"))
    direct.delete("bye")
    time.sleep(0.2)


def test_relist_after_410_emits_tombstones_and_matches_a_fresh_list(
    kube_apiserver_without_watch_cache: KubeAPIServer, compacting_namespace: str
) -> None:
    server, ns = kube_apiserver_without_watch_cache, compacting_namespace
    with FaultProxy(server) as proxy, RESTClient(proxy.config()) as through_proxy, RESTClient(unthrottled_config(server)) as rest:
        direct = configmaps(rest, ns)
        direct.create(cm("a"))
        b = direct.create(cm("b"))
        cut_off = CutOff(proxy)
        informer = SharedIndexInformer(configmaps(through_proxy, ns))
        informer.reflector.backoff = reflector_backoff(initial=0.1, cap=0.5)
        errors: list[BaseException] = []
        informer.set_watch_error_handler(errors.append)
        log = HandlerLog()
        log.register(informer)
        informer.run()
        try:
            assert informer.wait_for_cache_sync(timeout=15)
            direct.patch("a", {"data": {"v": "2"}})  # the watch is live and has delivered an event
            wait_until(lambda: [k for k, _ in log.of(f"{ns}/a")] == ["add", "update"], what="the update of a")

            cut_off.start()
            _while_cut_off(server, direct, cut_off)

            expected = server_state(direct, ns)
            wait_until(lambda: cached(informer) == expected, timeout=30, what="the cache to equal a fresh list")
            assert any(isinstance(e, Expired) for e in errors), f"no 410 seen: {errors}"
            # The indexer changes before handlers run (their notifications are buffered).
            wait_until(lambda: bool(log.tombstones()) and bool(log.of(f"{ns}/c")), what="the handlers to catch up")
            tombstones = log.tombstones()
            assert list(tombstones) == [f"{ns}/b"], "b was deleted while the informer was cut off"
            assert rv(tombstones[f"{ns}/b"]) == rv(b), "the tombstone carries the last state seen"
            assert isinstance(next(c[3] for c in log.snapshot() if c[0] == "tombstone"), ConfigMap)
            assert [k for k, _ in log.of(f"{ns}/c")] == ["add"]
            assert log.of(f"{ns}/a")[-1] == ("update", expected[f"{ns}/a"])
            assert log.regressions == []
        finally:
            informer.stop()
            _release_proxied_watches(direct)


def test_async_relist_after_410_emits_tombstones_and_matches_a_fresh_list(
    kube_apiserver_without_watch_cache: KubeAPIServer, compacting_namespace: str
) -> None:
    server, ns = kube_apiserver_without_watch_cache, compacting_namespace

    async def scenario(proxy: FaultProxy, direct: ResourceClient[ConfigMap, ConfigMapList]) -> None:
        async with AsyncRESTClient(proxy.config()) as through_proxy:
            cut_off = CutOff(proxy)
            informer = AsyncSharedIndexInformer(AsyncResourceClient(through_proxy, CONFIGMAPS, ns, CODEC))
            informer.reflector.backoff = reflector_backoff(initial=0.1, cap=0.5)
            errors: list[BaseException] = []
            informer.set_watch_error_handler(errors.append)
            log = HandlerLog()
            deleted: list[Any] = []

            async def on_delete(obj: Any) -> None:  # a coroutine handler
                deleted.append(obj)
                log.on_delete(obj)

            informer.add_event_handler(log.on_add, log.on_update, on_delete)
            informer.start()
            try:
                assert await informer.wait_for_cache_sync(timeout=15)
                await asyncio.to_thread(direct.patch, "a", {"data": {"v": "2"}})
                await async_wait_until(lambda: [k for k, _ in log.of(f"{ns}/a")] == ["add", "update"])

                cut_off.start()
                await asyncio.to_thread(_while_cut_off, server, direct, cut_off)

                expected = await asyncio.to_thread(server_state, direct, ns)
                await async_wait_until(lambda: cached(informer) == expected, timeout=30,
                                       what="the cache to equal a fresh list")
                assert any(isinstance(e, Expired) for e in errors), f"no 410 seen: {errors}"
                # The indexer changes before handlers run (their notifications are buffered).
                await async_wait_until(lambda: bool(deleted), timeout=10, what="the tombstone callback")
                assert [type(d) for d in deleted] == [DeletedFinalStateUnknown]
                assert deleted[0].key == f"{ns}/b" and deleted[0].obj.metadata.name == "b"
                assert log.regressions == []
            finally:
                await informer.stop()

    with FaultProxy(server) as proxy, RESTClient(unthrottled_config(server)) as rest:
        direct = configmaps(rest, ns)
        direct.create(cm("a"))
        direct.create(cm("b"))
        try:
            asyncio.run(scenario(proxy, direct))
        finally:
            _release_proxied_watches(direct)


def test_generated_async_informer_factory_syncs_and_sees_changes(kube_apiserver: KubeAPIServer, namespace: str) -> None:
    from kgen.kubernetes import AsyncClientset
    from kgen.kubernetes.informers.factory import AsyncSharedInformerFactory

    async def scenario() -> None:
        async with AsyncClientset(unthrottled_config(kube_apiserver)) as acs:
            factory = AsyncSharedInformerFactory(acs, namespace=namespace)
            cms = factory.core_v1.config_maps()
            names: list[str] = []
            cms.informer.add_event_handler(on_add=lambda o: names.append(o.metadata.name))
            factory.start()
            assert all((await factory.wait_for_cache_sync(timeout=15)).values())
            await acs.core_v1.config_maps(namespace).create(cm("async-a"))
            await async_wait_until(lambda: "async-a" in names, what="the add")
            assert cms.lister.config_maps(namespace).get("async-a").metadata.name == "async-a"
            await factory.shutdown()

    asyncio.run(scenario())
