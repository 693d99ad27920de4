"""kgen's HTTP/1.1 transport parses a response's status line and headers itself
(runtime/rest/http11.py ``_Response``): the same status, reason, version, headers (in order),
framing (chunked, length) and keep-alive decision as ``http.client.HTTPResponse``, for the
apiserver's usual answers and for the odd ones the standard library's parser handles (folded
lines, lines without a colon, duplicates, HTTP/1.0, 1xx before the answer, HEAD, 204/304)."""

from __future__ import annotations

import http.client
import io
import itertools

import pytest

from kgen.runtime.rest.http11 import _Response

HEADS = [
    b"HTTP/1.1 200 OK\r\nAudit-Id: 1\r\nCache-Control: no-cache, private\r\nContent-Type: application/json\r\n"
    b"X-Kubernetes-Pf-Flowschema-Uid: a\r\nDate: Sun, 06 Dec 2026 15:00:00 GMT\r\nTransfer-Encoding: chunked\r\n\r\n",
    b"HTTP/1.1 201 Created\r\nContent-Length: 7\r\nContent-Type: application/json\r\n\r\n",
    b"HTTP/1.1 404 Not Found\r\ncontent-length: 7\r\nconnection: close\r\n\r\n",
    b"HTTP/1.1 200 OK\r\nWarning: 299 - \"a\"\r\nWarning: 299 - \"b\"\r\nContent-Length: 7\r\n\r\n",
    b"HTTP/1.1 200 OK\r\nX-Folded: a\r\n  b\r\nContent-Length: 7\r\n\r\n",
    b"HTTP/1.1 200 OK\r\nX-Tabs:\t value \t\r\nContent-Length: 7\r\n\r\n",
    b"HTTP/1.1 200 OK\r\nno colon here\r\nContent-Length: 7\r\n\r\n",
    b"HTTP/1.1 200 OK\r\nX-A: b\rc\r\nContent-Length: 7\r\n\r\n",
    b"HTTP/1.1 200 OK\r\n: empty name\r\nContent-Length: 7\r\n\r\n",
    b"HTTP/1.1 200 OK\nX-Lf: only\nContent-Length: 7\n\n",
    b"HTTP/1.1 200 OK\r\nX-Latin: caf\xe9\r\nContent-Length: -3\r\n\r\n",
    b"HTTP/1.1 200 OK\r\nContent-Length: x\r\n\r\n",
    b"HTTP/1.1 200 OK\r\nContent-Length: 7\r\nContent-Length: 9\r\nTransfer-Encoding: gzip, chunked\r\n\r\n",
    b"HTTP/1.1 204 No Content\r\n\r\n",
    b"HTTP/1.1 304 Not Modified\r\nConnection: keep-alive\r\n\r\n",
    b"HTTP/1.0 200 OK\r\nContent-Length: 7\r\n\r\n",
    b"HTTP/1.0 200 OK\r\nContent-Length: 7\r\nKeep-Alive: timeout=5\r\n\r\n",
    b"HTTP/1.0 200 OK\r\nConnection: Keep-Alive\r\nContent-Length: 7\r\n\r\n",
    b"HTTP/1.0 200 OK\r\nProxy-Connection: keep-alive\r\nContent-Length: 7\r\n\r\n",
    b"HTTP/1.1 100 Continue\r\nX-Skip: 1\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 7\r\n\r\n",
    b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n",
    b"HTTP/1.1 200 OK\r\n\r\n",
    b"HTTP/1.1 200 OK\r\nContent-Length: 7\r\n",  # the connection closed within the headers
]


class _Socket:
    def __init__(self, data: bytes) -> None:
        self.data = data

    def makefile(self, mode: str) -> io.BufferedReader:
        return io.BufferedReader(io.BytesIO(self.data))


def _body(response: http.client.HTTPResponse) -> object:
    try:
        return response.read()
    except http.client.HTTPException as e:  # the framing the headers chose does not fit the bytes
        return type(e)


def _state(response: http.client.HTTPResponse) -> tuple[object, ...]:
    return (response.status, response.reason, response.version, response.getheaders(), response.chunked,
            response.length, response.will_close, response.headers.get("content-type"),
            response.headers.get_all("warning"), _body(response))


@pytest.mark.parametrize(("head", "method"), list(itertools.product(HEADS, ["GET", "HEAD"])))
def test_a_response_reads_as_http_client_reads_it(head: bytes, method: str) -> None:
    data = head + b"7\r\n0123456\r\n0\r\n\r\n"  # a chunked body; the first 7 bytes for a Content-Length: 7
    expected = http.client.HTTPResponse(_Socket(data), method=method)  # type: ignore[arg-type]
    expected.begin()
    ours = _Response(_Socket(data), method=method)  # type: ignore[arg-type]
    ours.begin()
    assert ours.header_pairs == expected.getheaders()
    assert _state(ours) == _state(expected)


def test_bad_status_lines_and_too_many_headers_fail_as_http_client_fails() -> None:
    for data in (b"HTTP/2 200 OK\r\n\r\n", b"junk\r\n\r\n", b"HTTP/1.1 200 OK\r\n" + b"X: y\r\n" * 101 + b"\r\n",
                 b"HTTP/1.1 200 OK\r\nX: " + b"y" * 70000 + b"\r\n\r\n", b""):
        failures = []
        for cls in (http.client.HTTPResponse, _Response):
            try:
                cls(_Socket(data), method="GET").begin()  # type: ignore[arg-type]
            except http.client.HTTPException as e:
                failures.append((type(e), str(e)))
        assert len(failures) == 2 and failures[0] == failures[1], data[:40]
