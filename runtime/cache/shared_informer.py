"""SharedIndexInformer: one list+watch, one cache, many event handlers (client-go shared_informer.go).

Deltas popped from the DeltaFIFO update the indexer first, then become notifications for every
registered handler. Each handler has its own unbounded buffer and its own worker, so a slow
handler delays only itself. A handler added after the informer started first receives an add
for every object already in the cache. Resync replays the cache (Sync deltas become updates
with old == new) to the handlers whose resync period is due; it never lists again.

``SharedIndexInformer`` runs on threads; ``AsyncSharedIndexInformer`` on asyncio tasks, where a
handler may be a plain function or a coroutine function. The logic between the two is shared:
``_handle_deltas``, ``_Registration`` and the resync bookkeeping.
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

from ..resource import AsyncResourceClient, ResourceClient
from .delta_fifo import DELETED, REPLACED, SYNC, AsyncDeltaFIFO, DeletedFinalStateUnknown, Deltas, DeltaFIFO, FIFOClosed
from .mutation_detector import CacheMutationDetector
from .reflector import AsyncReflector, Reflector, resource_version_of
from .store import Indexer, IndexFunc, meta_namespace_index

log = logging.getLogger("kgen.runtime.cache.shared_informer")

MINIMUM_RESYNC_PERIOD = 1.0  # client-go's minimumResyncPeriod


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


class _Registration:
    """One handler: its callbacks, its buffer of notifications, its resync schedule."""

    def __init__(
        self,
        on_add: Callable[..., Any] | None,
        on_update: Callable[..., Any] | None,
        on_delete: Callable[..., Any] | None,
        resync_period: float,
        clock: Callable[[], float],
    ) -> None:
        self.on_add, self.on_update, self.on_delete = on_add, on_update, on_delete
        self.resync_period = resync_period
        self._clock = clock
        self.next_resync = clock() + resync_period if resync_period else float("inf")
        self.buffer: deque[Any] = deque()
        self.initial_pending = 0  # notifications from the initial list not yet handled
        self.upstream_synced: Callable[[], bool] = lambda: False
        self.replayed = False  # the cache replay for a late handler is queued
        self.removed = False

    def has_synced(self) -> bool:
        """True once the informer synced and this handler handled every initial object."""
        return self.replayed and self.upstream_synced() and self.initial_pending == 0

    def due(self, now: float) -> bool:
        return self.resync_period > 0 and now >= self.next_resync

    def schedule_next(self, now: float) -> None:
        self.next_resync = now + self.resync_period

    def call(self, note: Any) -> Any:
        if isinstance(note, _Add):
            return self.on_add(note.obj) if self.on_add else None
        if isinstance(note, _Update):
            return self.on_update(note.old, note.new) if self.on_update else None
        return self.on_delete(note.obj) if self.on_delete else None


class _InformerCore:
    """What both flavours share: the indexer, delta handling, handler bookkeeping."""

    def __init__(
        self,
        resync_period: float,
        indexers: dict[str, IndexFunc] | None,
        clock: Callable[[], float],
        mutation_detector: CacheMutationDetector | None,
    ) -> None:
        self.indexer = Indexer(indexers={"namespace": meta_namespace_index, **(indexers or {})})
        self.default_resync = resync_period
        self.resync_check_period = resync_period
        self.clock = clock
        self.registrations: list[_Registration] = []
        self.lock = threading.RLock()
        self.transform: Callable[[Any], Any] | None = None
        self.started = False
        self.stopped = False
        self.mutation_detector = mutation_detector or CacheMutationDetector.from_env()
        self._due: list[_Registration] = []

    # resync: which handlers get the next Sync deltas
    def should_resync(self) -> bool:
        now = self.clock()
        with self.lock:
            self._due = [r for r in self.registrations if r.due(now)]
            for r in self._due:
                r.schedule_next(now)
            return bool(self._due)

    def _resync_period_for(self, requested: float | None) -> float:
        period = self.default_resync if requested is None else requested
        if period and period < MINIMUM_RESYNC_PERIOD:
            log.warning("resync period %.3fs is below the minimum; using %.0fs", period, MINIMUM_RESYNC_PERIOD)
            period = MINIMUM_RESYNC_PERIOD
        if period and self.resync_check_period and period < self.resync_check_period:
            if self.started:
                log.warning("resync period %.1fs is smaller than the running informer's check period %.1fs; "
                            "using the check period", period, self.resync_check_period)
                period = self.resync_check_period
            else:
                self.resync_check_period = period
        elif period and not self.resync_check_period and not self.started:
            self.resync_check_period = period
        return period

    def _distribute(self, note: Any, sync: bool, in_initial_list: bool = False) -> None:
        targets = self._due if sync else self.registrations
        for r in targets:
            if r.removed:
                continue
            if in_initial_list:
                r.initial_pending += 1
            r.buffer.append((note, in_initial_list))
            self._wake(r)

    def _wake(self, registration: _Registration) -> None:
        raise NotImplementedError

    def handle_deltas(self, deltas: Deltas, in_initial_list: bool) -> None:
        """client-go processDeltas: update the indexer, then notify, oldest delta first."""
        with self.lock:
            for delta in deltas:
                obj = delta.object
                if self.transform is not None and not isinstance(obj, DeletedFinalStateUnknown):
                    obj = self.transform(obj)
                if delta.type == DELETED:
                    self.indexer.delete(obj)
                    self._distribute(_Delete(obj), sync=False)
                    continue
                if self.mutation_detector is not None:
                    self.mutation_detector.add_object(obj)
                old = self.indexer.get(obj)
                if old is not None:
                    self.indexer.update(obj)
                    is_sync = delta.type == SYNC or (
                        delta.type == REPLACED and resource_version_of(old) == resource_version_of(obj)
                    )
                    self._distribute(_Update(old, obj), sync=is_sync)
                else:
                    self.indexer.add(obj)
                    self._distribute(_Add(obj, in_initial_list), sync=False, in_initial_list=in_initial_list)

    def new_registration(
        self, on_add: Any, on_update: Any, on_delete: Any, resync_period: float | None, upstream_synced: Callable[[], bool]
    ) -> _Registration:
        with self.lock:
            if self.stopped:
                raise RuntimeError("the informer has stopped: handlers can no longer be added")
            registration = _Registration(on_add, on_update, on_delete, self._resync_period_for(resync_period), self.clock)
            registration.upstream_synced = upstream_synced
            self.registrations.append(registration)
            if self.started:
                # A late handler first sees what the cache holds, as adds from the initial list.
                for obj in self.indexer.list():
                    registration.initial_pending += 1
                    registration.buffer.append((_Add(obj, True), True))
            registration.replayed = True
            self._wake(registration)
            return registration

    def remove(self, registration: _Registration) -> None:
        with self.lock:
            registration.removed = True
            if registration in self.registrations:
                self.registrations.remove(registration)
            self._wake(registration)


class HandlerRegistration:
    """What ``add_event_handler`` returns: ``has_synced()``, and removal."""

    def __init__(self, informer: Any, registration: _Registration) -> None:
        self._informer = informer
        self._registration = registration

    def has_synced(self) -> bool:
        return self._registration.has_synced()

    def remove(self) -> None:
        self._informer.remove_event_handler(self)


class SharedIndexInformer(_InformerCore):
    def __init__(
        self,
        client: ResourceClient[Any, Any],
        resync_period: float = 0.0,
        *,
        indexers: dict[str, IndexFunc] | None = None,
        list_options: Callable[[dict[str, Any]], dict[str, Any]] = lambda o: o,
        clock: Callable[[], float] = time.monotonic,
        mutation_detector: CacheMutationDetector | None = None,
    ) -> None:
        super().__init__(resync_period, indexers, clock, mutation_detector)
        self.client = client
        self.fifo = DeltaFIFO(known_objects=self.indexer)
        self.reflector = Reflector(client, self.fifo, should_resync=self.should_resync, list_options=list_options)
        self._threads: list[threading.Thread] = []
        self._conds: dict[int, threading.Condition] = {}

    # -- handlers -----------------------------------------------------------------------

    def add_event_handler(
        self,
        on_add: Callable[[Any], Any] | None = None,
        on_update: Callable[[Any, Any], Any] | None = None,
        on_delete: Callable[[Any], Any] | None = None,
        *,
        resync_period: float | None = None,
    ) -> HandlerRegistration:
        """Registers callbacks, at any time. on_delete gets the object or a DeletedFinalStateUnknown."""
        with self.lock:
            self._conds.setdefault(0, threading.Condition(self.lock))
            registration = self.new_registration(on_add, on_update, on_delete, resync_period, self.has_synced)
            if self.started:
                self._start_listener(registration)
            return HandlerRegistration(self, registration)

    def remove_event_handler(self, handle: HandlerRegistration) -> None:
        self.remove(handle._registration)

    def set_transform(self, transform: Callable[[Any], Any]) -> None:
        with self.lock:
            if self.started:
                raise RuntimeError("set_transform must be called before the informer starts")
            self.transform = transform

    def add_indexers(self, indexers: dict[str, IndexFunc]) -> None:
        self.indexer.add_indexers(indexers)

    def get_indexer(self) -> Indexer:
        return self.indexer

    def get_store(self) -> Indexer:
        return self.indexer

    def has_synced(self) -> bool:
        return self.fifo.has_synced()

    @property
    def last_sync_resource_version(self) -> str:
        return self.reflector.last_sync_resource_version

    # -- running --------------------------------------------------------------------------

    def _wake(self, registration: _Registration) -> None:
        cond = self._conds.get(0)
        if cond is not None:
            cond.notify_all()

    def _listener(self, registration: _Registration) -> None:
        cond = self._conds[0]
        while True:
            with cond:
                while not registration.buffer and not registration.removed and not self.stopped:
                    cond.wait()
                if registration.removed or (self.stopped and not registration.buffer):
                    return
                note, initial = registration.buffer.popleft()
            try:
                registration.call(note)
            except Exception:  # noqa: BLE001 - a failing handler must not stop the others
                log.exception("event handler failed")
            finally:
                if initial:
                    with cond:
                        registration.initial_pending -= 1

    def _start_listener(self, registration: _Registration) -> None:
        thread = threading.Thread(target=self._listener, args=(registration,), daemon=True, name="informer-handler")
        thread.start()
        self._threads.append(thread)

    def _process_loop(self) -> None:
        while True:
            try:
                self.fifo.pop(self.handle_deltas)
            except FIFOClosed:
                return

    def run(self) -> None:
        """Starts the informer's threads and returns (``stop()`` ends them)."""
        with self.lock:
            if self.started:
                return
            self._conds.setdefault(0, threading.Condition(self.lock))
            self.reflector.resync_period = self.resync_check_period
            self.started = True
            for registration in self.registrations:
                self._start_listener(registration)
        for target, name in ((self.reflector.run, "reflector"), (self._process_loop, "informer")):
            thread = threading.Thread(target=target, daemon=True, name=name)
            thread.start()
            self._threads.append(thread)
        if self.mutation_detector is not None:
            self.mutation_detector.start()

    start = run

    def stop(self, timeout: float = 10.0) -> None:
        with self.lock:
            self.stopped = True
            self._wake(None)  # type: ignore[arg-type]
        self.reflector.stop()
        self.fifo.close()
        if self.mutation_detector is not None:
            self.mutation_detector.stop()
        for thread in self._threads:
            thread.join(timeout)

    def wait_for_cache_sync(self, timeout: float | None = None) -> bool:
        return wait_for_cache_sync(self.has_synced, timeout=timeout)


