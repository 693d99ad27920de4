"""kgen.runtime.rest.websocket against a local ``websockets`` server over TLS: the REST client's
CA, bearer token and User-Agent reach the server, the subprotocol is negotiated, a refused
upgrade becomes the typed API error of its Status, a 401 renews the token once, and the
token never reaches a log or an exception. Each behaviour runs on both routes to the one dial,
``async_connect``: from an ``AsyncRESTClient``, and as the sync flavours dial (``async_twin`` of a
sync ``RESTClient``, on a ``LoopThread``)."""

from __future__ import annotations

import asyncio
import json
import logging
import socket
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import pytest
from websockets.datastructures import Headers
from websockets.http11 import Request as WSRequest
from websockets.http11 import Response as WSResponse
from websockets.sync.server import Server, ServerConnection, serve
from websockets.typing import Subprotocol

from kgen.runtime.apimachinery.errors import BadRequest, Forbidden, NotFound, Unauthorized
from kgen.runtime.rest.auth import StaticToken
from kgen.runtime.rest.client import AsyncRESTClient, RESTClient
from kgen.runtime.rest.config import Config
from kgen.runtime.rest import websocket
from kgen.runtime.rest.websocket import WebSocketHandshakeError, async_connect, async_twin
from kgen.runtime.testing._certs import CertificateAuthority
from kgen.runtime.util.loop_thread import LoopThread

TOKEN = "s3cr3t-t0ken-value"


@dataclass
class Apiserver:
    """A WebSocket server on TLS that records each upgrade request and answers per ``refuse``."""

    url: str
    ca: bytes
    seen: list[WSRequest] = field(default_factory=list)
    refuse: Callable[[WSRequest], WSResponse | None] = lambda request: None
    drop: int = 0
    """How many upgrades to drop unanswered (the connection shut down after the request)."""


def _status(code: int, reason: str, message: str) -> WSResponse:
    body = json.dumps({"kind": "Status", "apiVersion": "v1", "status": "Failure", "message": message,
                       "reason": reason, "code": code}).encode()
    return WSResponse(code, reason, Headers([("Content-Type", "application/json"),
                                             ("Content-Length", str(len(body)))]), body)


@pytest.fixture(scope="module")
def apiserver() -> Iterator[Apiserver]:
    ca = CertificateAuthority()
    pair = ca.serving(["127.0.0.1"])
    import ssl
    import tempfile
    from pathlib import Path

    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "tls.crt").write_bytes(pair.cert_pem)
        (Path(tmp) / "tls.key").write_bytes(pair.key_pem)
        ctx.load_cert_chain(Path(tmp) / "tls.crt", Path(tmp) / "tls.key")
    state = Apiserver(url="", ca=ca.cert_pem)

    def process_request(connection: ServerConnection, request: WSRequest) -> WSResponse | None:
        state.seen.append(request)
        if state.drop:
            state.drop -= 1
            connection.socket.shutdown(socket.SHUT_RDWR)
        return state.refuse(request)

    def echo(connection: ServerConnection) -> None:
        for message in connection:
            connection.send(message)

    def select_subprotocol(connection: ServerConnection, offered: Sequence[Subprotocol]) -> Subprotocol | None:
        # A path under /no-subprotocol accepts the upgrade without choosing one of them.
        assert connection.request is not None
        known = [p for p in offered if p in ("v5.channel.k8s.io", "v4.channel.k8s.io")]
        return None if connection.request.path.startswith("/no-subprotocol") or not known else known[0]

    server: Server = serve(echo, "127.0.0.1", 0, ssl=ctx, process_request=process_request, max_size=None,
                           select_subprotocol=select_subprotocol)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    state.url = f"https://127.0.0.1:{server.socket.getsockname()[1]}"
    try:
        yield state
    finally:
        server.shutdown()
        thread.join()


