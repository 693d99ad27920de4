"""Connections with bounds: a dead or black-holed connection fails a request in bounded time.

The fault proxy (tests/support/faultproxy.py) in front of the real apiserver plays the dead
connection: it reads a request and never answers (``BLACKHOLE``), stalls a watch's stream, or
accepts a connection and never completes TLS (``ACCEPT_BLACKHOLE``). Every scenario runs on
threads and on asyncio.
"""

from __future__ import annotations

import asyncio
import socket
import time
from collections.abc import Iterator

import httpx
import pytest

from kgen.kubernetes import AsyncClientset, Clientset
from kgen.kubernetes.models.core.v1 import ConfigMap, ConfigMapList
from kgen.kubernetes.models.meta.v1 import ObjectMeta
from kgen.runtime.apimachinery.codec import ModelCodec
from kgen.runtime.gentype import AsyncResourceClient, ResourceClient, ResourceInfo
from kgen.runtime.rest import Config
from kgen.runtime.rest import transport as rest_transport
from kgen.runtime.rest.client import AsyncRESTClient, Request, RESTClient
from kgen.runtime.testing import KubeAPIServer
from tests.support.faultproxy import ACCEPT_BLACKHOLE, BLACKHOLE, Chaos, FaultProxy, Scripted

CONFIGMAPS = ResourceInfo("", "v1", "configmaps", True, "ConfigMap")
CODEC = ModelCodec(ConfigMap, ConfigMapList)
FLAVOURS = ("sync", "async")
BOUND = 2.0
#: Slack for a loaded 2-core machine; a missing bound hangs far longer (until the proxy closes).
SLACK = 15.0


@pytest.fixture
def proxy(kube_apiserver: KubeAPIServer) -> Iterator[FaultProxy]:
    with FaultProxy(kube_apiserver) as p:
        yield p


def _list(config: Config, flavour: str, namespace: str) -> float:
    """Lists configmaps and returns how long the failure took; fails if the list succeeds."""
    started = time.monotonic()
    if flavour == "sync":
        with RESTClient(config) as rest, pytest.raises(httpx.TimeoutException):
            ResourceClient(rest, CONFIGMAPS, namespace, CODEC).list()
        return time.monotonic() - started

    async def run() -> None:
        async with AsyncRESTClient(config) as rest:
            with pytest.raises(httpx.TimeoutException):
                await AsyncResourceClient(rest, CONFIGMAPS, namespace, CODEC).list()

    asyncio.run(run())
    return time.monotonic() - started


@pytest.mark.parametrize("flavour", FLAVOURS)
def test_blackholed_list_fails_within_config_timeout(proxy: FaultProxy, namespace: str, flavour: str) -> None:
    config = proxy.config()
    config.timeout = BOUND
    proxy.script.append(Scripted(BLACKHOLE))
    took = _list(config, flavour, namespace)
    assert BOUND * 0.9 <= took < BOUND + SLACK
    assert proxy.faults == {"scripted blackhole": 1} and len(proxy.requests) == 1  # a read timeout: no retry


