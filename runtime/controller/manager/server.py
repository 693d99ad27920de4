"""The manager's plain-HTTP endpoints (probes, ``/metrics``) on the standard library's server.

controller-runtime serves its health probes and its metrics on two listeners of their own
(``HealthProbeBindAddress``, ``Metrics.BindAddress``). Each is an ``Endpoint`` here: a
ThreadingHTTPServer on one daemon thread, bound when the manager is built (so a port in use
fails there, and ``port`` is known before ``start`` when ``:0`` asked for any free one) and
serving from ``start`` until ``stop``. GET only; nothing else is served, and request lines are
not logged (probes arrive every few seconds).

Addresses are controller-runtime's: ``host:port``, ``:port`` for every interface, and ``"0"``
(or None) for no server at all.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

__all__ = ["Endpoint", "Route", "parse_address"]

Route = Callable[[str, dict[str, list[str]]], tuple[int, str, bytes]]
"""(path, query) -> (status, content type, body)."""


def parse_address(address: str | None) -> tuple[str, int] | None:
    """``"127.0.0.1:8081"`` → ("127.0.0.1", 8081); ``":8080"`` → ("", 8080); "0"/None → None."""
    if address is None or address == "0":
        return None
    host, sep, port = address.rpartition(":")
    if not sep or not port.isdigit():
        raise ValueError(f"bad bind address {address!r}: expected host:port, :port, or \"0\" to disable")
    return host.strip("[]"), int(port)


class Endpoint:
    """A plain-HTTP server on a background thread answering GET on ``routes`` (the metrics and probe
    endpoints)."""

    def __init__(self, address: tuple[str, int], routes: dict[str, Route]) -> None:
        self.routes = routes
        endpoint = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 - http.server's name
                parts = urlsplit(self.path)
                route = endpoint._route(parts.path)
                if route is None:
                    status, content_type, body = 404, "text/plain; charset=utf-8", b"404 page not found\n"
                else:
                    status, content_type, body = route(parts.path, parse_qs(parts.query, keep_blank_values=True))
                self.send_response(status)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(body)))
                self.send_header("X-Content-Type-Options", "nosniff")
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, format: str, *args: object) -> None:
                pass

        self._server = ThreadingHTTPServer(address, Handler)
        self._server.daemon_threads = True
        self._thread: threading.Thread | None = None

    @property
    def port(self) -> int:
        """The port listened on (the one the OS picked, when bound to port 0)."""
        return int(self._server.server_address[1])

    def _route(self, path: str) -> Route | None:
        for prefix, route in self.routes.items():
            if path == prefix or path.startswith(prefix.rstrip("/") + "/"):
                return route
        return None

    def start(self) -> None:
        """Serve on a daemon thread."""
        self._thread = threading.Thread(target=self._server.serve_forever, name=f"http-{self.port}", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stop serving (waiting for the thread) and close the socket."""
        if self._thread is not None:
            self._server.shutdown()
            self._thread.join()
        self._server.server_close()
