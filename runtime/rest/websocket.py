"""WebSocket connections to the apiserver, for the streaming subresources (``pods/exec``,
``pods/attach``, ``pods/portforward``): client-go's ``transport/websocket`` RoundTripper.

client-go 1.29+ upgrades these requests to WebSocket rather than SPDY (KEP-4006); the apiserver
speaks both. The connection is the REST client's in all but the HTTP library: the same TLS
(``Config.ssl_context()``: CA, client certificate, insecure flag, TLS server name), the same
credentials (the client's ``httpx.Auth`` is asked for the headers of the upgrade request, so a
bearer token, token file, exec plugin or OIDC token is read, run or renewed exactly as for a
REST call, and a 401 renews the token and dials once more, as ``BearerTokenAuth`` retries a
request), the same User-Agent and proxy. The framing is the ``websockets`` library's (its
asyncio client, with subprotocol negotiation; maintained, no dependencies of its own), imported
only when a connection is opened: the runtime stays importable without it.

The dial is asyncio only. The sync flavours (exec, attach and port-forward on the sync pods
client) run the asyncio implementation on an event loop of their own
(kgen.runtime.util.loop_thread) with ``async_twin`` of their REST client, not the library's
sync client: that one reads the TLS socket on a background thread while the caller's thread
writes it, which ``ssl.SSLSocket`` does not allow, and over TLS 1.3 1 or 2 upgrades in 100
stalled ~30 s or failed (6 of 300 against the apiserver; 0 of 300 held to TLS 1.2, 0 of 150
with the asyncio client).

Messages have no size bound (a process's output arrives in frames as large as the server
makes them) and no compression (the apiserver offers none). Keepalive pings go out every 5 s
as client-go's (``pingPeriod``), and a connection that answers none for a minute is dropped.

An upgrade the apiserver refuses answers with a Status (pod not found, container not found,
forbidden): that becomes the typed ``ApiError`` the REST client raises for the same answer
(``NotFound``, ``BadRequest``, ``Forbidden``...). Other handshake failures raise
``WebSocketHandshakeError``; a connection that cannot be made raises ``OSError`` /
``TimeoutError``. No exception of the ``websockets`` library escapes the dial. An upgrade
dropped before any answer ran nothing and is dialed again (``DIAL_RETRIES``), as the REST client
retries a GET whose connection was closed; the whole dial stays within its one time bound.

Credentials never reach a log line or exception: the library's own debug logging (which
prints every header of the handshake) is kept off, and messages name only the method and path.
"""

from __future__ import annotations

import asyncio
import logging
import ssl
import time
import weakref
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import httpx

from kgen.runtime.apimachinery.errors import error_from_response
from kgen.runtime.rest.client import AsyncRESTClient, Request, RESTClient, _Pipeline
from kgen.runtime.rest.transport import CONNECT_TIMEOUT, DEFAULT_READ_TIMEOUT

if TYPE_CHECKING:
    from websockets.asyncio.client import ClientConnection as AsyncClientConnection

log = logging.getLogger("kgen.runtime.rest.websocket")
"""The logger of WebSocket dials (method and path, never a header)."""

PING_PERIOD = 5.0
"""client-go's websocket pingPeriod (transport/websocket): a ping every 5 s keeps proxies and
load balancers from closing a quiet stream."""
PING_TIMEOUT = 61.0
"""client-go's pingReadDeadline (12 ping periods + 1 s): silence after a ping this long drops
the connection."""
OPEN_TIMEOUT = CONNECT_TIMEOUT + DEFAULT_READ_TIMEOUT
"""The default bound of a dial and its upgrade: the REST client's for a connection and for the
answer of a request read whole (kgen.runtime.rest.transport). ``Config.timeout`` replaces it,
as it does the REST client's. (client-go's dialer has no bound of its own but the request's
context.)"""
DIAL_RETRIES = 3
"""How many times an upgrade dropped before any answer is made again (see ``_Attempts``)."""
RETRY_WAIT = 1.0
"""Seconds before such a retry (client-go's Retry-After for a retryable error)."""
CLOSE_TIMEOUT = 10.0
"""How long closing waits for the server's close frame before dropping the connection."""

# Headers the WebSocket library writes itself, or that mean nothing on an upgrade.
_OWN_HEADERS = frozenset({
    "host", "connection", "upgrade", "accept", "accept-encoding", "content-length", "content-type",
    "transfer-encoding", "user-agent",
})

__all__ = [
    "CLOSE_TIMEOUT", "DIAL_RETRIES", "OPEN_TIMEOUT", "PING_PERIOD", "PING_TIMEOUT", "RETRY_WAIT",
    "WebSocketHandshakeError", "async_connect", "async_twin", "websocket_url",
]


