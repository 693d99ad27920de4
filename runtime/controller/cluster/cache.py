"""The manager's cache: controller-runtime's informer cache (pkg/cache), kind by kind.

One informer per model class (per namespace when the cache's options name namespaces), made on
first request with the resource ``scheme.resource_for`` finds and the settings ``CacheOptions``
resolves for that kind (options.py: namespaces, server-side selectors, transform), so every
controller and the client share one list+watch per type. The cache starts with the manager on
every replica, leader or not (controller-runtime starts it outside leader election), so a
standby's cache is warm when it takes over. Reading a type no informer serves yet starts one, as
controller-runtime's cache does, and waits for it to sync.

Beside each kind's full objects, the cache can hold its PartialObjectMetadata alone
(``only_metadata=True``: ``informer_for``, ``index_field``, ``get_metadata``, ``list_metadata``),
as controller-runtime's cache does for ``metav1.PartialObjectMetadata`` (informers.py).
Field indexes (``index_field``; ``list(..., matching_fields=...)``) are field_index.py's.

Objects handed out are the cached ones: change a copy (``msgspec.structs.replace``), never the
object itself; controller-runtime deep-copies on every read instead, at a cost per read.
"""

from __future__ import annotations

import builtins
import dataclasses
import threading
from collections.abc import Iterable, Mapping
from typing import Any, Callable, Generic, TypeVar

from kgen.runtime.apimachinery.model import Model
from kgen.runtime.controller.cluster.field_index import field_index_func, field_index_name
from kgen.runtime.controller.cluster.informers import InformerT, KindInformers, new_informer
from kgen.runtime.controller.cluster.options import CacheOptions
from kgen.runtime.controller.cluster.scheme import resource_for
from kgen.runtime.rest.client import RESTClient
from kgen.runtime.tools.cache.shared_informer import SharedIndexInformer, wait_for_cache_sync

__all__ = ["Cache", "CacheSyncTimeout", "ResourceNotCachedError"]

T = TypeVar("T", bound=Model)

DEFAULT_CACHE_SYNC_TIMEOUT = 120.0
"""controller-runtime's default CacheSyncTimeout."""


class CacheSyncTimeout(TimeoutError):
    """A cache's informers did not sync within its ``sync_timeout``."""


class ResourceNotCachedError(LookupError):
    """A read of a kind the cache has no informer for, when its options say not to start one
    (controller-runtime's ErrResourceNotCached)."""


def cache_options(namespace: str | None, options: CacheOptions | None) -> CacheOptions:
    """The options of a cache given a manager's ``namespace`` (one namespace cached, as
    controller-runtime's DefaultNamespaces of one) and/or its ``CacheOptions``."""
    if not namespace:
        return options or CacheOptions()
    if options is None:
        return CacheOptions(namespaces=[namespace])
    if options.namespaces is not None and list(options.namespaces) != [namespace]:
        raise ValueError(f"namespace={namespace!r} and CacheOptions.namespaces={list(options.namespaces)!r}: give one")
    return dataclasses.replace(options, namespaces=[namespace])


