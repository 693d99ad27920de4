"""controller-runtime's pkg/reconcile: ``Request``, ``Result``, the ``Reconciler`` protocol, and
``TerminalError``.

A reconciler is called with the *name* of an object, never with the event that named it: events
are coalesced in the workqueue, and reconcile must read the current state (from the cache) and
converge, however many changes happened since. What it returns decides what the controller does
next, with controller-runtime's rules (``outcome.py``): raise to be retried with backoff, return
``Result(requeue_after=s)`` to come back in ``s`` seconds, ``Result(requeue=True)`` to come back
with backoff without an error, and return ``None`` or ``Result()`` when done.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

__all__ = [
    "AsyncReconciler", "AsyncReconcilerFunc", "ReconcileError", "ReconcileTimeout", "Reconciler", "ReconcilerFunc", "Request",
    "Result", "TerminalError", "time_left",
]


@dataclass(frozen=True, order=True)
class Request:
    """The object to reconcile: apimachinery's NamespacedName (namespace "" for cluster-scoped
    objects). Hashable and immutable, so the workqueue can deduplicate it."""

    namespace: str
    name: str

    def __str__(self) -> str:
        # types.NamespacedName.String(): "ns/name", or "name" without a namespace.
        return f"{self.namespace}/{self.name}" if self.namespace else self.name


@dataclass(frozen=True)
class Result:
    """What a reconcile asks for when it did not fail. ``requeue_after`` (seconds) wins over
    ``requeue``, as in controller-runtime; both zero means done."""

    requeue: bool = False
    requeue_after: float = 0.0

    def is_zero(self) -> bool:
        """Whether the result asks for nothing (no requeue): the request is done."""
        return not self.requeue and self.requeue_after == 0


class TerminalError(Exception):
    """An error that retrying cannot fix (reconcile.TerminalError): counted and logged, never
    requeued. Raise it, or raise ``TerminalError("why") from cause``."""


class ReconcileError(Exception):
    """An error the reconciler means (Go's returned ``error``): counted as a reconcile error and
    retried with backoff, never as a panic. kgen's API errors (``ApiError``), transport errors
    (``OSError``, ``httpx.HTTPError``) and ``TerminalError`` are errors too; any other exception
    escaping a reconcile is a panic (``outcome.is_panic``)."""


class ReconcileTimeout(ReconcileError, TimeoutError):
    """The reconcile ran past the controller's ``reconcile_timeout`` (controller-runtime's
    "reconciliation timeout"): an error, retried with backoff."""


reconcile_deadline: ContextVar[float | None] = ContextVar("reconcile_deadline", default=None)
"""The ``time.monotonic()`` deadline of the reconcile running in this thread or task (set by the
controller when it has a ``reconcile_timeout``), None otherwise."""


def time_left() -> float | None:
    """Seconds left before the current reconcile's ``reconcile_timeout`` (negative once past), or None
    without one: the thread flavour's stand-in for Go's ``ctx.Done()``, which a reconcile that does
    long work checks to stop early (raising ``ReconcileTimeout``, say) instead of running on."""
    deadline = reconcile_deadline.get()
    return None if deadline is None else deadline - time.monotonic()


@runtime_checkable
class Reconciler(Protocol):
    """controller-runtime's Reconciler: ``reconcile(request)`` converges one object. Reads come
    from the cache, writes go to the server; it may be called again for the same request at any
    time, so it must be idempotent."""

    def reconcile(self, request: Request) -> Result | None:
        """Converge the object ``request`` names; return a ``Result`` (or ``None``) or raise to retry
        with backoff."""


ReconcilerFunc = Callable[[Request], "Result | None"]
"""A plain function is a reconciler too (reconcile.Func)."""


@runtime_checkable
class AsyncReconciler(Protocol):
    """The Reconciler of the asyncio flavour: the same rules, ``reconcile`` awaited."""

    async def reconcile(self, request: Request) -> Result | None:
        """Converge the object ``request`` names; return a ``Result`` (or ``None``) or raise to retry
        with backoff."""


AsyncReconcilerFunc = Callable[[Request], Awaitable["Result | None"]]
"""A coroutine function is an asyncio reconciler too."""
