"""Which failed requests the REST client makes again: client-go's rules, compared with client-go.

Each scenario sends the same request through client-go's RESTClient (the Go oracle,
hack/oracle/restclient) and through kgen's, on threads and on asyncio, with the same fault
injected before each run (tests/support/faultproxy.py in front of the real apiserver). They
must agree on every attempt's outcome and every retry as client-go's metrics count them
(``RequestResult``, ``RequestRetry``) and on what reached the proxy. The rules, from
k8s.io/client-go@v0.37.2:

- rest/request.go ``Request.request``::

      isErrRetryableFunc := func(req *http.Request, err error) bool {
          // ... in case of "GET" operations, we simply retry it.
          // We are not automatically retrying "write" operations, as they are not idempotent.
          if req.Method != "GET" { return false }
          if net.IsConnectionReset(err) || net.IsProbableEOF(err) || net.IsHTTP2ConnectionLost(err) {
              return true
          }
          return false
      }

- rest/request.go ``Request.Watch``: ``net.IsProbableEOF(err) || net.IsTimeout(err)``;
- rest/with_retry.go ``IsNextRetry``: a retryable error is retried as ``retryAfterResponse()``
  (500, ``Retry-After: 1``); an answer only when ``checkWait`` says so: 429 or >= 500 with
  ``retryAfterSeconds`` (``strconv.Atoi`` of Retry-After) — for any verb;
- anything else (connection refused, DNS, TLS verification) is returned at once.
"""

from __future__ import annotations

import asyncio
import logging
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import httpx
import pytest

from kgen.kubernetes.models.core.v1 import ConfigMap, ConfigMapList
from kgen.kubernetes.models.meta.v1 import ObjectMeta
from kgen.runtime.apimachinery.codec import ModelCodec
from kgen.runtime.apimachinery.errors import NotFound
from kgen.runtime.gentype import AsyncResourceClient, ResourceClient, ResourceInfo
from kgen.runtime.rest import Config, StaticToken, load_kubeconfig
from kgen.runtime.rest.client import AsyncRESTClient, RESTClient
from kgen.runtime.rest.metrics import RESTMetrics
from kgen.runtime.tools.cache.reflector import AsyncReflector, Reflector
from kgen.runtime.tools.cache.store import Store
from kgen.runtime.testing import KubeAPIServer
from tests.support.faultproxy import (
    ACCEPT_CLOSE, ACCEPT_RESET, CUT, RESET, FaultProxy, Scripted,
)
from tests.support.restclient_oracle import Call, Outcome, go_outcomes, kgen_outcomes

CONFIGMAPS = ResourceInfo("", "v1", "configmaps", True, "ConfigMap")
CODEC = ModelCodec(ConfigMap, ConfigMapList)
LIST = Call("GET", "/api/v1/namespaces/default/configmaps", (("limit", "1"),))
CREATE = Call(
    "POST", "/api/v1/namespaces/default/configmaps", (("dryRun", "All"),),
    '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"oracle"}}',
)
DELETE = Call("DELETE", "/api/v1/namespaces/default/configmaps/absent", (("dryRun", "All"),))
WATCH = Call("GET", "/api/v1/namespaces/default/configmaps", (("watch", "true"), ("timeoutSeconds", "1")), watch=True)


@dataclass
class Scenario:
    call: Call
    attempts: int  # what client-go makes, asserted too so the rule reads here
    script: list[Scripted] = field(default_factory=list)
    accept: list[str] = field(default_factory=list)
    qps: float = -1  # > 0: a limiter that never waits, so each throttle is observed
    throttles: int = 0  # then, how often client-go consults it


