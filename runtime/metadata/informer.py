"""client-go's ``metadata/metadatainformer``: shared informers of PartialObjectMetadata, any resource.

    factory = MetadataSharedInformerFactory(client, resync=0, namespace=None, tweak_list_options=None)
    pods = factory.for_resource(GroupVersionResource("", "v1", "pods"))
    pods.informer().add_event_handler(on_add=..., on_update=..., on_delete=...)
    factory.start(); factory.wait_for_cache_sync(timeout=30)
    pods.lister().namespaced("default").get("web")          # a PartialObjectMetadata
    factory.shutdown()

The informers are the typed ones (``SharedIndexInformer``/``AsyncSharedIndexInformer``: the same
reflector, DeltaFIFO, tombstones and handlers), listing and watching through the metadata client,
and the factory is the typed factories' core (``kgen.runtime.tools.cache.informer_factory``):
one informer per resource, every option applied to each. As in client-go, the factory's namespace
applies to every resource it is asked for (no scope is known: ask a cluster-scoped resource of a
factory without one), and ``lister().get(name)`` reads cluster-scoped keys while
``lister().namespaced(ns).get(name)`` reads a namespace's (client-go's metadatalister).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar

from kgen.runtime.apimachinery.model import Model
from kgen.runtime.apimachinery.schema import GroupVersionResource
from kgen.runtime.gentype.resource import Codec, ResourceInfo
from kgen.runtime.metadata.codec import MetadataCodec
from kgen.runtime.metadata.client import (
    AsyncMetadataClient,
    AsyncMetadataResourceClient,
    MetadataClient,
    MetadataResourceClient,
    resource_info,
)
from kgen.runtime.tools.cache.informer_factory import AsyncSharedInformerFactory, SharedInformerFactory, TweakListOptions
from kgen.runtime.tools.cache.listers import Lister
from kgen.runtime.tools.cache.shared_informer import AsyncSharedIndexInformer, SharedIndexInformer

T = TypeVar("T", bound=Model)
"""The partial object model."""
L = TypeVar("L", bound=Model)
"""The partial object list model."""


def _gvr(resource: ResourceInfo) -> GroupVersionResource:
    return GroupVersionResource(resource.group, resource.version, resource.plural)


def _metadata(codec: Codec[Any, Any]) -> MetadataCodec[Any, Any]:
    if not isinstance(codec, MetadataCodec):
        raise TypeError(f"a metadata informer decodes with a MetadataCodec, not {type(codec).__name__}")
    return codec


class _Factory(SharedInformerFactory):
    """The typed factory, its informers listing and watching through the metadata client."""

    def _new_informer(
        self, resource: ResourceInfo, namespace: str | None, codec: Codec[Any, Any], resync: float
    ) -> SharedIndexInformer[Any]:
        client: MetadataResourceClient[Any, Any] = MetadataResourceClient(self.rest, _gvr(resource), namespace, _metadata(codec))
        return SharedIndexInformer(client, resync, list_options=self.tweak_list_options, watch_list=self.watch_list)


class _AsyncFactory(AsyncSharedInformerFactory):
    def _new_informer(
        self, resource: ResourceInfo, namespace: str | None, codec: Codec[Any, Any], resync: float
    ) -> AsyncSharedIndexInformer[Any]:
        client: AsyncMetadataResourceClient[Any, Any] = AsyncMetadataResourceClient(
            self.rest, _gvr(resource), namespace, _metadata(codec)
        )
        return AsyncSharedIndexInformer(client, resync, list_options=self.tweak_list_options, watch_list=self.watch_list)


class _Lister(Generic[T]):
    gvr: GroupVersionResource

    def informer(self) -> SharedIndexInformer[T] | AsyncSharedIndexInformer[T]:
        raise NotImplementedError

    def lister(self) -> Lister[T]:
        """The informer's cache; not scoped: ``.get(name)`` reads cluster-scoped keys,
        ``.namespaced(ns)`` a namespace's (client-go's metadatalister)."""
        return Lister(self.informer().indexer, self.gvr.resource, namespaced=False)


class MetadataInformer(_Lister[T]):
    """client-go's GenericInformer of a metadata factory: ``informer()`` and ``lister()``."""

    def __init__(self, informer: SharedIndexInformer[T], gvr: GroupVersionResource) -> None:
        self._informer, self.gvr = informer, gvr

    def informer(self) -> SharedIndexInformer[T]:
        """The shared informer."""
        return self._informer


class AsyncMetadataInformer(_Lister[T]):
    """``MetadataInformer`` of the asyncio factory."""

    def __init__(self, informer: AsyncSharedIndexInformer[T], gvr: GroupVersionResource) -> None:
        self._informer, self.gvr = informer, gvr

    def informer(self) -> AsyncSharedIndexInformer[T]:
        """The shared informer."""
        return self._informer


class MetadataSharedInformerFactory(Generic[T, L]):
    """One shared metadata informer per resource; ``start``, ``wait_for_cache_sync``, ``shutdown``."""

    def __init__(
        self, client: MetadataClient[T, L], resync: float = 0.0, namespace: str | None = None,
        tweak_list_options: TweakListOptions | None = None, *, transform: Callable[[Any], Any] | None = None,
        watch_list: bool | None = None,
    ) -> None:
        self.client = client
        self._core = _Factory(
            client.rest, resync, namespace, tweak_list_options=tweak_list_options, transform=transform, watch_list=watch_list
        )

    def for_resource(self, gvr: GroupVersionResource) -> MetadataInformer[T]:
        """The informer of resource ``gvr`` (made on first request, shared after)."""
        return MetadataInformer(self._core.for_resource(resource_info(gvr), self.client.codec), gvr)

    def start(self) -> None:
        """Run every informer requested so far (and those requested later)."""
        self._core.start()

    def wait_for_cache_sync(self, timeout: float | None = None) -> dict[GroupVersionResource, bool]:
        """Waits for every started informer; returns each one's sync state by resource."""
        synced = self._core.wait_for_cache_sync(timeout)
        return {GroupVersionResource(*key): ok for key, ok in synced.items()}

    def shutdown(self) -> None:
        """Stop every informer."""
        self._core.shutdown()


class AsyncMetadataSharedInformerFactory(Generic[T, L]):
    """``MetadataSharedInformerFactory`` on asyncio: ``start()`` on a running loop; sync waits and shutdown awaited."""

    def __init__(
        self, client: AsyncMetadataClient[T, L], resync: float = 0.0, namespace: str | None = None,
        tweak_list_options: TweakListOptions | None = None, *, transform: Callable[[Any], Any] | None = None,
        watch_list: bool | None = None,
    ) -> None:
        self.client = client
        self._core = _AsyncFactory(
            client.rest, resync, namespace, tweak_list_options=tweak_list_options, transform=transform, watch_list=watch_list
        )

    def for_resource(self, gvr: GroupVersionResource) -> AsyncMetadataInformer[T]:
        """The informer of resource ``gvr`` (made on first request, shared after)."""
        return AsyncMetadataInformer(self._core.for_resource(resource_info(gvr), self.client.codec), gvr)

    def start(self) -> None:
        """Run every informer requested so far (and those requested later), on the running loop."""
        self._core.start()

    async def wait_for_cache_sync(self, timeout: float | None = None) -> dict[GroupVersionResource, bool]:
        """Waits for every started informer; returns each one's sync state by resource."""
        synced = await self._core.wait_for_cache_sync(timeout)
        return {GroupVersionResource(*key): ok for key, ok in synced.items()}

    async def shutdown(self) -> None:
        """Stop every informer."""
        await self._core.shutdown()

