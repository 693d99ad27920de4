"""client-go's ``metadata`` client: any resource, built-in or custom, read as PartialObjectMetadata.

    client = MetadataClient(rest, MetadataCodec(PartialObjectMetadata, PartialObjectMetadataList))
    pods = client.resource(GroupVersionResource("", "v1", "pods"))
    pods.namespace("default").list(label_selector="app=web")   # a PartialObjectMetadataList
    pods.list()                                                # every namespace
    client.resource(GroupVersionResource("", "v1", "nodes")).get("node-1")

A generated package binds the codec to its own models (``<package>.metadata.MetadataClient(config)``).
Like client-go's, the client knows no scope: ``resource(gvr)`` is cluster-wide (every namespace of a
namespaced resource), ``.namespace(ns)`` one namespace. Its verbs are client-go's metadata
``ResourceInterface``: get, list, watch, patch, delete, delete_collection, with the typed clients'
options, resourceVersion semantics and bookmark handling, since the requests are theirs
(``MetadataRequests``) and are sent by the same ``ResourceClient``; ``list_all`` and ``iter`` page
as the typed clients do. Delete returns nothing, as client-go's does: the object it would read is
a full one (no metadata Accept on a delete), which a metadata client has no use for.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator, Mapping
from typing import Any, Generic, Self, TypeVar

from kgen.runtime.apimachinery.model import Model
from kgen.runtime.apimachinery.schema import GroupVersionResource
from kgen.runtime.gentype.client import AsyncResourceClient, ResourceClient
from kgen.runtime.gentype.resource import DEFAULT_PAGE_SIZE, WATCH_IDLE_TIMEOUT, PatchType, PropagationPolicy, ResourceInfo
from kgen.runtime.gentype.watch import AsyncWatchStream, WatchStream
from kgen.runtime.metadata.codec import MetadataCodec
from kgen.runtime.metadata.requests import MetadataRequests
from kgen.runtime.rest.client import AsyncRESTClient, RESTClient
from kgen.runtime.rest.watch import Bookmark, WatchDecoder, WatchEvent

T = TypeVar("T", bound=Model)
"""The partial object model (PartialObjectMetadata)."""
L = TypeVar("L", bound=Model)
"""The partial object list model (PartialObjectMetadataList)."""


def resource_info(gvr: GroupVersionResource) -> ResourceInfo:
    """client-go's metadata URLs: a namespace segment whenever a namespace is given (no scope is
    known, so the resource counts as namespaced), no kind (the objects are partial ones)."""
    return ResourceInfo(gvr.group, gvr.version, gvr.resource, namespaced=True)


class _Sync(ResourceClient[T, L]):
    """The typed clients' resource client, sending MetadataRequests; watch events decoded strictly."""

    def __init__(self, rest: RESTClient, gvr: GroupVersionResource, namespace: str | None, codec: MetadataCodec[T, L]) -> None:
        super().__init__(rest, resource_info(gvr), namespace, codec)
        self._req = MetadataRequests(resource_info(gvr), namespace, codec)
        self._events = codec.decode_event

    def open_watch(self, *, idle_timeout: float = WATCH_IDLE_TIMEOUT, **options: Any) -> WatchStream[T]:
        req = self._req.watch(idle_timeout, **options)
        req.stream = True
        return WatchStream(self._rest.send(req), WatchDecoder(self._events, req.describe()))

    def delete_only(self, name: str | None, *args: Any, **list_options: Any) -> None:
        self._rest.send(self._req.delete(name, *args, **list_options))


class _Async(AsyncResourceClient[T, L]):
    """``_Sync`` on asyncio."""

    def __init__(self, rest: AsyncRESTClient, gvr: GroupVersionResource, namespace: str | None, codec: MetadataCodec[T, L]) -> None:
        super().__init__(rest, resource_info(gvr), namespace, codec)
        self._req = MetadataRequests(resource_info(gvr), namespace, codec)
        self._events = codec.decode_event

    async def open_watch(self, *, idle_timeout: float = WATCH_IDLE_TIMEOUT, **options: Any) -> AsyncWatchStream[T]:
        req = self._req.watch(idle_timeout, **options)
        req.stream = True
        return AsyncWatchStream(await self._rest.send(req), WatchDecoder(self._events, req.describe()))

    async def delete_only(self, name: str | None, *args: Any, **list_options: Any) -> None:
        await self._rest.send(self._req.delete(name, *args, **list_options))


