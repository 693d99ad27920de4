"""client-go's delaying queue (delaying_queue.go): ``add_after(item, seconds)``.

Why: a controller that failed on a key must retry it later, not in a hot loop, and must not
park a worker while it waits. Waiting keys sit in a heap ordered by the time they become ready;
a key waiting twice keeps only its earliest time (client-go's waitingEntryByData), so a quick
retry scheduled after a slow one still happens quickly. A key that becomes ready goes through
the ordinary ``add``, so it collapses with a queued copy and waits for ``done`` if a worker
holds it. Shutting down drops the waiting keys.

client-go runs a goroutine that moves due keys over when a timer fires, with a 10 s heartbeat
as insurance against a lost timer. Here the core moves due keys over at every operation, given
the time, and a blocked ``get`` sleeps no longer than until the earliest key is due (and never
more than that heartbeat). What a caller can see is the same — a due key is in the queue before
anything added after it fell due — but no thread or task per queue is needed, and stepping an
injected clock is all a test does. With metrics on, the periodic metrics tick moves due keys
too, so depth and adds lag by at most one tick; a key's queue duration counts from when it was
due either way.
"""

from __future__ import annotations

import heapq
import itertools
from dataclasses import dataclass, field
from typing import Any, Generic

from kgen.runtime.util.workqueue.metrics import CounterMetric, MetricsProvider, QueueMetrics, new_queue_metrics, new_retries_metric
from kgen.runtime.util.workqueue.queue import EVERYONE, AsyncQueue, Queue, QueueCore, T

MAX_WAIT = 10.0
"""client-go's maxWait: the longest a getter sleeps while keys wait, whatever the clock says."""


@dataclass(order=True)
class _WaitFor(Generic[T]):
    ready_at: float
    seq: int  # ties leave in the order they were added
    item: T = field(compare=False)
    superseded: bool = field(default=False, compare=False)


class DelayingCore(QueueCore[T]):
    """QueueCore plus the heap of waiting keys. heapq cannot move an entry, so an earlier time
    for a waiting key pushes a new entry and marks the old one superseded."""

    def __init__(self, metrics: QueueMetrics, retries: CounterMetric) -> None:
        super().__init__(metrics)
        self._retries = retries
        self._waiting: list[_WaitFor[T]] = []
        self._entries: dict[T, _WaitFor[T]] = {}
        self._seq = itertools.count()

    def add_after(self, item: T, delay: float, now: float) -> None:
        """Add ``item`` once ``delay`` seconds from ``now`` have passed (at once if ``delay`` <= 0); an
        earlier time for a key already waiting wins. Counts a retry; ignored after shutdown."""
        self.advance(now)
        if self.shutting_down:
            return
        self._retries.inc()
        if delay <= 0:
            self._add(item, now)
            return
        ready_at = now + delay
        existing = self._entries.get(item)
        if existing is not None:
            if existing.ready_at <= ready_at:
                return
            existing.superseded = True
        entry = _WaitFor(ready_at, next(self._seq), item)
        heapq.heappush(self._waiting, entry)
        self._entries[item] = entry
        if self._head() is entry:
            # Sleeping getters timed their sleep on a later key.
            self._getters_to_wake = EVERYONE

    def _head(self) -> _WaitFor[T] | None:
        while self._waiting and self._waiting[0].superseded:
            heapq.heappop(self._waiting)
        return self._waiting[0] if self._waiting else None

    def advance(self, now: float) -> None:
        """Move every waiting key due by ``now`` into the queue."""
        while (head := self._head()) is not None and head.ready_at <= now:
            heapq.heappop(self._waiting)
            del self._entries[head.item]
            # Its wait in the queue (queue_duration) starts when it was due, not when noticed.
            self._add(head.item, head.ready_at)

    def wait_timeout(self, now: float) -> float | None:
        """Seconds until the next waiting key is due (at most ``MAX_WAIT``); None when none waits."""
        head = self._head()
        if head is None:
            return None
        return min(max(head.ready_at - now, 0.0), MAX_WAIT)

    def shut_down(self, drain: bool, now: float) -> None:
        """Shut down as the plain queue does, dropping the keys still waiting."""
        super().shut_down(drain, now)  # keys already due were added before this drops the rest
        self._waiting.clear()
        self._entries.clear()


def _new_delaying_core(name: str, provider: MetricsProvider | None) -> DelayingCore[Any]:
    return DelayingCore(new_queue_metrics(name, provider), new_retries_metric(name, provider))


class DelayingQueue(Queue[T]):
    """Queue plus ``add_after``; every ``add_after`` counts in ``workqueue_retries_total``."""

    _core: DelayingCore[T]

    def _new_core(self, name: str, provider: MetricsProvider | None) -> DelayingCore[T]:
        return _new_delaying_core(name, provider)

    def add_after(self, item: T, seconds: float) -> None:
        """Adds ``item`` once ``seconds`` have passed (now if ``seconds <= 0``)."""
        with self._lock:
            self._core.add_after(item, seconds, self._clock())
            self._wake()


class AsyncDelayingQueue(AsyncQueue[T]):
    """AsyncQueue plus ``add_after`` (a plain call)."""

    _core: DelayingCore[T]

    def _new_core(self, name: str, provider: MetricsProvider | None) -> DelayingCore[T]:
        return _new_delaying_core(name, provider)

    def add_after(self, item: T, seconds: float) -> None:
        """Adds ``item`` once ``seconds`` have passed (now if ``seconds <= 0``)."""
        self._core.add_after(item, seconds, self._clock())
        self._wake()
