"""client-go's rest/urlbackoff.go: the backoff manager a request consults before each attempt.

client-go's requests wait ``calculate_backoff`` before every attempt (before a retry: the
longer of it and the server's Retry-After) and report each answer with ``update_backoff``.
By default there is no backoff (``NoBackoff``); ``URLBackoff`` keeps one exponential
``flowcontrol.Backoff`` per host, grown by 5xx and 429 answers and reset by anything else.
client-go turns it on from the environment (``KUBE_CLIENT_BACKOFF_BASE`` and
``KUBE_CLIENT_BACKOFF_DURATION``, whole seconds: rest/client.go readExpBackoffConfig), and so
does ``backoff_manager_from_env``.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Protocol
from urllib.parse import urlsplit

from kgen.runtime.rest.with_retry import atoi
from kgen.runtime.util.flowcontrol import Backoff

ENV_BACKOFF_BASE = "KUBE_CLIENT_BACKOFF_BASE"
"""The environment variable of the per-host backoff's initial delay in seconds (client-go's)."""
ENV_BACKOFF_DURATION = "KUBE_CLIENT_BACKOFF_DURATION"
"""The environment variable of the per-host backoff's longest delay in seconds (client-go's)."""
_MAX_RESPONSE_CODE = 499
"""Answers that grow the backoff (client-go: any code above 499, and 429)."""
_SERVER_IS_OVERLOADED = frozenset({429})


class BackoffManager(Protocol):
    """``rest.BackoffManager``; the sleeping is the caller's (threads or asyncio)."""

    def calculate_backoff(self, url: str) -> float:
        """Seconds to wait before a request to ``url``."""

    def update_backoff(self, url: str, error: BaseException | None, code: int) -> None:
        """Record the outcome of a request to ``url`` (its status ``code``, or the ``error``)."""


class NoBackoff:
    """No backoff: client-go's default when the environment sets none."""

    def calculate_backoff(self, url: str) -> float:
        """Always 0."""
        return 0.0

    def update_backoff(self, url: str, error: BaseException | None, code: int) -> None:
        """Nothing to record."""


class URLBackoff:
    """One backoff per host: 5xx and 429 answers grow it, every other outcome resets it."""

    def __init__(self, backoff: Backoff) -> None:
        self.backoff = backoff

    def calculate_backoff(self, url: str) -> float:
        """The current backoff of ``url``'s host."""
        return self.backoff.get(urlsplit(url).netloc)

    def update_backoff(self, url: str, error: BaseException | None, code: int) -> None:
        """Grow the host's backoff on a 5xx or 429; reset it on any other outcome."""
        key = urlsplit(url).netloc
        if code > _MAX_RESPONSE_CODE or code in _SERVER_IS_OVERLOADED:
            self.backoff.next(key)
        else:
            self.backoff.reset(key)


def backoff_manager_from_env(environ: Mapping[str, str] | None = None) -> BackoffManager:
    """client-go's readExpBackoffConfig: ``URLBackoff`` when both variables are whole seconds,
    else ``NoBackoff``."""
    env = os.environ if environ is None else environ
    base, duration = atoi(env.get(ENV_BACKOFF_BASE)), atoi(env.get(ENV_BACKOFF_DURATION))
    if base is None or duration is None:
        return NoBackoff()
    return URLBackoff(Backoff(float(base), float(duration)))
