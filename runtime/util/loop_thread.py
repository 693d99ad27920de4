"""An asyncio event loop of its own in one daemon thread, for the sync flavours that run the
asyncio implementation (``PortForwarder``, the sync ``ExecSession``) and block until the loop
has done what they ask.

Why not threads over the ``websockets`` sync client: that client reads its TLS socket on a
background thread while the caller's thread writes it, and CPython's ``ssl.SSLSocket`` is not
safe for a read and a write at once from two threads; over TLS 1.3 (the session tickets the
server sends after the handshake) about one upgrade in 100 then stalled or failed. On one loop
thread every read and write of a connection happens in that thread.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")

SETTLE_TIMEOUT = 1.0
"""How long ``close`` lets the loop's remaining tasks finish (a read woken by the close of its
session) before it cancels them."""

__all__ = ["LoopClosed", "LoopThread", "SETTLE_TIMEOUT"]


class LoopClosed(RuntimeError):
    """The loop thread was closed before (or while) it ran the work asked of it."""


class LoopThread:
    """An event loop running in a daemon thread from construction until ``close()``; ``run``
    hands it a coroutine from any other thread and blocks for its result."""

    def __init__(self, name: str) -> None:
        self._loop = asyncio.new_event_loop()
        self._closed = False
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._loop.run_forever, name=name, daemon=True)
        self._thread.start()

    @property
    def alive(self) -> bool:
        """Whether the loop still runs (not closed, its thread not gone)."""
        return not self._closed and self._thread.is_alive()

    def run(self, work: Coroutine[Any, Any, T]) -> T:
        """Runs ``work`` on the loop and returns its result (or raises its exception); ``LoopClosed``
        once the loop is closed. A caller interrupted while it waits (``KeyboardInterrupt``)
        cancels the work."""
        with self._lock:
            if not self.alive:
                work.close()
                raise LoopClosed(f"the event loop of {self._thread.name!r} is closed")
            future = asyncio.run_coroutine_threadsafe(work, self._loop)
        try:
            return future.result()
        except concurrent.futures.CancelledError:
            if self._closed:
                raise LoopClosed(f"the event loop of {self._thread.name!r} was closed during the call") from None
            raise
        except BaseException:
            future.cancel()
            raise

    def close(self) -> None:
        """Stops the loop and its thread, then closes it as ``asyncio.run`` does: tasks still
        running get ``SETTLE_TIMEOUT`` to finish, then are cancelled; asynchronous generators are
        finalized. Closing again does nothing. Not from the loop's own thread."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
        loop = self._loop
        if self._thread.is_alive():
            loop.call_soon_threadsafe(loop.stop)
            self._thread.join()
        try:
            pending = asyncio.all_tasks(loop)
            if pending:
                loop.run_until_complete(asyncio.wait(pending, timeout=SETTLE_TIMEOUT))
                for task in pending:
                    task.cancel()
                loop.run_until_complete(asyncio.gather(*pending, return_exceptions=True))
            loop.run_until_complete(loop.shutdown_asyncgens())
        finally:
            loop.close()

    def __repr__(self) -> str:
        return f"LoopThread({self._thread.name!r}, {'running' if self.alive else 'closed'})"
