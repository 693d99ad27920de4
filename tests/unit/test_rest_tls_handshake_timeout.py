"""The TLS handshake has its own bound, client-go's TLSHandshakeTimeout (10 s), apart from the
30 s dial: an endpoint that accepts TCP connections but never answers the handshake (a stuck
load balancer, a wrong port) fails each attempt in 10 s, not 30.

A local listener accepts and then stays silent; the bound is made small for the test (its
default is asserted separately), on kgen's sync transport (http11), on httpx's async transport
and on httpx's sync one (what a proxied config gets), each through the REST client."""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from collections.abc import Iterator

import httpx
import pytest

from kgen.runtime.rest import Config
from kgen.runtime.rest import transport as transport_module
from kgen.runtime.rest.client import AsyncRESTClient, Request, RESTClient
from kgen.runtime.rest.http11 import HTTP11Transport
from kgen.runtime.rest.transport import CONNECT_TIMEOUT, TLS_HANDSHAKE_TIMEOUT, client_kwargs, socket_options

BOUND = 0.4


@pytest.fixture
def silent_tls_endpoint() -> Iterator[str]:
    """https://127.0.0.1:<port>: accepts connections, reads the ClientHello, never answers."""
    listener = socket.create_server(("127.0.0.1", 0))
    held: list[socket.socket] = []

    def accept() -> None:
        while True:
            try:
                conn, _ = listener.accept()
            except OSError:
                return
            held.append(conn)  # kept open, never written to

    threading.Thread(target=accept, daemon=True).start()
    yield f"https://127.0.0.1:{listener.getsockname()[1]}"
    listener.close()
    for conn in held:
        conn.close()


def test_the_default_bounds_are_client_gos() -> None:
    assert (TLS_HANDSHAKE_TIMEOUT, CONNECT_TIMEOUT) == (10.0, 30.0)
    config = Config(host="https://example.invalid")
    sync = client_kwargs(config, None, asynchronous=False)["transport"]
    assert isinstance(sync, HTTP11Transport) and sync._tls_handshake_timeout == 10.0
    assert HTTP11Transport(config.ssl_context(), [])._tls_handshake_timeout == 10.0
    for asynchronous in (True, False):
        proxied = Config(host="https://example.invalid", proxy_url="http://proxy.invalid:3128")
        made = client_kwargs(config if asynchronous else proxied, None, asynchronous=asynchronous)["transport"]
        assert made._pool._network_backend._seconds == 10.0


def _fails_in(seconds: float, call: object) -> httpx.ConnectTimeout:
    started = time.monotonic()
    with pytest.raises(httpx.ConnectTimeout) as e:
        call()  # type: ignore[operator]
    elapsed = time.monotonic() - started
    assert seconds * 0.8 <= elapsed < seconds + 3, elapsed
    return e.value


def test_the_sync_transport_bounds_the_handshake_apart_from_the_dial(silent_tls_endpoint: str) -> None:
    config = Config(host=silent_tls_endpoint, insecure_skip_tls_verify=True)
    transport = HTTP11Transport(config.ssl_context(), socket_options(), tls_handshake_timeout=BOUND)
    with httpx.Client(transport=transport, timeout=httpx.Timeout(None, connect=CONNECT_TIMEOUT)) as client:
        error = _fails_in(BOUND, lambda: client.get(f"{silent_tls_endpoint}/version"))
    assert str(error) == "TLS handshake timeout"


@pytest.mark.parametrize("proxied", [False, True], ids=["http11", "httpx"])
def test_a_sync_request_fails_at_the_handshake_bound(
    silent_tls_endpoint: str, proxied: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(transport_module, "TLS_HANDSHAKE_TIMEOUT", BOUND)
    config = Config(host=silent_tls_endpoint, insecure_skip_tls_verify=True, qps=-1)
    with RESTClient(config) as rest:
        if proxied:  # what a config naming a proxy gets: httpx's transport, with the bound
            made = transport_module.client_kwargs(config, None, asynchronous=False)
            made["transport"] = httpx.HTTPTransport(verify=config.ssl_context())
            transport_module.bound_tls_handshake(made["transport"], BOUND)
            rest.http = httpx.Client(**made)
        error = _fails_in(BOUND, lambda: rest.send(Request("GET", "/version")))
    assert "TLS handshake timeout" in str(error)


def test_an_async_request_fails_at_the_handshake_bound(silent_tls_endpoint: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(transport_module, "TLS_HANDSHAKE_TIMEOUT", BOUND)
    config = Config(host=silent_tls_endpoint, insecure_skip_tls_verify=True, qps=-1)

    async def scenario() -> None:
        async with AsyncRESTClient(config) as rest:
            await rest.send(Request("GET", "/version"))

    error = _fails_in(BOUND, lambda: asyncio.run(scenario()))
    assert str(error) == "TLS handshake timeout"


def test_a_shorter_request_bound_wins_over_the_handshake_bound(silent_tls_endpoint: str) -> None:
    """Config.timeout bounds every wait, the handshake's too."""
    config = Config(host=silent_tls_endpoint, insecure_skip_tls_verify=True, qps=-1, timeout=BOUND)
    with RESTClient(config) as rest:
        _fails_in(BOUND, lambda: rest.send(Request("GET", "/version")))
