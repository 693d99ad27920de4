"""client-go's tools/cache for Python: reflector -> DeltaFIFO -> indexer -> shared informer.

One module per concept, named as in client-go: ``store`` (Store, Indexer, key functions),
``delta_fifo``, ``reflector``, ``shared_informer``, ``listers``, ``informer_factory``,
``mutation_detector``. Thread-based classes by default; ``Async*`` for asyncio.
"""

from .delta_fifo import (
    ADDED, DELETED, REPLACED, SYNC, UPDATED, Delta, DeletedFinalStateUnknown, DeltaFIFO,
)
from .store import Indexer, Store, deletion_handling_key, meta_namespace_index, meta_namespace_key

__all__ = [
    "ADDED", "DELETED", "REPLACED", "SYNC", "UPDATED", "Delta", "DeletedFinalStateUnknown", "DeltaFIFO",
    "Indexer", "Store", "deletion_handling_key", "meta_namespace_index", "meta_namespace_key",
]
