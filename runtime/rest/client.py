"""The REST client: one request pipeline, sync (``RESTClient``) and async (``AsyncRESTClient``).

client-go's rest/request.go. Before its first attempt a request passes the client-side rate
limiter (client-go's token bucket, QPS 5 / burst 10 by default) — except a watch, which
client-go never throttles at first — and the backoff manager (none by default,
``kgen.runtime.rest.urlbackoff``). A failed attempt is made again when client-go would
(``kgen.runtime.rest.with_retry``: 429/5xx with Retry-After, a GET whose connection was reset
or closed), after the Retry-After wait or the backoff, whichever is longer, and through the rate
limiter again. Connections and their time bounds are ``kgen.runtime.rest.transport``'s.

Each call reports client-go's metrics (``kgen.runtime.rest.metrics``), and each attempt is
logged at DEBUG on the ``kgen.runtime.rest.client`` logger as klog does at -v=6: method, URL,
status and latency — never a credential: headers are not logged and query values that could
hold one (``access_token``, ...) are masked. Error answers become typed exceptions
(``kgen.runtime.apimachinery.errors``); server ``Warning`` headers are logged as warnings.
Everything but sending and sleeping is shared by the two flavours (``_Call``).
"""

from __future__ import annotations

import asyncio
import logging
import re
import time
from collections.abc import AsyncIterator, Iterator, Sequence
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote, urlsplit

import httpx

from kgen.runtime.apimachinery.errors import ApiError, error_from_response
from kgen.runtime.rest.config import Config, token_bucket
from kgen.runtime.rest.content_encoding import decode_every_gzip_member
from kgen.runtime.rest.metrics import ERROR_CODE, RESTMetrics, final_url_template, registered
from kgen.runtime.rest.transport import CONNECT_TIMEOUT, client_kwargs, request_timeout
from kgen.runtime.rest.urlbackoff import BackoffManager, backoff_manager_from_env
from kgen.runtime.rest.with_retry import MAX_RETRIES, RequestKind, WithRetry, retry_after
from kgen.runtime.util.flowcontrol import TokenBucket

log = logging.getLogger("kgen.runtime.rest.client")

MAX_BODY_SLURP = 2 << 10
"""client-go reads this much of an answer it retries, so that its connection can be reused."""
LONG_THROTTLE_SECONDS = 0.05
"""client-go logs throttling waits longer than this (rest/request.go longThrottleLatency)."""
SENSITIVE_PARAMS = frozenset({"access_token", "token", "id_token", "refresh_token", "password", "client_secret"})
"""Query parameters whose values are masked in logs: they may carry a credential."""
_WARNING = re.compile(r'^\s*299\s+\S+\s+"((?:[^"\\]|\\.)*)"')
_ESCAPED = re.compile(r"\\(.)")  # a warning's text is a quoted-string: \" and \\ stand for " and \


@dataclass
class Request:
    """One API call, described independently of how it is sent.

    ``timeout`` bounds this request's waits (seconds, or an httpx.Timeout per phase) instead of
    the client's defaults (``kgen.runtime.rest.transport``)."""

    method: str
    path: str
    params: Sequence[tuple[str, str]] = ()
    body: bytes | None = None
    content_type: str | None = None
    accept: str = "application/json"
    stream: bool = False
    timeout: httpx.Timeout | float | None = None
    headers: dict[str, str] = field(default_factory=dict)

    def describe(self) -> str:
        """The request as ``METHOD path``, for messages (no query: it may carry a credential)."""
        return f"{self.method} {self.path}"

    @property
    def kind(self) -> RequestKind:
        """What the request is for the retry and timeout rules: a whole-body request, a watch, or
        another stream."""
        if not self.stream:
            return RequestKind.REQUEST
        watch = any(key == "watch" and value in ("true", "1") for key, value in self.params)
        return RequestKind.WATCH if watch else RequestKind.STREAM


def _log_warnings(response: httpx.Response) -> None:
    for value in response.headers.get_list("Warning"):
        match = _WARNING.match(value)
        log.warning("server warning: %s", _ESCAPED.sub(r"\1", match.group(1)) if match else value)


def redacted_query(params: Sequence[tuple[str, str]]) -> str:
    """The query string with the values of credential-bearing parameters masked, for logs."""
    return "&".join(
        f"{quote(key, safe='')}={'<masked>' if key.lower() in SENSITIVE_PARAMS else quote(value, safe='')}"
        for key, value in params
    )


