"""A remote-command session for threaded code: ``ExecSession`` (client-go's wsStreamExecutor and
streamProtocolV4 with the caller's own streams), a blocking facade over ``AsyncExecSession``.

Each session runs the asyncio session (kgen.runtime.tools.remotecommand.async_session, dialed
with ``async_connect`` and ``async_twin`` of the pods client's REST client) on an event loop of
its own in one thread (kgen.runtime.util.loop_thread), as ``PortForwarder`` runs its forwarding;
every call here blocks until the loop has done it. So the connection's TLS socket is read and
written by that one thread only. The ``websockets`` sync client, used here before, reads the
socket on a thread of its own while the caller's thread writes it; ``ssl.SSLSocket`` does not
allow that, and over TLS 1.3 1 or 2 sessions in 100 stalled ~30 s or failed ("no close frame
received or sent", "connection closed while reading HTTP status line", ``ssl.SSLError``).

The semantics are the asyncio session's: output is pulled only as fast as it is read (each
stream holds at most ``DEFAULT_BUFFER_LIMIT`` unread bytes, a bound ``wait()`` lifts), and the
exit code is decoded once the server has closed the connection. ``close()`` ends the loop too;
a closed session still answers from its final state (what was left unread, the exit code or
the error) and a write to it raises ``BrokenPipeError``.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine, Iterator
from typing import TYPE_CHECKING, Any, TypeVar

from kgen.runtime.tools.remotecommand.async_session import AsyncExecSession, open_async_session, run_async
from kgen.runtime.tools.remotecommand.protocol import DEFAULT_BUFFER_LIMIT, STDERR, STDOUT, ExecResult, OutputBuffer
from kgen.runtime.util.loop_thread import LoopClosed, LoopThread

if TYPE_CHECKING:
    from kgen.runtime.rest.client import AsyncRESTClient, RESTClient

T = TypeVar("T")

__all__ = ["ExecSession", "OutputStream", "StdinStream", "open_session", "run"]


class OutputStream:
    """The command's stdout or stderr, read as a binary file: ``read``, ``readline``, and
    iteration over lines. Reads block until bytes arrive; b"" means the stream has ended. A
    stream that was not requested is empty."""

    def __init__(self, session: ExecSession, channel: int) -> None:
        self._session = session
        self._channel = channel

    def readable(self) -> bool:
        """True: this is a read-only stream."""
        return True

    def read(self, size: int = -1) -> bytes:
        """Up to ``size`` bytes as soon as some are there; everything to the end when ``size`` < 0."""
        return self._session._read(self._channel, lambda buffer: buffer.read(size))

    def readline(self, size: int = -1) -> bytes:
        """The next line with its b"\\n" (the last one may lack it); b"" at the end."""
        return self._session._read(self._channel, lambda buffer: buffer.readline(size))

    def __iter__(self) -> Iterator[bytes]:
        while line := self.readline():
            yield line


class StdinStream:
    """The command's stdin, written as a binary file; ``close()`` ends it (the command reads EOF)."""

    def __init__(self, session: ExecSession) -> None:
        self._session = session
        self._stream = session._session.stdin

    @property
    def closed(self) -> bool:
        """Whether ``close()`` has been called."""
        return self._stream.closed

    def writable(self) -> bool:
        """Whether stdin was requested and is still open."""
        return self._stream.writable()

    def write(self, data: bytes | bytearray | memoryview | str) -> int:
        """Sends ``data`` (a str as UTF-8); returns its length in bytes. ``BrokenPipeError`` once
        the command has ended."""
        frames = self._stream._frames(data)
        self._session._send(*frames)
        return sum(len(frame) - 1 for frame in frames)

    def flush(self) -> None:
        """Nothing to do: each write is sent at once."""

    def close(self) -> None:
        """Ends stdin (v5's close signal); closing again does nothing."""
        if self._stream.writable():
            def ended() -> None:
                self._stream.closed = True
                self._session._ended()

            self._session._call(self._stream.close, ended)


