"""client-go's rate-limiting queue (rate_limiting_queue.go): the queue controllers use.

``add_rate_limited(key)`` is ``add_after(key, limiter.when(key))``: the limiter decides how
long a failed key waits, the delaying queue makes it wait without holding a worker. Call
``forget(key)`` once the key succeeds (or is given up on) — otherwise the limiter keeps counting
its failures forever and its next, unrelated failure waits as if it were the hundredth — and
``done(key)`` in every case. ``num_requeues(key)`` is how a controller decides to give up.

The usual worker::

    key, shutdown = q.get()
    if shutdown:
        return
    try:
        reconcile(key)
        q.forget(key)
    except Exception:
        q.add_rate_limited(key)
    finally:
        q.done(key)
"""

from __future__ import annotations

import time
from typing import Generic

from kgen.runtime.util.workqueue.default_rate_limiters import RateLimiter
from kgen.runtime.util.workqueue.delaying_queue import AsyncDelayingQueue, DelayingQueue
from kgen.runtime.util.workqueue.metrics import MetricsProvider
from kgen.runtime.util.workqueue.queue import UNFINISHED_WORK_UPDATE_PERIOD, Clock, T


class _RateLimited(Generic[T]):
    """The limiter-only half of client-go's rateLimitingType, the same in both flavours."""

    rate_limiter: RateLimiter[T]

    def forget(self, item: T) -> None:
        self.rate_limiter.forget(item)

    def num_requeues(self, item: T) -> int:
        return self.rate_limiter.num_requeues(item)


class RateLimitingQueue(DelayingQueue[T], _RateLimited[T]):
    """client-go's rate-limiting queue for threads: a ``DelayingQueue`` whose ``add_rate_limited`` waits
    what ``rate_limiter`` says."""

    def __init__(
        self,
        rate_limiter: RateLimiter[T],
        *,
        name: str = "",
        clock: Clock = time.monotonic,
        metrics_provider: MetricsProvider | None = None,
        unfinished_work_update_period: float = UNFINISHED_WORK_UPDATE_PERIOD,
    ) -> None:
        self.rate_limiter = rate_limiter
        super().__init__(
            name=name,
            clock=clock,
            metrics_provider=metrics_provider,
            unfinished_work_update_period=unfinished_work_update_period,
        )

    def add_rate_limited(self, item: T) -> None:
        """Add ``item`` after the rate limiter's delay for it (which counts the try)."""
        self.add_after(item, self.rate_limiter.when(item))


class AsyncRateLimitingQueue(AsyncDelayingQueue[T], _RateLimited[T]):
    """client-go's rate-limiting queue for asyncio: an ``AsyncDelayingQueue`` whose ``add_rate_limited``
    waits what ``rate_limiter`` says."""

    def __init__(
        self,
        rate_limiter: RateLimiter[T],
        *,
        name: str = "",
        clock: Clock = time.monotonic,
        metrics_provider: MetricsProvider | None = None,
        unfinished_work_update_period: float = UNFINISHED_WORK_UPDATE_PERIOD,
    ) -> None:
        self.rate_limiter = rate_limiter
        super().__init__(
            name=name,
            clock=clock,
            metrics_provider=metrics_provider,
            unfinished_work_update_period=unfinished_work_update_period,
        )

    def add_rate_limited(self, item: T) -> None:
        """Add ``item`` after the rate limiter's delay for it (which counts the try)."""
        self.add_after(item, self.rate_limiter.when(item))