_BODY_METHODS = frozenset({"POST", "PUT", "PATCH"})
"""The methods httpx gives ``Content-Length: 0`` when they have no body."""
_PLAIN_PATH = re.compile(r"(?:/[A-Za-z0-9_~!$&'()*+,;=:@-][A-Za-z0-9._~!$&'()*+,;=:@-]*)+")
"""A path httpx.URL keeps as it is: nothing to percent-encode, no dot segment (``.``/``..``)."""
_PLAIN_QUERY = re.compile(r"(?:[A-Za-z0-9._~=&+-]|%[0-9A-Fa-f]{2})*")
"""A query (as httpx.QueryParams writes it) that httpx.URL keeps as it is."""


class _ClientDefaults:
    """What every request of one httpx client starts from: its default headers (lower-cased)
    and its base URL, parsed once."""

    def __init__(self, http: httpx.Client | httpx.AsyncClient) -> None:
        self.http = http
        self.headers = {k.lower(): v for k, v in http.headers.items()}
        self.base = http.base_url
        self.prefix = str(self.base).rstrip("/")
        reference = getattr(self.base, "_uri_reference", None)
        # httpx.URL's parsed form (a NamedTuple); without it (another httpx), every URL is parsed.
        self._reference = reference if hasattr(reference, "_replace") else None
        self._path_prefix = self.base.path.rstrip("/")

    def url(self, path: str, query: str) -> httpx.URL:
        """``httpx.URL(base + path + "?" + query)``, without parsing it again when it is plain."""
        reference = self._reference
        if reference is not None and reference.query is None and _PLAIN_PATH.fullmatch(path) \
                and _PLAIN_QUERY.fullmatch(query):
            url = httpx.URL(self.base)  # a copy that shares the parsed form, then the new one
            url._uri_reference = reference._replace(path=self._path_prefix + path, query=query or None)
            return url
        return httpx.URL(self.prefix + path + (f"?{query}" if query else ""))


class _Pipeline:
    """What both flavours share: the client's settings and building each attempt."""

    watch_list_semantics_unsupported: bool = False
    """client-go's IsWatchListSemanticsUnSupported: set when the transport says so (the fake's
    transports do), and reflectors then list and watch instead of streaming the list, as on
    client-go's fakes."""

    def __init__(
        self,
        config: Config,
        *,
        rate_limiter: TokenBucket | None | str = "default",
        max_retries: int = MAX_RETRIES,
        backoff: BackoffManager | None = None,
        metrics: RESTMetrics | None = None,
    ) -> None:
        self.config = config
        self.max_retries = max_retries
        self.limiter = token_bucket(config.qps, config.burst) if isinstance(rate_limiter, str) else rate_limiter
        self.backoff = backoff_manager_from_env() if backoff is None else backoff
        self.metrics = registered() if metrics is None else metrics
        parts = urlsplit(config.host)
        self.host = parts.netloc.rsplit("@", 1)[-1]  # never the userinfo
        self._base = f"{parts.scheme}://{self.host}{parts.path.rstrip('/')}"
        self._sni = config.tls_server_name
        self._client_defaults: _ClientDefaults | None = None

    def _defaults(self, http: httpx.Client | httpx.AsyncClient) -> _ClientDefaults:
        defaults = self._client_defaults
        if defaults is None or defaults.http is not http:
            defaults = self._client_defaults = _ClientDefaults(http)
        return defaults

    def build(self, http: httpx.Client | httpx.AsyncClient, req: Request) -> httpx.Request:
        """The httpx.Request of ``req`` on ``http``: what ``http.build_request(method, path,
        params=..., content=..., headers=...)`` makes (its URL, headers in their order, body),
        built directly, with the request's timeout and the kubeconfig's TLS server name."""
        defaults = self._defaults(http)
        headers = dict(defaults.headers)
        own = [("accept", req.accept), *req.headers.items()]
        if req.content_type:
            own.append(("content-type", req.content_type))
        for name, value in own:  # as Headers.update orders them: a client default set again moves last
            headers.pop(name.lower(), None)
            headers[name.lower()] = value
        extensions: dict[str, Any] = {}
        if self._sni:
            extensions["sni_hostname"] = self._sni
        params = list(req.params)
        timeout = req.timeout if req.timeout is not None else request_timeout(self.config, req.stream, params)
        extensions["timeout"] = (http.timeout if timeout is None else httpx.Timeout(timeout)).as_dict()
        # build_request parses the URL three times (its own, the base_url merge, the params
        # merge), and httpx.URL checks every character of it each time: a third of a request's
        # CPU in a controller's profile. A path and query that httpx would keep as they are
        # (plain characters, no dot segments) go into a copy of the base URL's parsed form; any
        # other is parsed by httpx.URL, once.
        query = str(httpx.QueryParams(tuple(params))) if params else ""
        url = defaults.url(req.path, query)
        body = req.body
        # The headers build_request gives (Host first; the body's Content-Length last, or 0 for a
        # write without one), encoded once, and the body as the stream: httpx.Request then skips
        # its own pass over them (encode_request, _prepare and two more Headers copies).
        raw: list[tuple[bytes, bytes]] = [(b"Host", url.netloc)] if url.host else []
        if not body and req.method in _BODY_METHODS:
            raw.append((b"Content-Length", b"0"))
        raw += [(name.encode("ascii"), value.encode("ascii")) for name, value in headers.items()]
        if body:
            raw.append((b"Content-Length", str(len(body)).encode("ascii")))
        built = httpx.Request(req.method, url, headers=raw, stream=httpx.ByteStream(body or b""), extensions=extensions)
        built.read()  # the body is bytes: loaded, as build_request loads it
        return built

    def call(self, req: Request) -> _Call:
        return _Call(self, req)

    @staticmethod
    def check(req: Request, response: httpx.Response) -> None:
        _log_warnings(response)
        if response.status_code >= 400:
            raise error_from_response(response.status_code, response.content, req.describe())


