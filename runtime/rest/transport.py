"""client-go's transport defaults (transport/cache.go, apimachinery util/net) for httpx, and the
bounds that keep a request from waiting forever on a dead connection.

client-go dials with a 30 s timeout and 30 s TCP keepalive (Go then probes every 15 s, 9
times), waits 10 s at most for the TLS handshake, keeps 25 idle connections per host for 90 s,
and speaks HTTP/2 with a health check: a connection silent for 30 s is pinged and dropped when
no answer comes within 15 s. kgen keeps the dial timeout, the TLS handshake's own 10 s bound
(httpx would bound the handshake by the dial timeout: an endpoint that accepts connections but
never answers the handshake then held each attempt 30 s, and a watch's retries took 340 s to
fail where client-go's take 120 s), the keepalive, the idle pool and no cap on open connections
(httpx's default of 100 would make the 101st watch wait), but speaks HTTP/1.1, one connection
per watch. The sync
client's connections are ``kgen.runtime.rest.http11``'s (http.client under httpx's API: a
third less CPU a request than httpcore); the async client's and any proxied ones are httpx's.

Why not HTTP/2 (httpx with h2)? Measured with bench/http2_watches.py: 50 watches on one
namespace, 40 creates 20 ms apart, 3 rounds, the real apiserver, a 2-core machine. On
threads, HTTP/2 delivered events 4-7x later (p50 58-71 ms against 10-15 ms for HTTP/1.1, p99
248-331 ms against 19-57 ms), and in one round of three the apiserver ended the shared
connection with a GOAWAY (PROTOCOL_ERROR) and all 50 watches failed at once. On asyncio it
delivered about as fast at the median (15.7 ms against 11.9-14.2 ms) with a longer tail (p99
40-94 ms against 24-42 ms) for ~7% less CPU (its third round ran under outside load: p50
858 ms against 225 ms). It saves 49 sockets. httpcore has no HTTP/2
health check to offer (no idle PING), which is what client-go adopts HTTP/2 for, and stopping
a watch from another thread shuts its socket down (gentype/watch.py), which over a shared
connection would end every watch on it. The health check's job is done instead by timeouts:

- a request whose answer is read whole waits at most ``DEFAULT_READ_TIMEOUT`` (75 s) for each
  read: the apiserver answers every such request within its ``--request-timeout`` (60 s by
  default, a 504 then), so silence beyond it (plus the 15 s client-go gives a ping) means a dead
  connection. A ``timeoutSeconds`` query parameter lengthens the bound by as much;
- a watch reads with its idle timeout (``gentype.resource.WATCH_IDLE_TIMEOUT``): bookmarks
  and events arrive at least that often on a live one;
- other streams (pods/log with follow) have no read bound unless configured: a quiet log
  is not a dead connection. TCP keepalive still finds a peer that vanished (about 165 s).

``Config.timeout`` (seconds, client-go's Config.Timeout) bounds every wait (the dial too) of
every request that sets no bound of its own (watches set their idle timeout);
``Request.timeout`` does so for one request.
"""

from __future__ import annotations

import socket
import ssl
import typing
from typing import Any

import httpcore
import httpx

from kgen.runtime.rest.config import Config

CONNECT_TIMEOUT = 30.0
"""client-go's dial timeout (transport/cache.go): the TCP connection's."""
TLS_HANDSHAKE_TIMEOUT = 10.0
"""client-go's TLSHandshakeTimeout (transport/cache.go, utilnet.SetTransportDefaults): the TLS
handshake's own bound, after the dial (and never longer than the request's connect bound)."""
TCP_KEEPALIVE_IDLE = 30
"""client-go's dialer KeepAlive: idle seconds before the first probe; Go then probes every 15 s
and gives up after 9 unanswered probes (net.Dialer's defaults)."""
TCP_KEEPALIVE_INTERVAL = 15
"""Seconds between keepalive probes once they started (Go's default)."""
TCP_KEEPALIVE_COUNT = 9
"""Unanswered keepalive probes before the connection is dropped (Go's default)."""
DEFAULT_READ_TIMEOUT = 75.0
"""The longest silence of a request whose answer is read whole (see the module docstring)."""
MAX_IDLE_CONNECTIONS = 25
"""Idle connections kept in the pool (client-go's MaxIdleConnsPerHost)."""
IDLE_CONNECTION_TIMEOUT = 90.0
"""Seconds an idle pooled connection is kept (Go's IdleConnTimeout)."""


