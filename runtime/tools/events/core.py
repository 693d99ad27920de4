"""client-go's tools/events without the I/O: the ``events.k8s.io/v1`` Event a recorder makes,
the cache that turns repeats into a series, and one Event's way to the server.

- ``make_event``: recorder.go's makeEvent: name ``<regarding>.<nanoseconds in hex>``, the
  regarding object's namespace (or ``default``), ``eventTime`` now (a MicroTime),
  ``reportingController``/``reportingInstance``, ``action``, ``reason``, ``regarding``, the
  optional ``related``, ``note`` and ``type``.
- ``SeriesCache``: event_broadcaster.go's eventCache, keyed as ``getKey`` keys it (action,
  reason, reporting controller, regarding, related). The first Event of a key is written; the
  second starts a series (``series.count`` 2 and ``lastObservedTime``) written as a patch of
  the first; later ones only count, in memory. Every ``REFRESH_TIME`` the series still going are
  written again (``refreshExistingEventSeries``); ``FINISH_TIME`` after a series' last
  observation its final count is written and the key forgotten, and a single Event's key is
  forgotten ``FINISH_TIME`` after its ``eventTime`` (``finishSeries``).
- ``record_steps``: ``recordEvent`` with ``attemptRecording``'s retries: a series is a strategic
  merge patch of ``series`` (a create if that Event is gone), anything else a create; an error
  answer abandons the event, a connection error is retried up to 12 times, 10 s apart (the first
  wait a random part of that).

Times are integer nanoseconds since the epoch.
"""

from __future__ import annotations

import copy
import datetime as _dt
import logging
import random
from collections.abc import Callable, Generator
from dataclasses import dataclass
from typing import Any

import httpx

from kgen.runtime.apimachinery.errors import ApiError
from kgen.runtime.apimachinery.types import format_micro_time
from kgen.runtime.tools.record.util import generate_event_name, is_key_not_found_error

log = logging.getLogger("kgen.runtime.tools.events")
"""The logger of events dropped or failing to be written."""

Event = dict[str, Any]
"""An events.k8s.io/v1 Event as JSON."""

MAX_TRIES_PER_EVENT = 12
"""client-go's maxTriesPerEvent."""
DEFAULT_SLEEP_DURATION = 10.0
"""Seconds between tries of a write (client-go's defaultSleepDuration)."""
FINISH_TIME = 6 * 60 * 1_000_000_000
"""Nanoseconds after which a quiet series is finished (client-go's finishTime, 6 minutes)."""
REFRESH_TIME = 30 * 60 * 1_000_000_000
"""Nanoseconds between the writes of a series still going (client-go's refreshTime, 30 minutes)."""
NAMESPACE_DEFAULT = "default"
"""The namespace of Events about cluster-scoped objects."""


