"""kubectl cp's rules without I/O to the pod: its paths (k8s.io/kubectl/pkg/cmd/cp/filespec.go),
the tar it sends into a pod (``makeTar`` / ``recursiveTar``) and what it does with the tar a pod
sends back (``untarAll``). ``cp`` runs them over exec, sync and async.

What kubectl does, and so what this does:
- into a pod: the local path is archived under the remote name (the remote directory's base
  name joined with the local base name when the remote path is an existing directory) and
  ``tar -xmf - -C <remote dir>`` unpacks it. Each header carries the file's permission bits, so
  files and empty directories keep their modes; a non-empty directory has no header of its own
  (the pod's tar creates it). Symlinks travel as symlinks. Paths are taken literally (kubectl
  globs the local path, which matters only for names holding ``*?[``).
- out of a pod: ``tar cf - <path>`` runs in the pod; every entry must start with the cleaned
  remote path (else "tar contents corrupted"), loses that prefix and lands under the local
  destination, which is always the new name (never "into" an existing directory). An entry
  that would land outside the destination (``..``) is skipped with kubectl's warning, and so is
  every symlink (which could point anywhere); files are created as ``os.Create`` creates them
  (0666 less the umask: modes are not kept this way), directories as ``MkdirAll(0755)``.
"""

from __future__ import annotations

import grp
import io
import os
import posixpath
import pwd
import stat
import tarfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Protocol

__all__ = [
    "CHUNK", "CopyError", "CopyResult", "Readable", "from_pod_prefix", "go_quote", "is_relative", "local_path", "remote_path",
    "tar_chunks", "untar_all",
]

CHUNK = 64 * 1024
"""Bytes read from a local file or the pod at a time."""

_BLOCK = tarfile.BLOCKSIZE


class CopyError(RuntimeError):
    """A copy kubectl would fail too: the pod's tar ended with an error (``exit_code`` and what it
    wrote on stderr), the tar from the pod was tampered with, or a local file changed while
    being sent."""

    def __init__(self, message: str, *, exit_code: int | None = None, stderr: str = "") -> None:
        super().__init__(message)
        self.exit_code = exit_code
        self.stderr = stderr


@dataclass
class CopyResult:
    """What a copy did: the local paths written (out of a pod) or the remote path the archive was
    unpacked as (into a pod), kubectl's warnings (entries skipped), and what the pod's tar wrote
    on stderr."""

    destination: str
    written: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    stderr: str = ""


class Readable(Protocol):
    """What the untar reads from: a blocking ``read`` (an exec session's stdout)."""

    def read(self, size: int = -1, /) -> bytes: ...


# -- paths, as filespec.go handles them ------------------------------------------------------


def _strip_trailing_slash(path: str) -> str:
    """One trailing "/" less, unless the path is "/"."""
    return path[:-1] if path not in ("", "/") and path.endswith("/") else path


def remote_path(path: str) -> str:
    """``newRemotePath``: a pod's path, always with "/" (a "\\" becomes "/"), one trailing "/" off."""
    return _strip_trailing_slash(path.replace("\\", "/"))


def local_path(path: str) -> str:
    """``newLocalPath``: one trailing "/" off."""
    return _strip_trailing_slash(path)


def go_clean(path: str) -> str:
    """Go's ``path.Clean``: normpath, but "." for "" and one leading "/" only."""
    cleaned = posixpath.normpath(path) if path else "."
    return "/" + cleaned.lstrip("/") if cleaned.startswith("//") else cleaned


def go_dir(path: str) -> str:
    """Go's ``path.Dir``: everything before the last "/", cleaned ("." when there is none)."""
    return go_clean(path[: path.rfind("/") + 1])


def go_base(path: str) -> str:
    """Go's ``path.Base``: the last element ("." for "", "/" for "/")."""
    if not path:
        return "."
    stripped = path.rstrip("/")
    return stripped[stripped.rfind("/") + 1 :] if stripped else "/"


def go_join(*elements: str) -> str:
    """Go's ``path.Join``: the non-empty elements joined with "/" and cleaned ("" if none)."""
    kept = [e for e in elements if e]
    return go_clean("/".join(kept)) if kept else ""


