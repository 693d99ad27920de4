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
  wait a random part of that). The steps, the retry loop and what ends a write are tools/record's
  (``kgen.runtime.tools.record.event``), as client-go's two packages write alike.

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

from kgen.runtime.apimachinery.types import format_micro_time
from kgen.runtime.tools.record.event import (DEFAULT_SLEEP_DURATION, MAX_TRIES_PER_EVENT, CreateEvent, PatchEvent,
                                             Sleep, Step, settled, write_with_retries)
from kgen.runtime.tools.record.util import generate_event_name, is_key_not_found_error

__all__ = ["FINISH_TIME", "REFRESH_TIME", "MAX_TRIES_PER_EVENT", "CreateEvent", "Event", "PatchEvent", "SeriesCache",
           "Sleep", "Steps", "describe", "make_event", "micro_time", "record_steps"]

log = logging.getLogger("kgen.runtime.tools.events")
"""The logger of events dropped by a full queue."""

Event = dict[str, Any]
"""An events.k8s.io/v1 Event as JSON."""

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


Steps = Generator[Step, Any, "Event | None"]
"""An Event's write (tools/record's steps: ``PatchEvent``, ``CreateEvent``, ``Sleep``), each
write step answered with the server's Event or what the write raised; returns the server's copy
of what it wrote, or None."""


def record_steps(event: Event, sleep_duration: float = DEFAULT_SLEEP_DURATION,
                 rand: Callable[[], float] = random.random, retry: bool = True) -> Steps:
    """attemptRecording (``retry``: up to 12 tries) or one recordEvent (the timers' series writes)."""
    if not retry:
        _, written = yield from _record_event(event)
        return written
    result: Event | None = yield from write_with_retries(lambda: _record_event(event), describe(event),
                                                         sleep_duration, rand)
    return result


def _record_event(event: Event) -> Generator[Step, Any, tuple[bool, Event | None]]:
    """recordEvent: a series is a patch of ``series`` (a create if that Event is gone), anything
    else a create; (done, the server's Event or None)."""
    series = event.get("series")
    outcome: Any = None
    if series is not None:
        outcome = yield PatchEvent(event, {"series": dict(series)})
    if series is None or is_key_not_found_error(outcome):
        event["metadata"].pop("resourceVersion", None)
        outcome = yield CreateEvent(event)
    done = settled(outcome, describe(event))
    return done, (None if isinstance(outcome, BaseException) else outcome)


def describe(event: Event) -> str:
    """``<type> <reason> about <kind> <namespace>/<name>``, for logs."""
    ref = event.get("regarding") or {}
    return f"{event.get('type')} {event.get('reason')} about {ref.get('kind')} {ref.get('namespace')}/{ref.get('name')}"
