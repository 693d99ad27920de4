"""The asyncio manager's cache: ``Cache`` (cache.py) over an ``AsyncSharedInformerFactory``.

The same rules — one informer per model class, started with the manager on every replica, a
new type's informer started and waited for on first read, cached objects never to be changed —
with the informers' work on the manager's event loop. ``get``/``list`` are awaited only because
a first read may wait for a new informer's sync; a read of a synced type does no I/O.
"""

from __future__ import annotations

import threading
from typing import Any, TypeVar

from kgen.runtime.apimachinery.model import Model
from kgen.runtime.controller.cache import DEFAULT_CACHE_SYNC_TIMEOUT, CacheSyncTimeout, get_from, list_from
from kgen.runtime.controller.scheme import resource_for
from kgen.runtime.rest.client import AsyncRESTClient
from kgen.runtime.tools.cache.informer_factory import AsyncSharedInformerFactory
from kgen.runtime.tools.cache.listers import Lister
from kgen.runtime.tools.cache.shared_informer import AsyncSharedIndexInformer

__all__ = ["AsyncCache"]

T = TypeVar("T", bound=Model)


class AsyncCache:
    def __init__(
        self, rest: AsyncRESTClient, *, namespace: str | None = None, resync: float = 0.0,
        sync_timeout: float = DEFAULT_CACHE_SYNC_TIMEOUT,
    ) -> None:
        self.factory = AsyncSharedInformerFactory(rest, resync=resync, namespace=namespace)
        self.namespace = namespace
        self.sync_timeout = sync_timeout
        self._lock = threading.Lock()
        self._started = False
        self._informers: dict[type[Any], AsyncSharedIndexInformer[Any]] = {}

    def informer_for(self, model: type[T]) -> AsyncSharedIndexInformer[T]:
        with self._lock:
            informer = self._informers.get(model)
            if informer is None:
                resource = resource_for(model)
                informer = self._informers[model] = self.factory.for_resource(resource.info, resource.codec)
            typed: AsyncSharedIndexInformer[T] = informer
            return typed

    def lister_for(self, model: type[T]) -> Lister[T]:
        resource = resource_for(model)
        return Lister(self.informer_for(model).indexer, resource.info.plural, resource.info.namespaced)

    def start(self) -> None:
        """Starts the informers on the running loop."""
        with self._lock:
            self._started = True
        self.factory.start()

    def has_synced(self) -> bool:
        with self._lock:
            informers = list(self._informers.values())
        return all(i.has_synced() for i in informers)

    async def stop(self) -> None:
        await self.factory.shutdown()

    async def _synced_lister(self, model: type[T]) -> Lister[T]:
        informer = self.informer_for(model)
        with self._lock:
            started = self._started
        if not started:
            raise RuntimeError(f"the cache is not started: {model.__name__} cannot be read from it yet")
        if not informer.has_synced() and not await informer.wait_for_cache_sync(timeout=self.sync_timeout):
            raise CacheSyncTimeout(f"the {model.__name__} informer did not sync within {self.sync_timeout:g}s")
        return self.lister_for(model)

    async def get(self, model: type[T], name: str, namespace: str | None = None) -> T:
        return get_from(await self._synced_lister(model), model, name, namespace)

    async def list(self, model: type[T], namespace: str | None = None, label_selector: str | object | None = None) -> list[T]:
        return list_from(await self._synced_lister(model), namespace, label_selector)
