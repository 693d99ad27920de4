"""client-go's workqueue metrics (metrics.go) and the providers that publish them.

A queue reports what an operator needs to tell a slow controller from a stuck one: how many
keys wait (``workqueue_depth``), how fast keys arrive (``workqueue_adds_total``), how long a
key waits before a worker takes it (``workqueue_queue_duration_seconds``), how long a worker
holds it (``workqueue_work_duration_seconds``), and — because a hung worker never finishes and
so never shows up in a histogram — the age of the work still in flight
(``workqueue_unfinished_work_seconds``, ``workqueue_longest_running_processor_seconds``),
refreshed every 500 ms. Delaying queues also count ``workqueue_retries_total``. Every series
carries the queue's ``name`` label.

As in client-go, the backend is pluggable (``MetricsProvider``), the default publishes nothing,
and a queue without a name publishes nothing whatever the provider: an unnamed queue has no
label value to publish under. ``QueueMetrics`` holds the bookkeeping and takes the time from
its caller, so it never reads a clock itself and is exercised with an injected one.
"""

from __future__ import annotations

import importlib
import threading
from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Any, Protocol

from kgen.runtime.util.extras import missing_extra

DEPTH = "workqueue_depth"
"""The series name of the gauge of keys waiting. The names are those of
k8s.io/component-base/metrics/prometheus/workqueue (subsystem "workqueue")."""
ADDS = "workqueue_adds_total"
"""The series name of the counter of adds."""
QUEUE_DURATION = "workqueue_queue_duration_seconds"
"""The series name of the histogram of how long a key waits before a worker takes it."""
WORK_DURATION = "workqueue_work_duration_seconds"
"""The series name of the histogram of how long a worker holds a key."""
UNFINISHED_WORK = "workqueue_unfinished_work_seconds"
"""The series name of the gauge of seconds of work in flight, not yet observed in the work duration."""
LONGEST_RUNNING_PROCESSOR = "workqueue_longest_running_processor_seconds"
"""The series name of the gauge of seconds the longest-running worker has held its key."""
RETRIES = "workqueue_retries_total"
"""The series name of the counter of ``add_after`` calls (delaying queues)."""

DURATION_BUCKETS = (1e-08, 1e-07, 1e-06, 1e-05, 0.0001, 0.001, 0.01, 0.1, 1.0, 10.0)
"""component-base's ``ExponentialBuckets(10e-9, 10, 10)``: 10 ns up to 10 s."""

_HELP = {
    DEPTH: "Current depth of workqueue",
    ADDS: "Total number of adds handled by workqueue",
    QUEUE_DURATION: "How long in seconds an item stays in workqueue before being requested.",
    WORK_DURATION: "How long in seconds processing an item from workqueue takes.",
    UNFINISHED_WORK: (
        "How many seconds of work has done that is in progress and hasn't been observed by "
        "work_duration. Large values indicate stuck threads. One can deduce the number of stuck "
        "threads by observing the rate at which this increases."
    ),
    LONGEST_RUNNING_PROCESSOR: (
        "How many seconds has the longest running processor for workqueue been running."
    ),
    RETRIES: "Total number of retries handled by workqueue",
}


class CounterMetric(Protocol):
    """A counter a provider hands out."""

    def inc(self) -> None:
        """Add 1."""


class GaugeMetric(Protocol):
    """A gauge moved by one (the depth) a provider hands out."""

    def inc(self) -> None:
        """Add 1."""

    def dec(self) -> None:
        """Subtract 1."""


class SettableGaugeMetric(Protocol):
    """A gauge set to a value (the unfinished-work gauges) a provider hands out."""

    def set(self, value: float) -> None:
        """Set the gauge to ``value``."""


class HistogramMetric(Protocol):
    """A histogram a provider hands out."""

    def observe(self, value: float) -> None:
        """Record one observation."""


class MetricsProvider(Protocol):
    """Makes one metric per queue name; the shape of client-go's MetricsProvider, so a provider
    can hand out labelled children of vectors it registered once."""

    def new_depth_metric(self, name: str) -> GaugeMetric:
        """The ``workqueue_depth`` gauge of queue ``name``."""

    def new_adds_metric(self, name: str) -> CounterMetric:
        """The ``workqueue_adds_total`` counter of queue ``name``."""

    def new_latency_metric(self, name: str) -> HistogramMetric:
        """The ``workqueue_queue_duration_seconds`` histogram of queue ``name``."""

    def new_work_duration_metric(self, name: str) -> HistogramMetric:
        """The ``workqueue_work_duration_seconds`` histogram of queue ``name``."""

    def new_unfinished_work_seconds_metric(self, name: str) -> SettableGaugeMetric:
        """The ``workqueue_unfinished_work_seconds`` gauge of queue ``name``."""

    def new_longest_running_processor_seconds_metric(self, name: str) -> SettableGaugeMetric:
        """The ``workqueue_longest_running_processor_seconds`` gauge of queue ``name``."""

    def new_retries_metric(self, name: str) -> CounterMetric:
        """The ``workqueue_retries_total`` counter of queue ``name``."""


