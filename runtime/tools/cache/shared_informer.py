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

``SharedIndexInformer`` runs on threads; ``AsyncSharedIndexInformer`` on asyncio tasks, where a
handler may be a plain function or a coroutine function. The logic between the two is shared:
``_InformerCore`` (delta handling, handler bookkeeping, resync) and ``_Registration``.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from kgen.runtime.tools.cache.delta_fifo import DELETED, AsyncDeltaFIFO, DeletedFinalStateUnknown, Deltas, DeltaFIFO, FIFOClosed
from kgen.runtime.tools.cache.mutation_detector import CacheMutationDetector
from kgen.runtime.apimachinery.meta import resource_version_of
from kgen.runtime.tools.cache.reflector import AsyncReflector, Reflector, WatchErrorHandler
from kgen.runtime.tools.cache.store import NAMESPACE_INDEX, Indexer, IndexFunc, meta_namespace_index

log = logging.getLogger("kgen.runtime.tools.cache.shared_informer")

MINIMUM_RESYNC_PERIOD = 1.0  # client-go's minimumResyncPeriod
SYNCED_POLL_PERIOD = 0.1  # client-go's syncedPollPeriod


class InformerStoppedError(RuntimeError):
    pass


@dataclass(frozen=True)
class _Add:
    obj: Any
    in_initial_list: bool


@dataclass(frozen=True)
class _Update:
    old: Any
    new: Any


@dataclass(frozen=True)
class _Delete:
    obj: Any  # the object, or a DeletedFinalStateUnknown


def _determine_resync_period(desired: float, check: float) -> float:
    """client-go determineResyncPeriod: a handler's effective period given the informer's."""
    if desired == 0:
        return 0.0
    if check == 0:
        log.warning("resync period %.1fs ignored: this informer does not resync", desired)
        return 0.0
    if desired < check:
        log.warning("resync period %.1fs raised to the informer's resync check period %.1fs", desired, check)
        return check
    return desired


class _Registration:
    """One handler: its callbacks, its buffer of notifications, its resync schedule."""

    def __init__(
        self,
        on_add: Callable[..., Any] | None,
        on_update: Callable[..., Any] | None,
        on_delete: Callable[..., Any] | None,
        requested_resync_period: float,
        resync_period: float,
        now: float,
    ) -> None:
        self.on_add, self.on_update, self.on_delete = on_add, on_update, on_delete
        self.requested_resync_period = requested_resync_period
        self.resync_period = resync_period
        self.next_resync = now + resync_period
        self.buffer: deque[tuple[Any, bool]] = deque()
        self.initial_pending = 0  # notifications from the initial list not yet handled
        self.lock = threading.Lock()  # guards buffer and initial_pending across threads
        self.cond = threading.Condition(self.lock)  # the thread flavour's wakeup
        self.event: asyncio.Event | None = None  # the asyncio flavour's wakeup
        self.upstream_synced: Callable[[], bool] = lambda: False
        self.removed = False

    def has_synced(self) -> bool:
        """True once the informer synced and this handler handled every initial object."""
        return self.upstream_synced() and self.initial_pending == 0

    def due(self, now: float) -> bool:
        return self.resync_period > 0 and now >= self.next_resync

    def schedule_next(self, now: float) -> None:
        self.next_resync = now + self.resync_period

    def push(self, note: Any, in_initial_list: bool) -> None:
        with self.lock:
            self.buffer.append((note, in_initial_list))
            if in_initial_list:
                self.initial_pending += 1

    def handled(self, in_initial_list: bool) -> None:
        if in_initial_list:
            with self.lock:
                self.initial_pending -= 1

    def call(self, note: Any) -> Any:
        if isinstance(note, _Add):
            return self.on_add(note.obj) if self.on_add else None
        if isinstance(note, _Update):
            return self.on_update(note.old, note.new) if self.on_update else None
        return self.on_delete(note.obj) if self.on_delete else None


class HandlerRegistration:
    """What ``add_event_handler`` returns: ``has_synced()``, and removal."""

    def __init__(self, informer: Any, registration: _Registration) -> None:
        self._informer = informer
        self._registration = registration

    def has_synced(self) -> bool:
        return self._registration.has_synced()

    def remove(self) -> None:
        self._informer.remove_event_handler(self)