class ExecSession:
    """A running ``exec`` or ``attach``: ``stdin``, ``stdout``, ``stderr``, ``resize()``, ``wait()``;
    a context manager that closes the connection on leaving."""

    def __init__(self, loop: LoopThread, rest: AsyncRESTClient, session: AsyncExecSession) -> None:
        self._loop = loop
        self._rest = rest
        self._session = session
        self.tty = session.tty
        self.stdin = StdinStream(self)
        self.stdout = OutputStream(self, STDOUT)
        self.stderr = OutputStream(self, STDERR)

    @property
    def what(self) -> str:
        """The session as errors name it: ``exec 'ls' in pod ns/name``."""
        return self._session.what

    @property
    def protocol(self) -> str:
        """The negotiated subprotocol (``v5.channel.k8s.io``, or ``v4.channel.k8s.io``)."""
        return self._session.protocol

    @property
    def exit_code(self) -> int | None:
        """The exit code once the command has ended, else None."""
        return self._session.exit_code

    def _call(self, work: Callable[[], Coroutine[Any, Any, T]], closed: Callable[[], T]) -> T:
        """``work()`` run on the session's loop; ``closed()`` once the session is closed."""
        try:
            return self._loop.run(work())
        except LoopClosed:
            return closed()

    def _ended(self) -> Any:
        raise BrokenPipeError(f"{self.what}: the session has ended")

    def _read(self, channel: int, take: Callable[[OutputBuffer], bytes | None]) -> bytes:
        def left() -> bytes:  # the reader has ended every buffer: no more waiting
            return take(self._session._buffers[channel]) or b""

        return self._call(lambda: self._session._read(channel, take), left)

    def _send(self, *frames: bytes) -> None:
        async def send() -> None:
            for frame in frames:
                await self._session._send(frame)

        self._call(send, self._ended)

    def resize(self, width: int, height: int) -> None:
        """Tells the terminal its new size: ``width`` columns, ``height`` rows (a TTY session)."""
        self._send(self._session._resize_frame(width, height))

    def wait(self, timeout: float | None = None) -> int:
        """Waits for the command to end and returns its exit code; ``RemoteCommandError`` when the
        remote side failed it, ``TimeoutError`` after ``timeout`` seconds. Output not read yet
        stays readable."""
        return self._call(lambda: self._session.wait(timeout), self._session._result)

    def close(self) -> None:
        """Closes the connection (the server then ends the command's streams) and the session's
        event loop; closing again does nothing."""
        try:
            self._loop.run(self._session.close())
        except LoopClosed:
            return
        finally:
            try:
                self._loop.run(self._rest.close())
            except LoopClosed:
                pass
            finally:
                self._loop.close()

    def __enter__(self) -> ExecSession:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "running" if self.exit_code is None else f"exit code {self.exit_code}"
        return f"ExecSession({self.what!r}, {self.protocol}, {state})"


def _bridge(rest: RESTClient, what: str) -> tuple[LoopThread, AsyncRESTClient]:
    """A session's event loop, and the REST client it dials with (the same configuration)."""
    from kgen.runtime.rest.websocket import async_twin

    loop = LoopThread(f"kgen-remotecommand {what}")
    try:
        return loop, async_twin(rest)
    except BaseException:
        loop.close()
        raise


def _unbridge(loop: LoopThread, rest: AsyncRESTClient) -> None:
    try:
        loop.run(rest.close())
    finally:
        loop.close()


def open_session(rest: RESTClient, path: str, params: list[tuple[str, str]], *, what: str, stdin: bool,
                 stdout: bool, stderr: bool, tty: bool, buffer_limit: int | None = DEFAULT_BUFFER_LIMIT,
                 timeout: float | None = None) -> ExecSession:
    """Opens the WebSocket (v5, else v4) and starts the session."""
    loop, arest = _bridge(rest, what)
    try:
        session = loop.run(open_async_session(arest, path, params, what=what, stdin=stdin, stdout=stdout,
                                              stderr=stderr, tty=tty, buffer_limit=buffer_limit, timeout=timeout))
    except BaseException:
        _unbridge(loop, arest)
        raise
    return ExecSession(loop, arest, session)


def run(rest: RESTClient, path: str, params: list[tuple[str, str]], *, what: str, stdin: bytes | None, tty: bool,
        timeout: float | None) -> ExecResult:
    """A whole session: sends ``stdin`` and closes it, collects all output, returns the exit code
    (``run_async`` on a loop of its own)."""
    loop, arest = _bridge(rest, what)
    try:
        return loop.run(run_async(arest, path, params, what=what, stdin=stdin, tty=tty, timeout=timeout))
    finally:
        _unbridge(loop, arest)
