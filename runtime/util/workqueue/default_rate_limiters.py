"""client-go's rate limiters (default_rate_limiters.go): how long a failed key waits.

A limiter answers ``when(item)`` — seconds to wait before the item's next try — and counts
the try; ``forget(item)`` clears the item's history once it succeeded (or was given up on), and
``num_requeues(item)`` lets a controller give up after N tries. Per-item limiters back off one
key without slowing the others; the token bucket caps the overall retry rate so a mass failure
(every key failing at once) does not hammer the apiserver. ``default_controller_rate_limiter``
combines both, as every client-go controller does.

Limiters are thread-safe and never sleep, so the thread and asyncio queues share them.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Hashable
from typing import Any, Generic, Protocol, TypeVar

from kgen.runtime.util.flowcontrol import TokenBucket
from kgen.runtime.util.workqueue.queue import Clock, T

T_contra = TypeVar("T_contra", bound=Hashable, contravariant=True)
"""The item type a rate limiter takes (hashable; contravariant)."""


class RateLimiter(Protocol[T_contra]):
    """client-go's workqueue RateLimiter: how long an item waits before its next try."""

    def when(self, item: T_contra) -> float:
        """Seconds ``item`` should wait before its next try; counts the try."""
        ...

    def forget(self, item: T_contra) -> None:
        """Stops tracking ``item``: the next failure starts from the first delay again. The
        queue's ``done`` is still needed; this only clears the limiter."""
        ...

    def num_requeues(self, item: T_contra) -> int:
        """How many times ``item`` has been tried (``when`` calls since it was last forgotten)."""
        ...


class ItemExponentialFailureRateLimiter(Generic[T]):
    """``base_delay * 2**failures`` per item, capped at ``max_delay``. Deciding when to give up
    (``num_requeues``) and when to start over (``forget``) is the caller's."""

    def __init__(self, base_delay: float = 0.005, max_delay: float = 1000.0) -> None:
        self.base_delay = base_delay
        self.max_delay = max_delay
        self._failures: dict[T, int] = {}
        self._lock = threading.Lock()

    def when(self, item: T) -> float:
        """``base_delay * 2**failures`` (capped at ``max_delay``), counting this failure."""
        with self._lock:
            exp = self._failures.get(item, 0)
            self._failures[item] = exp + 1
        try:
            backoff = self.base_delay * 2.0**exp
        except OverflowError:  # a key failing ~1000 times: client-go caps the overflow too
            return self.max_delay
        return min(backoff, self.max_delay)

    def num_requeues(self, item: T) -> int:
        """The failures counted for ``item``."""
        with self._lock:
            return self._failures.get(item, 0)

    def forget(self, item: T) -> None:
        """Clear ``item``'s failures."""
        with self._lock:
            self._failures.pop(item, None)


class ItemFastSlowRateLimiter(Generic[T]):
    """``fast_delay`` for the first ``max_fast_attempts`` tries of an item, ``slow_delay`` after:
    for failures that are usually transient but occasionally are not."""

    def __init__(self, fast_delay: float, slow_delay: float, max_fast_attempts: int) -> None:
        self.fast_delay = fast_delay
        self.slow_delay = slow_delay
        self.max_fast_attempts = max_fast_attempts
        self._failures: dict[T, int] = {}
        self._lock = threading.Lock()

    def when(self, item: T) -> float:
        """``fast_delay`` up to ``max_fast_attempts`` failures, ``slow_delay`` after, counting this
        failure."""
        with self._lock:
            failures = self._failures[item] = self._failures.get(item, 0) + 1
        return self.fast_delay if failures <= self.max_fast_attempts else self.slow_delay

    def num_requeues(self, item: T) -> int:
        """The failures counted for ``item``."""
        with self._lock:
            return self._failures.get(item, 0)

    def forget(self, item: T) -> None:
        """Clear ``item``'s failures."""
        with self._lock:
            self._failures.pop(item, None)


class BucketRateLimiter:
    """A token bucket over all items (``qps`` refill, ``burst`` size): the overall cap.

    It tracks no item, so ``num_requeues`` is always 0 and ``forget`` does nothing. Each
    ``when`` takes a token even if the caller ends up waiting longer for another reason, as
    golang.org/x/time/rate's Reserve does for client-go."""

    def __init__(self, qps: float = 10.0, burst: int = 100, *, clock: Clock = time.monotonic) -> None:
        self._bucket = TokenBucket(qps, burst, clock)

    def when(self, item: object) -> float:
        """Take a token from the bucket: the seconds until it is ready (0 if one is)."""
        return self._bucket.reserve()

    def num_requeues(self, item: object) -> int:
        """Always 0: the bucket keeps no count per item."""
        return 0

    def forget(self, item: object) -> None:
        """Nothing to forget: the bucket keeps nothing per item."""


class MaxOfRateLimiter(Generic[T]):
    """The worst answer of several limiters; every one of them counts every try.

    With a bucket inside, the burst can look exceeded: a key delayed longer by another limiter
    still took its token when it was asked (client-go notes the same)."""

    def __init__(self, *limiters: RateLimiter[T]) -> None:
        self.limiters = limiters

    def when(self, item: T) -> float:
        """The longest delay any of the limiters answers (each counts the try)."""
        return max((limiter.when(item) for limiter in self.limiters), default=0.0)

    def num_requeues(self, item: T) -> int:
        """The highest count of any of the limiters."""
        return max((limiter.num_requeues(item) for limiter in self.limiters), default=0)

    def forget(self, item: T) -> None:
        """Forget ``item`` in every limiter."""
        for limiter in self.limiters:
            limiter.forget(item)


class WithMaxWaitRateLimiter(Generic[T]):
    """Caps another limiter's answer at ``max_delay``, so no key waits unboundedly long."""

    def __init__(self, limiter: RateLimiter[T], max_delay: float) -> None:
        self.limiter = limiter
        self.max_delay = max_delay

    def when(self, item: T) -> float:
        """The wrapped limiter's delay, at most ``max_delay``."""
        return min(self.limiter.when(item), self.max_delay)

    def num_requeues(self, item: T) -> int:
        """The wrapped limiter's count."""
        return self.limiter.num_requeues(item)

    def forget(self, item: T) -> None:
        """Forget ``item`` in the wrapped limiter."""
        self.limiter.forget(item)


def default_controller_rate_limiter() -> RateLimiter[Any]:
    """client-go's DefaultControllerRateLimiter: per item 5 ms doubling up to 1000 s, and 10 qps
    with a burst of 100 overall (the bucket only paces retries, never first adds)."""
    return MaxOfRateLimiter[Any](
        ItemExponentialFailureRateLimiter[Any](0.005, 1000.0),
        BucketRateLimiter(qps=10.0, burst=100),
    )


def default_item_based_rate_limiter() -> RateLimiter[Any]:
    """client-go's DefaultItemBasedRateLimiter: per item 1 ms doubling up to 1000 s."""
    return ItemExponentialFailureRateLimiter[Any](0.001, 1000.0)
