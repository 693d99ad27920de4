"""Splitting a streamed body into lines, I/O-free: the one core of ``stream_lines`` (sync and
async) and so of ``pods(ns).log``.

kubectl logs reads the stream with ``bufio.Reader.ReadBytes('\\n')`` and writes what it reads
as is: a line ends at ``\\n`` and nowhere else (a ``\\r`` of a progress bar, a form feed or
U+2028 stay inside it, where ``str.splitlines`` and httpx's line iterator would cut), and the
last piece of a stream that ends without a newline (``limitBytes`` cutting a line) is a line
too. ``LineBuffer`` keeps that rule, on bytes, so a line split across chunks or in the middle of
a UTF-8 sequence comes out whole.
"""

from __future__ import annotations

from collections.abc import AsyncIterable, AsyncIterator, Iterable, Iterator

__all__ = ["LineBuffer", "async_split_lines", "decode_line", "split_lines"]


class LineBuffer:
    """Bytes in, whole lines out: ``feed(chunk)`` returns the lines ``chunk`` completed, each with
    its ``\\n``; ``flush()`` the unterminated rest at the end of the stream (or None)."""

    def __init__(self) -> None:
        self._pending = bytearray()

    def feed(self, chunk: bytes) -> list[bytes]:
        """The lines completed by ``chunk``, in order, each ending with ``b"\\n"``."""
        if b"\n" not in chunk:
            self._pending += chunk
            return []
        self._pending += chunk
        end = self._pending.rindex(b"\n") + 1
        complete = bytes(self._pending[:end])
        del self._pending[:end]
        return [part + b"\n" for part in complete[:-1].split(b"\n")]

    def flush(self) -> bytes | None:
        """What is left after the last ``\\n`` when the stream ended (None if nothing)."""
        if not self._pending:
            return None
        rest = bytes(self._pending)
        self._pending.clear()
        return rest


def decode_line(line: bytes) -> str:
    """A line as text: UTF-8 (an invalid byte becomes U+FFFD rather than failing the stream, as a
    terminal shows it), without its ending ``\\n``."""
    return line.removesuffix(b"\n").decode("utf-8", errors="replace")


def split_lines(chunks: Iterable[bytes]) -> Iterator[bytes]:
    """The lines of a body read in ``chunks`` (``LineBuffer``'s rule), each with its ``\\n``
    but the unterminated last one."""
    buffer = LineBuffer()
    for chunk in chunks:
        yield from buffer.feed(chunk)
    if (rest := buffer.flush()) is not None:
        yield rest


async def async_split_lines(chunks: AsyncIterable[bytes]) -> AsyncIterator[bytes]:
    """``split_lines`` over chunks read asynchronously."""
    buffer = LineBuffer()
    async for chunk in chunks:
        for line in buffer.feed(chunk):
            yield line
    if (rest := buffer.flush()) is not None:
        yield rest