def socket_options() -> list[tuple[int, int, int]]:
    """TCP keepalive as Go's dialer sets it; only the options this platform has."""
    options = [(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)]
    for name, value in (
        ("TCP_KEEPIDLE", TCP_KEEPALIVE_IDLE),
        ("TCP_KEEPALIVE", TCP_KEEPALIVE_IDLE),  # macOS's name for the idle time
        ("TCP_KEEPINTVL", TCP_KEEPALIVE_INTERVAL),
        ("TCP_KEEPCNT", TCP_KEEPALIVE_COUNT),
    ):
        if hasattr(socket, name):
            options.append((socket.IPPROTO_TCP, getattr(socket, name), value))
    return options


def limits() -> httpx.Limits:
    """httpx's pool limits: connections unbounded, ``MAX_IDLE_CONNECTIONS`` kept for
    ``IDLE_CONNECTION_TIMEOUT`` seconds."""
    return httpx.Limits(
        max_connections=None, max_keepalive_connections=MAX_IDLE_CONNECTIONS, keepalive_expiry=IDLE_CONNECTION_TIMEOUT
    )


def client_timeout(config: Config) -> httpx.Timeout:
    """The client's default: ``Config.timeout`` for every wait (the dial too, when shorter), else
    no read bound (each request gets its own from ``request_timeout``) and the dial timeout."""
    if config.timeout is None:
        return httpx.Timeout(None, connect=CONNECT_TIMEOUT)
    return httpx.Timeout(config.timeout, connect=min(CONNECT_TIMEOUT, config.timeout))


def request_timeout(config: Config, streamed: bool, params: list[tuple[str, str]]) -> httpx.Timeout | None:
    """The bound of one request that set none itself; None keeps the client's."""
    if config.timeout is not None or streamed:
        return None
    read = DEFAULT_READ_TIMEOUT
    for key, value in params:
        if key == "timeoutSeconds" and value.isdigit():
            read += int(value)
    return httpx.Timeout(read, connect=CONNECT_TIMEOUT)


def client_kwargs(config: Config, transport: Any, asynchronous: bool) -> dict[str, Any]:
    """httpx.Client / AsyncClient arguments. Without a ``transport`` of the caller's, kgen's own
    (keepalive sockets), mounted for the proxies the environment names, as httpx would."""
    kwargs: dict[str, Any] = {
        "base_url": config.host,
        "auth": config.httpx_auth(),
        "timeout": client_timeout(config),
        "headers": {"User-Agent": config.user_agent},
        "trust_env": True,
    }
    if transport is not None:
        # The caller's transport (a test's, the fake apiserver's): httpx applies the proxy.
        kwargs.update(transport=transport, verify=config.ssl_context(), proxy=config.proxy_url or None)
        return kwargs
    make = httpx.AsyncHTTPTransport if asynchronous else httpx.HTTPTransport
    ssl_context = config.ssl_context()

    def new(proxy: str | None) -> Any:
        if proxy is None and not asynchronous:
            from kgen.runtime.rest.http11 import HTTP11Transport

            return HTTP11Transport(ssl_context, socket_options(), MAX_IDLE_CONNECTIONS, IDLE_CONNECTION_TIMEOUT,
                                   tls_handshake_timeout=TLS_HANDSHAKE_TIMEOUT)
        made = make(verify=ssl_context, limits=limits(), socket_options=socket_options(), proxy=proxy)
        bound_tls_handshake(made, TLS_HANDSHAKE_TIMEOUT)
        return made

    kwargs["transport"] = new(config.proxy_url or None)
    if not config.proxy_url:
        # HTTPS_PROXY / NO_PROXY, as httpx reads them when it builds its own transport.
        from httpx._utils import get_environment_proxies

        kwargs["mounts"] = {
            pattern: None if url is None else new(url) for pattern, url in get_environment_proxies().items()
        }
    return kwargs


# -- the TLS handshake's own bound on httpx's transports -----------------------------------------
#
# httpcore hands the request's connect timeout to start_tls. Its network backend is where a
# connection's streams come from, so a backend whose streams cap that timeout bounds every
# handshake, a proxy's and the one through it to the apiserver alike.

