"""client-go's workqueue metrics_test.go, ported, plus the providers: in memory, Prometheus (an
optional dependency, exercised through a stand-in module) and the process-wide default."""

from __future__ import annotations

import asyncio
import sys
import threading
import time
import types
from typing import Any

import pytest

from kgen.runtime.util.workqueue import (
    AsyncQueue,
    DelayingQueue,
    InMemoryMetricsProvider,
    ItemExponentialFailureRateLimiter,
    NoopMetricsProvider,
    PrometheusMetricsProvider,
    Queue,
    RateLimitingQueue,
    set_metrics_provider,
)
from kgen.runtime.util.workqueue import metrics as wq_metrics
from kgen.runtime.util.workqueue.metrics import DefaultQueueMetrics
from tests.unit.workqueue_helpers import FakeClock, eventually, eventually_async

approx = pytest.approx


def test_metrics__TestMetrics() -> None:
    mp = InMemoryMetricsProvider()
    clock = FakeClock(0.0)
    q: Queue[str] = Queue(name="test", clock=clock, metrics_provider=mp, unfinished_work_update_period=0.001)
    m = mp.queue("test")
    try:
        q.add("foo")
        assert m.adds.value == 1
        assert m.depth.value == 1

        clock.step(50e-6)
        item, _ = q.get()
        assert item == "foo"
        assert m.queue_duration.observations == approx([5e-05])

        for _ in range(5):  # re-added while processing: de-duplicated
            q.add(item)
        assert m.adds.value == 2
        assert m.depth.value == 1  # one add is owed a run

        clock.step(25e-6)
        q.done(item)
        assert m.work_duration.observations == approx([2.5e-05])
        assert m.depth.value == 1

        item, _ = q.get()
        assert item == "foo"
        assert m.queue_duration.observations == approx([5e-05, 2.5e-05])
        assert m.depth.value == 0

        clock.step(0.001)
        assert eventually(lambda: m.unfinished_work_seconds.value == approx(0.001))
        assert eventually(lambda: m.longest_running_processor_seconds.value == approx(0.001))

        q.done(item)
        assert m.work_duration.observations == approx([2.5e-05, 0.001])
    finally:
        q.shut_down()


def test_metrics_async__TestMetrics() -> None:
    async def scenario() -> None:
        mp = InMemoryMetricsProvider()
        clock = FakeClock(0.0)
        q: AsyncQueue[str] = AsyncQueue(
            name="test", clock=clock, metrics_provider=mp, unfinished_work_update_period=0.001
        )
        m = mp.queue("test")
        q.add("foo")
        assert (m.adds.value, m.depth.value) == (1, 1)
        clock.step(50e-6)
        item, _ = await q.get()
        assert m.queue_duration.observations == approx([5e-05])
        for _ in range(5):
            q.add(item)
        assert (m.adds.value, m.depth.value) == (2, 1)
        clock.step(25e-6)
        q.done(item)
        assert m.work_duration.observations == approx([2.5e-05])
        item, _ = await q.get()
        assert m.queue_duration.observations == approx([5e-05, 2.5e-05])
        clock.step(0.001)
        await eventually_async(lambda: m.unfinished_work_seconds.value == approx(0.001))
        await eventually_async(lambda: m.longest_running_processor_seconds.value == approx(0.001))
        q.done(item)
        assert m.work_duration.observations == approx([2.5e-05, 0.001])
        q.shut_down()

    asyncio.run(scenario())


def test_metric_shutdown__TestMetricShutdown() -> None:
    mp = InMemoryMetricsProvider()
    q: Queue[str] = Queue(name="shutdown", metrics_provider=mp, unfinished_work_update_period=0.001)
    assert "workqueue-metrics-shutdown" in _thread_names()
    gauge = mp.queue("shutdown").unfinished_work_seconds
    assert eventually(lambda: gauge.sets > 0)
    q.shut_down()
    sets = gauge.sets
    time.sleep(0.02)
    assert gauge.sets == sets
    assert eventually(lambda: "workqueue-metrics-shutdown" not in _thread_names())


def test_metric_shutdown_async__TestMetricShutdown() -> None:
    async def scenario() -> None:
        mp = InMemoryMetricsProvider()
        q: AsyncQueue[str] = AsyncQueue(name="shutdown", metrics_provider=mp, unfinished_work_update_period=0.001)
        gauge = mp.queue("shutdown").unfinished_work_seconds
        q.add("foo")
        await q.get()  # the first get starts the updater
        await eventually_async(lambda: gauge.sets > 0)
        q.shut_down()
        sets = gauge.sets
        await asyncio.sleep(0.02)
        assert gauge.sets == sets

    asyncio.run(scenario())