@pytest.fixture(autouse=True)
def _fresh(apiserver: Apiserver, monkeypatch: pytest.MonkeyPatch) -> None:
    apiserver.seen.clear()
    apiserver.refuse = lambda request: None
    apiserver.drop = 0
    for name in ("HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy", "ALL_PROXY", "all_proxy"):
        monkeypatch.delenv(name, raising=False)


def _config(apiserver: Apiserver, **kwargs: Any) -> Config:
    kwargs.setdefault("credentials", StaticToken(TOKEN))
    return Config(host=apiserver.url, ca_data=apiserver.ca, **kwargs)


def dial(flavour: str, config: Config, subprotocols: list[str], path: str = "/api/v1/namespaces/ns/pods/p/exec",
         params: list[tuple[str, str]] | None = None, message: bytes = b"") -> tuple[str | None, bytes]:
    """Dials with ``flavour``, sends ``message`` and returns the subprotocol and the echo."""
    query = params if params is not None else [("command", "ls"), ("stdout", "true")]

    async def main(rest: AsyncRESTClient) -> tuple[str | None, bytes]:
        async with rest:
            async with await async_connect(rest, path, query, subprotocols=subprotocols, timeout=5) as ws:
                await ws.send(message)
                echoed = await ws.recv()
                return ws.subprotocol, echoed if isinstance(echoed, bytes) else echoed.encode()

    if flavour == "sync":
        loop = LoopThread("test dial")
        try:
            with RESTClient(config) as sync_rest:
                return loop.run(main(async_twin(sync_rest)))
        finally:
            loop.close()
    return asyncio.run(main(AsyncRESTClient(config)))


FLAVOURS = pytest.mark.parametrize("flavour", ["sync", "async"])


@FLAVOURS
def test_tls_token_user_agent_and_subprotocol_reach_the_server(apiserver: Apiserver, flavour: str) -> None:
    config = _config(apiserver)
    subprotocol, echoed = dial(flavour, config, ["v5.channel.k8s.io", "v4.channel.k8s.io"], message=b"\x00\xffhi")
    assert (subprotocol, echoed) == ("v5.channel.k8s.io", b"\x00\xffhi")
    [request] = apiserver.seen
    assert request.path == "/api/v1/namespaces/ns/pods/p/exec?command=ls&stdout=true"
    assert request.headers["Authorization"] == f"Bearer {TOKEN}"
    assert request.headers["User-Agent"] == config.user_agent
    assert request.headers["Sec-WebSocket-Protocol"] == "v5.channel.k8s.io, v4.channel.k8s.io"
    assert "Sec-WebSocket-Extensions" not in request.headers  # no compression offered


@FLAVOURS
def test_the_first_offered_subprotocol_the_server_knows_is_chosen(apiserver: Apiserver, flavour: str) -> None:
    subprotocol, _ = dial(flavour, _config(apiserver), ["v6.channel.k8s.io", "v4.channel.k8s.io"], message=b"x")
    assert subprotocol == "v4.channel.k8s.io"


@FLAVOURS
def test_messages_have_no_size_limit(apiserver: Apiserver, flavour: str) -> None:
    big = bytes(range(256)) * 8192  # 2 MiB, twice websockets' default limit
    assert dial(flavour, _config(apiserver), ["v5.channel.k8s.io"], message=big)[1] == big


@FLAVOURS
@pytest.mark.parametrize(("code", "reason", "error"), [
    (404, "NotFound", NotFound), (400, "BadRequest", BadRequest), (403, "Forbidden", Forbidden),
])
def test_a_refused_upgrade_raises_the_typed_error_of_its_status(
    apiserver: Apiserver, flavour: str, code: int, reason: str, error: type[Exception],
    caplog: pytest.LogCaptureFixture,
) -> None:
    message = f'pods "p" {reason} here'
    apiserver.refuse = lambda request: _status(code, reason, message)
    caplog.set_level(logging.DEBUG)
    with pytest.raises(error) as raised:
        dial(flavour, _config(apiserver), ["v5.channel.k8s.io"])
    assert message in str(raised.value)
    assert "/api/v1/namespaces/ns/pods/p/exec" in str(raised.value)
    assert TOKEN not in str(raised.value) and TOKEN not in repr(raised.value)
    assert raised.value.__cause__ is None and raised.value.__suppress_context__  # no websockets traceback shown
    client_side = [r for r in caplog.records if not r.name.startswith("websockets.server")]  # not the test server's
    assert client_side and not any(TOKEN in record.getMessage() for record in client_side)
    assert apiserver.seen, "the upgrade request reached the server"


