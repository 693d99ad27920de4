"""What the controller does after one reconcile: controller-runtime's reconcileHandler, as data.

controller-runtime's rules (pkg/internal/controller, ``reconcileHandler``), kept exactly:

=========================  ==============================================  ===================
reconcile                  the queue                                       reconcile_total
=========================  ==============================================  ===================
raised (not terminal)      ``add_rate_limited`` (backoff grows)            ``error``
raised ``TerminalError``   nothing: dropped, and counted as terminal       ``error``
``Result(requeue_after)``  ``forget`` then ``add_after(requeue_after)``    ``requeue_after``
``Result(requeue=True)``   ``add_rate_limited`` (no forget)                ``requeue``
``None`` / ``Result()``    ``forget``                                      ``success``
=========================  ==============================================  ===================

and ``done`` in every case (the worker's ``finally``). An error wins over a result returned with
it (Go returns both; in Python an exception leaves no result), and ``requeue_after`` wins over
``requeue``. Written without I/O, so the thread worker and an asyncio worker apply the same
``Decision``, and the table above is tested as a table.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

import httpx

from kgen.runtime.apimachinery.errors import ApiError
from kgen.runtime.controller.reconcile import ReconcileError, Request, Result, TerminalError

__all__ = ["Decision", "RequeueQueue", "apply", "as_result", "decide", "is_panic"]

ERROR, REQUEUE_AFTER, REQUEUE, SUCCESS = "error", "requeue_after", "requeue", "success"
RESULT_LABELS = (ERROR, REQUEUE_AFTER, REQUEUE, SUCCESS)
"""The values of reconcile_total's ``result`` label, all published from the start (initMetrics)."""


@dataclass(frozen=True)
class Decision:
    """What a reconcile's outcome does to the queue: the ``result`` label counted, whether the request
    is forgotten, requeued rate-limited or after ``add_after`` seconds, and whether it was an error (or
    a terminal one)."""

    result_label: str
    forget: bool = False
    rate_limited: bool = False
    add_after: float | None = None
    error: bool = False
    terminal: bool = False


class RequeueQueue(Protocol):
    """The part of the rate-limiting workqueue a decision touches."""

    def forget(self, item: Request) -> None:
        """Clear the request's rate-limiting history."""

    def add_rate_limited(self, item: Request) -> None:
        """Requeue the request after its rate limiter's backoff."""

    def add_after(self, item: Request, seconds: float) -> None:
        """Requeue the request after ``seconds``."""


def as_result(returned: object) -> Result:
    """What a reconciler returned, as a Result; anything else is the user's mistake, raised
    plainly (the worker then retries it as an error) rather than guessed at."""
    if returned is None:
        return Result()
    if not isinstance(returned, Result):
        raise TypeError(f"reconcile must return a Result or None, not {type(returned).__name__}")
    return returned


_ERRORS: tuple[type[BaseException], ...] = (ApiError, ReconcileError, TerminalError, OSError, httpx.HTTPError)
"""What a reconciler raises as Go returns an ``error``: anything else escaping it is a panic."""


def is_panic(error: BaseException) -> bool:
    """Whether ``error`` is what Go would have as a panic rather than a returned error: an exception
    that is not an API error (``ApiError``), a transport error (``OSError``, which includes
    ``TimeoutError``; ``httpx.HTTPError``), ``ReconcileError`` or ``TerminalError`` — a bug such as
    ``KeyError``, ``AttributeError`` or ``TypeError``."""
    return not isinstance(error, _ERRORS)


def decide(result: Result | None, error: BaseException | None) -> Decision:
    """The decision for one reconcile that returned ``result`` or raised ``error``."""
    if error is not None:
        terminal = isinstance(error, TerminalError)
        return Decision(ERROR, rate_limited=not terminal, error=True, terminal=terminal)
    if result is None:
        result = Result()
    if result.requeue_after > 0:
        return Decision(REQUEUE_AFTER, forget=True, add_after=result.requeue_after)
    if result.requeue:
        return Decision(REQUEUE, rate_limited=True)
    return Decision(SUCCESS, forget=True)


def apply(decision: Decision, queue: RequeueQueue, request: Request) -> None:
    """Performs ``decision`` on ``queue`` in controller-runtime's order (forget before add_after:
    the delay is the one asked for, and the next failure starts its backoff afresh)."""
    if decision.forget:
        queue.forget(request)
    if decision.add_after is not None:
        queue.add_after(request, decision.add_after)
    if decision.rate_limited:
        queue.add_rate_limited(request)
