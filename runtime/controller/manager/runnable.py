"""controller-runtime's Runnable and LeaderElectionRunnable (pkg/manager): user work the manager
starts and stops with itself.

    class Reporter:                                   # threads: start(stop) returns once stop is set
        def start(self, stop: threading.Event) -> None:
            while not stop.wait(60):
                report()

    manager.add(Reporter())                           # leader only (the default)
    manager.add(Reporter(), need_leader_election=False)   # on every replica

    class AsyncReporter:                              # asyncio: async start(), cancelled at stop
        async def start(self) -> None:
            while True:
                await report(); await asyncio.sleep(60)

    async_manager.add(AsyncReporter())

A runnable is an object with ``start`` or a plain callable taking the same arguments: on the
threads ``Manager``, ``start(stop: threading.Event)``, called on a thread of its own, which must
return once ``stop`` is set; on the ``AsyncManager``, ``async start()``, run as a task and
cancelled at stop. Which ones need leader election is controller-runtime's rule: the
``need_leader_election=`` given to ``add``, else the object's ``need_leader_election()``
(LeaderElectionRunnable), else yes.

The order is controller-runtime's: runnables that need no election start once the cache has
synced, on every replica, and stop last, after the controllers and the leader's runnables
drained; the others start with the controllers when this replica wins the election, and stop
with them when it stops or loses the lease. A runnable that raises stops the manager, whose
``start`` raises naming it, as a Runnable returning an error ends controller-runtime's Start; one
that returns early has simply finished.
"""

from __future__ import annotations

import inspect
import threading
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Protocol

__all__ = ["AsyncRunnable", "LeaderElectionRunnable", "Runnable", "RunnableEntry", "runnable_entry"]


class Runnable(Protocol):
    """Work the threads ``Manager`` runs: ``start`` returns once ``stop`` is set."""

    def start(self, stop: threading.Event) -> None:
        """Run until ``stop`` is set (on a thread of its own)."""


class AsyncRunnable(Protocol):
    """Work the ``AsyncManager`` runs as a task; the task is cancelled when the work must stop."""

    async def start(self) -> None:
        """Run until cancelled."""


class LeaderElectionRunnable(Protocol):
    """A runnable that says itself whether it runs on the leader only."""

    def need_leader_election(self) -> bool:
        """True: start only once this replica leads; False: on every replica."""


@dataclass(frozen=True)
class RunnableEntry:
    """One added runnable: what to call, its name (threads, tasks and errors use it), and whether
    it waits for the election."""

    start: Callable[..., Any]
    name: str
    need_leader_election: bool


def runnable_entry(runnable: object, need_leader_election: bool | None, *, asynchronous: bool) -> RunnableEntry:
    """``runnable`` checked for the manager's flavour (``asynchronous``: an ``AsyncManager``),
    with controller-runtime's answer to whether it needs leader election."""
    start = getattr(runnable, "start", runnable)
    if not callable(start):
        raise TypeError(f"a runnable has a start method or is callable; {runnable!r} is neither")
    is_coroutine = inspect.iscoroutinefunction(start)
    if asynchronous and not is_coroutine:
        raise TypeError(f"the AsyncManager runs 'async def start()' runnables; {_name(runnable)}'s start is not a coroutine function")
    if not asynchronous and is_coroutine:
        raise TypeError(f"the Manager runs 'start(stop: threading.Event)' on a thread; {_name(runnable)}'s start is async: "
                        "add it to an AsyncManager")
    if need_leader_election is None:
        says = getattr(runnable, "need_leader_election", None)
        need_leader_election = bool(says()) if callable(says) else True
    return RunnableEntry(start, _name(runnable), need_leader_election)


def _name(runnable: object) -> str:
    name = getattr(runnable, "name", None)
    if isinstance(name, str) and name:
        return name
    return str(getattr(runnable, "__qualname__", None) or type(runnable).__qualname__)


AsyncStart = Callable[[], Awaitable[None]]
"""An asyncio runnable's start, as the AsyncManager calls it."""
