"""kgen's synchronous transport: HTTP/1.1 over the standard library's ``http.client``, pooled,
under httpx's client API.

Why not httpx's own ``HTTPTransport``: httpcore and h11 parse and check every request and
response in Python, event by event, and that costs more CPU than the rest of a request. Measured
on the real apiserver (one ConfigMap GET, 2,000 times, process CPU): 504-564 µs a request with
httpx's transport, 372-376 µs with this one (a PUT: 579 against 432), ``http.client`` alone 174
µs. A controller is mostly requests and watch chunks, so this is most of its CPU. What stays
httpx's: the client, requests, responses, auth, content decoding, errors.

The behaviour is client-go's transport as ``kgen.runtime.rest.transport`` describes it, kept
here one for one:

- the dial is bounded by the request's ``connect`` timeout, the TLS handshake after it by
  ``tls_handshake_timeout`` (client-go's TLSHandshakeTimeout, 10 s; the connect timeout when
  shorter), every read by the request's ``read`` timeout (None: no bound); sockets get the
  keepalive options;
- TLS with the client's ``ssl.SSLContext``; the request's ``sni_hostname`` extension (a
  kubeconfig's ``tls-server-name``) is the name sent and verified;
- idle connections are kept (``max_idle``, the most recent first) for ``idle_timeout`` seconds;
  one found closed by the server when taken from the pool is dropped. If a reused connection
  fails before any answer came, an idempotent request is sent once more on a new connection,
  as Go's transport does (a write is not: the server may have done it);
- errors are httpx's, raised from the ``OSError`` under them, so ``with_retry``'s
  classification (connection reset, probable EOF) reads them as it reads httpcore's:
  ``ConnectTimeout``/``ConnectError`` while connecting, ``ReadTimeout``, ``WriteError``,
  ``ReadError``, and ``RemoteProtocolError`` for a server that closed the connection early;
- a streamed response's socket is the ``network_stream`` extension's ``get_extra_info("socket")``
  (``WatchStream.stop`` shuts it down from another thread); a response read to its end gives its
  connection back to the pool, any other is closed with it.

Proxies stay httpx's: a config or environment that names one gets httpx's transport.

A response's headers are split by ``_Response`` rather than by ``http.client.parse_headers``
(the email package's feed parser, a sixth of a controller's request CPU), with the same result:
a header block it does not recognise as plain goes to the email parser.
"""

from __future__ import annotations

import email.parser
import http.client
import re
import select
import socket
import ssl
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx

from kgen.runtime.rest.transport import TLS_HANDSHAKE_TIMEOUT

IDEMPOTENT = frozenset({"GET", "HEAD", "OPTIONS", "TRACE", "PUT", "DELETE"})
"""The methods Go's transport sends again after a reused connection failed (net/http)."""


class _NetworkStream:
    """What ``response.extensions["network_stream"]`` is for httpcore's responses, as far as
    kgen uses it."""

    def __init__(self, sock: socket.socket | None) -> None:
        self._sock = sock

    def get_extra_info(self, info: str) -> Any:
        return self._sock if info == "socket" else None


_HEADER_NAME = re.compile(r"[!-9;-~]+")
"""A header name the email parser takes as it is: printable ASCII, no space, no colon."""


def _parse_headers(lines: list[bytes]) -> tuple[http.client.HTTPMessage, list[tuple[str, str]]]:
    """The response's header block (``lines``, its blank line last) as ``http.client.parse_headers``
    makes it, and its (name, value) pairs in order.

    parse_headers runs the block through the email package's feed parser, line by line and
    through its header policy: a sixth of a controller's request CPU in a profile. A block of
    plain ``Name: value`` lines (what the apiserver sends) is split here into the same pairs;
    any other (folded lines, a line without a colon, a stray CR) goes to parse_headers' own
    parser."""
    pairs: list[tuple[str, str]] = []
    for line in lines[:-1]:
        text = line.decode("iso-8859-1").rstrip("\r\n")
        name, colon, value = text.partition(":")
        if not colon or "\r" in text or "\n" in text or not _HEADER_NAME.fullmatch(name):
            parsed = email.parser.Parser(_class=http.client.HTTPMessage).parsestr(b"".join(lines).decode("iso-8859-1"))
            assert isinstance(parsed, http.client.HTTPMessage)
            return parsed, list(parsed.items())
        pairs.append((name, value.lstrip(" \t")))
    message = http.client.HTTPMessage()
    for name, value in pairs:
        message.set_raw(name, value)
    return message, pairs


