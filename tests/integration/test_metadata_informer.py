"""The metadata client and metadata informers (client-go's ``metadata``, ``metadatainformer``)
against the real apiserver, with Pods and a CRD.

What the wire says is the oracle: the same request sent as raw HTTP with the metadata client's
Accept header must answer the same PartialObjectMetadata(List) the client decodes, with no spec.
The informers sync, see create, update (a label change) and delete as typed PartialObjectMetadata,
turn a delete missed while cut off into a DeletedFinalStateUnknown tombstone (a real 410 after
an etcd compaction, as tests/integration/test_informer.py provokes it for typed informers), and
their listers return typed PartialObjectMetadata.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from kgen.kubernetes import Clientset
from kgen.kubernetes.metadata import (
    AsyncMetadataClient,
    AsyncMetadataSharedInformerFactory,
    GroupVersionResource,
    MetadataClient,
    MetadataSharedInformerFactory,
)
from kgen.kubernetes.models.core.v1 import Container, Pod, PodSpec
from kgen.kubernetes.models.meta.v1 import ObjectMeta, PartialObjectMetadata, PartialObjectMetadataList
from kgen.runtime.gentype import PatchType
from kgen.runtime.metadata import ACCEPT_LIST, ACCEPT_OBJECT
from kgen.runtime.rest.watch import WatchEvent
from kgen.runtime.testing import KubeAPIServer
from kgen.runtime.tools.cache import DeletedFinalStateUnknown
from kgen.runtime.tools.cache.reflector_state import reflector_backoff
from tests.integration.test_informer import CutOff, async_wait_until, compacting_namespace, wait_until  # noqa: F401
from tests.support.apiserver import crd_manifest, install_crd, unthrottled_config
from tests.support.faultproxy import FaultProxy
from tests.support.handler_log import HandlerLog
from tests.support.oracle import oracle_binary

PODS = GroupVersionResource("", "v1", "pods")
GROUP = "metadata.kgen.test"
WIDGETS = GroupVersionResource(GROUP, "v1", "widgets")


def pod(name: str, **labels: str) -> Pod:
    return Pod(
        metadata=ObjectMeta(name=name, labels=labels or None),
        spec=PodSpec(containers=[Container(name="c", image="registry.k8s.io/pause:3.10")]),
    )


def widget(name: str, **labels: str) -> dict[str, Any]:
    return {"apiVersion": f"{GROUP}/v1", "kind": "Widget", "metadata": {"name": name, "labels": labels},
            "spec": {"size": 3}}


@pytest.fixture(scope="module")
def widgets_crd(admin: httpx.Client) -> str:
    """A small namespaced CRD (Widget), installed once for the module."""
    crd = crd_manifest(GROUP, "Widget", "widgets", {"size": {"type": "integer"}})
    if admin.get(f"/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.{GROUP}").status_code == 404:
        install_crd(admin, crd)
    return GROUP


@pytest.fixture
def clientset(kube_apiserver: KubeAPIServer) -> Iterator[Clientset]:
    with Clientset(unthrottled_config(kube_apiserver)) as cs:
        yield cs


@pytest.fixture
def metadata(kube_apiserver: KubeAPIServer) -> Iterator[MetadataClient]:
    with MetadataClient(unthrottled_config(kube_apiserver)) as client:
        yield client


def no_spec(obj: PartialObjectMetadata) -> bool:
    return set(obj.to_dict()) <= {"apiVersion", "kind", "metadata"} and obj.unknown_fields_ is None


# -- the client, on the wire ---------------------------------------------------------------------


def test_list_is_what_the_server_answers_to_the_metadata_accept_header(
    clientset: Clientset, metadata: MetadataClient, admin: httpx.Client, namespace: str
) -> None:
    for name in ("a", "b", "c"):
        clientset.core_v1.pods(namespace).create(pod(name, app=name))
    listed = metadata.resource(PODS).namespace(namespace).list()
    assert isinstance(listed, PartialObjectMetadataList) and listed.kind == "PartialObjectMetadataList"
    assert [i.metadata.name for i in listed.items if i.metadata] == ["a", "b", "c"]
    assert all(isinstance(i, PartialObjectMetadata) and no_spec(i) for i in listed.items)

    # The oracle: raw HTTP with client-go's (JSON) Accept header answers the same list, no spec in it.
    raw = admin.get(f"/api/v1/namespaces/{namespace}/pods", headers={"Accept": ACCEPT_LIST})
    wire = raw.json()
    assert wire["kind"] == "PartialObjectMetadataList" and wire["apiVersion"] == "meta.k8s.io/v1"
    assert all("spec" not in item and "status" not in item for item in wire["items"])
    wire["metadata"].pop("resourceVersion")
    mine = listed.to_dict()
    mine["metadata"].pop("resourceVersion")
    assert mine == wire
    # Without it, the same path answers full Pods: the header is what makes them partial.
    assert admin.get(f"/api/v1/namespaces/{namespace}/pods").json()["kind"] == "PodList"


def client_go_metadata_list(server: KubeAPIServer, resource: str, namespace: str) -> dict[str, Any]:
    """hack/oracle/metadata: client-go's metadata client lists ``resource`` (group/version/plural)."""
    done = subprocess.run(
        [str(oracle_binary("metadata")), "list", "-kubeconfig", str(server.kubeconfig), "-resource", resource,
         "-namespace", namespace],
        capture_output=True, text=True, timeout=120, check=True,
    )
    result: dict[str, Any] = json.loads(done.stdout)
    return result


