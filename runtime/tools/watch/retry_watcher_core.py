"""The retry watcher without I/O: client-go's RetryWatcher (tools/watch/retrywatcher.go) as one
generator of steps that both drivers (retry_watcher.py) perform, so the thread and asyncio
flavours cannot drift apart.

The rules, client-go's unless marked:

- Watch from the last resourceVersion seen, with bookmarks. Each ADDED, MODIFIED or DELETED event
  moves that resourceVersion and is handed on; a bookmark only moves it.
- A watch that ends (the server's timeout, a dropped connection, the idle timeout, a stream that
  does not decode, a 5xx or 429 as a status or in the stream) is opened again from there: at once
  after a stream that delivered something, else after the reflector's backoff (0.8 s doubling to
  30 s, jittered), so that a server that closes every watch is not hammered.
- A 410 Gone (the resourceVersion compacted away), where client-go's RetryWatcher gives up, is
  not the end here: the watcher lists again (a consistent read) and hands on what changed between
  the state it knew and the list's, as a reflector's ``Replace`` does — ADDED for a new object,
  MODIFIED for a changed resourceVersion, DELETED (with the last state seen) for one gone, DELETED
  then ADDED for one replaced under the same name (another uid) — then watches from the list's
  resourceVersion. The consumer misses no change of state; it may miss intermediate states, which
  compaction destroyed. The state known is what the initial list returned (or the ``known``
  objects given with a starting resourceVersion) plus every event since.
- Errors that waiting does not cure (400, 401, 403, 404, ...) are raised to the consumer: Python
  has exceptions where client-go sends an ERROR event and retries forever.
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable, Generator, Iterable
from dataclasses import dataclass
from typing import Any, Final, Generic, TypeVar

import httpx

from kgen.runtime.apimachinery.errors import ApiError, Gone
from kgen.runtime.apimachinery.meta import list_meta, namespace_and_name, resource_version_of, uid_of
from kgen.runtime.rest.watch import Bookmark, WatchDecodeError, WatchEvent
from kgen.runtime.tools.cache.reflector_state import reflector_backoff

__all__ = [
    "END", "Close", "Emit", "ListAll", "Next", "OpenWatch", "RetryWatcherCore", "Sleep", "WatcherStep", "WatcherSteps",
    "object_key",
]

T = TypeVar("T")
"""The type of the watched objects."""

log = logging.getLogger("kgen.runtime.tools.watch")

END: Final = object()
"""What a driver replies to ``Next`` when the stream has ended."""

SHORT_WATCH = 1.0
"""A watch that ends within this many seconds without an event is followed by a backoff."""


@dataclass(frozen=True)
class ListAll:
    """List with these options (one unpaged list); the reply is the list."""

    options: dict[str, Any]


@dataclass(frozen=True)
class OpenWatch:
    """Open a watch with these options; the reply is the stream."""

    options: dict[str, Any]


@dataclass(frozen=True)
class Next:
    """Read the stream's next event; the reply is a ``WatchEvent``, a ``Bookmark`` or ``END``."""

    stream: Any


@dataclass(frozen=True)
class Close:
    """Close the stream (release its connection)."""

    stream: Any


@dataclass(frozen=True)
class Emit(Generic[T]):
    """Hand this event to the consumer."""

    event: WatchEvent[T]


@dataclass(frozen=True)
class Sleep:
    """Wait this long (or until the watcher is stopped)."""

    seconds: float


WatcherStep = ListAll | OpenWatch | Next | Close | Emit[Any] | Sleep
"""One thing the core asks a driver to do."""
WatcherSteps = Generator[WatcherStep, Any, None]
"""The core's steps; each reply is sent back in, each failure thrown in."""


def object_key(obj: Any) -> str:
    """The store key client-go uses: ``namespace/name``, or ``name`` for a cluster-scoped object."""
    namespace, name = namespace_and_name(obj)
    return f"{namespace}/{name}" if namespace else name


def _retriable(error: BaseException) -> bool:
    """Whether watching again (after a backoff) may cure ``error``."""
    if isinstance(error, ApiError):
        return error.code == 429 or error.code >= 500
    return isinstance(error, (httpx.TransportError, httpx.StreamError, WatchDecodeError, OSError, EOFError))


