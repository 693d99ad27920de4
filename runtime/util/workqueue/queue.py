"""client-go's work queue (queue.go, the ``Type`` behind ``workqueue.New``).

Why not a plain FIFO: a controller must never reconcile one key in two workers at once, and
must never drop a change that lands while a key is being reconciled. client-go gets both from
two sets. ``dirty`` holds every key that needs processing; ``processing`` holds every key a
worker has taken and not yet marked ``done``. Adding a key that is already dirty does nothing,
so a burst of events for one object costs one reconcile. Adding a key that is being processed
only marks it dirty; ``done`` then puts it back in line, so the worker that finishes sees the
newest state on its next pass and no second worker ever holds the key. Keys are compared by
``==``/``hash``, like Go map keys, so they must be hashable and should be immutable.

After ``shut_down`` the queue ignores adds, and ``get`` hands out what is still queued and then
answers ``shutdown=True``. ``shut_down_with_drain`` also waits until every taken key is done.

The rules are written once, in ``QueueCore``, which neither locks, blocks nor reads a clock:
each operation is given the time, and records which waiters should be woken. ``Queue`` (threads)
and ``AsyncQueue`` (asyncio) only lock or not, wait or await, and deliver those wake-ups.
"""

from __future__ import annotations

import asyncio
import sys
import threading
import time
import weakref
from collections import deque
from collections.abc import Callable, Hashable
from typing import TYPE_CHECKING, Any, Generic, Literal, TypeVar, cast

from kgen.runtime.util.workqueue.metrics import MetricsProvider, QueueMetrics, new_queue_metrics

if TYPE_CHECKING:
    from typing import Never

T = TypeVar("T", bound=Hashable)
"""The type of a queue's keys (hashable)."""

Got = tuple[T, Literal[False]] | tuple["Never", Literal[True]]
"""What ``get`` answers: ``(item, False)``, or ``(None, True)`` once the queue is shut down and
empty. At shutdown there is no item (client-go returns Go's zero value), so its place is typed
``Never``: after ``item, shutdown = q.get(); if shutdown: return`` mypy knows ``item: T`` (it
cannot tie two unpacked names together, so ``None`` there would cost every worker a second
check), and ``got = q.get(); if not got[1]: got[0]`` narrows the same way. Reading the item
without looking at ``shutdown`` first is the bug; at runtime it is None."""

Clock = Callable[[], float]
"""A monotonic clock in seconds; injected so tests step time instead of sleeping."""

UNFINISHED_WORK_UPDATE_PERIOD = 0.5
"""client-go's defaultUnfinishedWorkUpdatePeriod."""

EVERYONE = sys.maxsize
""""Wake every waiter": enough for any number of waiters."""


