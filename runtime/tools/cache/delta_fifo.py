"""DeltaFIFO: the queue between the reflector and the informer (client-go delta_fifo.go).

For each object key it accumulates the *changes* (deltas) seen since the informer last
processed that key, and hands them out key by key in FIFO order. Two client-go rules matter:

- A relist (``replace``) is the only moment the client learns that objects vanished while it
  was not watching. For every key the informer knows (``known_objects``, the indexer) or still
  has queued that is absent from the new list, a ``Deleted`` delta carrying a
  ``DeletedFinalStateUnknown`` tombstone is queued: handlers see a delete, with the last state
  the client saw, even though no watch event ever said so.
- Two deletions in a row collapse into one: the older one, unless the older one is a
  tombstone (then the newer one, which may carry the real final state).

The transform (``transformer``) runs here, once per object, as it enters the queue: never on
tombstones (their object was transformed when it first came in) nor on Sync deltas (those come
from the indexer, already transformed).

This is DeltaFIFO as client-go had it before 1.36's RealFIFO became the informers' default:
the semantics are the same for handlers; RealFIFO differs in not merging deltas per key.
"""

from __future__ import annotations

import asyncio
import threading
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Protocol

from kgen.runtime.tools.cache.store import KeyFunc, meta_namespace_key

ADDED, UPDATED, DELETED, REPLACED, SYNC = "Added", "Updated", "Deleted", "Replaced", "Sync"


@dataclass(frozen=True)
class Delta:
    type: str
    object: Any


@dataclass(frozen=True)
class DeletedFinalStateUnknown:
    """An object deleted while the watch was down: ``obj`` is the last state the client saw."""

    key: str
    obj: Any


class KnownObjects(Protocol):
    def list_keys(self) -> list[str]: ...
    def get_by_key(self, key: str) -> Any | None: ...


class FIFOClosed(Exception):
    pass


class Requeue(Exception):
    """Raised by a pop() process function to put the deltas back (client-go ErrRequeue);
    ``pop`` then raises ``err``, if given."""

    def __init__(self, err: BaseException | None = None) -> None:
        super().__init__(err)
        self.err = err


Deltas = list[Delta]


def _is_deletion_dup(older: Delta, newer: Delta) -> Delta | None:
    """client-go isDeletionDup: the Delta to keep for two deletions in a row, else None."""
    if older.type != DELETED or newer.type != DELETED:
        return None
    return newer if isinstance(older.object, DeletedFinalStateUnknown) else older


