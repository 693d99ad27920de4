"""Store and Indexer: the informer's thread-safe local cache (client-go store.go, index.go,
thread_safe_store.go).

Objects are kept by key (``namespace/name``, or ``name`` for cluster-scoped objects). An
Indexer also keeps, for each registered index function, a map from index value to the keys
whose objects produce it — the namespace index is the usual one — so listers answer "all in
namespace X" or "all with label Y" without scanning.

Objects handed out are the cached ones, not copies: callers must not mutate them (see
``mutation_detector``).
"""

from __future__ import annotations

import builtins
import threading
from collections.abc import Callable, Iterable
from typing import Any, Generic, TypeVar

from kgen.runtime.apimachinery.meta import namespace_and_name

KeyFunc = Callable[[Any], str]
"""An object's key in a store (``namespace/name``, or ``name``)."""
IndexFunc = Callable[[Any], list[str]]
"""An object's values in an index."""

NAMESPACE_INDEX = "namespace"
"""The name of the by-namespace index (client-go's NamespaceIndex)."""

T = TypeVar("T")
"""The type of the cached objects (a generated model, or a dict behind the dynamic client)."""


def meta_namespace_key(obj: Any) -> str:
    """client-go's MetaNamespaceKeyFunc: ``namespace/name``, or ``name`` when cluster-scoped.

    Every object of a sync passes here: a model with a name takes the first branch alone."""
    meta = getattr(obj, "metadata", None)  # a model (a dict or a tombstone has no such attribute)
    if meta is not None and type(name := getattr(meta, "name", None)) is str and name:
        namespace = getattr(meta, "namespace", None)
        return f"{namespace}/{name}" if type(namespace) is str and namespace else name
    return _key_of_other(obj)


def _key_of_other(obj: Any) -> str:
    from kgen.runtime.tools.cache.delta_fifo import DeletedFinalStateUnknown

    if isinstance(obj, DeletedFinalStateUnknown):
        return obj.key
    if isinstance(obj, str):
        return obj
    namespace, name = namespace_and_name(obj)
    if not name:
        raise ValueError("object has no metadata.name: cannot compute its key")
    return f"{namespace}/{name}" if namespace else name


def deletion_handling_key(obj: Any) -> str:
    """The key of an object or of a DeletedFinalStateUnknown tombstone."""
    return meta_namespace_key(obj)


def split_key(key: str) -> tuple[str, str]:
    """A ``namespace/name`` (or ``name``) key as (namespace, name): client-go's
    ``SplitMetaNamespaceKey``; ValueError for a key with more than one ``/``."""
    parts = key.split("/")
    if len(parts) > 2:
        raise ValueError(f"unexpected key format: {key!r}")
    return (parts[0], parts[1]) if len(parts) == 2 else ("", parts[0])


def meta_namespace_index(obj: Any) -> list[str]:
    """The namespace index function (MetaNamespaceIndexFunc)."""
    meta = getattr(obj, "metadata", None)  # a model: the common case, as in meta_namespace_key
    if meta is not None and type(namespace := getattr(meta, "namespace", None)) is str:
        return [namespace]
    return [namespace_and_name(obj)[0]]


class Store(Generic[T]):
    """A thread-safe map of key -> object; generic in the object type, so a typed informer's
    cache hands out its model (``Indexer[ConfigMap].by_index(...)`` is ``list[ConfigMap]``)."""

    def __init__(self, key_func: KeyFunc = meta_namespace_key, transform: Callable[[Any], Any] | None = None) -> None:
        self.key_func = key_func
        self.transform = transform
        """client-go's WithTransformer: applied to every object added, updated or replaced."""
        self._items: dict[str, T] = {}
        self._lock = threading.RLock()

    def add(self, obj: T) -> None:
        """Store ``obj`` under its key."""
        self.update(obj)

    def update(self, obj: T) -> None:
        """Store ``obj`` under its key."""
        self.swap(obj)

    def swap(self, obj: T) -> T | None:
        """Stores ``obj`` (an add or an update) and returns the object it replaced, if any: the
        informer's one look-up per delta."""
        if self.transform is not None:
            obj = self.transform(obj)
        key = self.key_func(obj)
        with self._lock:
            old = self._items.get(key)
            self._items[key] = obj
            self._on_change(key, old, obj)
        return old

    def delete(self, obj: Any) -> None:
        """Remove the object with ``obj``'s key."""
        key = self.key_func(obj)
        with self._lock:
            old = self._items.pop(key, None)
            if old is not None:
                self._on_change(key, old, None)

    def get(self, obj: Any) -> T | None:
        """The cached object with ``obj``'s key (``obj`` may be a newer copy, or a tombstone)."""
        return self.get_by_key(self.key_func(obj))

    def get_by_key(self, key: str) -> T | None:
        """The object stored under ``key``, or None."""
        with self._lock:
            return self._items.get(key)

    def list(self) -> list[T]:
        """Every stored object."""
        with self._lock:
            return list(self._items.values())

    def list_keys(self) -> builtins.list[str]:
        """Every key."""
        with self._lock:
            return list(self._items)

    def __len__(self) -> int:
        with self._lock:
            return len(self._items)

    def replace(self, objects: Iterable[T], resource_version: str = "") -> None:
        """Replaces the whole content (a relist)."""
        if self.transform is not None:
            objects = [self.transform(obj) for obj in objects]
        items = {self.key_func(obj): obj for obj in objects}
        with self._lock:
            self._items = items
            self._rebuild()

    def resync(self) -> None:
        """Nothing to do for a plain store (the DeltaFIFO is where resync means something)."""

    # hooks for Indexer
    def _on_change(self, key: str, old: T | None, new: T | None) -> None:
        pass

    def _rebuild(self) -> None:
        pass


