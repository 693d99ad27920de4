"""An open watch on one resource, sync and async: client-go's ``watch.Interface`` over a
streamed response.

The stream only reads chunks and stops; decoding them into events is ``WatchDecoder``'s
(``kgen.runtime.rest.watch``), shared by both flavours.
"""

from __future__ import annotations

import socket
from collections.abc import AsyncIterator, Iterator
from typing import Generic, TypeVar

import httpx

from kgen.runtime.rest.content_encoding import decode_every_gzip_member
from kgen.runtime.rest.watch import Bookmark, WatchDecoder, WatchEvent

T = TypeVar("T")
"""The type of the watched objects."""


class WatchStream(Generic[T]):
    """An open watch (client-go's ``watch.Interface``): iterate it for events; ``stop()``, from
    any thread, ends the iteration. Use it as a context manager so the connection is released.

    The stream is the wire's: every ``Bookmark`` the server sends is in it (the reflector needs
    them); the typed clients' ``watch()`` leaves them out unless asked for.

    ``open_watch`` raises what the server answers at connect time (410, 429...); an ``ERROR``
    event raises its ``ApiError`` from the iteration; a dropped connection raises httpx's error,
    unless the stream was stopped, which ends the iteration quietly.
    """

    def __init__(self, response: httpx.Response, decoder: WatchDecoder[T]) -> None:
        decode_every_gzip_member(response)  # a watch-list comes gzipped, one member per flush
        self._response = response
        self._decoder = decoder
        self._stopped = False
        self._events: Iterator[WatchEvent[T] | Bookmark] | None = None

    def __iter__(self) -> Iterator[WatchEvent[T] | Bookmark]:
        """The events. A watch is one stream: iterating again after a ``break`` goes on with the
        next event (a reflector reads a watch-list's initial events, then keeps the stream)."""
        if self._events is None:
            self._events = self._read()
        return self._events

    def _read(self) -> Iterator[WatchEvent[T] | Bookmark]:
        if self._stopped:
            return
        try:
            for chunk in self._response.iter_bytes():
                yield from self._decoder.feed(chunk)
            yield from self._decoder.finish()
        except Exception:
            if not self._stopped:
                raise

    def stop(self) -> None:
        """Ends the iteration, even one blocked in a read on another thread."""
        self._stopped = True
        # Closing a response from another thread does not wake a blocked read; shutting the
        # socket down does (the reader then sees EOF and closes the response itself).
        stream = self._response.extensions.get("network_stream")
        sock = stream.get_extra_info("socket") if stream is not None else None
        if isinstance(sock, socket.socket):
            try:
                socket.socket.shutdown(sock, socket.SHUT_RDWR)  # the plain socket's, also under TLS
            except OSError:
                pass

    def close(self) -> None:
        """Close the response."""
        self._response.close()

    def __enter__(self) -> "WatchStream[T]":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class AsyncWatchStream(Generic[T]):
    """``WatchStream`` on asyncio: ``async for event in stream``; cancel the iterating task (or
    call ``stop()`` between events) to end it; ``async with`` releases the connection."""

    def __init__(self, response: httpx.Response, decoder: WatchDecoder[T]) -> None:
        decode_every_gzip_member(response)  # a watch-list comes gzipped, one member per flush
        self._response = response
        self._decoder = decoder
        self._stopped = False
        self._events: AsyncIterator[WatchEvent[T] | Bookmark] | None = None

    def __aiter__(self) -> AsyncIterator[WatchEvent[T] | Bookmark]:
        """The events; as ``WatchStream``'s, a second ``async for`` goes on where the first left off."""
        if self._events is None:
            self._events = self._read()
        return self._events

    async def _read(self) -> AsyncIterator[WatchEvent[T] | Bookmark]:
        if self._stopped:
            return
        try:
            async for chunk in self._response.aiter_bytes():
                for event in self._decoder.feed(chunk):
                    yield event
            for event in self._decoder.finish():
                yield event
        except Exception:
            if not self._stopped:
                raise

    def stop(self) -> None:
        """End the iteration after the event being read."""
        self._stopped = True

    async def aclose(self) -> None:
        """Close the response."""
        await self._response.aclose()

    async def __aenter__(self) -> "AsyncWatchStream[T]":
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()
