"""The worker loop (controller-runtime's Controller.Start on threads): max_concurrent_reconciles,
never one request in two workers at once, and a stop that drains what is in flight and queued.
Events come from a ``Channel`` source: no apiserver is involved in what is tested here."""

from __future__ import annotations

import asyncio
import threading
import time
from collections import Counter

from kgen.kubernetes.models.core.v1 import ConfigMap
from kgen.kubernetes.models.meta.v1 import ObjectMeta
from kgen.runtime.controller import (
    AsyncController,
    Channel,
    Controller,
    EnqueueRequestForObject,
    Funcs,
    GenericEvent,
    Request,
    Result,
)


def cm(name: str) -> ConfigMap:
    return ConfigMap(metadata=ObjectMeta(name=name, namespace="ns"))


class Tracker:
    """A reconciler that records concurrency: how many run at once, per request and overall."""

    def __init__(self, hold: float) -> None:
        self.hold = hold
        self.lock = threading.Lock()
        self.running: Counter[Request] = Counter()
        self.peak_total = 0
        self.peak_same = 0
        self.done: list[Request] = []

    def reconcile(self, request: Request) -> Result | None:
        with self.lock:
            self.running[request] += 1
            self.peak_same = max(self.peak_same, self.running[request])
            self.peak_total = max(self.peak_total, sum(self.running.values()))
        time.sleep(self.hold)
        with self.lock:
            self.running[request] -= 1
            self.done.append(request)
        return None


def run(controller: Controller, stop: threading.Event) -> threading.Thread:
    thread = threading.Thread(target=controller.start, args=(stop,), kwargs={"graceful_timeout": 10.0})
    thread.start()
    return thread


def wait_until(condition: object, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():  # type: ignore[operator]
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)


def test_workers_run_concurrently_up_to_the_limit_and_never_on_one_request_twice() -> None:
    tracker = Tracker(hold=0.05)
    controller = Controller("ctl", tracker, max_concurrent_reconciles=3)
    channel: Channel[ConfigMap] = Channel()
    channel.bind(EnqueueRequestForObject())
    controller.watch(channel)
    stop = threading.Event()
    thread = run(controller, stop)
    for round_ in range(5):
        for name in ("a", "b", "c", "d", "e", "f"):
            channel.send(cm(name))
        time.sleep(0.02)
    wait_until(lambda: len(controller.queue) == 0 and sum(tracker.running.values()) == 0)
    stop.set()
    thread.join(10)
    assert not thread.is_alive()
    assert tracker.peak_same == 1
    assert tracker.peak_total == 3
    assert set(tracker.done) == {Request("ns", n) for n in "abcdef"}


def test_stop_drains_the_reconcile_in_flight_and_the_queued_ones_then_ignores_new_events() -> None:
    started = threading.Event()
    release = threading.Event()
    finished: list[str] = []

    def reconcile(request: Request) -> None:
        if request.name == "slow":
            started.set()
            release.wait(5)
        finished.append(request.name)

    controller = Controller("ctl", reconcile, max_concurrent_reconciles=1)
    channel: Channel[ConfigMap] = Channel()
    channel.bind(EnqueueRequestForObject())
    controller.watch(channel)
    stop = threading.Event()
    thread = run(controller, stop)
    channel.send(cm("slow"))
    assert started.wait(5)
    channel.send(cm("queued"))
    stop.set()
    wait_until(lambda: controller.queue.shutting_down())
    channel.send(cm("after-stop"))  # the source stops with the controller; the queue ignores it anyway
    release.set()
    thread.join(10)
    assert not thread.is_alive()
    assert finished == ["slow", "queued"]


def test_events_sent_before_start_wait_for_it_and_predicates_filter_them() -> None:
    seen: list[str] = []
    controller = Controller("ctl", lambda request: seen.append(request.name))
    channel: Channel[ConfigMap] = Channel()
    keep_b = Funcs[ConfigMap](generic=lambda e: e.object.metadata is not None and e.object.metadata.name == "b")
    channel.bind(EnqueueRequestForObject(), [keep_b])
    controller.watch(channel)
    channel.send(cm("a"))
    channel.send(cm("b"))
    stop = threading.Event()
    thread = run(controller, stop)
    wait_until(lambda: seen == ["b"])
    stop.set()
    thread.join(10)
    assert isinstance(GenericEvent(cm("x")).object, ConfigMap)


def test_a_failing_reconcile_is_retried_with_backoff_until_it_succeeds() -> None:
    attempts: list[float] = []

    def reconcile(request: Request) -> None:
        attempts.append(time.monotonic())
        if len(attempts) < 3:
            raise RuntimeError("not yet")

    controller = Controller("ctl", reconcile)
    channel: Channel[ConfigMap] = Channel()
    channel.bind(EnqueueRequestForObject())
    controller.watch(channel)
    stop = threading.Event()
    thread = run(controller, stop)
    channel.send(cm("a"))
    wait_until(lambda: len(attempts) == 3)
    stop.set()
    thread.join(10)
    # client-go's default controller rate limiter: 5 ms, then 10 ms (exponential per item).
    assert attempts[1] - attempts[0] >= 0.005 and attempts[2] - attempts[1] >= 0.01
    assert controller.queue.num_requeues(Request("ns", "a")) == 0  # forgotten after the success


def test_asyncio_workers_share_the_rules_limit_concurrency_and_drain_on_stop() -> None:
    running: Counter[Request] = Counter()
    peaks = {"same": 0, "total": 0}
    done: list[str] = []

    async def reconcile(request: Request) -> Result | None:
        running[request] += 1
        peaks["same"] = max(peaks["same"], running[request])
        peaks["total"] = max(peaks["total"], sum(running.values()))
        await asyncio.sleep(0.02)
        running[request] -= 1
        done.append(request.name)
        return Result(requeue_after=30.0) if request.name == "later" else None

    async def scenario() -> AsyncController:
        controller = AsyncController("actl", reconcile, max_concurrent_reconciles=2)
        channel: Channel[ConfigMap] = Channel()
        channel.bind(EnqueueRequestForObject())
        controller.watch(channel)
        stop = asyncio.Event()
        task = asyncio.create_task(controller.start(stop, graceful_timeout=10.0))
        for _ in range(3):
            for name in ("a", "b", "c", "later"):
                channel.send(cm(name))
            await asyncio.sleep(0.005)
        while len(controller.queue) or sum(running.values()):
            await asyncio.sleep(0.01)
        channel.send(cm("in-flight"))
        await asyncio.sleep(0.005)  # taken by a worker, not finished
        stop.set()
        await asyncio.wait_for(task, 10)
        return controller

    controller = asyncio.run(scenario())
    assert peaks == {"same": 1, "total": 2}
    assert set(done) == {"a", "b", "c", "later", "in-flight"}
    assert done[-1] == "in-flight"  # drained, not abandoned
    total = controller.registry.get("controller_runtime_reconcile_total")
    assert total is not None and total.value("actl", "requeue_after") >= 1
