"""SharedIndexInformer: one list+watch, one cache, many event handlers (client-go shared_informer.go).

Deltas popped from the DeltaFIFO update the indexer first, then become notifications for every
registered handler. Each handler has its own unbounded buffer and its own worker, so a slow
handler delays only itself. A handler added after the informer started first receives an add
for every object already in the cache. Resync replays the cache (Sync deltas become updates
with old == new) to the handlers whose resync period is due; it never lists again.

Resync periods follow client-go: a handler's period is at least 1 s; before the informer starts,
a period shorter than the informer's check period lowers that period, after it starts the
handler's is raised to it; an informer created without resync (0) resyncs no handler.

Stopping ends every handler's worker after the notification in progress; the rest are dropped.

While the cache fills for the first time, Python's cyclic garbage collector is held off and the
new objects then join its oldest generation uncollected (sync_gc.py says why: at 100,000 Pods
the collections it would run cost more than decoding them). That is process-wide state, so
``hold_gc_during_sync=False`` leaves the collector alone. client-go has nothing like it: Go's
collector runs concurrently with the goroutines that allocate.

``SharedIndexInformer`` runs on threads; ``AsyncSharedIndexInformer`` on asyncio tasks, where a
handler may be a plain function or a coroutine function. The fan-out to handlers is the
processor (``processor.py``: an I/O-free core and a driver per flavour). Everything else is
written once in ``_SharedInformerBase``; a flavour only says how it pops the DeltaFIFO, waits
for its workers and polls for sync. The data path is drawn in docs/architecture.md.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, Generic, TypeVar

from kgen.runtime.apimachinery.meta import resource_version_of
from kgen.runtime.tools.cache.listwatch import AsyncListerWatcher, ListerWatcher
from kgen.runtime.tools.cache.delta_fifo import (
    DELETED,
    AsyncDeltaFIFO,
    Batch,
    DeletedFinalStateUnknown,
    DeltaFIFO,
    Deltas,
    FIFOClosed,
)
from kgen.runtime.tools.cache.mutation_detector import CacheMutationDetector
from kgen.runtime.tools.cache.processor import (
    AddNotification,
    AsyncSharedProcessor,
    AsyncWaitGroup,
    DeleteNotification,
    Group,
    Notification,
    ProcessorListener,
    ResourceEventHandlerFuncs,
    SharedProcessor,
    UpdateNotification,
    WaitGroup,
    determine_resync_period,
)
from kgen.runtime.tools.cache.reflector import AsyncReflector, Reflector, WatchErrorHandler
from kgen.runtime.tools.cache.reflector_state import ListOptions
from kgen.runtime.tools.cache.store import NAMESPACE_INDEX, Indexer, IndexFunc, meta_namespace_index
from kgen.runtime.tools.cache.transform import Transform, default_transform

log = logging.getLogger("kgen.runtime.tools.cache.shared_informer")

MINIMUM_RESYNC_PERIOD = 1.0
"""client-go's minimumResyncPeriod: a handler's resync period shorter than this (but not 0) is raised to
it."""
SYNCED_POLL_PERIOD = 0.1  # client-go's syncedPollPeriod
POP_BATCH = 1000
"""How many keys the process loop takes from the DeltaFIFO at once: RealFIFO's defaultBatchSize
(client-go pops in batches under InOrderInformersBatchProcess, on since 1.35)."""


T = TypeVar("T")
"""The informer's object type: the model of a typed informer (``SharedIndexInformer[ConfigMap]``)."""


class InformerStoppedError(RuntimeError):
    """The informer was stopped: it takes no more handlers and cannot run again."""


class HandlerRegistration:
    """What ``add_event_handler`` returns: ``has_synced()``, and removal."""

    def __init__(self, informer: Any, listener: ProcessorListener) -> None:
        self._informer = informer
        self._listener = listener

    def has_synced(self) -> bool:
        """Whether the handler has been handed every object of the informer's first list."""
        return self._listener.has_synced()

    def remove(self) -> None:
        """Remove the handler from the informer."""
        self._informer.remove_event_handler(self)