class Indexer(Store[T]):
    """A Store with indices: ``by_index("namespace", "default")``."""

    def __init__(self, key_func: KeyFunc = meta_namespace_key, indexers: dict[str, IndexFunc] | None = None) -> None:
        super().__init__(key_func)
        self._indexers: dict[str, IndexFunc] = dict(indexers or {})
        self._indices: dict[str, dict[str, set[str]]] = {name: {} for name in self._indexers}

    def add_indexers(self, indexers: dict[str, IndexFunc]) -> None:
        """Adds index functions; allowed at any time (client-go refuses once started; here it reindexes)."""
        with self._lock:
            clash = set(indexers) & set(self._indexers)
            if clash:
                raise ValueError(f"indexer conflict: {', '.join(sorted(clash))}")
            self._indexers.update(indexers)
            for name in indexers:
                self._indices[name] = {}
                for key, obj in self._items.items():
                    self._index_one(name, key, obj)

    def get_indexers(self) -> dict[str, IndexFunc]:
        """The index functions by index name."""
        with self._lock:
            return dict(self._indexers)

    def index(self, name: str, obj: Any) -> builtins.list[T]:
        """Objects sharing any index value with ``obj`` under index ``name``."""
        with self._lock:
            keys: set[str] = set()
            for value in self._func(name)(obj):
                keys |= self._indices[name].get(value, set())
            return [self._items[k] for k in sorted(keys)]

    def index_keys(self, name: str, value: str) -> list[str]:
        """The sorted keys of the objects whose index ``name`` holds ``value`` (KeyError for an unknown
        index)."""
        with self._lock:
            self._func(name)
            return sorted(self._indices[name].get(value, set()))

    def list_index_func_values(self, name: str) -> list[str]:
        """The values of index ``name`` that some object has, sorted."""
        with self._lock:
            self._func(name)
            return sorted(v for v, keys in self._indices[name].items() if keys)

    def by_index(self, name: str, value: str) -> builtins.list[T]:
        """The objects whose index ``name`` holds ``value``, by key (KeyError for an unknown index)."""
        with self._lock:
            self._func(name)
            return [self._items[k] for k in sorted(self._indices[name].get(value, set()))]

    def _func(self, name: str) -> IndexFunc:
        try:
            return self._indexers[name]
        except KeyError:
            raise KeyError(f"index {name!r} does not exist") from None

    def _index_one(self, name: str, key: str, obj: Any) -> None:
        index = self._indices[name]
        for value in self._indexers[name](obj):
            keys = index.get(value)
            if keys is None:
                index[value] = keys = set()
            keys.add(key)

    def _unindex_one(self, name: str, key: str, obj: Any) -> None:
        index = self._indices[name]
        for value in self._indexers[name](obj):
            keys = index.get(value)
            if keys is not None:
                keys.discard(key)
                if not keys:
                    del index[value]

    def _on_change(self, key: str, old: T | None, new: T | None) -> None:
        if old is None and new is not None:  # an add (every object of a sync): no index to undo
            for name, func in self._indexers.items():
                index = self._indices[name]
                for value in func(new):
                    keys = index.get(value)
                    if keys is None:
                        index[value] = {key}
                    else:
                        keys.add(key)
            return
        for name in self._indexers:
            if old is not None:
                self._unindex_one(name, key, old)
            if new is not None:
                self._index_one(name, key, new)

    def _rebuild(self) -> None:
        self._indices = {name: {} for name in self._indexers}
        for key, obj in self._items.items():
            for name in self._indexers:
                self._index_one(name, key, obj)
