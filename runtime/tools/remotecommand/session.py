"""A remote-command session on threads: ``ExecSession`` (client-go's wsStreamExecutor and
streamProtocolV4 with the caller's own streams).

One reader thread receives the connection's messages and hands stdout and stderr bytes to
their ``OutputBuffer``s (kgen.runtime.tools.remotecommand.protocol); past a buffer's
high-water mark it waits for the user to read, so the server's output is pulled only as fast
as it is consumed (the websockets library then stops reading the socket, and TCP slows the
server down). ``wait()`` lifts the mark: waiting for the exit must not stall on output nobody
has read yet. The caller's thread writes stdin and resizes. The exit code is decoded once the
server has closed the connection, as client-go reads the error stream to its end.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

from kgen.runtime.tools.remotecommand.protocol import (
    DEFAULT_BUFFER_LIMIT,
    STDERR,
    STDOUT,
    Channels,
    ExecResult,
    OutputBuffer,
    RemoteCommandError,
    stdin_bytes,
)

if TYPE_CHECKING:
    from websockets.sync.client import ClientConnection

    from kgen.runtime.rest.client import RESTClient

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

    def __init__(self, session: ExecSession, requested: bool) -> None:
        self._session = session
        self._requested = requested
        self.closed = False

    def writable(self) -> bool:
        """Whether stdin was requested and is still open."""
        return self._requested and not self.closed

    def write(self, data: bytes | bytearray | memoryview | str) -> int:
        """Sends ``data`` (a str as UTF-8); returns its length in bytes. ``BrokenPipeError`` once
        the command has ended."""
        if not self._requested:
            raise ValueError("stdin was not requested: open the session with stdin=True")
        if self.closed:
            raise ValueError("write to closed stdin")
        data = stdin_bytes(data)
        for frame in self._session._channels.stdin_frames(data):
            self._session._send(frame)
        return len(data)

    def flush(self) -> None:
        """Nothing to do: each write is sent at once."""

    def close(self) -> None:
        """Ends stdin (v5's close signal); closing again does nothing."""
        if self._requested and not self.closed:
            self.closed = True
            self._session._send(self._session._channels.close_stdin_frame())


class ExecSession:
    """A running ``exec`` or ``attach``: ``stdin``, ``stdout``, ``stderr``, ``resize()``, ``wait()``;
    a context manager that closes the connection on leaving."""

    def __init__(self, ws: ClientConnection, channels: Channels, *, stdin: bool, stdout: bool, stderr: bool,
                 tty: bool, buffer_limit: int | None = DEFAULT_BUFFER_LIMIT) -> None:
        self._ws = ws
        self._channels = channels
        self.tty = tty
        self._cond = threading.Condition()
        self._buffers = {
            STDOUT: OutputBuffer(buffer_limit, requested=stdout),
            STDERR: OutputBuffer(buffer_limit, requested=stderr and not tty),
        }
        self.stdin = StdinStream(self, stdin)
        self.stdout = OutputStream(self, STDOUT)
        self.stderr = OutputStream(self, STDERR)
        self._send_lock = threading.Lock()
        self._done = False
        self._closing = False
        self._aborted = False
        self._exit_code: int | None = None
        self._error: RemoteCommandError | None = None
        self._reader = threading.Thread(target=self._receive, name="kgen-remotecommand-reader", daemon=True)
        self._reader.start()

    @property
    def what(self) -> str:
        """The session as errors name it: ``exec 'ls' in pod ns/name``."""
        return self._channels.what

    @property
    def protocol(self) -> str:
        """The negotiated subprotocol (``v5.channel.k8s.io``, or ``v4.channel.k8s.io``)."""
        return self._channels.protocol

    @property
    def exit_code(self) -> int | None:
        """The exit code once the command has ended, else None."""
        with self._cond:
            return self._exit_code

    # -- the reader thread ------------------------------------------------------------------

    def _receive(self) -> None:
        from websockets.exceptions import ConnectionClosed

        ended: BaseException | None = None
        try:
            while True:
                routed = self._channels.route(self._ws.recv())
                if routed is None:
                    continue
                channel, data = routed
                with self._cond:
                    buffer = self._buffers[channel]
                    while buffer.full() and not self._closing:
                        self._cond.wait()
                    buffer.feed(data)
                    self._cond.notify_all()
        except (ConnectionClosed, RemoteCommandError, OSError) as e:
            ended = e
        exit_code, error = self._channels.outcome(ended, self._closing)
        with self._cond:
            self._exit_code, self._error = exit_code, error
            for buffer in self._buffers.values():
                buffer.end()
            self._done = True
            self._cond.notify_all()

    # -- the caller's side ------------------------------------------------------------------

    def _read(self, channel: int, take: Callable[[OutputBuffer], bytes | None]) -> bytes:
        with self._cond:
            buffer = self._buffers[channel]
            while (data := take(buffer)) is None:
                self._cond.wait()
            self._cond.notify_all()  # room again for the reader
            return data

    def _send(self, frame: bytes) -> None:
        from websockets.exceptions import ConnectionClosed

        try:
            with self._send_lock:
                self._ws.send(frame)
        except (ConnectionClosed, OSError):
            raise BrokenPipeError(f"{self.what}: the session has ended") from None

    def resize(self, width: int, height: int) -> None:
        """Tells the terminal its new size: ``width`` columns, ``height`` rows (a TTY session)."""
        if not self.tty:
            raise ValueError("resize needs a terminal: open the session with tty=True")
        self._send(self._channels.resize_frame(width, height))

    def wait(self, timeout: float | None = None) -> int:
        """Waits for the command to end and returns its exit code; ``RemoteCommandError`` when the
        remote side failed it, ``TimeoutError`` after ``timeout`` seconds. Output not read yet
        stays readable."""
        with self._cond:
            for buffer in self._buffers.values():
                buffer.limit = None
            self._cond.notify_all()
            if not self._cond.wait_for(lambda: self._done, timeout):
                raise TimeoutError(f"{self.what}: still running after {timeout} s")
            if self._error is not None:
                raise self._error
            assert self._exit_code is not None
            return self._exit_code

    def close(self) -> None:
        """Closes the connection (the server then ends the command's streams) and waits for the
        reader thread."""
        with self._cond:
            self._closing = not self._done
            self._cond.notify_all()
        self._ws.close()
        self._reader.join()

    def _abort(self) -> None:
        # For a timeout: drops the connection, even under a send that blocks.
        self._aborted = True
        try:
            self._ws.socket.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass

    def __enter__(self) -> ExecSession:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "running" if self.exit_code is None else f"exit code {self.exit_code}"
        return f"ExecSession({self.what!r}, {self.protocol}, {state})"


def open_session(rest: RESTClient, path: str, params: list[tuple[str, str]], *, what: str, stdin: bool,
                 stdout: bool, stderr: bool, tty: bool, buffer_limit: int | None = DEFAULT_BUFFER_LIMIT,
                 timeout: float | None = None) -> ExecSession:
    """Opens the WebSocket (v5, else v4) and starts the session."""
    from kgen.runtime.rest.websocket import connect
    from kgen.runtime.tools.remotecommand.protocol import PROTOCOLS

    ws = connect(rest, path, params, subprotocols=PROTOCOLS, timeout=timeout)
    assert ws.subprotocol is not None  # connect checks it is one of PROTOCOLS
    return ExecSession(ws, Channels(ws.subprotocol, what), stdin=stdin, stdout=stdout, stderr=stderr, tty=tty,
                       buffer_limit=buffer_limit)


def run(rest: RESTClient, path: str, params: list[tuple[str, str]], *, what: str, stdin: bytes | None, tty: bool,
        timeout: float | None) -> ExecResult:
    """A whole session: sends ``stdin`` and closes it, collects all output, returns the exit code."""
    deadline = None if timeout is None else time.monotonic() + timeout
    try:
        session = open_session(rest, path, params, what=what, stdin=stdin is not None, stdout=True, stderr=True,
                               tty=tty, buffer_limit=None, timeout=timeout)
    except TimeoutError:
        raise TimeoutError(f"{what}: did not finish within {timeout} s (no connection yet)") from None
    timer = None if deadline is None else threading.Timer(max(0.0, deadline - time.monotonic()), session._abort)
    try:
        if timer is not None:
            timer.daemon = True
            timer.start()
        if stdin is not None:
            try:
                session.stdin.write(stdin)
                session.stdin.close()
            except BrokenPipeError:
                pass  # the command ended without reading it all; its exit tells
        try:
            code = session.wait(None if deadline is None else max(0.0, deadline - time.monotonic()) + 1.0)
        except RemoteCommandError as e:
            if session._aborted:
                raise TimeoutError(f"{what}: did not finish within {timeout} s") from None
            e.stdout, e.stderr = session.stdout.read(), session.stderr.read()
            raise
        return ExecResult(session.stdout.read(), session.stderr.read(), code)
    finally:
        if timer is not None:
            timer.cancel()
        session.close()
