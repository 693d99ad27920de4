"""The controller options of issue 36 without an apiserver: which exceptions are panics, the
failure count behind ``max_retries`` (what the queue is told at each failure), the options'
checks, and ``with_terminal_condition`` on a typed object. The options on the real apiserver:
tests/integration/test_controller_helpers.py."""

from __future__ import annotations

import httpx
import pytest

from examples.cronjob.client.models.batch_tutorial_kgen_dev.v1 import CronJob
from kgen.runtime.apimachinery.errors import NotFound
from kgen.runtime.controller import Controller, Request, Result, TerminalError
from kgen.runtime.controller.outcome import is_panic
from kgen.runtime.controller.patterns.retry import with_terminal_condition
from kgen.runtime.controller.reconcile import ReconcileError, ReconcileTimeout

REQUEST = Request("ns", "a")


@pytest.mark.parametrize("error, panic", [
    (KeyError("k"), True), (AttributeError("a"), True), (TypeError("t"), True), (ZeroDivisionError(), True),
    (AssertionError(), True), (NotFound({"message": "gone"}, 404), False), (ReconcileError("x"), False),
    (ReconcileTimeout("late"), False), (TerminalError("stop"), False), (ConnectionError("down"), False),
    (TimeoutError(), False), (httpx.ReadTimeout("slow"), False),
])
def test_what_counts_as_a_panic(error: BaseException, panic: bool) -> None:
    assert is_panic(error) is panic


class Queue:
    """The RequeueQueue calls a decision makes, recorded."""

    def __init__(self) -> None:
        self.calls: list[str] = []

    def forget(self, item: Request) -> None:
        self.calls.append("forget")

    def add_rate_limited(self, item: Request) -> None:
        self.calls.append("add_rate_limited")

    def add_after(self, item: Request, seconds: float) -> None:
        self.calls.append("add_after")


def test_max_retries_counts_failures_in_a_row_and_then_gives_up() -> None:
    controller = Controller("c", lambda r: None, max_retries=3)
    queue = Queue()
    controller.queue = queue  # type: ignore[assignment]
    boom = ReconcileError("boom")
    assert controller.finish(REQUEST, None, boom, 0.0) is None
    assert controller.finish(REQUEST, None, KeyError("bug"), 0.0) is None  # recovered panics count too
    assert controller.finish(REQUEST, None, boom, 0.0) is boom  # the third: given up, forgotten, not requeued
    assert queue.calls == ["add_rate_limited", "add_rate_limited", "forget"]
    # a success resets the count; so does a requeue-free result after it
    queue.calls.clear()
    assert controller.finish(REQUEST, None, boom, 0.0) is None
    assert controller.finish(REQUEST, Result(), None, 0.0) is None
    assert controller.finish(REQUEST, None, boom, 0.0) is None
    assert controller.finish(REQUEST, None, boom, 0.0) is None
    assert controller.finish(REQUEST, None, boom, 0.0) is boom
    # a terminal error is never retried, so it neither counts nor gives up
    assert controller.finish(REQUEST, None, TerminalError("t"), 0.0) is None
    assert controller.metrics.errors.value("c") == 8  # every failure above, the terminal one included


def test_without_max_retries_errors_requeue_forever() -> None:
    controller = Controller("c", lambda r: None)
    queue = Queue()
    controller.queue = queue  # type: ignore[assignment]
    for _ in range(20):
        assert controller.finish(REQUEST, None, ReconcileError("x"), 0.0) is None
    assert queue.calls == ["add_rate_limited"] * 20


@pytest.mark.parametrize("options, message", [
    ({"reconcile_timeout": 0}, "reconcile_timeout must be positive"),
    ({"reconcile_timeout": -1.0}, "reconcile_timeout must be positive"),
    ({"max_retries": 0}, "max_retries must be at least 1"),
])
def test_bad_options_are_refused(options: dict[str, float], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Controller("c", lambda r: None, **options)  # type: ignore[arg-type]


def test_panic_and_timeout_series_exist_at_zero() -> None:
    controller = Controller("c", lambda r: None)
    text = controller.registry.render()
    assert 'controller_runtime_reconcile_panics_total{controller="c"} 0' in text
    assert 'controller_runtime_reconcile_timeouts_total{controller="c"} 0' in text


def test_with_terminal_condition_sets_ready_false_once() -> None:
    cron = CronJob.from_dict({"metadata": {"name": "x", "namespace": "ns", "generation": 4}, "spec": {
        "schedule": "* * * * *", "jobTemplate": {"spec": {"template": {"spec": {"containers": []}}}}}})
    changed, did = with_terminal_condition(cron, "gave up")
    assert did and changed.status is not None and changed.status.conditions is not None
    (condition,) = changed.status.conditions
    assert (condition.type, condition.status, condition.reason, condition.message, condition.observed_generation) == (
        "Ready", "False", "RetryLimitExceeded", "gave up", 4)
    assert condition.last_transition_time  # set to now
    assert cron.status is None  # the object given is not changed
    again, did_again = with_terminal_condition(changed, "gave up")
    assert not did_again and again is changed


def test_time_left_tells_a_reconcile_its_deadline() -> None:
    import asyncio

    from kgen.runtime.controller import AsyncController
    from kgen.runtime.controller.reconcile import time_left

    seen: list[float | None] = []

    def reconcile(request: Request) -> None:
        seen.append(time_left())

    Controller("timed", reconcile, reconcile_timeout=30.0).reconcile_handler(REQUEST)
    Controller("untimed", reconcile).reconcile_handler(REQUEST)
    assert seen[0] is not None and 29.0 < seen[0] <= 30.0 and seen[1] is None
    assert time_left() is None  # reset after the reconcile

    async def areconcile(request: Request) -> None:
        seen.append(time_left())

    async def scenario() -> None:
        await AsyncController("atimed", areconcile, reconcile_timeout=30.0).reconcile_handler(REQUEST)

    asyncio.run(scenario())
    assert seen[2] is not None and 29.0 < seen[2] <= 30.0
