"""A fault-injecting HTTPS proxy between a client and the real apiserver, for tests.

It terminates TLS with a certificate from the test apiserver's CA (so clients verify it like
the real server), forwards each request — Authorization header included, so clients use
bearer tokens — and streams the answer back (watches too). Faults are either scripted
(``script``: answer the next requests with a given status and ``Retry-After``, cut them,
reset them or never answer them) or random (``chaos``: cut connections, stall answers or
streams, answer 429/500), and every fault is counted. ``accept_script`` acts on the next new
connections before TLS: never answer them (a black hole), reset them, or close them.
"""

from __future__ import annotations

import random
import socket
import ssl
import struct
import sys
import tempfile
import threading
import time
from collections import Counter, deque
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx

from kgen.runtime.rest import StaticToken
from kgen.runtime.rest import Config
from kgen.runtime.testing import KubeAPIServer

_HOP_BY_HOP = {"connection", "keep-alive", "transfer-encoding", "te", "trailer", "upgrade", "host", "content-length"}


#: A scripted "status" that answers nothing: the connection is cut once the request is read.
CUT = 0
#: Scripted: the connection is reset (an RST: SO_LINGER 0) once the request is read.
RESET = -1
#: Scripted: the request is read and never answered; the connection stays open (a black hole).
BLACKHOLE = -2
#: ``accept_script`` entries: what the next new connection gets before any TLS.
ACCEPT_BLACKHOLE = "blackhole"  # accepted, then silence
ACCEPT_RESET = "reset"  # accepted, then an RST
ACCEPT_CLOSE = "close"  # accepted, then closed (EOF during the TLS handshake)


@dataclass
class Scripted:
    status: int  # an HTTP status, or CUT, RESET, BLACKHOLE
    retry_after: str | None = "0"
    #: Only for a request whose path (query included) contains this; until one comes, the others
    #: are forwarded and the script waits (a typed client's first /version, say). None: the next.
    path: str | None = None


@dataclass
class Chaos:
    """Probabilities per request (cut, stall, 429, 500) and per streamed chunk (cut_stream,
    stall_stream); a stall lasts ``stall_seconds``."""

    seed: int = 1
    cut: float = 0.0
    stall_seconds: float = 0.0
    stall: float = 0.0
    too_many: float = 0.0
    server_error: float = 0.0
    cut_stream: float = 0.0
    stall_stream: float = 0.0