class _SharedInformerBase(Generic[T]):
    """The informer, written once: the indexer, delta handling, handler bookkeeping, resync,
    start and the first half of stop. A flavour sets ``fifo``, ``reflector``, ``processor`` and
    ``_group`` (where its workers run) in ``_flavour`` and writes ``_process_loop``, ``stop`` and
    ``wait_for_cache_sync``."""

    fifo: DeltaFIFO | AsyncDeltaFIFO
    reflector: Reflector | AsyncReflector
    processor: SharedProcessor | AsyncSharedProcessor
    _group: Group

    def __init__(
        self,
        client: ListerWatcher[T] | AsyncListerWatcher[T],
        resync_period: float = 0.0,
        *,
        indexers: dict[str, IndexFunc] | None = None,
        list_options: ListOptions | None = None,
        clock: Callable[[], float] = time.monotonic,
        mutation_detector: CacheMutationDetector | None = None,
        watch_list: bool | None = None,
        transform: Transform | None = default_transform,
        hold_gc_during_sync: bool = True,
    ) -> None:
        self.client = client
        self.indexer: Indexer[T] = Indexer(indexers={NAMESPACE_INDEX: meta_namespace_index, **(indexers or {})})
        self.default_resync = resync_period
        self.resync_check_period = resync_period
        self.clock = clock
        self.lock = threading.RLock()  # client-go's blockDeltas: deltas vs. handler changes
        self.started = False
        self.stopped = False
        self.mutation_detector = mutation_detector or CacheMutationDetector.from_env()
        self._fifo_closed = False
        self._flavour(client, list_options)
        self.fifo.transformer = transform  # default: no managedFields, repeated strings interned
        self.reflector.set_watch_list(watch_list)  # None: KUBE_FEATURE_WatchListClient (on by default)
        self.reflector.sync_gc.enabled = hold_gc_during_sync  # sync_gc.py; closed by _popped

    def _flavour(self, client: Any, list_options: ListOptions | None) -> None:
        """Sets the flavour's ``fifo``, ``reflector``, ``_group`` and ``processor``."""
        raise NotImplementedError

    # -- configuration (before start) -------------------------------------------------------

    def set_transform(self, transform: Transform | None) -> None:
        """Transforms each object once, before it is stored, instead of ``default_transform``
        (transform.py: managedFields dropped, repeated metadata strings interned); None keeps
        every object as the server sent it. As in client-go, a transform should be idempotent: a
        watch-list's objects pass it twice (as they arrive, and entering the DeltaFIFO)."""
        with self.lock:
            if self.started:
                raise RuntimeError("informer has already started")
            self.fifo.transformer = transform

    def set_watch_error_handler(self, handler: WatchErrorHandler) -> None:
        """Called with every error that makes the reflector list or watch again."""
        with self.lock:
            if self.started:
                raise RuntimeError("informer has already started")
            self.reflector.watch_error_handler = handler

    def add_indexers(self, indexers: dict[str, IndexFunc]) -> None:
        self.indexer.add_indexers(indexers)

    def get_indexer(self) -> Indexer[T]:
        return self.indexer

    get_store = get_indexer

    # -- state ------------------------------------------------------------------------------

    def has_synced(self) -> bool:
        return self.fifo.has_synced()

    def has_started(self) -> bool:
        return self.started

    def is_stopped(self) -> bool:
        return self.stopped

    @property
    def last_sync_resource_version(self) -> str:
        return self.reflector.last_sync_resource_version

    # -- handlers ---------------------------------------------------------------------------

    def add_event_handler(
        self,
        on_add: Callable[[T], object] | None = None,
        on_update: Callable[[T, T], object] | None = None,
        on_delete: Callable[[T | DeletedFinalStateUnknown[T]], object] | None = None,
        *,
        resync_period: float | None = None,
    ) -> HandlerRegistration:
        """Registers callbacks, at any time before stop. ``on_delete`` gets the object or a
        ``DeletedFinalStateUnknown`` tombstone of it. ``resync_period`` defaults to the informer's.

        Typed in the informer's model, as client-go's generic ResourceEventHandlerFuncs are not:
        ``on_add: Callable[[ConfigMap], None]`` is accepted by a ConfigMap informer and rejected
        by a Pod informer. A callback's result is ignored (on asyncio a coroutine is awaited)."""
        with self.lock:
            if self.stopped:
                raise InformerStoppedError(
                    "handler was not added to shared informer because it has stopped already"
                )
            requested = self._requested_resync_period(resync_period)
            listener = ProcessorListener(
                ResourceEventHandlerFuncs(on_add, on_update, on_delete), requested,
                determine_resync_period(requested, self.resync_check_period), self.clock(), self.has_synced,
            )
            # A late handler first sees what the cache holds, as adds from the initial list;
            # handed over under the lock, so its has_synced() is never true before it saw them.
            initial = [AddNotification(obj, True) for obj in self.indexer.list()] if self.started else []
            self.processor.add_listener(listener, initial)
            return HandlerRegistration(self, listener)

    def remove_event_handler(self, handle: HandlerRegistration) -> None:
        """Removes a handler; removing one twice, or one of another informer, does nothing."""
        with self.lock:
            self.processor.remove_listener(handle._listener)

    def _requested_resync_period(self, requested: float | None) -> float:
        period = self.default_resync if requested is None else requested
        if period <= 0:
            return 0.0
        if period < MINIMUM_RESYNC_PERIOD:
            log.warning("resync period %.3fs is below the minimum; using %.0fs", period, MINIMUM_RESYNC_PERIOD)
            period = MINIMUM_RESYNC_PERIOD
        if period < self.resync_check_period:
            if self.started:
                log.warning("resync period %.1fs is smaller than the running informer's check period %.1fs; "
                            "using the check period", period, self.resync_check_period)
                period = self.resync_check_period
            else:
                self.resync_check_period = period
                self.processor.resync_check_period_changed(period)
        return period

    # -- resync: which handlers get the next Sync deltas --------------------------------------

    def should_resync(self) -> bool:
        return self.processor.should_resync(self.clock())

    # -- deltas -----------------------------------------------------------------------------

    def handle_deltas(self, deltas: Deltas, in_initial_list: bool) -> None:
        """client-go processDeltas: update the indexer, then notify, oldest delta first."""
        notes: list[tuple[Notification, bool]] = []
        with self.lock:
            try:
                self._apply(deltas, in_initial_list, notes)
            finally:
                self.processor.distribute_many(notes)

    def handle_delta_batch(self, batch: Batch) -> None:
        """``handle_deltas`` for the keys of one ``pop_batch``, in order, under one lock: the
        indexer takes them all, then the handlers are handed every notification at once (each
        in the order ``handle_deltas`` would have produced it). A key whose deltas fail is
        logged and the others go on, as when the process loop pops them one by one. Runs under
        the DeltaFIFO's lock, so ``has_synced`` cannot turn true before the notifications of
        the first list are in every handler's buffer.

        A run of keys with one delta each, none a deletion (a sync's every key), takes a shorter
        path (``_apply_run``) unless a mutation detector is on."""
        notes: list[tuple[Notification, bool]] = []
        simple = self.mutation_detector is None
        with self.lock:
            try:
                start, end = 0, len(batch)
                while start < end:
                    stop = start
                    while simple and stop < end and len(batch[stop][0]) == 1 and batch[stop][0][0].type != DELETED:
                        stop += 1
                    if stop > start:
                        self._apply_run(batch[start:stop], notes)
                        start = stop
                        continue
                    try:
                        self._apply(batch[start][0], batch[start][1], notes)
                    except Exception:  # noqa: BLE001
                        log.exception("informer: processing deltas failed")
                    start += 1
            finally:
                self.processor.distribute_many(notes)

    def _apply_run(self, run: Batch, notes: list[tuple[Notification, bool]]) -> None:
        """Keys of one non-deleting delta each into the indexer, with no per-key ``_apply``; a
        key that fails is logged and skipped."""
        swap, note = self.indexer.swap, self._note
        for deltas, in_initial_list in run:
            obj = deltas[0].object
            try:
                old = swap(obj)
            except Exception:  # noqa: BLE001
                log.exception("informer: processing deltas failed")
                continue
            note(obj, old, in_initial_list, notes)

    def _apply(self, deltas: Deltas, in_initial_list: bool, notes: list[tuple[Notification, bool]]) -> None:
        """One key's deltas into the indexer; appends the notifications they make to ``notes``."""
        detector = self.mutation_detector
        for delta in deltas:
            obj = delta.object
            if delta.type == DELETED:
                self.indexer.delete(obj)
                notes.append((DeleteNotification(obj), False))
                continue
            if detector is not None:
                detector.add_object(obj)
            self._note(obj, self.indexer.swap(obj), in_initial_list, notes)

    @staticmethod
    def _note(obj: Any, old: Any, in_initial_list: bool, notes: list[tuple[Notification, bool]]) -> None:
        """The notification of ``obj`` stored in place of ``old`` (None: an add)."""
        if old is None:  # first: every object of a sync is an add
            notes.append((AddNotification(obj, in_initial_list), False))
        else:
            # An update that did not change the resourceVersion (a resync, a relist of
            # an unchanged object) reaches only the handlers whose resync is due.
            is_sync = resource_version_of(old) == resource_version_of(obj)
            notes.append((UpdateNotification(old, obj), is_sync))

    @contextmanager
    def _popping(self) -> Iterator[None]:
        """Around one pop of the process loop: a closed FIFO ends the loop, any other error is
        logged (one bad delta must not stop the informer)."""
        try:
            yield
        except FIFOClosed:
            self._fifo_closed = True
        except Exception:  # noqa: BLE001
            log.exception("informer: processing deltas failed")

    def _processing(self) -> bool:
        return not self.stopped and not self._fifo_closed

    def _popped(self) -> None:
        """After each pop of the process loop: the first list fully handed to the indexer and the
        handlers ends the reflector's hold on the garbage collector (sync_gc.py)."""
        if self.reflector.sync_gc.held and self.fifo.has_synced():
            self.reflector.sync_gc.close()

    def _process_loop(self) -> Any:
        raise NotImplementedError

    # -- run and stop -----------------------------------------------------------------------

    def run(self) -> None:
        """Starts the informer's workers (threads, or tasks on the running loop) and returns;
        ``stop()`` ends them. A second call, or one after stop, does nothing."""
        with self.lock:
            if self.started or self.stopped:
                log.warning("the informer was already %s; run() does nothing", "stopped" if self.stopped else "started")
                return
            self.reflector.resync_period = self.resync_check_period
            self.processor.run()  # first: on asyncio it fails off the loop, and nothing has changed
            self.started = True
        self._group.start(self.reflector.run, name=f"reflector-{self.reflector.name}")
        self._group.start(self._process_loop, name=f"informer-{self.reflector.name}")
        if self.mutation_detector is not None:
            self.mutation_detector.start()

    start = run

    def _stopping(self) -> None:
        """Everything stop() does before waiting: handlers, list+watch and the loop end."""
        with self.lock:
            self.stopped = True
            self.processor.stop()
        self.reflector.stop()
        self.reflector.sync_gc.close()  # the reflector closes it too, but its list may be blocked
        self.fifo.close()
        if self.mutation_detector is not None:
            self.mutation_detector.stop()