def _strip_shortcuts(path: str) -> str:
    """``stripPathShortcuts``: leading "../" off, "." and ".." become "", a leading "/" off."""
    while path.startswith("../"):
        path = path[3:]
    if path in (".", ".."):
        return ""
    return path[1:] if path.startswith("/") else path


def _rel(base: str, target: str) -> str | None:
    """Go's ``filepath.Rel``, lexically (None where it fails)."""
    base, target = go_clean(base), go_clean(target)
    if base == target:
        return "."
    if base == ".":
        base = ""
    if base.startswith("/") != target.startswith("/"):
        return None
    b, t = [p for p in base.split("/") if p], [p for p in target.split("/") if p]
    common = 0
    while common < min(len(b), len(t)) and b[common] == t[common]:
        common += 1
    if ".." in b[common:]:
        return None
    return "/".join([".."] * (len(b) - common) + t[common:]) or "."


def is_relative(base: str, target: str) -> bool:
    """``isRelative``: whether ``target`` lies under ``base`` (or is it)."""
    relative = _rel(base, target)
    return relative is not None and (relative == "." or relative == _strip_shortcuts(relative))


def from_pod_prefix(source: str) -> str:
    """The prefix every entry of the pod's tar must start with: the remote path without leading
    slashes (tar drops them), cleaned, without leading ``../``."""
    return _strip_shortcuts(go_clean(source.lstrip("/\\")))


