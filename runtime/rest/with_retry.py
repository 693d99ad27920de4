"""client-go's rest/with_retry.go and the retry predicates of rest/request.go: which failed
attempts a request makes again, and how long it waits first. No I/O: the REST client's drivers
ask ``WithRetry`` after each attempt.

What client-go retries, up to ``max_retries`` (10) times:

- an answer 429 or 5xx that carries ``Retry-After`` as whole seconds (``checkWait``,
  ``retryAfterSeconds``: ``strconv.Atoi``, so ``1.5`` or an HTTP date is no retry), after that
  many seconds, for every verb and every kind of request;
- a connection error, by kind of request (``RequestKind``):

  - ``REQUEST`` (``Request.request``, behind Do): only a GET, and only on a connection reset,
    a probable EOF or a lost HTTP/2 connection (``IsConnectionReset``, ``IsProbableEOF``,
    ``IsHTTP2ConnectionLost``), as if the server had said ``Retry-After: 1``;
  - ``WATCH`` (``Request.Watch``): a probable EOF or a timeout (``IsProbableEOF``,
    ``IsTimeout``). kgen's read timeout on a watch is its stand-in for client-go's HTTP/2 health
    check, whose failure ("http2: client connection lost") client-go does not retry on a watch,
    so a read timeout is not retried; a connect timeout is;
  - ``STREAM`` (``Request.Stream``): never.

Never retried, as in client-go: connection refused, DNS failures, TLS and certificate errors,
a read timeout of a GET, any connection error of a write.
"""

from __future__ import annotations

import enum
import errno
import re
import ssl
from collections.abc import Iterator
from dataclasses import dataclass

import httpx

MAX_RETRIES = 10
"""client-go rest.Request's default maxRetries."""
_WHOLE = re.compile(r"[+-]?[0-9]+")


class RequestKind(enum.Enum):
    """What a request is for the retry and timeout rules: a whole-body request (Do/DoRaw), a watch, or
    another streamed answer (pods/log, ...)."""

    REQUEST = "request"  # Do / DoRaw: the body is read whole
    WATCH = "watch"  # a watch=true GET
    STREAM = "stream"  # any other streamed answer (pods/log, ...)


def atoi(value: str | None) -> int | None:
    """Go's ``strconv.Atoi``: an optional sign and decimal digits, nothing else (no spaces)."""
    return int(value) if value is not None and _WHOLE.fullmatch(value) else None


def retry_after(response: httpx.Response) -> int | None:
    """Seconds to wait before retrying ``response`` (client-go's checkWait), or None when it
    must not be retried: only 429 and 5xx answers with a whole-seconds ``Retry-After``."""
    if response.status_code != 429 and response.status_code < 500:
        return None
    seconds = atoi(response.headers.get("Retry-After"))
    return None if seconds is None else max(0, seconds)


# --- the errors, as client-go's apimachinery/pkg/util/net names them ----------------------------


def _chain(error: BaseException) -> Iterator[BaseException]:
    """``error`` and what it wraps: httpx wraps httpcore, which wraps the OSError or SSLError."""
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        yield current
        current = current.__cause__ or current.__context__


def is_connection_reset(error: BaseException) -> bool:
    """``IsConnectionReset``: ECONNRESET anywhere in the chain (also during the TLS handshake)."""
    return any(
        isinstance(e, ConnectionResetError) or (isinstance(e, OSError) and e.errno == errno.ECONNRESET)
        for e in _chain(error)
    )


def is_probable_eof(error: BaseException) -> bool:
    """``IsProbableEOF``: the server closed the connection (io.EOF, io.ErrUnexpectedEOF, an
    HTTP/2 GOAWAY, a reset). httpx says "server disconnected" (RemoteProtocolError); the ssl
    module says SSLEOFError or SSLZeroReturnError when the close interrupts TLS."""
    if isinstance(error, httpx.RemoteProtocolError) or is_connection_reset(error):
        return True
    return any(isinstance(e, (ssl.SSLEOFError, ssl.SSLZeroReturnError)) for e in _chain(error))


def is_http2_connection_lost(error: BaseException) -> bool:
    """``IsHTTP2ConnectionLost``: httpcore reports a terminated HTTP/2 connection as a
    RemoteProtocolError, which ``is_probable_eof`` already covers; named for the mapping."""
    return isinstance(error, httpx.RemoteProtocolError)


def is_retryable_error(kind: RequestKind, method: str, error: BaseException) -> bool:
    """client-go's isErrRetryableFunc of each kind of request (see the module docstring)."""
    if kind is RequestKind.REQUEST:
        if method != "GET":
            return False  # writes are not idempotent
        return is_connection_reset(error) or is_probable_eof(error) or is_http2_connection_lost(error)
    if kind is RequestKind.WATCH:
        return is_probable_eof(error) or isinstance(error, httpx.ConnectTimeout)
    return False


# --- one call's retries -----------------------------------------------------------------------


@dataclass
class RetryAfter:
    """The pending retry: how long the server asked to wait, which attempt it is, and why."""

    wait: float
    attempt: int
    reason: str


class WithRetry:
    """client-go's withRetry for one call: counts attempts and decides on the next one."""

    def __init__(self, max_retries: int = MAX_RETRIES) -> None:
        self.max_retries = max(0, max_retries)
        self.attempts = 0
        self.retry_after: RetryAfter | None = None

    def is_next_retry(
        self, kind: RequestKind, method: str, response: httpx.Response | None, error: BaseException | None
    ) -> RetryAfter | None:
        """After a failed attempt: the retry to make, or None to give up with this outcome."""
        self.attempts += 1
        self.retry_after = None
        if self.attempts > self.max_retries:
            return None
        if error is not None:
            if not is_retryable_error(kind, method, error):
                return None
            seconds = 1  # client-go retries these as if answered 500 with Retry-After: 1
            reason = f"due to retryable error, error: {type(error).__name__}"
        else:
            assert response is not None
            wait = retry_after(response)
            if wait is None:
                return None
            seconds = wait
            if response.status_code == 429:
                uid = response.headers.get("X-Kubernetes-PF-FlowSchema-UID", "")
                reason = f'due to server-side throttling, FlowSchema UID: "{uid}"'
            else:
                reason = str(response.status_code)
        self.retry_after = RetryAfter(
            float(seconds), self.attempts, f"retries: {self.attempts}, retry-after: {seconds}s - retry-reason: {reason}"
        )
        return self.retry_after
