"""client-go's tools/remotecommand for Python: ``pods/exec`` and ``pods/attach`` over WebSocket
(``v5.channel.k8s.io``, ``v4.channel.k8s.io`` as fallback), as mixins of the generated pods
client (``PodCommands``, ``AsyncPodCommands``).

``pods(ns).exec(name, ["sh", "-c", "..."], stdin=b"...", timeout=...)`` runs a command to its
end and returns an ``ExecResult`` (stdout, stderr, exit code): a non-zero exit is a result, and
``check()`` turns it into ``ExitCodeError``. A command the remote side could not run (not
found, container gone) raises ``RemoteCommandError`` with the server's message, the one kubectl
prints. ``exec_stream`` gives a session with file-like ``stdin``, ``stdout`` and ``stderr``,
``resize()`` for a terminal and ``wait()`` for the exit code; ``attach`` and ``attach_stream``
are the same over ``pods/attach``, to the container's main process.

Every SPDY-only server is older than the supported releases (WebSocket exec is on by default
since 1.30), so kgen speaks WebSocket only. The protocol's rules live once, without I/O, in
``protocol``; ``async_session`` (asyncio) does the I/O, and ``session``'s ``ExecSession`` for
threaded code runs it on an event loop of its own.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kgen.runtime.gentype import AsyncResourceClient, ResourceClient
from kgen.runtime.tools.remotecommand.async_session import (
    AsyncExecSession,
    AsyncOutputStream,
    AsyncStdinStream,
    OpeningSession,
    open_async_session,
    run_async,
)
from kgen.runtime.tools.remotecommand.protocol import (
    PROTOCOLS,
    STREAM_PROTOCOL_V4,
    STREAM_PROTOCOL_V5,
    ExecResult,
    ExitCodeError,
    RemoteCommandError,
    attach_query,
    describe,
    exec_query,
    stdin_bytes,
)
from kgen.runtime.tools.remotecommand.session import ExecSession, OutputStream, StdinStream, open_session, run

__all__ = [
    "AsyncExecSession", "AsyncOutputStream", "AsyncPodCommands", "AsyncStdinStream", "ExecResult", "ExecSession",
    "ExitCodeError", "OpeningSession", "OutputStream", "PROTOCOLS", "PodCommands", "RemoteCommandError",
    "STREAM_PROTOCOL_V4", "STREAM_PROTOCOL_V5", "StdinStream",
]


def _stdin_bytes(stdin: bytes | str | None) -> bytes | None:
    return None if stdin is None else stdin_bytes(stdin)


def _timeout(timeout: float | None) -> float | None:
    if timeout is not None and (isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or timeout <= 0):
        raise ValueError(f"timeout: expected a positive number of seconds or None, got {timeout!r}")
    return timeout


def _where(client: ResourceClient[Any, Any] | AsyncResourceClient[Any, Any], name: str, verb: str) -> tuple[str, str]:
    if not isinstance(name, str) or not name:
        raise ValueError(f"name: expected a pod name, got {name!r}")
    namespace = client._req.namespace
    return client._req.resource.path(namespace, name, verb), namespace or ""


class PodCommands:
    """``exec`` and ``attach`` on the typed pods client."""

    _client: ResourceClient[Any, Any]

    def exec(self, name: str, command: Sequence[str], *, container: str | None = None,
             stdin: bytes | str | None = None, tty: bool = False, timeout: float | None = None) -> ExecResult:
        """Runs ``command`` (its words: ``["sh", "-c", "..."]``) in pod ``name`` to its end: its
        stdout, stderr and exit code. ``stdin`` is sent, then closed; ``timeout`` (seconds) bounds
        the whole call with a ``TimeoutError`` naming the pod and command. ``RemoteCommandError``
        when the command could not be run; an API error (``NotFound``, ``BadRequest``...) when the
        apiserver refused the request."""
        path, namespace = _where(self._client, name, "exec")
        params = exec_query(command, container, stdin is not None, True, True, tty)
        return run(self._client._rest, path, params, what=describe("exec", namespace, name, command),
                   stdin=_stdin_bytes(stdin), tty=tty, timeout=_timeout(timeout))

    def exec_stream(self, name: str, command: Sequence[str], *, container: str | None = None, stdin: bool = False,
                    stdout: bool = True, stderr: bool = True, tty: bool = False) -> ExecSession:
        """Starts ``command`` in pod ``name`` and returns the session, a context manager: write
        ``session.stdin``, read ``session.stdout`` / ``session.stderr``, ``resize()`` a terminal,
        ``wait()`` for the exit code. With ``tty`` there is one output stream, stdout."""
        path, namespace = _where(self._client, name, "exec")
        params = exec_query(command, container, stdin, stdout, stderr, tty)
        return open_session(self._client._rest, path, params, what=describe("exec", namespace, name, command),
                            stdin=stdin, stdout=stdout, stderr=stderr, tty=tty)

    def attach(self, name: str, *, container: str | None = None, stdin: bytes | str | None = None, tty: bool = False,
               timeout: float | None = None) -> ExecResult:
        """Attaches to the main process of pod ``name`` (of ``container``) until it ends: what it
        wrote meanwhile and its exit code. ``stdin`` is sent, then closed; ``timeout`` bounds the
        whole call (``TimeoutError``)."""
        path, namespace = _where(self._client, name, "attach")
        params = attach_query(container, stdin is not None, True, True, tty)
        return run(self._client._rest, path, params, what=describe("attach", namespace, name),
                   stdin=_stdin_bytes(stdin), tty=tty, timeout=_timeout(timeout))

    def attach_stream(self, name: str, *, container: str | None = None, stdin: bool = False, stdout: bool = True,
                      stderr: bool = True, tty: bool = False) -> ExecSession:
        """Attaches to the main process of pod ``name``: the session, as ``exec_stream``'s."""
        path, namespace = _where(self._client, name, "attach")
        params = attach_query(container, stdin, stdout, stderr, tty)
        return open_session(self._client._rest, path, params, what=describe("attach", namespace, name),
                            stdin=stdin, stdout=stdout, stderr=stderr, tty=tty)


