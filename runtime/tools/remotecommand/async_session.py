"""A remote-command session on asyncio: ``AsyncExecSession``, a reader task over the I/O-free
channels and buffers (kgen.runtime.tools.remotecommand.protocol). The sync ``ExecSession``
(kgen.runtime.tools.remotecommand.session) runs this one on an event loop of its own."""

from __future__ import annotations

import asyncio
import select
import time
from collections.abc import AsyncIterator, Callable, Generator
from typing import TYPE_CHECKING, Any

from kgen.runtime.tools.remotecommand.protocol import (
    DEFAULT_BUFFER_LIMIT,
    PROTOCOLS,
    STDERR,
    STDOUT,
    Channels,
    ExecResult,
    OutputBuffer,
    RemoteCommandError,
    stdin_bytes,
)

if TYPE_CHECKING:
    from websockets.asyncio.client import ClientConnection

    from kgen.runtime.rest.client import AsyncRESTClient

__all__ = ["AsyncExecSession", "AsyncOutputStream", "AsyncStdinStream", "OpeningSession", "open_async_session",
           "run_async"]


def _unread(ws: ClientConnection) -> bool:
    """Whether the connection's socket holds bytes (or its end) the loop has not read yet."""
    transport = ws.transport
    sock = transport.get_extra_info("socket") if transport is not None else None
    try:
        fd = sock.fileno() if sock is not None else -1
        if fd < 0:
            return False
        if hasattr(select, "poll"):
            poller = select.poll()
            poller.register(fd, select.POLLIN)
            return bool(poller.poll(0))
        return bool(select.select([fd], [], [], 0)[0])
    except (OSError, ValueError):
        return False


class AsyncOutputStream:
    """``OutputStream`` on asyncio: ``await read()``, ``await readline()``, ``async for line in``."""

    def __init__(self, session: AsyncExecSession, channel: int) -> None:
        self._session = session
        self._channel = channel

    async def read(self, size: int = -1) -> bytes:
        """Up to ``size`` bytes as soon as some are there; everything to the end when ``size`` < 0."""
        return await self._session._read(self._channel, lambda buffer: buffer.read(size))

    async def readline(self, size: int = -1) -> bytes:
        """The next line with its b"\\n" (the last one may lack it); b"" at the end."""
        return await self._session._read(self._channel, lambda buffer: buffer.readline(size))

    async def __aiter__(self) -> AsyncIterator[bytes]:
        while line := await self.readline():
            yield line


class AsyncStdinStream:
    """``StdinStream`` on asyncio: ``await write(data)``, ``await close()``."""

    def __init__(self, session: AsyncExecSession, requested: bool) -> None:
        self._session = session
        self._requested = requested
        self.closed = False

    def writable(self) -> bool:
        """Whether stdin was requested and is still open."""
        return self._requested and not self.closed

    async def write(self, data: bytes | bytearray | memoryview | str) -> int:
        """Sends ``data`` (a str as UTF-8); returns its length in bytes. ``BrokenPipeError`` once
        the command has ended."""
        frames = self._frames(data)
        for frame in frames:
            await self._session._send(frame)
        return sum(len(frame) - 1 for frame in frames)

    def _frames(self, data: bytes | bytearray | memoryview | str) -> list[bytes]:
        # What a write sends, or why it cannot (the sync session checks with it too).
        if not self._requested:
            raise ValueError("stdin was not requested: open the session with stdin=True")
        if self.closed:
            raise ValueError("write to closed stdin")
        return list(self._session._channels.stdin_frames(stdin_bytes(data)))

    async def close(self) -> None:
        """Ends stdin (v5's close signal); closing again does nothing."""
        if self._requested and not self.closed:
            self.closed = True
            await self._session._send(self._session._channels.close_stdin_frame())