def test_durations_in_seconds_from_the_injected_clock__TestSinceInMicroseconds() -> None:
    mp = InMemoryMetricsProvider()
    metrics = DefaultQueueMetrics(mp, "since")
    m = mp.queue("since")
    now = 1000.0
    for micros in [1, 50, 100, 500, 1000, 10000, 100000, 1000000]:
        metrics.add("x", now)
        now += micros * 1e-6
        metrics.get("x", now)
        assert m.queue_duration.observations[-1] == approx(micros * 1e-6)
        now += micros * 1e-6
        metrics.update_unfinished_work(now)
        assert m.unfinished_work_seconds.value == approx(micros * 1e-6)
        metrics.done("x", now)
        assert m.work_duration.observations[-1] == approx(micros * 1e-6)


def test_unfinished_work_sums_ages_and_longest_is_the_oldest() -> None:
    mp = InMemoryMetricsProvider()
    metrics = DefaultQueueMetrics(mp, "ages")
    for item, started in [("a", 0.0), ("b", 1.0), ("c", 2.5)]:
        metrics.add(item, started)
        metrics.get(item, started)
    metrics.update_unfinished_work(3.0)
    m = mp.queue("ages")
    assert m.unfinished_work_seconds.value == approx(3.0 + 2.0 + 0.5)
    assert m.longest_running_processor_seconds.value == approx(3.0)
    for item in "abc":
        metrics.done(item, 3.0)
    metrics.update_unfinished_work(4.0)
    assert (m.unfinished_work_seconds.value, m.longest_running_processor_seconds.value) == (0.0, 0.0)


def test_unnamed_queue_publishes_nothing_and_starts_no_updater() -> None:
    mp = InMemoryMetricsProvider()
    q: DelayingQueue[str] = DelayingQueue(metrics_provider=mp, unfinished_work_update_period=0.001)
    q.add("foo")
    q.add_after("bar", 0)
    q.done(q.get()[0])
    assert mp.names() == []
    assert "workqueue-metrics-" not in _thread_names()


def test_noop_provider_starts_no_updater() -> None:
    Queue(name="quiet", metrics_provider=NoopMetricsProvider())
    assert "workqueue-metrics-quiet" not in _thread_names()


def _thread_names() -> set[str]:
    return {thread.name for thread in threading.enumerate()}


def test_retries_count_every_add_after_until_shutdown() -> None:
    mp = InMemoryMetricsProvider()
    clock = FakeClock()
    q: RateLimitingQueue[str] = RateLimitingQueue(
        ItemExponentialFailureRateLimiter(0.001, 1.0), name="retries", clock=clock, metrics_provider=mp
    )
    q.add_after("a", 1)
    q.add_after("a", 2)  # folded into the first wait, but still a retry
    q.add_after("b", 0)
    q.add_rate_limited("c")
    assert mp.queue("retries").retries.value == 4
    q.shut_down()
    q.add_after("d", 1)
    q.add_rate_limited("d")
    assert mp.queue("retries").retries.value == 4


def test_delayed_key_waits_in_queue_from_when_it_was_due() -> None:
    mp = InMemoryMetricsProvider()
    clock = FakeClock(0.0)
    q: DelayingQueue[str] = DelayingQueue(name="due", clock=clock, metrics_provider=mp)
    q.add_after("x", 1.0)
    assert mp.queue("due").adds.value == 0  # waiting is not queued
    clock.step(3.0)  # due at 1.0; nobody looked until 3.0
    assert q.get() == ("x", False)
    assert mp.queue("due").adds.value == 1
    assert mp.queue("due").queue_duration.observations == [2.0]
    q.shut_down()


def test_metrics_tick_moves_due_keys_over_without_any_call() -> None:
    mp = InMemoryMetricsProvider()
    clock = FakeClock(0.0)
    q: DelayingQueue[str] = DelayingQueue(
        name="tick", clock=clock, metrics_provider=mp, unfinished_work_update_period=0.001
    )
    q.add_after("x", 1.0)
    clock.step(1.0)
    assert eventually(lambda: mp.queue("tick").depth.value == 1)
    assert mp.queue("tick").adds.value == 1
    q.shut_down()


def test_set_metrics_provider_applies_to_queues_created_afterwards() -> None:
    mp = InMemoryMetricsProvider()
    before: Queue[str] = Queue(name="before")
    set_metrics_provider(mp)
    try:
        after: Queue[str] = Queue(name="after")
        before.add("x")
        after.add("x")
        assert mp.names() == ["after"]
        assert isinstance(wq_metrics.global_metrics_provider(), InMemoryMetricsProvider)
    finally:
        set_metrics_provider(None)
        after.shut_down()
    reset: Queue[str] = Queue(name="reset")
    reset.add("x")
    assert mp.names() == ["after"]


