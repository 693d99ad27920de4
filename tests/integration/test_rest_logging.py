"""The REST client's request log (klog -v=6 style, on stdlib logging) and what it never says.

Each attempt is one DEBUG record on ``kgen.runtime.rest.client``: method, URL, status (or the
error) and latency. No credential reaches any log record at any level — kgen's, httpx's or
httpcore's — or an exception's text, whatever happens to the request.
"""

from __future__ import annotations

import asyncio
import logging
import re

import httpx
import pytest

from kgen.kubernetes.models.core.v1 import ConfigMap, ConfigMapList
from kgen.kubernetes.models.meta.v1 import ObjectMeta
from kgen.runtime.apimachinery.codec import ModelCodec
from kgen.runtime.apimachinery.errors import ApiError, NotFound
from kgen.runtime.gentype import AsyncResourceClient, ResourceClient, ResourceInfo
from kgen.runtime.rest import Config, StaticToken
from kgen.runtime.rest.client import AsyncRESTClient, Request, RESTClient
from kgen.runtime.testing import KubeAPIServer
from tests.support.faultproxy import CUT, RESET, FaultProxy, Scripted

CONFIGMAPS = ResourceInfo("", "v1", "configmaps", True, "ConfigMap")
CODEC = ModelCodec(ConfigMap, ConfigMapList)
LOGGER = "kgen.runtime.rest.client"


def _attempts(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == LOGGER and r.levelno == logging.DEBUG]


def test_each_attempt_is_logged_with_method_url_status_and_latency(
    kube_apiserver: KubeAPIServer, namespace: str, caplog: pytest.LogCaptureFixture
) -> None:
    with FaultProxy(kube_apiserver) as proxy, RESTClient(proxy.config()) as rest:
        cms = ResourceClient(rest, CONFIGMAPS, namespace, CODEC)
        proxy.script.append(Scripted(CUT))
        with caplog.at_level(logging.DEBUG, logger=LOGGER), pytest.raises(NotFound):
            cms.get("absent")
    url = re.escape(f"{proxy.url}/api/v1/namespaces/{namespace}/configmaps/absent")
    attempts = _attempts(caplog)
    assert re.fullmatch(rf"GET {url} failed in \d+ milliseconds: RemoteProtocolError: .+", attempts[0]), attempts
    assert re.fullmatch(rf"GET {url} 404 Not Found in \d+ milliseconds", attempts[-1]), attempts
    assert any(a.startswith("Got a Retry-After response: delay 1.0s, attempt 1") for a in attempts), attempts


def test_query_values_that_may_hold_a_credential_are_masked_in_the_log(
    kube_apiserver: KubeAPIServer, caplog: pytest.LogCaptureFixture
) -> None:
    secret = "s3cr3t-query-value"
    config = Config(host=kube_apiserver.url, ca_data=kube_apiserver.ca_pem,
                    credentials=StaticToken(kube_apiserver.tokens["kgen-token-1"]), qps=-1)
    with RESTClient(config) as rest, caplog.at_level(logging.DEBUG, logger=LOGGER):
        rest.send(Request("GET", "/version", [("access_token", secret), ("limit", "1")]))
    (attempt,) = _attempts(caplog)
    assert "/version?access_token=<masked>&limit=1 200 OK in " in attempt
    assert all(secret not in r.getMessage() for r in caplog.records if r.name.startswith("kgen"))


def _scan(records: list[logging.LogRecord], secret: str) -> None:
    formatter = logging.Formatter("%(name)s %(levelname)s %(message)s")
    for record in records:
        text = formatter.format(record) + repr(record.args) + repr(record.__dict__)
        assert secret not in text, f"{record.name} {record.levelname}: a credential in the log"


def test_a_bearer_token_never_appears_in_any_log_record(
    kube_apiserver: KubeAPIServer, namespace: str, caplog: pytest.LogCaptureFixture
) -> None:
    """Everything at DEBUG on every logger (kgen, httpx, httpcore), sync and async, through
    successes, API errors, retries after cuts, resets and 429s, a watch, and a rejected token."""
    good = kube_apiserver.tokens["kgen-token-1"]
    bad = "kgen-bogus-token-0123456789abcdef"
    errors: list[BaseException] = []
    caplog.set_level(logging.DEBUG)  # the root logger: every library's records
    with FaultProxy(kube_apiserver) as proxy:
        config = proxy.config()
        rejected = Config(host=proxy.url, ca_data=kube_apiserver.ca_pem, credentials=StaticToken(bad), qps=-1)
        with RESTClient(config) as rest:
            cms = ResourceClient(rest, CONFIGMAPS, namespace, CODEC)
            cms.create(ConfigMap(metadata=ObjectMeta(name="logged"), data={"k": "v"}))
            proxy.script.extend([Scripted(CUT), Scripted(RESET), Scripted(429, "0")])
            cms.list()
            for call in (lambda: cms.get("absent"), lambda: list(cms.watch(timeout_seconds=1))):
                try:
                    call()
                except (ApiError, httpx.HTTPError) as e:
                    errors.append(e)
        with RESTClient(rejected) as rest:
            try:
                ResourceClient(rest, CONFIGMAPS, namespace, CODEC).list()
            except ApiError as e:
                errors.append(e)

        async def run() -> None:
            async with AsyncRESTClient(config) as rest:
                cms = AsyncResourceClient(rest, CONFIGMAPS, namespace, CODEC)
                proxy.script.extend([Scripted(CUT), Scripted(429, "0")])
                await cms.list()
                try:
                    await cms.get("absent")
                except ApiError as e:
                    errors.append(e)

        asyncio.run(run())
    assert [type(e).__name__ for e in errors] == ["NotFound", "Unauthorized", "NotFound"]
    names = {r.name.split(".")[0] for r in caplog.records}
    assert {"kgen", "httpx", "httpcore"} <= names, names  # the scan saw every layer's records
    for secret in (good, bad):
        _scan(caplog.records, secret)
        assert all(secret not in str(e) and secret not in repr(e) for e in errors)
