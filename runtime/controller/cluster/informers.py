"""One kind's informers in the manager's cache, and reads from them (controller-runtime's
internal/informers.go, multi_namespace_cache.go and internal/cache_reader.go, both flavours).

A kind is cached by one informer for every namespace, or, when its options name namespaces, one
informer per namespace, as controller-runtime's multiNamespaceCache does. ``KindInformers``
hides which: a controller's source adds its handlers to each informer (one registration, synced
when all are), an index is added to each, and a read goes to the informer of its namespace, a read
across namespaces to each in turn (sorted by namespace). A read in a namespace the kind is not
cached in is an error in controller-runtime's words ("unable to get: <ns>/<name> because of
unknown namespace for the cache", "unable to list: <ns> because ..."), never an empty answer.

A kind is cached whole, or as PartialObjectMetadata when asked ``only_metadata`` (controller-
runtime's metadata informers, kgen's ``kgen.runtime.metadata`` ones): the same informer, listing
and watching through the metadata client, with the model's package's PartialObjectMetadata
(``<package>.metadata.CODEC``).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any, Generic, TypeVar

from kgen.runtime.apimachinery.labels import parse
from kgen.runtime.apimachinery.meta import labels_of
from kgen.runtime.apimachinery.model import Model
from kgen.runtime.apimachinery.schema import GroupVersionResource
from kgen.runtime.controller.cluster.field_index import by_fields, exact_fields
from kgen.runtime.controller.cluster.options import KindConfig
from kgen.runtime.controller.cluster.scheme import Resource
from kgen.runtime.gentype.client import AsyncResourceClient, ResourceClient
from kgen.runtime.metadata.client import AsyncMetadataResourceClient, MetadataResourceClient
from kgen.runtime.metadata.codec import MetadataCodec
from kgen.runtime.rest.client import AsyncRESTClient, RESTClient
from kgen.runtime.tools.cache.delta_fifo import DeletedFinalStateUnknown
from kgen.runtime.tools.cache.listers import Lister
from kgen.runtime.tools.cache.shared_informer import AsyncSharedIndexInformer, HandlerRegistration, SharedIndexInformer
from kgen.runtime.tools.cache.store import IndexFunc
from kgen.runtime.tools.cache.transform import default_transform

__all__ = ["InformerT", "KindInformers", "UnknownNamespaceError", "metadata_codec_for", "new_async_informer", "new_informer"]

InformerT = TypeVar("InformerT", SharedIndexInformer[Any], AsyncSharedIndexInformer[Any])
"""The informer type of a cache's flavour."""


class UnknownNamespaceError(LookupError):
    """A cached read in a namespace the kind is not cached in (the cache's options name others)."""


def metadata_codec_for(model: type[Model]) -> MetadataCodec[Any, Any]:
    """The PartialObjectMetadata codec of ``model``'s generated package (``<package>.metadata``)."""
    package = model.__module__.rpartition(".models.")[0]
    codec = getattr(importlib.import_module(f"{package}.metadata"), "CODEC", None)
    if not isinstance(codec, MetadataCodec):
        raise TypeError(f"{package}.metadata has no PartialObjectMetadata CODEC: regenerate {package}")
    return codec


def _client_args(resource: Resource[Any], only_metadata: bool) -> tuple[Any, Any]:
    info = resource.info
    if only_metadata:
        return GroupVersionResource(info.group, info.version, info.plural), metadata_codec_for(resource.model)
    return info, resource.codec


def new_informer(
    rest: RESTClient, resource: Resource[Any], only_metadata: bool, namespace: str | None, config: KindConfig, resync: float
) -> SharedIndexInformer[Any]:
    """A thread informer of ``resource`` (in ``namespace``, or every one), with ``config``'s selectors
    and transform."""
    what, codec = _client_args(resource, only_metadata)
    client: Any = (MetadataResourceClient(rest, what, namespace, codec) if only_metadata
                   else ResourceClient(rest, what, namespace, codec))
    return SharedIndexInformer(client, resync, list_options=config.list_options,
                               transform=config.transform or default_transform)


def new_async_informer(
    rest: AsyncRESTClient, resource: Resource[Any], only_metadata: bool, namespace: str | None, config: KindConfig,
    resync: float,
) -> AsyncSharedIndexInformer[Any]:
    """``new_informer`` on asyncio."""
    what, codec = _client_args(resource, only_metadata)
    client: Any = (AsyncMetadataResourceClient(rest, what, namespace, codec) if only_metadata
                   else AsyncResourceClient(rest, what, namespace, codec))
    return AsyncSharedIndexInformer(client, resync, list_options=config.list_options,
                                    transform=config.transform or default_transform)