SCENARIOS = {
    # a GET whose connection ends: EOF (a cut), ECONNRESET, both also during the TLS handshake
    "get-cut": Scenario(LIST, 2, script=[Scripted(CUT)]),
    "get-reset": Scenario(LIST, 2, script=[Scripted(RESET)]),
    "get-reset-in-tls-handshake": Scenario(LIST, 2, accept=[ACCEPT_RESET]),
    "get-eof-in-tls-handshake": Scenario(LIST, 2, accept=[ACCEPT_CLOSE]),
    # writes are not idempotent: never again after a connection error
    "post-cut": Scenario(CREATE, 1, script=[Scripted(CUT)]),
    "post-reset": Scenario(CREATE, 1, script=[Scripted(RESET)]),
    "post-reset-in-tls-handshake": Scenario(CREATE, 1, accept=[ACCEPT_RESET]),
    "delete-cut": Scenario(DELETE, 1, script=[Scripted(CUT)]),
    # answers: 429/5xx with a whole-seconds Retry-After, for every verb; nothing else
    "get-429-retry-after": Scenario(LIST, 3, script=[Scripted(429, "0"), Scripted(503, "0")]),
    "post-429-retry-after": Scenario(CREATE, 2, script=[Scripted(429, "0")]),
    "get-503-without-retry-after": Scenario(LIST, 1, script=[Scripted(503, None)]),
    "get-429-fractional-retry-after": Scenario(LIST, 1, script=[Scripted(429, "0.5")]),
    "get-500-http-date-retry-after": Scenario(LIST, 1, script=[Scripted(500, "Wed, 21 Oct 2015 07:28:00 GMT")]),
    "get-404-retry-after": Scenario(Call("GET", "/api/v1/namespaces/default/configmaps/x"), 1,
                                    script=[Scripted(404, "0")]),
    # a watch: EOF again, and Retry-After
    "watch-cut": Scenario(WATCH, 2, script=[Scripted(CUT)]),
    "watch-429-retry-after": Scenario(WATCH, 2, script=[Scripted(429, "0")]),
    # each retry passes the rate limiter again (withRetry.Before: tryThrottleWithInfo); a watch's
    # first attempt does not
    "get-cut-throttled": Scenario(LIST, 2, script=[Scripted(CUT)], qps=1000, throttles=2),
    "watch-cut-throttled": Scenario(WATCH, 2, script=[Scripted(CUT)], qps=1000, throttles=1),
}


def _compare(run: Callable[[str], Outcome], proxy: FaultProxy | None, scenario: Scenario | None) -> list[Outcome]:
    """client-go's outcome, then kgen's on both flavours, each after the same fault; each run's
    requests and connections as the proxy saw them must agree too."""
    outcomes, seen = [], []
    for who in ("go", "sync", "async"):
        if proxy is not None and scenario is not None:
            proxy.script.extend(scenario.script)
            proxy.accept_script.extend(scenario.accept)
            before = (len(proxy.requests), proxy.connections)
        outcomes.append(run(who))
        if proxy is not None:
            seen.append((len(proxy.requests) - before[0], proxy.connections - before[1]))
            assert not proxy.script and not proxy.accept_script, f"{who} left faults unused"
    go, *kgen = outcomes
    assert kgen == [go, go], f"client-go: {go}\nkgen sync: {kgen[0]}\nkgen async: {kgen[1]}"
    if seen:
        assert seen[1:] == [seen[0], seen[0]], f"(requests, connections) per run: {seen}"
    return outcomes


@pytest.mark.parametrize("name", list(SCENARIOS))
def test_retry_decisions_match_client_go(kube_apiserver: KubeAPIServer, name: str) -> None:
    scenario = SCENARIOS[name]
    token = kube_apiserver.tokens["kgen-token-1"]
    with FaultProxy(kube_apiserver) as proxy:

        def run(who: str) -> Outcome:
            limits = {"qps": scenario.qps, "burst": 1000}
            if who == "go":
                return go_outcomes(proxy.url, kube_apiserver.ca_pem, token, [scenario.call], **limits)[0]
            return kgen_outcomes(proxy.url, kube_apiserver.ca_pem, token, [scenario.call], flavour=who, **limits)[0]

        go, sync, _ = _compare(run, proxy, scenario)
    assert len(go.results) == scenario.attempts and len(go.retries) == scenario.attempts - 1, go
    assert len(go.rate_limiter) == scenario.throttles, go
    if scenario.attempts > 1 and scenario.script[:1] in ([Scripted(CUT)], [Scripted(RESET)]) or scenario.accept:
        assert sync.seconds >= 1.0 * (scenario.attempts - 1)  # as if the server had said Retry-After: 1


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_connection_refused_fails_at_once_like_client_go(kube_apiserver: KubeAPIServer) -> None:
    """IsConnectionRefused is none of IsConnectionReset/IsProbableEOF/IsHTTP2ConnectionLost: one
    attempt, at once, so the caller's own backoff (the reflector's) applies, not ten seconds of
    the client's."""
    url, token = f"https://127.0.0.1:{_closed_port()}", kube_apiserver.tokens["kgen-token-1"]

    def run(who: str) -> Outcome:
        if who == "go":
            return go_outcomes(url, kube_apiserver.ca_pem, token, [LIST])[0]
        return kgen_outcomes(url, kube_apiserver.ca_pem, token, [LIST], flavour=who)[0]

    go, sync, async_ = _compare(run, None, None)
    assert go.error and go.results == [("<error>", "GET", url.removeprefix("https://"))] and go.retries == []
    assert sync.seconds < 5.0 and async_.seconds < 5.0  # the old rule slept 1 s ten times


