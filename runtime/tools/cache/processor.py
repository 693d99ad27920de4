"""The informer's fan-out to its handlers: client-go's sharedProcessor and processorListener
(shared_informer.go).

Why a buffer per handler: the informer must never wait for a handler. Each handler (a
listener) gets its own unbounded buffer and its own worker, so a slow handler delays only
itself, and it sees its notifications one at a time, in the order the informer produced them.

Why count the initial list: a handler's ``has_synced`` must not turn true before the handler
has *handled* every object of the informer's first list (client-go's synctrack), not merely
been handed them. Adds from that list carry ``is_in_initial_list``; the listener counts them
in and counts them out once handled. A handler added to a running informer is handed the
whole cache as such adds first.

Why resync is per handler: a resync replays the cache as updates with old == new, to the
handlers whose own resync period is due and to no other. ``should_resync`` picks them (the
reflector asks it before each resync); ``distribute(..., sync=True)`` reaches only them.

Removing a listener or stopping the processor ends its worker after the notification in
progress; what is still buffered is dropped, as in client-go.

The rules are written once, in ``ProcessorCore`` and ``ProcessorListener``, which neither lock,
wait nor read a clock: every operation is given the time, and records which listeners' workers
must be started or woken. ``SharedProcessor`` (threads) and ``AsyncSharedProcessor`` (asyncio)
only lock, wait or await, call the handlers and deliver those wake-ups. On asyncio a handler
may be a coroutine function; it is awaited before the listener's next notification.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
import threading
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, TypeVar

from kgen.runtime.util.wait_group import AsyncWaitGroup, Group, WaitGroup

# The informer's logger: handler failures and resync warnings are logged where they always were.
log = logging.getLogger("kgen.runtime.tools.cache.shared_informer")

R = TypeVar("R")


# -- what a listener is handed ------------------------------------------------------------


@dataclass(frozen=True)
class ResourceEventHandlerFuncs:
    """client-go's ResourceEventHandlerFuncs: any callback may be missing."""

    on_add: Callable[[Any], Any] | None = None
    on_update: Callable[[Any, Any], Any] | None = None
    on_delete: Callable[[Any], Any] | None = None


@dataclass(slots=True)
class AddNotification:
    """An object was added. The notifications are read-only by contract but not frozen: a
    frozen dataclass costs three times as much to make, and a sync makes one per object."""

    obj: Any
    is_in_initial_list: bool

    def deliver(self, handler: ResourceEventHandlerFuncs) -> Any:
        """Call the handler's ``on_add``, if it has one."""
        return handler.on_add(self.obj) if handler.on_add else None


@dataclass(slots=True)
class UpdateNotification:
    """An object was updated (or resynced: old and new then have the same resourceVersion)."""

    old: Any
    new: Any
    is_in_initial_list = False

    def deliver(self, handler: ResourceEventHandlerFuncs) -> Any:
        """Call the handler's ``on_update``, if it has one."""
        return handler.on_update(self.old, self.new) if handler.on_update else None


@dataclass(slots=True)
class DeleteNotification:
    """An object was deleted."""

    obj: Any  # the object, or a DeletedFinalStateUnknown
    is_in_initial_list = False

    def deliver(self, handler: ResourceEventHandlerFuncs) -> Any:
        """Call the handler's ``on_delete``, if it has one."""
        return handler.on_delete(self.obj) if handler.on_delete else None


Notification = AddNotification | UpdateNotification | DeleteNotification
"""What a listener is handed."""


class _End:
    """What ``ProcessorCore.next`` answers once a listener's worker must end."""

    def __repr__(self) -> str:
        return "END"


END = _End()
"""What ``ProcessorCore.next`` answers once a listener's worker must end."""


def determine_resync_period(desired: float, check: float) -> float:
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


# -- the core: the rules, without I/O -------------------------------------------------------