class CacheCore(Generic[InformerT]):
    """What both flavours' caches share: each kind's informers (made on first use, started at once
    if the cache runs), field indexes, and the started/synced bookkeeping; a flavour makes the
    informers, starts, stops and waits."""

    def __init__(self, options: CacheOptions, resync: float, sync_timeout: float) -> None:
        self.options = options
        self.namespace = options.namespaces[0] if options.namespaces and len(options.namespaces) == 1 else None
        self.resync = resync
        self.sync_timeout = sync_timeout
        self._lock = threading.Lock()
        self._started = False
        self._stopped = False
        self._kinds: dict[tuple[type[Any], bool], KindInformers[InformerT]] = {}

    def _new_informer(self, kind: KindInformers[InformerT], namespace: str | None) -> InformerT:
        raise NotImplementedError

    def _start_informer(self, informer: InformerT) -> None:
        informer.start()

    def informer_for(self, model: type[T], *, only_metadata: bool = False) -> KindInformers[InformerT]:
        """The informers of ``model`` (its PartialObjectMetadata with ``only_metadata``): made on
        first request, started at once if the cache runs."""
        with self._lock:
            kind = self._kinds.get((model, only_metadata))
            if kind is not None:
                return kind
            if self._stopped:
                raise RuntimeError(f"the cache was stopped: no informer for {model.__name__}")
            resource = resource_for(model)
            config = self.options.for_kind(model)
            kind = KindInformers(resource, only_metadata, config, {})
            for namespace in config.namespaces or (None,):
                kind.informers[namespace or ""] = self._new_informer(kind, namespace)
            self._kinds[(model, only_metadata)] = kind
            if self._started:
                for informer in kind.informers.values():
                    self._start_informer(informer)
            return kind

    def index_field(
        self, model: type[T], field: str, extract: Callable[[Any], Iterable[str]], *, only_metadata: bool = False
    ) -> None:
        """controller-runtime's ``IndexField``: index ``model``'s cached objects by ``field``, the
        values ``extract`` returns for each (a list of strings), for ``list(...,
        matching_fields={field: value})``. Made before or after the cache starts."""
        self.informer_for(model, only_metadata=only_metadata).add_indexers(
            {field_index_name(field): field_index_func(extract)})

    def start(self) -> None:
        """Starts the informers (the asyncio flavour: on the running loop), and later ones as made."""
        with self._lock:
            self._started = True
            informers = [i for kind in self._kinds.values() for i in kind.informers.values()]
        for informer in informers:
            self._start_informer(informer)

    def has_synced(self) -> bool:
        """Whether every kind asked for so far has synced."""
        with self._lock:
            kinds = list(self._kinds.values())
        return all(k.has_synced() for k in kinds)

    def _all_informers(self) -> list[InformerT]:
        with self._lock:
            self._stopped = True
            return [i for kind in self._kinds.values() for i in kind.informers.values()]

    def _started_kind(self, model: type[T], only_metadata: bool) -> KindInformers[InformerT]:
        if self.options.reader_fail_on_missing_informer:
            with self._lock:
                missing = (model, only_metadata) not in self._kinds
            if missing:
                info = resource_for(model).info
                raise ResourceNotCachedError(
                    f"{info.group}/{info.version}, Kind={info.kind} is not cached: reader_fail_on_missing_informer is set "
                    f"and no controller watches {model.__name__}{' metadata' if only_metadata else ''} nor indexes it")
        kind = self.informer_for(model, only_metadata=only_metadata)
        with self._lock:
            started = self._started
        if not started:
            raise RuntimeError(f"the cache is not started: {model.__name__} cannot be read from it yet")
        return kind

    def _sync_timeout(self, model: type[T]) -> CacheSyncTimeout:
        return CacheSyncTimeout(f"the {model.__name__} informer did not sync within {self.sync_timeout:g}s")


class Cache(CacheCore[SharedIndexInformer[Any]]):
    """The manager's cache: each model class's ``SharedIndexInformer``s (made on first use), read
    by namespace, labels and indexed fields."""

    def __init__(
        self, rest: RESTClient, *, namespace: str | None = None, resync: float = 0.0,
        sync_timeout: float = DEFAULT_CACHE_SYNC_TIMEOUT, options: CacheOptions | None = None,
    ) -> None:
        super().__init__(cache_options(namespace, options), resync, sync_timeout)
        self.rest = rest

    def _new_informer(self, kind: KindInformers[SharedIndexInformer[Any]], namespace: str | None) -> SharedIndexInformer[Any]:
        return new_informer(self.rest, kind.resource, kind.only_metadata, namespace, kind.config, self.resync)

    def wait_for_cache_sync(self, timeout: float | None = None) -> bool:
        """Wait until every informer has synced (or ``timeout`` seconds pass); True if all did."""
        return wait_for_cache_sync(self.has_synced, timeout=timeout)

    def stop(self) -> None:
        """Shut the informers down, and refuse new ones."""
        for informer in self._all_informers():
            informer.stop()

    def _synced(self, model: type[T], only_metadata: bool) -> KindInformers[SharedIndexInformer[Any]]:
        kind = self._started_kind(model, only_metadata)
        if not kind.has_synced() and not wait_for_cache_sync(kind.has_synced, timeout=self.sync_timeout):
            raise self._sync_timeout(model)
        return kind

    def get(self, model: type[T], name: str, namespace: str | None = None) -> T:
        """The cached object (NotFound as the server would answer); waits for a new informer's sync."""
        found: T = self._synced(model, False).get(name, namespace)
        return found

    def list(
        self, model: type[T], namespace: str | None = None, label_selector: str | object | None = None, *,
        matching_labels: Mapping[str, str] | None = None, matching_fields: Mapping[str, str] | None = None,
        field_selector: str | object | None = None,
    ) -> list[T]:
        """The cached objects of ``model`` (in ``namespace``, matching ``label_selector`` or
        ``matching_labels``, with each indexed field of ``matching_fields`` (or of an exact
        ``field_selector``) equal to its value, if given); waits for a new informer's sync."""
        return self._synced(model, False).list(namespace, label_selector, matching_labels, matching_fields, field_selector)

    def get_metadata(self, model: type[T], name: str, namespace: str | None = None) -> Any:
        """``get``, of the cached PartialObjectMetadata of ``model``'s object."""
        return self._synced(model, True).get(name, namespace)

    def list_metadata(
        self, model: type[T], namespace: str | None = None, label_selector: str | object | None = None, *,
        matching_labels: Mapping[str, str] | None = None, matching_fields: Mapping[str, str] | None = None,
        field_selector: str | object | None = None,
    ) -> builtins.list[Any]:
        """``list``, of the cached PartialObjectMetadata of ``model``'s objects."""
        return self._synced(model, True).list(namespace, label_selector, matching_labels, matching_fields, field_selector)