@pytest.mark.parametrize("gvr", [PODS, WIDGETS], ids=["pods", "crd"])
def test_list_matches_client_gos_metadata_client(
    kube_apiserver: KubeAPIServer, clientset: Clientset, metadata: MetadataClient, admin: httpx.Client,
    widgets_crd: str, namespace: str, gvr: GroupVersionResource,
) -> None:
    """The oracle: client-go's metadata client (hack/oracle/metadata) lists the same objects with
    the same metadata, and sends the Accept header kgen's JSON-only one is taken from."""
    for name in ("m1", "m2"):
        if gvr == PODS:
            clientset.core_v1.pods(namespace).create(pod(name, app=name))
        else:
            admin.post(f"/apis/{GROUP}/v1/namespaces/{namespace}/widgets", json=widget(name, tier=name)).raise_for_status()
    go = client_go_metadata_list(kube_apiserver, f"{gvr.group}/{gvr.version}/{gvr.resource}", namespace)
    assert go["clientGo"] == "v0.37.2"
    assert go["accept"] == [
        "application/vnd.kubernetes.protobuf;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1," + ACCEPT_LIST
    ]
    mine = metadata.resource(gvr).namespace(namespace).list()
    assert [item.metadata.to_dict() for item in mine.items if item.metadata] == [item["metadata"] for item in go["items"]]
    assert len(go["items"]) == 2


def test_get_patch_delete_and_watch_of_a_custom_resource(
    metadata: MetadataClient, admin: httpx.Client, widgets_crd: str, namespace: str
) -> None:
    path = f"/apis/{GROUP}/v1/namespaces/{namespace}/widgets"
    admin.post(path, json=widget("w1", tier="a")).raise_for_status()
    widgets = metadata.resource(WIDGETS).namespace(namespace)
    got = widgets.get("w1")
    raw = admin.get(f"{path}/w1", headers={"Accept": ACCEPT_OBJECT}).json()
    assert raw["kind"] == "PartialObjectMetadata" and "spec" not in raw
    assert got.to_dict() == raw and no_spec(got)

    events: list[WatchEvent[PartialObjectMetadata]] = []
    stream = widgets.open_watch(resource_version=got.metadata.resource_version if got.metadata else None)
    merged = widgets.patch("w1", {"metadata": {"labels": {"tier": "b"}}}, PatchType.MERGE)
    assert merged.kind == "PartialObjectMetadata" and merged.metadata and merged.metadata.labels == {"tier": "b"}
    patched = widgets.patch("w1", [{"op": "add", "path": "/metadata/annotations", "value": {"x": "1"}}], PatchType.JSON)
    assert patched.metadata and patched.metadata.annotations == {"x": "1"} and no_spec(patched)
    assert admin.get(f"{path}/w1").json()["spec"] == {"size": 3}, "patching metadata leaves the spec alone"
    widgets.delete("w1")
    with stream:
        for event in stream:
            assert isinstance(event, WatchEvent) and isinstance(event.object, PartialObjectMetadata)
            assert no_spec(event.object)
            events.append(event)
            if event.type == "DELETED":
                break
    assert [e.type for e in events] == ["MODIFIED", "MODIFIED", "DELETED"]
    assert [e.object.metadata.labels for e in events if e.object.metadata] == [{"tier": "b"}] * 3


def test_cluster_wide_list_and_a_cluster_scoped_resource(
    clientset: Clientset, metadata: MetadataClient, namespace: str
) -> None:
    clientset.core_v1.pods(namespace).create(pod("everywhere"))
    names = {(i.metadata.namespace, i.metadata.name) for i in metadata.resource(PODS).list_all(page_size=1).items if i.metadata}
    assert (namespace, "everywhere") in names
    ns = metadata.resource(GroupVersionResource("", "v1", "namespaces")).get(namespace)
    assert ns.kind == "PartialObjectMetadata" and ns.metadata and ns.metadata.name == namespace


