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
from collections.abc import Callable, Coroutine, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

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


@dataclass(frozen=True)
class AddNotification:
    obj: Any
    is_in_initial_list: bool

    def deliver(self, handler: ResourceEventHandlerFuncs) -> Any:
        return handler.on_add(self.obj) if handler.on_add else None


@dataclass(frozen=True)
class UpdateNotification:
    old: Any
    new: Any
    is_in_initial_list = False

    def deliver(self, handler: ResourceEventHandlerFuncs) -> Any:
        return handler.on_update(self.old, self.new) if handler.on_update else None


@dataclass(frozen=True)
class DeleteNotification:
    obj: Any  # the object, or a DeletedFinalStateUnknown
    is_in_initial_list = False

    def deliver(self, handler: ResourceEventHandlerFuncs) -> Any:
        return handler.on_delete(self.obj) if handler.on_delete else None


Notification = AddNotification | UpdateNotification | DeleteNotification


class _End:
    """What ``ProcessorCore.next`` answers once a listener's worker must end."""

    def __repr__(self) -> str:
        return "END"


END = _End()


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
        self.pending.append(note)
        if note.is_in_initial_list:
            self.initial_pending += 1

    def handled(self, note: Notification) -> None:
        if note.is_in_initial_list:
            self.initial_pending -= 1

    def should_resync(self, now: float) -> bool:
        return self.resync_period > 0 and now >= self.next_resync

    def determine_next_resync(self, now: float) -> None:
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

    def should_resync(self, now: float) -> bool:
        """Picks the listeners whose resync is due (they get the next sync notifications) and
        schedules their next one; True if there is any."""
        self.syncing = [listener for listener in self.listeners if listener.should_resync(now)]
        for listener in self.syncing:
            listener.determine_next_resync(now)
        return bool(self.syncing)

    def resync_check_period_changed(self, check: float) -> None:
        for listener in self.listeners:
            listener.resync_period = determine_resync_period(listener.requested_resync_period, check)

    def run(self) -> None:
        self.started = True
        if not self.stopped:
            self._to_start.extend(self.listeners)

    def stop(self) -> None:
        self.stopped = True
        self._to_wake.update(dict.fromkeys(self.listeners))

    def next(self, listener: ProcessorListener) -> Notification | _End | None:
        """What the listener's worker does next: handle a notification, end (``END``), or wait
        for a wake-up (None)."""
        if listener.removed or self.stopped:
            return END
        return listener.pending.popleft() if listener.pending else None

    def done(self, listener: ProcessorListener, note: Notification) -> None:
        listener.handled(note)

    def take_wakeups(self) -> tuple[list[ProcessorListener], list[ProcessorListener]]:
        """(listeners whose worker to start, listeners whose worker to wake) owed since the
        last call."""
        wakeups = (self._to_start, list(self._to_wake))
        self._to_start, self._to_wake = [], {}
        return wakeups


# -- where the workers run: client-go's wait.Group ------------------------------------------


class WaitGroup:
    """Functions run on daemon threads; ``wait`` joins them."""

    def __init__(self) -> None:
        self._threads: list[threading.Thread] = []
        self._lock = threading.Lock()

    def start(self, fn: Callable[..., Any], *args: Any, name: str) -> None:
        thread = threading.Thread(target=fn, args=args, daemon=True, name=name)
        with self._lock:
            self._threads = [t for t in self._threads if t.is_alive()]
            self._threads.append(thread)
        thread.start()

    def wait(self, timeout: float) -> None:
        """Joins every thread, ``timeout`` seconds each at most (never the calling one)."""
        current = threading.current_thread()
        with self._lock:
            threads = list(self._threads)
        for thread in threads:
            if thread is not current:
                thread.join(timeout)


class AsyncWaitGroup:
    """Coroutine functions run as tasks on one event loop, the one running the first ``start``;
    ``await wait`` ends them.

    Why later starts may come from any thread: a handler may be added to a running informer
    from another thread, and its worker must still run on the informer's loop. Such a start is
    handed to the loop (``call_soon_threadsafe``); once the loop is closed it fails, so that
    nobody is left registered with no worker to drain its buffer."""

    def __init__(self) -> None:
        self._tasks: list[asyncio.Task[Any]] = []
        self.loop: asyncio.AbstractEventLoop | None = None

    def bind(self) -> asyncio.AbstractEventLoop:
        """The group's loop: the running one, if none was bound yet."""
        if self.loop is None:
            self.loop = asyncio.get_running_loop()
        return self.loop

    def start(self, fn: Callable[..., Coroutine[Any, Any, Any]], *args: Any, name: str) -> None:
        loop = self.bind()
        if _running_loop() is loop:
            self._create_task(fn, args, name)
            return
        try:
            loop.call_soon_threadsafe(self._create_task, fn, args, name)
        except RuntimeError:  # the loop is closed
            raise RuntimeError(f"cannot start {name}: the event loop it must run on is closed") from None

    def _create_task(self, fn: Callable[..., Coroutine[Any, Any, Any]], args: tuple[Any, ...], name: str) -> None:
        self._tasks = [t for t in self._tasks if not t.done()]
        self._tasks.append(asyncio.get_running_loop().create_task(fn(*args), name=name))

    def call_soon(self, callback: Callable[..., Any], *args: Any) -> None:
        """Runs ``callback`` on the group's loop: now if called there (or before any start),
        else as soon as the loop gets to it; never once the loop is closed."""
        if self.loop is None or _running_loop() is self.loop:
            callback(*args)
            return
        try:
            self.loop.call_soon_threadsafe(callback, *args)
        except RuntimeError:
            pass  # the loop is closed: nothing runs on it any more, nothing waits to be called

    async def wait(self, timeout: float) -> None:
        """Waits ``timeout`` seconds at most for every task (never the calling one), then
        cancels the rest."""
        tasks = [task for task in self._tasks if task is not asyncio.current_task()]
        if tasks:
            _, pending = await asyncio.wait(tasks, timeout=timeout)
            for task in pending:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)


class Group(Protocol):
    def start(self, fn: Callable[..., Any], *args: Any, name: str) -> None: ...


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

    @contextmanager
    def _handling(self, listener: ProcessorListener, note: Notification) -> Iterator[None]:
        """Around one handler call: a failing handler is logged and must not stop the others
        nor its own later notifications; the note counts as handled either way."""
        try:
            yield
        except Exception:  # noqa: BLE001
            log.exception("event handler failed")
        finally:
            self._locked(self.core.done, listener, note)

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
                    while (note := self.core.next(listener)) is None:
                        ready.wait()
                if isinstance(note, _End):
                    return
                with self._handling(listener, note):
                    note.deliver(listener.handler)
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
            while (note := self._locked(self.core.next, listener)) is None:
                await self._wait(listener)
            if isinstance(note, _End):
                return
            with self._handling(listener, note):
                result = note.deliver(listener.handler)
                if inspect.isawaitable(result):
                    await result


def _running_loop() -> asyncio.AbstractEventLoop | None:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


__all__ = [
    "END", "AddNotification", "AsyncSharedProcessor", "AsyncWaitGroup", "DeleteNotification", "Notification",
    "ProcessorCore", "ProcessorListener", "ResourceEventHandlerFuncs", "SharedProcessor", "UpdateNotification",
    "WaitGroup", "determine_resync_period",
]