class QueueCore(Generic[T]):
    """The state of client-go's Type and the rules over it, with no I/O.

    Every element of the FIFO is dirty and not processing; a key in both sets waits for
    ``done``. Methods that take ``now`` first let ``advance`` run (the delaying core moves due
    keys in there), so a layer above sees time pass at every call, not only when a timer fires.
    """

    def __init__(self, metrics: QueueMetrics) -> None:
        self.metrics = metrics
        self._queue: deque[T] = deque()
        self._dirty: set[T] = set()
        self._processing: set[T] = set()
        self.shutting_down = False
        self._drain = False
        self._getters_to_wake = 0
        self._wake_drainers = False

    def advance(self, now: float) -> None:
        """Lets time pass: nothing is time-driven in the plain queue."""

    def add(self, item: T, now: float) -> None:
        """Add ``item`` unless it is already waiting (a key being processed goes back in line at
        ``done``)."""
        self.advance(now)
        self._add(item, now)

    def _add(self, item: T, now: float) -> None:
        if self.shutting_down or item in self._dirty:
            return
        self.metrics.add(item, now)
        self._dirty.add(item)
        if item in self._processing:
            return  # done() puts it back in line
        self._queue.append(item)
        self._getters_to_wake += 1

    def length(self, now: float) -> int:
        """How many keys wait."""
        self.advance(now)
        return len(self._queue)

    def can_get(self, now: float) -> bool:
        """Whether ``get`` answers now: with a key, or with shutdown once nothing is left."""
        self.advance(now)
        return bool(self._queue) or self.shutting_down

    def get(self, now: float) -> tuple[T | None, bool]:
        """The next key and False, or ``(None, True)`` if none waits; the key is processing until
        ``done``."""
        self.advance(now)
        if not self._queue:
            return None, True
        item = self._queue.popleft()
        self.metrics.get(item, now)
        self._processing.add(item)
        self._dirty.discard(item)
        return item, False

    def done(self, item: T, now: float) -> None:
        """Mark ``item`` done; if it was added meanwhile, it goes back in line."""
        self.advance(now)
        self.metrics.done(item, now)
        self._processing.discard(item)
        if item in self._dirty:
            self._queue.append(item)
            self._getters_to_wake += 1
        elif not self._processing:
            self._wake_drainers = True

    def shut_down(self, drain: bool, now: float) -> None:
        """Refuse adds from now on; with ``drain``, a drain waits for the keys handed out to be done."""
        self.advance(now)
        # A later shut_down() clears drain, which releases a blocked shut_down_with_drain():
        # client-go's escape hatch for a second SIGTERM.
        self._drain = drain
        self.shutting_down = True
        self._getters_to_wake = EVERYONE
        self._wake_drainers = True

    def draining(self) -> bool:
        """Whether shut_down_with_drain must keep waiting for workers to call done."""
        return self._drain and bool(self._processing)

    def wait_timeout(self, now: float) -> float | None:
        """How long a getter may sleep before time alone could give it a key (None: forever)."""
        return None

    def update_unfinished_work(self, now: float) -> None:
        # The periodic tick also moves due keys over, so depth and adds stay current even when
        # no worker or producer touches the queue.
        """Move due keys over and refresh the unfinished-work gauges (the periodic tick)."""
        self.advance(now)
        if not self.shutting_down:
            self.metrics.update_unfinished_work(now)

    def take_wakeups(self) -> tuple[int, bool]:
        """(getters to wake, whether to wake the drainers) owed since the last call."""
        wakeups = (self._getters_to_wake, self._wake_drainers)
        self._getters_to_wake, self._wake_drainers = 0, False
        return wakeups


def _got(item: T | None, shutdown: bool) -> Got[T]:
    """``QueueCore.get``'s answer as ``Got``: the one place the item's absence is typed."""
    return cast("Got[T]", (None, True)) if shutdown else (cast(T, item), False)


def _new_queue_core(name: str, provider: MetricsProvider | None) -> QueueCore[Any]:
    return QueueCore(new_queue_metrics(name, provider))