@pytest.mark.parametrize("flavour", FLAVOURS)
def test_blackholed_list_fails_within_the_default_bound(
    proxy: FaultProxy, namespace: str, flavour: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without Config.timeout a list still has a bound: DEFAULT_READ_TIMEOUT (75 s, shortened
    here so the test is quick; the same code path reads it)."""
    monkeypatch.setattr(rest_transport, "DEFAULT_READ_TIMEOUT", BOUND)
    config = proxy.config()
    assert config.timeout is None
    proxy.script.append(Scripted(BLACKHOLE))
    took = _list(config, flavour, namespace)
    assert BOUND * 0.9 <= took < BOUND + SLACK


@pytest.mark.parametrize("flavour", FLAVOURS)
def test_a_typed_clients_with_timeout_bounds_its_requests_only(proxy: FaultProxy, namespace: str, flavour: str) -> None:
    """``with_timeout`` on a generated typed client: a black-holed list through it fails within
    its bound while the client has none of its own; the client it came from keeps its bound."""
    config = proxy.config()
    assert config.timeout is None
    proxy.script.append(Scripted(BLACKHOLE, path="/configmaps"))  # the list, not the client's /version before it
    started = time.monotonic()
    if flavour == "sync":
        with Clientset(config) as cs:
            configmaps = cs.core_v1.config_maps(namespace)
            with pytest.raises(httpx.TimeoutException):
                configmaps.with_timeout(BOUND).list()
            took = time.monotonic() - started
            assert configmaps.list().items == []  # the original is unchanged and still works
    else:

        async def run() -> float:
            async with AsyncClientset(config) as cs:
                configmaps = cs.core_v1.config_maps(namespace)
                with pytest.raises(httpx.TimeoutException):
                    await configmaps.with_timeout(BOUND).list()
                took = time.monotonic() - started
                assert (await configmaps.list()).items == []
                return took

        took = asyncio.run(run())
    assert BOUND * 0.9 <= took < BOUND + SLACK
    assert proxy.faults == {"scripted blackhole": 1} and len(proxy.requests) == 3  # /version, the two lists


def test_the_default_read_bound_outlasts_the_apiserver_request_timeout() -> None:
    """The apiserver answers a non-long-running request within --request-timeout (60 s by
    default) or says 504 itself; the client's bound must not cut it short. A timeoutSeconds
    parameter lengthens it as much as it asks."""
    config = Config(host="https://127.0.0.1:1")
    default = rest_transport.request_timeout(config, False, [])
    longer = rest_transport.request_timeout(config, False, [("timeoutSeconds", "300")])
    assert default is not None and default.read is not None and default.read > 60.0
    assert longer is not None and longer.read == default.read + 300
    assert rest_transport.request_timeout(config, True, []) is None  # streams: no default bound
    config.timeout = 5.0
    assert rest_transport.request_timeout(config, False, []) is None  # the client's 5 s applies


@pytest.mark.parametrize("flavour", FLAVOURS)
def test_connection_blackholed_before_tls_fails_within_config_timeout(
    proxy: FaultProxy, namespace: str, flavour: str
) -> None:
    config = proxy.config()
    config.timeout = BOUND
    proxy.accept_script.append(ACCEPT_BLACKHOLE)
    took = _list(config, flavour, namespace)
    assert BOUND * 0.9 <= took < BOUND + SLACK
    assert proxy.faults == {f"accept {ACCEPT_BLACKHOLE}": 1} and proxy.requests == []


@pytest.mark.parametrize("flavour", FLAVOURS)
@pytest.mark.parametrize("where", ["before the answer", "in the stream"])
def test_blackholed_watch_fails_within_its_idle_timeout(
    proxy: FaultProxy, namespace: str, flavour: str, where: str
) -> None:
    """A watch's bound is its idle timeout (gentype's WATCH_IDLE_TIMEOUT by default)."""
    config = proxy.config()
    with RESTClient(config) as rest:
        ResourceClient(rest, CONFIGMAPS, namespace, CODEC).create(ConfigMap(metadata=ObjectMeta(name="event")))
    if where == "before the answer":
        proxy.script.append(Scripted(BLACKHOLE))
    else:
        proxy.set_chaos(Chaos(stall_stream=1.0, stall_seconds=BOUND + SLACK + 5))  # every chunk stalls
    started = time.monotonic()
    if flavour == "sync":
        with RESTClient(config) as rest, pytest.raises(httpx.ReadTimeout):
            with ResourceClient(rest, CONFIGMAPS, namespace, CODEC).open_watch(idle_timeout=BOUND) as stream:
                list(stream)
    else:

        async def run() -> None:
            async with AsyncRESTClient(config) as rest:
                cms = AsyncResourceClient(rest, CONFIGMAPS, namespace, CODEC)
                with pytest.raises(httpx.ReadTimeout):
                    async with await cms.open_watch(idle_timeout=BOUND) as stream:
                        async for _ in stream:
                            pass

        asyncio.run(run())
    took = time.monotonic() - started
    assert BOUND * 0.9 <= took < BOUND + SLACK
    watches = [r for r in proxy.requests if "watch=true" in r]
    assert len(watches) == 1  # an idle timeout is the health check's failure: not retried


def _socket_options(sock: socket.socket) -> tuple[int, int, int, int]:
    return (
        sock.getsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE),
        sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPIDLE),
        sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPINTVL),
        sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPCNT),
    )


@pytest.mark.parametrize("flavour", FLAVOURS)
def test_connections_use_client_go_tcp_keepalive(kube_apiserver: KubeAPIServer, flavour: str) -> None:
    """client-go dials with net.Dialer{KeepAlive: 30s} (transport/cache.go); Go turns that into
    TCP_KEEPIDLE 30 and, left at their defaults, TCP_KEEPINTVL 15 and TCP_KEEPCNT 9
    (net/dial.go defaultTCPKeepAliveInterval, defaultTCPKeepAliveCount)."""
    from tests.support.apiserver import unthrottled_config

    config = unthrottled_config(kube_apiserver)
    req = Request("GET", "/version", stream=True)
    if flavour == "sync":
        with RESTClient(config) as rest, rest.stream(req) as response:
            options = _socket_options(response.extensions["network_stream"].get_extra_info("socket"))
    else:

        async def run() -> tuple[int, int, int, int]:
            async with AsyncRESTClient(config) as rest, rest.stream(req) as response:
                return _socket_options(response.extensions["network_stream"].get_extra_info("socket"))

        options = asyncio.run(run())
    assert options == (1, 30, 15, 9)