class WebSocketHandshakeError(ConnectionError):
    """The upgrade failed for a reason other than a Status answer: the server chose none of the
    offered subprotocols, answered something that is not an upgrade, or a proxy refused."""


class _NoDebug(logging.LoggerAdapter):  # type: ignore[type-arg]
    """websockets' logger with DEBUG off: at DEBUG it logs every handshake header, the
    Authorization header included, and every frame."""

    def isEnabledFor(self, level: int) -> bool:
        return level > logging.DEBUG and self.logger.isEnabledFor(level)


_library_log = _NoDebug(logging.getLogger("kgen.runtime.rest.websocket.frames"), {})
_ssl_contexts: weakref.WeakKeyDictionary[_Pipeline, ssl.SSLContext] = weakref.WeakKeyDictionary()


def websocket_url(request: httpx.Request) -> str:
    """The ``ws(s)://`` URL of an upgrade request built by the REST pipeline."""
    url = request.url
    scheme = {"https": "wss", "http": "ws"}.get(url.scheme)
    if scheme is None:
        raise ValueError(f"the apiserver URL must be http or https for a WebSocket, got {url.scheme!r}")
    return str(url.copy_with(scheme=scheme))


def _ssl_context(rest: _Pipeline) -> ssl.SSLContext:
    # Built once per REST client: Config.ssl_context writes a client certificate to a temporary
    # folder to load it, and may run an exec plugin.
    ctx = _ssl_contexts.get(rest)
    if ctx is None:
        ctx = _ssl_contexts[rest] = rest.config.ssl_context()
    return ctx


def _prepare(rest: _Pipeline, http: httpx.AsyncClient, path: str,
             params: Sequence[tuple[str, str]]) -> tuple[Request, httpx.Request]:
    req = Request("GET", path, params=list(params))
    return req, rest.build(http, req)


def _connect_kwargs(rest: _Pipeline, request: httpx.Request, subprotocols: Sequence[str],
                    timeout: float) -> dict[str, Any]:
    from websockets.typing import Subprotocol

    headers = [(name, value) for name, value in request.headers.multi_items() if name.lower() not in _OWN_HEADERS]
    kwargs: dict[str, Any] = {
        "subprotocols": [Subprotocol(p) for p in subprotocols],
        "additional_headers": headers,
        "user_agent_header": rest.config.user_agent,
        "compression": None,
        "max_size": None,
        "open_timeout": timeout,
        "ping_interval": PING_PERIOD,
        "ping_timeout": PING_TIMEOUT,
        "close_timeout": CLOSE_TIMEOUT,
        "proxy": rest.config.proxy_url or True,  # True: HTTPS_PROXY / NO_PROXY, as httpx's trust_env
        "logger": _library_log,
    }
    if request.url.scheme == "https":
        kwargs["ssl"] = _ssl_context(rest)
        if rest.config.tls_server_name:
            kwargs["server_hostname"] = rest.config.tls_server_name
    return kwargs


def _refused(error: Exception, req: Request, rest: _Pipeline) -> Exception:
    """The exception to raise for a failed handshake: the Status answer as an ApiError, else a
    WebSocketHandshakeError; ``OSError``s and timeouts as they are."""
    from websockets.exceptions import InvalidHandshake, InvalidStatus, InvalidURI

    if isinstance(error, InvalidStatus):
        response = error.response
        return error_from_response(response.status_code, bytes(response.body or b""), req.describe())
    if isinstance(error, OSError) and rest.watch_list_semantics_unsupported:
        # The REST client answers from a fake's transport (kgen.runtime.fake's, which set this
        # flag): its host is no server, and no fake speaks WebSocket.
        return WebSocketHandshakeError(
            f"{req.describe()}: this client's requests are answered by a fake apiserver's transport, which "
            "cannot carry a WebSocket: exec, attach and port-forward need a real apiserver "
            "(kgen.runtime.testing.Cluster runs one with kwok's nodes)"
        )
    if isinstance(error, (InvalidHandshake, InvalidURI)):
        cause = error.__cause__
        why = f" ({type(cause).__name__}: {cause})" if cause is not None else ""
        return WebSocketHandshakeError(f"{req.describe()}: WebSocket upgrade failed: {type(error).__name__}: {error}{why}")
    return error


