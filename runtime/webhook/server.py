"""``WebhookServer``: HTTPS for admission and conversion webhooks (controller-runtime's
``webhook.Server``), on the standard library's threading HTTP server.

- TLS on every connection, with the certificate the ``CertWatcher`` loaded last: the server
  accepts plain sockets and wraps each one with the watcher's current context, so a rotated
  certificate is served to the next connection without a restart. The handshake runs on the
  connection's own thread, so a slow or broken client never holds up ``accept``.
- Paths are registered explicitly (``register("/validate-configmap", endpoint)``); anything else
  is 404, any method but POST 405. HTTP/1.1 keep-alive, because the apiserver reuses its
  connections to a webhook.
- A body must come with Content-Length and be at most ``max_request_bytes`` (7 MiB, as
  controller-runtime's admission webhook limits it): a larger one is refused with 413 before
  it is read. A request whose body stops arriving is dropped after ``read_timeout``.
- Nothing logs a request body: admission requests carry Secrets. The access log (DEBUG) has
  the method, path and status only.
- ``started_checker()`` is a readiness check (controller-runtime's ``StartedChecker``): it
  passes once the server listens and completes a TLS handshake (without verifying the
  certificate, as controller-runtime's dials), so a pod is not Ready before its webhooks are.
- ``stop()`` is graceful: it stops accepting, closes idle keep-alive connections, lets the
  requests in flight finish (up to ``grace_period`` seconds), then closes what is left. A
  connection that had just sent a request line as it was closed loses that request; the
  apiserver reports it as a failed call under the webhook's ``failurePolicy``, as it does for
  any webhook that goes away.
- ``metrics`` (metrics.py) hears of every request to a registered path, whatever its method and
  answer, as controller-runtime instruments each registered handler; ``certificate_metrics``
  of every read of the certificate files. A manager hands both in, writing to its registry.
"""

from __future__ import annotations

import logging
import socket
import ssl
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from collections.abc import Callable
from types import TracebackType
from typing import Any

from kgen.runtime.webhook.cert_watcher import CertWatcher
from kgen.runtime.webhook.endpoint import Endpoint, Reply, text_reply
from kgen.runtime.webhook.metrics import NO_CERTIFICATE_METRICS, NO_WEBHOOK_METRICS, CertificateMetrics, WebhookMetrics

__all__ = ["DEFAULT_MAX_REQUEST_BYTES", "DEFAULT_PORT", "WebhookServer"]

_log = logging.getLogger("kgen.webhook.server")

DEFAULT_PORT = 9443
"""The port a webhook server listens on by default (controller-runtime's webhook.DefaultPort)."""
DEFAULT_MAX_REQUEST_BYTES = 7 * 1024 * 1024
"""The largest request body a webhook server reads (controller-runtime's admission maxRequestSize); larger is a 413."""
# A lingering close after an answer sent before the body was read, with Go net/http's figures:
# it reads up to 256 KiB of an unread body (maxPostHandlerReadBytes) and waits 500 ms
# (rstAvoidanceDelay) before closing.
_LINGER_SECONDS = 0.5
_LINGER_BYTES = 256 * 1024