def bound_tls_handshake(transport: httpx.HTTPTransport | httpx.AsyncHTTPTransport, seconds: float) -> None:
    """Bounds each TLS handshake of ``transport`` by ``seconds`` (and by the request's connect
    timeout, when shorter)."""
    if isinstance(transport, httpx.AsyncHTTPTransport):
        async_pool = transport._pool
        async_pool._network_backend = _AsyncBackend(async_pool._network_backend, seconds)
    else:
        pool = transport._pool
        pool._network_backend = _SyncBackend(pool._network_backend, seconds)


def _handshake_bound(timeout: float | None, seconds: float) -> float:
    return seconds if timeout is None else min(timeout, seconds)


_HANDSHAKE_TIMEOUT_MESSAGE = "TLS handshake timeout"  # Go's net/http: "net/http: TLS handshake timeout"


class _SyncStream(httpcore.NetworkStream):
    def __init__(self, stream: httpcore.NetworkStream, seconds: float) -> None:
        self._stream, self._seconds = stream, seconds

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        return self._stream.read(max_bytes, timeout)

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        self._stream.write(buffer, timeout)

    def close(self) -> None:
        self._stream.close()

    def start_tls(
        self, ssl_context: ssl.SSLContext, server_hostname: str | None = None, timeout: float | None = None
    ) -> httpcore.NetworkStream:
        try:
            tls = self._stream.start_tls(ssl_context, server_hostname, _handshake_bound(timeout, self._seconds))
        except httpcore.ConnectTimeout as e:
            raise httpcore.ConnectTimeout(_HANDSHAKE_TIMEOUT_MESSAGE) from e
        return _SyncStream(tls, self._seconds)

    def get_extra_info(self, info: str) -> Any:
        return self._stream.get_extra_info(info)


class _SyncBackend(httpcore.NetworkBackend):
    def __init__(self, backend: httpcore.NetworkBackend, seconds: float) -> None:
        self._backend, self._seconds = backend, seconds

    def connect_tcp(
        self, host: str, port: int, timeout: float | None = None, local_address: str | None = None,
        socket_options: typing.Iterable[Any] | None = None,
    ) -> httpcore.NetworkStream:
        stream = self._backend.connect_tcp(host, port, timeout, local_address, socket_options)
        return _SyncStream(stream, self._seconds)

    def connect_unix_socket(
        self, path: str, timeout: float | None = None, socket_options: typing.Iterable[Any] | None = None
    ) -> httpcore.NetworkStream:
        return _SyncStream(self._backend.connect_unix_socket(path, timeout, socket_options), self._seconds)

    def sleep(self, seconds: float) -> None:
        self._backend.sleep(seconds)


class _AsyncStream(httpcore.AsyncNetworkStream):
    def __init__(self, stream: httpcore.AsyncNetworkStream, seconds: float) -> None:
        self._stream, self._seconds = stream, seconds

    async def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        return await self._stream.read(max_bytes, timeout)

    async def write(self, buffer: bytes, timeout: float | None = None) -> None:
        await self._stream.write(buffer, timeout)

    async def aclose(self) -> None:
        await self._stream.aclose()

    async def start_tls(
        self, ssl_context: ssl.SSLContext, server_hostname: str | None = None, timeout: float | None = None
    ) -> httpcore.AsyncNetworkStream:
        try:
            tls = await self._stream.start_tls(ssl_context, server_hostname, _handshake_bound(timeout, self._seconds))
        except httpcore.ConnectTimeout as e:
            raise httpcore.ConnectTimeout(_HANDSHAKE_TIMEOUT_MESSAGE) from e
        return _AsyncStream(tls, self._seconds)

    def get_extra_info(self, info: str) -> Any:
        return self._stream.get_extra_info(info)


class _AsyncBackend(httpcore.AsyncNetworkBackend):
    def __init__(self, backend: httpcore.AsyncNetworkBackend, seconds: float) -> None:
        self._backend, self._seconds = backend, seconds

    async def connect_tcp(
        self, host: str, port: int, timeout: float | None = None, local_address: str | None = None,
        socket_options: typing.Iterable[Any] | None = None,
    ) -> httpcore.AsyncNetworkStream:
        stream = await self._backend.connect_tcp(host, port, timeout, local_address, socket_options)
        return _AsyncStream(stream, self._seconds)

    async def connect_unix_socket(
        self, path: str, timeout: float | None = None, socket_options: typing.Iterable[Any] | None = None
    ) -> httpcore.AsyncNetworkStream:
        return _AsyncStream(await self._backend.connect_unix_socket(path, timeout, socket_options), self._seconds)

    async def sleep(self, seconds: float) -> None:
        await self._backend.sleep(seconds)