class _InformerCore:
    """What both flavours share: the indexer, delta handling, handler bookkeeping, resync.

    Subclasses set ``fifo`` and ``reflector`` and provide ``_wake`` and ``_start_listener``.
    """

    fifo: DeltaFIFO
    reflector: Reflector | AsyncReflector

    def __init__(
        self,
        resync_period: float,
        indexers: dict[str, IndexFunc] | None,
        clock: Callable[[], float],
        mutation_detector: CacheMutationDetector | None,
    ) -> None:
        self.indexer = Indexer(indexers={NAMESPACE_INDEX: meta_namespace_index, **(indexers or {})})
        self.default_resync = resync_period
        self.resync_check_period = resync_period
        self.clock = clock
        self.registrations: list[_Registration] = []
        self.lock = threading.RLock()  # client-go's blockDeltas: deltas vs. handler changes
        self.started = False
        self.stopped = False
        self.mutation_detector = mutation_detector or CacheMutationDetector.from_env()
        self._due: list[_Registration] = []

    # -- configuration (before start) -------------------------------------------------------

    def set_transform(self, transform: Callable[[Any], Any]) -> None:
        """Transforms each object once, before it is stored (e.g. to drop managedFields)."""
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

    def get_indexer(self) -> Indexer:
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
        on_add: Callable[[Any], Any] | None = None,
        on_update: Callable[[Any, Any], Any] | None = None,
        on_delete: Callable[[Any], Any] | None = None,
        *,
        resync_period: float | None = None,
    ) -> HandlerRegistration:
        """Registers callbacks, at any time before stop. ``on_delete`` gets the object or a
        ``DeletedFinalStateUnknown``. ``resync_period`` defaults to the informer's."""
        with self.lock:
            if self.stopped:
                raise InformerStoppedError(
                    "handler was not added to shared informer because it has stopped already"
                )
            requested = self._requested_resync_period(resync_period)
            registration = _Registration(
                on_add, on_update, on_delete, requested,
                _determine_resync_period(requested, self.resync_check_period), self.clock(),
            )
            registration.upstream_synced = self.has_synced
            self.registrations.append(registration)
            if self.started:
                # A late handler first sees what the cache holds, as adds from the initial list;
                # queued under the lock, so its has_synced() is never true before it saw them.
                for obj in self.indexer.list():
                    registration.push(_Add(obj, True), True)
                self._start_listener(registration)
            return HandlerRegistration(self, registration)

    def remove_event_handler(self, handle: HandlerRegistration) -> None:
        """Removes a handler; removing one twice, or one of another informer, does nothing."""
        registration = handle._registration
        with self.lock:
            if registration not in self.registrations:
                return
            self.registrations.remove(registration)
            registration.removed = True
        self._wake(registration)

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
                for registration in self.registrations:
                    registration.resync_period = _determine_resync_period(
                        registration.requested_resync_period, period
                    )
        return period

    # -- resync: which handlers get the next Sync deltas --------------------------------------

    def should_resync(self) -> bool:
        now = self.clock()
        with self.lock:
            self._due = [r for r in self.registrations if r.due(now)]
            for r in self._due:
                r.schedule_next(now)
            return bool(self._due)

    # -- deltas -----------------------------------------------------------------------------

    def handle_deltas(self, deltas: Deltas, in_initial_list: bool) -> None:
        """client-go processDeltas: update the indexer, then notify, oldest delta first."""
        with self.lock:
            for delta in deltas:
                obj = delta.object
                if delta.type == DELETED:
                    self.indexer.delete(obj)
                    self._distribute(_Delete(obj), sync=False)
                    continue
                if self.mutation_detector is not None:
                    self.mutation_detector.add_object(obj)
                old = self.indexer.get(obj)
                if old is not None:
                    self.indexer.update(obj)
                    # An update that did not change the resourceVersion (a resync, a relist of
                    # an unchanged object) reaches only the handlers whose resync is due.
                    is_sync = resource_version_of(old) == resource_version_of(obj)
                    self._distribute(_Update(old, obj), sync=is_sync)
                else:
                    self.indexer.add(obj)
                    self._distribute(_Add(obj, in_initial_list), sync=False, in_initial_list=in_initial_list)

    def _distribute(self, note: Any, sync: bool, in_initial_list: bool = False) -> None:
        for registration in self._due if sync else self.registrations:
            if registration.removed:
                continue
            registration.push(note, in_initial_list)
            self._wake(registration)

    def _wake(self, registration: _Registration) -> None:
        raise NotImplementedError

    def _start_listener(self, registration: _Registration) -> None:
        raise NotImplementedError

    def _mark_stopped(self) -> list[_Registration]:
        with self.lock:
            self.stopped = True
            registrations = list(self.registrations)
        for registration in registrations:
            self._wake(registration)
        return registrations