class _Response(http.client.HTTPResponse):
    """``http.client.HTTPResponse`` whose headers are parsed by ``_parse_headers``; the rest of
    ``begin`` (status line, 1xx answers skipped, framing, keep-alive) is the standard library's,
    rule for rule."""

    header_pairs: list[tuple[str, str]] = []
    """The headers as (name, value) pairs, in order: what ``getheaders()`` gives."""

    def begin(self) -> None:
        if self.headers is not None:
            return
        while True:
            version, status, reason = self._read_status()
            if status != http.client.CONTINUE:
                break
            _read_header_lines(self.fp)  # a 100 Continue's headers, skipped
        self.code = self.status = status
        self.reason = reason.strip()
        if version in ("HTTP/1.0", "HTTP/0.9"):
            self.version = 10
        elif version.startswith("HTTP/1."):
            self.version = 11
        else:
            raise http.client.UnknownProtocol(version)
        message, self.header_pairs = _parse_headers(_read_header_lines(self.fp))
        self.headers = self.msg = message
        first: dict[str, str] = {}
        for name, value in self.header_pairs:
            first.setdefault(name.lower(), value)  # Message.get: the first of a name
        encoding = first.get("transfer-encoding")
        self.chunked = encoding is not None and encoding.lower() == "chunked"
        if self.chunked:
            self.chunk_left = None
        self.will_close = _will_close(self.version, first)
        self.length = None
        length = first.get("content-length")
        if length and not self.chunked:
            try:
                self.length = int(length)
            except ValueError:
                self.length = None
            else:
                if self.length < 0:
                    self.length = None
        if status in (http.client.NO_CONTENT, http.client.NOT_MODIFIED) or 100 <= status < 200 or self._method == "HEAD":
            self.length = 0
        if not self.will_close and not self.chunked and self.length is None:
            self.will_close = True


def _will_close(version: int, first: dict[str, str]) -> bool:
    """HTTPResponse._check_close on the headers' first values by lower-cased name."""
    connection = first.get("connection")
    if version == 11:
        return bool(connection) and "close" in connection.lower()  # type: ignore[union-attr]
    if first.get("keep-alive"):
        return False
    if connection and "keep-alive" in connection.lower():
        return False
    proxy = first.get("proxy-connection")
    return not (proxy and "keep-alive" in proxy.lower())


def _read_header_lines(fp: Any) -> list[bytes]:
    """The header block's lines up to and with the blank line, bounded as http.client bounds them."""
    lines: list[bytes] = []
    while True:
        line = fp.readline(http.client._MAXLINE + 1)  # type: ignore[attr-defined]
        if len(line) > http.client._MAXLINE:  # type: ignore[attr-defined]
            raise http.client.LineTooLong("header line")
        lines.append(line)
        if len(lines) > http.client._MAXHEADERS:  # type: ignore[attr-defined]
            raise http.client.HTTPException(f"got more than {http.client._MAXHEADERS} headers")  # type: ignore[attr-defined]
        if line in (b"\r\n", b"\n", b""):
            return lines


