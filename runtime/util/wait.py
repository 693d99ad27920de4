"""apimachinery's util/wait for Python: one ``Backoff`` shape, and the manager that turns it into
the delays of a loop that runs forever.

``Backoff`` is ``wait.Backoff``: ``duration`` grows by ``factor`` for each of ``steps`` tries, up
to ``cap``; ``jitter`` j turns each delay d into a random value in [d, d + j*d). Bounded retries
(``util.retry``) walk its ``delays()``. ``DelayWithReset`` is ``Backoff.DelayWithReset``: the
delays of an endless loop (the reflector's between list-and-watch attempts), growing without a
step limit and starting over every ``reset_after`` seconds. ``jitter`` is ``wait.Jitter``, the
one rule every jittered delay here follows.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["Backoff", "DelayWithReset", "jitter"]


def jitter(duration: float, max_factor: float, rng: random.Random) -> float:
    """``wait.Jitter``: a random delay in [duration, duration + max_factor*duration); a factor
    of 0 or less gives ``duration`` back unchanged."""
    return duration * (1 + max_factor * rng.random()) if max_factor > 0 else duration


@dataclass(frozen=True)
class Backoff:
    """client-go's ``wait.Backoff``: ``duration`` grows by ``factor`` at each of ``steps`` tries, up to
    ``cap`` (0: none), each delay jittered by up to ``jitter`` of itself."""

    duration: float
    factor: float = 1.0
    jitter: float = 0.0
    steps: int = 1
    cap: float = 0.0  # 0: no cap

    def jittered(self, delay: float, rng: random.Random) -> float:
        """``delay`` plus a random jitter of up to ``jitter`` times it (none when ``jitter`` is 0)."""
        return jitter(delay, self.jitter, rng)

    def grow(self, delay: float) -> float:
        """The next delay: ``delay * factor``, at most ``cap`` when there is one."""
        grown = delay * self.factor
        return min(grown, self.cap) if self.cap else grown

    def delays(self, rng: random.Random | None = None) -> list[float]:
        """The sleeps between ``steps`` tries: ``steps - 1`` of them."""
        rng = rng or random.Random()
        out, delay = [], min(self.duration, self.cap) if self.cap else self.duration
        for _ in range(self.steps - 1):
            out.append(self.jittered(delay, rng))
            delay = self.grow(delay)
        return out


class DelayWithReset:
    """client-go's ``Backoff.DelayWithReset``: each delay doubles (``factor``) the last one up to
    the cap, jittered; the sequence starts over every ``reset_after`` seconds, counted from when
    it last started over (not from the last delay), so a loop that keeps failing returns to
    short delays every ``reset_after`` seconds."""

    def __init__(
        self, backoff: Backoff, reset_after: float, *, clock: Callable[[], float] = time.monotonic,
        rng: random.Random | None = None,
    ) -> None:
        self.backoff = backoff
        self.reset_after = reset_after
        self.clock = clock
        self.rng = rng or random.Random()
        self._started_over = clock()
        self._next = backoff.duration

    def reset(self) -> None:
        """Start over from ``backoff.duration``."""
        self._started_over = self.clock()
        self._next = self.backoff.duration

    def next_delay(self) -> float:
        """The next delay (jittered); starts over first once ``reset_after`` seconds have passed since
        it last did."""
        if self.clock() - self._started_over > self.reset_after:
            self.reset()
        delay, self._next = self._next, self.backoff.grow(self._next)
        return self.backoff.jittered(delay, self.rng)