class SharedIndexInformer(_InformerCore):
    """The shared informer on threads: ``run()`` starts it and returns; ``stop()`` ends it."""

    reflector: Reflector

    def __init__(
        self,
        client: Any,
        resync_period: float = 0.0,
        *,
        indexers: dict[str, IndexFunc] | None = None,
        list_options: Callable[[dict[str, Any]], dict[str, Any]] | None = None,
        clock: Callable[[], float] = time.monotonic,
        mutation_detector: CacheMutationDetector | None = None,
    ) -> None:
        super().__init__(resync_period, indexers, clock, mutation_detector)
        self.client = client
        self.fifo = DeltaFIFO(known_objects=self.indexer, emit_delta_type_replaced=True)
        self.reflector = Reflector(client, self.fifo, should_resync=self.should_resync, list_options=list_options)
        self._threads: list[threading.Thread] = []

    def _wake(self, registration: _Registration) -> None:
        with registration.cond:
            registration.cond.notify()

    def _listener(self, registration: _Registration) -> None:
        while True:
            with registration.cond:
                while not registration.buffer and not registration.removed and not self.stopped:
                    registration.cond.wait()
                if registration.removed or self.stopped:
                    return
                note, initial = registration.buffer.popleft()
            try:
                registration.call(note)
            except Exception:  # noqa: BLE001 - a failing handler must not stop the others
                log.exception("event handler failed")
            finally:
                registration.handled(initial)

    def _start_listener(self, registration: _Registration) -> None:
        self._threads = [t for t in self._threads if t.is_alive()]
        thread = threading.Thread(target=self._listener, args=(registration,), daemon=True, name="informer-handler")
        thread.start()
        self._threads.append(thread)

    def _process_loop(self) -> None:
        while not self.stopped:
            try:
                self.fifo.pop(self.handle_deltas)
            except FIFOClosed:
                return
            except Exception:  # noqa: BLE001 - one bad delta must not stop the informer
                log.exception("informer: processing deltas failed")

    def run(self) -> None:
        """Starts the informer's threads and returns (``stop()`` ends them). A second call, or
        one after stop, does nothing."""
        with self.lock:
            if self.started or self.stopped:
                log.warning("the informer was already %s; run() does nothing", "stopped" if self.stopped else "started")
                return
            self.reflector.resync_period = self.resync_check_period
            self.started = True
            for registration in self.registrations:
                self._start_listener(registration)
        for target, name in ((self.reflector.run, "reflector"), (self._process_loop, "informer")):
            thread = threading.Thread(target=target, daemon=True, name=f"{name}-{self.reflector.name}")
            thread.start()
            self._threads.append(thread)
        if self.mutation_detector is not None:
            self.mutation_detector.start()

    start = run

    def stop(self, timeout: float = 10.0) -> None:
        """Stops list+watch and every handler (after the notification in progress); waits for
        the threads, ``timeout`` seconds each at most."""
        self._mark_stopped()
        self.reflector.stop()
        self.fifo.close()
        if self.mutation_detector is not None:
            self.mutation_detector.stop()
        current = threading.current_thread()
        for thread in self._threads:
            if thread is not current:
                thread.join(timeout)

    def wait_for_cache_sync(self, timeout: float | None = None) -> bool:
        return wait_for_cache_sync(self.has_synced, timeout=timeout)


def wait_for_cache_sync(
    *synced: Callable[[], bool], timeout: float | None = None, poll: float = SYNCED_POLL_PERIOD
) -> bool:
    """Waits until every ``has_synced`` is true; False on timeout."""
    deadline = None if timeout is None else time.monotonic() + timeout
    while not all(s() for s in synced):
        if deadline is not None and time.monotonic() > deadline:
            return False
        time.sleep(poll)
    return True


