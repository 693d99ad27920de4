"""``/debug/stacks``: what every thread and every asyncio task is doing, in place of pprof.

A stuck Go controller is read through pprof's goroutine dump (``/debug/pprof/goroutine?debug=2``);
a Python one through the same idea: every thread's current stack (``sys._current_frames``), and,
for the ``AsyncManager``, every task of its event loop with the chain of coroutines it is
suspended in. A reconcile blocked on a lock, a socket or an event shows up as a worker thread (or
a ``controller-...`` task) whose innermost frame is the blocking call.

The dump is taken from the HTTP server's own thread without the event loop's help, so it answers
also when a reconciler has blocked the loop itself; it is a snapshot of state that keeps moving,
as a goroutine dump is. It lists code locations only (files, lines, function names and source
lines), never local variables. The manager serves it on its metrics server when built with
``debug_stacks=True`` (off by default).
"""

from __future__ import annotations

import asyncio
import sys
import threading
import traceback
from collections.abc import Iterator
from types import FrameType
from typing import Any

__all__ = ["dump_stacks"]


def dump_stacks(loop: asyncio.AbstractEventLoop | None = None) -> str:
    """Every thread's stack, oldest frame first, then (given ``loop``) every task of ``loop``."""
    threads = {thread.ident: thread for thread in threading.enumerate()}
    frames = sys._current_frames()
    out = [f"{len(frames)} threads\n"]
    for ident, frame in sorted(frames.items(), key=lambda item: _thread_name(threads.get(item[0]))):
        thread = threads.get(ident)
        daemon = ", daemon" if thread is not None and thread.daemon else ""
        out.append(f"\nthread {_thread_name(thread)} (ident {ident}{daemon}):\n")
        out.extend(traceback.format_stack(frame))
    if loop is not None:
        tasks = sorted(asyncio.all_tasks(loop), key=lambda task: task.get_name())
        out.append(f"\n{len(tasks)} tasks\n")
        for task in tasks:
            out.append(f"\ntask {task.get_name()} ({_state(task)}):\n")
            stack = traceback.StackSummary.extract(((f, f.f_lineno) for f in _awaiting(task.get_coro())), lookup_lines=True)
            out.extend(stack.format())
    return "".join(out)


def _thread_name(thread: threading.Thread | None) -> str:
    return thread.name if thread is not None else "(not started by threading)"


def _state(task: asyncio.Task[Any]) -> str:
    if task.done():
        return "done"
    return "running" if _running(task) else "suspended"


def _running(task: asyncio.Task[Any]) -> bool:
    coro = task.get_coro()
    return bool(getattr(coro, "cr_running", False) or getattr(coro, "gi_running", False))


def _awaiting(coro: Any) -> Iterator[FrameType]:
    """The frames of ``coro`` and of what it awaits, outermost first, down to the innermost
    coroutine or generator (``Task.get_stack`` gives only the outermost frame of a suspended one)."""
    seen = 0
    while coro is not None and seen < 1000:
        frame = getattr(coro, "cr_frame", None) or getattr(coro, "gi_frame", None) or getattr(coro, "ag_frame", None)
        if frame is None:
            return
        yield frame
        coro = getattr(coro, "cr_await", None) or getattr(coro, "gi_yieldfrom", None) or getattr(coro, "ag_await", None)
        seen += 1