@FLAVOURS
def test_a_401_renews_the_token_and_dials_once_more(apiserver: Apiserver, flavour: str) -> None:
    class Rotating:
        def __init__(self) -> None:
            self.current = "old-token"

        def token(self) -> str:
            return self.current

        def invalidate(self) -> None:
            self.current = "new-token"

    apiserver.refuse = lambda request: (
        _status(401, "Unauthorized", "Unauthorized") if request.headers["Authorization"] != "Bearer new-token" else None
    )
    subprotocol, _ = dial(flavour, _config(apiserver, credentials=Rotating()), ["v5.channel.k8s.io"], message=b"x")
    assert subprotocol == "v5.channel.k8s.io"
    assert [r.headers["Authorization"] for r in apiserver.seen] == ["Bearer old-token", "Bearer new-token"]


@FLAVOURS
def test_a_401_with_an_unchanged_token_raises_unauthorized(apiserver: Apiserver, flavour: str) -> None:
    apiserver.refuse = lambda request: _status(401, "Unauthorized", "Unauthorized")
    with pytest.raises(Unauthorized) as raised:
        dial(flavour, _config(apiserver), ["v5.channel.k8s.io"])
    assert TOKEN not in str(raised.value)
    assert len(apiserver.seen) == 1


@FLAVOURS
def test_a_server_that_chooses_no_offered_subprotocol_is_a_handshake_error(apiserver: Apiserver, flavour: str) -> None:
    with pytest.raises(WebSocketHandshakeError, match="expected one of .*v9.channel.k8s.io.*, got none"):
        dial(flavour, _config(apiserver), ["v9.channel.k8s.io"], path="/no-subprotocol")


@FLAVOURS
def test_a_server_certificate_outside_the_ca_is_refused(apiserver: Apiserver, flavour: str) -> None:
    config = Config(host=apiserver.url, ca_data=CertificateAuthority().cert_pem, credentials=StaticToken(TOKEN))
    with pytest.raises(OSError, match="CERTIFICATE_VERIFY_FAILED"):
        dial(flavour, config, ["v5.channel.k8s.io"])
    assert not apiserver.seen


@FLAVOURS
def test_insecure_skips_verification(apiserver: Apiserver, flavour: str) -> None:
    config = Config(host=apiserver.url, insecure_skip_tls_verify=True, credentials=StaticToken(TOKEN))
    assert dial(flavour, config, ["v5.channel.k8s.io"], message=b"ok")[1] == b"ok"


@FLAVOURS
def test_an_upgrade_dropped_unanswered_is_dialed_again(apiserver: Apiserver, flavour: str,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(websocket, "RETRY_WAIT", 0.05)
    apiserver.drop = 2
    assert dial(flavour, _config(apiserver), ["v5.channel.k8s.io"], message=b"third time")[1] == b"third time"
    assert len(apiserver.seen) == 3


@FLAVOURS
def test_retries_of_dropped_upgrades_are_bounded(apiserver: Apiserver, flavour: str,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(websocket, "RETRY_WAIT", 0.05)
    apiserver.drop = 100
    started = time.monotonic()
    with pytest.raises(WebSocketHandshakeError, match="did not receive a valid HTTP response"):
        dial(flavour, _config(apiserver), ["v5.channel.k8s.io"])
    assert len(apiserver.seen) == 1 + websocket.DIAL_RETRIES
    assert time.monotonic() - started < 5
