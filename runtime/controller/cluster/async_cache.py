"""The asyncio manager's cache: ``Cache`` (cache.py) over an ``AsyncSharedInformerFactory``.

The same rules — one informer per model class, started with the manager on every replica, a
new type's informer started and waited for on first read, cached objects never to be changed —
with the informers' work on the manager's event loop. ``get``/``list`` are awaited only because
a first read may wait for a new informer's sync; a read of a synced type does no I/O.
"""

from __future__ import annotations

from typing import Any, TypeVar

from kgen.runtime.apimachinery.model import Model
from kgen.runtime.controller.cluster.cache import DEFAULT_CACHE_SYNC_TIMEOUT, CacheCore, get_from, list_from
from kgen.runtime.rest.client import AsyncRESTClient
from kgen.runtime.tools.cache.informer_factory import AsyncSharedInformerFactory
from kgen.runtime.tools.cache.listers import Lister
from kgen.runtime.tools.cache.shared_informer import AsyncSharedIndexInformer

__all__ = ["AsyncCache"]

T = TypeVar("T", bound=Model)


class AsyncCache(CacheCore[AsyncSharedIndexInformer[Any]]):
    """asyncio's ``Cache``: one ``AsyncSharedIndexInformer`` per model class, read through listers."""

    factory: AsyncSharedInformerFactory

    def __init__(
        self, rest: AsyncRESTClient, *, namespace: str | None = None, resync: float = 0.0,
        sync_timeout: float = DEFAULT_CACHE_SYNC_TIMEOUT,
    ) -> None:
        super().__init__(AsyncSharedInformerFactory(rest, resync=resync, namespace=namespace), namespace, sync_timeout)

    async def stop(self) -> None:
        """Shut the informers down and wait for them to stop."""
        await self.factory.shutdown()

    async def _synced_lister(self, model: type[T]) -> Lister[T]:
        informer = self._started_informer(model)
        if not informer.has_synced() and not await informer.wait_for_cache_sync(timeout=self.sync_timeout):
            raise self._sync_timeout(model)
        return self.lister_for(model)

    async def get(self, model: type[T], name: str, namespace: str | None = None) -> T:
        """The cached object (NotFound as the server would answer); waits for a new informer's sync."""
        return get_from(await self._synced_lister(model), model, name, namespace)

    async def list(self, model: type[T], namespace: str | None = None, label_selector: str | object | None = None) -> list[T]:
        """The cached objects of ``model`` (in ``namespace``, matching ``label_selector``, if given);
        waits for a new informer's sync."""
        return list_from(await self._synced_lister(model), namespace, label_selector)