# -- informers -------------------------------------------------------------------------------------


@pytest.mark.parametrize("watch_list", [True, False], ids=["watch-list", "list-then-watch"])
def test_informer_of_pods_and_a_crd_syncs_sees_changes_and_lists_typed_metadata(
    clientset: Clientset, metadata: MetadataClient, admin: httpx.Client, widgets_crd: str, namespace: str,
    watch_list: bool,
) -> None:
    pods = clientset.core_v1.pods(namespace)
    widgets_path = f"/apis/{GROUP}/v1/namespaces/{namespace}/widgets"
    pods.create(pod("p0", app="web"))
    admin.post(widgets_path, json=widget("w0", tier="a")).raise_for_status()
    sent: list[tuple[str, str]] = []  # (Accept, query) of every request the informers send
    metadata.rest.http.event_hooks["request"].append(
        lambda request: sent.append((request.headers["accept"], request.url.query.decode()))
    )

    factory = MetadataSharedInformerFactory(metadata, namespace=namespace, watch_list=watch_list)
    pod_informer, widget_informer = factory.for_resource(PODS), factory.for_resource(WIDGETS)
    assert factory.for_resource(PODS).informer() is pod_informer.informer(), "one informer per resource"
    logs = {"pods": HandlerLog(), "widgets": HandlerLog()}
    logs["pods"].register(pod_informer.informer())
    logs["widgets"].register(widget_informer.informer())
    factory.start()
    try:
        assert factory.wait_for_cache_sync(timeout=30) == {PODS: True, WIDGETS: True}
        # Both ways of syncing ask for partial objects: a watch-list (sendInitialEvents) as a watch
        # does, a list as a list does.
        initial = [(accept, query) for accept, query in sent if "sendInitialEvents=true" in query or "watch" not in query]
        assert len(initial) == 2, sent
        if watch_list:
            assert {accept for accept, _ in initial} == {ACCEPT_OBJECT}
        else:
            assert {accept for accept, _ in initial} == {ACCEPT_LIST}
        assert [k for k, _ in logs["pods"].of(f"{namespace}/p0")] == ["add"]
        assert [k for k, _ in logs["widgets"].of(f"{namespace}/w0")] == ["add"]

        pods.create(pod("p1", app="web"))
        admin.post(widgets_path, json=widget("w1", tier="a")).raise_for_status()
        pods.patch("p0", {"metadata": {"labels": {"app": "db"}}})
        admin.patch(f"{widgets_path}/w0", json={"metadata": {"labels": {"tier": "b"}}},
                    headers={"Content-Type": "application/merge-patch+json"}).raise_for_status()
        pods.delete("p1")
        admin.delete(f"{widgets_path}/w1").raise_for_status()
        for kind, log in logs.items():
            first, second = ("p0", "p1") if kind == "pods" else ("w0", "w1")
            # A Pod's delete is a MODIFIED (deletionTimestamp set; no kubelet, no node: at once) then a DELETED.
            deletes = ["add", "update", "delete"] if kind == "pods" else ["add", "delete"]
            wait_until(lambda: [k for k, _ in log.of(f"{namespace}/{second}")] == deletes, what=f"{kind} deletes")
            wait_until(lambda: [k for k, _ in log.of(f"{namespace}/{first}")] == ["add", "update"], what=f"{kind} updates")
            seen = [c[3] for c in log.snapshot()]
            assert all(isinstance(o, PartialObjectMetadata) and no_spec(o) for o in seen), kind

        pod_lister = pod_informer.lister()
        p0 = pod_lister.namespaced(namespace).get("p0")
        assert isinstance(p0, PartialObjectMetadata) and p0.metadata and p0.metadata.labels == {"app": "db"}
        assert no_spec(p0)
        assert [o.metadata.name for o in pod_lister.list("app=db") if o.metadata] == ["p0"]
        w0 = widget_informer.lister().namespaced(namespace).get("w0")
        assert w0.metadata and w0.metadata.labels == {"tier": "b"} and no_spec(w0)
        assert widget_informer.lister().namespaced(namespace).list() == [w0]
    finally:
        factory.shutdown()