class Queue(Generic[T]):
    """client-go's Type for threads: ``get`` blocks, everything else returns at once.

    ``name`` labels the queue's metrics; an unnamed queue publishes none. ``metrics_provider``
    defaults to the one set with ``set_metrics_provider``. When metrics are on, a daemon thread
    refreshes the unfinished-work gauges every ``unfinished_work_update_period`` seconds until
    shutdown (or until the queue is garbage collected).
    """

    def __init__(
        self,
        *,
        name: str = "",
        clock: Clock = time.monotonic,
        metrics_provider: MetricsProvider | None = None,
        unfinished_work_update_period: float = UNFINISHED_WORK_UPDATE_PERIOD,
    ) -> None:
        self.name = name
        self._clock = clock
        self._core: QueueCore[T] = self._new_core(name, metrics_provider)
        self._lock = threading.Lock()
        self._items = threading.Condition(self._lock)
        self._idle = threading.Condition(self._lock)
        self._stop_updates = threading.Event()
        if self._core.metrics.enabled:
            threading.Thread(
                target=_update_unfinished_work_loop,
                args=(weakref.ref(self), self._stop_updates, unfinished_work_update_period),
                name=f"workqueue-metrics-{name}",
                daemon=True,
            ).start()

    def _new_core(self, name: str, provider: MetricsProvider | None) -> QueueCore[T]:
        return _new_queue_core(name, provider)

    def _wake(self) -> None:
        getters, drainers = self._core.take_wakeups()
        if getters:
            self._items.notify(getters)
        if drainers:
            self._idle.notify_all()

    def add(self, item: T) -> None:
        """Add ``item`` unless it is already waiting; a key being processed goes back in line at
        ``done``. Ignored after shutdown."""
        with self._lock:
            self._core.add(item, self._clock())
            self._wake()

    def __len__(self) -> int:
        """For information only: by the time the caller looks, workers may have moved on."""
        with self._lock:
            length = self._core.length(self._clock())
            self._wake()
            return length

    def get(self) -> Got[T]:
        """Blocks for the next key; ``(None, True)`` once shut down and empty (see ``Got``).

        The key is yours until ``done(key)``: ``key, shutdown = q.get()``, check ``shutdown``
        first, and from there on ``key`` is a ``T``.
        """
        with self._lock:
            now = self._clock()
            while not self._core.can_get(now):
                self._wake()
                self._items.wait(self._core.wait_timeout(now))
                now = self._clock()
            got = self._core.get(now)
            self._wake()
            return _got(*got)

    def done(self, item: T) -> None:
        """Mark ``item`` done; if it was added while processing, it goes back in line."""
        with self._lock:
            self._core.done(item, self._clock())
            self._wake()

    def shut_down(self) -> None:
        """Refuse new keys; ``get`` answers the keys left, then ``(None, True)``. Does not wait for
        workers."""
        with self._lock:
            self._core.shut_down(False, self._clock())
            self._wake()
        self._stop_updates.set()

    def shut_down_with_drain(self) -> None:
        """Shuts down, then waits until every key handed out is done. Workers must keep calling
        ``done`` meanwhile or this waits forever; ``shut_down()`` from elsewhere ends the wait."""
        with self._lock:
            self._core.shut_down(True, self._clock())
            self._wake()
            self._stop_updates.set()
            while self._core.draining():
                self._idle.wait()

    def shutting_down(self) -> bool:
        """Whether ``shut_down`` (or ``shut_down_with_drain``) was called."""
        with self._lock:
            return self._core.shutting_down

    def _update_unfinished_work(self) -> None:
        with self._lock:
            self._core.update_unfinished_work(self._clock())
            self._wake()


def _update_unfinished_work_loop(
    ref: weakref.ref[Queue[Any]], stop: threading.Event, period: float
) -> None:
    # A weak reference, so a queue dropped without shut_down() does not live on in its thread.
    while not stop.wait(period):
        queue = ref()
        if queue is None:
            return
        queue._update_unfinished_work()
        del queue


class _AsyncWaiters:
    """asyncio.Condition without its lock: ``add`` and ``done`` are plain methods, so they must
    wake waiters without awaiting, which is safe because only the loop's thread touches the
    queue."""

    def __init__(self) -> None:
        self._waiters: dict[asyncio.Future[None], None] = {}

    async def wait(self, timeout: float | None) -> None:
        loop = asyncio.get_running_loop()
        waiter: asyncio.Future[None] = loop.create_future()
        self._waiters[waiter] = None
        timer = None if timeout is None else loop.call_later(timeout, _wake_future, waiter)
        try:
            await waiter
        except asyncio.CancelledError:
            # Woken, then cancelled before running: hand the wake-up on, or a key could sit in
            # the queue while another getter sleeps.
            if waiter.done() and not waiter.cancelled():
                self.notify(1)
            raise
        finally:
            if timer is not None:
                timer.cancel()
            self._waiters.pop(waiter, None)

    def notify(self, n: int) -> None:
        while n > 0 and self._waiters:
            waiter = next(iter(self._waiters))
            del self._waiters[waiter]
            if not waiter.done():
                waiter.set_result(None)
                n -= 1


