"""``every`` (kgen.runtime.controller.patterns.timers): a reconcile's ``Result`` that comes back
after interval ± jitter. The real apiserver's side (a controller called again and again within
those bounds, both flavours) is in tests/integration/test_controller_kopf_features.py."""

from __future__ import annotations

import random

import pytest

from kgen.runtime.controller.patterns.timers import every
from kgen.runtime.controller.reconcile import Result


def test_without_jitter_the_interval_is_exact() -> None:
    assert every(30) == Result(requeue_after=30)


def test_the_jitter_spreads_the_delays_over_the_whole_window() -> None:
    rng = random.Random(36)
    delays = [every(10, jitter=2, rng=rng).requeue_after for _ in range(2000)]
    assert all(8 <= d <= 12 for d in delays)
    assert min(delays) < 8.1 and max(delays) > 11.9  # both ends reached: ± jitter, not + or -
    assert 9.8 < sum(delays) / len(delays) < 10.2
    assert all(not every(10, jitter=2).is_zero() for _ in range(10))


@pytest.mark.parametrize("interval, jitter, message", [
    (0, 0, "the interval must be positive seconds, not 0"),
    (-1, 0, "the interval must be positive seconds, not -1"),
    (5, 5, r"the jitter must be at least 0 and less than the interval \(5s\), not 5"),
    (5, -1, r"the jitter must be at least 0 and less than the interval \(5s\), not -1"),
])
def test_a_timer_that_would_not_come_back_later_is_refused(interval: float, jitter: float, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        every(interval, jitter=jitter)