def test_tweak_list_options_select_what_the_informer_caches(
    clientset: Clientset, metadata: MetadataClient, namespace: str
) -> None:
    pods = clientset.core_v1.pods(namespace)
    pods.create(pod("in", shard="0"))
    pods.create(pod("out", shard="1"))
    factory = MetadataSharedInformerFactory(
        metadata, namespace=namespace, tweak_list_options=lambda options: {**options, "label_selector": "shard=0"}
    )
    shard = factory.for_resource(PODS)
    factory.start()
    try:
        assert all(factory.wait_for_cache_sync(timeout=30).values())
        pods.create(pod("out-later", shard="1"))  # first: were it cached, it would be seen before in-later
        pods.create(pod("in-later", shard="0"))
        wait_until(lambda: len(shard.lister().list()) >= 2, what="a second pod in the cache")
        assert sorted(o.metadata.name or "" for o in shard.lister().list() if o.metadata) == ["in", "in-later"]
    finally:
        factory.shutdown()


def test_async_factory_syncs_and_sees_a_custom_resource(
    kube_apiserver: KubeAPIServer, admin: httpx.Client, widgets_crd: str, namespace: str
) -> None:
    widgets_path = f"/apis/{GROUP}/v1/namespaces/{namespace}/widgets"
    admin.post(widgets_path, json=widget("before")).raise_for_status()

    async def scenario() -> None:
        async with AsyncMetadataClient(unthrottled_config(kube_apiserver)) as client:
            listed = await client.resource(WIDGETS).namespace(namespace).list()
            assert [i.metadata.name for i in listed.items if i.metadata] == ["before"]
            factory = AsyncMetadataSharedInformerFactory(client, namespace=namespace)
            widgets = factory.for_resource(WIDGETS)
            names: list[str] = []
            widgets.informer().add_event_handler(on_add=lambda o: names.append(o.metadata.name if o.metadata else ""))
            factory.start()
            try:
                assert await factory.wait_for_cache_sync(timeout=30) == {WIDGETS: True}
                await asyncio.to_thread(lambda: admin.post(widgets_path, json=widget("after")).raise_for_status())
                await async_wait_until(lambda: names == ["before", "after"], what="the add")
                after = widgets.lister().namespaced(namespace).get("after")
                assert isinstance(after, PartialObjectMetadata) and no_spec(after)
            finally:
                await factory.shutdown()

    asyncio.run(scenario())


def test_a_delete_missed_while_cut_off_arrives_as_a_tombstone(
    kube_apiserver_without_watch_cache: KubeAPIServer, compacting_namespace: str
) -> None:
    server, ns = kube_apiserver_without_watch_cache, compacting_namespace
    with FaultProxy(server) as proxy, MetadataClient(proxy.config()) as through_proxy, \
            Clientset(unthrottled_config(server)) as cs:
        pods = cs.core_v1.pods(ns)
        pods.create(pod("a"))
        b = pods.create(pod("b"))
        cut_off = CutOff(proxy)
        factory = MetadataSharedInformerFactory(through_proxy, namespace=ns)
        informer = factory.for_resource(PODS).informer()
        informer.reflector.backoff = reflector_backoff(initial=0.1, cap=0.5)
        log = HandlerLog()
        log.register(informer)
        deleted: list[Any] = []
        informer.add_event_handler(on_delete=deleted.append)
        factory.start()
        try:
            assert all(factory.wait_for_cache_sync(timeout=15).values())
            pods.patch("a", {"metadata": {"labels": {"v": "2"}}})  # the watch is live
            wait_until(lambda: [k for k, _ in log.of(f"{ns}/a")] == ["add", "update"], what="the update of a")

            cut_off.start()
            pods.delete("b")  # no node: deleted at once, no grace period to wait for
            wait_until(cut_off.cut, timeout=10, what="the watch to be cut")
            pods.create(pod("c"))
            server.compact_etcd()
            cut_off.end()

            wait_until(lambda: bool(log.tombstones()) and bool(log.of(f"{ns}/c")), timeout=30,
                       what="the relist after the 410")
            tombstones = log.tombstones()
            assert list(tombstones) == [f"{ns}/b"], "b was deleted while the informer was cut off"
            wait_until(lambda: bool(deleted), what="the tombstone callback")
            assert [type(d) for d in deleted] == [DeletedFinalStateUnknown] and deleted[0].key == f"{ns}/b"
            tombstone = next(c[3] for c in log.snapshot() if c[0] == "tombstone")
            assert isinstance(tombstone, PartialObjectMetadata) and no_spec(tombstone)
            assert tombstone.metadata and b.metadata and tombstone.metadata.uid == b.metadata.uid
            assert [k for k, _ in log.of(f"{ns}/c")] == ["add"]
            assert sorted(informer.indexer.list_keys()) == [f"{ns}/a", f"{ns}/c"]
        finally:
            factory.shutdown()
            pods.create(pod("bye"))  # an event through the proxy, so that no proxied watch lingers
            pods.delete("bye")

