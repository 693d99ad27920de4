"""Watch streams: newline-delimited JSON events, decoded as they arrive.

``WatchDecoder`` is the protocol alone (no I/O): it takes raw chunks — a chunk may end inside
an event or inside a UTF-8 sequence, since events are split on the newline *byte* before any
text is decoded — and yields typed events. ``ERROR`` events (and a bare ``Status`` where an
event was expected) raise the typed ``ApiError``: a 410 there means "relist".
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

import msgspec

from kgen.runtime.apimachinery.errors import error_from_status

T = TypeVar("T")

ADDED, MODIFIED, DELETED, BOOKMARK, ERROR = "ADDED", "MODIFIED", "DELETED", "BOOKMARK", "ERROR"


@dataclass(frozen=True)
class WatchEvent(Generic[T]):
    type: str  # ADDED, MODIFIED, DELETED or BOOKMARK
    object: T


class _RawEvent(msgspec.Struct):
    type: str = ""
    object: msgspec.Raw = msgspec.Raw(b"null")
    kind: str = ""  # set when the line is a bare Status instead of an event


_event_decoder = msgspec.json.Decoder(_RawEvent)


class WatchDecoder(Generic[T]):
    def __init__(self, decode_object: Callable[[bytes], T], request: str = "") -> None:
        self._decode_object = decode_object
        self._buffer = bytearray()
        self._request = request

    def feed(self, chunk: bytes) -> Iterator[WatchEvent[T]]:
        """The events ``chunk`` completes, one at a time: an ``ERROR`` raises only after the
        events before it (in the same chunk too) have reached the caller."""
        self._buffer += chunk
        return self._complete_lines()

    def _complete_lines(self) -> Iterator[WatchEvent[T]]:
        while (end := self._buffer.find(b"\n")) >= 0:
            line = bytes(self._buffer[:end])
            del self._buffer[: end + 1]
            if line.strip():
                yield self._event(line)

    def finish(self) -> Iterator[WatchEvent[T]]:
        """The events left when the stream ends: a last line may lack its newline."""
        self._buffer += b"\n"
        return self._complete_lines()

    def _event(self, line: bytes) -> WatchEvent[T]:
        raw = _event_decoder.decode(line)
        if raw.type == ERROR or (not raw.type and raw.kind == "Status"):
            status: dict[str, Any] = msgspec.json.decode(raw.object if raw.type else line)
            raise error_from_status(status, 0, self._request)
        return WatchEvent(raw.type, self._decode_object(bytes(raw.object)))