class RetryWatcherCore(Generic[T]):
    """The state of an endless watch — the last resourceVersion and the objects known — and its
    loop as ``steps()``. ``resource_version`` "" (or "0", or None) starts with a list whose objects are the
    state known (not handed on); any other starts the watch there with ``known`` as the state at it.
    ``options`` are the selectors (``label_selector``, ``field_selector``) for both list and watch.
    ``clock`` times a watch, for the short-watch backoff."""

    def __init__(
        self, resource_version: str | None = "", known: Iterable[T] = (), *, options: dict[str, Any] | None = None,
        clock: Callable[[], float] = time.monotonic, rng: random.Random | None = None,
    ) -> None:
        self.resource_version = "" if resource_version in (None, "0") else resource_version
        self.known: dict[str, T] = {object_key(obj): obj for obj in known}
        self.options = {k: v for k, v in (options or {}).items() if v is not None}
        self.clock = clock
        self.rng = rng or random.Random()
        self.backoff = reflector_backoff(clock=self.clock, rng=self.rng)
        self.relists = 0
        """How many 410s were bridged by a relist (for logs and tests)."""

    # -- the state ---------------------------------------------------------------------------

    def watch_options(self) -> dict[str, Any]:
        """The next watch's options: from the last resourceVersion, with bookmarks, for a server
        timeout drawn from [300, 600) s as the reflector's, so that watchers do not reconnect in
        lockstep."""
        timeout = int(300 + self.rng.random() * 300)
        return {
            **self.options, "resource_version": self.resource_version, "allow_watch_bookmarks": True,
            "timeout_seconds": timeout, "idle_timeout": timeout + 60.0,
        }

    def observe(self, event: WatchEvent[T] | Bookmark) -> WatchEvent[T] | None:
        """One watch event into the state; the event to hand on (None for a bookmark)."""
        if isinstance(event, Bookmark):
            if event.resource_version:
                self.resource_version = event.resource_version
            return None
        key = object_key(event.object)
        if event.type == "DELETED":
            self.known.pop(key, None)
        else:
            self.known[key] = event.object
        resource_version = resource_version_of(event.object)
        if resource_version:
            self.resource_version = resource_version
        return event

    def replace(self, listed: Any) -> list[WatchEvent[T]]:
        """A relist's answer into the state; the events that turn the state known into it."""
        items, resource_version, _ = list_meta(listed)
        fresh: dict[str, T] = {object_key(obj): obj for obj in items}
        changes: list[WatchEvent[T]] = []
        for key, obj in fresh.items():
            old = self.known.get(key)
            if old is None:
                changes.append(WatchEvent("ADDED", obj))
            elif uid_of(old) and uid_of(obj) and uid_of(old) != uid_of(obj):
                changes.append(WatchEvent("DELETED", old))
                changes.append(WatchEvent("ADDED", obj))
            elif resource_version_of(old) != resource_version_of(obj):
                changes.append(WatchEvent("MODIFIED", obj))
        changes.extend(WatchEvent("DELETED", old) for key, old in self.known.items() if key not in fresh)
        self.known = fresh
        self.resource_version = resource_version
        return changes

    # -- the loop ----------------------------------------------------------------------------

    def steps(self) -> WatcherSteps:
        """List if there is no resourceVersion to start from, then watch forever by the rules of
        the module's docstring. Ends only by raising (an error no retry cures) or being closed."""
        if not self.resource_version:
            self.replace((yield ListAll(dict(self.options))))
        while True:
            started, events = self.clock(), 0
            try:
                stream = yield OpenWatch(self.watch_options())
            except Gone as e:
                log.debug("watch from resourceVersion %s: %s; listing again", self.resource_version, e)
                yield from self._relist()
                continue
            except Exception as e:
                if not _retriable(e):
                    raise
                log.debug("watch from resourceVersion %s failed to start (%s); backing off", self.resource_version, e)
                yield Sleep(self.backoff.next_delay())
                continue
            error: BaseException | None = None
            try:
                while True:
                    event = yield Next(stream)
                    if event is END:
                        break
                    handed_on = self.observe(event)
                    if handed_on is not None:
                        events += 1
                        yield Emit(handed_on)
            except Exception as e:  # judged once the stream is closed
                error = e
            # Not in a ``finally``: a closed generator must not yield; its driver closes the stream.
            yield Close(stream)
            if isinstance(error, Gone):
                log.debug("watch at resourceVersion %s: %s; listing again", self.resource_version, error)
                yield from self._relist()
            elif error is not None and not _retriable(error):
                raise error
            elif error is not None or (events == 0 and self.clock() - started < SHORT_WATCH):
                log.debug("watch at resourceVersion %s ended (%s); backing off", self.resource_version,
                          error or "at once, without an event")
                yield Sleep(self.backoff.next_delay())

    def _relist(self) -> WatcherSteps:
        """After a 410: a consistent list (retried on what a backoff may cure) and the changes it shows."""
        self.relists += 1
        while True:
            try:
                listed = yield ListAll(dict(self.options))
                break
            except Exception as e:
                if not _retriable(e):
                    raise
                yield Sleep(self.backoff.next_delay())
        for change in self.replace(listed):
            yield Emit(change)
