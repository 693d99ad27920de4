"""The fake apiserver's behaviours that the contract suite cannot pin against a real server:
410 after history is dropped, seeding, CRDs, threads, asyncio wake-ups."""

from __future__ import annotations

import asyncio
import threading
import time
from contextlib import closing

import httpx
import pytest

from kgen.kubernetes.fake import RESOURCES, AsyncFakeClientset, FakeClientset
from kgen.kubernetes.models.core.v1 import ConfigMap
from kgen.kubernetes.models.meta.v1 import ObjectMeta
from kgen.runtime.apimachinery.errors import ApiError, Expired, NotFound
from kgen.runtime.fake.tracker import ObjectTracker
from kgen.runtime.gentype import DictCodec, PatchType, ResourceClient, ResourceInfo


def cm(name: str, namespace: str = "ns", **data: str) -> ConfigMap:
    return ConfigMap(metadata=ObjectMeta(name=name, namespace=namespace), data=data)


def test_seed_objects_keep_their_status_and_default_to_the_default_namespace() -> None:
    cs = FakeClientset(
        ConfigMap(metadata=ObjectMeta(name="plain"), data={"a": "b"}),
        {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "d", "namespace": "x"},
         "spec": {"replicas": 2}, "status": {"replicas": 2}},
    )
    assert cs.core_v1.config_maps("default").get("plain").data == {"a": "b"}
    d = cs.apps_v1.deployments("x").get("d")
    assert d.status and d.status.replicas == 2
    with pytest.raises(ValueError, match="no resource registered"):
        cs.tracker.add({"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w"}})


def test_seed_objects_get_the_generation_a_create_would_give() -> None:
    """A seeded Deployment has generation 1 (as created by the server) and a spec update moves it
    to 2; a seed's own generation stays; a ConfigMap (no spec) has none."""
    spec = {"selector": {"matchLabels": {"a": "b"}},
            "template": {"metadata": {"labels": {"a": "b"}}, "spec": {"containers": [{"name": "c", "image": "i"}]}}}
    cs = FakeClientset(
        {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "d"}, "spec": spec},
        {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "e", "generation": 7}, "spec": spec},
        cm("c", namespace="default"),
    )
    deployments = cs.apps_v1.deployments("default")
    d = deployments.get("d")
    assert d.metadata and d.metadata.generation == 1
    d.spec.replicas = 3
    updated = deployments.update(d)
    assert updated.metadata and updated.metadata.generation == 2
    e = deployments.get("e")
    assert e.metadata and e.metadata.generation == 7
    c = cs.core_v1.config_maps("default").get("c")
    assert c.metadata and c.metadata.generation is None


def test_watch_from_before_compacted_history_is_expired() -> None:
    cs = FakeClientset()
    cms = cs.core_v1.config_maps("ns")
    first = cms.create(cm("a"))
    cms.create(cm("b"))
    cs.tracker.compact()
    with pytest.raises(Expired):
        list(cms.watch(resource_version=first.metadata.resource_version, timeout_seconds=1))
    # from now on is fine
    assert list(cms.watch(resource_version=cs.tracker.resource_version, timeout_seconds=0)) == []


def test_continue_token_from_before_compacted_history_offers_an_inconsistent_one() -> None:
    cs = FakeClientset(*(cm(n) for n in "abc"))
    cms = cs.core_v1.config_maps("ns")
    page = cms.list(limit=1)
    cms.create(cm("d"))
    cs.tracker.compact()
    with pytest.raises(Expired) as caught:
        cms.list(limit=1, continue_=page.metadata.continue_)
    token = caught.value.continue_token
    assert token
    assert [i.metadata.name for i in cms.list(continue_=token).items if i.metadata] == ["b", "c", "d"]


def test_history_limit_expires_old_resource_versions() -> None:
    tracker = ObjectTracker(RESOURCES, history=2)
    cs = FakeClientset(tracker=tracker)
    cms = cs.core_v1.config_maps("ns")
    first = cms.create(cm("a"))
    for name in "bcd":
        cms.create(cm(name))
    with pytest.raises(Expired):
        list(cms.watch(resource_version=first.metadata.resource_version, timeout_seconds=1))


def test_custom_resources_are_served_once_registered() -> None:
    widgets = ResourceInfo("example.com", "v1", "widgets", True, "Widget")
    tracker = ObjectTracker([widgets])
    client = ResourceClient(FakeClientset(tracker=tracker).rest, widgets, "ns", DictCodec("example.com/v1", "Widget"))
    created = client.create({"metadata": {"name": "w"}, "spec": {"size": 1}})
    assert created["metadata"]["generation"] == 1  # custom resources always carry one
    updated = client.patch("w", {"spec": {"size": 2}})
    assert updated["metadata"]["generation"] == 2
    listed = client.list()
    assert listed["kind"] == "WidgetList" and listed["items"][0]["kind"] == "Widget"  # CR items keep TypeMeta
    with pytest.raises(ApiError) as caught:
        client.patch("w", {"spec": {"size": 3}}, PatchType.STRATEGIC)
    assert caught.value.code == 415
    with pytest.raises(NotFound):
        ResourceClient(FakeClientset(tracker=tracker).rest, ResourceInfo("example.com", "v1", "gadgets", True, "Gadget"), "ns", DictCodec()).list()