class ProcessorListener:
    """One handler: its callbacks, its buffer of notifications, its resync schedule, and the
    count of initial-list notifications it has not handled yet."""

    def __init__(
        self,
        handler: ResourceEventHandlerFuncs,
        requested_resync_period: float,
        resync_period: float,
        now: float,
        upstream_has_synced: Callable[[], bool],
    ) -> None:
        self.handler = handler
        self.requested_resync_period = requested_resync_period
        self.resync_period = resync_period
        self.next_resync = now + resync_period
        self.pending: deque[Notification] = deque()
        self.initial_pending = 0
        self.upstream_has_synced = upstream_has_synced
        self.removed = False

    def has_synced(self) -> bool:
        """True once the informer synced and this handler handled every initial object."""
        return self.upstream_has_synced() and self.initial_pending == 0

    def add(self, note: Notification) -> None:
        """Buffer ``note``."""
        self.pending.append(note)
        if note.is_in_initial_list:
            self.initial_pending += 1

    def add_many(self, notes: list[Notification], initial: int) -> None:
        """Buffer ``notes``, ``initial`` of which are of the initial list."""
        self.pending.extend(notes)
        self.initial_pending += initial

    def handled(self, note: Notification) -> None:
        """Count ``note`` handled (toward ``has_synced`` if it is of the initial list)."""
        if note.is_in_initial_list:
            self.initial_pending -= 1

    def should_resync(self, now: float) -> bool:
        """Whether the listener's resync is due at ``now``."""
        return self.resync_period > 0 and now >= self.next_resync

    def determine_next_resync(self, now: float) -> None:
        """Schedule the next resync ``resync_period`` after ``now``."""
        self.next_resync = now + self.resync_period


class ProcessorCore:
    """client-go's sharedProcessor state: the listeners, the ones due for resync (``syncing``),
    whether the workers run, and the wake-ups owed to the driver."""

    def __init__(self) -> None:
        self.listeners: list[ProcessorListener] = []
        self.syncing: list[ProcessorListener] = []
        self.started = False
        self.stopped = False
        self._to_start: list[ProcessorListener] = []
        self._to_wake: dict[ProcessorListener, None] = {}  # an ordered set

    def add_listener(self, listener: ProcessorListener, initial: Iterable[Notification] = ()) -> None:
        """Adds a listener, handed ``initial`` before anything else; its worker starts now if
        the processor runs."""
        for note in initial:
            listener.add(note)
        self.listeners.append(listener)
        if self.started and not self.stopped:
            self._to_start.append(listener)

    def remove_listener(self, listener: ProcessorListener) -> bool:
        """Removes one of this processor's listeners; False (and nothing done) for another's."""
        if listener not in self.listeners:
            return False
        self.listeners.remove(listener)
        listener.removed = True
        self._to_wake[listener] = None
        return True

    def distribute(self, note: Notification, sync: bool) -> None:
        """Hands ``note`` to every listener, or only to those due for resync if ``sync``."""
        for listener in self.syncing if sync else self.listeners:
            if listener.removed:
                continue
            listener.add(note)
            self._to_wake[listener] = None

    def distribute_many(self, notes: Iterable[tuple[Notification, bool]]) -> None:
        """``distribute`` for each (note, sync), in order: one call, one wake-up per listener. Each
        run of notes for every listener (not sync) is handed to each listener in one piece."""
        run: list[Notification] = []
        for note, sync in notes:
            if sync:
                self._distribute_run(run)
                run = []
                self.distribute(note, True)
            else:
                run.append(note)
        self._distribute_run(run)

    def _distribute_run(self, run: list[Notification]) -> None:
        if not run:
            return
        initial = sum(1 for note in run if note.is_in_initial_list)
        for listener in self.listeners:
            if not listener.removed:
                listener.add_many(run, initial)
                self._to_wake[listener] = None

    def should_resync(self, now: float) -> bool:
        """Picks the listeners whose resync is due (they get the next sync notifications) and
        schedules their next one; True if there is any."""
        self.syncing = [listener for listener in self.listeners if listener.should_resync(now)]
        for listener in self.syncing:
            listener.determine_next_resync(now)
        return bool(self.syncing)

    def resync_check_period_changed(self, check: float) -> None:
        """Recompute each listener's resync period for the informer's new check period."""
        for listener in self.listeners:
            listener.resync_period = determine_resync_period(listener.requested_resync_period, check)

    def run(self) -> None:
        """Mark the processor running: every listener's worker is owed a start."""
        self.started = True
        if not self.stopped:
            self._to_start.extend(self.listeners)

    def stop(self) -> None:
        """Mark the processor stopped: every listener's worker is woken, to end."""
        self.stopped = True
        self._to_wake.update(dict.fromkeys(self.listeners))

    def next(self, listener: ProcessorListener) -> Notification | _End | None:
        """What the listener's worker does next: handle a notification, end (``END``), or wait
        for a wake-up (None)."""
        if listener.removed or self.stopped:
            return END
        return listener.pending.popleft() if listener.pending else None

    def take(self, listener: ProcessorListener) -> list[Notification] | _End | None:
        """``next`` for every notification buffered: the worker handles them in order and
        reports them with ``done_many``; it checks ``ended`` before each, so that a removal or a
        stop still ends it after the notification in progress."""
        if listener.removed or self.stopped:
            return END
        if not listener.pending:
            return None
        notes = list(listener.pending)
        listener.pending.clear()
        return notes

    def ended(self, listener: ProcessorListener) -> bool:
        """Whether the listener's worker must end (removed, or the processor stopped)."""
        return listener.removed or self.stopped

    def done(self, listener: ProcessorListener, note: Notification) -> None:
        """Record that the listener handled ``note``."""
        listener.handled(note)

    def done_many(self, listener: ProcessorListener, notes: Iterable[Notification]) -> None:
        """Record that the listener handled ``notes``."""
        listener.initial_pending -= sum(1 for note in notes if note.is_in_initial_list)

    def take_wakeups(self) -> tuple[list[ProcessorListener], list[ProcessorListener]]:
        """(listeners whose worker to start, listeners whose worker to wake) owed since the
        last call."""
        wakeups = (self._to_start, list(self._to_wake))
        self._to_start, self._to_wake = [], {}
        return wakeups


