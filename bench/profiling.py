"""cProfile over every thread of a bench process, switched on by an environment variable.

cProfile profiles only the thread that enables it; an operator's work runs in its manager's
worker, informer and watch threads. ``profile_threads(path)`` profiles the calling thread and
every thread started after it (each with its own profiler, through ``threading.setprofile``),
and the function it returns writes them merged into one pstats file at ``path``
(``python -m pstats PATH``). Without a path it does nothing, so the operator runs unprofiled.

The profilers' clock is each thread's CPU time (``time.thread_time``), not the wall clock: a
thread blocked on a socket or a lock, or waiting for the GIL, is not charged, so the figures add
up to the process's CPU time, the bench's "operator CPU per update".
"""

from __future__ import annotations

import cProfile
import pstats
import sys
import threading
import time
from collections.abc import Callable
from typing import Any


def profile_threads(path: str | None) -> Callable[[], None]:
    """Start profiling this thread and every later one; the returned function stops and writes
    the merged statistics to ``path``. ``None`` or empty: no profiling, the function does nothing."""
    if not path:
        return lambda: None
    lock = threading.Lock()
    profiles = [cProfile.Profile(time.thread_time)]

    def start_in_thread(*_: Any) -> None:
        # Called by the new thread's first profile event: replace this hook with a profiler of its own.
        sys.setprofile(None)
        profile = cProfile.Profile(time.thread_time)
        with lock:
            profiles.append(profile)
        profile.enable()

    threading.setprofile(start_in_thread)
    profiles[0].enable()

    def stop() -> None:
        threading.setprofile(None)  # type: ignore[arg-type,unused-ignore]  # None removes the hook (typeshed: no None)
        profiles[0].disable()
        with lock:
            stats = pstats.Stats(profiles[0])
            for profile in profiles[1:]:
                stats.add(profile)
        stats.dump_stats(path)

    return stop
