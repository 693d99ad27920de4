"""client-go's util/retry: run a read-modify-write again when it lost a race.

    retry_on_conflict(lambda: update_replicas(cs, "web", 3))   # fn must GET afresh each try
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

from kgen.runtime.apimachinery.errors import AlreadyExists, Conflict
from kgen.runtime.util.wait import Backoff

__all__ = ["Backoff", "DEFAULT_BACKOFF", "DEFAULT_RETRY", "on_error", "retry_on_conflict"]

T = TypeVar("T")

DEFAULT_RETRY = Backoff(steps=5, duration=0.010, factor=1.0, jitter=0.1)
"""client-go's DefaultRetry: 5 tries 10 ms apart (jitter 0.1), for conflicts a client can resolve at
once."""
DEFAULT_BACKOFF = Backoff(steps=4, duration=0.010, factor=5.0, jitter=0.1)
"""client-go's DefaultBackoff: 4 tries from 10 ms, each wait 5 times the last (jitter 0.1), for
conflicts that need time to clear."""


def on_error(backoff: Backoff, retriable: Callable[[Exception], bool], fn: Callable[[], T],
             sleep: Callable[[float], None] = time.sleep) -> T:
    """Calls ``fn`` until it succeeds, a non-retriable error, or ``backoff.steps`` tries."""
    delays = backoff.delays()
    for attempt in range(backoff.steps):
        try:
            return fn()
        except Exception as e:
            if not retriable(e) or attempt == backoff.steps - 1:
                raise
            sleep(delays[attempt])
    raise AssertionError("unreachable")


def retry_on_conflict(fn: Callable[[], T], backoff: Backoff = DEFAULT_RETRY,
                      sleep: Callable[[float], None] = time.sleep) -> T:
    """Call ``fn`` again while it raises ``Conflict`` (not ``AlreadyExists``), up to
    ``backoff.steps`` tries with ``backoff``'s delays between them; returns its result, or raises
    its other error or last ``Conflict``. ``fn`` must read the object afresh each time."""
    return on_error(backoff, _is_conflict, fn, sleep)


def _is_conflict(e: Exception) -> bool:
    """client-go's ``errors.IsConflict``: reason Conflict, or a 409 of a reason it does not know;
    never ``AlreadyExists`` (also a 409), which no retry of a create can fix."""
    return isinstance(e, Conflict) and not isinstance(e, AlreadyExists)