def test_in_memory_samples_are_keyed_by_series_name() -> None:
    mp = InMemoryMetricsProvider()
    q: Queue[str] = Queue(name="samples", metrics_provider=mp)
    q.add("x")
    assert mp.queue("samples").samples() == {
        "workqueue_depth": 1.0,
        "workqueue_adds_total": 1.0,
        "workqueue_queue_duration_seconds": 0.0,
        "workqueue_work_duration_seconds": 0.0,
        "workqueue_unfinished_work_seconds": 0.0,
        "workqueue_longest_running_processor_seconds": 0.0,
        "workqueue_retries_total": 0.0,
    }
    q.shut_down()


# --- Prometheus ----------------------------------------------------------------------------------


def test_prometheus_provider_without_prometheus_client_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "prometheus_client", None)  # makes the import fail
    with pytest.raises(ImportError) as caught:
        PrometheusMetricsProvider()
    assert str(caught.value) == (
        "PrometheusMetricsProvider needs the 'prometheus_client' module, which is not installed: "
        "pip install 'kgen-runtime[metrics]' (or use InMemoryMetricsProvider)"
    )


class _FakeChild:
    def __init__(self) -> None:
        self.calls: list[tuple[str, float]] = []

    def inc(self) -> None:
        self.calls.append(("inc", 1))

    def dec(self) -> None:
        self.calls.append(("dec", 1))

    def set(self, value: float) -> None:
        self.calls.append(("set", value))

    def observe(self, value: float) -> None:
        self.calls.append(("observe", value))


def _fake_prometheus_client() -> types.ModuleType:
    """Stands in for prometheus_client's Gauge/Counter/Histogram constructors and .labels()."""
    module = types.ModuleType("prometheus_client")

    class Registry:
        def __init__(self) -> None:
            self.collectors: list[Vector] = []

    class Vector:
        kind = ""

        def __init__(self, name: str, documentation: str, labelnames: list[str], *, registry: Registry,
                     buckets: Any = None) -> None:
            self.name, self.documentation, self.labelnames, self.buckets = name, documentation, labelnames, buckets
            self.children: dict[str, _FakeChild] = {}
            registry.collectors.append(self)

        def labels(self, *, name: str) -> _FakeChild:
            return self.children.setdefault(name, _FakeChild())

    module.Registry = Registry  # type: ignore[attr-defined]
    module.REGISTRY = Registry()  # type: ignore[attr-defined]
    module.Gauge = type("Gauge", (Vector,), {"kind": "gauge"})  # type: ignore[attr-defined]
    module.Counter = type("Counter", (Vector,), {"kind": "counter"})  # type: ignore[attr-defined]
    module.Histogram = type("Histogram", (Vector,), {"kind": "histogram"})  # type: ignore[attr-defined]
    return module


def test_prometheus_provider_registers_component_base_series(monkeypatch: pytest.MonkeyPatch) -> None:
    prometheus = _fake_prometheus_client()
    monkeypatch.setitem(sys.modules, "prometheus_client", prometheus)
    registry = prometheus.Registry()
    clock = FakeClock(0.0)
    q: DelayingQueue[str] = DelayingQueue(
        name="prom", clock=clock, metrics_provider=PrometheusMetricsProvider(registry)
    )
    PrometheusMetricsProvider(registry)  # a second provider reuses the registered series

    series = {c.name: c for c in registry.collectors}
    assert len(registry.collectors) == 7
    assert {name: c.kind for name, c in series.items()} == {
        "workqueue_depth": "gauge",
        "workqueue_adds_total": "counter",
        "workqueue_queue_duration_seconds": "histogram",
        "workqueue_work_duration_seconds": "histogram",
        "workqueue_unfinished_work_seconds": "gauge",
        "workqueue_longest_running_processor_seconds": "gauge",
        "workqueue_retries_total": "counter",
    }
    assert all(c.labelnames == ["name"] and c.documentation for c in registry.collectors)
    assert series["workqueue_queue_duration_seconds"].buckets == approx(
        [1e-08 * 10**i for i in range(10)]
    )

    q.add_after("x", 0.5)
    clock.step(0.5)
    item, _ = q.get()
    clock.step(0.25)
    q.done(item)
    q.shut_down()

    def calls(name: str) -> list[tuple[str, float]]:
        child: _FakeChild = series[name].children["prom"]
        return child.calls

    assert calls("workqueue_retries_total") == [("inc", 1)]
    assert calls("workqueue_adds_total") == [("inc", 1)]
    assert calls("workqueue_depth") == [("inc", 1), ("dec", 1)]
    assert calls("workqueue_queue_duration_seconds") == [("observe", 0.0)]
    assert calls("workqueue_work_duration_seconds") == [("observe", 0.25)]


def test_prometheus_provider_defaults_to_the_global_registry(monkeypatch: pytest.MonkeyPatch) -> None:
    prometheus = _fake_prometheus_client()
    monkeypatch.setitem(sys.modules, "prometheus_client", prometheus)
    PrometheusMetricsProvider()
    assert len(prometheus.REGISTRY.collectors) == 7