class MetadataResourceClient(Generic[T, L]):
    """client-go's metadata ``ResourceInterface``: one resource, one namespace or all of them."""

    def __init__(self, rest: RESTClient, gvr: GroupVersionResource, namespace: str | None, codec: MetadataCodec[T, L]) -> None:
        self.gvr, self._codec, self._rest = gvr, codec, rest
        self._client = _Sync(rest, gvr, namespace, codec)
        self._req = self._client._req  # the reflector names its resource from it

    def namespace(self, namespace: str) -> MetadataResourceClient[T, L]:
        """The same resource in ``namespace`` ("" for all namespaces)."""
        return MetadataResourceClient(self._rest, self.gvr, namespace or None, self._codec)

    def with_timeout(self, seconds: float | None) -> Self:
        """Every request but a watch bounded by ``seconds`` (as the typed clients' ``with_timeout``)."""
        other = type(self)(self._rest, self.gvr, self._req.namespace, self._codec)
        other._client = self._client.with_timeout(seconds)
        other._req = other._client._req
        return other

    def get(self, name: str, *, resource_version: str | None = None) -> T:
        """The object's metadata (``NotFound`` if it is not there)."""
        return self._client.get(name, resource_version=resource_version)

    def list(self, **options: Any) -> L:
        """One page: label_selector, field_selector, limit, continue_, resource_version, resource_version_match, timeout_seconds."""
        return self._client.list(**options)

    def list_all(self, *, page_size: int = DEFAULT_PAGE_SIZE, **options: Any) -> L:
        """Every item's metadata, fetched in pages; if the snapshot expires midway, one unpaged list."""
        return self._client.list_all(page_size=page_size, **options)

    def iter(self, *, page_size: int = DEFAULT_PAGE_SIZE, allow_inconsistent: bool = False, **options: Any) -> Iterator[T]:
        """Items' metadata page by page; an expired continue token raises ``Expired`` unless
        ``allow_inconsistent``."""
        return self._client.iter(page_size=page_size, allow_inconsistent=allow_inconsistent, **options)

    def watch(
        self, *, idle_timeout: float = WATCH_IDLE_TIMEOUT, bookmarks: bool = False, **options: Any
    ) -> Iterator[WatchEvent[T] | Bookmark]:
        """Events of partial objects from resource_version on; ``Bookmark`` events too with
        ``bookmarks=True``."""
        return self._client.watch(idle_timeout=idle_timeout, bookmarks=bookmarks, **options)

    def open_watch(self, *, idle_timeout: float = WATCH_IDLE_TIMEOUT, **options: Any) -> WatchStream[T]:
        """The same watch as a ``WatchStream``, which another thread can ``stop()``."""
        return self._client.open_watch(idle_timeout=idle_timeout, **options)

    def is_watch_list_semantics_unsupported(self) -> bool:
        """client-go's IsWatchListSemanticsUnSupported: True behind a fake clientset."""
        return self._client.is_watch_list_semantics_unsupported()

    def patch(self, name: str, patch: Any, patch_type: PatchType = PatchType.MERGE, *, subresource: str | None = None, **options: Any) -> T:
        """Any patch type the server takes for the resource (client-go passes it through)."""
        return self._client.patch(name, patch, patch_type, subresource=subresource, **options)

    def delete(
        self, name: str, *, propagation_policy: PropagationPolicy | str | None = None,
        grace_period_seconds: int | None = None, preconditions: Mapping[str, str] | None = None, dry_run: bool = False,
    ) -> None:
        """Delete object ``name``; the answer is not decoded (client-go's metadata client returns only
        the error)."""
        self._client.delete_only(name, propagation_policy, grace_period_seconds, preconditions, dry_run)

    def delete_collection(
        self, *, propagation_policy: PropagationPolicy | str | None = None, grace_period_seconds: int | None = None,
        dry_run: bool = False, **list_options: Any,
    ) -> None:
        """Delete every object matching ``list_options`` (selectors)."""
        self._client.delete_only(None, propagation_policy, grace_period_seconds, None, dry_run, **list_options)


