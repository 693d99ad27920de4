"""kubectl cp's rules without a pod (kgen.runtime.kubectl._cp_tar): Go's path functions as
filespec.go uses them, the tar sent into a pod (names, modes, which directories get a header)
and what an archive from a pod becomes locally (the prefix check, entries escaping the
destination, symlinks, hard links), with kubectl's messages. The same rules are compared with
kubectl cp itself in tests/cluster/test_cp.py."""

from __future__ import annotations

import io
import os
import stat
import tarfile
from pathlib import Path

import pytest

from kgen.runtime.kubectl._cp_tar import (
    CopyError,
    CopyResult,
    from_pod_prefix,
    go_base,
    go_clean,
    go_dir,
    go_join,
    go_quote,
    is_relative,
    local_path,
    remote_path,
    tar_chunks,
    untar_all,
)


@pytest.mark.parametrize(
    ("path", "clean", "dir_", "base"),
    [  # Go's path.Clean / path.Dir / path.Base
        ("", ".", ".", "."),
        ("/", "/", "/", "/"),
        ("a", "a", ".", "a"),
        ("a/b/", "a/b", "a/b", "b"),
        ("//a//b/../c/.", "/a/c", "/a/c", "."),
        ("../../x", "../../x", "../..", "x"),
        ("/../x", "/x", "/", "x"),
    ],
)
def test_path_functions_are_gos(path: str, clean: str, dir_: str, base: str) -> None:
    assert (go_clean(path), go_dir(path), go_base(path)) == (clean, dir_, base)


def test_join_and_file_specs() -> None:
    assert go_join("out", "") == "out" and go_join("", "") == "" and go_join("out", "/../../x") == "../x"
    assert remote_path("a\\b\\") == "a/b" and remote_path("a//") == "a/" and remote_path("/") == "/"
    assert local_path("dir/") == "dir" and local_path("/") == "/"


@pytest.mark.parametrize(
    ("source", "prefix"),
    [("/var/log/app", "var/log/app"), ("dir", "dir"), ("../../etc/x", "etc/x"), ("/", ""), (".", ""), ("a/./b/../c", "a/c")],
)
def test_the_prefix_is_the_cleaned_remote_path_without_shortcuts(source: str, prefix: str) -> None:
    assert from_pod_prefix(source) == prefix


@pytest.mark.parametrize(
    ("base", "target", "inside"),
    [
        ("out", "out", True), ("out", "out/a/b", True), ("out", "x", False), ("out", "out/../x", False),
        ("/tmp/out", "/tmp/out/a", True), ("/tmp/out", "/tmp/escaped", False), ("out", "/abs", False), ("..", "x", False),
        (".", "a", True), (".", "../a", False),
    ],
)
def test_is_relative_is_kubectls(base: str, target: str, inside: bool) -> None:
    assert is_relative(base, target) is inside


def test_go_quote_escapes_as_go_does() -> None:
    assert go_quote('a "b"\\c') == '"a \\"b\\"\\\\c"'
    assert go_quote("tab\tnl\n\x01\x7f") == '"tab\\tnl\\n\\x01\\x7f"'
    assert go_quote("ünï 日本") == '"ünï 日本"'
    assert go_quote(b"bad\xff".decode("utf-8", "surrogateescape")) == '"bad\\xff"'
    assert go_quote("\u200b") == '"\\u200b"'


def _tree(root: Path) -> None:
    (root / "sub").mkdir(parents=True)
    (root / "empty").mkdir()
    (root / "empty").chmod(0o700)
    (root / "a").write_bytes(b"x" * 1000)
    (root / "a").chmod(0o4750)
    (root / "sub" / "b").write_bytes(b"")
    (root / "link").symlink_to("/etc/passwd")


