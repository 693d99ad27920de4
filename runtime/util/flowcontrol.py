"""Client-side rate limiting: client-go's token bucket (flowcontrol.NewTokenBucketRateLimiter).

The bucket starts full with ``burst`` tokens and refills at ``qps`` per second. ``reserve()``
takes a token and says how long the caller must wait for it; sleeping is the caller's (sync
or async) business, so the logic is written once and tested with an injected clock. The REST
client's defaults (QPS 5, burst 10) and the rule that builds its bucket are rest's, as in
client-go: ``kgen.runtime.rest.config``.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable


class TokenBucket:
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