class FaultProxy:
    def __init__(self, server: KubeAPIServer) -> None:
        self.upstream = server.url
        self._server = server
        self.script: deque[Scripted] = deque()
        self.chaos: Chaos | None = None
        self.faults: Counter[str] = Counter()
        self._streams: set[httpx.Response] = set()
        self.requests: list[str] = []
        self.accept_script: deque[str] = deque()
        self.connections = 0  # TCP connections accepted
        self._closing = threading.Event()
        self._lock = threading.Lock()
        self._rng = random.Random(0)
        folder = Path(tempfile.mkdtemp(prefix="kgen-faultproxy-"))
        pair = server.issue_serving_cert(["127.0.0.1", "localhost"])
        (folder / "tls.crt").write_bytes(pair.cert_pem)
        (folder / "tls.key").write_bytes(pair.key_pem)
        self._tls = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        self._tls.load_cert_chain(folder / "tls.crt", folder / "tls.key")
        for p in folder.iterdir():
            p.unlink()
        folder.rmdir()
        self._upstream = httpx.Client(
            base_url=server.url, verify=ssl.create_default_context(cadata=server.ca_pem.decode()), timeout=None
        )
        self._httpd = _Server(("127.0.0.1", 0), self._handler())
        self._httpd.daemon_threads = True
        self.url = f"https://127.0.0.1:{self._httpd.server_address[1]}"
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)

    def config(self, user: str = "kgen-token-1") -> Config:
        """A client config that reaches the server through this proxy, with a bearer token and
        no client-side throttling."""
        server = self._server
        return Config(host=self.url, ca_data=server.ca_pem, credentials=StaticToken(server.tokens[user]), qps=-1)

    def set_chaos(self, chaos: Chaos | None) -> None:
        with self._lock:
            self.chaos = chaos
            self._rng = random.Random(chaos.seed if chaos else 0)

    def _roll(self, p: float) -> bool:
        with self._lock:
            return p > 0 and self._rng.random() < p

    def _count(self, fault: str) -> None:
        with self._lock:
            self.faults[fault] += 1

    def __enter__(self) -> "FaultProxy":
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._closing.set()  # releases the black holes
        self._httpd.shutdown()
        self._httpd.server_close()
        # Streams whose client already left would otherwise hold the upstream watch open
        # until the server's own timeout (and delay the apiserver's shutdown).
        with self._lock:
            streams, self._streams = list(self._streams), set()
        for stream in streams:
            stream.close()
        self._upstream.close()

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def setup(self) -> None:
                with proxy._lock:
                    proxy.connections += 1
                    fault = proxy.accept_script.popleft() if proxy.accept_script else None
                if fault is not None:
                    proxy._count(f"accept {fault}")
                    if fault == ACCEPT_BLACKHOLE:
                        proxy._closing.wait()
                    elif fault == ACCEPT_RESET:
                        _reset(self.request)
                    raise _Dropped
                self.request = proxy._tls.wrap_socket(self.request, server_side=True)
                super().setup()

            def log_message(self, format: str, *args: object) -> None:
                pass

            def _answer(self, status: int, retry_after: str | None) -> None:
                body = (
                    f'{{"kind":"Status","apiVersion":"v1","status":"Failure","code":{status},'
                    f'"reason":"{"TooManyRequests" if status == 429 else "InternalError"}","message":"injected fault"}}'
                ).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                if retry_after is not None:
                    self.send_header("Retry-After", retry_after)
                self.end_headers()
                self.wfile.write(body)

            def _cut(self) -> None:
                self.close_connection = True
                try:
                    self.request.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

            def _forward(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else None
                proxy.requests.append(f"{self.command} {self.path}")
                with proxy._lock:
                    due = bool(proxy.script) and (proxy.script[0].path is None or proxy.script[0].path in self.path)
                    scripted = proxy.script.popleft() if due else None
                chaos = proxy.chaos
                if scripted is not None and scripted.status == CUT:
                    proxy._count("scripted cut")
                    return self._cut()
                if scripted is not None and scripted.status == RESET:
                    proxy._count("scripted reset")
                    self.close_connection = True
                    return _reset(self.request)
                if scripted is not None and scripted.status == BLACKHOLE:
                    proxy._count("scripted blackhole")
                    self.close_connection = True
                    proxy._closing.wait()
                    return None
                if scripted is not None:
                    proxy._count(f"scripted {scripted.status}")
                    return self._answer(scripted.status, scripted.retry_after)
                if chaos is not None:
                    if proxy._roll(chaos.cut):
                        proxy._count("cut connection")
                        return self._cut()
                    if proxy._roll(chaos.too_many):
                        proxy._count("429")
                        return self._answer(429, "0")
                    if proxy._roll(chaos.server_error):
                        proxy._count("500")
                        return self._answer(500, "0")
                    if proxy._roll(chaos.stall):
                        proxy._count("stall before answer")
                        time.sleep(chaos.stall_seconds)
                headers = {k: v for k, v in self.headers.items() if k.lower() not in _HOP_BY_HOP}
                request = proxy._upstream.build_request(self.command, self.path, headers=headers, content=body)
                try:
                    upstream = proxy._upstream.send(request, stream=True)
                except (httpx.HTTPError, RuntimeError):  # RuntimeError: the proxy closed during a stall
                    return self._cut()
                with proxy._lock:
                    proxy._streams.add(upstream)
                try:
                    self.send_response(upstream.status_code)
                    for key, value in upstream.headers.multi_items():
                        if key.lower() not in _HOP_BY_HOP:
                            self.send_header(key, value)
                    self.send_header("Transfer-Encoding", "chunked")
                    self.end_headers()
                    for chunk in upstream.iter_raw():
                        if chaos is not None and proxy._roll(chaos.cut_stream):
                            proxy._count("cut stream")
                            return self._cut()
                        if chaos is not None and chaos.stall_seconds and proxy._roll(chaos.stall_stream):
                            proxy._count("stall stream")
                            time.sleep(chaos.stall_seconds)
                        self.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                        self.wfile.flush()
                    self.wfile.write(b"0\r\n\r\n")
                except (OSError, httpx.HTTPError):
                    self.close_connection = True
                finally:
                    with proxy._lock:
                        proxy._streams.discard(upstream)
                    upstream.close()

            do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = _forward

        return Handler


class _Server(ThreadingHTTPServer):
    def handle_error(self, request: Any, client_address: Any) -> None:
        if not isinstance(sys.exc_info()[1], (_Dropped, OSError)):  # dropped and reset ones are the point
            super().handle_error(request, client_address)


class _Dropped(Exception):
    """Ends a connection the proxy refused to serve (``accept_script``)."""


def _reset(sock: socket.socket) -> None:
    """Closes ``sock`` with an RST instead of a FIN: the peer sees ECONNRESET."""
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        sock.close()
    except OSError:
        pass
