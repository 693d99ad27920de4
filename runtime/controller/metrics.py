"""The manager's metrics, in Prometheus' text format, without prometheus_client.

controller-runtime serves one registry on ``/metrics``: its reconciler series
(pkg/internal/controller/metrics), client-go's workqueue series and the REST client's. The same
three sets are published here, under the same names and labels:

- ``controller_runtime_reconcile_total{controller,result}`` (result: success, error, requeue,
  requeue_after; all four at 0 from the start, as controller-runtime's initMetrics does),
  ``controller_runtime_reconcile_errors_total``, ``controller_runtime_terminal_reconcile_errors_total``,
  ``controller_runtime_reconcile_panics_total``, ``controller_runtime_reconcile_timeouts_total``,
  ``controller_runtime_reconcile_time_seconds`` (controller-runtime's buckets),
  ``controller_runtime_max_concurrent_reconciles`` and ``controller_runtime_active_workers``;
- ``workqueue_*{name,controller}`` through the workqueue's ``MetricsProvider`` (``WorkqueueMetrics``);
- ``rest_client_*`` through the REST client's ``RESTMetrics`` (``rest_client_metrics``);
- ``leader_election_master_status{name}`` through the elector's ``LeaderMetric``
  (``LeaderElectionMetrics``, pkg/metrics/leaderelection.go);
- ``controller_runtime_webhook_requests_total{webhook,code}``,
  ``controller_runtime_webhook_latency_seconds{webhook}`` and
  ``controller_runtime_webhook_requests_in_flight{webhook}`` through the webhook server's hooks
  (``WebhookMetrics``, pkg/webhook/internal/metrics), and ``certwatcher_read_certificate_total``
  and ``certwatcher_read_certificate_errors_total`` through its certificate watcher's
  (``CertWatcherMetrics``, pkg/certwatcher/metrics).

The runtime's own dependencies are httpx and msgspec only, so rather than require
prometheus_client this module keeps the few counters, gauges and histograms it needs and writes
the text exposition format (version 0.0.4) itself. A ``Registry`` belongs to one manager, so two
managers in one process (tests) do not add into each other's series.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Sequence
from urllib.parse import urlsplit

from kgen.runtime.rest.metrics import LATENCY_BUCKETS, RESTMetrics
from kgen.runtime.util.workqueue import metrics as wq

__all__ = [
    "CertWatcherMetrics", "ControllerMetrics", "LeaderElectionMetrics", "Registry", "WebhookMetrics", "WorkqueueMetrics",
    "rest_client_metrics",
]

RECONCILE_TIME_BUCKETS = (
    0.005, 0.01, 0.025, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0,
    1.25, 1.5, 1.75, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5, 6, 7, 8, 9, 10, 15, 20, 25, 30, 40, 50, 60,
)
"""controller-runtime's ReconcileTime buckets."""
EXPONENTIAL_BUCKETS = tuple(float(f"1e{exponent}") for exponent in range(-8, 4))
"""controller-runtime's ``ExponentialBuckets(10e-9, 10, 12)``, 10 ns to 1000 s: its webhook latency
and workqueue duration buckets."""


def _number(value: float) -> str:
    if math.isinf(value):
        return "+Inf" if value > 0 else "-Inf"
    return str(int(value)) if float(value).is_integer() else repr(float(value))


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace("\n", "\\n").replace('"', '\\"')


def _labels(names: Sequence[str], values: Sequence[str], extra: str = "") -> str:
    pairs = [f'{n}="{_escape(v)}"' for n, v in zip(names, values, strict=True)] + ([extra] if extra else [])
    return "{" + ",".join(pairs) + "}" if pairs else ""


_LE_INF = 'le="+Inf"'


class _Child:
    """One labelled series: a counter or gauge value, or a histogram's buckets."""

    def __init__(self, lock: threading.Lock, buckets: Sequence[float] = ()) -> None:
        self._lock = lock
        self.value = 0.0
        self.buckets = list(buckets)
        self.counts = [0] * len(self.buckets)
        self.count = 0

    def inc(self, amount: float = 1.0) -> None:
        with self._lock:
            self.value += amount

    def dec(self, amount: float = 1.0) -> None:
        with self._lock:
            self.value -= amount

    def set(self, value: float) -> None:
        with self._lock:
            self.value = value

    def observe(self, value: float) -> None:
        with self._lock:
            self.value += value  # the sum
            self.count += 1
            for index, bound in enumerate(self.buckets):
                if value <= bound:
                    self.counts[index] += 1