class MultiNamespaceRegistration(HandlerRegistration):
    """The registration of one handler on each namespace's informer: synced when every one is."""

    def __init__(self, registrations: list[HandlerRegistration]) -> None:
        self._registrations = registrations

    def has_synced(self) -> bool:
        """Whether every namespace's informer has handed the handler its first list."""
        return all(r.has_synced() for r in self._registrations)

    def remove(self) -> None:
        """Remove the handler from every namespace's informer."""
        for registration in self._registrations:
            registration.remove()


class KindInformers(Generic[InformerT]):
    """One kind's informers (by namespace; '' for one informer of every namespace) and reads."""

    def __init__(self, resource: Resource[Any], only_metadata: bool, config: KindConfig, informers: dict[str, InformerT]) -> None:
        self.resource, self.only_metadata, self.config = resource, only_metadata, config
        self.informers: dict[str, InformerT] = informers

    @property
    def kind(self) -> str:
        """The kind's name, for messages."""
        return self.resource.model.__name__

    # -- what a controller's source and the cache need --------------------------------------

    def add_event_handler(
        self,
        on_add: Callable[[Any], object] | None = None,
        on_update: Callable[[Any, Any], object] | None = None,
        on_delete: Callable[[Any | DeletedFinalStateUnknown[Any]], object] | None = None,
        *,
        resync_period: float | None = None,
    ) -> HandlerRegistration:
        """Add the handlers to each informer (controller-runtime's multiNamespaceInformer)."""
        registrations: list[HandlerRegistration] = [
            i.add_event_handler(on_add, on_update, on_delete, resync_period=resync_period) for i in self.informers.values()]
        return registrations[0] if len(registrations) == 1 else MultiNamespaceRegistration(registrations)

    def add_indexers(self, indexers: dict[str, IndexFunc]) -> None:
        """Add index functions to each informer (the objects already cached are indexed at once)."""
        for informer in self.informers.values():
            informer.add_indexers(indexers)

    def has_synced(self) -> bool:
        """Whether every informer of the kind has synced."""
        return all(i.has_synced() for i in self.informers.values())

    # -- reads ----------------------------------------------------------------------------

    def _lister(self, informer: InformerT) -> Lister[Any]:
        return Lister(informer.indexer, self.resource.info.plural, self.resource.namespaced)

    def _restricted(self) -> bool:
        return self.config.namespaces is not None

    def get(self, name: str, namespace: str | None) -> Any:
        """The cached object (``NotFound`` as the server would answer)."""
        if not self.resource.namespaced:
            if namespace:
                raise ValueError(f"{self.kind} is cluster-scoped: no namespace")
            return self._lister(self.informers[""]).get(name)
        if not namespace:
            raise ValueError(f"{self.kind} is namespaced: give the namespace of {name!r}")
        informer = self.informers.get(namespace if self._restricted() else "")
        if informer is None:
            raise UnknownNamespaceError(f"unable to get: {namespace}/{name} because of unknown namespace for the cache")
        return self._lister(informer).namespaced(namespace).get(name)

    def list(
        self, namespace: str | None, label_selector: str | object | None, matching_labels: Mapping[str, str] | None,
        matching_fields: Mapping[str, str] | None, field_selector: str | object | None = None,
    ) -> list[Any]:
        """The cached objects (in ``namespace``, else every cached one) matching the label selector
        and the indexed fields (``matching_fields``, or an exact ``field_selector``)."""
        if field_selector is not None:
            if matching_fields is not None:
                raise ValueError("give field_selector or matching_fields, not both")
            matching_fields = exact_fields(field_selector)
        if matching_labels is not None:
            if label_selector is not None:
                raise ValueError("give label_selector or matching_labels, not both")
            label_selector = ",".join(f"{k}={v}" for k, v in sorted(matching_labels.items()))
        namespace = namespace if self.resource.namespaced else None
        if namespace and self._restricted():
            informer = self.informers.get(namespace)
            if informer is None:
                raise UnknownNamespaceError(f"unable to list: {namespace} because of unknown namespace for the cache")
            informers: list[InformerT] = [informer]
        else:
            informers = [self.informers[ns] for ns in sorted(self.informers)]
        match = parse(label_selector)
        found: list[Any] = []
        for informer in informers:
            if matching_fields is not None:
                candidates = by_fields(informer.indexer, matching_fields, namespace or "", self.kind, self.only_metadata)
                found += [obj for obj in candidates if match(labels_of(obj))]
            elif namespace:
                found += self._lister(informer).namespaced(namespace).list(label_selector)
            else:
                found += self._lister(informer).list(label_selector)
        return found
