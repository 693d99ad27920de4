"""controller-runtime's reconcileHandler rules (pkg/internal/controller), as a table, on the
I/O-free decision and on the real worker loop with a real rate-limiting workqueue."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

import pytest

from kgen.runtime.controller import Controller, Request, Result, TerminalError
from kgen.runtime.controller.async_controller import AsyncController
from kgen.runtime.controller.controller import ControllerCore
from kgen.runtime.controller.metrics import Registry
from kgen.runtime.controller.outcome import apply, decide
from kgen.runtime.util.workqueue import ItemExponentialFailureRateLimiter

REQ = Request("ns", "a")


@dataclass
class RecordingQueue:
    calls: list[tuple[str, object]] = field(default_factory=list)

    def forget(self, item: Request) -> None:
        self.calls.append(("forget", item))

    def add_rate_limited(self, item: Request) -> None:
        self.calls.append(("add_rate_limited", item))

    def add_after(self, item: Request, seconds: float) -> None:
        self.calls.append(("add_after", seconds))


#: (what reconcile did, queue calls in order, reconcile_total result label, errors, terminal errors)
TABLE = [
    pytest.param(RuntimeError("boom"), [("add_rate_limited", REQ)], "error", 1, 0, id="error-rate-limited"),
    pytest.param(TerminalError("bad spec"), [], "error", 1, 1, id="terminal-error-dropped"),
    pytest.param(Result(requeue_after=5.0), [("forget", REQ), ("add_after", 5.0)], "requeue_after", 0, 0,
                 id="requeue-after-forgets-then-adds-after"),
    pytest.param(Result(requeue=True, requeue_after=2.0), [("forget", REQ), ("add_after", 2.0)], "requeue_after", 0, 0,
                 id="requeue-after-wins-over-requeue"),
    pytest.param(Result(requeue=True), [("add_rate_limited", REQ)], "requeue", 0, 0, id="requeue-rate-limited-no-forget"),
    pytest.param(Result(), [("forget", REQ)], "success", 0, 0, id="empty-result-forgets"),
    pytest.param(None, [("forget", REQ)], "success", 0, 0, id="none-forgets"),
    pytest.param(Result(requeue_after=-1.0), [("forget", REQ)], "success", 0, 0, id="negative-requeue-after-is-success"),
]


@pytest.mark.parametrize(("outcome", "calls", "label", "errors", "terminal"), TABLE)
def test_decision_matches_reconcile_handler(
    outcome: object, calls: list[tuple[str, object]], label: str, errors: int, terminal: int
) -> None:
    error = outcome if isinstance(outcome, Exception) else None
    result = outcome if isinstance(outcome, Result) else None
    decision = decide(result, error)
    queue = RecordingQueue()
    apply(decision, queue, REQ)
    assert queue.calls == calls
    assert decision.result_label == label
    assert (decision.error, decision.terminal) == (bool(errors), bool(terminal))


def one_reconcile(flavour: str, outcome: object, registry: Registry, limiter: ItemExponentialFailureRateLimiter[Request]) -> ControllerCore:
    """A controller of ``flavour`` whose reconcile does ``outcome``, after one reconcile of REQ."""
    def reconcile(request: Request) -> Result | None:
        if isinstance(outcome, Exception):
            raise outcome
        return outcome if isinstance(outcome, Result) else None

    if flavour == "sync":
        controller = Controller("ctl", reconcile, rate_limiter=limiter, registry=registry)
        controller.queue.add(REQ)
        assert controller.process_next_work_item()
        controller.queue.shut_down()
        return controller

    async def reconcile_async(request: Request) -> Result | None:
        return reconcile(request)

    async def run() -> AsyncController:
        controller = AsyncController("ctl", reconcile_async, rate_limiter=limiter, registry=registry)
        controller.queue.add(REQ)
        assert await controller.process_next_work_item()
        controller.queue.shut_down()
        return controller

    return asyncio.run(run())


@pytest.mark.parametrize("flavour", ["sync", "async"])
@pytest.mark.parametrize(("outcome", "calls", "label", "errors", "terminal"), TABLE)
def test_worker_applies_the_table_to_a_real_queue(
    outcome: object, calls: list[tuple[str, object]], label: str, errors: int, terminal: int, flavour: str
) -> None:
    registry = Registry()
    limiter: ItemExponentialFailureRateLimiter[Request] = ItemExponentialFailureRateLimiter(0.001, 1.0)
    limiter.when(REQ)  # one earlier failure: forget() shows as num_requeues back to 0
    controller = one_reconcile(flavour, outcome, registry, limiter)

    rate_limited = ("add_rate_limited", REQ) in calls
    forgot = ("forget", REQ) in calls
    assert controller.queue.num_requeues(REQ) == (2 if rate_limited else 0 if forgot else 1)
    total = registry.get("controller_runtime_reconcile_total")
    assert total is not None
    for each in ("success", "error", "requeue", "requeue_after"):
        assert total.value("ctl", each) == (1 if each == label else 0), each
    errors_family = registry.get("controller_runtime_reconcile_errors_total")
    terminal_family = registry.get("controller_runtime_terminal_reconcile_errors_total")
    assert errors_family is not None and terminal_family is not None
    assert (errors_family.value("ctl"), terminal_family.value("ctl")) == (errors, terminal)
    time_family = registry.get("controller_runtime_reconcile_time_seconds")
    assert time_family is not None and time_family.value("ctl") == 1


def test_requeue_after_comes_back_after_the_delay_and_done_is_always_called() -> None:
    seen: list[Request] = []

    def reconcile(request: Request) -> Result:
        seen.append(request)
        return Result(requeue_after=0.05) if len(seen) == 1 else Result()

    controller = Controller("ctl", reconcile)
    controller.queue.add(REQ)
    assert controller.process_next_work_item()
    assert len(controller.queue) == 0  # waiting, not queued
    assert controller.process_next_work_item()  # get() blocks until the delay passed
    assert seen == [REQ, REQ]
    controller.queue.shut_down()
    assert not controller.process_next_work_item()


def test_a_wrong_return_type_is_retried_as_an_error() -> None:
    registry = Registry()
    controller = Controller("ctl", lambda request: "done", registry=registry)  # type: ignore[arg-type,return-value]
    controller.queue.add(REQ)
    controller.process_next_work_item()
    total = registry.get("controller_runtime_reconcile_total")
    assert total is not None and total.value("ctl", "error") == 1
    assert controller.queue.num_requeues(REQ) == 1
    controller.queue.shut_down()


def test_every_result_series_exists_at_zero_before_the_first_reconcile() -> None:
    registry = Registry()
    Controller("ctl", lambda request: None, registry=registry, max_concurrent_reconciles=3)
    text = registry.render()
    for result in ("success", "error", "requeue", "requeue_after"):
        assert f'controller_runtime_reconcile_total{{controller="ctl",result="{result}"}} 0' in text
    assert 'controller_runtime_max_concurrent_reconciles{controller="ctl"} 3' in text
    assert 'controller_runtime_active_workers{controller="ctl"} 0' in text


def test_the_asyncio_controller_refuses_a_sync_reconciler() -> None:
    with pytest.raises(TypeError, match="needs an async reconcile"):
        AsyncController("ctl", lambda request: None)  # type: ignore[arg-type,return-value]