class AsyncExecSession:
    """``ExecSession`` on asyncio; ``async with`` closes the connection on leaving."""

    def __init__(self, ws: ClientConnection, channels: Channels, *, stdin: bool, stdout: bool, stderr: bool,
                 tty: bool, buffer_limit: int | None = DEFAULT_BUFFER_LIMIT) -> None:
        self._ws = ws
        self._channels = channels
        self.tty = tty
        self._cond = asyncio.Condition()
        self._buffers = {
            STDOUT: OutputBuffer(buffer_limit, requested=stdout),
            STDERR: OutputBuffer(buffer_limit, requested=stderr and not tty),
        }
        self.stdin = AsyncStdinStream(self, stdin)
        self.stdout = AsyncOutputStream(self, STDOUT)
        self.stderr = AsyncOutputStream(self, STDERR)
        self._send_lock = asyncio.Lock()
        self._done = False
        self._closing = False
        self._exit_code: int | None = None
        self._error: RemoteCommandError | None = None
        self._reader = asyncio.get_running_loop().create_task(self._receive(), name="kgen-remotecommand-reader")

    @property
    def what(self) -> str:
        """The session as errors name it: ``exec 'ls' in pod ns/name``."""
        return self._channels.what

    @property
    def protocol(self) -> str:
        """The negotiated subprotocol."""
        return self._channels.protocol

    @property
    def exit_code(self) -> int | None:
        """The exit code once the command has ended, else None."""
        return self._exit_code

    async def _receive(self) -> None:
        from websockets.exceptions import ConnectionClosed

        ended: BaseException | None = None
        try:
            while True:
                routed = self._channels.route(await self._ws.recv())
                if routed is None:
                    continue
                channel, data = routed
                async with self._cond:
                    buffer = self._buffers[channel]
                    while buffer.full() and not self._closing:
                        await self._cond.wait()
                    buffer.feed(data)
                    self._cond.notify_all()
        except (ConnectionClosed, RemoteCommandError, OSError) as e:
            ended = e
        exit_code, error = self._channels.outcome(ended, self._closing)
        async with self._cond:
            self._exit_code, self._error = exit_code, error
            for buffer in self._buffers.values():
                buffer.end()
            self._done = True
            self._cond.notify_all()

    async def _read(self, channel: int, take: Callable[[OutputBuffer], bytes | None]) -> bytes:
        async with self._cond:
            buffer = self._buffers[channel]
            while (data := take(buffer)) is None:
                await self._cond.wait()
            self._cond.notify_all()
            return data

    async def _send(self, frame: bytes) -> None:
        from websockets.exceptions import ConnectionClosed

        try:
            async with self._send_lock:
                if _unread(self._ws):
                    # What the server sent is read before anything more is written: a command that
                    # exits while stdin is still being sent ends the connection, a write after
                    # that fails (EPIPE, ECONNRESET), and asyncio then drops the connection with
                    # the status and the close frame unread in the socket, losing the exit code.
                    # `sh -c "exit 3"` given 1 MiB of stdin on the test cluster lost it 41 times
                    # in 120 without this, 9 with it (100 kB: 17 -> 1); kubectl 0 in 30. Two
                    # turns of the loop: the read callback is queued after this task's.
                    await asyncio.sleep(0)
                    await asyncio.sleep(0)
                await self._ws.send(frame)
        except (ConnectionClosed, OSError):
            raise BrokenPipeError(f"{self.what}: the session has ended") from None

    async def resize(self, width: int, height: int) -> None:
        """Tells the terminal its new size: ``width`` columns, ``height`` rows (a TTY session)."""
        await self._send(self._resize_frame(width, height))

    def _resize_frame(self, width: int, height: int) -> bytes:
        if not self.tty:
            raise ValueError("resize needs a terminal: open the session with tty=True")
        return self._channels.resize_frame(width, height)

    async def wait(self, timeout: float | None = None) -> int:
        """Waits for the command to end and returns its exit code; ``RemoteCommandError`` when the
        remote side failed it, ``TimeoutError`` after ``timeout`` seconds."""
        async with self._cond:
            for buffer in self._buffers.values():
                buffer.limit = None
            self._cond.notify_all()
        try:
            await asyncio.wait_for(asyncio.shield(self._reader), timeout)
        except asyncio.TimeoutError:
            raise TimeoutError(f"{self.what}: still running after {timeout} s") from None
        return self._result()

    def _result(self) -> int:
        # The exit code of the ended session, or the error that ended it.
        if self._error is not None:
            raise self._error
        if self._exit_code is None:
            raise RemoteCommandError("the session was closed before the command ended", what=self.what)
        return self._exit_code

    async def close(self) -> None:
        """Closes the connection and waits for the reader task."""
        async with self._cond:
            self._closing = not self._done
            self._cond.notify_all()
        await self._ws.close()
        await self._reader

    async def __aenter__(self) -> AsyncExecSession:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    def __repr__(self) -> str:
        state = "running" if self._exit_code is None else f"exit code {self._exit_code}"
        return f"AsyncExecSession({self.what!r}, {self.protocol}, {state})"


