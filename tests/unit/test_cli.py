"""The `kgen` command line: version, help, and one clear line for bad input."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from kgen.generator.cli import main as kgen


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "kgen.generator.cli", *args], capture_output=True, text=True)


def test_version_and_help() -> None:
    version = _run("--version")
    assert version.returncode == 0 and version.stdout.startswith("kgen 0.")
    helptext = _run("--help")
    assert helptext.returncode == 0 and "snapshot" in helptext.stdout


def test_unknown_command_is_a_usage_error() -> None:
    result = _run("frobnicate")
    assert result.returncode == 2 and "invalid choice" in result.stderr


def test_snapshot_with_missing_kubeconfig_exits_2_with_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "nope.yaml"
    assert kgen(["snapshot", "--out", str(tmp_path / "out"), "--kubeconfig", str(missing)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and str(missing) in err and "cannot read kubeconfig" in err
    assert not (tmp_path / "out").exists()


def test_snapshot_with_unknown_context_names_the_file_and_entry(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "kubeconfig"
    config.write_text("apiVersion: v1\nkind: Config\ncurrent-context: a\ncontexts: []\n")
    assert kgen(["snapshot", "--out", str(tmp_path / "out"), "--kubeconfig", str(config)]) == 2
    err = capsys.readouterr().err.strip()
    assert str(config) in err and "no context named 'a'" in err


def test_snapshot_of_unreachable_server_exits_2_and_writes_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "kubeconfig"
    config.write_text(
        "apiVersion: v1\nkind: Config\ncurrent-context: a\n"
        "contexts: [{name: a, context: {cluster: c}}]\n"
        "clusters: [{name: c, cluster: {server: 'https://127.0.0.1:1'}}]\n"
    )
    assert kgen(["snapshot", "--out", str(tmp_path / "out"), "--kubeconfig", str(config)]) == 2
    err = capsys.readouterr().err.strip()
    assert "https://127.0.0.1:1" in err and err.count("\n") == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kubeconfig"]


def test_default_package_is_kubeclient_which_shadows_no_installed_module(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Before, the default was ``kubernetes``: `kgen generate --out src` shadowed the official
    client's ``import kubernetes`` for whoever put src/ on sys.path."""
    import importlib.util

    from kgen.generator.generate import DEFAULT_PACKAGE, Options
    from tests.unit.helpers import widget_document, write_json

    assert DEFAULT_PACKAGE == Options().package == "kubeclient"
    assert importlib.util.find_spec(DEFAULT_PACKAGE) is None  # no installed module of that name
    source = write_json(tmp_path / "openapi.json", widget_document({"type": "object"}))
    out = tmp_path / "src"
    assert kgen(["generate", "--from", str(source), "--out", str(out)]) == 0
    assert capsys.readouterr().out == f"wrote {out / 'kubeclient'}\n"
    assert sorted(p.name for p in out.iterdir()) == ["kubeclient"]
    helptext = _run("generate", "--help").stdout
    assert "(default: kubeclient, which shadows no other" in " ".join(helptext.split())


def test_an_error_on_a_terminal_clears_the_progress_line_first(tmp_path: Path) -> None:
    """On a terminal, progress overwrites one line; an error after it must not be glued to it."""
    import os
    import pty

    from tests.unit.helpers import widget_document, write_json

    source = write_json(tmp_path / "openapi.json", widget_document({"type": "object", "properties": {"size": {"type": "integer"}}}))
    main_fd, child_fd = pty.openpty()
    with subprocess.Popen(
        [sys.executable, "-m", "kgen.generator.cli", "generate", "--from", str(source), "--out", str(tmp_path / "out"),
         "--groups", "nope.example.io/v1"],
        stdin=child_fd, stdout=child_fd, stderr=child_fd,
    ) as process:
        assert process.wait(timeout=60) == 2
    os.close(child_fd)
    shown = b""
    while True:
        try:
            chunk = os.read(main_fd, 65536)
        except OSError:  # EIO: the terminal's other end is closed
            break
        if not chunk:
            break
        shown += chunk
    os.close(main_fd)
    assert b"building models" in shown  # there was a progress line
    last = shown.rsplit(b"\r\x1b[2K", 1)[1]
    assert last == (
        b"kgen generate: --groups: unknown group/version nope.example.io/v1 (expected one of widgets.example.io/v1)\r\n"
    )