def test_the_tar_into_a_pod_names_entries_after_the_remote_base_and_keeps_modes(tmp_path: Path) -> None:
    _tree(tmp_path / "src")
    data = b"".join(tar_chunks(str(tmp_path / "src"), "dest"))
    assert len(data) % 512 == 0 and data.endswith(b"\0" * 1024)
    with tarfile.open(fileobj=io.BytesIO(data)) as archive:
        members = {m.name: m for m in archive.getmembers()}
        assert list(members) == ["dest/a", "dest/empty", "dest/link", "dest/sub/b"]  # sorted; no header for non-empty dirs
        assert members["dest/a"].mode == 0o4750 and members["dest/a"].size == 1000
        assert members["dest/empty"].isdir() and members["dest/empty"].mode == 0o700
        assert members["dest/link"].issym() and members["dest/link"].linkname == "/etc/passwd"
        assert archive.extractfile("dest/a").read() == b"x" * 1000  # type: ignore[union-attr]
        assert members["dest/a"].uid == os.getuid()


def test_a_single_file_is_one_entry_and_a_file_that_changes_size_fails(tmp_path: Path) -> None:
    (tmp_path / "f").write_bytes(b"abc")
    with tarfile.open(fileobj=io.BytesIO(b"".join(tar_chunks(str(tmp_path / "f"), "g")))) as archive:
        assert archive.getnames() == ["g"]
    chunks = tar_chunks(str(tmp_path / "f"), "g")
    next(chunks)  # the header, with size 3
    (tmp_path / "f").write_bytes(b"a")
    with pytest.raises(CopyError, match="file shrank while it was copied"):
        list(chunks)


def _archive(*entries: tuple[str, bytes | str | None]) -> io.BytesIO:
    """A tar of (name, data) entries: bytes a file, a str a symlink's target, None a directory."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as archive:
        for name, data in entries:
            info = tarfile.TarInfo(name)
            if data is None:
                info.type = tarfile.DIRTYPE
                archive.addfile(info)
            elif isinstance(data, str):
                info.type, info.linkname = tarfile.SYMTYPE, data
                archive.addfile(info)
            else:
                info.size = len(data)
                archive.addfile(info, io.BytesIO(data))
    buffer.seek(0)
    return buffer


def test_untar_strips_the_prefix_skips_escapes_and_symlinks_with_kubectls_warnings(tmp_path: Path) -> None:
    dest = str(tmp_path / "in" / "out")
    warned: list[str] = []
    result = CopyResult(destination=dest)
    tar = _archive(("d", None), ("d/x", b"x"), ("d/../../escaped", b"no"), ("d/sub/y", b"y"), ("d/l", "/etc/passwd"))
    untar_all(tar, "d", dest, result, warned.append)
    assert warned == result.warnings == [
        f'file "{tmp_path}/escaped" is outside target destination, skipping',
        f'skipping symlink: "{dest}/l" -> "/etc/passwd"',
    ]
    assert Path(dest, "x").read_bytes() == b"x" and Path(dest, "sub", "y").read_bytes() == b"y"
    assert not (tmp_path / "escaped").exists() and not Path(dest, "l").exists()
    assert result.written == [f"{dest}/x", f"{dest}/sub/y"]
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(Path(dest, "x").stat().st_mode) == 0o666 & ~umask  # os.Create's mode, not the entry's


def test_an_entry_outside_the_prefix_is_corruption() -> None:
    with pytest.raises(CopyError, match="^tar contents corrupted$"):
        untar_all(_archive(("other/x", b"x")), "d", "out", CopyResult("out"), lambda _: None)


def test_a_hard_link_becomes_an_empty_file_and_an_empty_stream_copies_nothing(tmp_path: Path) -> None:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as archive:
        info = tarfile.TarInfo("f")
        info.size = 2
        archive.addfile(info, io.BytesIO(b"ab"))
        hard = tarfile.TarInfo("h")
        hard.type, hard.linkname = tarfile.LNKTYPE, "f"
        archive.addfile(hard)
    buffer.seek(0)
    untar_all(buffer, "", str(tmp_path / "out"), CopyResult(""), lambda _: None)
    assert (tmp_path / "out" / "f").read_bytes() == b"ab" and (tmp_path / "out" / "h").read_bytes() == b""
    result = CopyResult("")
    untar_all(io.BytesIO(b""), "x", str(tmp_path / "none"), result, lambda _: None)
    assert result.written == [] and not (tmp_path / "none").exists()