class AsyncSharedIndexInformer(_InformerCore):
    """The shared informer on asyncio: ``start()`` on a running loop, ``await stop()``.
    Handlers may be functions or coroutine functions; use it from the loop's thread only."""

    fifo: AsyncDeltaFIFO
    reflector: AsyncReflector

    def __init__(
        self,
        client: Any,
        resync_period: float = 0.0,
        *,
        indexers: dict[str, IndexFunc] | None = None,
        list_options: Callable[[dict[str, Any]], dict[str, Any]] | None = None,
        clock: Callable[[], float] = time.monotonic,
        mutation_detector: CacheMutationDetector | None = None,
    ) -> None:
        super().__init__(resync_period, indexers, clock, mutation_detector)
        self.client = client
        self.fifo = AsyncDeltaFIFO(known_objects=self.indexer, emit_delta_type_replaced=True)
        self.reflector = AsyncReflector(client, self.fifo, should_resync=self.should_resync, list_options=list_options)
        self._tasks: list[asyncio.Task[Any]] = []

    def _wake(self, registration: _Registration) -> None:
        if registration.event is not None:
            registration.event.set()

    async def _listener(self, registration: _Registration) -> None:
        assert registration.event is not None
        while True:
            while not registration.buffer and not registration.removed and not self.stopped:
                registration.event.clear()
                await registration.event.wait()
            if registration.removed or self.stopped:
                return
            note, initial = registration.buffer.popleft()
            try:
                result = registration.call(note)
                if inspect.isawaitable(result):
                    await result
            except Exception:  # noqa: BLE001
                log.exception("event handler failed")
            finally:
                registration.handled(initial)

    def _start_listener(self, registration: _Registration) -> None:
        registration.event = asyncio.Event()
        self._tasks = [t for t in self._tasks if not t.done()]
        self._tasks.append(asyncio.get_running_loop().create_task(self._listener(registration)))

    async def _process_loop(self) -> None:
        while not self.stopped:
            try:
                await self.fifo.pop(self.handle_deltas)
            except FIFOClosed:
                return
            except Exception:  # noqa: BLE001
                log.exception("informer: processing deltas failed")

    def start(self) -> None:
        """Starts the informer's tasks on the running loop and returns."""
        with self.lock:
            if self.started or self.stopped:
                log.warning("the informer was already %s; start() does nothing", "stopped" if self.stopped else "started")
                return
            self.reflector.resync_period = self.resync_check_period
            self.started = True
            for registration in self.registrations:
                self._start_listener(registration)
        loop = asyncio.get_running_loop()
        self._tasks += [loop.create_task(self.reflector.run()), loop.create_task(self._process_loop())]
        if self.mutation_detector is not None:
            self.mutation_detector.start()

    run = start

    async def stop(self, timeout: float = 10.0) -> None:
        """Stops list+watch and every handler (after the notification in progress); tasks still
        running after ``timeout`` seconds are cancelled."""
        self._mark_stopped()
        self.reflector.stop()
        self.fifo.close()
        if self.mutation_detector is not None:
            self.mutation_detector.stop()
        tasks = [task for task in self._tasks if task is not asyncio.current_task()]
        if tasks:
            _, pending = await asyncio.wait(tasks, timeout=timeout)
            for task in pending:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

    async def wait_for_cache_sync(self, timeout: float | None = None) -> bool:
        return await async_wait_for_cache_sync(self.has_synced, timeout=timeout)


async def async_wait_for_cache_sync(
    *synced: Callable[[], bool], timeout: float | None = None, poll: float = SYNCED_POLL_PERIOD
) -> bool:
    deadline = None if timeout is None else time.monotonic() + timeout
    while not all(s() for s in synced):
        if deadline is not None and time.monotonic() > deadline:
            return False
        await asyncio.sleep(poll)
    return True


__all__ = [
    "AsyncSharedIndexInformer", "DeletedFinalStateUnknown", "HandlerRegistration", "InformerStoppedError",
    "MINIMUM_RESYNC_PERIOD", "SharedIndexInformer", "async_wait_for_cache_sync", "wait_for_cache_sync",
]