class _Call:
    """One ``send``: client-go's ``Request.request`` / ``Watch`` / ``Stream`` loop without the
    I/O. The driver sleeps each of ``waits()``, makes the attempt, and reports it with
    ``failed`` or ``answered``, which say whether to try again; ``done`` ends the call."""

    def __init__(self, pipeline: _Pipeline, req: Request) -> None:
        self.p = pipeline
        self.req = req
        self.kind = req.kind
        self.retry = WithRetry(pipeline.max_retries)
        self.started = time.monotonic()
        self.attempt_started = self.started
        self.url = pipeline._base + req.path + (f"?{redacted_query(req.params)}" if req.params else "")
        self.template = final_url_template(pipeline._base, req.path, [key for key, _ in req.params])

    def waits(self) -> Iterator[float]:
        """The sleeps before the next attempt, each computed once the previous one is over."""
        pending = self.retry.retry_after
        if pending is None:
            if self.kind is not RequestKind.WATCH:  # client-go does not throttle a watch at first
                yield self._throttle("")
            yield self.p.backoff.calculate_backoff(self.url)
        else:
            yield max(self.p.backoff.calculate_backoff(self.url), pending.wait)
            yield self._throttle(pending.reason)  # a retry passes the rate limiter again
            log.debug("Got a Retry-After response: delay %ss, attempt %d, url %s", pending.wait, pending.attempt, self.url)
        self.attempt_started = time.monotonic()

    def _throttle(self, reason: str) -> float:
        if self.p.limiter is None:
            return 0.0
        delay = self.p.limiter.reserve()
        self.p.metrics.rate_limiter_latency.observe(self.req.method, self.template, delay)
        if delay > LONG_THROTTLE_SECONDS:
            why = reason or "client-side throttling, not priority and fairness"
            log.log(logging.INFO if delay > 1.0 else logging.DEBUG, "waited %.3fs before %s %s: %s", delay,
                    self.req.method, self.url, why)
        return delay

    def _after(self, code: int, error: BaseException | None) -> None:
        label = str(code) if error is None else ERROR_CODE
        self.p.metrics.request_result.increment(label, self.req.method, self.p.host)
        if self.retry.retry_after is not None:
            self.p.metrics.request_retry.increment_retry(label, self.req.method, self.p.host)
        self.p.backoff.update_backoff(self.url, error, code)

    def failed(self, error: httpx.TransportError) -> bool:
        """The attempt got no answer: True to try again (after ``waits()``), False to raise."""
        ms = (time.monotonic() - self.attempt_started) * 1000
        log.debug("%s %s failed in %d milliseconds: %s: %s", self.req.method, self.url, ms, type(error).__name__, error)
        self._after(0, error)
        return self.retry.is_next_retry(self.kind, self.req.method, None, error) is not None

    def answered(self, response: httpx.Response) -> bool:
        """The attempt got an answer: True to drop it and try again."""
        ms = (time.monotonic() - self.attempt_started) * 1000
        log.debug("%s %s %d %s in %d milliseconds", self.req.method, self.url, response.status_code,
                  response.reason_phrase, ms)
        self._after(response.status_code, None)
        if self.kind is RequestKind.WATCH and response.status_code == 200:
            return False
        return self.retry.is_next_retry(self.kind, self.req.method, response, None) is not None

    def done(self) -> None:
        if self.kind is RequestKind.REQUEST:  # client-go times Do, not watches or streams
            self.p.metrics.request_latency.observe(self.req.method, self.template, time.monotonic() - self.started)


