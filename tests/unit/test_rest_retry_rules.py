"""The pieces of client-go's retry policy that need no server: Retry-After parsing (strconv.Atoi),
the error predicates, the attempt count, flowcontrol.Backoff and the URL backoff
(client-go's backoff_test.go and urlbackoff_test.go, ported). The whole policy is compared
with client-go's on the real apiserver in tests/integration/test_rest_retries.py."""

from __future__ import annotations

import errno
import random
import ssl

import httpx
import pytest

from kgen.runtime.rest.urlbackoff import NoBackoff, URLBackoff, backoff_manager_from_env
from kgen.runtime.rest.with_retry import RequestKind, WithRetry, atoi, is_retryable_error, retry_after
from kgen.runtime.util.flowcontrol import Backoff


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _answer(status: int, retry_after_value: str | None) -> httpx.Response:
    headers = {} if retry_after_value is None else {"Retry-After": retry_after_value}
    return httpx.Response(status, headers=headers)


@pytest.mark.parametrize(
    ("value", "seconds"),
    [("0", 0), ("3", 3), ("+2", 2), ("-1", 0), ("1.5", None), (" 1", None), ("1 ", None), ("", None),
     ("Wed, 21 Oct 2015 07:28:00 GMT", None), ("1_0", None)],
)
def test_retry_after_is_whole_seconds_as_strconv_atoi_reads_them(value: str, seconds: int | None) -> None:
    assert retry_after(_answer(429, value)) == seconds
    assert retry_after(_answer(503, value)) == seconds


@pytest.mark.parametrize("status", [200, 301, 400, 404, 409, 499])
def test_retry_after_only_counts_on_429_and_5xx(status: int) -> None:
    assert retry_after(_answer(status, "1")) is None


def test_atoi_is_go_strconv_atoi() -> None:
    assert [atoi(v) for v in ("12", "-3", "+0", "1e3", "0x1", "٣", None)] == [12, -3, 0, None, None, None, None]


def _wrapped(cls: type[httpx.TransportError], cause: BaseException) -> httpx.TransportError:
    """As httpx raises them: the httpx error, caused by httpcore's, caused by the OSError."""
    try:
        try:
            raise cause
        except BaseException as inner:
            raise cls(str(inner)) from inner
    except httpx.TransportError as e:
        return e


RESET = _wrapped(httpx.ReadError, ConnectionResetError(errno.ECONNRESET, "Connection reset by peer"))
EOF_ = httpx.RemoteProtocolError("Server disconnected without sending a response.")
TLS_EOF = _wrapped(httpx.ConnectError, ssl.SSLEOFError(8, "EOF occurred in violation of protocol"))
HANDSHAKE_RESET = _wrapped(httpx.ConnectError, ConnectionResetError(errno.ECONNRESET, "reset"))
REFUSED = _wrapped(httpx.ConnectError, ConnectionRefusedError(errno.ECONNREFUSED, "Connection refused"))
DNS = _wrapped(httpx.ConnectError, OSError(-2, "Name or service not known"))
CERT = _wrapped(httpx.ConnectError, ssl.SSLCertVerificationError(1, "certificate verify failed"))
BROKEN_PIPE = _wrapped(httpx.WriteError, BrokenPipeError(errno.EPIPE, "Broken pipe"))
READ_TIMEOUT = httpx.ReadTimeout("timed out")
CONNECT_TIMEOUT = httpx.ConnectTimeout("timed out")


@pytest.mark.parametrize(
    ("error", "get", "post", "watch"),
    [
        (RESET, True, False, True),  # IsConnectionReset; IsProbableEOF has "connection reset by peer"
        (EOF_, True, False, True),  # IsProbableEOF (io.EOF), IsHTTP2ConnectionLost
        (TLS_EOF, True, False, True),
        (HANDSHAKE_RESET, True, False, True),
        (REFUSED, False, False, False),
        (DNS, False, False, False),
        (CERT, False, False, False),
        (BROKEN_PIPE, False, False, False),  # "write: broken pipe" is none of client-go's
        (READ_TIMEOUT, False, False, False),  # a watch's idle timeout: the health check's failure
        (CONNECT_TIMEOUT, False, False, True),  # IsTimeout, for a watch only
    ],
)
def test_connection_errors_retried_per_kind_of_request(
    error: httpx.TransportError, get: bool, post: bool, watch: bool
) -> None:
    assert is_retryable_error(RequestKind.REQUEST, "GET", error) is get
    assert is_retryable_error(RequestKind.REQUEST, "POST", error) is post
    assert is_retryable_error(RequestKind.REQUEST, "DELETE", error) is False
    assert is_retryable_error(RequestKind.WATCH, "GET", error) is watch
    assert is_retryable_error(RequestKind.STREAM, "GET", error) is False  # Stream: neverRetryError


def test_with_retry_allows_max_retries_then_gives_up() -> None:
    retry = WithRetry(max_retries=2)
    first = retry.is_next_retry(RequestKind.REQUEST, "GET", None, EOF_)
    assert first is not None and first.wait == 1.0 and first.attempt == 1
    second = retry.is_next_retry(RequestKind.REQUEST, "GET", _answer(429, "3"), None)
    assert second is not None and second.wait == 3.0 and "server-side throttling" in second.reason
    assert retry.is_next_retry(RequestKind.REQUEST, "GET", _answer(429, "0"), None) is None
    assert WithRetry(max_retries=0).is_next_retry(RequestKind.REQUEST, "GET", None, EOF_) is None