class OpeningSession:
    """What the async ``exec_stream`` / ``attach_stream`` return: ``async with`` it (the session
    is closed on leaving), or ``await`` it for the session itself."""

    def __init__(self, opening: Callable[[], Any]) -> None:
        self._opening = opening
        self._session: AsyncExecSession | None = None

    def __await__(self) -> Generator[Any, None, AsyncExecSession]:
        session: AsyncExecSession = yield from self._opening().__await__()
        return session

    async def __aenter__(self) -> AsyncExecSession:
        self._session = await self._opening()
        return self._session

    async def __aexit__(self, *exc: object) -> None:
        if self._session is not None:
            await self._session.close()


async def open_async_session(rest: AsyncRESTClient, path: str, params: list[tuple[str, str]], *, what: str,
                             stdin: bool, stdout: bool, stderr: bool, tty: bool,
                             buffer_limit: int | None = DEFAULT_BUFFER_LIMIT,
                             timeout: float | None = None) -> AsyncExecSession:
    """Opens the WebSocket (v5, else v4) and starts the session."""
    from kgen.runtime.rest.websocket import async_connect

    ws = await async_connect(rest, path, params, subprotocols=PROTOCOLS, timeout=timeout)
    assert ws.subprotocol is not None
    return AsyncExecSession(ws, Channels(ws.subprotocol, what), stdin=stdin, stdout=stdout, stderr=stderr, tty=tty,
                            buffer_limit=buffer_limit)


async def run_async(rest: AsyncRESTClient, path: str, params: list[tuple[str, str]], *, what: str,
                    stdin: bytes | None, tty: bool, timeout: float | None) -> ExecResult:
    """``run`` on asyncio: the whole session within ``timeout``."""
    started = time.monotonic()
    opened: list[AsyncExecSession] = []

    async def whole() -> ExecResult:
        session = await open_async_session(rest, path, params, what=what, stdin=stdin is not None, stdout=True,
                                           stderr=True, tty=tty, buffer_limit=None, timeout=timeout)
        opened.append(session)
        try:
            if stdin is not None:
                try:
                    await session.stdin.write(stdin)
                    await session.stdin.close()
                except BrokenPipeError:
                    pass  # the command ended without reading it all; its exit tells
            try:
                code = await session.wait()
            except RemoteCommandError as e:
                e.stdout, e.stderr = await session.stdout.read(), await session.stderr.read()
                raise
            return ExecResult(await session.stdout.read(), await session.stderr.read(), code)
        finally:
            await session.close()

    try:
        return await asyncio.wait_for(whole(), timeout)
    except (asyncio.TimeoutError, TimeoutError):
        if timeout is not None and time.monotonic() - started >= timeout:
            yet = "" if opened else " (no connection yet)"
            raise TimeoutError(f"{what}: did not finish within {timeout} s{yet}") from None
        raise
