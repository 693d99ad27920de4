"""The REST client's metrics (client-go's tools/metrics) compared with client-go's own, and the
first watch attempt passing the rate limiter untouched, as in client-go.

client-go's RESTClient runs as the Go oracle (hack/oracle/restclient) with its metrics
registered (``metrics.Register``); kgen's reports into ``InMemoryRESTMetrics``. Both send the
same requests to the real apiserver and must report the same observations in the same order:
``RequestLatency`` and ``RateLimiterLatency`` by verb and URL template
(``Request.finalURLTemplate``), ``RequestResult`` by code, method and host.
"""

from __future__ import annotations

import pytest

from kgen.runtime.testing import KubeAPIServer
from tests.support.restclient_oracle import Call, go_outcomes, kgen_outcomes

NS = "default"
CALLS = [
    Call("GET", f"/api/v1/namespaces/{NS}"),
    Call("GET", f"/api/v1/namespaces/{NS}/status"),
    Call("GET", f"/api/v1/namespaces/{NS}/configmaps", (("limit", "1"), ("labelSelector", "a=b"))),
    Call("GET", f"/api/v1/namespaces/{NS}/configmaps/missing"),
    Call("GET", "/apis/apps/v1/namespaces/default/deployments/missing/status"),
    Call("GET", "/apis/apps/v1/namespaces/default/deployments/missing/scale"),
    Call("GET", "/api/v1/nodes/missing/proxy"),  # client-go's rule reads "missing" as a namespace
    Call("GET", "/api/v1/nodes"),
    Call("GET", "/apis/apps/v1"),
    Call("GET", "/api"),
    Call("GET", "/version"),
    Call("GET", "/openapi/v3"),
    Call("POST", f"/api/v1/namespaces/{NS}/configmaps", (("dryRun", "All"),),
         '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"templated"}}'),
    Call("DELETE", f"/api/v1/namespaces/{NS}/configmaps/missing"),
    Call("GET", f"/api/v1/namespaces/{NS}/configmaps", (("watch", "true"), ("timeoutSeconds", "1")), watch=True),
]


@pytest.mark.parametrize("flavour", ["sync", "async"])
def test_metrics_match_client_go(kube_apiserver: KubeAPIServer, flavour: str) -> None:
    token = kube_apiserver.tokens["kgen-token-1"]
    # A limiter that never makes anyone wait, so that every throttle is observed, at once.
    go = go_outcomes(kube_apiserver.url, kube_apiserver.ca_pem, token, CALLS, qps=1000, burst=1000)
    kgen = kgen_outcomes(kube_apiserver.url, kube_apiserver.ca_pem, token, CALLS, flavour=flavour, qps=1000, burst=1000)
    for call, theirs, ours in zip(CALLS, go, kgen):
        assert ours == theirs, f"{call.verb} {call.path}:\n client-go {theirs}\n kgen      {ours}"
    host = kube_apiserver.url.removeprefix("https://")
    # The acceptance example, spelled out: a template, never the object's name or namespace.
    got = kgen[3]
    assert got.latency == [("GET", f"https://{host}/api/v1/namespaces/{{namespace}}/configmaps/{{name}}")]
    assert got.results == [("404", "GET", host)]
    listed = kgen[2]
    assert listed.latency == [
        ("GET", f"https://{host}/api/v1/namespaces/{{namespace}}/configmaps?labelSelector={{value}}&limit={{value}}")
    ]
    assert listed.rate_limiter == listed.latency and listed.results == [("200", "GET", host)]
    watched = kgen[-1]
    assert watched.latency == [] and watched.results == [("200", "GET", host)]  # a watch is not timed


@pytest.mark.parametrize("flavour", ["sync", "async"])
def test_first_watch_attempt_is_not_throttled_like_client_go(kube_apiserver: KubeAPIServer, flavour: str) -> None:
    """rest/request.go ``Request.Watch``: "We specifically don't want to rate limit watches, so
    we don't use r.rateLimiter here" — only a retry (withRetry.Before) waits for the limiter.
    A list takes the only token of a bucket refilling every 20 s; the watch after it opens at
    once, and neither client consults the limiter for it."""
    token = kube_apiserver.tokens["kgen-token-1"]
    calls = [
        Call("GET", f"/api/v1/namespaces/{NS}/configmaps", (("limit", "1"),)),
        Call("GET", f"/api/v1/namespaces/{NS}/configmaps", (("watch", "true"), ("timeoutSeconds", "1")), watch=True),
    ]
    go = go_outcomes(kube_apiserver.url, kube_apiserver.ca_pem, token, calls, qps=0.05, burst=1)
    kgen = kgen_outcomes(kube_apiserver.url, kube_apiserver.ca_pem, token, calls, flavour=flavour, qps=0.05, burst=1)
    assert kgen == go
    listed, watched = kgen
    assert len(listed.rate_limiter) == 1 and watched.rate_limiter == [] and not watched.error
    assert watched.seconds < 10.0 and go[1].seconds < 10.0  # throttled, it would wait 20 s
