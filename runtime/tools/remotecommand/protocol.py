"""The remote-command channel protocol (``v5.channel.k8s.io``, ``v4.channel.k8s.io``) without
I/O: what the sync and asyncio sessions share (client-go's tools/remotecommand websocket.go,
v4.go, v5.go and errorstream.go).

Over WebSocket each binary message carries one channel's bytes behind a one-byte channel
number: 0 stdin, 1 stdout, 2 stderr, 3 the error (status) channel, 4 terminal resizes. The
status channel carries, once the command has ended, a ``metav1.Status``: ``Success``, or
``Failure`` with reason ``NonZeroExitCode`` and the exit code in a cause of type ``ExitCode``
(a result, not an error), or any other ``Failure``, whose message is the remote side's error
(the command could not be started, the container is gone...). It is read to the end of the
connection and decoded then, as client-go's ``watchErrorStream`` does. v5 adds channel 255:
the message ``[255, n]`` closes the client's stream ``n``, so that a command reading stdin
(``cat``) sees its end; client-go sends it whatever the protocol (a v4 server ignores it, and
such a command then runs until the connection closes).

The apiserver starts each session with an empty message on the first output channel, and
ignores unknown channels; so does ``Channels.route``. A resize is the JSON
``{"Width":w,"Height":h}`` on channel 4, as client-go's encoder writes it (with a newline).

``OutputBuffer`` is the read side of one output stream, also without I/O: bytes in the order
they arrived, the end (or the error that ended it), and a high-water mark above which the
session stops reading the connection until the user reads (so that 10 MB of output streams
through a bounded buffer rather than into memory), lifted once the user waits for the exit.
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

STREAM_PROTOCOL_V5 = "v5.channel.k8s.io"
"""The protocol that adds closing stdin (client-go's remotecommand.StreamProtocolV5Name)."""
STREAM_PROTOCOL_V4 = "v4.channel.k8s.io"
"""The protocol of exit codes as Status (client-go's StreamProtocolV4Name)."""
PROTOCOLS = (STREAM_PROTOCOL_V5, STREAM_PROTOCOL_V4)
"""The subprotocols offered, preferred first."""

STDIN = 0
"""The channel of the command's stdin (client-go's remotecommand.StreamStdIn)."""
STDOUT = 1
"""The channel of the command's stdout (StreamStdOut)."""
STDERR = 2
"""The channel of the command's stderr (StreamStdErr); none with a TTY."""
ERROR = 3
"""The status channel (StreamErr): a metav1.Status once the command has ended."""
RESIZE = 4
"""The channel of terminal resizes (StreamResize)."""
CLOSE = 255
"""v5's close signal: ``[CLOSE, channel]`` ends the client's stream ``channel``."""

WRITE_CHUNK = 32 * 1024
"""Stdin goes out in messages of at most this many bytes (io.Copy's buffer in client-go)."""
DEFAULT_BUFFER_LIMIT = 1 << 20
"""Bytes of unread output per stream a session holds before it stops reading the connection."""
NON_ZERO_EXIT_CODE = "NonZeroExitCode"
"""The Status reason of a command that exited with a code other than 0."""
EXIT_CODE_CAUSE = "ExitCode"
"""The cause type carrying the exit code in such a Status."""

__all__ = [
    "CLOSE", "DEFAULT_BUFFER_LIMIT", "ERROR", "EXIT_CODE_CAUSE", "Channels", "ExecResult", "ExitCodeError",
    "NON_ZERO_EXIT_CODE", "OutputBuffer", "PROTOCOLS", "RESIZE", "RemoteCommandError", "STDERR", "STDIN", "STDOUT",
    "STREAM_PROTOCOL_V4", "STREAM_PROTOCOL_V5", "WRITE_CHUNK", "attach_query", "command_words", "decode_status",
    "describe", "exec_query", "stdin_bytes",
]


class RemoteCommandError(Exception):
    """The remote side failed the command: the status channel's ``Failure`` (the command could not
    be started, the container went away...), or a session that ended without one.

    ``message`` is the remote side's text (what kubectl prints after ``error:``), ``status`` the
    Status as received (None when there was none); ``stdout`` and ``stderr`` hold what the
    command wrote before, when the whole output was collected (``exec``/``attach``)."""

    def __init__(self, message: str, *, status: dict[str, Any] | None = None, what: str = "") -> None:
        super().__init__(f"{what}: {message}" if what else message)
        self.message = message
        self.status = status
        self.what = what
        self.stdout = b""
        self.stderr = b""


class ExitCodeError(RemoteCommandError):
    """The command exited with a non-zero code (raised by ``ExecResult.check()`` only: a
    non-zero exit is a result). The message is client-go's (``command terminated with exit
    code N``), as kubectl prints it."""

    def __init__(self, exit_code: int, *, what: str = "", stdout: bytes = b"", stderr: bytes = b"") -> None:
        super().__init__(f"command terminated with exit code {exit_code}", what=what)
        self.exit_code = exit_code
        self.stdout = stdout
        self.stderr = stderr


@dataclass(frozen=True)
class ExecResult:
    """What a command wrote and how it exited. ``stdout`` is all of the output when the session
    had a TTY (a terminal has one output stream), and ``stderr`` then empty."""

    stdout: bytes
    stderr: bytes
    exit_code: int

    def check(self) -> ExecResult:
        """This result when the command exited with 0, else ``ExitCodeError`` (with the output)."""
        if self.exit_code != 0:
            raise ExitCodeError(self.exit_code, stdout=self.stdout, stderr=self.stderr)
        return self

    def __repr__(self) -> str:
        return f"ExecResult(exit_code={self.exit_code}, stdout=<{len(self.stdout)} bytes>, stderr=<{len(self.stderr)} bytes>)"


# -- requests --------------------------------------------------------------------------------


def _flag(params: list[tuple[str, str]], name: str, value: object) -> None:
    if not isinstance(value, bool):
        raise TypeError(f"{name}: expected True or False, got {value!r}")
    if value:  # the options' fields are omitempty: a false flag is not sent
        params.append((name, "true"))


def _streams(container: str | None, stdin: bool, stdout: bool, stderr: bool, tty: bool) -> list[tuple[str, str]]:
    params: list[tuple[str, str]] = []
    _flag(params, "stdin", stdin)
    _flag(params, "stdout", stdout)
    _flag(params, "stderr", stderr and not tty)  # a terminal has one output stream
    _flag(params, "tty", tty)
    if not (stdin or stdout or (stderr and not tty)):
        raise ValueError("at least one of stdin, stdout and stderr must be requested")
    if container is not None:
        if not isinstance(container, str) or not container:
            raise ValueError(f"container: expected a container name, got {container!r}")
        params.append(("container", container))
    return params


def exec_query(command: Sequence[str], container: str | None, stdin: bool, stdout: bool, stderr: bool,
               tty: bool) -> list[tuple[str, str]]:
    """The query of a ``pods/exec`` request (PodExecOptions); checks the command's shape."""
    params = _streams(container, stdin, stdout, stderr, tty)
    for word in command_words(command):
        params.append(("command", word))
    return params


def command_words(command: Sequence[str]) -> list[str]:
    """``command`` as a list of strings, or a clear error: the apiserver runs no shell, so a
    command is its words (``["sh", "-c", "echo hi"]``), not one string."""
    if isinstance(command, (str, bytes)):
        raise TypeError(
            f"command: expected a sequence of strings such as ['sh', '-c', {command!r}], got a single string"
        )
    words = list(command)
    if not words:
        raise ValueError("command: expected at least one word, got an empty sequence")
    for word in words:
        if not isinstance(word, str):
            raise TypeError(f"command: expected strings, got {word!r}")
    return words


def attach_query(container: str | None, stdin: bool, stdout: bool, stderr: bool, tty: bool) -> list[tuple[str, str]]:
    """The query of a ``pods/attach`` request (PodAttachOptions)."""
    return _streams(container, stdin, stdout, stderr, tty)


def describe(verb: str, namespace: str | None, name: str, command: Sequence[str] | None = None) -> str:
    """How errors name a session: ``exec ['sh', '-c', 'exit 3'] in pod ns/name``."""
    where = f"pod {namespace}/{name}" if namespace else f"pod {name}"
    return f"{verb} {shlex.join(command)!r} in {where}" if command is not None else f"{verb} to {where}"


def stdin_bytes(data: object) -> bytes:
    """What a stdin write sends: bytes-like as they are, a str as UTF-8; else a clear error."""
    if isinstance(data, str):
        return data.encode()
    if isinstance(data, (bytes, bytearray, memoryview)):
        return bytes(data)
    raise TypeError(f"stdin: expected bytes or str, got {type(data).__name__}")


# -- the channels ----------------------------------------------------------------------------


def decode_status(message: bytes, what: str = "") -> int:
    """The exit code of a status channel's content (client-go's errorDecoderV4): 0 for an empty
    channel or ``Success``, the cause's code for ``NonZeroExitCode``; ``RemoteCommandError`` for
    any other failure, with the Status's message."""
    if not message:
        return 0
    try:
        status = json.loads(message)
    except ValueError:
        raise RemoteCommandError(f"error stream protocol error: not a Status: {message[:200]!r}", what=what) from None
    if not isinstance(status, dict):
        raise RemoteCommandError(f"error stream protocol error: not a Status: {message[:200]!r}", what=what)
    if status.get("status") == "Success":
        return 0
    if status.get("status") != "Failure":
        raise RemoteCommandError("error stream protocol error: unknown error", status=status, what=what)
    if status.get("reason") == NON_ZERO_EXIT_CODE:
        causes = (status.get("details") or {}).get("causes") or []
        for cause in causes:
            if isinstance(cause, dict) and cause.get("reason") == EXIT_CODE_CAUSE:
                code = str(cause.get("message", ""))
                if not code.isdigit() or int(code) > 255:
                    raise RemoteCommandError(f"error stream protocol error: invalid exit code value {code!r}",
                                             status=status, what=what)
                return int(code)
        raise RemoteCommandError(f"error stream protocol error: no {EXIT_CODE_CAUSE} cause given", status=status,
                                 what=what)
    raise RemoteCommandError(str(status.get("message") or "unknown error"), status=status, what=what)


class Channels:
    """One session's channels: routes received messages, frames what is sent, and decodes the
    status once the connection has ended."""

    def __init__(self, protocol: str, what: str) -> None:
        self.protocol = protocol
        self.what = what
        self._status = bytearray()

    def route(self, message: bytes | str) -> tuple[int, bytes] | None:
        """``(STDOUT or STDERR, data)`` for output to hand to the user; None for the rest (the
        status channel is kept until the end; empty and unknown channels are dropped)."""
        if isinstance(message, str):
            raise RemoteCommandError("unexpected text message on a channel stream", what=self.what)
        if len(message) < 2:
            return None
        channel = message[0]
        if channel == ERROR:
            self._status += message[1:]
            return None
        if channel in (STDOUT, STDERR):
            return channel, bytes(message[1:])
        return None

    @staticmethod
    def stdin_frames(data: bytes) -> Iterator[bytes]:
        """``data`` as stdin messages of at most ``WRITE_CHUNK`` bytes."""
        view = memoryview(data)
        for start in range(0, len(view), WRITE_CHUNK):
            yield bytes([STDIN]) + view[start:start + WRITE_CHUNK]

    @staticmethod
    def close_stdin_frame() -> bytes:
        """v5's signal that the client's stdin has ended."""
        return bytes([CLOSE, STDIN])

    @staticmethod
    def resize_frame(width: int, height: int) -> bytes:
        """A terminal resize to ``width`` columns and ``height`` rows."""
        for name, value in (("width", width), ("height", height)):
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 0xFFFF:
                raise ValueError(f"{name}: expected an integer from 0 to 65535, got {value!r}")
        return bytes([RESIZE]) + json.dumps({"Width": width, "Height": height}, separators=(",", ":")).encode() + b"\n"

    def has_status(self) -> bool:
        """Whether the status channel has said anything yet (the command has ended)."""
        return bool(self._status)

    @staticmethod
    def end_reason(error: BaseException | None) -> str | None:
        """Why the connection ended, from what ended the reader: None for a normal close (or
        none at all), else the reason an error reading the error stream names."""
        from websockets.exceptions import ConnectionClosed, ConnectionClosedOK

        if error is None or isinstance(error, ConnectionClosedOK):
            return None
        if isinstance(error, ConnectionClosed):
            return f"connection closed: {error}"
        if isinstance(error, RemoteCommandError):
            return error.message
        return f"connection lost: {error}"

    def outcome(self, error: BaseException | None, closed_early: bool) -> tuple[int | None, RemoteCommandError | None]:
        """The session's end, once the reader has stopped on ``error`` (None: a normal close):
        ``(exit code, None)``, or ``(None, the error)``; ``closed_early`` when the user closed
        the session, which then has no exit code unless the status had come."""
        try:
            if closed_early and not self._status:
                raise RemoteCommandError("the session was closed before the command ended", what=self.what)
            return self.exit_code(self.end_reason(error)), None
        except RemoteCommandError as e:
            return None, e

    def exit_code(self, closed_abnormally: str | None = None) -> int:
        """The exit code, once the connection has ended; ``closed_abnormally`` is the reason of a
        connection that did not close normally (client-go's error reading the error stream)."""
        if closed_abnormally is not None and not self._status:
            raise RemoteCommandError(f"error reading from error stream: {closed_abnormally}", what=self.what)
        return decode_status(bytes(self._status), self.what)


class OutputBuffer:
    """One output stream's unread bytes, its end, and its high-water mark (no I/O, no locks: the
    sessions hold theirs around every call)."""

    def __init__(self, limit: int | None = DEFAULT_BUFFER_LIMIT, *, requested: bool = True) -> None:
        self._data = bytearray()
        self._start = 0  # bytes already read at the front, dropped in bulk
        self.limit = limit
        self.ended = not requested

    def __len__(self) -> int:
        return len(self._data) - self._start

    def full(self) -> bool:
        """The session should stop reading the connection until some of this is read."""
        return self.limit is not None and len(self) >= self.limit and not self.ended

    def feed(self, data: bytes) -> None:
        """Bytes that arrived."""
        self._data += data

    def end(self) -> None:
        """No more bytes will arrive."""
        self.ended = True

    def _take(self, n: int) -> bytes:
        end = self._start + n
        out = bytes(self._data[self._start:end])
        self._start = end
        if self._start > 65536 and self._start * 2 > len(self._data):
            del self._data[:self._start]
            self._start = 0
        return out

    def read(self, size: int = -1) -> bytes | None:
        """Up to ``size`` bytes (all until the end when ``size`` < 0) if they can be had now, b""
        at the end, None when the caller must wait for more."""
        available = len(self)
        if size < 0:
            return self._take(available) if self.ended else None
        if size == 0:
            return b""
        if available:
            return self._take(min(size, available))
        return b"" if self.ended else None

    def readline(self, size: int = -1) -> bytes | None:
        """One line with its newline (or the rest at the end, or ``size`` bytes of a longer one),
        None when the caller must wait for more."""
        newline = self._data.find(b"\n", self._start)
        if newline >= 0 and (size < 0 or newline - self._start < size):
            return self._take(newline - self._start + 1)
        if 0 <= size <= len(self):
            return self._take(size)
        if self.ended:
            return self._take(len(self))
        return None