class AsyncMetadataResourceClient(Generic[T, L]):
    """``MetadataResourceClient`` on asyncio: the same verbs, awaited."""

    def __init__(self, rest: AsyncRESTClient, gvr: GroupVersionResource, namespace: str | None, codec: MetadataCodec[T, L]) -> None:
        self.gvr, self._codec, self._rest = gvr, codec, rest
        self._client = _Async(rest, gvr, namespace, codec)
        self._req = self._client._req

    def namespace(self, namespace: str) -> AsyncMetadataResourceClient[T, L]:
        """The same resource in ``namespace`` ("" for all namespaces)."""
        return AsyncMetadataResourceClient(self._rest, self.gvr, namespace or None, self._codec)

    def with_timeout(self, seconds: float | None) -> Self:
        """Every request but a watch bounded by ``seconds`` (as the typed clients' ``with_timeout``)."""
        other = type(self)(self._rest, self.gvr, self._req.namespace, self._codec)
        other._client = self._client.with_timeout(seconds)
        other._req = other._client._req
        return other

    async def get(self, name: str, *, resource_version: str | None = None) -> T:
        """The object's metadata (``NotFound`` if it is not there)."""
        return await self._client.get(name, resource_version=resource_version)

    async def list(self, **options: Any) -> L:
        """One page: label_selector, field_selector, limit, continue_, resource_version,
        resource_version_match, timeout_seconds."""
        return await self._client.list(**options)

    async def list_all(self, *, page_size: int = DEFAULT_PAGE_SIZE, **options: Any) -> L:
        """Every item's metadata, fetched in pages; if the snapshot expires midway, one unpaged list."""
        return await self._client.list_all(page_size=page_size, **options)

    def iter(self, *, page_size: int = DEFAULT_PAGE_SIZE, allow_inconsistent: bool = False, **options: Any) -> AsyncIterator[T]:
        """Items' metadata page by page (``async for``); an expired continue token raises ``Expired``
        unless ``allow_inconsistent``."""
        return self._client.iter(page_size=page_size, allow_inconsistent=allow_inconsistent, **options)

    def watch(
        self, *, idle_timeout: float = WATCH_IDLE_TIMEOUT, bookmarks: bool = False, **options: Any
    ) -> AsyncIterator[WatchEvent[T] | Bookmark]:
        """Events of partial objects from resource_version on (``async for``); ``Bookmark`` events too
        with ``bookmarks=True``."""
        return self._client.watch(idle_timeout=idle_timeout, bookmarks=bookmarks, **options)

    async def open_watch(self, *, idle_timeout: float = WATCH_IDLE_TIMEOUT, **options: Any) -> AsyncWatchStream[T]:
        """The same watch as an ``AsyncWatchStream``, which another task can ``stop()``."""
        return await self._client.open_watch(idle_timeout=idle_timeout, **options)

    def is_watch_list_semantics_unsupported(self) -> bool:
        """client-go's IsWatchListSemanticsUnSupported: True behind a fake clientset."""
        return self._client.is_watch_list_semantics_unsupported()

    async def patch(self, name: str, patch: Any, patch_type: PatchType = PatchType.MERGE, *, subresource: str | None = None,
                    **options: Any) -> T:
        """Patch object ``name`` (or its ``subresource``); returns its metadata."""
        return await self._client.patch(name, patch, patch_type, subresource=subresource, **options)

    async def delete(
        self, name: str, *, propagation_policy: PropagationPolicy | str | None = None,
        grace_period_seconds: int | None = None, preconditions: Mapping[str, str] | None = None, dry_run: bool = False,
    ) -> None:
        """Delete object ``name``; the answer is not decoded (client-go's metadata client returns only
        the error)."""
        await self._client.delete_only(name, propagation_policy, grace_period_seconds, preconditions, dry_run)

    async def delete_collection(
        self, *, propagation_policy: PropagationPolicy | str | None = None, grace_period_seconds: int | None = None,
        dry_run: bool = False, **list_options: Any,
    ) -> None:
        """Delete every object matching ``list_options`` (selectors)."""
        await self._client.delete_only(None, propagation_policy, grace_period_seconds, None, dry_run, **list_options)


class MetadataClient(Generic[T, L]):
    """client-go's ``metadata.Client``: ``resource(gvr)`` for any resource the server serves."""

    def __init__(self, rest: RESTClient, codec: MetadataCodec[T, L]) -> None:
        self.rest = rest
        self.codec = codec

    def resource(self, gvr: GroupVersionResource) -> MetadataResourceClient[T, L]:
        """A client of resource ``gvr``, in all namespaces (``.namespace(ns)`` narrows it)."""
        return MetadataResourceClient(self.rest, gvr, None, self.codec)

    def close(self) -> None:
        """Close the REST client's connections."""
        self.rest.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class AsyncMetadataClient(Generic[T, L]):
    """``MetadataClient`` on asyncio."""

    def __init__(self, rest: AsyncRESTClient, codec: MetadataCodec[T, L]) -> None:
        self.rest = rest
        self.codec = codec

    def resource(self, gvr: GroupVersionResource) -> AsyncMetadataResourceClient[T, L]:
        """A client of resource ``gvr``, in all namespaces (``.namespace(ns)`` narrows it)."""
        return AsyncMetadataResourceClient(self.rest, gvr, None, self.codec)

    async def close(self) -> None:
        """Close the REST client's connections."""
        await self.rest.close()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()
