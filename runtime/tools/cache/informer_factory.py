"""SharedInformerFactory (generic part): one informer per resource type per factory.

Options apply to every informer it makes — namespace, tweak_list_options (e.g. a label
selector), a transform (None: the informers' ``default_transform``, which drops managedFields
and interns repeated metadata strings; ``transform=keep_objects`` opts out of it), the default
resync, ``watch_list`` (stream the initial state instead of listing it; None: on unless
``KUBE_FEATURE_WatchListClient=false``), ``hold_gc_during_sync`` (True: the cyclic garbage
collector is held off while an informer's cache first fills, sync_gc.py; process-wide, hence
the opt-out; settable as an attribute before ``start()``, as the generated factories do not
take it yet) — and per-type resync periods, keyed
``"<apiVersion>/<plural>"`` (``"v1/configmaps"``, ``"apps/v1/deployments"``), override the
default. ``start()`` runs every informer asked for so far (and later ones as they are asked
for); ``wait_for_cache_sync()`` waits for all; ``shutdown()`` stops them.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, Generic, TypeVar

from kgen.runtime.gentype.client import AsyncResourceClient, ResourceClient
from kgen.runtime.gentype.resource import Codec, ResourceInfo
from kgen.runtime.rest.client import AsyncRESTClient, RESTClient
from kgen.runtime.tools.cache.listers import Lister
from kgen.runtime.tools.cache.shared_informer import (
    AsyncSharedIndexInformer,
    SharedIndexInformer,
    async_wait_for_cache_sync,
    wait_for_cache_sync,
)

TweakListOptions = Callable[[dict[str, Any]], dict[str, Any]]
"""Changes the list and watch options of every informer of a factory."""
R = TypeVar("R", RESTClient, AsyncRESTClient)
"""The REST client type of a factory's flavour."""
I = TypeVar("I", SharedIndexInformer[Any], AsyncSharedIndexInformer[Any])
"""The informer type of a factory's flavour."""


class _FactoryCore(Generic[R, I]):
    """Options, bookkeeping and informer creation, written once for both flavours."""

    def __init__(
        self,
        rest: R,
        resync: float = 0.0,
        namespace: str | None = None,
        *,
        tweak_list_options: TweakListOptions | None = None,
        transform: Callable[[Any], Any] | None = None,
        custom_resync: dict[str, float] | None = None,
        watch_list: bool | None = None,
        hold_gc_during_sync: bool = True,
    ) -> None:
        self.rest: R = rest
        self.resync = resync
        self.namespace = namespace
        self.tweak_list_options = tweak_list_options or (lambda options: options)
        self.transform = transform
        self.custom_resync = dict(custom_resync or {})  # "<apiVersion>/<plural>" -> seconds
        self.watch_list = watch_list  # None: KUBE_FEATURE_WatchListClient decides (on by default)
        self.hold_gc_during_sync = hold_gc_during_sync
        self._lock = threading.Lock()
        self._started = False
        self._shutdown = False
        self._made: dict[tuple[str, str, str], I] = {}

    def _new_informer(self, resource: ResourceInfo, namespace: str | None, codec: Codec[Any, Any], resync: float) -> I:
        raise NotImplementedError

    def for_resource(self, resource: ResourceInfo, codec: Codec[Any, Any]) -> I:
        """The factory's informer for ``resource``: made on first request (namespace, resync,
        transform applied), started at once if the factory already is."""
        key = (resource.group, resource.version, resource.plural)
        with self._lock:
            informer = self._made.get(key)
            if informer is None:
                if self._shutdown:
                    raise RuntimeError("the factory was shut down")
                namespace = self.namespace if resource.namespaced else None
                resync = self.custom_resync.get(f"{resource.api_version}/{resource.plural}", self.resync)
                informer = self._new_informer(resource, namespace, codec, resync)
                if self.transform is not None:
                    informer.set_transform(self.transform)
                informer.reflector.sync_gc.enabled = self.hold_gc_during_sync
                self._made[key] = informer
                if self._started:
                    informer.start()
            return informer

    def lister(self, resource: ResourceInfo, codec: Codec[Any, Any]) -> Lister[Any]:
        return Lister(self.for_resource(resource, codec).indexer, resource.plural, resource.namespaced)

    def start(self) -> None:
        """Starts every informer made so far, and each one made later as it is made."""
        for informer in self._all(start=True):
            informer.start()

    def _all(self, shutdown: bool = False, start: bool = False) -> list[I]:
        with self._lock:
            self._shutdown = self._shutdown or shutdown
            self._started = self._started or start
            return list(self._made.values())

    def _made_so_far(self) -> dict[tuple[str, str, str], I]:
        with self._lock:
            return dict(self._made)


class SharedInformerFactory(_FactoryCore[RESTClient, SharedIndexInformer[Any]]):
    """client-go's SharedInformerFactory on threads: one shared informer per resource, started by
    ``start()``."""

    def _new_informer(
        self, resource: ResourceInfo, namespace: str | None, codec: Codec[Any, Any], resync: float
    ) -> SharedIndexInformer[Any]:
        client = ResourceClient(self.rest, resource, namespace, codec)
        return SharedIndexInformer(client, resync, list_options=self.tweak_list_options, watch_list=self.watch_list)

    def wait_for_cache_sync(self, timeout: float | None = None) -> dict[tuple[str, str, str], bool]:
        """Waits for every started informer; returns each one's sync state."""
        informers = self._made_so_far()
        wait_for_cache_sync(*(i.has_synced for i in informers.values()), timeout=timeout)
        return {key: informer.has_synced() for key, informer in informers.items()}

    def shutdown(self) -> None:
        """Stop every informer, and refuse new ones."""
        for informer in self._all(shutdown=True):
            informer.stop()


class AsyncSharedInformerFactory(_FactoryCore[AsyncRESTClient, AsyncSharedIndexInformer[Any]]):
    """The factory on asyncio: ``start()`` on a running loop; sync waits and shutdown are awaited."""

    def _new_informer(
        self, resource: ResourceInfo, namespace: str | None, codec: Codec[Any, Any], resync: float
    ) -> AsyncSharedIndexInformer[Any]:
        client = AsyncResourceClient(self.rest, resource, namespace, codec)
        return AsyncSharedIndexInformer(client, resync, list_options=self.tweak_list_options, watch_list=self.watch_list)

    async def wait_for_cache_sync(self, timeout: float | None = None) -> dict[tuple[str, str, str], bool]:
        """Wait until every started informer has synced (or ``timeout`` seconds pass); each one's answer
        by (group, version, resource)."""
        informers = self._made_so_far()
        await async_wait_for_cache_sync(*(i.has_synced for i in informers.values()), timeout=timeout)
        return {key: informer.has_synced() for key, informer in informers.items()}

    async def shutdown(self) -> None:
        """Stop every informer (awaiting each), and refuse new ones."""
        for informer in self._all(shutdown=True):
            await informer.stop()