class DeltaFIFO:
    """client-go's DeltaFIFO. ``known_objects`` is the informer's indexer (what the client
    believes exists); ``emit_delta_type_replaced`` makes a relist queue Replaced rather than
    Sync deltas (off by default, as in client-go; informers turn it on)."""

    def __init__(
        self,
        key_func: KeyFunc = meta_namespace_key,
        known_objects: KnownObjects | None = None,
        emit_delta_type_replaced: bool = False,
        transformer: Callable[[Any], Any] | None = None,
    ) -> None:
        self.key_func = key_func
        self.known_objects = known_objects
        self.emit_delta_type_replaced = emit_delta_type_replaced
        self.transformer = transformer
        self._items: dict[str, Deltas] = {}
        self._queue: deque[str] = deque()
        self._populated = False
        self._initial_population_count = 0
        self._closed = False
        self._lock = threading.RLock()
        self._cond = threading.Condition(self._lock)

    # -- producers (the reflector) ------------------------------------------------------

    def key_of(self, obj: Any) -> str:
        if isinstance(obj, list):  # Deltas: the key of the newest
            obj = obj[-1]
        if isinstance(obj, Delta):
            obj = obj.object
        if isinstance(obj, DeletedFinalStateUnknown):
            return obj.key
        return self.key_func(obj)

    def add(self, obj: Any) -> None:
        with self._lock:
            self._populated = True
            self._queue_action(ADDED, obj)

    def update(self, obj: Any) -> None:
        with self._lock:
            self._populated = True
            self._queue_action(UPDATED, obj)

    def delete(self, obj: Any) -> None:
        key = self.key_of(obj)
        with self._lock:
            self._populated = True
            if self.known_objects is None:
                if key not in self._items:
                    return  # nothing known about it: a delete of something never seen
            elif self.known_objects.get_by_key(key) is None and key not in self._items:
                return
            self._queue_action(DELETED, obj)

    def add_if_not_present(self, deltas: Deltas) -> None:
        """Puts back deltas popped earlier, unless newer ones arrived meanwhile."""
        if not deltas:
            raise ValueError("zero-length Deltas cannot be queued")
        key = self.key_of(deltas[-1])
        with self._lock:
            self._populated = True
            if key in self._items:
                return
            self._queue.append(key)
            self._items[key] = list(deltas)
            self._notify()

    def replace(self, objects: Iterable[Any], resource_version: str = "") -> None:
        """A relist: every listed object as Replaced (or Sync), and tombstones for the vanished."""
        action = REPLACED if self.emit_delta_type_replaced else SYNC
        with self._lock:
            keys: set[str] = set()
            for obj in objects:
                keys.add(self.key_of(obj))
                self._queue_action(action, obj)

            queued_deletions = 0
            # Queued keys absent from the list vanished too, even those the indexer never saw
            # (their Added is still waiting here). A queued deletion absorbs the tombstone.
            for key, deltas in list(self._items.items()):
                if key in keys:
                    continue
                last = deltas[-1].object
                if isinstance(last, DeletedFinalStateUnknown):
                    last = last.obj
                queued_deletions += 1
                self._queue_action(DELETED, DeletedFinalStateUnknown(key, last))

            if self.known_objects is not None:
                for key in self.known_objects.list_keys():
                    if key in keys or self._items.get(key):
                        continue
                    queued_deletions += 1
                    self._queue_action(DELETED, DeletedFinalStateUnknown(key, self.known_objects.get_by_key(key)))

            if not self._populated:
                self._populated = True
                self._initial_population_count = len(keys) + queued_deletions
            self._notify()

    def resync(self) -> None:
        """A Sync delta for every known object with nothing pending (replays the cache)."""
        with self._lock:
            if self.known_objects is None:
                return
            for key in self.known_objects.list_keys():
                if self._items.get(key):
                    continue  # a pending change will deliver fresher state anyway
                obj = self.known_objects.get_by_key(key)
                if obj is not None:
                    self._queue_action(SYNC, obj, transform=False)

    def _queue_action(self, action: str, obj: Any, transform: bool = True) -> None:
        key = self.key_of(obj)
        if transform and self.transformer is not None and not isinstance(obj, DeletedFinalStateUnknown):
            obj = self.transformer(obj)
        deltas = self._items.get(key, []) + [Delta(action, obj)]
        if len(deltas) >= 2:
            kept = _is_deletion_dup(deltas[-2], deltas[-1])
            if kept is not None:
                deltas = deltas[:-2] + [kept]
        if key not in self._items:
            self._queue.append(key)
        self._items[key] = deltas
        self._notify()

    def _notify(self) -> None:
        self._cond.notify_all()

    # -- the consumer (the informer) ----------------------------------------------------

    def has_synced(self) -> bool:
        """True once the first relist (or first add) has been entirely popped."""
        with self._lock:
            return self._populated and self._initial_population_count == 0

    def is_closed(self) -> bool:
        with self._lock:
            return self._closed

    def close(self) -> None:
        with self._lock:
            self._closed = True
            self._notify()

    def __len__(self) -> int:
        with self._lock:
            return len(self._queue)

    def list_keys(self) -> list[str]:
        with self._lock:
            return list(self._items)

    def list(self) -> list[Any]:
        """The newest object of every queued key."""
        with self._lock:
            return [deltas[-1].object for deltas in self._items.values()]

    def get(self, obj: Any) -> Deltas | None:
        return self.get_by_key(self.key_of(obj))

    def get_by_key(self, key: str) -> Deltas | None:
        with self._lock:
            deltas = self._items.get(key)
            return list(deltas) if deltas else None

    def _pop_ready(self, process: Callable[[Deltas, bool], None]) -> Deltas:
        key = self._queue.popleft()
        deltas = self._items.pop(key)
        in_initial_list = self._initial_population_count > 0
        if in_initial_list:
            self._initial_population_count -= 1
        try:
            process(deltas, in_initial_list)
        except Requeue as requeue:
            if key not in self._items:
                self._queue.append(key)
                self._items[key] = deltas
            if requeue.err is not None:
                raise requeue.err from None
        return deltas

    def pop(self, process: Callable[[Deltas, bool], None], timeout: float | None = None) -> Deltas | None:
        """Waits for a key, processes its deltas (under the queue's lock, as client-go does).

        Returns the deltas, or None on timeout; raises FIFOClosed once closed and empty.
        """
        with self._cond:
            while not self._queue:
                if self._closed:
                    raise FIFOClosed()
                if not self._cond.wait(timeout):
                    return None
            return self._pop_ready(process)


class AsyncDeltaFIFO(DeltaFIFO):
    """The same queue for asyncio: ``await pop(process)``. Producers call it from the loop."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._event: asyncio.Event | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    def _notify(self) -> None:
        super()._notify()
        if self._event is not None and self._loop is not None:
            try:
                running = asyncio.get_running_loop()
            except RuntimeError:
                running = None
            if running is self._loop:
                self._event.set()
            elif not self._loop.is_closed():
                self._loop.call_soon_threadsafe(self._event.set)

    async def pop(self, process: Callable[[Deltas, bool], None], timeout: float | None = None) -> Deltas | None:  # type: ignore[override]
        if self._event is None:
            self._event, self._loop = asyncio.Event(), asyncio.get_running_loop()
        while True:
            with self._lock:
                if self._queue:
                    return self._pop_ready(process)
                if self._closed:
                    raise FIFOClosed()
                self._event.clear()
            try:
                await asyncio.wait_for(self._event.wait(), timeout)
            except asyncio.TimeoutError:
                return None
