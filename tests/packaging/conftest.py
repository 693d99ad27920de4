"""The two wheels this repository builds (kgen-runtime and kgen), built once per session."""

from __future__ import annotations

import subprocess
import sys
import venv
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
RUNTIME_PROJECT = REPO / "packaging" / "kgen-runtime"


@dataclass(frozen=True)
class Wheels:
    runtime: Path  # kgen_runtime-*.whl
    generator: Path  # kgen-*.whl


def build_wheel(project: Path, dist: Path) -> Path:
    before = set(dist.glob("*.whl"))
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(dist), str(project)],
        check=True, capture_output=True, text=True,
    )
    (wheel,) = set(dist.glob("*.whl")) - before
    return wheel


@pytest.fixture(scope="session")
def wheels(tmp_path_factory: pytest.TempPathFactory) -> Wheels:
    dist = tmp_path_factory.mktemp("dist")
    return Wheels(runtime=build_wheel(RUNTIME_PROJECT, dist), generator=build_wheel(REPO, dist))


def fresh_venv(where: Path) -> Path:
    """A new virtualenv (with pip, without kgen); returns its python."""
    venv.create(where, with_pip=True)
    return where / "bin" / "python"


def pip_install(python: Path, *args: str) -> None:
    result = subprocess.run([str(python), "-m", "pip", "install", "--quiet", *args], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
