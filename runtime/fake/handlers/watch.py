"""Watch streams, as the apiserver's watch cache serves them.

A watch from a resourceVersion replays the history after it, then follows new writes; ``""``
or ``"0"`` (or ``sendInitialEvents=true``, which needs ``resourceVersionMatch=NotOlderThan`` as
on the apiserver) first sends the current objects as ADDED, ended by a BOOKMARK with the
``k8s.io/initial-events-end`` annotation when bookmarks are allowed. An
object that stops (or starts) matching the selector is DELETED (or ADDED) for this watch, as
the watch cache filters. BOOKMARKs come every ``bookmark_interval`` and at ``timeoutSeconds``;
a watch that falls behind the history (``compact()``, or ``history`` writes later) gets a 410
Expired ERROR event and ends, which is what makes client-go's reflector relist.

A multi-version custom resource's watch sees the events of its one storage, each object in the
watch's version (``kgen.runtime.fake.schema.versions``).

``Watch.poll`` decides what to send and how long to sleep, with no I/O; ``WatchStream`` and
``AsyncWatchStream`` only wait, on a thread or on the event loop.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import httpx
import msgspec

from kgen.runtime.fake.errors import bad_request, expired, invalid
from kgen.runtime.fake.request import Call, Route, parse_rv
from kgen.runtime.fake.selectors import Predicate, selector
from kgen.runtime.fake.store import ADDED, DELETED, MODIFIED, Event, Obj, Store, copy
from kgen.runtime.fake.schema import versions

BOOKMARK, ERROR = "BOOKMARK", "ERROR"
INITIAL_EVENTS_END = "k8s.io/initial-events-end"
"""The annotation of the bookmark that ends a watch-list's initial events."""


def start(store: Store, route: Route, call: Call) -> Watch:
    """A new watch for a ``GET ...?watch=true``; the caller holds the store's lock."""
    params = call.params
    selected = selector(params)
    requested = params.get("resourceVersion") or ""
    send_initial = params.get("sendInitialEvents")
    bookmarks = params.get("allowWatchBookmarks") == "true"
    _validate_watch_list(send_initial, params.get("resourceVersionMatch"))
    try:
        timeout = float(params["timeoutSeconds"]) if params.get("timeoutSeconds") else None
    except ValueError:
        raise bad_request(f"invalid timeoutSeconds {params.get('timeoutSeconds')!r}") from None
    watch = Watch(store, route, selected, bookmarks, timeout, call.read_timeout)
    if send_initial == "true" or (send_initial is None and requested in ("", "0")):
        for key, obj in sorted(store.objects[route.info].items()):
            if (not route.namespace or key[0] == route.namespace) and selected(obj):
                watch.pending.append(_line(ADDED, versions.as_read(store, route.info, obj)))
        watch.cursor = store.rv
        if bookmarks:
            watch.pending.append(watch.bookmark({INITIAL_EVENTS_END: "true"}))
    else:
        watch.cursor = parse_rv(requested) if requested else store.rv
        if watch.cursor < store.floor:
            watch.expire(f"too old resource version: {watch.cursor} ({store.floor})")
    return watch


def _validate_watch_list(send_initial: str | None, match: str | None) -> None:
    """The apiserver's rules for a watch's list options (ValidateListOptions): a watch-list
    (sendInitialEvents) needs resourceVersionMatch=NotOlderThan, and only a watch-list may set it."""
    if send_initial is not None and match != "NotOlderThan":
        message = "Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan"
    elif send_initial is None and match:
        message = "Forbidden: resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided"
    else:
        return
    raise invalid("ListOptions.meta.k8s.io", "", "resourceVersionMatch", "FieldValueForbidden", message)


def _line(event_type: str, obj: Mapping[str, Any]) -> bytes:
    return msgspec.json.encode({"type": event_type, "object": obj}) + b"\n"


