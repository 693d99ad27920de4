"""client-go's tools/metrics for the REST client, and the providers that publish them.

The REST client reports what client-go's reports (rest/request.go, rest/with_retry.go):

- ``request_latency``: the whole call of a request whose answer is read (not watches, not
  streams), throttling and retries included, by verb and *URL template*;
- ``rate_limiter_latency``: each wait for the client-side rate limiter, by verb and URL template;
- ``request_result``: every attempt's outcome, by status code (``<error>`` when no answer came),
  method and host;
- ``request_retry``: every retry, by the retry's own outcome code, verb and host.

A URL template is client-go's ``finalURLTemplate``: names and namespaces become ``{name}`` and
``{namespace}`` and query values ``{value}``, so a series never carries one label value per
object (``https://host/api/v1/namespaces/{namespace}/configmaps/{name}``).

As with the workqueue's metrics (``kgen.runtime.util.workqueue.metrics``), the backend is
pluggable and publishes nothing by default: ``register`` sets the metrics of clients built
afterwards (client-go's ``metrics.Register``), or pass ``metrics=`` to one client.
``InMemoryRESTMetrics`` keeps every observation, for tests and for looking at a running
controller; ``PrometheusRESTMetrics`` publishes component-base's series through the optional
prometheus_client, which is imported only when it is built.
"""

from __future__ import annotations

import importlib
import threading
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol
from urllib.parse import urlsplit

from kgen.runtime.util.extras import missing_extra

REQUEST_DURATION = "rest_client_request_duration_seconds"
"""The series name of the histogram of request latency. The series are component-base's
(metrics/prometheus/restclient)."""
RATE_LIMITER_DURATION = "rest_client_rate_limiter_duration_seconds"
"""The series name of the histogram of client-side rate limiter waits."""
REQUESTS_TOTAL = "rest_client_requests_total"
"""The series name of the counter of answers by code, method and host."""
REQUEST_RETRIES_TOTAL = "rest_client_request_retries_total"
"""The series name of the counter of retries by code, method and host."""
LATENCY_BUCKETS = (0.005, 0.025, 0.1, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 15.0, 30.0, 60.0)
"""The histogram buckets (seconds) of both duration series."""
ERROR_CODE = "<error>"
"""client-go's code label of an attempt that got no answer (rest/request.go sanitize)."""


class LatencyMetric(Protocol):
    """A histogram of request (or rate limiter) latency by verb and URL template."""

    def observe(self, verb: str, url: str, latency: float) -> None:
        """Record one latency in seconds."""


class ResultMetric(Protocol):
    """A counter of answers by code, method and host."""

    def increment(self, code: str, method: str, host: str) -> None:
        """Count one answer."""


class RetryMetric(Protocol):
    """A counter of retries by code, method and host."""

    def increment_retry(self, code: str, method: str, host: str) -> None:
        """Count one retry."""


class _Noop:
    def observe(self, verb: str, url: str, latency: float) -> None:
        pass

    def increment(self, code: str, method: str, host: str) -> None:
        pass

    def increment_retry(self, code: str, method: str, host: str) -> None:
        pass


_NOOP = _Noop()


@dataclass(frozen=True)
class RESTMetrics:
    """client-go's ``metrics.RegisterOpts``, the series the REST client reports."""

    request_latency: LatencyMetric = _NOOP
    rate_limiter_latency: LatencyMetric = _NOOP
    request_result: ResultMetric = _NOOP
    request_retry: RetryMetric = _NOOP


# --- URL templates -------------------------------------------------------------------------------


def final_url_template(base: str, path: str, param_keys: Sequence[str] = ()) -> str:
    """client-go's ``Request.finalURLTemplate`` for ``path`` (below the base URL ``base``,
    which may carry a path prefix) and the query parameters named ``param_keys``.

    Its rules, kept as they are: after ``/api/<version>`` or ``/apis/<group>/<version>``, one
    more segment than the resource is a name; two more are a namespace and a resource, unless the
    last is ``status`` or ``finalize`` (then a name and a subresource); three or more are a
    namespace, a resource and a name (unless that is ``status``/``finalize``). A path that is
    neither ``/api`` nor ``/apis`` (and longer than one segment) is ``/{prefix}``, without query.
    """
    parts = urlsplit(base)
    origin = f"{parts.scheme}://{parts.netloc.rsplit('@', 1)[-1]}"
    prefix = parts.path.rstrip("/")
    query = "&".join(f"{key}={{value}}" for key in sorted(set(param_keys)))
    segments = path.split("/")  # a leading "" for the leading slash
    if len(segments) <= 2:
        return f"{origin}{prefix}{path}" + (f"?{query}" if query else "")
    if segments[1] == "api":
        index = 3
    elif segments[1] == "apis":
        index = 4
    else:
        return f"{origin}/{{prefix}}"
    rest = len(segments) - index
    if rest == 2:
        segments[index + 1] = "{name}"
    elif rest == 3:
        segments[index + 1] = "{name}" if segments[index + 2] in ("finalize", "status") else "{namespace}"
    elif rest >= 4:
        segments[index + 1] = "{namespace}"
        if segments[index + 3] not in ("finalize", "status"):
            segments[index + 3] = "{name}"
    return f"{origin}{prefix}{'/'.join(segments)}" + (f"?{query}" if query else "")


