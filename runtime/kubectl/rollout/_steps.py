"""The steps the kubectl verbs are written in, and their two drivers (threads, asyncio).

A verb (``rollout_status``, ``restart``, ``undo``, ``scale``) is one generator that yields what it
needs done: a client call (``_Call``), a ``RetryWatcher`` of an object (``_Watch``) and its next
event (``_Next``), a pause (``_Sleep``), a message for the caller (``_Emit``); it is handed back
each result, or the error raised (which it may catch: a 409 retried). It performs no I/O itself,
so its logic exists once and is tested without a server; ``iterate``/``run`` perform the steps
with blocking calls, ``aiterate``/``arun`` with asyncio's. Which one a verb uses follows from the
client it was given (``is_async``), so the sync and async verbs have the same names.
"""

from __future__ import annotations

import asyncio
import inspect
import threading
import time
from collections.abc import AsyncIterator, Generator
from dataclasses import dataclass, field
from typing import Any

from kgen.runtime.gentype.client import AsyncResourceClient
from kgen.runtime.gentype.typed import AsyncTypedClient
from kgen.runtime.tools.watch import AsyncRetryWatcher, RetryWatcher


@dataclass
class Call:
    """Call ``method`` of ``target``; the core gets its result (awaited on asyncio) or its error."""

    target: Any
    method: str
    args: tuple[Any, ...] = ()
    kwargs: dict[str, Any] = field(default_factory=dict)


@dataclass
class Next:
    """The next item of a watch (``END`` at its end)."""

    stream: Any


@dataclass
class Watch:
    """A ``RetryWatcher`` of ``client`` from ``resource_version`` (``known``: the listed objects),
    stopped after ``seconds`` (None: never); the core gets its event iterator."""

    client: Any
    resource_version: str
    known: list[Any]
    field_selector: str
    seconds: float | None


@dataclass
class Sleep:
    """A pause of ``seconds`` (between kubectl scale's retries)."""

    seconds: float


@dataclass
class Emit:
    """A message for the caller of an iterating verb."""

    message: str


END = object()
Step = Call | Next | Watch | Sleep | Emit
Steps = Generator[Step, Any, Any]


def perform(step: Step, streams: list[Any]) -> Any:
    """Perform ``step`` with blocking I/O; what must be stopped at the end goes to ``streams``."""
    if isinstance(step, Call):
        return getattr(step.target, step.method)(*step.args, **step.kwargs)
    if isinstance(step, Watch):
        watcher = RetryWatcher(step.client, step.resource_version, known=step.known, field_selector=step.field_selector)
        streams.append(watcher)
        if step.seconds is not None:
            timer = threading.Timer(step.seconds, watcher.stop)
            timer.daemon = True
            timer.start()
            streams.append(timer)
        return iter(watcher)
    if isinstance(step, Next):
        return next(step.stream, END)
    if isinstance(step, Sleep):
        time.sleep(step.seconds)
        return None
    raise TypeError(f"unexpected step {step!r}")


async def aperform(step: Step, streams: list[Any]) -> Any:
    """Perform ``step`` on asyncio; what must be stopped at the end goes to ``streams``."""
    if isinstance(step, Call):
        result = getattr(step.target, step.method)(*step.args, **step.kwargs)
        return await result if inspect.isawaitable(result) else result
    if isinstance(step, Watch):
        watcher = AsyncRetryWatcher(step.client, step.resource_version, known=step.known,
                                    field_selector=step.field_selector)
        events = aiter(watcher)
        streams.append(watcher)
        streams.append(events)
        if step.seconds is not None:
            streams.append(asyncio.get_running_loop().call_later(step.seconds, watcher.stop))
        return events
    if isinstance(step, Next):
        return await anext(step.stream, END)
    if isinstance(step, Sleep):
        await asyncio.sleep(step.seconds)
        return None
    raise TypeError(f"unexpected step {step!r}")


def iterate(steps: Steps) -> Generator[str, None, Any]:
    """Drive ``steps`` with threads' I/O, yielding what they emit; returns their result."""
    streams: list[Any] = []
    try:
        result: Any = None
        error: BaseException | None = None
        while True:
            try:
                step = steps.send(result) if error is None else steps.throw(error)
            except StopIteration as stop:
                return stop.value
            result, error = None, None
            if isinstance(step, Emit):
                yield step.message
                continue
            try:
                result = perform(step, streams)
            except Exception as e:  # handed to the core, which decides (a 409 retried, a 410 relisted)
                error = e
    finally:
        steps.close()
        for stream in streams:  # the watchers and their timers
            stream.cancel() if isinstance(stream, threading.Timer) else stream.stop()


def run(steps: Steps) -> Any:
    """Drive ``steps`` (which emit nothing) with threads' I/O; returns their result."""
    iterator = iterate(steps)
    while True:
        try:
            next(iterator)
        except StopIteration as stop:
            return stop.value


async def aiterate(steps: Steps, sink: list[Any] | None = None) -> AsyncIterator[str]:
    """Drive ``steps`` with asyncio's I/O, yielding what they emit; their result goes to ``sink``."""
    streams: list[Any] = []
    try:
        result: Any = None
        error: BaseException | None = None
        while True:
            try:
                step = steps.send(result) if error is None else steps.throw(error)
            except StopIteration as stop:
                if sink is not None:
                    sink.append(stop.value)
                return
            result, error = None, None
            if isinstance(step, Emit):
                yield step.message
                continue
            try:
                result = await aperform(step, streams)
            except Exception as e:
                error = e
    finally:
        steps.close()
        for stream in streams:  # the watchers, their event iterators and their timers
            if isinstance(stream, asyncio.TimerHandle):
                stream.cancel()
            elif isinstance(stream, AsyncRetryWatcher):
                stream.stop()
            else:
                await stream.aclose()


async def arun(steps: Steps) -> Any:
    """Drive ``steps`` (which emit nothing) on asyncio; returns their result."""
    sink: list[Any] = []
    async for _ in aiterate(steps, sink):
        pass
    return sink[0]


def is_async(client: Any) -> bool:
    """Whether ``client`` is of the asyncio flavour (an async typed client or resource client)."""
    return isinstance(client, (AsyncTypedClient, AsyncResourceClient))


def check_arguments(client: Any, name: Any, methods: tuple[str, ...], expected: str) -> None:
    """A clear ``TypeError``/``ValueError`` for a client without ``methods`` or a name that is not one,
    before any request (kubectl's flags parser refuses them the same way, by what it expected)."""
    missing = [m for m in methods if not callable(getattr(client, m, None))]
    if missing:
        raise TypeError(f"expected {expected}, not {type(client).__name__} (it has no {', '.join(missing)})")
    if not isinstance(name, str) or not name:
        raise ValueError(f"name: expected an object's name, got {name!r}")
