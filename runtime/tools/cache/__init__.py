"""client-go's tools/cache for Python: reflector -> DeltaFIFO -> indexer -> shared informer.

One module per concept, named as in client-go: ``store`` (Store, Indexer, key functions),
``delta_fifo``, ``reflector`` (with ``reflector_state``, its decisions, and ``pager``),
``shared_informer``, ``processor`` (the fan-out to handlers), ``wait_group``, ``listers``,
``informer_factory``, ``mutation_detector``, ``transform`` (the informers' default transform:
no managedFields, repeated metadata strings interned). Thread-based classes by default; ``Async*`` for asyncio, both running the
same I/O-free cores. The data path of a watch event through them is drawn in
docs/architecture.md.
"""

from kgen.runtime.tools.cache.delta_fifo import (
    ADDED,
    DELETED,
    REPLACED,
    SYNC,
    UPDATED,
    AsyncDeltaFIFO,
    Delta,
    DeletedFinalStateUnknown,
    DeltaFIFO,
)
from kgen.runtime.tools.cache import listers
from kgen.runtime.tools.cache.informer_factory import AsyncSharedInformerFactory, SharedInformerFactory
from kgen.runtime.tools.cache.listers import Lister, NamespaceLister
from kgen.runtime.tools.cache.reflector import AsyncReflector, Reflector
from kgen.runtime.tools.cache.shared_informer import (
    AsyncSharedIndexInformer,
    HandlerRegistration,
    InformerStoppedError,
    SharedIndexInformer,
    async_wait_for_cache_sync,
    wait_for_cache_sync,
)
from kgen.runtime.tools.cache.store import (
    Indexer,
    Store,
    deletion_handling_key,
    meta_namespace_index,
    meta_namespace_key,
    split_key,
)
from kgen.runtime.tools.cache.transform import (
    chain,
    default_transform,
    intern_strings,
    keep_objects,
    strip_managed_fields,
)

__all__ = [
    "ADDED", "DELETED", "REPLACED", "SYNC", "UPDATED", "AsyncDeltaFIFO", "AsyncReflector",
    "AsyncSharedIndexInformer", "AsyncSharedInformerFactory", "Delta", "DeletedFinalStateUnknown", "DeltaFIFO",
    "HandlerRegistration", "Indexer", "InformerStoppedError", "Lister", "NamespaceLister", "Reflector",
    "SharedIndexInformer", "SharedInformerFactory", "Store", "async_wait_for_cache_sync", "deletion_handling_key", "listers",
    "meta_namespace_index", "meta_namespace_key", "split_key", "wait_for_cache_sync",
    "chain", "default_transform", "intern_strings", "keep_objects", "strip_managed_fields",
]
