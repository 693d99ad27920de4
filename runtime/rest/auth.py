"""Credentials: where a bearer token comes from, and how it is renewed after a 401.

``Credentials`` is the protocol every source of a bearer token implements; the sources are
client-go's, one class each:

- ``StaticToken``: a kubeconfig ``token``.
- ``TokenFile``: a kubeconfig ``tokenFile``, and the in-cluster service-account token. The file
  is re-read at most once a minute (client-go's ``NewCachedFileTokenSource``,
  transport/token_source.go), because kubelet rotates projected service-account tokens in
  place; a 401 forces a re-read.
- ``ExecCredential`` (``kgen.runtime.rest.exec_plugin``): an exec credential plugin.
- ``OIDCIdToken``: the ``oidc`` auth-provider's ``id-token`` (client-go's
  plugin/pkg/client/auth/oidc), a bearer token until its ``exp``. kgen does not run the refresh
  flow: an expired id-token is an error telling the user to log in again (or to switch to an
  exec credential plugin).

``BearerTokenAuth`` is the ``httpx.Auth`` that sends the token and, on a 401, invalidates the
credentials and retries the request once with a fresh token (client-go's bearer round tripper,
transport/round_trippers.go).

A token, key or password never reaches a log line, ``repr``, ``str`` or exception text: every
class here has a redacting ``__repr__``, and plugin output is only ever described, not quoted.
"""

from __future__ import annotations

import base64
import binascii
import json
import logging
import math
import os
import threading
import time
from collections.abc import AsyncGenerator, Callable, Generator
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import httpx

from kgen.runtime.rest.config import SERVICE_ACCOUNT_DIR

log = logging.getLogger("kgen.runtime.rest.auth")
"""The logger of token rotations, renewals and failures (never with a token)."""

TOKEN_FILE_REFRESH_SECONDS = 60.0
"""client-go re-reads a token file at most this often (transport/token_source.go)."""
_REDACTED = "<redacted>"


class CredentialError(Exception):
    """Credentials could not be produced (plugin failed, token file unreadable, token expired)."""


@runtime_checkable
class Credentials(Protocol):
    """A source of bearer tokens. Implementations are thread-safe.

    Optionally, ``cached_token()`` returns the current token when it can be had without I/O
    (else ``None``); the async flow uses it to avoid a worker thread on every request.
    """

    def token(self) -> str | None:
        """The current token, read, run or refreshed as needed."""
        ...

    def invalidate(self) -> None:
        """The server refused the token: the next ``token()`` re-reads or re-runs its source."""
        ...


class StaticToken:
    """A token given once (the kubeconfig's ``token``): never renewed."""

    def __init__(self, token: str) -> None:
        self._token = token

    def token(self) -> str:
        """The token."""
        return self._token

    def cached_token(self) -> str:
        """The token (no I/O needed)."""
        return self._token

    def invalidate(self) -> None:
        """Nothing to renew: the next request fails the same way, as in client-go."""

    def __repr__(self) -> str:
        return f"StaticToken({_REDACTED})"


class TokenFile:
    """A token kept in a file that someone else rotates (kubelet, a sidecar, a login tool).

    ``fallback`` is the kubeconfig's ``token`` when both ``token`` and ``tokenFile`` are set:
    client-go then prefers the file and falls back to the static token while the file cannot
    be read. A failed re-read keeps the last good token (and logs, without the token).
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        refresh_seconds: float = TOKEN_FILE_REFRESH_SECONDS,
        clock: Callable[[], float] = time.monotonic,
        fallback: str | None = None,
    ) -> None:
        self.path = Path(path)
        self._refresh_seconds = refresh_seconds
        self._clock = clock
        self._fallback = fallback
        self._token: str | None = None
        self._read_at = -math.inf
        self._lock = threading.Lock()

    def token(self) -> str:
        """The file's token, re-read when older than ``refresh_seconds`` (or invalidated); the fallback
        while the file cannot be read."""
        with self._lock:
            if self._token is None or self._stale():
                self._reread()
            assert self._token is not None
            return self._token

    def cached_token(self) -> str | None:
        """The token if it is fresh, else None (a re-read is due)."""
        with self._lock:
            return None if self._token is None or self._stale() else self._token

    def invalidate(self) -> None:
        """Re-read the file at the next ``token`` call."""
        with self._lock:
            self._read_at = -math.inf

    def _stale(self) -> bool:
        return self._clock() - self._read_at >= self._refresh_seconds

    def _reread(self) -> None:
        self._read_at = self._clock()
        try:
            token = self._read()
        except CredentialError as e:
            previous = self._token or self._fallback
            if previous is None:
                raise
            log.warning("%s; keeping the previous token", e)
            self._token = previous
            return
        if self._token is not None and token != self._token:
            log.debug("token file %s: token rotated", self.path)
        self._token = token

    def _read(self) -> str:
        try:
            token = self.path.read_text().strip()
        except OSError as e:
            raise CredentialError(f"cannot read token file {self.path}: {e.strerror}") from None
        except UnicodeDecodeError:
            raise CredentialError(f"token file {self.path} is not text") from None
        if not token:
            raise CredentialError(f"token file {self.path} is empty")
        return token

    def __repr__(self) -> str:
        return f"TokenFile({str(self.path)!r})"


def service_account_token(folder: str | os.PathLike[str] = SERVICE_ACCOUNT_DIR) -> TokenFile:
    """The in-cluster credentials: the pod's projected service-account token, re-read like client-go."""
    return TokenFile(Path(folder) / "token")


