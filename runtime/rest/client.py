"""The REST client: one request pipeline, sync (``RESTClient``) and async (``AsyncRESTClient``).

A request passes the client-side rate limiter (client-go's token bucket, QPS 5 / burst 10 by
default), is sent, and is retried — up to 10 times — when the server answers 429 or 5xx with
a ``Retry-After`` header, and, for GETs, when the connection was reset (client-go's rules,
rest/request.go). Error answers become typed exceptions (``kgen.runtime.apimachinery.errors``); server
``Warning`` headers are logged on the ``kgen.runtime.rest.client`` logger. Everything but the sending
and the sleeping is shared by the two flavours.
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

import httpx

from kgen.runtime.apimachinery.errors import ApiError, error_from_response
from kgen.runtime.rest.config import Config, token_bucket
from kgen.runtime.util.flowcontrol import TokenBucket

log = logging.getLogger("kgen.runtime.rest.client")

MAX_RETRIES = 10  # client-go rest.Request's default maxRetries
#: client-go dials with a 30 s timeout (transport/cache.go); no overall timeout unless configured.
CONNECT_TIMEOUT = 30.0
#: client-go logs throttling waits longer than this (rest/request.go longThrottleLatency).
LONG_THROTTLE_SECONDS = 0.05
#: Connection failures worth a retry of an idempotent GET (client-go: connection reset / EOF).
_RETRIABLE_GET_ERRORS = (httpx.RemoteProtocolError, httpx.ReadError, httpx.WriteError, httpx.ConnectError)
_WARNING = re.compile(r'^\s*299\s+\S+\s+"((?:[^"\\]|\\.)*)"')
_ESCAPED = re.compile(r"\\(.)")  # a warning's text is a quoted-string: \" and \\ stand for " and \


@dataclass
class Request:
    """One API call, described independently of how it is sent."""

    method: str
    path: str
    params: Sequence[tuple[str, str]] = ()
    body: bytes | None = None
    content_type: str | None = None
    accept: str = "application/json"
    stream: bool = False
    timeout: httpx.Timeout | None = None
    headers: dict[str, str] = field(default_factory=dict)

    def describe(self) -> str:
        return f"{self.method} {self.path}"


def retry_after(response: httpx.Response) -> float | None:
    """Seconds to wait before retrying ``response``, or None when it must not be retried."""
    if response.status_code != 429 and response.status_code < 500:
        return None
    value = response.headers.get("Retry-After")
    if value is None:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        return None


def _log_warnings(response: httpx.Response) -> None:
    for value in response.headers.get_list("Warning"):
        match = _WARNING.match(value)
        log.warning("server warning: %s", _ESCAPED.sub(r"\1", match.group(1)) if match else value)


class _Pipeline:
    """What both flavours share: building requests, the limiter, deciding on retries."""

    def __init__(
        self,
        config: Config,
        *,
        rate_limiter: TokenBucket | None | str = "default",
        max_retries: int = MAX_RETRIES,
    ) -> None:
        self.config = config
        self.max_retries = max_retries
        self.limiter = token_bucket(config.qps, config.burst) if isinstance(rate_limiter, str) else rate_limiter
        self._sni = config.tls_server_name

    def _client_kwargs(self) -> dict[str, Any]:
        return {
            "base_url": self.config.host,
            "verify": self.config.ssl_context(),
            "auth": self.config.httpx_auth(),
            "proxy": self.config.proxy_url or None,
            "trust_env": True,  # HTTPS_PROXY / NO_PROXY, when the kubeconfig sets no proxy-url
            "timeout": httpx.Timeout(self.config.timeout, connect=CONNECT_TIMEOUT),
            "headers": {"User-Agent": self.config.user_agent},
        }

    def build(self, http: httpx.Client | httpx.AsyncClient, req: Request) -> httpx.Request:
        headers = {"Accept": req.accept, **req.headers}
        if req.content_type:
            headers["Content-Type"] = req.content_type
        extensions: dict[str, Any] = {}
        if self._sni:
            extensions["sni_hostname"] = self._sni
        if req.timeout is not None:
            extensions["timeout"] = req.timeout.as_dict()
        return http.build_request(
            req.method, req.path, params=list(req.params), content=req.body, headers=headers, extensions=extensions
        )

    def throttle_delay(self) -> float:
        if self.limiter is None:
            return 0.0
        delay = self.limiter.reserve()
        if delay > 1.0:
            log.info("waited %.2fs due to client-side throttling, not priority and fairness", delay)
        elif delay > LONG_THROTTLE_SECONDS:
            log.debug("waited %.3fs due to client-side throttling, not priority and fairness", delay)
        return delay

    def error_delay(self, req: Request, error: Exception, attempt: int) -> float | None:
        if req.method == "GET" and isinstance(error, _RETRIABLE_GET_ERRORS) and attempt < self.max_retries:
            return 1.0  # client-go retries these as if the server had said Retry-After: 1
        return None

    def response_delay(self, response: httpx.Response, attempt: int) -> float | None:
        return retry_after(response) if attempt < self.max_retries else None

    @staticmethod
    def check(req: Request, response: httpx.Response) -> None:
        _log_warnings(response)
        if response.status_code >= 400:
            raise error_from_response(response.status_code, response.content, req.describe())


class RESTClient(_Pipeline):
    """Sends ``Request``s with httpx.Client. Use as a context manager or call ``close()``."""

    def __init__(self, config: Config, *, transport: httpx.BaseTransport | None = None, **kwargs: Any) -> None:
        super().__init__(config, **kwargs)
        self.http = httpx.Client(transport=transport, **self._client_kwargs())

    def send(self, req: Request) -> httpx.Response:
        """Sends ``req``; the response body is read unless ``req.stream`` (then close it)."""
        attempt = 0
        while True:
            wait = self.throttle_delay()
            if wait:
                time.sleep(wait)
            try:
                response = self.http.send(self.build(self.http, req), stream=True)
            except httpx.TransportError as e:
                delay = self.error_delay(req, e, attempt)
                if delay is None:
                    raise
                log.debug("%s: %s; retrying in %.1fs", req.describe(), type(e).__name__, delay)
                time.sleep(delay)
                attempt += 1
                continue
            delay = self.response_delay(response, attempt)
            if delay is not None:
                response.close()
                log.debug("%s: HTTP %d; retrying in %.1fs", req.describe(), response.status_code, delay)
                time.sleep(delay)
                attempt += 1
                continue
            if not req.stream or response.status_code >= 400:
                response.read()
                response.close()
            self.check(req, response)
            return response

    @contextmanager
    def stream(self, req: Request) -> Iterator[httpx.Response]:
        req.stream = True
        response = self.send(req)
        try:
            yield response
        finally:
            response.close()

    def close(self) -> None:
        self.http.close()

    def __enter__(self) -> "RESTClient":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class AsyncRESTClient(_Pipeline):
    """``RESTClient`` on asyncio, with httpx.AsyncClient."""

    def __init__(self, config: Config, *, transport: httpx.AsyncBaseTransport | None = None, **kwargs: Any) -> None:
        super().__init__(config, **kwargs)
        self.http = httpx.AsyncClient(transport=transport, **self._client_kwargs())

    async def send(self, req: Request) -> httpx.Response:
        attempt = 0
        while True:
            wait = self.throttle_delay()
            if wait:
                await asyncio.sleep(wait)
            try:
                response = await self.http.send(self.build(self.http, req), stream=True)
            except httpx.TransportError as e:
                delay = self.error_delay(req, e, attempt)
                if delay is None:
                    raise
                log.debug("%s: %s; retrying in %.1fs", req.describe(), type(e).__name__, delay)
                await asyncio.sleep(delay)
                attempt += 1
                continue
            delay = self.response_delay(response, attempt)
            if delay is not None:
                await response.aclose()
                log.debug("%s: HTTP %d; retrying in %.1fs", req.describe(), response.status_code, delay)
                await asyncio.sleep(delay)
                attempt += 1
                continue
            if not req.stream or response.status_code >= 400:
                await response.aread()
                await response.aclose()
            self.check(req, response)
            return response

    @asynccontextmanager
    async def stream(self, req: Request) -> AsyncIterator[httpx.Response]:
        req.stream = True
        response = await self.send(req)
        try:
            yield response
        finally:
            await response.aclose()

    async def close(self) -> None:
        await self.http.aclose()

    async def __aenter__(self) -> "AsyncRESTClient":
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()


__all__ = ["ApiError", "AsyncRESTClient", "MAX_RETRIES", "RESTClient", "Request", "retry_after"]