_GO_ESCAPES = {"\a": "\\a", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\v": "\\v", '"': '\\"', "\\": "\\\\"}


def go_quote(text: str) -> str:
    """Go's ``%q`` of a string, as kubectl's warnings print paths (bytes that are not UTF-8,
    carried as surrogate escapes, print as ``\\xNN``)."""
    out = []
    for ch in text:
        code = ord(ch)
        if ch in _GO_ESCAPES:
            out.append(_GO_ESCAPES[ch])
        elif 0xDC80 <= code <= 0xDCFF:
            out.append(f"\\x{code - 0xDC00:02x}")
        elif ch.isprintable():
            out.append(ch)
        elif code < 0x80:
            out.append(f"\\x{code:02x}")
        elif code <= 0xFFFF:
            out.append(f"\\u{code:04x}")
        else:
            out.append(f"\\U{code:08x}")
    return '"' + "".join(out) + '"'


# -- into a pod: the tar kubectl writes ------------------------------------------------------


def _owner(uid: int, gid: int) -> tuple[str, str]:
    """The user and group names ``tar.FileInfoHeader`` looks up ("" when unknown)."""
    try:
        user = pwd.getpwuid(uid).pw_name
    except KeyError:
        user = ""
    try:
        group = grp.getgrgid(gid).gr_name
    except KeyError:
        group = ""
    return user, group


def _header(path: str, info: os.stat_result, name: str) -> tarfile.TarInfo:
    """``tar.FileInfoHeader`` of ``path`` under ``name``: permission bits (setuid, setgid and
    sticky included), owner, mtime, and the type (sockets refused, as Go's tar refuses them)."""
    header = tarfile.TarInfo(name)
    header.mode = stat.S_IMODE(info.st_mode)
    header.uid, header.gid = info.st_uid, info.st_gid
    header.uname, header.gname = _owner(info.st_uid, info.st_gid)
    header.mtime = int(info.st_mtime)
    mode = info.st_mode
    if stat.S_ISDIR(mode):
        header.type = tarfile.DIRTYPE
    elif stat.S_ISLNK(mode):
        header.type, header.linkname = tarfile.SYMTYPE, os.readlink(path)
    elif stat.S_ISREG(mode):
        header.type, header.size = tarfile.REGTYPE, info.st_size
    elif stat.S_ISFIFO(mode):
        header.type = tarfile.FIFOTYPE
    elif stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        header.type = tarfile.CHRTYPE if stat.S_ISCHR(mode) else tarfile.BLKTYPE
        header.devmajor, header.devminor = os.major(info.st_rdev), os.minor(info.st_rdev)
    else:
        raise CopyError(f"{path}: sockets not supported")
    return header


def _entry(path: str, name: str) -> Iterator[bytes]:
    """One path into the tar, recursively: ``recursiveTar``."""
    info = os.lstat(path)
    if stat.S_ISDIR(info.st_mode):
        children = sorted(os.listdir(path))
        if not children:  # only an empty directory gets a header of its own
            yield _header(path, info, name).tobuf(tarfile.PAX_FORMAT, "utf-8", "surrogateescape")
        for child in children:
            yield from _entry(os.path.join(path, child), go_join(name, remote_path(child)))
        return
    header = _header(path, info, name)
    yield header.tobuf(tarfile.PAX_FORMAT, "utf-8", "surrogateescape")
    if header.type != tarfile.REGTYPE:
        return
    left = header.size
    with open(path, "rb") as f:
        while left:
            chunk = f.read(min(CHUNK, left))
            if not chunk:
                raise CopyError(f"{path}: file shrank while it was copied ({left} of {header.size} bytes missing)")
            left -= len(chunk)
            yield chunk
        if f.read(1):
            raise CopyError(f"{path}: file grew while it was copied (more than {header.size} bytes)")
    if header.size % _BLOCK:
        yield b"\0" * (_BLOCK - header.size % _BLOCK)


def tar_chunks(source: str, name: str) -> Iterator[bytes]:
    """The tar kubectl cp sends into a pod: ``source`` (a local path, cleaned) archived as
    ``name`` (the remote base name), then the two zero blocks that end an archive. Produced a
    piece at a time, so that sync and async callers write it as it comes."""
    yield from _entry(os.path.normpath(source), name)
    yield b"\0" * (2 * _BLOCK)


# -- out of a pod: what kubectl does with the tar --------------------------------------------


class _RawReader(io.RawIOBase):
    """``reader`` as the binary file tarfile reads (its stream mode only calls ``read``)."""

    def __init__(self, reader: Readable) -> None:
        self._reader = reader

    def readable(self) -> bool:
        return True

    def read(self, size: int = -1, /) -> bytes:
        return self._reader.read(size)


def untar_all(reader: Readable, prefix: str, destination: str, result: CopyResult, warn: Callable[[str], None]) -> None:
    """Unpacks the pod's tar read from ``reader`` under ``destination`` as ``untarAll`` does:
    each entry's name must start with ``prefix`` ("tar contents corrupted" otherwise); an entry
    landing outside ``destination``, or a symlink, is skipped with kubectl's warning (handed to
    ``warn`` and kept in ``result.warnings``); directories are made with 0755, files created (or
    truncated) with 0666 less the umask; a hard link or a device becomes an empty file, as
    kubectl's ``os.Create`` and a copy of no bytes make it."""
    try:
        archive = tarfile.open(fileobj=_RawReader(reader), mode="r|", bufsize=CHUNK, encoding="utf-8", errors="surrogateescape")
    except tarfile.ReadError as e:
        if str(e) == "empty file":
            return  # no entries at all: as tar.Reader's immediate io.EOF
        raise
    with archive:
        for header in archive:
            if not header.name.startswith(prefix):
                raise CopyError("tar contents corrupted")
            target = go_join(destination, remote_path(header.name[len(prefix) :]))
            if not is_relative(destination, target):
                _warn(result, warn, f"file {go_quote(target)} is outside target destination, skipping")
                continue
            os.makedirs(go_dir(target), 0o755, exist_ok=True)
            if header.isdir():
                os.makedirs(target, 0o755, exist_ok=True)
                continue
            if header.issym():
                _warn(result, warn, f"skipping symlink: {go_quote(target)} -> {go_quote(header.linkname)}")
                continue
            data = archive.extractfile(header) if header.isreg() else None
            with open(target, "wb") as out:
                while data is not None and (chunk := data.read(CHUNK)):
                    out.write(chunk)
            result.written.append(target)


def _warn(result: CopyResult, warn: Callable[[str], None], message: str) -> None:
    result.warnings.append(message)
    warn(message)