class _NoCookies(httpx.Cookies):
    """A jar that keeps nothing: client-go's http.Client has none, and httpx's extracting every
    response's cookies (through http.cookiejar's compatibility objects) was a sixth of a
    request's CPU in a profile of ConfigMap GETs."""

    def extract_cookies(self, response: httpx.Response) -> None:
        return None


def _keep_no_cookies(http: httpx.Client | httpx.AsyncClient) -> None:
    http._cookies = _NoCookies()  # the jar Client.send extracts into (httpx has no switch for it)


class RESTClient(_Pipeline):
    """Sends ``Request``s with httpx.Client. Use as a context manager or call ``close()``."""

    def __init__(self, config: Config, *, transport: httpx.BaseTransport | None = None, **kwargs: Any) -> None:
        super().__init__(config, **kwargs)
        self.http = httpx.Client(**client_kwargs(config, transport, asynchronous=False))
        _keep_no_cookies(self.http)
        self.watch_list_semantics_unsupported = bool(getattr(transport, "watch_list_semantics_unsupported", False))

    def send(self, req: Request) -> httpx.Response:
        """Sends ``req``; the response body is read unless ``req.stream`` (then close it)."""
        call = self.call(req)
        try:
            while True:
                for delay in call.waits():
                    if delay > 0:
                        time.sleep(delay)
                try:
                    response = self.http.send(self.build(self.http, req), stream=True)
                    decode_every_gzip_member(response)  # before any read: every gzip member
                except httpx.TransportError as e:
                    if call.failed(e):
                        continue
                    raise
                if call.answered(response):
                    try:  # readAndCloseResponseBody
                        read = 0
                        for chunk in response.iter_raw():
                            read += len(chunk)
                            if read > MAX_BODY_SLURP:
                                break
                    except httpx.HTTPError:
                        pass  # the connection is dropped, the retry goes on
                    finally:
                        response.close()
                    continue
                if not req.stream or response.status_code >= 400:
                    try:
                        response.read()
                    finally:
                        response.close()
                self.check(req, response)
                return response
        finally:
            call.done()

    @contextmanager
    def stream(self, req: Request) -> Iterator[httpx.Response]:
        """Send ``req`` as a stream: the response, its body unread, closed on leaving the block."""
        req.stream = True
        response = self.send(req)
        try:
            yield response
        finally:
            response.close()

    def close(self) -> None:
        """Close the connection pool."""
        self.http.close()

    def __enter__(self) -> "RESTClient":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class AsyncRESTClient(_Pipeline):
    """``RESTClient`` on asyncio, with httpx.AsyncClient."""

    def __init__(self, config: Config, *, transport: httpx.AsyncBaseTransport | None = None, **kwargs: Any) -> None:
        super().__init__(config, **kwargs)
        self.http = httpx.AsyncClient(**client_kwargs(config, transport, asynchronous=True))
        _keep_no_cookies(self.http)
        self.watch_list_semantics_unsupported = bool(getattr(transport, "watch_list_semantics_unsupported", False))

    async def send(self, req: Request) -> httpx.Response:
        """Send ``req`` through the rate limiter, backoff and retries; returns the response (its body
        read unless ``req.stream``) or raises the ``ApiError`` of a failed answer."""
        call = self.call(req)
        try:
            while True:
                for delay in call.waits():
                    if delay > 0:
                        await asyncio.sleep(delay)
                try:
                    response = await self.http.send(self.build(self.http, req), stream=True)
                    decode_every_gzip_member(response)  # before any read: every gzip member
                except httpx.TransportError as e:
                    if call.failed(e):
                        continue
                    raise
                if call.answered(response):
                    try:  # readAndCloseResponseBody
                        read = 0
                        async for chunk in response.aiter_raw():
                            read += len(chunk)
                            if read > MAX_BODY_SLURP:
                                break
                    except httpx.HTTPError:
                        pass  # the connection is dropped, the retry goes on
                    finally:
                        await response.aclose()
                    continue
                if not req.stream or response.status_code >= 400:
                    try:
                        await response.aread()
                    finally:
                        await response.aclose()
                self.check(req, response)
                return response
        finally:
            call.done()

    @asynccontextmanager
    async def stream(self, req: Request) -> AsyncIterator[httpx.Response]:
        """Send ``req`` as a stream: the response, its body unread, closed on leaving the block."""
        req.stream = True
        response = await self.send(req)
        try:
            yield response
        finally:
            await response.aclose()

    async def close(self) -> None:
        """Close the connection pool."""
        await self.http.aclose()

    async def __aenter__(self) -> "AsyncRESTClient":
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()


__all__ = [
    "ApiError", "AsyncRESTClient", "CONNECT_TIMEOUT", "MAX_RETRIES", "RESTClient", "Request", "redacted_query",
    "retry_after",
]