class WebhookServer:
    """Serves registered ``Endpoint``s over HTTPS. ``start()`` runs it on background threads;
    ``stop()`` shuts it down; as a context manager it does both."""

    def __init__(
        self,
        cert_file: str | Path,
        key_file: str | Path,
        *,
        host: str = "",
        port: int = DEFAULT_PORT,
        cert_watch_interval: float = 10.0,
        max_request_bytes: int = DEFAULT_MAX_REQUEST_BYTES,
        read_timeout: float = 30.0,
        grace_period: float = 30.0,
        metrics: WebhookMetrics = NO_WEBHOOK_METRICS,
        certificate_metrics: CertificateMetrics = NO_CERTIFICATE_METRICS,
    ) -> None:
        self.cert_watcher = CertWatcher(cert_file, key_file, interval=cert_watch_interval, metrics=certificate_metrics)
        self.metrics = metrics
        self.host = host
        self.max_request_bytes = max_request_bytes
        self.read_timeout = read_timeout
        self.grace_period = grace_period
        self._endpoints: dict[str, Endpoint] = {}
        self._requested_port = port
        self._httpd: _HTTPServer | None = None
        self._thread: threading.Thread | None = None

    def register(self, path: str, endpoint: Endpoint) -> None:
        """Serve ``endpoint`` at ``path`` (e.g. ``/validate-v1-configmap``)."""
        if not path.startswith("/"):
            raise ValueError(f"webhook path {path!r}: expected an absolute path starting with '/'")
        if path in self._endpoints:
            raise ValueError(f"webhook path {path!r} is already registered")
        self._endpoints[path] = endpoint
        self.metrics.instrument(path)
        report_panics_to = getattr(endpoint, "report_panics_to", None)
        if report_panics_to is not None:
            report_panics_to(self.metrics)

    @property
    def port(self) -> int:
        """The port listened on (the one the OS picked, when constructed with ``port=0``)."""
        if self._httpd is None:
            return self._requested_port
        port: int = self._httpd.server_address[1]
        return port

    def start(self) -> None:
        """Listen and serve on background threads (and start watching the certificate files); raises
        ``RuntimeError`` if already running."""
        if self._httpd is not None:
            raise RuntimeError("the webhook server is already running")
        self._httpd = _HTTPServer((self.host, self._requested_port), self)
        self.cert_watcher.start()
        self._thread = threading.Thread(target=self._httpd.serve_forever, name="kgen-webhook-server", daemon=True)
        self._thread.start()
        _log.info("webhook server listening on %s:%d for %s", self.host or "*", self.port, sorted(self._endpoints))

    def stop(self) -> None:
        """Stop accepting, wait up to ``grace_period`` seconds for requests in flight (then close their
        connections), and stop the certificate watcher. Does nothing if not running."""
        httpd = self._httpd
        if httpd is None:
            return
        httpd.stopping = True
        httpd.shutdown()  # no more accepts; returns once serve_forever has
        httpd.connections.close_idle()
        if not httpd.connections.wait_empty(self.grace_period):
            _log.warning("webhook server: requests still running after %.0f s; closing their connections", self.grace_period)
            httpd.connections.close_all()
        httpd.server_close()  # joins the connection threads
        self.cert_watcher.stop()
        if self._thread is not None:
            self._thread.join()
        self._httpd = self._thread = None

    def started_checker(self, timeout: float = 10.0) -> Callable[[], None]:
        """A check (returns to pass, raises to fail) for a readiness probe: the server was started
        and a TLS handshake with it completes."""

        def check() -> None:
            if self._httpd is None:
                raise RuntimeError("the webhook server has not been started yet")
            host = self.host if self.host not in ("", "0.0.0.0") else "127.0.0.1"
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
            context.check_hostname = False
            context.verify_mode = ssl.CERT_NONE  # up and speaking TLS is the question, not who it is
            with socket.create_connection((host, self.port), timeout=timeout) as sock:
                context.wrap_socket(sock).close()

        return check

    def __enter__(self) -> WebhookServer:
        self.start()
        return self

    def __exit__(self, t: type[BaseException] | None, e: BaseException | None, tb: TracebackType | None) -> None:
        self.stop()

    def _endpoint(self, path: str) -> Endpoint | None:
        return self._endpoints.get(path.split("?", 1)[0])