class _Connection(http.client.HTTPConnection):
    """One connection: the dial, keepalive options and (for https) the TLS handshake."""

    response_class = _Response

    def __init__(self, key: tuple[str, str, int, str | None], ssl_context: ssl.SSLContext | None,
                 socket_options: list[tuple[int, int, int]], connect_timeout: float | None,
                 tls_handshake_timeout: float | None = None) -> None:
        scheme, host, port, self.sni = key
        super().__init__(host, port, timeout=connect_timeout)
        self.key = key
        self._tls = ssl_context if scheme == "https" else None
        self._socket_options = socket_options
        bounds = [t for t in (connect_timeout, tls_handshake_timeout) if t is not None]
        self._handshake_timeout = min(bounds) if bounds else None
        self.idle_since = 0.0
        self.reused = False

    def connect(self) -> None:
        sock = socket.create_connection((self.host, self.port), self.timeout)
        try:
            for level, option, value in self._socket_options:
                sock.setsockopt(level, option, value)
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            if self._tls is not None:
                sock.settimeout(self._handshake_timeout)
                try:
                    sock = self._tls.wrap_socket(sock, server_hostname=self.sni or self.host)
                except TimeoutError as e:
                    raise TimeoutError("TLS handshake timeout") from e  # Go: "net/http: TLS handshake timeout"
        except BaseException:
            sock.close()
            raise
        self.sock = sock

    def closed_by_peer(self) -> bool:
        """An idle connection the server closed (or wrote to: no answer is due) is unusable.
        poll, where the platform has it: select cannot watch a descriptor above 1023."""
        if self.sock is None:
            return True
        try:
            if hasattr(select, "poll"):
                poller = select.poll()
                poller.register(self.sock, select.POLLIN)
                return bool(poller.poll(0))
            readable, _, _ = select.select([self.sock], [], [], 0)
        except (OSError, ValueError):
            return True
        return bool(readable)


class _Body(httpx.SyncByteStream):
    """A response's body as it arrives; at its end the connection goes back to the pool."""

    def __init__(self, transport: "HTTP11Transport", conn: _Connection, response: http.client.HTTPResponse) -> None:
        self._transport, self._response = transport, response
        self._conn: _Connection | None = conn
        self._ended = False

    def __iter__(self) -> Iterator[bytes]:
        read1 = self._response.read1
        while True:
            try:
                data = read1(65536)
            except Exception as e:  # noqa: BLE001 - mapped to httpx's errors
                raise _read_error(e) from e
            if not data:
                self._ended = True
                return
            yield data

    def close(self) -> None:
        conn, response, self._conn = self._conn, self._response, None
        if conn is None:
            return
        if self._ended and not response.will_close:
            response.close()  # the file over the socket; the socket stays the connection's
            self._transport._release(conn)
        else:
            conn.close()


def _read_error(error: BaseException) -> httpx.TransportError:
    if isinstance(error, TimeoutError):
        return httpx.ReadTimeout(str(error) or "timed out")
    if isinstance(error, http.client.RemoteDisconnected):  # before any byte of an answer: httpcore's words
        return httpx.RemoteProtocolError("Server disconnected without sending a response.")
    if isinstance(error, http.client.IncompleteRead):
        return httpx.RemoteProtocolError("peer closed connection without sending complete message body")
    if isinstance(error, http.client.HTTPException):
        return httpx.RemoteProtocolError(f"{type(error).__name__}: {error}")
    return httpx.ReadError(str(error) or type(error).__name__)


class _Stale(Exception):
    """A reused connection failed before any answer: the caller may send again."""