class SharedIndexInformer(_SharedInformerBase[T]):
    """The shared informer on threads: ``run()`` starts it and returns; ``stop()`` ends it."""

    fifo: DeltaFIFO
    reflector: Reflector
    processor: SharedProcessor
    _group: WaitGroup

    def _flavour(self, client: Any, list_options: ListOptions | None) -> None:
        self.fifo = DeltaFIFO(known_objects=self.indexer, emit_delta_type_replaced=True)
        self.reflector = Reflector(client, self.fifo, should_resync=self.should_resync, list_options=list_options)
        self._group = WaitGroup()
        self.processor = SharedProcessor(self._group)

    def _process_loop(self) -> None:
        while self._processing():
            with self._popping():
                self.fifo.pop_batch(self.handle_delta_batch, POP_BATCH)
            self._popped()

    def stop(self, timeout: float = 10.0) -> None:
        """Stops list+watch and every handler (after the notification in progress); waits for
        the threads, ``timeout`` seconds each at most."""
        self._stopping()
        self._group.wait(timeout)

    def wait_for_cache_sync(self, timeout: float | None = None) -> bool:
        """Wait until the informer has synced (or ``timeout`` seconds pass); True if it did."""
        return wait_for_cache_sync(self.has_synced, timeout=timeout)


class AsyncSharedIndexInformer(_SharedInformerBase[T]):
    """The shared informer on asyncio: ``start()`` on a running loop, ``await stop()``.
    Handlers may be functions or coroutine functions. ``add_event_handler`` and
    ``remove_event_handler`` may be called from any thread: the handler's worker runs on the
    informer's loop all the same. Everything else belongs to the loop's thread."""

    fifo: AsyncDeltaFIFO
    reflector: AsyncReflector
    processor: AsyncSharedProcessor
    _group: AsyncWaitGroup

    def _flavour(self, client: Any, list_options: ListOptions | None) -> None:
        self.fifo = AsyncDeltaFIFO(known_objects=self.indexer, emit_delta_type_replaced=True)
        self.reflector = AsyncReflector(client, self.fifo, should_resync=self.should_resync, list_options=list_options)
        self._group = AsyncWaitGroup()
        self.processor = AsyncSharedProcessor(self._group)

    async def _process_loop(self) -> None:
        while self._processing():
            with self._popping():
                await self.fifo.pop_batch(self.handle_delta_batch, POP_BATCH)
            self._popped()

    async def stop(self, timeout: float = 10.0) -> None:
        """Stops list+watch and every handler (after the notification in progress); tasks still
        running after ``timeout`` seconds are cancelled."""
        self._stopping()
        await self._group.wait(timeout)

    async def wait_for_cache_sync(self, timeout: float | None = None) -> bool:
        """Wait until the informer has synced (or ``timeout`` seconds pass); True if it did."""
        return await async_wait_for_cache_sync(self.has_synced, timeout=timeout)


