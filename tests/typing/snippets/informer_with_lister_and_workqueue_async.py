"""The same controller on asyncio: coroutine handlers, the same lister types, an awaited queue."""

from __future__ import annotations

from typing import assert_type

from kgen.kubernetes import AsyncClientset
from kgen.kubernetes.informers.factory import AsyncSharedInformerFactory
from kgen.kubernetes.models.apps.v1 import Deployment
from kgen.runtime.tools.cache import DeletedFinalStateUnknown, meta_namespace_key
from kgen.runtime.util.workqueue import AsyncRateLimitingQueue, default_controller_rate_limiter


async def controller(acs: AsyncClientset) -> None:
    factory = AsyncSharedInformerFactory(acs)
    deployments = factory.apps_v1.deployments()
    queue: AsyncRateLimitingQueue[str] = AsyncRateLimitingQueue(default_controller_rate_limiter())

    async def on_add(d: Deployment) -> None:
        queue.add(meta_namespace_key(d))

    def on_update(old: Deployment, new: Deployment) -> None:
        queue.add(meta_namespace_key(new))

    def on_delete(obj: Deployment | DeletedFinalStateUnknown[Deployment]) -> None:
        queue.add(meta_namespace_key(obj))

    deployments.informer.add_event_handler(on_add=on_add, on_update=on_update, on_delete=on_delete)
    factory.start()
    await factory.wait_for_cache_sync(timeout=30)

    key, shutdown = await queue.get()
    if shutdown:
        return
    assert_type(key, str)
    namespace, name = key.split("/")
    deployment = deployments.lister.deployments(namespace).get(name)
    assert_type(deployment, Deployment)
    assert_type(deployments.lister.list(), list[Deployment])
    assert_type(deployments.informer.indexer.by_index("namespace", namespace), list[Deployment])
    queue.forget(key)
    queue.done(key)
    await factory.shutdown()
