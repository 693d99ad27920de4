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

Popped deltas belong to the caller: an error the ``pop`` process function raises reaches the
caller, and nothing puts them back. client-go removed ``ErrRequeue`` and ``AddIfNotPresent`` as
unsafe: deltas put back replay a state that is no longer true (kubernetes#27790).

This is client-go's DeltaFIFO before 1.36 made RealFIFO (no merging per key) the default.

The rules are written once, in ``DeltaFIFOCore``, which neither locks nor waits: it records
whether a consumer is owed a wake-up. ``DeltaFIFO`` (threads) and ``AsyncDeltaFIFO`` (asyncio)
share ``BaseDeltaFIFO``, which locks around the core (a thread lock: the reflector may feed an
``AsyncDeltaFIFO`` from another thread); they differ only in how ``pop`` waits.
"""

from __future__ import annotations

import asyncio
import threading
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Generic, NamedTuple, ParamSpec, Protocol, TypeVar

from kgen.runtime.tools.cache.store import KeyFunc, meta_namespace_key

ADDED = "Added"
"""A Delta's type: the object was added."""
UPDATED = "Updated"
"""A Delta's type: the object was updated."""
DELETED = "Deleted"
"""A Delta's type: the object was deleted (the last state known of it)."""
REPLACED = "Replaced"
"""A Delta's type: a relist (``replace``) listed the object, ``emit_delta_type_replaced`` on."""
SYNC = "Sync"
"""A Delta's type: a resync queued the known object again, or a relist listed it (``emit_delta_type_replaced`` off)."""

P = ParamSpec("P")
"""The parameters of a function run under the queue's lock."""
R = TypeVar("R")
"""The result of a function run under the queue's lock."""
V = TypeVar("V")
"""The type of a tombstone's object."""


class Delta(NamedTuple):
    """One change to an object: its type (``ADDED``, ...) and the object after it (a NamedTuple: cheaper to make)."""

    type: str
    object: Any


@dataclass(frozen=True, slots=True)
class DeletedFinalStateUnknown(Generic[V]):
    """An object deleted while the watch was down: ``obj`` is the last state the client saw.

    Generic in the object's type, unlike client-go's: a typed informer's ``on_delete`` receives
    ``ConfigMap | DeletedFinalStateUnknown[ConfigMap]``, so ``obj.obj`` needs no cast. A tombstone
    comes only from the informer's own cache, so ``obj`` is always a cached object of that type.
    """

    key: str
    obj: V


class KnownObjects(Protocol):
    """The informer's indexer as the queue sees it (``known_objects``): for deletions and resyncs."""

    def list_keys(self) -> list[str]:
        """The keys of every known object."""

    def get_by_key(self, key: str) -> Any | None:
        """The known object of ``key``, or None."""


class FIFOClosed(Exception):
    """``pop`` on a closed queue (client-go's ErrFIFOClosed)."""


Deltas = list[Delta]
"""One key's changes, oldest first."""
Process = Callable[[Deltas, bool], None]
"""What ``pop`` hands a key's deltas to, with whether they belong to the first list."""
Batch = list[tuple[Deltas, bool]]
"""What ``pop_batch`` hands on: each key's deltas and whether they are of the first list, oldest first."""
BatchProcess = Callable[[Batch], None]
"""What ``pop_batch`` hands a ``Batch`` to."""


def _is_deletion_dup(older: Delta, newer: Delta) -> Delta | None:
    """client-go isDeletionDup: the Delta to keep for two deletions in a row, else None."""
    if older.type != DELETED or newer.type != DELETED:
        return None
    return newer if isinstance(older.object, DeletedFinalStateUnknown) else older


class DeltaFIFOCore:
    """The state of client-go's DeltaFIFO and the rules over it, with no lock and no waiting.

    Every key in ``_queue`` has deltas in ``_items`` and the other way round. Whenever a key
    enters the queue, or the queue closes, a consumer is owed a wake-up (``take_wakeup``)."""

    def __init__(
        self,
        key_func: KeyFunc,
        known_objects: KnownObjects | None,
        emit_delta_type_replaced: bool,
        transformer: Callable[[Any], Any] | None,
    ) -> None:
        self.key_func = key_func
        self.known_objects = known_objects
        self.emit_delta_type_replaced = emit_delta_type_replaced
        self.transformer = transformer
        self._items: dict[str, Deltas] = {}
        self._queue: deque[str] = deque()
        # has_synced: set by the first add/update/delete/replace; the first replace's keys unpopped.
        self._populated = False
        self._initial_population_count = 0
        self.closed = False
        self._wake_consumers = False

    def key_of(self, obj: Any) -> str:
        """The key of ``obj``: of the newest delta of a list of deltas, a tombstone's own key, else
        ``key_func``."""
        if isinstance(obj, list):  # Deltas: the key of the newest
            obj = obj[-1]
        if isinstance(obj, Delta):
            obj = obj.object
        if isinstance(obj, DeletedFinalStateUnknown):
            return obj.key
        return self.key_func(obj)

    # -- producers (the reflector) ----------------------------------------------------------

    def add(self, obj: Any) -> None:
        """Queue an ``ADDED`` delta of ``obj``."""
        self._populated = True
        self._queue_action(ADDED, obj)

    def update(self, obj: Any) -> None:
        """Queue an ``UPDATED`` delta of ``obj``."""
        self._populated = True
        self._queue_action(UPDATED, obj)

    def delete(self, obj: Any) -> None:
        """Queue a ``DELETED`` delta of ``obj``, unless nothing is known of its key."""
        key = self.key_of(obj)
        self._populated = True
        if key not in self._items and (
            self.known_objects is None or self.known_objects.get_by_key(key) is None
        ):
            return  # nothing known about it: a delete of something never seen
        self._queue_action(DELETED, obj)

    def replace(self, objects: Iterable[Any], resource_version: str) -> None:
        """A relist: queue each object as ``REPLACED`` (or ``SYNC``) and a tombstone for each known key
        not listed."""
        action = REPLACED if self.emit_delta_type_replaced else SYNC
        keys: set[str] = set()
        queued_before = list(self._items.items())
        # One key per object; a key with nothing queued (a first list's) skips _queue_action's merging.
        items, key_func, transformer = self._items, self.key_func, self.transformer
        for obj in objects:
            special = isinstance(obj, (list, Delta, DeletedFinalStateUnknown))
            key = self.key_of(obj) if special else key_func(obj)
            keys.add(key)
            if special or key in items:
                self._queue_action(action, obj, key=key)
            else:
                self._enqueue(key, [Delta(action, obj if transformer is None else transformer(obj))])

        queued_deletions = 0
        # Queued keys absent from the list vanished too, even those the indexer never saw
        # (their Added is still waiting here). A queued deletion absorbs the tombstone.
        for key, deltas in queued_before:
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

    def resync(self) -> None:
        """Queue a ``SYNC`` delta of each known object that has no change pending."""
        if self.known_objects is None:
            return
        for key in self.known_objects.list_keys():
            if self._items.get(key):
                continue  # a pending change will deliver fresher state anyway
            obj = self.known_objects.get_by_key(key)
            if obj is not None:
                self._queue_action(SYNC, obj, transform=False)

    def _queue_action(self, action: str, obj: Any, transform: bool = True, key: str | None = None) -> None:
        if key is None:
            key = self.key_of(obj)
        if transform and self.transformer is not None and not isinstance(obj, DeletedFinalStateUnknown):
            obj = self.transformer(obj)
        queued = self._items.get(key)
        if queued is None:  # the common case: nothing to merge
            self._enqueue(key, [Delta(action, obj)])
            return
        delta = Delta(action, obj)  # the key keeps its place in line
        kept = _is_deletion_dup(queued[-1], delta)
        self._items[key] = queued[:-1] + [kept] if kept is not None else queued + [delta]

    def _enqueue(self, key: str, deltas: Deltas) -> None:
        self._queue.append(key)
        self._items[key] = deltas
        self._wake_consumers = True

    # -- the consumer (the informer) --------------------------------------------------------

    def has_synced(self) -> bool:
        """Whether the first list was queued and every delta of it popped."""
        return self._populated and self._initial_population_count == 0

    def close(self) -> None:
        """Close the queue: pops end with ``FIFOClosed`` once it is empty."""
        self.closed = True
        self._wake_consumers = True

    def length(self) -> int:
        """How many keys wait."""
        return len(self._queue)

    def list_keys(self) -> list[str]:
        """The keys with deltas pending."""
        return list(self._items)

    def list(self) -> list[Any]:
        """The newest object of each key with deltas pending."""
        return [deltas[-1].object for deltas in self._items.values()]

    def get_by_key(self, key: str) -> Deltas | None:
        """A copy of ``key``'s pending deltas, or None."""
        deltas = self._items.get(key)
        return list(deltas) if deltas else None

    def can_pop(self) -> bool:
        """Whether ``pop`` answers now: with deltas, or with FIFOClosed once nothing is left."""
        return bool(self._queue) or self.closed

    def pop(self, process: Process) -> Deltas:
        """Hands the oldest key's deltas to ``process``; call it once ``can_pop``."""
        if not self._queue:
            raise FIFOClosed()
        key = self._queue.popleft()
        deltas = self._items.pop(key)
        in_initial_list = self._initial_population_count > 0
        if in_initial_list:
            self._initial_population_count -= 1
        process(deltas, in_initial_list)  # an error reaches the caller; the deltas are gone
        return deltas

    def pop_batch(self, process: BatchProcess, limit: int) -> Batch:
        """``pop`` for up to ``limit`` keys at once, oldest first, handed to ``process`` in one
        call (client-go's QueueWithBatch.PopBatch): what an informer syncing thousands of
        objects does instead of one pop (one lock, one wake-up) per key. As with ``pop``, the
        deltas are the caller's even if ``process`` raises, and ``has_synced`` turns true only
        once ``process`` has returned for the last key of the first list."""
        if not self._queue:
            raise FIFOClosed()
        batch: Batch = []
        queue, items, initial = self._queue, self._items, self._initial_population_count
        while queue and len(batch) < limit:
            batch.append((items.pop(queue.popleft()), len(batch) < initial))
        try:
            process(batch)
        finally:
            # After the processing, as RealFIFO.PopBatch does: has_synced stays false meanwhile,
            # even for a process function that asks (the lock is reentrant).
            self._initial_population_count = max(0, initial - len(batch))
        return batch

    def take_wakeup(self) -> bool:
        """Whether consumers are owed a wake-up since the last call."""
        wake, self._wake_consumers = self._wake_consumers, False
        return wake


class _OnCore(Generic[V]):
    """An attribute of a shell that is stored on its core, so the core's rules see every change."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, shell: BaseDeltaFIFO, owner: type | None = None) -> V:
        value: V = getattr(shell._core, self.name)
        return value

    def __set__(self, shell: BaseDeltaFIFO, value: V) -> None:
        setattr(shell._core, self.name, value)


class BaseDeltaFIFO:
    """What both flavours share: every operation but ``pop``, each under the queue's lock.

    ``known_objects`` is the informer's indexer (what the client believes exists);
    ``emit_delta_type_replaced`` makes a relist queue Replaced rather than Sync deltas (off by
    default, as in client-go; informers turn it on).
    """

    def __init__(
        self,
        key_func: KeyFunc = meta_namespace_key,
        known_objects: KnownObjects | None = None,
        emit_delta_type_replaced: bool = False,
        transformer: Callable[[Any], Any] | None = None,
    ) -> None:
        self._core = DeltaFIFOCore(key_func, known_objects, emit_delta_type_replaced, transformer)
        # Reentrant: ``process`` runs under it and may call back into the queue.
        self._lock = threading.RLock()
        self._init_shell()

    def _init_shell(self) -> None:
        """The flavour's own waiting primitives."""

    def _wake(self) -> None:
        """Delivers the wake-up the core owes the consumers; called under the lock."""
        raise NotImplementedError

    def _locked(self, operation: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
        with self._lock:
            try:
                return operation(*args, **kwargs)
            finally:
                self._wake()  # also after a failed transform or process: keys may have moved

    # Settable as on client-go's DeltaFIFOOptions; they live on the core.
    key_func: _OnCore[KeyFunc] = _OnCore()
    known_objects: _OnCore[KnownObjects | None] = _OnCore()
    emit_delta_type_replaced: _OnCore[bool] = _OnCore()
    transformer: _OnCore[Callable[[Any], Any] | None] = _OnCore()

    def key_of(self, obj: Any) -> str:
        """The key of an object, a tombstone, a Delta or Deltas (that of the newest)."""
        return self._core.key_of(obj)

    # -- producers (the reflector) ----------------------------------------------------------

    def add(self, obj: Any) -> None:
        """Queue an ``ADDED`` delta of ``obj``."""
        self._locked(self._core.add, obj)

    def update(self, obj: Any) -> None:
        """Queue an ``UPDATED`` delta of ``obj``."""
        self._locked(self._core.update, obj)

    def delete(self, obj: Any) -> None:
        """Queue a ``DELETED`` delta of ``obj``, unless nothing is known of its key."""
        self._locked(self._core.delete, obj)

    def replace(self, objects: Iterable[Any], resource_version: str = "") -> None:
        """A relist: every listed object as Replaced (or Sync), and tombstones for the vanished."""
        self._locked(self._core.replace, objects, resource_version)

    def resync(self) -> None:
        """A Sync delta for every known object with nothing pending (replays the cache)."""
        self._locked(self._core.resync)

    # -- the consumer (the informer) --------------------------------------------------------

    def has_synced(self) -> bool:
        """True once the first relist (or first add) has been entirely popped."""
        return self._locked(self._core.has_synced)

    def is_closed(self) -> bool:
        """Whether ``close`` was called."""
        with self._lock:
            return self._core.closed

    def close(self) -> None:
        """Close the queue: pops end with ``FIFOClosed`` once it is empty."""
        self._locked(self._core.close)

    def __len__(self) -> int:
        return self._locked(self._core.length)

    def list_keys(self) -> list[str]:
        """The keys with deltas pending."""
        return self._locked(self._core.list_keys)

    def list(self) -> list[Any]:
        """The newest object of every queued key."""
        return self._locked(self._core.list)

    def get(self, obj: Any) -> Deltas | None:
        """A copy of the pending deltas of ``obj``'s key, or None."""
        return self.get_by_key(self.key_of(obj))

    def get_by_key(self, key: str) -> Deltas | None:
        """A copy of ``key``'s pending deltas, or None."""
        return self._locked(self._core.get_by_key, key)


class DeltaFIFO(BaseDeltaFIFO):
    """client-go's DeltaFIFO for threads: ``pop`` blocks."""

    def _init_shell(self) -> None:
        self._cond = threading.Condition(self._lock)

    def _wake(self) -> None:
        if self._core.take_wakeup():
            self._cond.notify_all()

    def pop(self, process: Process, timeout: float | None = None) -> Deltas | None:
        """Waits for a key, processes its deltas (under the queue's lock, as client-go does).

        Returns the deltas, or None after ``timeout`` seconds; raises FIFOClosed once closed
        and empty.
        """
        return self._pop(timeout, self._core.pop, process)

    def pop_batch(self, process: BatchProcess, limit: int, timeout: float | None = None) -> Batch | None:
        """``pop`` for up to ``limit`` keys in one call of ``process`` (``DeltaFIFOCore.pop_batch``)."""
        return self._pop(timeout, self._core.pop_batch, process, limit)

    def _pop(self, timeout: float | None, operation: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R | None:
        with self._cond:
            if not self._cond.wait_for(self._core.can_pop, timeout):
                return None
            return self._locked(operation, *args, **kwargs)


class AsyncDeltaFIFO(BaseDeltaFIFO):
    """The same queue for asyncio: ``await pop(process)`` on one event loop. Producers may call
    from the loop or from any other thread."""

    # Both set by the first pop, the first moment the consumer's loop is known.
    _event: asyncio.Event | None = None
    _loop: asyncio.AbstractEventLoop | None = None

    def _wake(self) -> None:
        if not self._core.take_wakeup() or self._event is None or self._loop is None:
            return
        if _running_loop() is self._loop:
            self._event.set()
        elif not self._loop.is_closed():
            self._loop.call_soon_threadsafe(self._event.set)

    async def pop(self, process: Process, timeout: float | None = None) -> Deltas | None:
        """See ``DeltaFIFO.pop``."""
        return await self._pop(timeout, self._core.pop, process)

    async def pop_batch(self, process: BatchProcess, limit: int, timeout: float | None = None) -> Batch | None:
        """See ``DeltaFIFO.pop_batch``."""
        return await self._pop(timeout, self._core.pop_batch, process, limit)

    async def _pop(self, timeout: float | None, operation: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R | None:
        loop = asyncio.get_running_loop()
        deadline = None if timeout is None else loop.time() + timeout
        while True:
            with self._lock:
                if self._event is None:
                    self._event, self._loop = asyncio.Event(), loop
                if self._core.can_pop():
                    return self._locked(operation, *args, **kwargs)
                self._event.clear()
            # Only the waiting is timed: a pop that has run is never cancelled by the timeout.
            remaining = None if deadline is None else deadline - loop.time()
            if remaining is not None and remaining <= 0:
                return None
            try:
                await asyncio.wait_for(self._event.wait(), remaining)
            except asyncio.TimeoutError:
                return None


def _running_loop() -> asyncio.AbstractEventLoop | None:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None