class _Attempts:
    """The dial's time bound, and its retries of an upgrade the server dropped unanswered.

    A connection closed or reset before any answer ran nothing on the server, so the upgrade
    (a GET) is made again after a second, as the REST client retries a GET whose connection was
    reset or closed (kgen.runtime.rest.with_retry; client-go's "retryable error", Retry-After
    1 s), at most ``DIAL_RETRIES`` times and within the one time bound. Seen on a loaded test
    machine: an apiserver that stalled ~30 s dropped the upgrade at its 32 s ReadHeaderTimeout."""

    def __init__(self, rest: _Pipeline, timeout: float | None) -> None:
        bound = timeout if timeout is not None else rest.config.timeout or OPEN_TIMEOUT
        self.deadline = time.monotonic() + bound
        self.retries = 0

    def remaining(self) -> float:
        return max(0.001, self.deadline - time.monotonic())

    def retry(self, error: Exception, req: Request) -> float | None:
        """Seconds to wait before dialing again, or None to fail with ``error``."""
        if not _dropped(error) or self.retries >= DIAL_RETRIES or self.deadline - time.monotonic() <= RETRY_WAIT:
            return None
        self.retries += 1
        log.debug("WebSocket %s %s: dropped before any answer (%s); retry %d after %ss", req.method, req.path,
                  type(error.__cause__ or error).__name__, self.retries, RETRY_WAIT)
        return RETRY_WAIT


def _dropped(error: Exception) -> bool:
    from websockets.exceptions import InvalidMessage

    if isinstance(error, InvalidMessage):  # no status line: the connection ended first
        return isinstance(error.__cause__, (EOFError, ConnectionResetError, BrokenPipeError))
    return isinstance(error, (ConnectionResetError, BrokenPipeError))


def _status(error: Exception) -> int:
    from websockets.exceptions import InvalidStatus

    return error.response.status_code if isinstance(error, InvalidStatus) else 0


def _no_subprotocol(req: Request, offered: Sequence[str], chosen: str | None) -> WebSocketHandshakeError:
    # client-go's websocket RoundTripper checks the same: an upgrade to a protocol it cannot
    # speak is no connection at all.
    return WebSocketHandshakeError(
        f"{req.describe()}: WebSocket upgrade failed: expected one of {list(offered)}, got {chosen or 'none'}"
    )


def _unauthorized(request: httpx.Request) -> httpx.Response:
    return httpx.Response(401, request=request)


def async_twin(rest: RESTClient) -> AsyncRESTClient:
    """An ``AsyncRESTClient`` for the apiserver of the sync ``rest``, configured as it is (the same
    ``Config``: TLS, credentials, proxy) and telling a fake's transport as it does: what the sync
    flavours dial with (``async_connect``) on their own event loop. Its connections are its own;
    the caller closes it on that loop."""
    twin = AsyncRESTClient(rest.config)
    twin.watch_list_semantics_unsupported = rest.watch_list_semantics_unsupported
    return twin


async def async_connect(rest: AsyncRESTClient, path: str, params: Sequence[tuple[str, str]] = (), *,
                        subprotocols: Sequence[str], timeout: float | None = None) -> AsyncClientConnection:
    """Opens a WebSocket to ``path`` (with the query ``params``) on the apiserver of ``rest``,
    offering ``subprotocols`` in order; ``timeout`` bounds the dial and handshake (``OPEN_TIMEOUT``
    by default). Returns the open ``websockets.asyncio.client.ClientConnection``; the caller
    closes it.

    Raises the ``ApiError`` of a refused upgrade, ``WebSocketHandshakeError``, ``OSError`` or
    ``TimeoutError``."""
    from websockets.asyncio.client import connect as ws_connect

    req, request = _prepare(rest, rest.http, path, params)
    url = websocket_url(request)
    auth = rest.http.auth
    flow = auth.async_auth_flow(request) if auth is not None else None
    if flow is not None:
        request = await flow.__anext__()
    log.debug("WebSocket %s %s", req.method, req.path)
    attempts = _Attempts(rest, timeout)
    while True:
        try:
            kwargs = _connect_kwargs(rest, request, subprotocols, attempts.remaining())
            connection: AsyncClientConnection = await ws_connect(url, **kwargs)
        except Exception as e:
            if _status(e) == 401 and flow is not None:
                try:
                    request = await flow.asend(_unauthorized(request))
                    continue
                except StopAsyncIteration:
                    pass
            elif (wait := attempts.retry(e, req)) is not None:
                await asyncio.sleep(wait)
                continue
            raised = _refused(e, req, rest)
            if raised is e:
                raise
            raise raised from None
        if connection.subprotocol not in subprotocols:
            await connection.close()
            raise _no_subprotocol(req, subprotocols, connection.subprotocol)
        return connection

