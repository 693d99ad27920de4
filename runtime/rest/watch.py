"""Watch streams: newline-delimited JSON events, decoded as they arrive.

``WatchDecoder`` is the protocol alone (no I/O): it takes raw chunks — a chunk may end inside
an event or inside a UTF-8 sequence, since events are split on the newline *byte* before any
text is decoded — and yields typed events. ``ERROR`` events (and a bare ``Status`` where an
event was expected) raise the typed ``ApiError``: a 410 there means "relist".

Two event types, as kube-rs's ``WatchEvent`` has them: ``WatchEvent[T]`` carries an object
(``type`` is ``"ADDED"``, ``"MODIFIED"`` or ``"DELETED"``, a ``Literal``), and ``Bookmark``
carries only what a BOOKMARK means: a resourceVersion and the annotations of the apiserver's
bookmark object (``k8s.io/initial-events-end`` ends a watch-list's initial events). A bookmark's
object is the kind with nothing but metadata set, so decoding it as ``T`` would hand out a model
whose required fields are missing; it is never decoded as one. Any other event type is an error,
as client-go's watch decoder makes it ("got invalid watch event type").
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Final, Generic, Literal, TypeVar

import msgspec

from kgen.runtime.apimachinery.errors import error_from_status

T = TypeVar("T")
"""The type of the watched objects."""

ADDED: Final = "ADDED"
"""A watch event's type: the object was added."""
MODIFIED: Final = "MODIFIED"
"""A watch event's type: the object was modified."""
DELETED: Final = "DELETED"
"""A watch event's type: the object was deleted (its last state)."""
BOOKMARK: Final = "BOOKMARK"
"""A watch event's type: a bookmark (only the resourceVersion is meaningful)."""
ERROR: Final = "ERROR"
"""A watch event's type: the watch failed (the object is a Status)."""

EventType = Literal["ADDED", "MODIFIED", "DELETED"]
"""The types of an event that carries an object."""

INITIAL_EVENTS_END = "k8s.io/initial-events-end"
"""The annotation of the bookmark that ends a watch-list's initial events (metav1.InitialEventsAnnotationKey)."""


@dataclass(frozen=True, slots=True)
class WatchEvent(Generic[T]):
    """An object added, modified or deleted (apimachinery's watch.Event with its object)."""

    type: EventType
    object: T


@dataclass(frozen=True)
class Bookmark:
    """A BOOKMARK: the stream has reached ``resource_version`` (resume a watch from there).
    The apiserver sends them to a watch that allows them (allowWatchBookmarks, which kgen's
    watches set); a typed client's ``watch()`` hands them on with ``bookmarks=True``."""

    resource_version: str
    annotations: Mapping[str, str] = field(default_factory=dict)
    type: Literal["BOOKMARK"] = "BOOKMARK"

    @property
    def initial_events_end(self) -> bool:
        """True on the bookmark that ends a watch-list's initial events (``sendInitialEvents``)."""
        return self.annotations.get(INITIAL_EVENTS_END) == "true"


class _BookmarkMeta(msgspec.Struct):
    resourceVersion: str = ""
    annotations: dict[str, str] | None = None


class _BookmarkObject(msgspec.Struct):
    metadata: _BookmarkMeta | None = None


class _RawEvent(msgspec.Struct):
    type: str = ""
    object: msgspec.Raw = msgspec.Raw(b"null")
    kind: str = ""  # set when the line is a bare Status instead of an event


_event_decoder = msgspec.json.Decoder(_RawEvent)
_bookmark_decoder = msgspec.json.Decoder(_BookmarkObject)
_OBJECT_EVENTS: frozenset[str] = frozenset((ADDED, MODIFIED, DELETED))


_OBJECT_EVENT_PREFIXES: tuple[tuple[bytes, EventType], ...] = tuple(
    (b'{"type":"%s","object":' % t.encode(), t) for t in (ADDED, MODIFIED, DELETED)
)
"""How the apiserver's encoder starts an event that carries an object: its object's bytes are
the rest of the line but its closing brace."""


