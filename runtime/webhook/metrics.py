"""What a webhook server and its certificate watcher report (controller-runtime's
pkg/webhook/internal/metrics and pkg/certwatcher/metrics), as hooks the server calls.

The webhook package stands on the values layer and publishes nothing itself: the manager that
owns a server (``kgen.controller``) hands it hooks writing into its registry, under
controller-runtime's names. Without hooks nothing is reported.

- ``WebhookMetrics``: per registered path (the ``webhook`` label), the requests in flight, each
  request's HTTP status code and its latency. ``instrument`` is called when a path is
  registered: controller-runtime's InstrumentedHook makes the 200 and 500 counters and the
  in-flight gauge exist, at 0, from then on.
- a handler that raises anything but its refusals (a Go handler's panic, which controller-runtime
  recovers and counts) is reported with ``webhook_panic`` (admission) or ``conversion_panic``
  (a conversion function); the server hands its hooks to each endpoint that reports them
  (``report_panics_to``).
- ``CertificateMetrics``: every read of the certificate and key files (each poll, the first load
  included), and every read that failed.
"""

from __future__ import annotations

from typing import Protocol

__all__ = ["CertificateMetrics", "NO_CERTIFICATE_METRICS", "NO_WEBHOOK_METRICS", "WebhookMetrics"]


class WebhookMetrics(Protocol):
    """Hooks a ``WebhookServer`` calls for the requests to its registered paths."""

    def instrument(self, path: str) -> None:
        """``path`` was registered: its series exist from now on."""

    def request_started(self, path: str) -> None:
        """A request to ``path`` is being served (one more in flight)."""

    def request_finished(self, path: str, code: int, seconds: float) -> None:
        """A request to ``path`` was answered with HTTP status ``code`` after ``seconds``."""

    def webhook_panic(self) -> None:
        """An admission handler raised an unexpected exception (answered 500)."""

    def conversion_panic(self) -> None:
        """A conversion function raised an unexpected exception (the conversion failed)."""


class CertificateMetrics(Protocol):
    """Hooks a ``CertWatcher`` calls as it reads its files."""

    def read(self) -> None:
        """The certificate and key files are being read."""

    def read_error(self) -> None:
        """That read failed (a file missing, or the pair not loading)."""


class _Nothing:
    def instrument(self, path: str) -> None:
        pass

    def request_started(self, path: str) -> None:
        pass

    def request_finished(self, path: str, code: int, seconds: float) -> None:
        pass

    def webhook_panic(self) -> None:
        pass

    def conversion_panic(self) -> None:
        pass

    def read(self) -> None:
        pass

    def read_error(self) -> None:
        pass


NO_WEBHOOK_METRICS: WebhookMetrics = _Nothing()
"""Reports nowhere (a server built without a manager)."""
NO_CERTIFICATE_METRICS: CertificateMetrics = _Nothing()
"""Reports nowhere (a watcher built without a manager)."""
