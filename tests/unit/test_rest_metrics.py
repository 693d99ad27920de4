"""The REST client's metrics without a server: client-go's URL templates (the rules of
rest/request.go finalURLTemplate, case by case), the optional Prometheus
provider (component-base's series, with a stand-in prometheus_client) and the process-wide
default. The same metrics are compared with client-go's on the real apiserver in
tests/integration/test_rest_metrics.py."""

from __future__ import annotations

import sys
import types
from typing import Any

import pytest

from kgen.runtime.rest import Config
from kgen.runtime.rest import metrics as rest_metrics
from kgen.runtime.rest.client import RESTClient
from kgen.runtime.util.extras import MissingExtraError
from kgen.runtime.rest.metrics import InMemoryRESTMetrics, RESTMetrics, final_url_template, prometheus_rest_metrics

BASE = "https://127.0.0.1:6443"


@pytest.mark.parametrize(
    ("path", "template"),
    [
        ("/api/v1/namespaces/ns/configmaps/c", "/api/v1/namespaces/{namespace}/configmaps/{name}"),
        ("/api/v1/namespaces/ns/configmaps", "/api/v1/namespaces/{namespace}/configmaps"),
        ("/api/v1/namespaces/ns", "/api/v1/namespaces/{name}"),
        ("/api/v1/namespaces/ns/status", "/api/v1/namespaces/{name}/status"),
        ("/api/v1/namespaces/ns/finalize", "/api/v1/namespaces/{name}/finalize"),
        ("/api/v1/namespaces/ns/pods/p/log", "/api/v1/namespaces/{namespace}/pods/{name}/log"),
        ("/api/v1/namespaces/ns/pods/p/status", "/api/v1/namespaces/{namespace}/pods/{name}/status"),
        ("/apis/apps/v1/namespaces/ns/deployments/d/scale", "/apis/apps/v1/namespaces/{namespace}/deployments/{name}/scale"),
        ("/apis/apps/v1/namespaces/ns/deployments", "/apis/apps/v1/namespaces/{namespace}/deployments"),
        ("/apis/rbac.authorization.k8s.io/v1/clusterroles/admin", "/apis/rbac.authorization.k8s.io/v1/clusterroles/{name}"),
        ("/api/v1/nodes", "/api/v1/nodes"),
        ("/api/v1/nodes/n1/proxy", "/api/v1/nodes/{namespace}/proxy"),  # client-go's own reading
        ("/apis/apps/v1", "/apis/apps/v1"),
        ("/api", "/api"),
        ("/version", "/version"),
        ("/openapi/v3", "/{prefix}"),
    ],
)
def test_url_template_is_client_gos_final_url_template(path: str, template: str) -> None:
    assert final_url_template(BASE, path) == BASE + template


def test_url_template_keeps_query_keys_not_values_and_the_base_path_but_no_userinfo() -> None:
    assert final_url_template("https://user:pw@h:1/prefix/", "/api/v1/namespaces/ns/pods", ["watch", "labelSelector"]) == (
        "https://h:1/prefix/api/v1/namespaces/{namespace}/pods?labelSelector={value}&watch={value}"
    )
    assert final_url_template(BASE, "/openapi/v2", ["timeout"]) == BASE + "/{prefix}"  # no query either


class _Child:
    def __init__(self) -> None:
        self.calls: list[tuple[str, float]] = []

    def inc(self) -> None:
        self.calls.append(("inc", 1))

    def observe(self, value: float) -> None:
        self.calls.append(("observe", value))


def _fake_prometheus_client() -> types.ModuleType:
    module = types.ModuleType("prometheus_client")

    class Registry:
        def __init__(self) -> None:
            self.collectors: list[Any] = []

    class Vector:
        kind = ""

        def __init__(self, name: str, documentation: str, labelnames: list[str], *, registry: Registry,
                     buckets: Any = None) -> None:
            self.name, self.labelnames, self.buckets = name, labelnames, buckets
            self.children: dict[tuple[tuple[str, str], ...], _Child] = {}
            registry.collectors.append(self)

        def labels(self, **labels: str) -> _Child:
            assert sorted(labels) == sorted(self.labelnames)
            return self.children.setdefault(tuple(sorted(labels.items())), _Child())

    module.Registry = Registry  # type: ignore[attr-defined]
    module.REGISTRY = Registry()  # type: ignore[attr-defined]
    module.Counter = type("Counter", (Vector,), {"kind": "counter"})  # type: ignore[attr-defined]
    module.Histogram = type("Histogram", (Vector,), {"kind": "histogram"})  # type: ignore[attr-defined]
    return module


def test_prometheus_metrics_publish_component_base_series(monkeypatch: pytest.MonkeyPatch) -> None:
    prometheus = _fake_prometheus_client()
    monkeypatch.setitem(sys.modules, "prometheus_client", prometheus)
    registry = prometheus.Registry()
    metrics = prometheus_rest_metrics(registry)
    assert prometheus_rest_metrics(registry) is not metrics and len(registry.collectors) == 4  # registered once
    series = {c.name: c for c in registry.collectors}
    assert {name: (c.kind, c.labelnames) for name, c in series.items()} == {
        "rest_client_request_duration_seconds": ("histogram", ["verb", "host"]),
        "rest_client_rate_limiter_duration_seconds": ("histogram", ["verb", "host"]),
        "rest_client_requests_total": ("counter", ["code", "method", "host"]),
        "rest_client_request_retries_total": ("counter", ["code", "verb", "host"]),
    }
    assert series["rest_client_request_duration_seconds"].buckets[-1] == 60.0
    metrics.request_latency.observe("GET", "https://h:1/api/v1/namespaces/{namespace}/pods", 0.25)
    metrics.request_result.increment("200", "GET", "h:1")
    metrics.request_retry.increment_retry("<error>", "GET", "h:1")
    # component-base labels latency by host, not by template: bounded cardinality
    assert series["rest_client_request_duration_seconds"].children == {
        (("host", "h:1"), ("verb", "GET")): series["rest_client_request_duration_seconds"].children[
            (("host", "h:1"), ("verb", "GET"))]
    }
    assert series["rest_client_requests_total"].children[(("code", "200"), ("host", "h:1"), ("method", "GET"))].calls == [("inc", 1)]
    assert list(series["rest_client_request_retries_total"].children) == [(("code", "<error>"), ("host", "h:1"), ("verb", "GET"))]


def test_prometheus_metrics_without_prometheus_client_say_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "prometheus_client", None)
    with pytest.raises(MissingExtraError) as caught:
        prometheus_rest_metrics()
    assert str(caught.value) == (
        "prometheus_rest_metrics needs the 'prometheus_client' module, which is not installed: "
        "pip install 'kgen-runtime[metrics]' (or use InMemoryRESTMetrics)"
    )
    assert isinstance(caught.value, ImportError) and caught.value.extra == "metrics"


def test_importing_the_rest_client_does_not_import_prometheus_client() -> None:
    import subprocess

    code = "import sys, kgen.runtime.rest.client, kgen.runtime.rest.metrics; print('prometheus_client' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip() == "False"


def test_registered_metrics_are_those_of_clients_built_afterwards() -> None:
    config = Config(host="https://127.0.0.1:1", qps=-1)
    memory = InMemoryRESTMetrics()
    try:
        rest_metrics.register(memory.metrics())
        with RESTClient(config) as rest:
            assert rest.metrics == memory.metrics()
        own = RESTMetrics()
        with RESTClient(config, metrics=own) as rest:
            assert rest.metrics is own
    finally:
        rest_metrics.register(None)
    with RESTClient(config) as rest:
        assert rest.metrics == RESTMetrics()
