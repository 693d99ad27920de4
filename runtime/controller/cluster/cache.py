"""The manager's cache: controller-runtime's informer cache (pkg/cache) over one informer factory.

One shared informer per model class, made on first request through the generic
``SharedInformerFactory.for_resource`` with the resource ``scheme.resource_for`` finds, so every
controller and the client share one list+watch per type. The cache starts with the manager on
every replica, leader or not (controller-runtime starts it outside leader election), so a
standby's cache is warm when it takes over. Reading a type no informer serves yet starts one, as
controller-runtime's cache does, and waits for it to sync.

Objects handed out are the cached ones: change a copy (``msgspec.structs.replace``), never the
object itself; controller-runtime deep-copies on every read instead, at a cost per read.
"""

from __future__ import annotations

import threading
from typing import Any, Generic, TypeVar

from kgen.runtime.apimachinery.model import Model
from kgen.runtime.rest.client import RESTClient
from kgen.runtime.tools.cache.informer_factory import SharedInformerFactory, _FactoryCore
from kgen.runtime.tools.cache.listers import Lister
from kgen.runtime.tools.cache.shared_informer import AsyncSharedIndexInformer, SharedIndexInformer

from kgen.runtime.controller.cluster.scheme import resource_for

__all__ = ["Cache", "CacheSyncTimeout"]

T = TypeVar("T", bound=Model)

DEFAULT_CACHE_SYNC_TIMEOUT = 120.0
"""controller-runtime's default CacheSyncTimeout."""


class CacheSyncTimeout(TimeoutError):
    """A cache's informers did not sync within its ``sync_timeout``."""


I = TypeVar("I", SharedIndexInformer[Any], AsyncSharedIndexInformer[Any])


class CacheCore(Generic[I]):
    """What both flavours' caches share: one informer per model class from ``factory``, their
    listers, and the started/synced bookkeeping; only waiting for a sync differs."""

    def __init__(self, factory: _FactoryCore[Any, I], namespace: str | None, sync_timeout: float) -> None:
        self.factory: _FactoryCore[Any, I] = factory
        self.namespace = namespace
        self.sync_timeout = sync_timeout
        self._lock = threading.Lock()
        self._started = False
        self._informers: dict[type[Any], I] = {}

    def informer_for(self, model: type[T]) -> I:
        """The shared informer of ``model`` (started at once if the cache runs)."""
        with self._lock:
            informer = self._informers.get(model)
            if informer is None:
                resource = resource_for(model)
                informer = self._informers[model] = self.factory.for_resource(resource.info, resource.codec)
            return informer

    def lister_for(self, model: type[T]) -> Lister[T]:
        resource = resource_for(model)
        return Lister(self.informer_for(model).indexer, resource.info.plural, resource.info.namespaced)

    def start(self) -> None:
        """Starts the informers (the asyncio flavour: on the running loop)."""
        with self._lock:
            self._started = True
        self.factory.start()

    def has_synced(self) -> bool:
        with self._lock:
            informers = list(self._informers.values())
        return all(i.has_synced() for i in informers)

    def _started_informer(self, model: type[T]) -> I:
        informer = self.informer_for(model)
        with self._lock:
            started = self._started
        if not started:
            raise RuntimeError(f"the cache is not started: {model.__name__} cannot be read from it yet")
        return informer

    def _sync_timeout(self, model: type[T]) -> CacheSyncTimeout:
        return CacheSyncTimeout(f"the {model.__name__} informer did not sync within {self.sync_timeout:g}s")


class Cache(CacheCore[SharedIndexInformer[Any]]):
    """The manager's cache: one ``SharedIndexInformer`` per model class (made on first use), read
    through listers."""

    factory: SharedInformerFactory

    def __init__(
        self, rest: RESTClient, *, namespace: str | None = None, resync: float = 0.0,
        sync_timeout: float = DEFAULT_CACHE_SYNC_TIMEOUT,
    ) -> None:
        super().__init__(SharedInformerFactory(rest, resync=resync, namespace=namespace), namespace, sync_timeout)

    def wait_for_cache_sync(self, timeout: float | None = None) -> bool:
        """Wait until every informer has synced (or ``timeout`` seconds pass); True if all did."""
        return all(self.factory.wait_for_cache_sync(timeout=timeout).values())

    def stop(self) -> None:
        """Shut the informers down."""
        self.factory.shutdown()

    def _synced_lister(self, model: type[T]) -> Lister[T]:
        informer = self._started_informer(model)
        if not informer.has_synced() and not informer.wait_for_cache_sync(timeout=self.sync_timeout):
            raise self._sync_timeout(model)
        return self.lister_for(model)

    def get(self, model: type[T], name: str, namespace: str | None = None) -> T:
        """The cached object (NotFound as the server would answer); waits for a new informer's sync."""
        return get_from(self._synced_lister(model), model, name, namespace)

    def list(self, model: type[T], namespace: str | None = None, label_selector: str | object | None = None) -> list[T]:
        """The cached objects of ``model`` (in ``namespace``, matching ``label_selector``, if given);
        waits for a new informer's sync."""
        return list_from(self._synced_lister(model), namespace, label_selector)


def get_from(lister: Lister[T], model: type[T], name: str, namespace: str | None) -> T:
    """A get from a lister, with the scope checked (both flavours' caches)."""
    if lister.is_namespaced:
        if not namespace:
            raise ValueError(f"{model.__name__} is namespaced: give the namespace of {name!r}")
        return lister.namespaced(namespace).get(name)
    if namespace:
        raise ValueError(f"{model.__name__} is cluster-scoped: no namespace")
    return lister.get(name)


def list_from(lister: Lister[T], namespace: str | None, label_selector: str | object | None) -> list[T]:
    if namespace and lister.is_namespaced:
        return lister.namespaced(namespace).list(label_selector)
    return lister.list(label_selector)
