"""When the metrics controller-runtime's manager publishes move (issue 36), without a cluster;
tests/integration/test_controller_metrics_vs_controller_runtime.py compares their names, labels
and a workload's values with a controller-runtime manager's.

- leader election (client-go's LeaderMetric calls, leader_election_master_status): off when a
  candidate is built, on once it acquires, a slow-path renewal reported, off when its renewals
  end, whether lost or stopped by the driver;
- the webhook server (controller_runtime_webhook_*): a registered path's 200 and 500 counters
  and in-flight gauge exist at 0; each request to it, whatever its answer (405 included), counts
  by status code with its latency, and leaves nothing in flight; an unknown path counts nowhere;
- panics: an admission handler's or a conversion function's unexpected exception counts, a
  refusal (``Denied``, ``ConversionError``) does not;
- the certificate watcher (certwatcher_*): every read counts, unchanged files too; a broken pair
  also counts as an error.
"""

from __future__ import annotations

import http.client
import json
from pathlib import Path

from kgen.kubernetes.models.core.v1 import ConfigMap
from kgen.runtime.controller.metrics import CertWatcherMetrics, LeaderElectionMetrics, Registry, WebhookMetrics
from kgen.runtime.webhook import CertWatcher, Reply, WebhookServer
from kgen.runtime.webhook.admission import Denied, with_validator
from kgen.runtime.webhook.conversion import ConversionError, ConversionWebhook
from tests.support.webhook.certs import CertificateAuthority, client_context, write_pair
from tests.unit.test_leaderelection import NAME, Clock, FakeLease, candidate, drive, hanging
from tests.unit.test_webhook_admission import config_map, review_body
from tests.unit.test_webhook_conversion import WidgetV1, WidgetV2, response_of, review, widget


def test_leader_gauge_follows_client_go_calls() -> None:
    registry = Registry()
    clock, lease = Clock(), FakeLease()
    metrics = LeaderElectionMetrics(registry)
    gauge = metrics.status
    a = candidate("a", clock, metrics=metrics)
    assert "leader_election_master_status{name=\"lock\"} 0" in registry.render()
    drive(a.acquire_steps(), clock, lambda s: lease.handle(s.request))
    assert gauge.value(NAME) == 1
    lease.touch()  # the optimistic PUT fails: the slow path (not published, as in controller-runtime)
    assert drive(a._renew_within(clock.now + 10.0), clock, lambda s: lease.handle(s.request)) is True
    assert registry.get("leader_election_slowpath_total") is None
    drive(a.renew_steps(), clock, hanging(clock))  # renewals time out: leadership lost
    assert gauge.value(NAME) == 0

    b_clock, other = Clock(), FakeLease()
    b = candidate("b", b_clock, metrics=metrics)
    drive(b.acquire_steps(), b_clock, lambda s: other.handle(s.request))
    assert gauge.value(NAME) == 1
    renewing = b.renew_steps()
    next(renewing)  # the first renewal is on its way...
    renewing.close()  # ...when the driver stops
    assert gauge.value(NAME) == 0


