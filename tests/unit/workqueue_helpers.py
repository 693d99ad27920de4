"""Shared by the workqueue tests: a steppable clock, and one driver over both queue flavours so a
client-go scenario is written once and run against the thread and the asyncio queue."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from kgen.runtime.util.workqueue import (
    AsyncDelayingQueue,
    AsyncQueue,
    AsyncRateLimitingQueue,
    DelayingQueue,
    Queue,
    RateLimitingQueue,
)

FLAVOURS = ["sync", "async"]
#: What get() answers once shut down and empty (typed loosely: get() types the item as T).
SHUTDOWN: tuple[Any, bool] = (None, True)
KINDS = {
    "sync": {"queue": Queue, "delaying": DelayingQueue, "rate_limiting": RateLimitingQueue},
    "async": {"queue": AsyncQueue, "delaying": AsyncDelayingQueue, "rate_limiting": AsyncRateLimitingQueue},
}


class FakeClock:
    """client-go's testingclock.FakeClock, minus timers: the delaying queue reads the time at
    every call, so stepping the clock is all a test needs."""

    def __init__(self, now: float = 1000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def step(self, seconds: float) -> None:
        self.now += seconds


class Driver:
    """The sync API over either flavour; async calls run on a loop owned by the test. Only for
    scenarios where ``get`` does not need to block."""

    def __init__(self, queue: Any, loop: asyncio.AbstractEventLoop | None) -> None:
        self.queue = queue
        self._loop = loop

    def _run(self, result: Any) -> Any:
        if self._loop is None:
            return result
        return self._loop.run_until_complete(result)

    def get(self) -> tuple[Any, bool]:
        result: tuple[Any, bool] = self._run(self.queue.get())
        return result

    def shut_down_with_drain(self) -> None:
        self._run(self.queue.shut_down_with_drain())

    def __len__(self) -> int:
        return len(self.queue)

    def __getattr__(self, name: str) -> Any:  # add, done, add_after, forget, ... are plain in both
        return getattr(self.queue, name)


@contextmanager
def drivers(flavour: str) -> Iterator[Callable[..., Driver]]:
    loop = asyncio.new_event_loop() if flavour == "async" else None
    try:

        def make(kind: str = "queue", *args: Any, **kwargs: Any) -> Driver:
            return Driver(KINDS[flavour][kind](*args, **kwargs), loop)

        yield make
    finally:
        if loop is not None:
            loop.close()


@pytest.fixture(params=FLAVOURS)
def make_queue(request: pytest.FixtureRequest) -> Iterator[Callable[..., Driver]]:
    with drivers(request.param) as make:
        yield make


def eventually(check: Callable[[], bool], timeout: float = 5.0) -> bool:
    """client-go's wait.Poll for what a background thread does on its own schedule."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.001)
    return check()


async def eventually_async(check: Callable[[], bool], timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "condition not reached in time"
        await asyncio.sleep(0.001)


def start(target: Callable[[], object]) -> threading.Thread:
    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    return thread