class _NoopMetric:
    def inc(self) -> None:
        pass

    def dec(self) -> None:
        pass

    def set(self, value: float) -> None:
        pass

    def observe(self, value: float) -> None:
        pass


_NOOP = _NoopMetric()


class NoopMetricsProvider:
    """The default: queues built with it skip all bookkeeping and start no updater."""

    def new_depth_metric(self, name: str) -> GaugeMetric:
        """A metric that records nothing."""
        return _NOOP

    def new_adds_metric(self, name: str) -> CounterMetric:
        """A metric that records nothing."""
        return _NOOP

    def new_latency_metric(self, name: str) -> HistogramMetric:
        """A metric that records nothing."""
        return _NOOP

    def new_work_duration_metric(self, name: str) -> HistogramMetric:
        """A metric that records nothing."""
        return _NOOP

    def new_unfinished_work_seconds_metric(self, name: str) -> SettableGaugeMetric:
        """A metric that records nothing."""
        return _NOOP

    def new_longest_running_processor_seconds_metric(self, name: str) -> SettableGaugeMetric:
        """A metric that records nothing."""
        return _NOOP

    def new_retries_metric(self, name: str) -> CounterMetric:
        """A metric that records nothing."""
        return _NOOP


# --- in memory: for tests and for looking at a running controller without Prometheus ---------


class InMemoryCounter:
    """A counter kept in memory (``value``), for tests."""

    def __init__(self) -> None:
        self.value = 0.0
        self._lock = threading.Lock()

    def inc(self) -> None:
        """Add 1."""
        with self._lock:
            self.value += 1


class InMemoryGauge:
    """Both kinds of gauge: depth moves by inc/dec, the unfinished-work gauges are set."""

    def __init__(self) -> None:
        self.value = 0.0
        self.sets = 0
        self._lock = threading.Lock()

    def inc(self) -> None:
        """Add 1."""
        with self._lock:
            self.value += 1

    def dec(self) -> None:
        """Subtract 1."""
        with self._lock:
            self.value -= 1

    def set(self, value: float) -> None:
        """Set the gauge to ``value`` (``sets`` counts the calls)."""
        with self._lock:
            self.value = value
            self.sets += 1


class InMemoryHistogram:
    """Keeps every observation: tests assert the exact durations an injected clock produced."""

    def __init__(self) -> None:
        self.observations: list[float] = []
        self._lock = threading.Lock()

    def observe(self, value: float) -> None:
        """Keep ``value``."""
        with self._lock:
            self.observations.append(value)

    @property
    def count(self) -> int:
        """How many observations were made."""
        return len(self.observations)


@dataclass
class InMemoryQueueMetrics:
    """One queue name's series, named after the series they stand for."""

    depth: InMemoryGauge = field(default_factory=InMemoryGauge)
    adds: InMemoryCounter = field(default_factory=InMemoryCounter)
    queue_duration: InMemoryHistogram = field(default_factory=InMemoryHistogram)
    work_duration: InMemoryHistogram = field(default_factory=InMemoryHistogram)
    unfinished_work_seconds: InMemoryGauge = field(default_factory=InMemoryGauge)
    longest_running_processor_seconds: InMemoryGauge = field(default_factory=InMemoryGauge)
    retries: InMemoryCounter = field(default_factory=InMemoryCounter)

    def samples(self) -> dict[str, float]:
        """Series name -> value (histograms give their observation count)."""
        return {
            DEPTH: self.depth.value,
            ADDS: self.adds.value,
            QUEUE_DURATION: float(self.queue_duration.count),
            WORK_DURATION: float(self.work_duration.count),
            UNFINISHED_WORK: self.unfinished_work_seconds.value,
            LONGEST_RUNNING_PROCESSOR: self.longest_running_processor_seconds.value,
            RETRIES: self.retries.value,
        }