class _Tries:
    """The REST client's result and retry series, with the time of each attempt."""

    def __init__(self) -> None:
        self.attempts: list[tuple[float, str, str]] = []  # (monotonic time, code, method)
        self.retries = 0

    def increment(self, code: str, method: str, host: str) -> None:
        self.attempts.append((time.monotonic(), code, method))

    def increment_retry(self, code: str, method: str, host: str) -> None:
        self.retries += 1


@pytest.mark.parametrize("watch_list", [True, False], ids=["watch-list", "list"])
@pytest.mark.parametrize("asynchronous", [False, True], ids=["sync", "async"])
def test_a_reflector_against_a_closed_port_waits_only_its_own_backoff(
    kube_apiserver: KubeAPIServer, asynchronous: bool, watch_list: bool
) -> None:
    """A reflector whose server is down: each try is one request that fails at once (no client
    retries), and the tries are spaced by the reflector's backoff alone, client-go's 0.8 s
    doubling with full jitter (each delay d in [d, 2d)). The old rule spent 10 s in the client
    before the reflector saw its first error. A failed list goes to the watch error handler; a
    refused watch-list is backed off and tried again inside watchList, as client-go's
    isWatchErrorRetriable (IsConnectionRefused) does, and reaches no handler."""
    config = Config(host=f"https://127.0.0.1:{_closed_port()}", ca_data=kube_apiserver.ca_pem,
                    credentials=StaticToken(kube_apiserver.tokens["kgen-token-1"]))
    tries = _Tries()
    metrics = RESTMetrics(request_result=tries, request_retry=tries)
    errors: list[BaseException] = []
    started = time.monotonic()

    def enough() -> bool:
        return len(tries.attempts) >= 3 or time.monotonic() - started > 20

    if asynchronous:
        async def run() -> None:
            async with AsyncRESTClient(config, metrics=metrics) as rest:
                reflector = AsyncReflector(AsyncResourceClient(rest, CONFIGMAPS, "default", CODEC), Store(),
                                           watch_error_handler=errors.append, watch_list=watch_list)
                task = asyncio.create_task(reflector.run())
                while not enough():
                    await asyncio.sleep(0.02)
                reflector.stop()
                await asyncio.wait_for(task, 10)

        asyncio.run(run())
    else:
        with RESTClient(config, metrics=metrics) as rest:
            reflector = Reflector(ResourceClient(rest, CONFIGMAPS, "default", CODEC), Store(),
                                  watch_error_handler=errors.append, watch_list=watch_list)
            thread = threading.Thread(target=reflector.run, daemon=True)
            thread.start()
            while not enough():
                time.sleep(0.02)
            reflector.stop()
            thread.join(10)
            assert not thread.is_alive()
    times = [t - started for t, _, _ in tries.attempts[:3]]
    assert len(times) == 3 and tries.retries == 0, (tries.attempts, tries.retries)
    assert {(code, method) for _, code, method in tries.attempts} == {("<error>", "GET")}
    assert times[0] < 0.5, f"the first try came after {times[0]:.2f} s"
    gaps = [b - a for a, b in zip(times, times[1:])]
    assert 0.8 <= gaps[0] < 1.6 + 0.3 and 1.6 <= gaps[1] < 3.2 + 0.3, gaps  # slack for the request itself
    if watch_list:
        assert errors == []
    else:
        assert len(errors) >= 2 and all(isinstance(e, httpx.ConnectError) for e in errors), errors


def test_tls_verification_failure_is_not_retried_like_client_go(kube_apiserver: KubeAPIServer) -> None:
    """An untrusted server certificate (the CA given is an unrelated leaf certificate)."""
    other = kube_apiserver.issue_serving_cert(["other.invalid"]).cert_pem
    token = kube_apiserver.tokens["kgen-token-1"]
    with FaultProxy(kube_apiserver) as proxy:

        def run(who: str) -> Outcome:
            if who == "go":
                return go_outcomes(proxy.url, other, token, [LIST])[0]
            return kgen_outcomes(proxy.url, other, token, [LIST], flavour=who)[0]

        go, _, _ = _compare(run, proxy, Scenario(LIST, 1))
        assert proxy.connections == 3 and proxy.requests == []  # one handshake each, no request
    assert go.error and len(go.results) == 1 and go.retries == []