# -- the drivers -----------------------------------------------------------------------------


class _ProcessorDriver:
    """What both drivers share: each operation runs on the core under the lock, then the
    wake-ups it owes are delivered. Subclasses wake and start workers."""

    def __init__(self, group: Group) -> None:
        self.core = ProcessorCore()
        self._group = group
        self._lock = threading.Lock()

    def _locked(self, operation: Callable[..., R], *args: Any) -> R:
        with self._lock:
            result = operation(*args)
            to_start, to_wake = self.core.take_wakeups()
            for listener in to_wake:
                self._wake(listener)
            for listener in to_start:
                self._prepare(listener)
                self._group.start(self._worker, listener, name="informer-handler")
        return result

    def _wake(self, listener: ProcessorListener) -> None:
        raise NotImplementedError

    def _prepare(self, listener: ProcessorListener) -> None:
        """Sets up the listener's wake-up before its worker starts."""

    def _worker(self, listener: ProcessorListener) -> Any:
        raise NotImplementedError

    def _deliver(self, listener: ProcessorListener, note: Notification) -> Any:
        """One handler call: a failing handler is logged and must not stop the others nor its
        own later notifications (the batch's notes count as handled either way, ``done_many``)."""
        try:
            return note.deliver(listener.handler)
        except Exception:  # noqa: BLE001
            log.exception("event handler failed")
            return None

    def listeners(self) -> list[ProcessorListener]:
        with self._lock:
            return list(self.core.listeners)

    def add_listener(self, listener: ProcessorListener, initial: Iterable[Notification] = ()) -> None:
        try:
            self._locked(self.core.add_listener, listener, initial)
        except BaseException:
            # Its worker could not start: a listener nobody drains must not stay registered.
            self._locked(self.core.remove_listener, listener)
            raise

    def remove_listener(self, listener: ProcessorListener) -> None:
        self._locked(self.core.remove_listener, listener)

    def distribute(self, note: Notification, sync: bool) -> None:
        self._locked(self.core.distribute, note, sync)

    def distribute_many(self, notes: list[tuple[Notification, bool]]) -> None:
        if notes:
            self._locked(self.core.distribute_many, notes)

    def should_resync(self, now: float) -> bool:
        return self._locked(self.core.should_resync, now)

    def resync_check_period_changed(self, check: float) -> None:
        self._locked(self.core.resync_check_period_changed, check)

    def run(self) -> None:
        """Starts a worker per listener (and per listener added later)."""
        self._locked(self.core.run)

    def stop(self) -> None:
        """Ends every worker after the notification in progress."""
        self._locked(self.core.stop)