class Family:
    """A metric name with its type, help and label names; ``labels(...)`` is one series."""

    def __init__(self, name: str, kind: str, help: str, label_names: Sequence[str], buckets: Sequence[float] = ()) -> None:
        self.name, self.kind, self.help = name, kind, help
        self.label_names = tuple(label_names)
        self.buckets = tuple(buckets)
        self._lock = threading.Lock()
        self._children: dict[tuple[str, ...], _Child] = {}

    def labels(self, *values: str) -> _Child:
        if len(values) != len(self.label_names):
            raise ValueError(f"{self.name} takes labels {self.label_names}, got {values}")
        with self._lock:
            child = self._children.get(values)
            if child is None:
                child = self._children[values] = _Child(threading.Lock(), self.buckets)
            return child

    def value(self, *values: str) -> float:
        """A series' value (a histogram's count), 0 if it was never touched: for tests."""
        child = self._children.get(values)
        return 0.0 if child is None else float(child.count if self.kind == "histogram" else child.value)

    def render(self) -> list[str]:
        lines = [f"# HELP {self.name} {self.help}", f"# TYPE {self.name} {self.kind}"]
        with self._lock:
            children = sorted(self._children.items())
        for values, child in children:
            if self.kind != "histogram":
                lines.append(f"{self.name}{_labels(self.label_names, values)} {_number(child.value)}")
                continue
            for bound, count in zip(child.buckets, child.counts, strict=True):
                le = f'le="{_number(bound)}"'
                lines.append(f"{self.name}_bucket{_labels(self.label_names, values, le)} {count}")
            lines.append(f"{self.name}_bucket{_labels(self.label_names, values, _LE_INF)} {child.count}")
            lines.append(f"{self.name}_sum{_labels(self.label_names, values)} {_number(child.value)}")
            lines.append(f"{self.name}_count{_labels(self.label_names, values)} {child.count}")
        return lines


class Registry:
    """The families one manager publishes; ``render()`` is the body of ``/metrics``."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._families: dict[str, Family] = {}

    def family(self, name: str, kind: str, help: str, label_names: Sequence[str], buckets: Sequence[float] = ()) -> Family:
        """The family ``name``, made on first request (later requests must agree on its shape)."""
        with self._lock:
            known = self._families.get(name)
            if known is None:
                known = self._families[name] = Family(name, kind, help, label_names, buckets)
            elif (known.kind, known.label_names) != (kind, tuple(label_names)):
                raise ValueError(f"metric {name} is already registered as a {known.kind} with labels {known.label_names}")
            return known

    def get(self, name: str) -> Family | None:
        """The family ``name``, or None if none was made."""
        with self._lock:
            return self._families.get(name)

    def render(self) -> str:
        """Every family in Prometheus' text exposition format, sorted by name."""
        with self._lock:
            families = sorted(self._families.values(), key=lambda f: f.name)
        return "".join(line + "\n" for family in families for line in family.render())


class ControllerMetrics:
    """controller-runtime's reconciler series for one controller name."""

    def __init__(self, registry: Registry, controller: str) -> None:
        def counter(name: str, help: str, *labels: str) -> Family:
            return registry.family(name, "counter", help, ("controller", *labels))

        self.controller = controller
        self.total = counter("controller_runtime_reconcile_total", "Total number of reconciliations per controller", "result")
        self.errors = counter("controller_runtime_reconcile_errors_total", "Total number of reconciliation errors per controller")
        self.terminal_errors = counter(
            "controller_runtime_terminal_reconcile_errors_total", "Total number of terminal reconciliation errors per controller"
        )
        self.panics = counter("controller_runtime_reconcile_panics_total", "Total number of reconciliation panics per controller")
        self.timeouts = counter(
            "controller_runtime_reconcile_timeouts_total", "Total number of reconciliation timeouts per controller"
        )
        self.time = registry.family(
            "controller_runtime_reconcile_time_seconds", "histogram", "Length of time per reconciliation per controller",
            ("controller",), RECONCILE_TIME_BUCKETS,
        )
        self.workers = registry.family(
            "controller_runtime_max_concurrent_reconciles", "gauge", "Maximum number of concurrent reconciles per controller",
            ("controller",),
        )
        self.active = registry.family(
            "controller_runtime_active_workers", "gauge", "Number of currently used workers per controller", ("controller",)
        )

    def init(self, result_labels: Sequence[str], max_concurrent_reconciles: int) -> None:
        """controller-runtime's initMetrics: every series exists, at 0, before the first reconcile."""
        for label in result_labels:
            self.total.labels(self.controller, label).inc(0)
        self.errors.labels(self.controller).inc(0)
        self.terminal_errors.labels(self.controller).inc(0)
        self.panics.labels(self.controller).inc(0)
        self.timeouts.labels(self.controller).inc(0)
        self.workers.labels(self.controller).set(max_concurrent_reconciles)
        self.active.labels(self.controller).set(0)


