"""kgen's sync transport (runtime/rest/http11.py) on a local socket server: connections kept and
reused, one the server closed while idle never used again, an idempotent request sent again on a
new connection when a reused one fails before any answer (a write is not), the time bounds and
the errors httpx would raise (with the OSError under them, which with_retry reads), a streamed
body read as it arrives and stopped by shutting its socket down. The real apiserver runs the
same transport through the integration suites (test_transport, test_rest_retries,
test_informer_faults...)."""

from __future__ import annotations

import errno
import socket
import ssl
import threading
import time
from collections.abc import Callable, Iterator

import httpx
import pytest

from kgen.runtime.rest.http11 import HTTP11Transport
from kgen.runtime.rest.transport import socket_options
from kgen.runtime.rest.with_retry import is_connection_reset, is_probable_eof

OK = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}"


class Server:
    """Accepts connections and hands each to ``serve(conn, number)`` on its own thread."""

    def __init__(self, serve: Callable[[socket.socket, int], None]) -> None:
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.accepted = 0
        self._serve = serve
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                conn, _ = self.listener.accept()
            except OSError:
                return
            self.accepted += 1
            threading.Thread(target=self._serve, args=(conn, self.accepted), daemon=True).start()

    def close(self) -> None:
        self.listener.close()


def _requests(conn: socket.socket) -> Iterator[bytes]:
    """Each request's head (and a Content-Length body) read off ``conn``."""
    buffer = b""
    while True:
        while b"\r\n\r\n" not in buffer:
            data = conn.recv(65536)
            if not data:
                return
            buffer += data
        head, buffer = buffer.split(b"\r\n\r\n", 1)
        length = 0
        for line in head.split(b"\r\n")[1:]:
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"content-length":
                length = int(value)
        while len(buffer) < length:
            buffer += conn.recv(65536)
        buffer = buffer[length:]
        yield head


def _client(port: int, **timeouts: float) -> httpx.Client:
    transport = HTTP11Transport(ssl.create_default_context(), socket_options())
    return httpx.Client(base_url=f"http://127.0.0.1:{port}", transport=transport,
                        timeout=httpx.Timeout(timeouts.get("read"), connect=timeouts.get("connect", 5.0)))


@pytest.fixture
def keep_alive() -> Iterator[Server]:
    def serve(conn: socket.socket, _: int) -> None:
        with conn:
            for _head in _requests(conn):
                conn.sendall(OK)

    server = Server(serve)
    yield server
    server.close()


def test_one_connection_serves_many_requests_and_headers_arrive_as_sent(keep_alive: Server) -> None:
    with _client(keep_alive.port) as client:
        for _ in range(20):
            response = client.get("/api", headers={"X-Test": "a"})
            assert (response.status_code, response.json(), response.http_version) == (200, {}, "HTTP/1.1")
            assert response.headers["content-type"] == "application/json"
    assert keep_alive.accepted == 1


def test_a_connection_the_server_closed_while_idle_is_not_used() -> None:
    def serve(conn: socket.socket, _: int) -> None:
        with conn:
            for _head in _requests(conn):
                conn.sendall(OK)
                conn.shutdown(socket.SHUT_RDWR)  # answers, then closes: the pooled connection is dead
                return

    server = Server(serve)
    with _client(server.port) as client:
        for method in ("GET", "POST", "GET"):
            time.sleep(0.05)  # the FIN has arrived by the next request
            assert client.request(method, "/x", content=b"{}").status_code == 200
    assert server.accepted == 3
    server.close()


def _silent_after_first(conn: socket.socket, number: int) -> None:
    """The first connection answers once, then drops the next request unanswered (a server that
    closed its end as the request was on its way); later connections answer."""
    with conn:
        for count, _head in enumerate(_requests(conn)):
            if number == 1 and count == 1:
                conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
                return  # closed with a reset, no answer
            conn.sendall(OK)


def test_an_idempotent_request_is_sent_again_when_a_reused_connection_fails_before_any_answer() -> None:
    server = Server(_silent_after_first)
    with _client(server.port) as client:
        assert client.get("/first").status_code == 200
        assert client.get("/second").status_code == 200
    assert server.accepted == 2
    server.close()