class _Connections:
    """The open connections and whether each is idle (between requests) or busy, so a stop can
    close the idle ones at once and wait for the busy ones."""

    def __init__(self) -> None:
        self._busy: dict[socket.socket, bool] = {}
        self._changed = threading.Condition()

    def set(self, conn: socket.socket, busy: bool) -> None:
        with self._changed:
            self._busy[conn] = busy
            self._changed.notify_all()

    def remove(self, conn: socket.socket) -> None:
        with self._changed:
            self._busy.pop(conn, None)
            self._changed.notify_all()

    def close_idle(self) -> None:
        with self._changed:
            for conn, busy in self._busy.items():
                if not busy:
                    _shut(conn)

    def close_all(self) -> None:
        with self._changed:
            for conn in self._busy:
                _shut(conn)

    def wait_empty(self, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        with self._changed:
            while self._busy:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._changed.wait(left)
                for conn, busy in self._busy.items():  # gone idle after its last request
                    if not busy:
                        _shut(conn)
            return True


def _shut(conn: socket.socket) -> None:
    """Wake the connection's thread out of its read. ``socket.socket.shutdown`` on the plain
    socket: ``SSLSocket.shutdown`` would drop its TLS object under the reading thread."""
    try:
        socket.socket.shutdown(conn, socket.SHUT_RDWR)
    except OSError:
        pass  # already closed by its thread


class _HTTPServer(ThreadingHTTPServer):
    daemon_threads = False  # server_close joins the connection threads: the graceful part
    block_on_close = True

    def __init__(self, address: tuple[str, int], webhooks: WebhookServer) -> None:
        self.webhooks = webhooks
        self.connections = _Connections()
        self.stopping = False
        super().__init__(address, _Handler)

    def get_request(self) -> tuple[Any, Any]:
        conn, address = self.socket.accept()
        context = self.webhooks.cert_watcher.context()
        return context.wrap_socket(conn, server_side=True, do_handshake_on_connect=False), address

    def handle_error(self, request: Any, client_address: Any) -> None:
        # A client that fails the handshake or goes away is routine, not a server error to
        # print a traceback for (socketserver's default prints one to stderr).
        _log.debug("webhook connection from %s ended with an error", client_address[0], exc_info=True)


class _Handler(BaseHTTPRequestHandler):
    server: _HTTPServer
    protocol_version = "HTTP/1.1"
    server_version = "kgen-webhook"
    sys_version = ""

    def setup(self) -> None:
        self.server.connections.set(self.request, False)
        try:
            super().setup()
            # The read timeout bounds the handshake, an idle keep-alive connection and a body
            # that stops arriving alike.
            self.connection.settimeout(self.server.webhooks.read_timeout)
            self.request.do_handshake()
        except BaseException:
            self.server.connections.remove(self.request)  # finish() runs only after a setup that worked
            raise

    def finish(self) -> None:
        try:
            if self._unread_body:
                self._linger()
            super().finish()
        finally:
            self.server.connections.remove(self.request)

    _unread_body = False

    def _refuse_unread(self, reply: Reply) -> None:
        """Answer without reading the body, then close: the body cannot be skipped reliably."""
        self.close_connection = True
        self._unread_body = True
        self._reply(reply)

    def _linger(self) -> None:
        """Go's lingering close: read (and drop) what the client is still sending for a moment
        before closing, so its writes do not fail before it reads the answer. Closing at once
        would reset the connection, and the client would see a broken pipe, not the 411/413."""
        try:
            self.connection.settimeout(_LINGER_SECONDS)
            left = _LINGER_BYTES
            while left > 0:
                chunk = self.connection.recv(min(left, 65536))
                if not chunk:
                    break
                left -= len(chunk)
        except (OSError, ValueError):
            pass

    def handle_one_request(self) -> None:
        self.server.connections.set(self.request, False)
        if self.server.stopping:
            self.close_connection = True
            return
        super().handle_one_request()

    def parse_request(self) -> bool:
        self.server.connections.set(self.request, True)
        return super().parse_request()

    _status = 200  # what an answer-less request counts as (Go's promhttp delegator default)

    def _instrumented(self, serve: Callable[[], None]) -> None:
        """Serves a request to a registered path, reporting it to the server's metrics."""
        path = self.path.split("?", 1)[0]
        metrics = self.server.webhooks.metrics
        metrics.request_started(path)
        started = time.monotonic()
        self._status = 200
        try:
            serve()
        finally:
            metrics.request_finished(path, self._status, time.monotonic() - started)

    def do_POST(self) -> None:
        endpoint = self.server.webhooks._endpoint(self.path)
        if endpoint is None:
            self._discard_body_or_close()
            self._reply(text_reply(f"no webhook is served at {self.path.split('?', 1)[0]}", 404))
            return
        self._instrumented(lambda: self._post(endpoint))

    def _post(self, endpoint: Endpoint) -> None:
        length_header = self.headers.get("Content-Length")
        if self.headers.get("Transfer-Encoding") or length_header is None:
            self._refuse_unread(text_reply("a Content-Length is required (chunked bodies are not accepted)", 411))
            return
        try:
            length = int(length_header)
            if length < 0:
                raise ValueError
        except ValueError:
            self._refuse_unread(text_reply(f"Content-Length {length_header!r} is not a byte count"))
            return
        limit = self.server.webhooks.max_request_bytes
        if length > limit:
            self._refuse_unread(text_reply(f"request entity is too large; limit is {limit} bytes", 413))
            return
        body = self.rfile.read(length)
        if len(body) < length:
            self.close_connection = True
            return  # the client went away mid-body: nobody to answer
        try:
            reply = endpoint.serve(body, self.headers.get("Content-Type", ""))
        except Exception:  # an Endpoint must not raise; one that does gets a 500, not a dropped connection
            _log.exception("webhook endpoint %s failed", self.path.split("?", 1)[0])
            reply = text_reply("internal error in the webhook endpoint", 500)
        self._reply(reply)

    def _not_allowed(self) -> None:
        if self.server.webhooks._endpoint(self.path) is not None:
            self._instrumented(self._refuse_method)
        else:
            self._refuse_method()

    def _refuse_method(self) -> None:
        self._discard_body_or_close()
        reply = text_reply(f"method {self.command} is not allowed: webhooks take POST", 405)
        self._reply(reply, extra={"Allow": "POST"})

    do_GET = do_PUT = do_DELETE = do_PATCH = do_HEAD = do_OPTIONS = _not_allowed

    def _discard_body_or_close(self) -> None:
        """Keep the connection usable after refusing a request: its body has to be read past."""
        length = self.headers.get("Content-Length")
        if length is not None and length.isdigit() and int(length) <= self.server.webhooks.max_request_bytes:
            self.rfile.read(int(length))
        elif length is not None or self.headers.get("Transfer-Encoding"):
            self.close_connection = True
            self._unread_body = True

    def _reply(self, reply: Reply, extra: dict[str, str] | None = None) -> None:
        if self.server.stopping:
            self.close_connection = True
        self._status = reply.status
        self.send_response(reply.status)
        self.send_header("Content-Type", reply.content_type)
        self.send_header("Content-Length", str(len(reply.body)))
        for name, value in (extra or {}).items():
            self.send_header(name, value)
        if self.close_connection:
            self.send_header("Connection", "close")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(reply.body)

    def log_message(self, format: str, *args: Any) -> None:
        # The access log: request line and status, at DEBUG. Never headers or bodies.
        _log.debug("%s - %s", self.client_address[0], format % args)