def _wake_future(waiter: asyncio.Future[None]) -> None:
    if not waiter.done():
        waiter.set_result(None)


class AsyncQueue(Generic[T]):
    """client-go's Type for asyncio: ``get`` and ``shut_down_with_drain`` are awaited; ``add``,
    ``done`` and ``shut_down`` are plain calls, safe from callbacks. Use it from one event loop.

    With metrics on, a task refreshes the unfinished-work gauges; it starts at the first
    ``get`` (the first moment a loop is known to run) and ends at shutdown.
    """

    def __init__(
        self,
        *,
        name: str = "",
        clock: Clock = time.monotonic,
        metrics_provider: MetricsProvider | None = None,
        unfinished_work_update_period: float = UNFINISHED_WORK_UPDATE_PERIOD,
    ) -> None:
        self.name = name
        self._clock = clock
        self._core: QueueCore[T] = self._new_core(name, metrics_provider)
        self._items = _AsyncWaiters()
        self._idle = _AsyncWaiters()
        self._update_period = unfinished_work_update_period
        self._updater: asyncio.Task[None] | None = None

    def _new_core(self, name: str, provider: MetricsProvider | None) -> QueueCore[T]:
        return _new_queue_core(name, provider)

    def _wake(self) -> None:
        getters, drainers = self._core.take_wakeups()
        if getters:
            self._items.notify(getters)
        if drainers:
            self._idle.notify(EVERYONE)

    def add(self, item: T) -> None:
        """Add ``item`` unless it is already waiting; a key being processed goes back in line at
        ``done``. Ignored after shutdown."""
        self._core.add(item, self._clock())
        self._wake()

    def __len__(self) -> int:
        length = self._core.length(self._clock())
        self._wake()
        return length

    async def get(self) -> Got[T]:
        """Waits for the next key; see ``Queue.get`` for the shape of the answer."""
        self._start_updater()
        now = self._clock()
        while not self._core.can_get(now):
            self._wake()
            await self._items.wait(self._core.wait_timeout(now))
            now = self._clock()
        got = self._core.get(now)
        self._wake()
        return _got(*got)

    def done(self, item: T) -> None:
        """Mark ``item`` done; if it was added while processing, it goes back in line."""
        self._core.done(item, self._clock())
        self._wake()

    def shut_down(self) -> None:
        """Refuse new keys; ``get`` answers the keys left, then ``(None, True)``. Does not wait for
        workers."""
        self._core.shut_down(False, self._clock())
        self._wake()
        self._stop_updater()

    async def shut_down_with_drain(self) -> None:
        """See ``Queue.shut_down_with_drain``."""
        self._core.shut_down(True, self._clock())
        self._wake()
        self._stop_updater()
        while self._core.draining():
            await self._idle.wait(None)

    def shutting_down(self) -> bool:
        """Whether ``shut_down`` (or ``shut_down_with_drain``) was called."""
        return self._core.shutting_down

    def _start_updater(self) -> None:
        if not self._core.metrics.enabled or self._core.shutting_down:
            return
        if self._updater is None or self._updater.done():
            self._updater = asyncio.get_running_loop().create_task(
                _update_unfinished_work_task(weakref.ref(self), self._update_period)
            )

    def _stop_updater(self) -> None:
        # A task whose loop has closed is already over and cannot be cancelled.
        if self._updater is not None and not self._updater.get_loop().is_closed():
            self._updater.cancel()
        self._updater = None


async def _update_unfinished_work_task(ref: weakref.ref[AsyncQueue[Any]], period: float) -> None:
    while True:
        await asyncio.sleep(period)
        queue = ref()
        if queue is None or queue._core.shutting_down:
            return
        queue._core.update_unfinished_work(queue._clock())
        queue._wake()
        del queue