def test_unresolvable_host_is_not_retried_like_client_go(kube_apiserver: KubeAPIServer) -> None:
    url, token = "https://kgen-oracle.invalid:6443", kube_apiserver.tokens["kgen-token-1"]

    def run(who: str) -> Outcome:
        if who == "go":
            return go_outcomes(url, kube_apiserver.ca_pem, token, [LIST])[0]
        return kgen_outcomes(url, kube_apiserver.ca_pem, token, [LIST], flavour=who)[0]

    go, _, _ = _compare(run, None, None)
    assert go.error and len(go.results) == 1 and go.retries == []


# --- through the typed clients ------------------------------------------------------------------


def _configmaps(rest: RESTClient, ns: str) -> ResourceClient[ConfigMap, ConfigMapList]:
    return ResourceClient(rest, CONFIGMAPS, ns, CODEC)


def test_get_connection_errors_stop_after_max_retries(kube_apiserver: KubeAPIServer, namespace: str) -> None:
    with FaultProxy(kube_apiserver) as proxy, RESTClient(proxy.config(), max_retries=2) as rest:
        proxy.script.extend([Scripted(CUT)] * 3)
        with pytest.raises(httpx.RemoteProtocolError):
            _configmaps(rest, namespace).list()
        assert proxy.faults == {"scripted cut": 3} and len(proxy.requests) == 3


def test_post_whose_connection_is_cut_is_not_sent_again(kube_apiserver: KubeAPIServer, namespace: str) -> None:
    with FaultProxy(kube_apiserver) as proxy, RESTClient(proxy.config()) as rest:
        cms = _configmaps(rest, namespace)
        proxy.script.append(Scripted(CUT))
        with pytest.raises(httpx.TransportError):
            cms.create(ConfigMap(metadata=ObjectMeta(name="once")))
        assert proxy.requests == [f"POST /api/v1/namespaces/{namespace}/configmaps"]
        with pytest.raises(NotFound):
            cms.get("once")  # the cut request never reached the server, and was not sent again


def test_async_get_reset_is_retried_and_post_reset_is_not(kube_apiserver: KubeAPIServer, namespace: str) -> None:
    async def scenario(proxy: FaultProxy) -> None:
        async with AsyncRESTClient(proxy.config()) as rest:
            cms = AsyncResourceClient(rest, CONFIGMAPS, namespace, CODEC)
            proxy.script.append(Scripted(RESET))
            assert (await cms.list()).kind == "ConfigMapList"
            assert len(proxy.requests) == 2
            proxy.script.append(Scripted(RESET))
            with pytest.raises(httpx.TransportError):
                await cms.create(ConfigMap(metadata=ObjectMeta(name="once")))
            assert len(proxy.requests) == 3

    with FaultProxy(kube_apiserver) as proxy:
        asyncio.run(scenario(proxy))
        assert proxy.faults == {"scripted reset": 2}


def test_server_warnings_are_logged_unquoted(
    kube_apiserver: KubeAPIServer, namespace: str, caplog: pytest.LogCaptureFixture
) -> None:
    config = load_kubeconfig(kube_apiserver.kubeconfig)
    config.qps = -1
    cm = ConfigMap.from_dict({"metadata": {"name": "warned"}, "bogus": 1, "other": {"x": 1}})
    with RESTClient(config) as rest, caplog.at_level(logging.WARNING, logger="kgen.runtime.rest.client"):
        created = _configmaps(rest, namespace).create(cm, field_validation="Warn")
    assert created.metadata and created.metadata.name == "warned"
    warnings = [r.getMessage() for r in caplog.records if r.name == "kgen.runtime.rest.client"]
    assert warnings == ['server warning: unknown field "bogus"', 'server warning: unknown field "other"']


def test_no_warning_is_logged_without_a_warning_header(
    kube_apiserver: KubeAPIServer, namespace: str, caplog: pytest.LogCaptureFixture
) -> None:
    config = load_kubeconfig(kube_apiserver.kubeconfig)
    config.qps = -1
    with RESTClient(config) as rest, caplog.at_level(logging.DEBUG, logger="kgen.runtime.rest.client"):
        _configmaps(rest, namespace).create(ConfigMap(metadata=ObjectMeta(name="quiet")), field_validation="Warn")
    assert [r for r in caplog.records if r.name == "kgen.runtime.rest.client" and r.levelno >= logging.WARNING] == []