class AsyncPodCommands:
    """``PodCommands`` on asyncio: ``await pods.exec(...)``, ``async with pods.exec_stream(...)``."""

    _client: AsyncResourceClient[Any, Any]

    async def exec(self, name: str, command: Sequence[str], *, container: str | None = None,
                   stdin: bytes | str | None = None, tty: bool = False, timeout: float | None = None) -> ExecResult:
        """``PodCommands.exec``, awaited."""
        path, namespace = _where(self._client, name, "exec")
        params = exec_query(command, container, stdin is not None, True, True, tty)
        return await run_async(self._client._rest, path, params, what=describe("exec", namespace, name, command),
                               stdin=_stdin_bytes(stdin), tty=tty, timeout=_timeout(timeout))

    def exec_stream(self, name: str, command: Sequence[str], *, container: str | None = None, stdin: bool = False,
                    stdout: bool = True, stderr: bool = True, tty: bool = False) -> OpeningSession:
        """``PodCommands.exec_stream``: ``async with pods.exec_stream(...) as session`` (or awaited)."""
        path, namespace = _where(self._client, name, "exec")
        params = exec_query(command, container, stdin, stdout, stderr, tty)
        rest, what = self._client._rest, describe("exec", namespace, name, command)
        return OpeningSession(lambda: open_async_session(rest, path, params, what=what, stdin=stdin, stdout=stdout,
                                                         stderr=stderr, tty=tty))

    async def attach(self, name: str, *, container: str | None = None, stdin: bytes | str | None = None,
                     tty: bool = False, timeout: float | None = None) -> ExecResult:
        """``PodCommands.attach``, awaited."""
        path, namespace = _where(self._client, name, "attach")
        params = attach_query(container, stdin is not None, True, True, tty)
        return await run_async(self._client._rest, path, params, what=describe("attach", namespace, name),
                               stdin=_stdin_bytes(stdin), tty=tty, timeout=_timeout(timeout))

    def attach_stream(self, name: str, *, container: str | None = None, stdin: bool = False, stdout: bool = True,
                      stderr: bool = True, tty: bool = False) -> OpeningSession:
        """``PodCommands.attach_stream``: ``async with pods.attach_stream(...) as session``."""
        path, namespace = _where(self._client, name, "attach")
        params = attach_query(container, stdin, stdout, stderr, tty)
        rest, what = self._client._rest, describe("attach", namespace, name)
        return OpeningSession(lambda: open_async_session(rest, path, params, what=what, stdin=stdin, stdout=stdout,
                                                         stderr=stderr, tty=tty))