@dataclass
class Watch:
    """One watch's state. ``poll`` (shared by both transports) says what to send now and how
    long nothing new can be due; only the waiting differs between sync and async."""

    store: Store
    route: Route
    selected: Predicate
    bookmarks: bool
    timeout: float | None
    read_timeout: float | None
    cursor: int = 0
    pending: list[bytes] = field(default_factory=list)
    closed: bool = False
    started: float = field(default_factory=time.monotonic)
    last_sent: float = field(default_factory=time.monotonic)
    next_bookmark: float = 0.0

    def __post_init__(self) -> None:
        self.next_bookmark = self.started + self.store.bookmark_interval

    def bookmark(self, annotations: Mapping[str, str] | None = None) -> bytes:
        """A BOOKMARK event line at the store's resourceVersion, with ``annotations``."""
        meta: Obj = {"resourceVersion": str(self.store.rv)}
        if annotations:
            meta["annotations"] = dict(annotations)
        info = self.route.info
        return _line(BOOKMARK, {"kind": info.kind, "apiVersion": info.api_version, "metadata": meta})

    def expire(self, message: str) -> None:
        """End the watch with a 410 Expired ERROR event carrying ``message``."""
        self.pending.append(_line(ERROR, expired(message).status))
        self.closed = True

    def close(self) -> None:
        """Close the watch and wake it."""
        with self.store.lock:
            self.closed = True
            self.store.wake()

    def _event_line(self, event: Event) -> bytes | None:
        """The line of a stored event for this watch, in its version, or None."""
        info = self.route.info
        if event.info != self.store.storage_of(info) or (self.route.namespace and event.key[0] != self.route.namespace):
            return None
        now_passes = event.type != DELETED and self.selected(event.obj)
        if event.type == DELETED:
            return _line(DELETED, versions.as_read(self.store, info, event.obj)) if self.selected(event.obj) else None
        was_passing = event.prev is not None and self.selected(event.prev)
        if now_passes:
            return _line(MODIFIED if was_passing else ADDED, versions.as_read(self.store, info, event.obj))
        if was_passing and event.prev is not None:
            # left the selection: the previous state, at this event's resourceVersion
            gone: Obj = copy(event.prev)
            gone["metadata"]["resourceVersion"] = str(event.rv)
            return _line(DELETED, versions.as_read(self.store, info, gone))
        return None

    def poll(self) -> tuple[bytes, float | None, bool, int]:
        """(bytes to send, seconds until a bookmark or the deadline is due, done, write sequence seen)."""
        store = self.store
        with store.lock:
            now = time.monotonic()
            out = b"".join(self.pending)
            self.pending.clear()
            if self.closed:
                return out, None, True, store.seq
            if self.cursor < store.floor:
                self.expire(f"too old resource version: {self.cursor} ({store.floor})")
                return out + b"".join(self.pending), None, True, store.seq
            lines = [line for e in store.events_after(self.cursor) if (line := self._event_line(e)) is not None]
            out += b"".join(lines)
            self.cursor = max(self.cursor, store.rv)
            deadline = self.started + self.timeout if self.timeout is not None else None
            done = deadline is not None and now >= deadline
            if self.bookmarks and (now >= self.next_bookmark or done):
                out += self.bookmark()
                self.next_bookmark = now + store.bookmark_interval
            if out:
                self.last_sent = now
            elif self.read_timeout is not None and now - self.last_sent >= self.read_timeout:
                raise httpx.ReadTimeout(f"no watch event for {self.read_timeout}s")
            due = [t for t in (deadline, self.next_bookmark if self.bookmarks else None) if t is not None]
            if self.read_timeout is not None:
                due.append(self.last_sent + self.read_timeout)
            wait = max(0.0, min(due) - now) if due else None
            return out, wait, done, store.seq


class WatchStream(httpx.SyncByteStream):
    """A watch's response body for httpx: event lines as they come."""

    def __init__(self, watch: Watch) -> None:
        self._watch = watch

    def __iter__(self) -> Iterator[bytes]:
        while True:
            data, wait, done, seen = self._watch.poll()
            if data:
                yield data
            if done:
                return
            if not data:
                self._watch.store.wait(seen, wait)

    def close(self) -> None:
        """Close the watch."""
        self._watch.close()


class AsyncWatchStream(httpx.AsyncByteStream):
    """A watch's response body for httpx.AsyncClient: event lines as they come."""

    def __init__(self, watch: Watch) -> None:
        self._watch = watch

    async def __aiter__(self) -> AsyncIterator[bytes]:
        while True:
            data, wait, done, seen = self._watch.poll()
            if data:
                yield data
            if done:
                return
            if not data:
                await self._watch.store.wait_async(seen, wait)

    async def aclose(self) -> None:
        """Close the watch."""
        self._watch.close()