class WatchDecodeError(ValueError):
    """A line of the stream that is no watch event (client-go's StreamWatcher: "unable to decode
    an event from the watch stream"): not JSON, not an event's shape, or an object its type does
    not decode. The message names the request (method and path, never the query or a
    credential) and where the line failed, never the line itself (it may hold a Secret's data)."""


class WatchDecoder(Generic[T]):
    """Decodes a watch stream's newline-delimited JSON events, fed in chunks cut anywhere:
    ``WatchEvent``s, ``Bookmark``s, and an ``ERROR`` event raised as its ``ApiError``."""

    def __init__(self, decode_object: Callable[[bytes], T], request: str = "") -> None:
        self._decode_object = decode_object
        self._buffer = bytearray()
        self._start = 0  # where the first line not yet handed out begins
        self._request = request

    def feed(self, chunk: bytes) -> Iterator[WatchEvent[T] | Bookmark]:
        """The events ``chunk`` completes, one at a time: an ``ERROR`` raises only after the
        events before it (in the same chunk too) have reached the caller."""
        self._compact()
        self._buffer += chunk
        return self._complete_lines()

    def _compact(self) -> None:
        # Lines handed out are dropped once per chunk, not once per line: a watch-list's chunk
        # holds hundreds of events, and deleting each from the front moved the rest every time.
        if self._start:
            del self._buffer[: self._start]
            self._start = 0

    def _complete_lines(self) -> Iterator[WatchEvent[T] | Bookmark]:
        buffer = self._buffer
        while (end := buffer.find(b"\n", self._start)) >= 0:
            line = bytes(buffer[self._start:end])
            self._start = end + 1  # before the yield: a consumer may stop at any event
            if line.strip():
                yield self._event(line)

    def finish(self) -> Iterator[WatchEvent[T] | Bookmark]:
        """The events left when the stream ends: a last line may lack its newline."""
        self._compact()
        self._buffer += b"\n"
        return self._complete_lines()

    def _event(self, line: bytes) -> WatchEvent[T] | Bookmark:
        try:
            return self._decode_event(line)
        except msgspec.MsgspecError as e:
            # msgspec says where (a byte offset, a JSON path) and what was expected, not the text.
            where = f"{self._request}: " if self._request else ""
            raise WatchDecodeError(
                f"{where}unable to decode an event from the watch stream ({len(line)} bytes): {e}"
            ) from e

    def _decode_event(self, line: bytes) -> WatchEvent[T] | Bookmark:
        fast = self._object_event(line)
        if fast is not None:
            return fast
        raw = _event_decoder.decode(line)
        if raw.type == ERROR or (not raw.type and raw.kind == "Status"):
            status: dict[str, Any] = msgspec.json.decode(raw.object if raw.type else line)
            raise error_from_status(status, 0, self._request)
        if raw.type == BOOKMARK:
            meta = _bookmark_decoder.decode(raw.object).metadata or _BookmarkMeta()
            return Bookmark(meta.resourceVersion, meta.annotations or {})
        if raw.type not in _OBJECT_EVENTS:
            where = f"{self._request}: " if self._request else ""
            raise WatchDecodeError(f"{where}got invalid watch event type: {raw.type!r}")
        event_type: EventType = raw.type  # type: ignore[assignment]  # checked just above
        return WatchEvent(event_type, self._decode_object(bytes(raw.object)))

    def _object_event(self, line: bytes) -> WatchEvent[T] | None:
        """An ADDED, MODIFIED or DELETED line as the apiserver writes it, decoded in one pass (the
        object's bytes sliced out, not scanned first as part of the event); None for anything
        else, or if the slice does not decode, which the full path then judges."""
        if not line.endswith(b"}"):
            return None
        for prefix, event_type in _OBJECT_EVENT_PREFIXES:
            if line.startswith(prefix):
                try:
                    return WatchEvent(event_type, self._decode_object(line[len(prefix):-1]))
                except Exception:  # noqa: BLE001 - not that shape after all: the full path decides
                    return None
        return None
