"""client-go's default_rate_limiters_test.go, ported; durations are seconds."""

from __future__ import annotations

import pytest

from kgen.runtime.util.workqueue import (
    BucketRateLimiter,
    ItemExponentialFailureRateLimiter,
    ItemFastSlowRateLimiter,
    MaxOfRateLimiter,
    WithMaxWaitRateLimiter,
    default_controller_rate_limiter,
    default_item_based_rate_limiter,
)
from tests.unit.workqueue_helpers import FakeClock

MS = 0.001


def test_item_exponential_failure_rate_limiter__TestItemExponentialFailureRateLimiter() -> None:
    limiter: ItemExponentialFailureRateLimiter[str] = ItemExponentialFailureRateLimiter(1 * MS, 1.0)
    assert [limiter.when("one") for _ in range(5)] == [1 * MS, 2 * MS, 4 * MS, 8 * MS, 16 * MS]
    assert limiter.num_requeues("one") == 5
    assert [limiter.when("two") for _ in range(2)] == [1 * MS, 2 * MS]
    assert limiter.num_requeues("two") == 2
    limiter.forget("one")
    assert limiter.num_requeues("one") == 0
    assert limiter.when("one") == 1 * MS


def test_item_exponential_failure_rate_limiter_overflow__TestItemExponentialFailureRateLimiterOverFlow() -> None:
    limiter: ItemExponentialFailureRateLimiter[str] = ItemExponentialFailureRateLimiter(1 * MS, 1000.0)
    for _ in range(5):
        limiter.when("one")
    assert limiter.when("one") == 32 * MS
    for _ in range(1000):
        limiter.when("overflow1")
    assert limiter.when("overflow1") == 1000.0
    for _ in range(5000):  # well past where a float power overflows
        limiter.when("overflow1")
    assert limiter.when("overflow1") == 1000.0

    minute, hour = 60.0, 3600.0
    limiter = ItemExponentialFailureRateLimiter(1 * minute, 1000 * hour)
    for _ in range(2):
        limiter.when("two")
    assert limiter.when("two") == 4 * minute
    for _ in range(1000):
        limiter.when("overflow2")
    assert limiter.when("overflow2") == 1000 * hour


def test_item_fast_slow_rate_limiter__TestItemFastSlowRateLimiter() -> None:
    limiter: ItemFastSlowRateLimiter[str] = ItemFastSlowRateLimiter(5 * MS, 10.0, 3)
    assert [limiter.when("one") for _ in range(5)] == [5 * MS, 5 * MS, 5 * MS, 10.0, 10.0]
    assert limiter.num_requeues("one") == 5
    assert [limiter.when("two") for _ in range(2)] == [5 * MS, 5 * MS]
    assert limiter.num_requeues("two") == 2
    limiter.forget("one")
    assert limiter.num_requeues("one") == 0
    assert limiter.when("one") == 5 * MS


def test_max_of_rate_limiter__TestMaxOfRateLimiter() -> None:
    limiter: MaxOfRateLimiter[str] = MaxOfRateLimiter(
        ItemFastSlowRateLimiter(5 * MS, 3.0, 3),
        ItemExponentialFailureRateLimiter(1 * MS, 1.0),
    )
    assert [limiter.when("one") for _ in range(5)] == [5 * MS, 5 * MS, 5 * MS, 3.0, 3.0]
    assert limiter.num_requeues("one") == 5
    assert [limiter.when("two") for _ in range(2)] == [5 * MS, 5 * MS]
    assert limiter.num_requeues("two") == 2
    limiter.forget("one")
    assert limiter.num_requeues("one") == 0
    assert limiter.when("one") == 5 * MS


class StepRateLimiter:
    """The test limiter of client-go's TestWithMaxWaitRateLimiter: base delay for the first
    ``threshold`` calls (any item), then max delay."""

    def __init__(self, base_delay: float, max_delay: float, threshold: int) -> None:
        self.base_delay, self.max_delay, self.threshold = base_delay, max_delay, threshold
        self.count = 0

    def when(self, item: object) -> float:
        self.count += 1
        return self.base_delay if self.count <= self.threshold else self.max_delay

    def num_requeues(self, item: object) -> int:
        return 0

    def forget(self, item: object) -> None:
        pass


def test_with_max_wait_rate_limiter__TestWithMaxWaitRateLimiter() -> None:
    limiter: WithMaxWaitRateLimiter[int] = WithMaxWaitRateLimiter(StepRateLimiter(5 * MS, 1000.0, 100), 500.0)
    assert [limiter.when(i) for i in range(100)] == [5 * MS] * 100
    assert [limiter.when(i) for i in range(100, 200)] == [500.0] * 100


def test_bucket_rate_limiter_spends_the_burst_then_paces_at_qps() -> None:
    clock = FakeClock()
    limiter = BucketRateLimiter(qps=10, burst=100, clock=clock)
    assert [limiter.when(i) for i in range(100)] == [0.0] * 100
    assert [limiter.when(i) for i in range(100, 103)] == pytest.approx([0.1, 0.2, 0.3])
    clock.step(1.0)  # ten tokens refilled, three of them already promised above
    assert [limiter.when(i) for i in range(7)] == [0.0] * 7
    assert limiter.when("next") == pytest.approx(0.1)
    assert limiter.num_requeues("next") == 0


def test_default_controller_rate_limiter_is_max_of_exponential_and_bucket() -> None:
    limiter = default_controller_rate_limiter()
    assert [limiter.when("key") for _ in range(3)] == [0.005, 0.010, 0.020]
    assert limiter.num_requeues("key") == 3
    limiter.forget("key")
    assert limiter.num_requeues("key") == 0
    # 100 tokens of burst: 3 spent above, 97 more are free per item (first failures: 5 ms)...
    assert {limiter.when(i) for i in range(97)} == {0.005}
    # ...then the overall 10 qps paces retries, however fresh the item.
    assert limiter.when("fresh") > 0.05


def test_default_item_based_rate_limiter_is_1ms_to_1000s() -> None:
    limiter = default_item_based_rate_limiter()
    assert [limiter.when("key") for _ in range(3)] == [0.001, 0.002, 0.004]
    for _ in range(100):
        limiter.when("key")
    assert limiter.when("key") == 1000.0
