"""client-go's util/flowcontrol: the token bucket (rate limiting) and the per-id backoff.

The bucket starts full with ``burst`` tokens and refills at ``qps`` per second. ``reserve()``
takes a token and says how long the caller must wait for it; sleeping is the caller's (sync
or async) business, so the logic is written once and tested with an injected clock. The REST
client's defaults (QPS 5, burst 10) and the rule that builds its bucket are rest's, as in
client-go: ``kgen.runtime.rest.config``.

``Backoff`` is flowcontrol.Backoff: per-id exponential delays, jittered when asked, which the
REST client's optional URL backoff (``kgen.runtime.rest.urlbackoff``) keeps per host.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable

from kgen.runtime.util.wait import jitter


class TokenBucket:
    """client-go's token bucket rate limiter (``flowcontrol.NewTokenBucketRateLimiter``): ``qps`` tokens
    a second refill a bucket of ``burst``, which starts full."""

    def __init__(self, qps: float, burst: int, clock: Callable[[], float] = time.monotonic) -> None:
        if qps <= 0:
            raise ValueError("qps must be > 0 (a negative qps disables the limiter: use no bucket)")
        if burst <= 0:
            raise ValueError("burst must be > 0 when qps > 0")
        self.qps = float(qps)
        self.burst = int(burst)
        self._clock = clock
        self._tokens = float(burst)
        self._last = clock()
        self._lock = threading.Lock()

    def reserve(self) -> float:
        """Takes one token; returns the seconds to wait before using it (0 if one was ready)."""
        with self._lock:
            now = self._clock()
            self._tokens = min(self.burst, self._tokens + (now - self._last) * self.qps)
            self._last = now
            self._tokens -= 1.0
            return 0.0 if self._tokens >= 0 else -self._tokens / self.qps

    def try_accept(self) -> bool:
        """Takes a token only if one is ready now."""
        with self._lock:
            now = self._clock()
            self._tokens = min(self.burst, self._tokens + (now - self._last) * self.qps)
            self._last = now
            if self._tokens >= 1.0:
                self._tokens -= 1.0
                return True
            return False



class Backoff:
    """client-go's ``flowcontrol.Backoff``: an exponential delay per id (a host, for the REST
    client's URL backoff), doubled by ``next`` up to ``max_duration``, plus a jitter of up to
    ``max_jitter_factor`` of the delay (``NewBackOffWithJitter``; 0 for ``NewBackOff``). An id
    that saw no ``next`` for twice ``max_duration`` starts over at ``initial``."""

    def __init__(
        self,
        initial: float,
        max_duration: float,
        max_jitter_factor: float = 0.0,
        *,
        clock: Callable[[], float] = time.monotonic,
        rng: random.Random | None = None,
    ) -> None:
        self.initial = initial
        self.max_duration = max_duration
        self.max_jitter_factor = max_jitter_factor
        self._clock = clock
        self._rng = rng or random.Random()
        self._entries: dict[str, tuple[float, float]] = {}  # id -> (delay, last update)
        self._lock = threading.Lock()

    def get(self, id: str) -> float:
        """The current delay of ``id`` in seconds (0 if it has none)."""
        with self._lock:
            entry = self._entries.get(id)
            return entry[0] if entry else 0.0

    def next(self, id: str) -> None:
        """Record a failure of ``id``: its delay starts at ``initial`` (plus jitter), or doubles (plus
        jitter) up to ``max_duration``; an expired entry starts over."""
        with self._lock:
            now = self._clock()
            entry = self._entries.get(id)
            if entry is None or self._expired(now, entry[1]):
                delay = self.initial + self._jitter(self.initial)
            else:
                delay = min(entry[0] * 2 + self._jitter(entry[0]), self.max_duration)
            self._entries[id] = (delay, now)

    def reset(self, id: str) -> None:
        """Forget ``id``'s delay."""
        with self._lock:
            self._entries.pop(id, None)

    def gc(self) -> None:
        """Forgets the ids whose backoff has expired."""
        with self._lock:
            now = self._clock()
            for id, (_, last) in list(self._entries.items()):
                if self._expired(now, last):
                    del self._entries[id]

    def _jitter(self, delay: float) -> float:
        return jitter(delay, self.max_jitter_factor, self._rng) - delay

    def _expired(self, now: float, last: float) -> bool:
        return now - last > self.max_duration * 2  # stable after twice the longest delay