# --- in memory ------------------------------------------------------------------------------------


class _InMemoryLatency:
    def __init__(self) -> None:
        self.observations: list[tuple[str, str, float]] = []
        self._lock = threading.Lock()

    def observe(self, verb: str, url: str, latency: float) -> None:
        with self._lock:
            self.observations.append((verb, url, latency))


class _InMemoryCounter:
    def __init__(self) -> None:
        self.events: list[tuple[str, str, str]] = []  # (code, method, host), in order
        self._lock = threading.Lock()

    def increment(self, code: str, method: str, host: str) -> None:
        with self._lock:
            self.events.append((code, method, host))

    increment_retry = increment

    @property
    def counts(self) -> Counter[tuple[str, str, str]]:
        with self._lock:
            return Counter(self.events)


@dataclass
class InMemoryRESTMetrics:
    """Every observation and count, named after the series: latencies as (verb, url template,
    seconds), increments as (code, method, host), in the order they came."""

    request_latency: _InMemoryLatency = field(default_factory=_InMemoryLatency)
    rate_limiter_latency: _InMemoryLatency = field(default_factory=_InMemoryLatency)
    request_result: _InMemoryCounter = field(default_factory=_InMemoryCounter)
    request_retry: _InMemoryCounter = field(default_factory=_InMemoryCounter)

    def metrics(self) -> RESTMetrics:
        """These recorders as the ``RESTMetrics`` a REST client takes."""
        return RESTMetrics(self.request_latency, self.rate_limiter_latency, self.request_result, self.request_retry)


# --- Prometheus (optional dependency) --------------------------------------------------------------

_prometheus_lock = threading.Lock()
# registry id -> (registry, vectors): registered once per registry, like component-base does.
_prometheus_vectors: dict[int, tuple[Any, dict[str, Any]]] = {}


class _LabelledLatency:
    """component-base's latencyAdapter: the series are by verb and host (the template's host),
    to bound their cardinality; custom metrics get the whole template."""

    def __init__(self, vector: Any) -> None:
        self._vector = vector

    def observe(self, verb: str, url: str, latency: float) -> None:
        self._vector.labels(verb=verb, host=urlsplit(url).netloc).observe(latency)


class _LabelledCounter:
    def __init__(self, vector: Any, method_label: str) -> None:
        self._vector = vector
        self._method_label = method_label

    def increment(self, code: str, method: str, host: str) -> None:
        self._vector.labels(**{"code": code, self._method_label: method, "host": host}).inc()

    increment_retry = increment


def prometheus_rest_metrics(registry: Any = None) -> RESTMetrics:
    """component-base's REST client series through prometheus_client, into ``registry`` (its
    default REGISTRY when None); several calls on one registry share the series."""
    try:
        prometheus = importlib.import_module("prometheus_client")
    except ModuleNotFoundError:
        raise missing_extra(
            "prometheus_client", extra="metrics", needed_by="prometheus_rest_metrics", alternative="or use InMemoryRESTMetrics"
        ) from None
    registry = prometheus.REGISTRY if registry is None else registry
    with _prometheus_lock:
        known = _prometheus_vectors.get(id(registry))
        if known is None:
            known = (registry, _register_vectors(prometheus, registry))
            _prometheus_vectors[id(registry)] = known
    vectors = known[1]
    return RESTMetrics(
        request_latency=_LabelledLatency(vectors[REQUEST_DURATION]),
        rate_limiter_latency=_LabelledLatency(vectors[RATE_LIMITER_DURATION]),
        request_result=_LabelledCounter(vectors[REQUESTS_TOTAL], "method"),
        request_retry=_LabelledCounter(vectors[REQUEST_RETRIES_TOTAL], "verb"),
    )


def _register_vectors(prometheus: Any, registry: Any) -> dict[str, Any]:
    def histogram(name: str, help: str) -> Any:
        return prometheus.Histogram(name, help, ["verb", "host"], registry=registry, buckets=LATENCY_BUCKETS)

    return {
        REQUEST_DURATION: histogram(REQUEST_DURATION, "Request latency in seconds. Broken down by verb, and host."),
        RATE_LIMITER_DURATION: histogram(
            RATE_LIMITER_DURATION, "Client side rate limiter latency in seconds. Broken down by verb, and host."
        ),
        REQUESTS_TOTAL: prometheus.Counter(
            REQUESTS_TOTAL,
            "Number of HTTP requests, partitioned by status code, method, and host.",
            ["code", "method", "host"],
            registry=registry,
        ),
        REQUEST_RETRIES_TOTAL: prometheus.Counter(
            REQUEST_RETRIES_TOTAL,
            "Number of request retries, partitioned by status code, verb, and host.",
            ["code", "verb", "host"],
            registry=registry,
        ),
    }


# --- the process-wide default -----------------------------------------------------------------------

_registered = RESTMetrics()


def register(metrics: RESTMetrics | None) -> None:
    """Sets the metrics of REST clients built afterwards without ``metrics=`` (client-go's
    ``metrics.Register``); None goes back to reporting nothing."""
    global _registered
    _registered = RESTMetrics() if metrics is None else metrics


def registered() -> RESTMetrics:
    """The metrics of REST clients built without ``metrics=`` (see ``register``)."""
    return _registered
