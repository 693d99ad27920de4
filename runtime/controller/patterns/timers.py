"""Per-object periodic work the level-based way: a reconcile that asks to come back.

    def reconcile(self, request: Request) -> Result:
        ...                                   # check the object's backend, refresh its status
        return every(60, jitter=6)            # again in 54 to 66 seconds

kopf's ``@kopf.timer(interval=60)`` calls a function per object every interval. controller-runtime
users return ``Result{RequeueAfter: d}`` from the reconciler: the request comes back after ``d``,
whatever else happened. ``every`` is that result with jitter, so the timers of many objects
created together spread out instead of reconciling in step (the same reason client-go jitters
its resyncs and leader-election retries).

The timer is level-based: any event on the object reconciles it earlier, and that reconcile's
own ``every`` sets the next time (the workqueue keeps the earliest of its pending ``add_after``s).
So the work runs at least once per interval while the object exists, and stops with it: a
reconcile that finds the object gone returns no result. Errors take the controller's backoff
instead, as any reconcile's do.
"""

from __future__ import annotations

import random

from kgen.runtime.controller.reconcile import Result

__all__ = ["every"]


def every(interval: float, *, jitter: float = 0.0, rng: random.Random | None = None) -> Result:
    """``Result(requeue_after=...)`` of ``interval`` ± ``jitter`` seconds, uniformly drawn (``rng``,
    or the ``random`` module's). ``interval`` must be positive and ``jitter`` in ``[0, interval)``,
    so the request always comes back, later than now."""
    if not interval > 0:
        raise ValueError(f"every(): the interval must be positive seconds, not {interval!r}")
    if not 0 <= jitter < interval:
        raise ValueError(f"every(): the jitter must be at least 0 and less than the interval ({interval:g}s), not {jitter!r}")
    draw = (rng or random).uniform(-jitter, jitter) if jitter else 0.0
    return Result(requeue_after=interval + draw)