class WorkqueueMetrics:
    """client-go's workqueue series into a Registry, as controller-runtime's provider
    (pkg/internal/metrics/workqueue.go) labels them: ``name`` and ``controller`` (both the
    queue's name, which is the controller's), and the depth also ``priority`` ("": kgen's
    queues have no priorities, as controller-runtime's non-priority queue reports). Durations
    use controller-runtime's buckets, ``ExponentialBuckets(10e-9, 10, 12)``."""

    def __init__(self, registry: Registry) -> None:
        self._registry = registry

    def _family(self, series: str, kind: str, buckets: Sequence[float] = (), labels: Sequence[str] = ("name", "controller")
                ) -> Family:
        return self._registry.family(series, kind, wq._HELP[series], labels, buckets)

    def new_depth_metric(self, name: str) -> wq.GaugeMetric:
        """The gauge ``workqueue_depth`` of queue ``name``."""
        return self._family(wq.DEPTH, "gauge", labels=("name", "controller", "priority")).labels(name, name, "")

    def new_adds_metric(self, name: str) -> wq.CounterMetric:
        """The counter ``workqueue_adds_total`` of queue ``name``."""
        return self._family(wq.ADDS, "counter").labels(name, name)

    def new_latency_metric(self, name: str) -> wq.HistogramMetric:
        """The histogram ``workqueue_queue_duration_seconds`` of queue ``name``."""
        return self._family(wq.QUEUE_DURATION, "histogram", EXPONENTIAL_BUCKETS).labels(name, name)

    def new_work_duration_metric(self, name: str) -> wq.HistogramMetric:
        """The histogram ``workqueue_work_duration_seconds`` of queue ``name``."""
        return self._family(wq.WORK_DURATION, "histogram", EXPONENTIAL_BUCKETS).labels(name, name)

    def new_unfinished_work_seconds_metric(self, name: str) -> wq.SettableGaugeMetric:
        """The gauge ``workqueue_unfinished_work_seconds`` of queue ``name``."""
        return self._family(wq.UNFINISHED_WORK, "gauge").labels(name, name)

    def new_longest_running_processor_seconds_metric(self, name: str) -> wq.SettableGaugeMetric:
        """The gauge ``workqueue_longest_running_processor_seconds`` of queue ``name``."""
        return self._family(wq.LONGEST_RUNNING_PROCESSOR, "gauge").labels(name, name)

    def new_retries_metric(self, name: str) -> wq.CounterMetric:
        """The counter ``workqueue_retries_total`` of queue ``name``."""
        return self._family(wq.RETRIES, "counter").labels(name, name)


class _Latency:
    def __init__(self, family: Family) -> None:
        self._family = family

    def observe(self, verb: str, url: str, latency: float) -> None:
        # component-base labels these by verb and host, not by the URL template.
        self._family.labels(verb, urlsplit(url).netloc).observe(latency)


class _Results:
    def __init__(self, family: Family) -> None:
        self._family = family

    def increment(self, code: str, method: str, host: str) -> None:
        self._family.labels(code, method, host).inc()

    def increment_retry(self, code: str, method: str, host: str) -> None:
        self._family.labels(code, method, host).inc()


