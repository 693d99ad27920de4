"""The project's own code is checked as users' code is: ``mypy --strict`` and ruff.

Over runtime/, generator/, bench/ and hack/, with the configuration in pyproject.toml
(``[tool.mypy]``, ``[tool.ruff]``). mypy sees kgen as installed: a folder where kgen/runtime and
kgen/generator are this checkout's folders (links, or a copy with one planted error), and the
operator bench's Widget client generated as the bench generates it (bench/widget.py). Each
checker is also shown one planted error in a copy of runtime/, and must fail on it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from bench.widget import generate as generate_widget_client

REPO = Path(__file__).resolve().parents[2]
RUFF = Path(sys.executable).with_name("ruff")
CHECKED = ("runtime", "generator", "bench", "hack")
PLANTED_IN = "apimachinery/labels.py"


def _runtime_copy(tmp: Path, planted: str) -> Path:
    copy = tmp / "runtime"
    shutil.copytree(REPO / "runtime", copy, ignore=shutil.ignore_patterns("__pycache__"))
    module = copy / PLANTED_IN
    module.write_text(module.read_text() + planted)
    return copy


def _ruff(tmp: Path, runtime: Path | None = None) -> subprocess.CompletedProcess[str]:
    """``ruff check`` over the checked folders, runtime/ replaced by ``runtime`` if given."""
    assert RUFF.exists(), f"{RUFF} missing: pip install -e '.[test]' installs ruff"
    tree = tmp / "ruff-tree"
    tree.mkdir()
    (tree / "pyproject.toml").symlink_to(REPO / "pyproject.toml")
    for name in CHECKED:
        (tree / name).symlink_to(runtime if name == "runtime" and runtime else REPO / name)
    return subprocess.run([str(RUFF), "check", "--no-cache", *CHECKED], cwd=tree, capture_output=True, text=True,
                          timeout=300)


def _mypy(tmp: Path, runtime: Path | None = None) -> subprocess.CompletedProcess[str]:
    """``mypy --strict`` over the checked folders, kgen.runtime being ``runtime`` if given."""
    farm = tmp / "mypy-path"
    (farm / "kgen").mkdir(parents=True)
    (farm / "kgen" / "runtime").symlink_to(runtime or REPO / "runtime")
    (farm / "kgen" / "generator").symlink_to(REPO / "generator")
    (farm / "kgen" / "kubernetes").symlink_to(REPO / "generated" / "kubernetes")
    generated = generate_widget_client(tmp / "generated")
    env = dict(os.environ, MYPYPATH=os.pathsep.join([str(farm), str(generated)]))
    return subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--explicit-package-bases", "--no-incremental",
         "--cache-dir", str(tmp / "mypy-cache"), str(farm / "kgen" / "runtime"), str(farm / "kgen" / "generator"),
         "bench", "hack"],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=900,
    )


def test_ruff_finds_nothing(tmp_path: Path) -> None:
    result = _ruff(tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_fails_on_a_planted_finding(tmp_path: Path) -> None:
    result = _ruff(tmp_path, _runtime_copy(tmp_path, "\nimport os\n"))
    assert result.returncode == 1, result.stdout + result.stderr
    assert f"runtime/{PLANTED_IN}" in result.stdout and "F401" in result.stdout, result.stdout


def test_mypy_strict_finds_nothing(tmp_path: Path) -> None:
    result = _mypy(tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Success: no issues found" in result.stdout, result.stdout


def test_mypy_strict_fails_on_a_planted_error(tmp_path: Path) -> None:
    result = _mypy(tmp_path, _runtime_copy(tmp_path, '\n\ndef planted() -> int:\n    return "not an int"\n'))
    assert result.returncode == 1, result.stdout + result.stderr
    assert 'Incompatible return value type (got "str", expected "int")' in result.stdout, result.stdout