def wait_for_cache_sync(*synced: Callable[[], bool], timeout: float | None = None, poll: float = 0.05) -> bool:
    """Waits until every ``has_synced`` is true; False on timeout."""
    deadline = None if timeout is None else time.monotonic() + timeout
    while not all(s() for s in synced):
        if deadline is not None and time.monotonic() > deadline:
            return False
        time.sleep(poll)
    return True


class AsyncSharedIndexInformer(_InformerCore):
    """The shared informer on asyncio. Handlers may be functions or coroutine functions."""

    def __init__(
        self,
        client: AsyncResourceClient[Any, Any],
        resync_period: float = 0.0,
        *,
        indexers: dict[str, IndexFunc] | None = None,
        list_options: Callable[[dict[str, Any]], dict[str, Any]] = lambda o: o,
        clock: Callable[[], float] = time.monotonic,
        mutation_detector: CacheMutationDetector | None = None,
    ) -> None:
        super().__init__(resync_period, indexers, clock, mutation_detector)
        self.client = client
        self.fifo = AsyncDeltaFIFO(known_objects=self.indexer)
        self.reflector = AsyncReflector(client, self.fifo, should_resync=self.should_resync, list_options=list_options)
        self._tasks: list[asyncio.Task[Any]] = []
        self._events: dict[int, asyncio.Event] = {}

    def add_event_handler(
        self,
        on_add: Callable[[Any], Any] | None = None,
        on_update: Callable[[Any, Any], Any] | None = None,
        on_delete: Callable[[Any], Any] | None = None,
        *,
        resync_period: float | None = None,
    ) -> HandlerRegistration:
        registration = self.new_registration(on_add, on_update, on_delete, resync_period, self.has_synced)
        if self.started:
            self._start_listener(registration)
        return HandlerRegistration(self, registration)

    def remove_event_handler(self, handle: HandlerRegistration) -> None:
        self.remove(handle._registration)

    def set_transform(self, transform: Callable[[Any], Any]) -> None:
        if self.started:
            raise RuntimeError("set_transform must be called before the informer starts")
        self.transform = transform

    def has_synced(self) -> bool:
        return self.fifo.has_synced()

    def _wake(self, registration: _Registration) -> None:
        event = self._events.get(id(registration))
        if event is not None:
            event.set()

    async def _listener(self, registration: _Registration) -> None:
        event = self._events.setdefault(id(registration), asyncio.Event())
        while True:
            while not registration.buffer and not registration.removed and not self.stopped:
                event.clear()
                await event.wait()
            if registration.removed or (self.stopped and not registration.buffer):
                return
            note, initial = registration.buffer.popleft()
            try:
                result = registration.call(note)
                if inspect.isawaitable(result):
                    await result
            except Exception:  # noqa: BLE001
                log.exception("event handler failed")
            finally:
                if initial:
                    registration.initial_pending -= 1

    def _start_listener(self, registration: _Registration) -> None:
        self._events.setdefault(id(registration), asyncio.Event())
        self._tasks.append(asyncio.create_task(self._listener(registration)))

    async def _process_loop(self) -> None:
        while True:
            try:
                await self.fifo.pop(self.handle_deltas)
            except FIFOClosed:
                return

    def start(self) -> None:
        """Starts the informer's tasks on the running loop."""
        if self.started:
            return
        self.reflector.resync_period = self.resync_check_period
        self.started = True
        for registration in self.registrations:
            self._start_listener(registration)
        self._tasks += [asyncio.create_task(self.reflector.run()), asyncio.create_task(self._process_loop())]

    async def stop(self) -> None:
        self.stopped = True
        for event in self._events.values():
            event.set()
        self.reflector.stop()
        self.fifo.close()
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    async def wait_for_cache_sync(self, timeout: float | None = None) -> bool:
        return await async_wait_for_cache_sync(self.has_synced, timeout=timeout)


async def async_wait_for_cache_sync(*synced: Callable[[], bool], timeout: float | None = None, poll: float = 0.05) -> bool:
    deadline = None if timeout is None else time.monotonic() + timeout
    while not all(s() for s in synced):
        if deadline is not None and time.monotonic() > deadline:
            return False
        await asyncio.sleep(poll)
    return True
