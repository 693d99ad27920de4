"""``kubectl cp`` for Python: files and directories into and out of a pod's container, as tar
over exec (k8s.io/kubectl/pkg/cmd/cp).

    from kgen.runtime.kubectl import copy_from_pod, copy_to_pod

    pods = cs.core_v1.pods("default")
    copy_to_pod(pods, "web-0", "./site", "/srv")          # kubectl cp ./site default/web-0:/srv
    copy_from_pod(pods, "web-0", "/var/log/app", "logs")  # kubectl cp default/web-0:/var/log/app logs

Into a pod, ``tar -xmf - -C <dir>`` runs in the container and reads the archive kgen writes to
its stdin; out of one, ``tar cf - <path>`` runs there and kgen unpacks its stdout. The container
needs a ``tar``, as for kubectl. The destination rules, the modes and kubectl's refusals (an
entry of the pod's tar escaping the destination, symlinks) are kubectl's, spelled out in
``_cp_tar``; the warnings are kubectl's words, logged on this module's logger and returned in
``CopyResult.warnings``.

``async_copy_to_pod`` / ``async_copy_from_pod`` do the same on the asyncio pods client: the
archive is read and written on a worker thread, a chunk at a time, and the exec session stays on
the event loop.
"""

from __future__ import annotations

import asyncio
import logging
import os
import tarfile
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

from kgen.runtime.kubectl._cp_tar import (
    CHUNK,
    CopyError,
    CopyResult,
    Readable,
    from_pod_prefix,
    go_base,
    go_clean,
    go_dir,
    go_join,
    local_path as local_spec,
    remote_path as remote_spec,
    tar_chunks,
    untar_all,
)
from kgen.runtime.tools.remotecommand import AsyncPodCommands, PodCommands, RemoteCommandError

__all__ = ["CopyError", "CopyResult", "async_copy_from_pod", "async_copy_to_pod", "copy_from_pod", "copy_to_pod"]

log = logging.getLogger(__name__)

CHECK_DIR_TIMEOUT = 30.0
"""Seconds kubectl gives ``test -d`` to say whether the remote destination is a directory."""


def _paths(source: str | os.PathLike[str], destination: str | os.PathLike[str], local_first: bool) -> tuple[str, str]:
    """The two paths as kubectl's file specs hold them; kubectl's refusal of an empty one."""
    raw = (os.fspath(source), os.fspath(destination))
    if not all(isinstance(p, str) and p for p in raw):
        raise ValueError(f"filepath can not be empty: got {raw[0]!r} and {raw[1]!r}")
    if local_first:
        return local_spec(raw[0]), remote_spec(raw[1])
    return remote_spec(raw[0]), local_spec(raw[1])


def _check_source(source: str) -> None:
    if not os.path.exists(source):  # os.Stat: a dangling symlink does not exist either
        raise FileNotFoundError(f"{source} doesn't exist in local filesystem")


def _extract_command(destination: str, no_preserve: bool) -> list[str]:
    """``tar -xmf -`` (without restoring owners and modes for ``no_preserve``) in the remote
    destination's directory."""
    command = ["tar", "--no-same-permissions", "--no-same-owner", "-xmf", "-"] if no_preserve else ["tar", "-xmf", "-"]
    return [*command, "-C", go_dir(destination)]


def _failed(code: int, stderr: bytes, what: str) -> CopyError:
    text = stderr.decode("utf-8", errors="replace")
    return CopyError(f"{what}: command terminated with exit code {code}" + (f": {text.strip()}" if text.strip() else ""),
                     exit_code=code, stderr=text)


def copy_to_pod(
    pods: PodCommands,
    pod: str,
    local_path: str | os.PathLike[str],
    remote_path: str,
    *,
    container: str | None = None,
    no_preserve: bool = False,
) -> CopyResult:
    """Copies the local file or directory ``local_path`` into pod ``pod`` as ``remote_path``
    (``kubectl cp LOCAL POD:REMOTE [-c CONTAINER] [--no-preserve]``): when ``remote_path`` is an
    existing directory in the container, into it under the local base name.
    ``FileNotFoundError`` when ``local_path`` does not exist; ``CopyError`` when the pod's tar
    fails (its exit code and stderr)."""
    source, destination = _paths(local_path, remote_path, local_first=True)
    _check_source(source)
    try:  # kubectl: any failure of the test but its timeout means "not a directory"
        into = pods.exec(pod, ["test", "-d", destination], container=container, timeout=CHECK_DIR_TIMEOUT).exit_code == 0
    except RemoteCommandError:
        into = False
    if into:
        destination = go_join(destination, go_base(source))
    command = _extract_command(destination, no_preserve)
    with pods.exec_stream(pod, command, container=container, stdin=True) as session:
        try:
            for chunk in tar_chunks(source, go_base(go_clean(destination))):
                session.stdin.write(chunk)
        except BrokenPipeError:
            pass  # tar in the pod stopped reading: its exit code and stderr say why
        else:
            session.stdin.close()
        session.stdout.read()
        stderr = session.stderr.read()
        code = session.wait()
    if code != 0:
        raise _failed(code, stderr, f"copying {source} to {pod}:{destination}")
    return CopyResult(destination=destination, stderr=stderr.decode("utf-8", errors="replace"))