def test_backoff_doubles_to_its_cap_and_resets() -> None:
    """client-go's TestSlowBackoff."""
    clock = Clock()
    b = Backoff(1.0, 50.0, clock=clock)
    seen = []
    for _ in range(10):
        clock.now += 1
        seen.append(b.get("id"))
        b.next("id")
    assert seen == [0, 1, 2, 4, 8, 16, 32, 50, 50, 50]
    b.reset("id")
    assert b.get("id") == 0


def test_backoff_high_water_mark_and_expiry() -> None:
    """client-go's TestBackoffHighWaterMark, then the entry expiring after twice the cap."""
    clock = Clock()
    b = Backoff(1.0, 5.0, clock=clock)
    for _ in range(6):
        clock.now += 1
        b.next("id")
    clock.now += 6  # less than 2 * max since the last update: still at the cap
    b.next("id")
    assert b.get("id") == 5.0
    clock.now += 10.5  # more than 2 * max: starts over
    b.next("id")
    assert b.get("id") == 1.0
    clock.now += 10.5
    b.gc()
    assert b.get("id") == 0


def test_backoff_jitter_stays_within_its_factor() -> None:
    clock = Clock()
    b = Backoff(1.0, 1000.0, 0.5, clock=clock, rng=random.Random(7))
    b.next("id")
    first = b.get("id")
    b.next("id")
    assert 1.0 <= first < 1.5 and first * 2 <= b.get("id") < first * 2.5
    assert len({Backoff(1.0, 10.0, 0.5, rng=random.Random(seed)).get("x") for seed in range(3)}) == 1  # 0 until next


def test_url_backoff_grows_on_5xx_and_429_and_clears_on_anything_else() -> None:
    """client-go's TestURLBackoffFunctionality: per host, 429 and 5xx grow it, 300 clears it."""
    backoff = URLBackoff(Backoff(1.0, 60.0))
    expected = [0, 1, 2, 4, 8, 0, 1, 2]
    codes = [429, 500, 501, 502, 300, 500, 501, 502]
    for seconds, code in zip(expected, codes):
        assert backoff.calculate_backoff("http://1.2.3.4:100") == seconds
        backoff.update_backoff("http://1.2.3.4:100/responseCodeForFuncTest", None, code)
    assert backoff.calculate_backoff("http://1.2.3.4:100/other") == 4
    assert backoff.calculate_backoff("http://5.6.7.8:100") == 0


def test_backoff_manager_from_env_is_client_gos_read_exp_backoff_config() -> None:
    assert isinstance(backoff_manager_from_env({}), NoBackoff)
    assert isinstance(backoff_manager_from_env({"KUBE_CLIENT_BACKOFF_BASE": "1"}), NoBackoff)
    assert isinstance(backoff_manager_from_env({"KUBE_CLIENT_BACKOFF_BASE": "x", "KUBE_CLIENT_BACKOFF_DURATION": "5"}),
                      NoBackoff)
    manager = backoff_manager_from_env({"KUBE_CLIENT_BACKOFF_BASE": "2", "KUBE_CLIENT_BACKOFF_DURATION": "30"})
    assert isinstance(manager, URLBackoff)
    assert (manager.backoff.initial, manager.backoff.max_duration) == (2.0, 30.0)


class _Limiter:
    def __init__(self, delays: list[float]) -> None:
        self.delays = delays

    def reserve(self) -> float:
        return self.delays.pop(0)


class _Backoff:
    def __init__(self, delay: float) -> None:
        self.delay = delay
        self.updates: list[tuple[str, int]] = []

    def calculate_backoff(self, url: str) -> float:
        return self.delay

    def update_backoff(self, url: str, error: BaseException | None, code: int) -> None:
        self.updates.append((url, code))


@pytest.mark.parametrize("watch", [False, True])
def test_a_call_waits_for_the_limiter_then_the_backoff_and_on_a_retry_the_longer_wait_then_the_limiter(
    watch: bool,
) -> None:
    """client-go's order: request() throttles, then withRetry.Before sleeps the backoff; before a
    retry Before sleeps max(backoff, Retry-After), then throttles again. Watch() skips the first
    throttle."""
    from kgen.runtime.rest import Config
    from kgen.runtime.rest.client import Request, RESTClient

    backoff = _Backoff(2.0)
    limiter = _Limiter([0.25, 0.5])
    params = [("watch", "true")] if watch else []
    with RESTClient(Config(host="https://h:1"), rate_limiter=limiter, backoff=backoff) as rest:  # type: ignore[arg-type]
        call = rest.call(Request("GET", "/api/v1/pods", params, stream=watch))
        assert list(call.waits()) == ([] if watch else [0.25]) + [2.0]
        assert call.answered(_answer(429, "5"))
        assert list(call.waits()) == [5.0, 0.5 if not watch else 0.25]
        assert not call.answered(_answer(200, None))
    assert backoff.updates == [("https://h:1/api/v1/pods" + ("?watch=true" if watch else ""), 429)] + [
        ("https://h:1/api/v1/pods" + ("?watch=true" if watch else ""), 200)
    ]