class InMemoryMetricsProvider:
    """Queues sharing a name share series, as they would share a Prometheus label value."""

    def __init__(self) -> None:
        self._queues: dict[str, InMemoryQueueMetrics] = {}
        self._lock = threading.Lock()

    def queue(self, name: str) -> InMemoryQueueMetrics:
        """The series of queue ``name`` (made on first use)."""
        with self._lock:
            return self._queues.setdefault(name, InMemoryQueueMetrics())

    def names(self) -> list[str]:
        """The queue names that have series, sorted."""
        with self._lock:
            return sorted(self._queues)

    def new_depth_metric(self, name: str) -> GaugeMetric:
        """Queue ``name``'s depth gauge."""
        return self.queue(name).depth

    def new_adds_metric(self, name: str) -> CounterMetric:
        """Queue ``name``'s adds counter."""
        return self.queue(name).adds

    def new_latency_metric(self, name: str) -> HistogramMetric:
        """Queue ``name``'s queue duration histogram."""
        return self.queue(name).queue_duration

    def new_work_duration_metric(self, name: str) -> HistogramMetric:
        """Queue ``name``'s work duration histogram."""
        return self.queue(name).work_duration

    def new_unfinished_work_seconds_metric(self, name: str) -> SettableGaugeMetric:
        """Queue ``name``'s unfinished work gauge."""
        return self.queue(name).unfinished_work_seconds

    def new_longest_running_processor_seconds_metric(self, name: str) -> SettableGaugeMetric:
        """Queue ``name``'s longest running processor gauge."""
        return self.queue(name).longest_running_processor_seconds

    def new_retries_metric(self, name: str) -> CounterMetric:
        """Queue ``name``'s retries counter."""
        return self.queue(name).retries


# --- Prometheus (optional dependency) ---------------------------------------------------------

_prometheus_lock = threading.Lock()
# registry id -> (registry, vectors). The registry is held so its id cannot be reused; vectors
# are registered once per registry, like component-base registering them once per process.
_prometheus_vectors: dict[int, tuple[Any, dict[str, Any]]] = {}


def _import_prometheus_client() -> Any:
    try:
        return importlib.import_module("prometheus_client")
    except ModuleNotFoundError:
        raise missing_extra(
            "prometheus_client", extra="metrics", needed_by="PrometheusMetricsProvider",
            alternative="or use InMemoryMetricsProvider",
        ) from None


class PrometheusMetricsProvider:
    """Publishes the component-base series through prometheus_client, into ``registry`` (its
    default REGISTRY when None). Several providers on one registry share the same vectors, so
    building a second one does not fail with a duplicate-registration error."""

    def __init__(self, registry: Any = None) -> None:
        prometheus = _import_prometheus_client()
        registry = prometheus.REGISTRY if registry is None else registry
        with _prometheus_lock:
            known = _prometheus_vectors.get(id(registry))
            if known is None:
                known = (registry, _register_vectors(prometheus, registry))
                _prometheus_vectors[id(registry)] = known
        self._vectors = known[1]

    def new_depth_metric(self, name: str) -> GaugeMetric:
        """The ``workqueue_depth`` gauge, labelled ``name``."""
        metric: GaugeMetric = self._vectors[DEPTH].labels(name=name)
        return metric

    def new_adds_metric(self, name: str) -> CounterMetric:
        """The ``workqueue_adds_total`` counter, labelled ``name``."""
        metric: CounterMetric = self._vectors[ADDS].labels(name=name)
        return metric

    def new_latency_metric(self, name: str) -> HistogramMetric:
        """The ``workqueue_queue_duration_seconds`` histogram, labelled ``name``."""
        metric: HistogramMetric = self._vectors[QUEUE_DURATION].labels(name=name)
        return metric

    def new_work_duration_metric(self, name: str) -> HistogramMetric:
        """The ``workqueue_work_duration_seconds`` histogram, labelled ``name``."""
        metric: HistogramMetric = self._vectors[WORK_DURATION].labels(name=name)
        return metric

    def new_unfinished_work_seconds_metric(self, name: str) -> SettableGaugeMetric:
        """The ``workqueue_unfinished_work_seconds`` gauge, labelled ``name``."""
        metric: SettableGaugeMetric = self._vectors[UNFINISHED_WORK].labels(name=name)
        return metric

    def new_longest_running_processor_seconds_metric(self, name: str) -> SettableGaugeMetric:
        """The ``workqueue_longest_running_processor_seconds`` gauge, labelled ``name``."""
        metric: SettableGaugeMetric = self._vectors[LONGEST_RUNNING_PROCESSOR].labels(name=name)
        return metric

    def new_retries_metric(self, name: str) -> CounterMetric:
        """The ``workqueue_retries_total`` counter, labelled ``name``."""
        metric: CounterMetric = self._vectors[RETRIES].labels(name=name)
        return metric