def _unpack(reader: Readable, prefix: str, destination: str, result: CopyResult) -> None:
    """``untar_all`` with the rest of the stream read (tar pads its archive to a record)."""
    untar_all(reader, prefix, destination, result, log.warning)
    while reader.read(CHUNK):
        pass


def copy_from_pod(
    pods: PodCommands,
    pod: str,
    remote_path: str,
    local_path: str | os.PathLike[str],
    *,
    container: str | None = None,
) -> CopyResult:
    """Copies the file or directory ``remote_path`` of pod ``pod`` to ``local_path`` (``kubectl cp
    POD:REMOTE LOCAL [-c CONTAINER]``), which becomes its copy (a directory's content lands in
    ``local_path``). Entries escaping ``local_path`` and symlinks are skipped with kubectl's warnings
    (``CopyResult.warnings``); ``CopyError`` when the pod's tar fails (a missing path: exit code
    2 and tar's message) or its archive does not hold ``remote_path``."""
    source, destination = _paths(remote_path, local_path, local_first=False)
    result = CopyResult(destination=destination)
    what = f"copying {pod}:{source} to {destination}"
    with pods.exec_stream(pod, ["tar", "cf", "-", source], container=container) as session:
        try:
            _unpack(session.stdout, from_pod_prefix(source), destination, result)
        except tarfile.TarError as e:
            failure: Exception | None = e
        else:
            failure = None
        stderr = session.stderr.read()
        code = session.wait()
    return _finish(result, code, stderr, failure, what)


def _finish(result: CopyResult, code: int, stderr: bytes, failure: Exception | None, what: str) -> CopyResult:
    """The exit code first (a tar that failed explains a broken archive), then the archive."""
    result.stderr = stderr.decode("utf-8", errors="replace")
    if code != 0:
        raise _failed(code, stderr, what) from failure
    if failure is not None:
        raise CopyError(f"{what}: the pod's archive is not a tar: {failure}") from failure
    return result


class _LoopReader:
    """A blocking ``read`` for a worker thread, served by an async stream on the event loop."""

    def __init__(self, loop: asyncio.AbstractEventLoop, read: Callable[[int], Awaitable[bytes]]) -> None:
        self._loop = loop
        self._read = read

    def read(self, size: int = -1) -> bytes:
        async def once() -> bytes:
            return await self._read(size)

        return asyncio.run_coroutine_threadsafe(once(), self._loop).result()


async def async_copy_to_pod(
    pods: AsyncPodCommands,
    pod: str,
    local_path: str | os.PathLike[str],
    remote_path: str,
    *,
    container: str | None = None,
    no_preserve: bool = False,
) -> CopyResult:
    """``copy_to_pod`` on the asyncio pods client, awaited."""
    source, destination = _paths(local_path, remote_path, local_first=True)
    _check_source(source)
    try:
        into = (await pods.exec(pod, ["test", "-d", destination], container=container, timeout=CHECK_DIR_TIMEOUT)).exit_code == 0
    except RemoteCommandError:
        into = False
    if into:
        destination = go_join(destination, go_base(source))
    command = _extract_command(destination, no_preserve)
    chunks: Iterator[bytes] = tar_chunks(source, go_base(go_clean(destination)))
    async with pods.exec_stream(pod, command, container=container, stdin=True) as session:
        try:
            while (chunk := await asyncio.to_thread(next, chunks, None)) is not None:  # local reads off the loop
                await session.stdin.write(chunk)
        except BrokenPipeError:
            pass
        else:
            await session.stdin.close()
        await session.stdout.read()
        stderr = await session.stderr.read()
        code = await session.wait()
    if code != 0:
        raise _failed(code, stderr, f"copying {source} to {pod}:{destination}")
    return CopyResult(destination=destination, stderr=stderr.decode("utf-8", errors="replace"))


async def async_copy_from_pod(
    pods: AsyncPodCommands,
    pod: str,
    remote_path: str,
    local_path: str | os.PathLike[str],
    *,
    container: str | None = None,
) -> CopyResult:
    """``copy_from_pod`` on the asyncio pods client, awaited (the archive is unpacked on a worker
    thread that reads the pod's stdout through the event loop)."""
    source, destination = _paths(remote_path, local_path, local_first=False)
    result = CopyResult(destination=destination)
    what = f"copying {pod}:{source} to {destination}"
    async with pods.exec_stream(pod, ["tar", "cf", "-", source], container=container) as session:
        reader = _LoopReader(asyncio.get_running_loop(), session.stdout.read)
        failure: Any = None
        try:
            await asyncio.to_thread(_unpack, reader, from_pod_prefix(source), destination, result)
        except tarfile.TarError as e:
            failure = e
        stderr = await session.stderr.read()
        code = await session.wait()
    return _finish(result, code, stderr, failure, what)
