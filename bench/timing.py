"""Wall-clock samples, with the garbage collector as users run it (enabled, default thresholds)."""

from __future__ import annotations

import gc
import time
from collections.abc import Callable
from typing import Any


def samples_seconds(fn: Callable[[], Any], repeats: int) -> list[float]:
    """The wall time of each of ``repeats`` calls of ``fn``.

    Before each call the previous result is dropped and a full collection runs, so no call pays
    for freeing or scanning what an earlier one built. The collector stays enabled during the
    call: decoding that allocates millions of objects pays for the collections it triggers,
    as it does in a user's process.
    """
    times: list[float] = []
    for _ in range(repeats):
        gc.collect()
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
        del result
    gc.collect()
    return times


def best_seconds(fn: Callable[[], Any], repeats: int) -> float:
    """The shortest of ``repeats`` timed calls of ``fn`` (``samples_seconds``; inf for none)."""
    return min(samples_seconds(fn, repeats), default=float("inf"))
