"""A recording event handler for informer tests: every call, per object key, and whether any
handler call saw an object's resourceVersion go backwards (compared as integers, which only a
test against one etcd may do)."""

from __future__ import annotations

import threading
from typing import Any

from kgen.runtime.tools.cache.delta_fifo import DeletedFinalStateUnknown
from kgen.runtime.apimachinery.meta import resource_version_of
from kgen.runtime.tools.cache.store import meta_namespace_key


class HandlerLog:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.calls: list[tuple[str, str, str, Any]] = []  # (kind, key, resourceVersion, object)
        self.regressions: list[tuple[str, int, int, str]] = []  # (key, newest seen, older, kind)
        self._newest: dict[str, int] = {}
        self._added: set[str] = set()

    def register(self, informer: Any, **options: Any) -> Any:
        return informer.add_event_handler(self.on_add, self.on_update, self.on_delete, **options)

    def on_add(self, obj: Any) -> None:
        self._record("add", meta_namespace_key(obj), obj)

    def on_update(self, old: Any, new: Any) -> None:
        self._record("sync" if old is new or resource_version_of(old) == resource_version_of(new) else "update",
                     meta_namespace_key(new), new)

    def on_delete(self, obj: Any) -> None:
        if isinstance(obj, DeletedFinalStateUnknown):
            self._record("tombstone", obj.key, obj.obj)
        else:
            self._record("delete", meta_namespace_key(obj), obj)

    def _record(self, kind: str, key: str, obj: Any) -> None:
        rv = resource_version_of(obj) if obj is not None else ""
        with self._lock:
            self.calls.append((kind, key, rv, obj))
            if kind == "add":
                self._added.add(key)
            if rv:
                newest = self._newest.get(key, 0)
                if int(rv) < newest:
                    self.regressions.append((key, newest, int(rv), kind))
                self._newest[key] = max(newest, int(rv))

    def has_seen(self, key: str) -> bool:
        """Whether any handler call added ``key``."""
        with self._lock:
            return key in self._added

    def snapshot(self) -> list[tuple[str, str, str, Any]]:
        with self._lock:
            return list(self.calls)

    def keys(self, *kinds: str) -> set[str]:
        return {key for kind, key, _, _ in self.snapshot() if kind in kinds}

    def of(self, key: str) -> list[tuple[str, str]]:
        """(kind, resourceVersion) of every call about ``key``."""
        return [(kind, rv) for kind, k, rv, _ in self.snapshot() if k == key]

    def tombstones(self) -> dict[str, Any]:
        return {key: obj for kind, key, _, obj in self.snapshot() if kind == "tombstone"}
