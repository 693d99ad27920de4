"""The asyncio manager's cache: ``Cache`` (cache.py) with ``AsyncSharedIndexInformer``s.

The same rules — informers per model class made from ``CacheOptions``, started with the manager
on every replica, a new type's informer started and waited for on first read, field indexes,
metadata-only informers, cached objects never to be changed — with the informers' work on the
manager's event loop. ``get``/``list`` are awaited only because a first read may wait for a new
informer's sync; a read of a synced type does no I/O.
"""

from __future__ import annotations

import builtins
from collections.abc import Mapping
from typing import Any, TypeVar

from kgen.runtime.apimachinery.model import Model
from kgen.runtime.controller.cluster.cache import DEFAULT_CACHE_SYNC_TIMEOUT, CacheCore, cache_options
from kgen.runtime.controller.cluster.informers import KindInformers, new_async_informer
from kgen.runtime.controller.cluster.options import CacheOptions
from kgen.runtime.rest.client import AsyncRESTClient
from kgen.runtime.tools.cache.shared_informer import AsyncSharedIndexInformer, async_wait_for_cache_sync

__all__ = ["AsyncCache"]

T = TypeVar("T", bound=Model)


class AsyncCache(CacheCore[AsyncSharedIndexInformer[Any]]):
    """asyncio's ``Cache``: each model class's ``AsyncSharedIndexInformer``s, read by namespace,
    labels and indexed fields."""

    def __init__(
        self, rest: AsyncRESTClient, *, namespace: str | None = None, resync: float = 0.0,
        sync_timeout: float = DEFAULT_CACHE_SYNC_TIMEOUT, options: CacheOptions | None = None,
    ) -> None:
        super().__init__(cache_options(namespace, options), resync, sync_timeout)
        self.rest = rest

    def _new_informer(
        self, kind: KindInformers[AsyncSharedIndexInformer[Any]], namespace: str | None
    ) -> AsyncSharedIndexInformer[Any]:
        return new_async_informer(self.rest, kind.resource, kind.only_metadata, namespace, kind.config, self.resync)

    async def wait_for_cache_sync(self, timeout: float | None = None) -> bool:
        """Wait until every informer has synced (or ``timeout`` seconds pass); True if all did."""
        return await async_wait_for_cache_sync(self.has_synced, timeout=timeout)

    async def stop(self) -> None:
        """Shut the informers down and wait for them to stop; new ones are refused."""
        for informer in self._all_informers():
            await informer.stop()

    async def _synced(self, model: type[T], only_metadata: bool) -> KindInformers[AsyncSharedIndexInformer[Any]]:
        kind = self._started_kind(model, only_metadata)
        if not kind.has_synced() and not await async_wait_for_cache_sync(kind.has_synced, timeout=self.sync_timeout):
            raise self._sync_timeout(model)
        return kind

    async def get(self, model: type[T], name: str, namespace: str | None = None) -> T:
        """The cached object (NotFound as the server would answer); waits for a new informer's sync."""
        found: T = (await self._synced(model, False)).get(name, namespace)
        return found

    async def list(
        self, model: type[T], namespace: str | None = None, label_selector: str | object | None = None, *,
        matching_labels: Mapping[str, str] | None = None, matching_fields: Mapping[str, str] | None = None,
        field_selector: str | object | None = None,
    ) -> list[T]:
        """The cached objects of ``model`` (in ``namespace``, matching ``label_selector`` or
        ``matching_labels``, with each indexed field of ``matching_fields`` (or of an exact
        ``field_selector``) equal to its value, if given); waits for a new informer's sync."""
        return (await self._synced(model, False)).list(namespace, label_selector, matching_labels, matching_fields, field_selector)

    async def get_metadata(self, model: type[T], name: str, namespace: str | None = None) -> Any:
        """``get``, of the cached PartialObjectMetadata of ``model``'s object."""
        return (await self._synced(model, True)).get(name, namespace)

    async def list_metadata(
        self, model: type[T], namespace: str | None = None, label_selector: str | object | None = None, *,
        matching_labels: Mapping[str, str] | None = None, matching_fields: Mapping[str, str] | None = None,
        field_selector: str | object | None = None,
    ) -> builtins.list[Any]:
        """``list``, of the cached PartialObjectMetadata of ``model``'s objects."""
        return (await self._synced(model, True)).list(namespace, label_selector, matching_labels, matching_fields, field_selector)
