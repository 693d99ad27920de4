"""The asyncio manager's client: ``Client`` (client.py) with every call awaited — reads from the
``AsyncCache``, writes through the ``AsyncRESTClient``; ``api_reader`` reads the server."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast, overload

from kgen.runtime.apimachinery.meta import name_of, namespace_of
from kgen.runtime.apimachinery.model import Model
from kgen.runtime.controller.cluster.async_cache import AsyncCache
from kgen.runtime.controller.cluster.client import delete_all_of_options, scoped
from kgen.runtime.controller.cluster.patch import MergeFrom
from kgen.runtime.controller.cluster.scheme import resource_for
from kgen.runtime.gentype.client import AsyncResourceClient
from kgen.runtime.gentype.resource import PatchType, PropagationPolicy
from kgen.runtime.rest.client import AsyncRESTClient

__all__ = ["AsyncAPIReader", "AsyncClient"]

T = TypeVar("T", bound=Model)


def _resource_client(rest: AsyncRESTClient, model: type[T], namespace: str | None) -> AsyncResourceClient[T, Any]:
    resource, namespace = scoped(model, namespace)
    return AsyncResourceClient(rest, resource.info, namespace, resource.codec)


class AsyncAPIReader:
    """asyncio's ``APIReader``: reads straight from the server, bypassing the cache."""

    def __init__(self, rest: AsyncRESTClient) -> None:
        self._rest = rest

    async def get(self, model: type[T], name: str, namespace: str | None = None) -> T:
        """The object from the server (``NotFound`` if it is not there)."""
        return await _resource_client(self._rest, model, namespace).get(name)

    async def list(self, model: type[T], namespace: str | None = None, label_selector: str | None = None) -> list[T]:
        """Every object of ``model`` on the server (in ``namespace``, matching ``label_selector``), read
        page by page."""
        resource = resource_for(model)
        client = AsyncResourceClient(self._rest, resource.info, namespace if resource.namespaced else None, resource.codec)
        return [obj async for obj in client.iter(label_selector=label_selector)]


class AsyncClient:
    """asyncio's ``Client``: reads from ``cache``, writes through ``rest``."""

    def __init__(self, rest: AsyncRESTClient, cache: AsyncCache) -> None:
        self._rest = rest
        self.cache = cache
        self.api_reader = AsyncAPIReader(rest)

    async def get(self, model: type[T], name: str, namespace: str | None = None) -> T:
        """The object from the cache (``NotFound`` as the server would answer)."""
        return await self.cache.get(model, name, namespace)

    async def get_metadata(self, model: type[T], name: str, namespace: str | None = None) -> Any:
        """The cached PartialObjectMetadata of ``model``'s object (``Client.get_metadata``)."""
        return await self.cache.get_metadata(model, name, namespace)

    async def list_metadata(
        self, model: type[T], namespace: str | None = None, label_selector: str | object | None = None, *,
        matching_labels: Mapping[str, str] | None = None, matching_fields: Mapping[str, str] | None = None,
        field_selector: str | object | None = None,
    ) -> list[Any]:
        """``list``, of the cached PartialObjectMetadata of ``model``'s objects."""
        return await self.cache.list_metadata(
            model, namespace, label_selector, matching_labels=matching_labels, matching_fields=matching_fields,
            field_selector=field_selector)

    async def list(
        self, model: type[T], namespace: str | None = None, label_selector: str | object | None = None, *,
        matching_labels: Mapping[str, str] | None = None, matching_fields: Mapping[str, str] | None = None,
        field_selector: str | object | None = None,
    ) -> list[T]:
        """The cached objects of ``model`` (``Client.list``: namespace, labels, indexed fields)."""
        return await self.cache.list(
            model, namespace, label_selector, matching_labels=matching_labels, matching_fields=matching_fields,
            field_selector=field_selector)

    def _for(self, obj: T) -> AsyncResourceClient[T, Any]:
        return _resource_client(self._rest, type(obj), namespace_of(obj) or None)

    async def create(self, obj: T, *, field_manager: str | None = None) -> T:
        """Create ``obj`` on the server; returns what the server stored."""
        return await self._for(obj).create(obj, field_manager=field_manager)

    async def update(self, obj: T, *, field_manager: str | None = None) -> T:
        """Update ``obj`` on the server (a ``Conflict`` if its resourceVersion is stale); returns what
        was stored."""
        return await self._for(obj).update(obj, field_manager=field_manager)

    async def update_status(self, obj: T, *, field_manager: str | None = None) -> T:
        """Update ``obj``'s status subresource; returns what the server stored."""
        return await self._for(obj).update_status(obj, field_manager=field_manager)

    @overload
    async def patch(self, target: T, patch: MergeFrom, /, *, subresource: str | None = None) -> T: ...

    @overload
    async def patch(
        self, target: type[T], name: str, patch: Any, patch_type: PatchType = PatchType.MERGE,
        namespace: str | None = None, *, subresource: str | None = None,
    ) -> T: ...

    async def patch(
        self, target: type[T] | T, name: Any, patch: Any = None, patch_type: PatchType = PatchType.MERGE,
        namespace: str | None = None, *, subresource: str | None = None,
    ) -> T:
        """Patch the object ``name`` of ``model`` (a merge patch unless ``patch_type`` says otherwise),
        or its ``subresource``; returns the patched object. ``patch(obj, merge_from(original))``: the
        merge patch from ``original`` to ``obj`` (``Client.patch``)."""
        if isinstance(name, MergeFrom):
            obj, merge = cast(T, target), name
            return await self._for(obj).patch(name_of(obj), merge.data(obj), merge.patch_type, subresource=subresource)
        model = cast("type[T]", target)
        return await _resource_client(self._rest, model, namespace).patch(name, patch, patch_type, subresource=subresource)

    async def delete_all_of(
        self, model: type[Model], *, namespace: str | None = None, matching_labels: Mapping[str, str] | None = None,
        label_selector: str | object | None = None, matching_fields: Mapping[str, str] | None = None,
        field_selector: str | object | None = None, propagation_policy: PropagationPolicy | str | None = None,
        grace_period_seconds: int | None = None,
    ) -> None:
        """``Client.delete_all_of``: every object of ``model`` the selectors match, in ``namespace``,
        deleted with one DELETE of the collection."""
        await _resource_client(self._rest, model, namespace).delete_collection(
            propagation_policy=propagation_policy, grace_period_seconds=grace_period_seconds,
            **delete_all_of_options(matching_labels, label_selector, matching_fields, field_selector),
        )

    async def delete(self, obj: Model, *, propagation_policy: PropagationPolicy | str | None = None) -> None:
        """Delete ``obj`` (by its name and namespace), with ``propagation_policy`` if given."""
        name = getattr(getattr(obj, "metadata", None), "name", None)
        if not name:
            raise ValueError(f"cannot delete a {type(obj).__name__} without metadata.name")
        await _resource_client(self._rest, type(obj), namespace_of(obj) or None).delete(
            name, propagation_policy=propagation_policy
        )