def test_webhook_requests_count_by_path_and_code(tmp_path: Path) -> None:
    ca = CertificateAuthority("metrics-test-ca")
    cert, key = write_pair(ca.serving(["127.0.0.1"]), tmp_path)
    registry = Registry()
    server = WebhookServer(cert, key, host="127.0.0.1", port=0, metrics=WebhookMetrics(registry))
    server.register("/ok", _Answer(200))
    server.register("/teapot", _Answer(418))
    text = registry.render()
    for path in ("/ok", "/teapot"):
        for code in ("200", "500"):
            assert f'controller_runtime_webhook_requests_total{{webhook="{path}",code="{code}"}} 0' in text
        assert f'controller_runtime_webhook_requests_in_flight{{webhook="{path}"}} 0' in text
    total = registry.get("controller_runtime_webhook_requests_total")
    latency = registry.get("controller_runtime_webhook_latency_seconds")
    in_flight = registry.get("controller_runtime_webhook_requests_in_flight")
    assert total is not None and latency is not None and in_flight is not None
    with server:
        conn = http.client.HTTPSConnection("127.0.0.1", server.port, context=client_context(ca), timeout=10)
        for method, path, status in [("POST", "/ok", 200), ("POST", "/ok", 200), ("POST", "/teapot", 418),
                                     ("GET", "/ok", 405), ("POST", "/nowhere", 404)]:
            conn.request(method, path, body=b"{}" if method == "POST" else None, headers={"Content-Type": "application/json"})
            response = conn.getresponse()
            response.read()
            assert response.status == status
        conn.close()
    assert total.value("/ok", "200") == 2 and total.value("/ok", "405") == 1 and total.value("/teapot", "418") == 1
    assert total.value("/ok", "500") == 0 and total.value("/nowhere", "404") == 0
    assert latency.value("/ok") == 3 and latency.value("/teapot") == 1
    assert in_flight.value("/ok") == 0 and in_flight.value("/teapot") == 0


class _Answer:
    def __init__(self, status: int) -> None:
        self.status = status

    def serve(self, body: bytes, content_type: str) -> Reply:
        return Reply(self.status, b"{}")


class _Judge:
    def __init__(self, error: Exception) -> None:
        self.error = error

    def validate_create(self, obj: ConfigMap) -> None:
        raise self.error

    def validate_update(self, old: ConfigMap, new: ConfigMap) -> None:
        raise self.error

    def validate_delete(self, obj: ConfigMap) -> None:
        raise self.error


def test_unexpected_exceptions_count_as_panics_refusals_do_not(tmp_path: Path) -> None:
    registry = Registry()
    metrics = WebhookMetrics(registry)
    assert "controller_runtime_webhook_panics_total 0" in registry.render()
    assert "controller_runtime_conversion_webhook_panics_total 0" in registry.render()
    refusing, exploding = with_validator(ConfigMap, _Judge(Denied("no"))), with_validator(ConfigMap, _Judge(KeyError("k")))
    for hook in (refusing, exploding):
        hook.report_panics_to(metrics)
    refusing.serve(review_body("CREATE", config_map()), "application/json")
    assert metrics.panics.value() == 0
    answer = json.loads(exploding.serve(review_body("CREATE", config_map()), "application/json").body)
    assert answer["response"]["status"]["code"] == 500 and metrics.panics.value() == 1

    def refuse(src: WidgetV1) -> WidgetV2:
        raise ConversionError("no")

    def explode(src: WidgetV1) -> WidgetV2:
        raise RuntimeError("boom")

    for function, panics in ((refuse, 0), (explode, 1)):
        conversion = ConversionWebhook()
        conversion.register(WidgetV1, WidgetV2, function)
        conversion.report_panics_to(metrics)
        assert response_of(review("v2", widget("v1", "a", {"size": 1})), conversion)["result"]["status"] == "Failure"
        assert metrics.conversion_panics.value() == panics


def test_every_certificate_read_counts_and_a_broken_pair_is_an_error(tmp_path: Path) -> None:
    ca = CertificateAuthority("metrics-test-ca")
    cert, key = write_pair(ca.serving(["127.0.0.1"]), tmp_path)
    registry = Registry()
    metrics = CertWatcherMetrics(registry)
    assert "certwatcher_read_certificate_total 0" in registry.render()
    watcher = CertWatcher(cert, key, metrics=metrics)
    assert (metrics.reads.value(), metrics.errors.value()) == (1, 0)
    assert watcher.read_certificates() is False  # unchanged: still a read
    assert (metrics.reads.value(), metrics.errors.value()) == (2, 0)
    key.write_bytes(b"not a key")
    assert watcher.read_certificates() is False
    assert (metrics.reads.value(), metrics.errors.value()) == (3, 1)