class HTTP11Transport(httpx.BaseTransport):
    """HTTP/1.1 on ``http.client`` (see the module docstring); thread-safe."""

    def __init__(self, ssl_context: ssl.SSLContext, socket_options: list[tuple[int, int, int]],
                 max_idle: int = 25, idle_timeout: float = 90.0, *, tls_handshake_timeout: float | None = TLS_HANDSHAKE_TIMEOUT) -> None:
        self._ssl_context = ssl_context
        self._tls_handshake_timeout = tls_handshake_timeout
        self._socket_options = socket_options
        self._max_idle = max_idle
        self._idle_timeout = idle_timeout
        self._idle: list[_Connection] = []
        self._lock = threading.Lock()
        self._closed = False

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        """Sends ``request`` on a pooled (or new) connection; the response's body is read as
        it is iterated (httpx's ``Client.send`` calls this)."""
        url = request.url
        if url.scheme not in ("http", "https"):
            raise httpx.UnsupportedProtocol(f"Request URL has an unsupported protocol '{url.scheme}://'.")
        timeouts = request.extensions.get("timeout") or {}
        sni = request.extensions.get("sni_hostname")
        key = (url.scheme, url.host, url.port or (443 if url.scheme == "https" else 80),
               sni.decode("ascii") if isinstance(sni, bytes) else sni)
        body = request.read()
        while True:
            conn = self._acquire(key, timeouts.get("connect"))
            try:
                response = self._exchange(conn, request, body, timeouts.get("read"))
            except _Stale as stale:
                conn.close()
                if request.method in IDEMPOTENT:
                    continue  # on a new connection: the pool gave out one the server had closed
                raise _read_error(stale.__cause__ or stale) from stale.__cause__
            except BaseException:
                conn.close()
                raise
            return httpx.Response(
                response.status,
                headers=response.header_pairs if isinstance(response, _Response) else response.getheaders(),
                stream=_Body(self, conn, response),
                extensions={"http_version": b"HTTP/1.1", "reason_phrase": response.reason.encode("latin-1"),
                            "network_stream": _NetworkStream(conn.sock)},
            )

    def _acquire(self, key: tuple[str, str, int, str | None], connect_timeout: float | None) -> _Connection:
        now = time.monotonic()
        with self._lock:
            for i in range(len(self._idle) - 1, -1, -1):
                conn = self._idle[i]
                if conn.key != key:
                    continue
                del self._idle[i]
                if now - conn.idle_since <= self._idle_timeout and not conn.closed_by_peer():
                    conn.reused = True
                    return conn
                conn.close()
        conn = _Connection(key, self._ssl_context, self._socket_options, connect_timeout, self._tls_handshake_timeout)
        try:
            conn.connect()
        except TimeoutError as e:
            raise httpx.ConnectTimeout(str(e) or "timed out") from e
        except (OSError, ssl.CertificateError) as e:
            raise httpx.ConnectError(str(e) or type(e).__name__) from e
        return conn

    def _exchange(self, conn: _Connection, request: httpx.Request, body: bytes,
                  read_timeout: float | None) -> http.client.HTTPResponse:
        assert conn.sock is not None
        conn.sock.settimeout(read_timeout)
        reused = conn.reused
        try:
            conn.putrequest(request.method, request.url.raw_path.decode("ascii"), skip_host=True,
                            skip_accept_encoding=True)
            for name, value in request.headers.raw:
                conn.putheader(name, value)
            conn.endheaders(body or None)
        except TimeoutError as e:
            raise httpx.WriteTimeout(str(e) or "timed out") from e
        except OSError as e:
            if reused:
                raise _Stale() from e
            raise httpx.WriteError(str(e) or type(e).__name__) from e
        try:
            return conn.getresponse()
        except TimeoutError as e:
            raise httpx.ReadTimeout(str(e) or "timed out") from e
        except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError) as e:
            if reused:
                raise _Stale() from e
            raise httpx.RemoteProtocolError("Server disconnected without sending a response.") from e
        except http.client.HTTPException as e:
            raise httpx.RemoteProtocolError(f"{type(e).__name__}: {e}") from e
        except OSError as e:
            raise httpx.ReadError(str(e) or type(e).__name__) from e

    def _release(self, conn: _Connection) -> None:
        conn.idle_since = time.monotonic()
        with self._lock:
            if not self._closed:
                self._idle.append(conn)
                if len(self._idle) <= self._max_idle:
                    return
                conn = self._idle.pop(0)  # the longest idle goes
        conn.close()

    def close(self) -> None:
        """Closes the idle connections; those in use close when their responses do."""
        with self._lock:
            self._closed = True
            idle, self._idle = self._idle, []
        for conn in idle:
            conn.close()
