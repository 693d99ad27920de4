"""What a reflector does, as requests for I/O: the steps ``ReflectorCore`` (reflector.py) yields
and its drivers perform, and the ``Stepper`` that hands them over one at a time."""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass, field
from typing import Any

from kgen.runtime.tools.cache.reflector_state import WatchSession

__all__ = ["Consume", "ListPage", "OpenWatch", "StartResync", "Step", "Stepper", "Steps", "StopResync", "Wait"]


@dataclass(frozen=True)
class ListPage:
    """List one page with these options; the reply is the page."""

    options: dict[str, Any]


@dataclass(frozen=True)
class OpenWatch:
    """Open a watch with these options; the reply is the stream."""

    options: dict[str, Any]


@dataclass(frozen=True)
class Consume:
    """Read the stream's events into ``session`` (``ReflectorCore.handle``) until it ends, the
    reflector stops, or a watch-list's initial events end; the reply is (events read, the error
    the stream ended with, or None). The driver closes the stream after reading it, unless
    ``session.keeps_stream``: then it holds the stream open for the next ``Consume`` of it, and
    closes it if the core moves on to another list or watch instead, or stops."""

    stream: Any
    session: WatchSession = field(default_factory=lambda: WatchSession(_NoStore()), compare=False)


@dataclass(frozen=True)
class Wait:
    """Wait this long, or until the reflector stops."""

    seconds: float


@dataclass(frozen=True)
class StartResync:
    """Run ``ReflectorCore.resync_steps`` beside the main steps until ``StopResync`` or the end
    (client-go resyncs only while it watches: watchWithResync)."""


@dataclass(frozen=True)
class StopResync:
    """Stop the resync started by ``StartResync`` and wait for it to finish."""


Step = ListPage | OpenWatch | Consume | Wait | StartResync | StopResync
"""One thing the reflector's steps ask a driver to do."""
Steps = Generator[Step, Any, None]
"""A generator of steps; each reply is sent back into it."""


class _NoStore:
    """The store of a ``Consume`` built without a session (tests that compare steps)."""

    def add(self, obj: Any) -> None: ...
    def update(self, obj: Any) -> None: ...
    def delete(self, obj: Any) -> None: ...
    def replace(self, objects: list[Any], resource_version: str) -> None: ...
    def resync(self) -> None: ...


class Stepper:
    """Hands a driver the steps of a generator one at a time, and the outcome of each back to it.

    A driver asks ``next()`` for a step, performs it and reports ``done(reply)`` or
    ``failed(error)``; the error is raised inside the generator where the step was asked for, so
    the core handles failures with ordinary ``try``/``except``. ``close()`` abandons the rest:
    what the generator would have done after a stop (replace the store with a partial list, judge
    a watch that was cut short) never happens.
    """

    def __init__(self, steps: Steps) -> None:
        self._steps = steps
        self._reply: Any = None
        self._error: BaseException | None = None

    def next(self) -> Step | None:
        """The next step (the generator given the last reply or error), or None when it ended."""
        try:
            if self._error is not None:
                error, self._error = self._error, None
                return self._steps.throw(error)
            reply, self._reply = self._reply, None
            return self._steps.send(reply)
        except StopIteration:
            return None

    def done(self, reply: Any) -> None:
        """The step's reply, sent with the next ``next``."""
        self._reply = reply

    def failed(self, error: BaseException) -> None:
        """The step's failure, thrown into the generator at the next ``next``."""
        self._error = error

    def close(self) -> None:
        """Close the generator."""
        self._steps.close()
