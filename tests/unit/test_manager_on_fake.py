"""A Manager (and an AsyncManager) run on a fake clientset's in-memory apiserver through
``transport=``: the cache syncs from it (list and watch, as on client-go's fakes), controllers
reconcile what the test writes, their writes land in the tracker, and leader election takes a
Lease there. A controller's unit test without a cluster."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable

import msgspec

from kgen.kubernetes.fake import AsyncFakeClientset, FakeClientset
from kgen.kubernetes.models.core.v1 import ConfigMap
from kgen.kubernetes.models.meta.v1 import ObjectMeta
from kgen.runtime.controller import (AsyncClient, AsyncManager, Client, Manager, Request, Result,
                                     async_controller_managed_by, controller_managed_by)

MARK = "kgen.dev/seen"


def _cm(name: str) -> ConfigMap:
    return ConfigMap(metadata=ObjectMeta(name=name, namespace="ns"), data={"k": "v"})


def _marked(cs: FakeClientset, name: str) -> bool:
    meta = cs.core_v1.config_maps("ns").get(name).metadata
    return meta is not None and (meta.annotations or {}).get(MARK) == "yes"


def _eventually(probe: Callable[[], bool], timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not probe():
        assert time.monotonic() < deadline, "condition not met in time"
        time.sleep(0.05)


class Marker:
    """Annotates every ConfigMap it reconciles (read from the cache, written to the server)."""

    def __init__(self, client: Client) -> None:
        self.client = client

    def reconcile(self, request: Request) -> Result | None:
        cm = self.client.get(ConfigMap, request.name, request.namespace)
        meta = cm.metadata or ObjectMeta()
        if (meta.annotations or {}).get(MARK) != "yes":
            annotated = msgspec.structs.replace(meta, annotations={**(meta.annotations or {}), MARK: "yes"})
            self.client.update(msgspec.structs.replace(cm, metadata=annotated))
        return None


def test_a_manager_runs_its_controllers_on_the_fake() -> None:
    cs = FakeClientset(_cm("seeded"))
    manager = Manager(cs.config, transport=cs.tracker.transport(), namespace="ns", leader_election=True,
                      leader_election_id="marker", leader_election_namespace="ns")
    controller_managed_by(manager).for_(ConfigMap).complete(Marker(manager.client))
    runner = threading.Thread(target=manager.start)
    runner.start()
    try:
        _eventually(lambda: _marked(cs, "seeded"))
        cs.core_v1.config_maps("ns").create(_cm("later"))
        _eventually(lambda: _marked(cs, "later"))
        lease = cs.coordination_v1.leases("ns").get("marker")
        assert lease.spec is not None and lease.spec.holder_identity == manager.identity
    finally:
        manager.stop()
        runner.join(30)
    assert not runner.is_alive()
    updates = [(a.verb, a.name) for a in cs.actions() if a.resource == "configmaps" and a.verb == "update"]
    assert sorted(updates) == [("update", "later"), ("update", "seeded")]
    lists = [a for a in cs.actions() if a.resource == "configmaps" and a.verb == "list"]
    assert lists and all("sendInitialEvents" not in a.params for a in lists)  # list and watch, no watch-list


class AsyncMarker:
    def __init__(self, client: AsyncClient) -> None:
        self.client = client

    async def reconcile(self, request: Request) -> Result | None:
        cm = await self.client.get(ConfigMap, request.name, request.namespace)
        meta = cm.metadata or ObjectMeta()
        if (meta.annotations or {}).get(MARK) != "yes":
            annotated = msgspec.structs.replace(meta, annotations={**(meta.annotations or {}), MARK: "yes"})
            await self.client.update(msgspec.structs.replace(cm, metadata=annotated))
        return None


def test_an_async_manager_runs_on_the_fake_too() -> None:
    seeded = AsyncFakeClientset(_cm("seeded"))
    cs = FakeClientset(tracker=seeded.tracker)  # the same store, read synchronously by the test

    async def scenario() -> None:
        manager = AsyncManager(seeded.config, transport=seeded.tracker.async_transport(), namespace="ns")
        async_controller_managed_by(manager).for_(ConfigMap).complete(AsyncMarker(manager.client))
        task = asyncio.create_task(manager.start())
        try:
            for _ in range(400):
                if _marked(cs, "seeded"):
                    break
                await asyncio.sleep(0.05)
            assert _marked(cs, "seeded")
        finally:
            manager.stop()
            await asyncio.wait_for(task, 30)

    asyncio.run(scenario())