def _register_vectors(prometheus: Any, registry: Any) -> dict[str, Any]:
    labels = ["name"]

    def gauge(series: str) -> Any:
        return prometheus.Gauge(series, _HELP[series], labels, registry=registry)

    def counter(series: str) -> Any:
        return prometheus.Counter(series, _HELP[series], labels, registry=registry)

    def histogram(series: str) -> Any:
        return prometheus.Histogram(
            series, _HELP[series], labels, registry=registry, buckets=DURATION_BUCKETS
        )

    return {
        DEPTH: gauge(DEPTH),
        ADDS: counter(ADDS),
        QUEUE_DURATION: histogram(QUEUE_DURATION),
        WORK_DURATION: histogram(WORK_DURATION),
        UNFINISHED_WORK: gauge(UNFINISHED_WORK),
        LONGEST_RUNNING_PROCESSOR: gauge(LONGEST_RUNNING_PROCESSOR),
        RETRIES: counter(RETRIES),
    }


# --- the process-wide default -----------------------------------------------------------------

_global_provider: MetricsProvider = NoopMetricsProvider()


def set_metrics_provider(provider: MetricsProvider | None) -> None:
    """Sets the provider of queues created afterwards without ``metrics_provider=`` (client-go's
    SetProvider); None goes back to publishing nothing. Queues already built keep theirs."""
    global _global_provider
    _global_provider = NoopMetricsProvider() if provider is None else provider


def global_metrics_provider() -> MetricsProvider:
    """The provider of queues created without ``metrics_provider=`` (see ``set_metrics_provider``)."""
    return _global_provider


# --- the bookkeeping a queue does ---------------------------------------------------------------


class QueueMetrics:
    """client-go's noMetrics: what an unnamed queue, or one under the no-op provider, records.

    ``enabled`` tells the queue whether to run the periodic unfinished-work updater at all."""

    enabled = False

    def add(self, item: Hashable, now: float) -> None:
        """Record that ``item`` was added at ``now``."""

    def get(self, item: Hashable, now: float) -> None:
        """Record that a worker took ``item`` at ``now``."""

    def done(self, item: Hashable, now: float) -> None:
        """Record that the worker finished ``item`` at ``now``."""

    def update_unfinished_work(self, now: float) -> None:
        """Refresh the unfinished-work gauges at ``now``."""


class DefaultQueueMetrics(QueueMetrics):
    """client-go's defaultQueueMetrics. Depth counts adds that were not collapsed — including an
    item re-added while a worker holds it, which is not in the queue yet but is owed a run."""

    enabled = True

    def __init__(self, provider: MetricsProvider, name: str) -> None:
        self.depth = provider.new_depth_metric(name)
        self.adds = provider.new_adds_metric(name)
        self.latency = provider.new_latency_metric(name)
        self.work_duration = provider.new_work_duration_metric(name)
        self.unfinished_work_seconds = provider.new_unfinished_work_seconds_metric(name)
        self.longest_running_processor = provider.new_longest_running_processor_seconds_metric(name)
        self._add_times: dict[Hashable, float] = {}
        self._processing_start_times: dict[Hashable, float] = {}

    def add(self, item: Hashable, now: float) -> None:
        """Count the add and the depth; the key's wait starts at ``now`` unless it already waits."""
        self.adds.inc()
        self.depth.inc()
        self._add_times.setdefault(item, now)

    def get(self, item: Hashable, now: float) -> None:
        """Lower the depth, observe the key's wait, and start timing its work."""
        self.depth.dec()
        self._processing_start_times[item] = now
        added = self._add_times.pop(item, None)
        if added is not None:
            self.latency.observe(now - added)

    def done(self, item: Hashable, now: float) -> None:
        """Observe how long the key's work took."""
        started = self._processing_start_times.pop(item, None)
        if started is not None:
            self.work_duration.observe(now - started)

    def update_unfinished_work(self, now: float) -> None:
        # Set, not observed: work still running has no duration yet, only an age.
        """Set the unfinished-work gauges from the ages of the work in flight."""
        ages = [now - started for started in self._processing_start_times.values()]
        self.unfinished_work_seconds.set(sum(ages))
        self.longest_running_processor.set(max(ages, default=0.0))


def new_queue_metrics(name: str, provider: MetricsProvider | None) -> QueueMetrics:
    """The metrics of a queue named ``name``: ``QueueMetrics`` (records nothing) for an unnamed queue or
    the no-op provider, else ``DefaultQueueMetrics`` from ``provider`` (the global one if None)."""
    provider = _global_provider if provider is None else provider
    if not name or isinstance(provider, NoopMetricsProvider):
        return QueueMetrics()
    return DefaultQueueMetrics(provider, name)


def new_retries_metric(name: str, provider: MetricsProvider | None) -> CounterMetric:
    """The retries counter of a queue named ``name`` from ``provider`` (the global one if None); a no-op
    for an unnamed queue."""
    provider = _global_provider if provider is None else provider
    if not name:
        return _NOOP
    return provider.new_retries_metric(name)