def _utcnow() -> datetime:
    return datetime.now(timezone.utc)


# -- httpx ----------------------------------------------------------------------------------


class BearerTokenAuth(httpx.Auth):
    """Sends ``Authorization: Bearer <token>``; a 401 invalidates the credentials and the
    request is retried once, when the credentials then yield a different token.

    client-go's bearer round tripper only resets its token source on a 401 (the next request
    gets the new token); retrying the one request here saves every caller a retry loop. A
    request that already carries an Authorization header is sent as it is, as in client-go.
    """

    requires_request_body = True  # a 401 may need the request sent again

    def __init__(self, credentials: Credentials) -> None:
        self.credentials = credentials

    def __repr__(self) -> str:
        return f"BearerTokenAuth({self.credentials!r})"

    def auth_flow(self, request: httpx.Request) -> Generator[httpx.Request, httpx.Response, None]:
        """httpx's auth flow: send with the bearer token; on a 401, invalidate and retry once if the
        token changed."""
        if "Authorization" in request.headers:
            yield request
            return
        used = self.credentials.token()
        response = yield _authorized(request, used)
        if response.status_code == 401:
            fresh = self._renewed(used)
            if fresh is not None:
                yield _authorized(request, fresh)

    async def async_auth_flow(self, request: httpx.Request) -> AsyncGenerator[httpx.Request, httpx.Response]:
        # The same flow as auth_flow; only getting a token differs: it may run a plugin or read
        # a file, so it happens in a worker thread rather than on the event loop.
        """``auth_flow`` for httpx.AsyncClient: getting a token that needs I/O runs in a worker thread."""
        await request.aread()
        if "Authorization" in request.headers:
            yield request
            return
        used = _cached(self.credentials)
        if used is None:
            used = await _in_worker_thread(self.credentials.token)
        response = yield _authorized(request, used)
        if response.status_code == 401:
            fresh = await _in_worker_thread(self._renewed, used)
            if fresh is not None:
                yield _authorized(request, fresh)

    def _renewed(self, used: str | None) -> str | None:
        log.debug("401 Unauthorized: renewing %r and retrying once", self.credentials)
        self.credentials.invalidate()
        fresh = self.credentials.token()
        return fresh if fresh and fresh != used else None


def _authorized(request: httpx.Request, token: str | None) -> httpx.Request:
    if token:
        request.headers["Authorization"] = f"Bearer {token}"
    return request


def _cached(credentials: Credentials) -> str | None:
    cached = getattr(credentials, "cached_token", None)
    return cached() if callable(cached) else None


async def _in_worker_thread(fn: Callable[..., Any], *args: Any) -> Any:
    import anyio.to_thread  # httpx's own dependency; works under asyncio and trio alike

    return await anyio.to_thread.run_sync(fn, *args)


OIDC_EXPIRY_LEEWAY = timedelta(seconds=10)
"""client-go's oidc provider treats an id-token as expired this long before its ``exp``."""


class OIDCIdToken:
    """The ``oidc`` auth-provider's ``id-token``, used as a bearer token until its ``exp``."""

    def __init__(self, id_token: str, *, clock: Callable[[], datetime] | None = None) -> None:
        self._token = id_token
        self._clock = clock or _utcnow
        self._expires = _jwt_expiry(id_token)

    def token(self) -> str:
        """The id-token; a ``CredentialError`` once it has expired (kgen does not run the refresh flow)."""
        if self._expired():
            raise CredentialError(
                "the oidc auth-provider's id-token has expired and kgen does not run the refresh "
                "flow: log in again (or switch the user to an exec credential plugin)"
            )
        return self._token

    def cached_token(self) -> str | None:
        """The id-token unless it has expired, else None."""
        return None if self._expired() else self._token

    def invalidate(self) -> None:
        """Nothing to renew: there is no refresh flow, the id-token in the kubeconfig is all there is."""

    def _expired(self) -> bool:
        return self._expires is not None and self._clock() + OIDC_EXPIRY_LEEWAY >= self._expires

    def __repr__(self) -> str:
        return f"OIDCIdToken({_REDACTED})"


def _jwt_expiry(token: str) -> datetime | None:
    """The ``exp`` claim of a JWT, or None when it has none. Errors never quote the token."""
    parts = token.split(".")
    if len(parts) != 3:
        raise CredentialError("the oidc id-token is not a JWT (expected three dot-separated parts)")
    try:
        payload = base64.urlsafe_b64decode(parts[1] + "=" * (-len(parts[1]) % 4))
        claims = json.loads(payload)
    except (binascii.Error, ValueError):
        raise CredentialError("the oidc id-token's payload is not base64url-encoded JSON") from None
    exp = claims.get("exp") if isinstance(claims, dict) else None
    if exp is None:
        return None
    if not isinstance(exp, (int, float)):
        raise CredentialError("the oidc id-token's 'exp' claim is not a number")
    return datetime.fromtimestamp(exp, tz=timezone.utc)
