"""Which failed requests the REST client retries (client-go's rules), and server warnings."""

from __future__ import annotations

import asyncio
import logging
import threading
import time

import httpx
import pytest

from kgen.kubernetes.models.core.v1 import ConfigMap, ConfigMapList
from kgen.kubernetes.models.meta.v1 import ObjectMeta
from kgen.runtime.apimachinery.codec import ModelCodec
from kgen.runtime.rest import load_kubeconfig
from kgen.runtime.apimachinery.errors import NotFound
from kgen.runtime.gentype import AsyncResourceClient, ResourceClient, ResourceInfo
from kgen.runtime.rest.client import AsyncRESTClient, RESTClient
from kgen.runtime.testing import KubeAPIServer
from tests.support.faultproxy import CUT, Chaos, FaultProxy, Scripted

CONFIGMAPS = ResourceInfo("", "v1", "configmaps", True, "ConfigMap")
CODEC = ModelCodec(ConfigMap, ConfigMapList)


def _configmaps(rest: RESTClient, ns: str) -> ResourceClient[ConfigMap, ConfigMapList]:
    return ResourceClient(rest, CONFIGMAPS, ns, CODEC)


def test_get_whose_connection_is_cut_is_retried_and_succeeds(kube_apiserver: KubeAPIServer, namespace: str) -> None:
    with FaultProxy(kube_apiserver) as proxy, RESTClient(proxy.config()) as rest:
        cms = _configmaps(rest, namespace)
        cms.create(ConfigMap(metadata=ObjectMeta(name="c"), data={"k": "v"}))
        proxy.script.append(Scripted(CUT))
        started = time.monotonic()
        assert cms.get("c").data == {"k": "v"}
        assert time.monotonic() - started >= 1.0  # client-go waits as for Retry-After: 1
        assert proxy.faults == {"scripted cut": 1}
        assert proxy.requests[-2:] == [f"GET /api/v1/namespaces/{namespace}/configmaps/c"] * 2


def test_get_cut_by_chaos_is_retried_until_the_proxy_lets_it_through(
    kube_apiserver: KubeAPIServer, namespace: str
) -> None:
    with FaultProxy(kube_apiserver) as proxy, RESTClient(proxy.config()) as rest:
        cms = _configmaps(rest, namespace)
        proxy.set_chaos(Chaos(cut=1.0))
        heal = threading.Timer(0.5, proxy.set_chaos, [None])
        heal.start()
        assert cms.list().kind == "ConfigMapList"
        heal.join()
        assert proxy.faults["cut connection"] >= 1


def test_get_connection_errors_stop_after_max_retries(kube_apiserver: KubeAPIServer, namespace: str) -> None:
    with FaultProxy(kube_apiserver) as proxy, RESTClient(proxy.config(), max_retries=2) as rest:
        proxy.script.extend([Scripted(CUT)] * 3)
        with pytest.raises(httpx.RemoteProtocolError):
            _configmaps(rest, namespace).list()
        assert proxy.faults == {"scripted cut": 3} and len(proxy.requests) == 3


def test_post_whose_connection_is_cut_is_not_retried(kube_apiserver: KubeAPIServer, namespace: str) -> None:
    with FaultProxy(kube_apiserver) as proxy, RESTClient(proxy.config()) as rest:
        cms = _configmaps(rest, namespace)
        proxy.script.append(Scripted(CUT))
        with pytest.raises(httpx.TransportError):
            cms.create(ConfigMap(metadata=ObjectMeta(name="once")))
        assert proxy.requests == [f"POST /api/v1/namespaces/{namespace}/configmaps"]
        with pytest.raises(NotFound):
            cms.get("once")  # the cut request never reached the server, and was not sent again


def test_async_get_cut_is_retried_and_post_cut_is_not(kube_apiserver: KubeAPIServer, namespace: str) -> None:
    async def scenario(proxy: FaultProxy) -> None:
        async with AsyncRESTClient(proxy.config()) as rest:
            cms = AsyncResourceClient(rest, CONFIGMAPS, namespace, CODEC)
            proxy.script.append(Scripted(CUT))
            assert (await cms.list()).kind == "ConfigMapList"
            assert len(proxy.requests) == 2
            proxy.script.append(Scripted(CUT))
            with pytest.raises(httpx.TransportError):
                await cms.create(ConfigMap(metadata=ObjectMeta(name="once")))
            assert len(proxy.requests) == 3

    with FaultProxy(kube_apiserver) as proxy:
        asyncio.run(scenario(proxy))
        assert proxy.faults == {"scripted cut": 2}


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