def _synced_by(synced: tuple[Callable[[], bool], ...], deadline: float | None) -> bool | None:
    """One poll of a cache-sync wait: True once all synced, False past the deadline, else None."""
    if all(s() for s in synced):
        return True
    if deadline is not None and time.monotonic() > deadline:
        return False
    return None


def _deadline(timeout: float | None) -> float | None:
    return None if timeout is None else time.monotonic() + timeout


def wait_for_cache_sync(
    *synced: Callable[[], bool], timeout: float | None = None, poll: float = SYNCED_POLL_PERIOD
) -> bool:
    """Waits until every ``has_synced`` is true; False on timeout."""
    deadline = _deadline(timeout)
    while (outcome := _synced_by(synced, deadline)) is None:
        time.sleep(poll)
    return outcome


async def async_wait_for_cache_sync(
    *synced: Callable[[], bool], timeout: float | None = None, poll: float = SYNCED_POLL_PERIOD
) -> bool:
    """``wait_for_cache_sync`` for asyncio."""
    deadline = _deadline(timeout)
    while (outcome := _synced_by(synced, deadline)) is None:
        await asyncio.sleep(poll)
    return outcome


__all__ = [
    "AsyncSharedIndexInformer", "DeletedFinalStateUnknown", "HandlerRegistration", "InformerStoppedError",
    "MINIMUM_RESYNC_PERIOD", "SharedIndexInformer", "async_wait_for_cache_sync", "wait_for_cache_sync",
]