def micro_time(unix_nano: int) -> str:
    """A metav1.MicroTime of ``unix_nano``."""
    return format_micro_time(_dt.datetime.fromtimestamp(unix_nano // 1000 / 1_000_000, _dt.timezone.utc))


def make_event(regarding: dict[str, str], related: dict[str, str] | None, type_: str, reason: str, action: str,
               note: str, *, controller: str, instance: str, now: int) -> Event:
    """recorder.go's makeEvent (``regarding`` and ``related`` are ObjectReference fields)."""
    event: Event = {
        "apiVersion": "events.k8s.io/v1", "kind": "Event",
        "metadata": {"name": generate_event_name(regarding.get("name", ""), now),
                     "namespace": regarding.get("namespace") or NAMESPACE_DEFAULT},
        "eventTime": micro_time(now),
        "reportingController": controller,
        "reportingInstance": instance,
        "action": action,
        "reason": reason,
        "regarding": dict(regarding),
        "note": note,
        "type": type_,
    }
    if related is not None:
        event["related"] = dict(related)
    return event


def _key(event: Event) -> tuple[Any, ...]:
    def ref(value: Any) -> tuple[tuple[str, Any], ...]:
        return tuple(sorted((value or {}).items()))

    return (event.get("action"), event.get("reason"), event.get("reportingController"), ref(event.get("regarding")),
            ref(event.get("related")))


@dataclass
class _Entry:
    event: Event
    observed: int  # eventTime (a single Event) or the series' last observation, in nanoseconds


class SeriesCache:
    """event_broadcaster.go's eventCache (see the module docstring); not thread-safe."""

    def __init__(self) -> None:
        self._entries: dict[tuple[Any, ...], _Entry] = {}

    def observe(self, event: Event, now: int) -> Event | None:
        """What to write for a new ``event``: itself (first of its key), the first one with a
        series of 2 (the second), or None (a later one: counted only)."""
        key = _key(event)
        entry = self._entries.get(key)
        if entry is None:
            self._entries[key] = _Entry(copy.deepcopy(event), now)
            return copy.deepcopy(event)
        series = entry.event.get("series")
        entry.observed = now
        if series is not None:
            series["count"] += 1
            series["lastObservedTime"] = micro_time(now)
            return None
        entry.event["series"] = {"count": 2, "lastObservedTime": micro_time(now)}
        return copy.deepcopy(entry.event)

    def recorded(self, written: Event) -> None:
        """The server's copy of a written Event replaces the cached one (its resourceVersion)."""
        entry = self._entries.get(_key(written))
        if entry is not None:
            series = entry.event.get("series")
            entry.event = copy.deepcopy(written)
            if series is not None:
                entry.event["series"] = series  # counts made since the write are kept

    def series_to_refresh(self) -> list[Event]:
        """Every series still going, to write again (refreshExistingEventSeries)."""
        return [copy.deepcopy(e.event) for e in self._entries.values() if e.event.get("series") is not None]

    def finish(self, now: int) -> list[Event]:
        """The series quiet for ``FINISH_TIME``, to write a last time; forgets them, and the
        single Events older than that (finishSeries)."""
        final = []
        for key, entry in list(self._entries.items()):
            if now - entry.observed > FINISH_TIME:
                if entry.event.get("series") is not None:
                    final.append(copy.deepcopy(entry.event))
                del self._entries[key]
        return final

    def __len__(self) -> int:
        return len(self._entries)


@dataclass(frozen=True)
class Patch:
    """Step: patch the Event's ``series`` (a strategic merge patch)."""

    event: Event
    patch: dict[str, Any]


@dataclass(frozen=True)
class Create:
    """Step: create the Event."""

    event: Event


@dataclass(frozen=True)
class Sleep:
    """Step: wait; the driver answers True if the broadcaster is shutting down."""

    seconds: float


Step = Patch | Create | Sleep
"""What an Event's write asks its driver to do."""
Steps = Generator[Step, Any, "Event | None"]
"""A write step is answered with the server's Event or the exception the write raised; the
generator returns the server's copy of what it wrote, or None."""


def record_steps(event: Event, sleep_duration: float = DEFAULT_SLEEP_DURATION,
                 rand: Callable[[], float] = random.random, retry: bool = True) -> Steps:
    """attemptRecording (``retry``) or one recordEvent (the series writes of the timers)."""
    tries = 0
    while True:
        done, written = yield from _record_event(event)
        if done or not retry:
            return written
        tries += 1
        if tries >= MAX_TRIES_PER_EVENT:
            log.error("Unable to write event %s (retry limit exceeded!)", describe(event))
            return None
        delay = sleep_duration * rand() if tries == 1 else sleep_duration
        if (yield Sleep(delay)):
            log.error("Unable to write event %s (the broadcaster is shut down)", describe(event))
            return None


def _record_event(event: Event) -> Generator[Step, Any, tuple[bool, Event | None]]:
    """recordEvent: (True, the server's Event or None) when written or abandoned, (False, None) to retry."""
    series = event.get("series")
    outcome: Any = None
    if series is not None:
        outcome = yield Patch(event, {"series": dict(series)})
    if series is None or is_key_not_found_error(outcome):
        event["metadata"].pop("resourceVersion", None)
        outcome = yield Create(event)
    if not isinstance(outcome, BaseException):
        return True, outcome
    if isinstance(outcome, ApiError):
        quiet = outcome.code == 409 and outcome.reason == "AlreadyExists"
        log.log(logging.DEBUG if quiet else logging.ERROR, "Server rejected event %s (will not retry!): %s",
                describe(event), outcome)
        return True, None
    if not isinstance(outcome, (httpx.TransportError, OSError)):
        log.error("Unable to construct event %s (will not retry!): %r", describe(event), outcome)
        return True, None
    log.error("Unable to write event %s (may retry after sleeping): %s", describe(event), outcome)
    return False, None


def describe(event: Event) -> str:
    """``<type> <reason> about <kind> <namespace>/<name>``, for logs."""
    ref = event.get("regarding") or {}
    return f"{event.get('type')} {event.get('reason')} about {ref.get('kind')} {ref.get('namespace')}/{ref.get('name')}"
