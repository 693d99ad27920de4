"""The AsyncManager (kgen.runtime.controller on asyncio) against the real apiserver: the
secret-mirror controller of tests/support/controller/secret_mirror.py with an async reconciler.
Create → the owned Secret and the finalizer; deleting the Secret re-enqueues its owner; deleting
the ConfigMap removes the finalizer; /metrics counts the reconciles; two AsyncManagers on one
Lease: only the leader reconciles."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import httpx
import pytest

from kgen.kubernetes import AsyncClientset
from kgen.kubernetes.models.core.v1 import ConfigMap, Secret
from kgen.kubernetes.models.meta.v1 import ObjectMeta
from kgen.runtime.apimachinery.errors import NotFound
from kgen.runtime.controller import AsyncManager, Request
from kgen.runtime.testing import KubeAPIServer
from tests.support.apiserver import async_wait_for, unthrottled_config
from tests.support.controller.secret_mirror import FINALIZER, LABEL, async_mirror_controller, mirror_name

pytestmark = pytest.mark.integration

@asynccontextmanager
async def running(manager: AsyncManager) -> AsyncIterator[asyncio.Task[None]]:
    task = asyncio.create_task(manager.start())
    try:
        yield task
    finally:
        manager.stop()
        await asyncio.wait_for(task, 60)


def labelled_cm(name: str, namespace: str) -> ConfigMap:
    return ConfigMap(metadata=ObjectMeta(name=name, namespace=namespace, labels={LABEL: "yes"}), data={"k": "v"})


async def secret_or_none(kube: AsyncClientset, namespace: str, name: str) -> Secret | None:
    try:
        return await kube.core_v1.secrets(namespace).get(name)
    except NotFound:
        return None


def test_async_manager_reconciles_owned_secrets_and_finalizers(kube_apiserver: KubeAPIServer, namespace: str) -> None:
    async def scenario() -> None:
        config = unthrottled_config(kube_apiserver)
        manager = AsyncManager(config, namespace=namespace, metrics_address="127.0.0.1:0")
        mirror = async_mirror_controller(manager)
        async with AsyncClientset(config) as kube, running(manager):
            cms = kube.core_v1.config_maps(namespace)
            cm = await cms.create(labelled_cm("app", namespace))
            secret = await async_wait_for(lambda: secret_or_none(kube, namespace, mirror_name("app")))
            assert cm.metadata is not None and secret is not None and secret.metadata is not None
            (ref,) = secret.metadata.owner_references or []
            assert (ref.name, ref.uid, ref.controller) == ("app", cm.metadata.uid, True)

            async def finalized() -> bool:
                c = await cms.get("app")
                return c.metadata is not None and FINALIZER in (c.metadata.finalizers or [])

            await async_wait_for(finalized)
            first_uid = secret.metadata.uid
            await kube.core_v1.secrets(namespace).delete(mirror_name("app"))

            async def recreated() -> bool:
                s = await secret_or_none(kube, namespace, mirror_name("app"))
                return s is not None and s.metadata is not None and s.metadata.uid != first_uid

            await async_wait_for(recreated)
            await cms.delete("app")

            async def gone() -> bool:
                try:
                    await cms.get("app")
                except NotFound:
                    return True
                return False

            await async_wait_for(gone)
            async with httpx.AsyncClient() as http:
                text = (await http.get(f"http://127.0.0.1:{manager.metrics_port}/metrics")).text
        assert Request(namespace, "app") in mirror.reconciled
        success = 'controller_runtime_reconcile_total{controller="configmap",result="success"} '
        assert any(line.startswith(success) and float(line.split()[-1]) >= 3 for line in text.splitlines()), text

    asyncio.run(scenario())


def test_two_async_managers_elect_one_leader(kube_apiserver: KubeAPIServer, namespace: str) -> None:
    lease = f"amirror-{uuid.uuid4().hex[:8]}"

    async def scenario() -> None:
        config = unthrottled_config(kube_apiserver)

        def manager(identity: str) -> AsyncManager:
            return AsyncManager(
                config, namespace=namespace, leader_election=True, leader_election_id=lease,
                leader_election_namespace=namespace, identity=identity, leader_election_release_on_cancel=True,
                lease_duration=4.0, renew_deadline=3.0, retry_period=0.5,
            )

        a, b = manager("a"), manager("b")
        mirror_a, mirror_b = async_mirror_controller(a), async_mirror_controller(b)
        async with AsyncClientset(config) as kube, running(a):
            await async_wait_for(lambda: asyncio.sleep(0, a.elected.is_set()))
            async with running(b):
                await kube.core_v1.config_maps(namespace).create(labelled_cm("one", namespace))
                await async_wait_for(lambda: secret_or_none(kube, namespace, mirror_name("one")))
                assert not b.elected.is_set() and mirror_b.reconciled == []
                assert Request(namespace, "one") in mirror_a.reconciled
                a.stop()
                await async_wait_for(lambda: asyncio.sleep(0, b.elected.is_set()))
                await kube.core_v1.config_maps(namespace).create(labelled_cm("two", namespace))
                await async_wait_for(lambda: secret_or_none(kube, namespace, mirror_name("two")))
                assert Request(namespace, "two") in mirror_b.reconciled

    asyncio.run(scenario())