def test_a_write_is_not_sent_again_on_a_new_connection() -> None:
    server = Server(_silent_after_first)
    with _client(server.port) as client:
        assert client.get("/first").status_code == 200
        with pytest.raises(httpx.TransportError) as raised:
            client.post("/second", content=b"{}")
    assert is_probable_eof(raised.value)  # what with_retry reads: the server dropped the connection
    assert server.accepted == 1


def test_a_server_that_drops_a_request_unanswered_is_httpcores_remote_protocol_error() -> None:
    """The apiserver drops the connection when a handler panics (tests/contract/test_patch_errors):
    the error is worded as httpcore words it, on a new connection and on a reused one."""
    def serve(conn: socket.socket, _: int) -> None:
        with conn:
            for head in _requests(conn):
                if b"/panic" in head.split(b"\r\n")[0]:
                    return  # closed with nothing sent
                conn.sendall(OK)

    server = Server(serve)
    with _client(server.port) as client:
        for _ in range(2):  # the first on a new connection, the second on the GET's, reused
            with pytest.raises(httpx.RemoteProtocolError, match="^Server disconnected without sending a response.$"):
                client.patch("/panic", content=b"[]")
            assert client.get("/ok").status_code == 200
    assert server.accepted == 3  # the GET's connection served the second PATCH
    server.close()
    server.close()


def test_a_silent_server_is_a_read_timeout() -> None:
    def serve(conn: socket.socket, _: int) -> None:
        with conn:
            for _head in _requests(conn):
                time.sleep(2)

    server = Server(serve)
    with _client(server.port, read=0.2) as client, pytest.raises(httpx.ReadTimeout):
        client.get("/slow")
    server.close()


def test_a_refused_connection_is_a_connect_error_naming_it() -> None:
    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    listener.close()
    with _client(port) as client, pytest.raises(httpx.ConnectError) as raised:
        client.get("/")
    assert "connection refused" in str(raised.value).lower()  # the reflector's backoff reads this
    assert any(isinstance(e, OSError) and e.errno == errno.ECONNREFUSED
               for e in (raised.value, raised.value.__cause__))


def test_a_connection_reset_mid_body_reads_as_one() -> None:
    def serve(conn: socket.socket, _: int) -> None:
        for _head in _requests(conn):
            conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n{\"partial\":")
            conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
            conn.close()
            return

    server = Server(serve)
    with _client(server.port) as client, pytest.raises(httpx.TransportError) as raised:
        client.get("/")
    assert is_connection_reset(raised.value) or is_probable_eof(raised.value)
    server.close()


def test_a_streamed_body_arrives_chunk_by_chunk_and_stops_when_its_socket_is_shut_down() -> None:
    release = threading.Event()

    def serve(conn: socket.socket, _: int) -> None:
        with conn:
            for _head in _requests(conn):
                conn.sendall(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n")
                conn.sendall(b"6\r\nfirst\n\r\n")
                release.wait(5)
                conn.sendall(b"7\r\nsecond\n\r\n")
                time.sleep(5)  # then silence: the client stops the stream
                return

    server = Server(serve)
    with _client(server.port) as client, client.stream("GET", "/watch") as response:
        chunks = response.iter_bytes()
        assert next(chunks) == b"first\n"  # before the server wrote the second: nothing waits for a full buffer
        release.set()
        assert next(chunks) == b"second\n"
        sock = response.extensions["network_stream"].get_extra_info("socket")
        threading.Timer(0.1, lambda: socket.socket.shutdown(sock, socket.SHUT_RDWR)).start()
        started = time.monotonic()
        with pytest.raises(httpx.TransportError):
            next(chunks)
        assert time.monotonic() - started < 2
    server.close()


def test_a_connection_on_a_descriptor_above_1023_is_still_reused(keep_alive: Server) -> None:
    """select() cannot watch such a descriptor; the stale-connection check must not drop it."""
    import os
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < 1100:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(2048, hard), hard))
    fillers = []
    try:
        while (fd := os.open(os.devnull, os.O_RDONLY)) <= 1030:
            fillers.append(fd)
        fillers.append(fd)
        with _client(keep_alive.port) as client:
            for _ in range(3):
                assert client.get("/api").status_code == 200
    finally:
        for fd in fillers:
            os.close(fd)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    assert keep_alive.accepted == 1
