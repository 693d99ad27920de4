"""``CertWatcher``: the serving certificate, reloaded when its files change (controller-runtime's
``pkg/certwatcher``).

Serving certificates are rotated under a running webhook (cert-manager rewrites the Secret, the
kubelet swaps the mounted files), and a webhook that keeps serving the old one fails every call
once it expires. controller-runtime watches the files with fsnotify and also re-reads them on a
timer (fsnotify misses the kubelet's symlink swaps); without a dependency for file events, this
watcher polls: every ``interval`` seconds (10 by default) it reads both files and, when their
bytes differ from what it loaded last, builds a new ``ssl.SSLContext`` from them. The server
asks ``context()`` for every new connection, so new connections get the new certificate while
open ones finish on the old.

A pair that does not load (the key file rewritten before the certificate, a half-written file)
is logged and skipped; the previous context keeps serving and the next poll tries again. Only
the first load raises: a webhook must not start without a certificate. Messages name the files
and OpenSSL's reason, never their contents.

TLS 1.2 is the minimum, as controller-runtime's webhook server sets it.
"""

from __future__ import annotations

import logging
import ssl
import threading
from pathlib import Path

from kgen.runtime.webhook.metrics import NO_CERTIFICATE_METRICS, CertificateMetrics

__all__ = ["CertWatcher", "CertificateLoadError"]

_log = logging.getLogger("kgen.webhook.certwatcher")


class CertificateLoadError(ValueError):
    """The certificate or key file cannot be read, or they do not make a serving pair."""


class CertWatcher:
    """The serving certificate and key of a webhook server, reloaded when their files change (controller-runtime's
    certwatcher). The constructor loads the pair or raises ``CertificateLoadError``."""
    def __init__(self, cert_file: str | Path, key_file: str | Path, *, interval: float = 10.0,
                 metrics: CertificateMetrics = NO_CERTIFICATE_METRICS) -> None:
        self.metrics = metrics
        self.cert_file = Path(cert_file)
        self.key_file = Path(key_file)
        self.interval = interval
        self._lock = threading.Lock()
        self._loaded: tuple[bytes, bytes] | None = None
        self._context: ssl.SSLContext | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        if not self.read_certificates():
            raise CertificateLoadError(f"no certificate loaded from {self.cert_file} and {self.key_file}")

    def context(self) -> ssl.SSLContext:
        """The server-side TLS context of the certificate loaded last."""
        with self._lock:
            assert self._context is not None  # the constructor loaded one or raised
            return self._context

    def read_certificates(self) -> bool:
        """Reload the pair if the files' bytes changed; ``True`` if a new pair was loaded. The
        first load raises ``CertificateLoadError``; later failures keep the current pair. Every
        call counts as a read in ``metrics``, a failure also as a read error (certwatcher's)."""
        self.metrics.read()
        try:
            contents = (self.cert_file.read_bytes(), self.key_file.read_bytes())
            if contents == self._loaded:
                return False
            context = self._new_context()
        except (OSError, ssl.SSLError) as e:
            reason = getattr(e, "reason", None) or e.strerror or type(e).__name__
            message = f"loading the serving certificate {self.cert_file} with key {self.key_file}: {reason}"
            self.metrics.read_error()
            if self._context is None:
                raise CertificateLoadError(message) from None
            _log.warning("%s; still serving the certificate loaded before", message)
            return False
        with self._lock:
            self._context = context
            self._loaded = contents
        if self._thread is not None:
            _log.info("reloaded the serving certificate from %s", self.cert_file)
        return True

    def _new_context(self) -> ssl.SSLContext:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.minimum_version = ssl.TLSVersion.TLSv1_2
        context.load_cert_chain(str(self.cert_file), str(self.key_file))
        return context

    def start(self) -> None:
        """Poll the files every ``interval`` seconds on a daemon thread until ``stop``."""
        if self._thread is not None:
            return
        self._stop.clear()
        self._thread = threading.Thread(target=self._poll, name="kgen-webhook-certwatcher", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stop polling and wait for the polling thread to end."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
            self._thread = None

    def _poll(self) -> None:
        while not self._stop.wait(self.interval):
            self.read_certificates()