def rest_client_metrics(registry: Registry) -> RESTMetrics:
    """component-base's REST client series (rest_client_*) into ``registry``."""
    def histogram(name: str, help: str) -> Family:
        return registry.family(name, "histogram", help, ("verb", "host"), LATENCY_BUCKETS)

    return RESTMetrics(
        request_latency=_Latency(histogram(
            "rest_client_request_duration_seconds", "Request latency in seconds. Broken down by verb, and host.")),
        rate_limiter_latency=_Latency(histogram(
            "rest_client_rate_limiter_duration_seconds",
            "Client side rate limiter latency in seconds. Broken down by verb, and host.")),
        request_result=_Results(registry.family(
            "rest_client_requests_total", "counter",
            "Number of HTTP requests, partitioned by status code, method, and host.", ("code", "method", "host"))),
        request_retry=_Results(registry.family(
            "rest_client_request_retries_total", "counter",
            "Number of request retries, partitioned by status code, verb, and host.", ("code", "verb", "host"))),
    )


class LeaderElectionMetrics:
    """client-go's LeaderMetric as controller-runtime publishes it: the gauge
    ``leader_election_master_status{name}``, 1 while this replica leads on lease ``name``."""

    def __init__(self, registry: Registry) -> None:
        self.status = registry.family(
            "leader_election_master_status", "gauge",
            "Gauge of if the reporting system is master of the relevant lease, 0 indicates backup, 1 indicates master. "
            "'name' is the string used to identify the lease. Please make sure to group by name.", ("name",))

    def on(self, name: str) -> None:
        """This replica leads on lease ``name``."""
        self.status.labels(name).set(1)

    def off(self, name: str) -> None:
        """This replica does not lead on lease ``name``."""
        self.status.labels(name).set(0)

    def slowpath_exercised(self, name: str) -> None:
        """Not published: controller-runtime counts it (leader_election_slowpath_total) but never
        registers that counter, so its /metrics has no such series."""


class WebhookMetrics:
    """controller-runtime's webhook series (label ``webhook``: the registered path), fed by the
    webhook server's hooks (``kgen.runtime.webhook.metrics.WebhookMetrics``), and its admission
    and conversion panic counters (no labels; both at 0 from the start, as controller-runtime's
    init makes them)."""

    def __init__(self, registry: Registry) -> None:
        self.panics = registry.family("controller_runtime_webhook_panics_total", "counter", "Total number of webhook panics", ())
        self.conversion_panics = registry.family(
            "controller_runtime_conversion_webhook_panics_total", "counter", "Total number of conversion webhook panics", ())
        self.panics.labels().inc(0)
        self.conversion_panics.labels().inc(0)
        self.total = registry.family(
            "controller_runtime_webhook_requests_total", "counter", "Total number of admission requests by HTTP status code.",
            ("webhook", "code"))
        self.latency = registry.family(
            "controller_runtime_webhook_latency_seconds", "histogram", "Histogram of the latency of processing admission requests",
            ("webhook",), EXPONENTIAL_BUCKETS)
        self.in_flight = registry.family(
            "controller_runtime_webhook_requests_in_flight", "gauge", "Current number of admission requests being served.",
            ("webhook",))

    def instrument(self, path: str) -> None:
        """InstrumentedHook: the likeliest codes' counters and the in-flight gauge exist at 0."""
        for code in ("200", "500"):
            self.total.labels(path, code).inc(0)
        self.in_flight.labels(path).set(0)

    def request_started(self, path: str) -> None:
        """One more request to ``path`` in flight."""
        self.in_flight.labels(path).inc()

    def request_finished(self, path: str, code: int, seconds: float) -> None:
        """A request to ``path`` answered ``code`` after ``seconds``."""
        self.in_flight.labels(path).dec()
        self.total.labels(path, str(code)).inc()
        self.latency.labels(path).observe(seconds)

    def webhook_panic(self) -> None:
        """An admission handler raised unexpectedly."""
        self.panics.labels().inc()

    def conversion_panic(self) -> None:
        """A conversion function raised unexpectedly."""
        self.conversion_panics.labels().inc()


class CertWatcherMetrics:
    """controller-runtime's certificate watcher counters (no labels: one watcher per process
    there, one per manager here). Both exist at 0 from the start, as unlabelled Go counters do."""

    def __init__(self, registry: Registry) -> None:
        self.reads = registry.family("certwatcher_read_certificate_total", "counter", "Total number of certificate reads", ())
        self.errors = registry.family(
            "certwatcher_read_certificate_errors_total", "counter", "Total number of certificate read errors", ())
        self.reads.labels().inc(0)
        self.errors.labels().inc(0)

    def read(self) -> None:
        """The certificate files are being read."""
        self.reads.labels().inc()

    def read_error(self) -> None:
        """That read failed."""
        self.errors.labels().inc()
