"""``WebhookServer`` and ``CertWatcher`` (kgen.runtime.webhook) on a real TLS socket at 127.0.0.1.

- Registered paths answer over TLS (no SNI, as the apiserver calls an IP address), with
  keep-alive; other paths 404, other methods 405, chunked bodies 411, oversized bodies 413
  before they are read.
- Certificates are reloaded from their files: after a swap, new connections are served the new
  certificate (a client trusting only the new CA connects, one trusting only the old fails),
  while a connection opened before keeps working. A broken pair is skipped, the old one kept.
- ``stop()`` lets a request in flight finish, does not wait for idle keep-alive connections,
  and then refuses new ones. Request bodies never reach the log.
"""

from __future__ import annotations

import http.client
import json
import logging
import socket
import ssl
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from kgen.runtime.webhook import CertificateLoadError, CertWatcher, Reply, WebhookServer
from tests.support.webhook.certs import CertificateAuthority, client_context, write_pair


class Echo:
    """Answers with the body's length, and records what it was given."""

    def __init__(self) -> None:
        self.bodies: list[bytes] = []

    def serve(self, body: bytes, content_type: str) -> Reply:
        self.bodies.append(body)
        return Reply(200, json.dumps({"length": len(body), "contentType": content_type}).encode())


class Slow:
    """Holds its request until released, so a test can stop the server mid-request."""

    def __init__(self) -> None:
        self.entered = threading.Event()
        self.release = threading.Event()

    def serve(self, body: bytes, content_type: str) -> Reply:
        self.entered.set()
        self.release.wait(10)
        return Reply(200, b'{"done":true}')


@pytest.fixture
def ca() -> CertificateAuthority:
    return CertificateAuthority("webhook-test-ca")


@pytest.fixture
def server(tmp_path: Path, ca: CertificateAuthority) -> Iterator[WebhookServer]:
    cert, key = write_pair(ca.serving(["127.0.0.1"]), tmp_path)
    srv = WebhookServer(cert, key, host="127.0.0.1", port=0, cert_watch_interval=0.05, max_request_bytes=1024,
                        read_timeout=5, grace_period=10)
    srv.register("/echo", Echo())
    srv.start()
    yield srv
    srv.stop()


def connect(server: WebhookServer, ca: CertificateAuthority) -> http.client.HTTPSConnection:
    return http.client.HTTPSConnection("127.0.0.1", server.port, context=client_context(ca), timeout=10)


def post(conn: http.client.HTTPSConnection, path: str, body: bytes = b"{}") -> tuple[int, bytes, http.client.HTTPResponse]:
    conn.request("POST", path, body=body, headers={"Content-Type": "application/json"})
    response = conn.getresponse()
    return response.status, response.read(), response


def test_serves_a_registered_path_over_tls_with_keep_alive(server: WebhookServer, ca: CertificateAuthority) -> None:
    conn = connect(server, ca)
    status, body, _ = post(conn, "/echo", b'{"a":1}')
    assert (status, json.loads(body)) == (200, {"length": 7, "contentType": "application/json"})
    sock = conn.sock
    status, body, _ = post(conn, "/echo?timeout=10s", b"{}")  # the apiserver adds ?timeout=
    assert status == 200 and conn.sock is sock  # same connection, reused
    conn.close()


def test_unknown_paths_and_methods_are_refused(server: WebhookServer, ca: CertificateAuthority) -> None:
    conn = connect(server, ca)
    status, body, _ = post(conn, "/nothing")
    assert status == 404 and body == b"no webhook is served at /nothing\n"
    conn.request("GET", "/echo")
    response = conn.getresponse()
    assert response.status == 405 and response.getheader("Allow") == "POST"
    response.read()
    status, _, _ = post(conn, "/echo")  # the connection is still usable after both
    assert status == 200


def test_chunked_bodies_are_411_and_oversized_bodies_413_unread(server: WebhookServer, ca: CertificateAuthority) -> None:
    conn = connect(server, ca)
    conn.request("POST", "/echo", body=iter([b"{}"]), headers={"Content-Type": "application/json"}, encode_chunked=True)
    response = conn.getresponse()
    assert response.status == 411 and response.getheader("Connection") == "close"
    response.read()
    conn.close()
    conn = connect(server, ca)
    conn.putrequest("POST", "/echo")
    conn.putheader("Content-Type", "application/json")
    conn.putheader("Content-Length", str(10 * 1024 * 1024))
    conn.endheaders()  # no body sent: the answer must not wait for it
    response = conn.getresponse()
    assert response.status == 413
    assert response.read() == b"request entity is too large; limit is 1024 bytes\n"