def test_a_write_that_changes_only_a_json_type_is_a_write() -> None:
    """A merge patch from ``1`` to ``true`` (or ``1.0``) changes the object on the apiserver; the
    fake used to compare with Python's ``==`` (``1 == True == 1.0``) and skip the write. A custom
    resource's ``1.0`` is a change from ``1`` (a float64 against the stored int64) but is written
    back as ``1``, so patching ``1`` next is no write (tests/integration/test_fake_vs_server_writes.py
    pins both against the apiserver)."""
    widgets = ResourceInfo("example.com", "v1", "widgets", True, "Widget")
    client = ResourceClient(FakeClientset(tracker=ObjectTracker([widgets])).rest, widgets, "ns", DictCodec("example.com/v1", "Widget"))
    created = client.create({"metadata": {"name": "w"}, "spec": {"on": 1}})
    for value, answered in ((True, True), (1.0, 1), (False, False), (1, 1)):
        patched = client.patch("w", {"spec": {"on": value}})
        assert patched["spec"]["on"] is answered or (patched["spec"]["on"] == answered and type(patched["spec"]["on"]) is int)
        assert patched["metadata"]["resourceVersion"] != created["metadata"]["resourceVersion"]
        assert patched["metadata"]["generation"] == created["metadata"]["generation"] + 1
        created = patched
    assert client.patch("w", {"spec": {"on": 1}})["metadata"]["resourceVersion"] == created["metadata"]["resourceVersion"]


def test_watch_from_another_thread_sees_writes_and_stops_when_closed() -> None:
    cs = FakeClientset()
    cms = cs.core_v1.config_maps("ns")
    seen: list[str] = []
    started = threading.Event()
    stream = cms.watch(resource_version=cs.tracker.resource_version)

    def watch() -> None:
        started.set()
        with closing(stream):
            for event in stream:
                seen.append(str(event.object.metadata.name))
                if len(seen) == 20:
                    return

    thread = threading.Thread(target=watch)
    thread.start()
    started.wait()
    writers = [threading.Thread(target=lambda i=i: [cms.create(cm(f"w{i}-{j}")) for j in range(5)]) for i in range(4)]
    for w in writers:
        w.start()
    for w in writers:
        w.join()
    thread.join(timeout=10)
    assert not thread.is_alive()
    assert sorted(seen) == sorted(f"w{i}-{j}" for i in range(4) for j in range(5))
    assert cs.tracker.resource_version == "20"


def test_async_watch_is_woken_by_a_write_and_bookmarks_arrive_periodically() -> None:
    tracker = ObjectTracker(RESOURCES, bookmark_interval=0.2)
    sync = FakeClientset(cm("seed"), tracker=tracker)

    async def main() -> list[str]:
        acs = AsyncFakeClientset(tracker=tracker)
        types: list[str] = []
        loop = asyncio.get_running_loop()
        loop.call_later(0.1, lambda: threading.Thread(target=lambda: sync.core_v1.config_maps("ns").create(cm("a"))).start())
        async for event in acs.core_v1.config_maps("ns").watch(
            resource_version=tracker.resource_version, timeout_seconds=1, bookmarks=True
        ):
            types.append(event.type)
        await acs.close()
        return types

    started = time.monotonic()
    types = asyncio.run(main())
    assert types[0] == "ADDED" and types.count("BOOKMARK") >= 3
    assert time.monotonic() - started < 3


def test_idle_watch_hits_the_read_timeout() -> None:
    cs = FakeClientset()
    with pytest.raises(httpx.ReadTimeout):
        list(cs.core_v1.config_maps("ns").watch(idle_timeout=0.2, resource_version="1"))


def test_unstructured_clients_share_the_transport() -> None:
    cs = FakeClientset(cm("a", x="1"))
    client = ResourceClient(cs.rest, ResourceInfo("", "v1", "configmaps", True, "ConfigMap"), "ns", DictCodec("v1", "ConfigMap"))
    assert client.get("a")["data"] == {"x": "1"}


def test_a_resource_without_status_subresource_takes_status_from_main_writes() -> None:
    widgets = ResourceInfo("example.com", "v1", "widgets", True, "Widget")
    tracker = ObjectTracker([widgets], status_subresources=[])
    client = ResourceClient(FakeClientset(tracker=tracker).rest, widgets, "ns", DictCodec("example.com/v1", "Widget"))
    created = client.create({"metadata": {"name": "w"}, "spec": {"size": 1}, "status": {"ready": False}})
    assert created["status"] == {"ready": False}
    created["status"] = {"ready": True}
    assert client.update(created)["status"] == {"ready": True}
    with pytest.raises(NotFound):
        client.update_status(created)


def test_leaving_an_async_watch_early_closes_it() -> None:
    cs = FakeClientset(cm("a"))

    async def main() -> str:
        acs = AsyncFakeClientset(tracker=cs.tracker)
        async for event in acs.core_v1.config_maps("ns").watch(resource_version="0"):
            name = str(event.object.metadata.name)
            break
        await acs.close()
        return name

    assert asyncio.run(asyncio.wait_for(main(), 5)) == "a"