class SharedProcessor(_ProcessorDriver):
    """The processor on threads: one daemon thread per listener."""

    def __init__(self, group: WaitGroup) -> None:
        super().__init__(group)
        self._ready: dict[ProcessorListener, threading.Condition] = {}

    def _prepare(self, listener: ProcessorListener) -> None:
        self._ready[listener] = threading.Condition(self._lock)

    def _wake(self, listener: ProcessorListener) -> None:
        ready = self._ready.get(listener)
        if ready is not None:
            ready.notify()

    def _worker(self, listener: ProcessorListener) -> None:
        ready = self._ready[listener]
        try:
            while True:
                with self._lock:
                    while (notes := self.core.take(listener)) is None:
                        ready.wait()
                if isinstance(notes, _End):
                    return
                handled = 0
                try:
                    for note in notes:
                        if self.core.ended(listener):
                            return
                        self._deliver(listener, note)
                        handled += 1
                finally:
                    self._locked(self.core.done_many, listener, notes[:handled] if handled < len(notes) else notes)
        finally:
            with self._lock:
                self._ready.pop(listener, None)


class AsyncSharedProcessor(_ProcessorDriver):
    """The processor on asyncio: one task per listener, on the loop that ran ``run``. Listeners
    may be added and removed from any thread: their workers start, and are woken, on that loop
    (a future's result may only be set there; ``_waiting`` is only touched there)."""

    def __init__(self, group: AsyncWaitGroup) -> None:
        super().__init__(group)
        self._loop_group = group
        self._waiting: dict[ProcessorListener, asyncio.Future[None]] = {}

    def run(self) -> None:
        """Binds the workers to the running loop, before another thread may start one."""
        self._loop_group.bind()
        super().run()

    def _wake(self, listener: ProcessorListener) -> None:
        self._loop_group.call_soon(self._wake_on_loop, listener)

    def _wake_on_loop(self, listener: ProcessorListener) -> None:
        waiter = self._waiting.pop(listener, None)
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    async def _wait(self, listener: ProcessorListener) -> None:
        waiter = asyncio.get_running_loop().create_future()
        self._waiting[listener] = waiter
        try:
            await waiter
        finally:
            if self._waiting.get(listener) is waiter:
                del self._waiting[listener]

    async def _worker(self, listener: ProcessorListener) -> None:
        while True:
            while (notes := self._locked(self.core.take, listener)) is None:
                await self._wait(listener)
            if isinstance(notes, _End):
                return
            handled = 0
            try:
                for note in notes:
                    if self.core.ended(listener):
                        return
                    result = self._deliver(listener, note)
                    if inspect.isawaitable(result):
                        try:
                            await result
                        except Exception:  # noqa: BLE001
                            log.exception("event handler failed")
                    handled += 1
            finally:
                self._locked(self.core.done_many, listener, notes[:handled] if handled < len(notes) else notes)


__all__ = [
    "END", "AddNotification", "AsyncSharedProcessor", "AsyncWaitGroup", "DeleteNotification", "Group", "Notification",
    "ProcessorCore", "ProcessorListener", "ResourceEventHandlerFuncs", "SharedProcessor", "UpdateNotification",
    "WaitGroup", "determine_resync_period",
]