def test_a_new_certificate_is_served_to_new_connections(tmp_path: Path, server: WebhookServer, ca: CertificateAuthority) -> None:
    before = connect(server, ca)
    assert post(before, "/echo")[0] == 200
    rotated = CertificateAuthority("webhook-test-ca-2")
    write_pair(rotated.serving(["127.0.0.1"]), tmp_path)
    deadline = time.monotonic() + 10
    while True:
        try:
            assert post(connect(server, rotated), "/echo")[0] == 200
            break
        except ssl.SSLCertVerificationError:
            assert time.monotonic() < deadline, "the rotated certificate was never served"
            time.sleep(0.05)
    with pytest.raises(ssl.SSLCertVerificationError):
        post(connect(server, ca), "/echo")
    assert post(before, "/echo")[0] == 200  # an open connection finishes on the old certificate


def test_a_broken_pair_is_skipped_and_the_old_certificate_kept(tmp_path: Path, ca: CertificateAuthority, caplog: pytest.LogCaptureFixture) -> None:
    cert, key = write_pair(ca.serving(["127.0.0.1"]), tmp_path)
    watcher = CertWatcher(cert, key)
    first = watcher.context()
    other = ca.serving(["127.0.0.1"])
    key.write_bytes(other.key_pem)  # the key rotated, the certificate not yet
    with caplog.at_level(logging.WARNING):
        assert watcher.read_certificates() is False
    assert watcher.context() is first
    assert str(cert) in caplog.text and "still serving" in caplog.text
    assert other.key_pem.decode().splitlines()[1] not in caplog.text
    cert.write_bytes(other.cert_pem)  # the rotation completes
    assert watcher.read_certificates() is True and watcher.context() is not first
    assert watcher.read_certificates() is False  # unchanged files: nothing to do


def test_a_missing_certificate_stops_the_start_with_the_file_named(tmp_path: Path) -> None:
    with pytest.raises(CertificateLoadError, match=r"tls\.crt.*tls\.key.*No such file"):
        WebhookServer(tmp_path / "tls.crt", tmp_path / "tls.key")


def test_stop_finishes_requests_in_flight_and_closes_idle_connections(tmp_path: Path, ca: CertificateAuthority) -> None:
    cert, key = write_pair(ca.serving(["127.0.0.1"]), tmp_path)
    srv = WebhookServer(cert, key, host="127.0.0.1", port=0, grace_period=10)
    slow = Slow()
    srv.register("/slow", slow)
    srv.register("/echo", Echo())
    srv.start()
    idle = connect(srv, ca)
    assert post(idle, "/echo")[0] == 200  # now idle, kept alive
    result: list[int] = []
    busy = threading.Thread(target=lambda: result.append(post(connect(srv, ca), "/slow")[0]))
    busy.start()
    assert slow.entered.wait(10)
    stopping = threading.Thread(target=srv.stop)
    started = time.monotonic()
    stopping.start()
    time.sleep(0.3)
    assert stopping.is_alive()  # waiting for the request in flight
    slow.release.set()
    busy.join(10)
    stopping.join(10)
    assert result == [200]
    assert not stopping.is_alive() and time.monotonic() - started < 5  # did not wait for the idle one
    with pytest.raises(OSError):
        post(connect(srv, ca), "/echo")


def test_a_plain_http_client_or_a_failed_handshake_does_not_disturb_the_server(server: WebhookServer, ca: CertificateAuthority, capsys: pytest.CaptureFixture[str]) -> None:
    with socket.create_connection(("127.0.0.1", server.port), timeout=5) as plain:
        plain.sendall(b"POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}")
        plain.recv(1024)
    assert post(connect(server, ca), "/echo")[0] == 200
    assert "Traceback" not in capsys.readouterr().err


def test_request_bodies_never_reach_the_log(server: WebhookServer, ca: CertificateAuthority, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG, logger="kgen.webhook")
    assert post(connect(server, ca), "/echo", b'{"data":{"token":"S3CR3T-T0K3N"}}')[0] == 200
    assert post(connect(server, ca), "/nowhere", b'{"data":{"token":"S3CR3T-T0K3N"}}')[0] == 404
    assert "POST /echo" in caplog.text  # the access log is there
    assert "S3CR3T-T0K3N" not in caplog.text


def test_an_endpoint_that_raises_is_a_500_not_a_dropped_connection(tmp_path: Path, ca: CertificateAuthority) -> None:
    class Broken:
        def serve(self, body: bytes, content_type: str) -> Reply:
            raise RuntimeError("bug")

    cert, key = write_pair(ca.serving(["127.0.0.1"]), tmp_path)
    with WebhookServer(cert, key, host="127.0.0.1", port=0) as srv:
        srv.register("/broken", Broken())
        conn = connect(srv, ca)
        status, body, _ = post(conn, "/broken")
        assert (status, body) == (500, b"internal error in the webhook endpoint\n")
        assert post(conn, "/broken")[0] == 500  # and the connection is still usable
