"""Probes (controller-runtime's healthz) and /metrics in Prometheus' text format, served by a
manager over HTTP. The manager here has no controllers and reads nothing, so no apiserver is
needed; tests/integration/test_controller_manager.py asks the same endpoints of a manager that
reconciles against the real one."""

from __future__ import annotations

import asyncio
import threading

import httpx
import pytest

from kgen.runtime.controller import AsyncManager, Manager
from kgen.runtime.controller.metrics import Registry
from kgen.runtime.controller.manager.probes import Probes, ping
from kgen.runtime.controller.manager.server import parse_address
from kgen.runtime.rest import Config


def failing() -> None:
    raise RuntimeError("secret detail")


def test_probe_answers_follow_healthz() -> None:
    probes = Probes()
    assert probes.answer("/readyz") == (200, "ok")  # no checks: ok
    probes.add("healthz", "ping", ping)
    probes.add("healthz", "db", failing)
    status, body = probes.answer("/healthz")
    assert status == 500
    assert body == "[-]db failed: reason withheld\n[+]ping ok\nhealthz check failed\n"
    assert "secret" not in body
    assert probes.answer("/healthz/ping") == (200, "ok")
    assert probes.answer("/healthz/ping", verbose=True) == (200, "[+]ping ok\nhealthz check passed\n")
    assert probes.answer("/healthz/nope")[0] == 404
    with pytest.raises(ValueError, match="already added"):
        probes.add("healthz", "ping", ping)
    with pytest.raises(ValueError, match="no probe endpoint"):
        probes.add("livez", "x", ping)


def test_text_format_counters_gauges_histograms() -> None:
    registry = Registry()
    total = registry.family("t_total", "counter", "Things.", ("controller", "result"))
    total.labels("a", "ok").inc()
    total.labels("a", 'we"ird\n').inc(2)
    hist = registry.family("d_seconds", "histogram", "Durations.", ("controller",), (0.1, 1.0))
    hist.labels("a").observe(0.05)
    hist.labels("a").observe(0.5)
    assert registry.render() == (
        "# HELP d_seconds Durations.\n# TYPE d_seconds histogram\n"
        'd_seconds_bucket{controller="a",le="0.1"} 1\n'
        'd_seconds_bucket{controller="a",le="1"} 2\n'
        'd_seconds_bucket{controller="a",le="+Inf"} 2\n'
        'd_seconds_sum{controller="a"} 0.55\n'
        'd_seconds_count{controller="a"} 2\n'
        "# HELP t_total Things.\n# TYPE t_total counter\n"
        't_total{controller="a",result="ok"} 1\n'
        't_total{controller="a",result="we\\"ird\\n"} 2\n'
    )
    with pytest.raises(ValueError, match="already registered"):
        registry.family("t_total", "gauge", "x", ("controller",))


def test_addresses() -> None:
    assert parse_address("127.0.0.1:8081") == ("127.0.0.1", 8081)
    assert parse_address(":8080") == ("", 8080)
    assert parse_address("0") is None and parse_address(None) is None
    with pytest.raises(ValueError, match="bad bind address 'localhost'"):
        parse_address("localhost")


def test_manager_serves_probes_and_metrics_over_http_and_stops() -> None:
    manager = Manager(
        Config(host="https://127.0.0.1:1"), health_probe_address="127.0.0.1:0", metrics_address="127.0.0.1:0"
    )
    manager.add_healthz_check("ping", ping)
    manager.add_readyz_check("cache", manager.cache_synced)
    thread = threading.Thread(target=manager.start)
    thread.start()
    try:
        assert manager.elected.wait(10)
        probe = f"http://127.0.0.1:{manager.health_probe_port}"
        assert httpx.get(f"{probe}/healthz").text == "ok"
        assert httpx.get(f"{probe}/readyz?verbose").text == "[+]cache ok\nreadyz check passed\n"
        assert httpx.get(f"{probe}/other").status_code == 404
        metrics = httpx.get(f"http://127.0.0.1:{manager.metrics_port}/metrics")
        assert metrics.status_code == 200
        assert metrics.headers["content-type"].startswith("text/plain; version=0.0.4")
        assert "# TYPE rest_client_requests_total counter" in metrics.text
    finally:
        manager.stop()
        thread.join(15)
    assert not thread.is_alive()
    with pytest.raises(RuntimeError, match="starts once"):
        manager.start()


def test_async_manager_serves_probes_and_metrics_and_stops_from_another_thread() -> None:
    manager = AsyncManager(
        Config(host="https://127.0.0.1:1"), health_probe_address="127.0.0.1:0", metrics_address="127.0.0.1:0"
    )
    manager.add_readyz_check("cache", manager.cache_synced)
    answers: dict[str, str] = {}

    def ask() -> None:
        assert manager.elected.wait(10)
        answers["readyz"] = httpx.get(f"http://127.0.0.1:{manager.health_probe_port}/readyz").text
        answers["metrics"] = httpx.get(f"http://127.0.0.1:{manager.metrics_port}/metrics").text
        manager.stop()

    asker = threading.Thread(target=ask)
    asker.start()
    asyncio.run(asyncio.wait_for(manager.start(), 15))
    asker.join(5)
    assert answers["readyz"] == "ok"
    assert "# TYPE rest_client_request_duration_seconds histogram" in answers["metrics"]


@pytest.mark.parametrize("manager_class", [Manager, AsyncManager])
def test_manager_clients_are_unthrottled_unless_the_config_sets_a_qps(manager_class: type[Manager | AsyncManager]) -> None:
    # controller-runtime's config getters (PR #3119): QPS 0, not set, becomes -1, leaving the
    # limits to the apiserver's priority and fairness; a QPS the user set is kept.
    unset = Config(host="https://127.0.0.1:1")
    assert manager_class(unset).rest.limiter is None
    assert unset.qps == 0  # the user's config is not changed
    chosen = Config(host="https://127.0.0.1:1", qps=5.0, burst=10)
    limiter = manager_class(chosen).rest.limiter
    assert limiter is not None and (limiter.qps, limiter.burst) == (5.0, 10)
