"""Where an informer's workers run: client-go's wait.Group, on threads and on one event loop.

The reflector, the process loop and every handler's worker (processor.py) are started in a
group, and ``stop`` waits for the group.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Coroutine
from typing import Any, Protocol

__all__ = ["AsyncWaitGroup", "Group", "WaitGroup"]


class WaitGroup:
    """Functions run on daemon threads; ``wait`` joins them."""

    def __init__(self) -> None:
        self._threads: list[threading.Thread] = []
        self._lock = threading.Lock()

    def start(self, fn: Callable[..., Any], *args: Any, name: str) -> None:
        """Run ``fn(*args)`` on a new daemon thread named ``name``."""
        thread = threading.Thread(target=fn, args=args, daemon=True, name=name)
        with self._lock:
            self._threads = [t for t in self._threads if t.is_alive()]
            self._threads.append(thread)
        thread.start()

    def wait(self, timeout: float) -> None:
        """Joins every thread, ``timeout`` seconds each at most (never the calling one)."""
        current = threading.current_thread()
        with self._lock:
            threads = list(self._threads)
        for thread in threads:
            if thread is not current:
                thread.join(timeout)


class AsyncWaitGroup:
    """Coroutine functions run as tasks on one event loop, the one running the first ``start``;
    ``await wait`` ends them.

    Why later starts may come from any thread: a handler may be added to a running informer
    from another thread, and its worker must still run on the informer's loop. Such a start is
    handed to the loop (``call_soon_threadsafe``); once the loop is closed it fails, so that
    nobody is left registered with no worker to drain its buffer."""

    def __init__(self) -> None:
        self._tasks: list[asyncio.Task[Any]] = []
        self.loop: asyncio.AbstractEventLoop | None = None

    def bind(self) -> asyncio.AbstractEventLoop:
        """The group's loop: the running one, if none was bound yet."""
        if self.loop is None:
            self.loop = asyncio.get_running_loop()
        return self.loop

    def start(self, fn: Callable[..., Coroutine[Any, Any, Any]], *args: Any, name: str) -> None:
        """Run ``fn(*args)`` as a task named ``name`` on the group's loop (from any thread)."""
        loop = self.bind()
        if _running_loop() is loop:
            self._create_task(fn, args, name)
            return
        try:
            loop.call_soon_threadsafe(self._create_task, fn, args, name)
        except RuntimeError:  # the loop is closed
            raise RuntimeError(f"cannot start {name}: the event loop it must run on is closed") from None

    def _create_task(self, fn: Callable[..., Coroutine[Any, Any, Any]], args: tuple[Any, ...], name: str) -> None:
        self._tasks = [t for t in self._tasks if not t.done()]
        self._tasks.append(asyncio.get_running_loop().create_task(fn(*args), name=name))

    def call_soon(self, callback: Callable[..., Any], *args: Any) -> None:
        """Runs ``callback`` on the group's loop: now if called there (or before any start),
        else as soon as the loop gets to it; never once the loop is closed."""
        if self.loop is None or _running_loop() is self.loop:
            callback(*args)
            return
        try:
            self.loop.call_soon_threadsafe(callback, *args)
        except RuntimeError:
            pass  # the loop is closed: nothing runs on it any more, nothing waits to be called

    async def wait(self, timeout: float) -> None:
        """Waits ``timeout`` seconds at most for every task (never the calling one), then
        cancels the rest."""
        tasks = [task for task in self._tasks if task is not asyncio.current_task()]
        if tasks:
            _, pending = await asyncio.wait(tasks, timeout=timeout)
            for task in pending:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)


class Group(Protocol):
    """What an informer starts its workers with: a ``WaitGroup`` or an ``AsyncWaitGroup``."""

    def start(self, fn: Callable[..., Any], *args: Any, name: str) -> None:
        """Run ``fn(*args)`` in the background as ``name``."""


def _running_loop() -> asyncio.AbstractEventLoop | None:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None
