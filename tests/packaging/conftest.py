"""The two wheels this repository builds (kgen-runtime and kgen-k8s), built once per session."""

from __future__ import annotations

import shutil
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
    generator: Path  # kgen_k8s-*.whl


def build_wheel(project: Path, dist: Path) -> Path:
    before = set(dist.glob("*.whl"))
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(dist), str(project)],
        check=True, capture_output=True, text=True,
    )
    (wheel,) = set(dist.glob("*.whl")) - before
    return wheel


#: What the two projects are built from: their project files and the folders their link farms
#: point at. Nothing else of the checkout reaches a wheel.
SOURCES = (
    "pyproject.toml", "README.md", "packaging", "runtime", "generated/kubernetes", "generator", "templates",
    "openapi", "hack/envtest",
)


def source_tree(where: Path) -> Path:
    """A copy of what the wheels are built from, links kept: a clean build, whatever `build/`
    folders earlier builds left in the checkout (setuptools would pack their stale files)."""
    for name in SOURCES:
        source, target = REPO / name, where / name
        target.parent.mkdir(parents=True, exist_ok=True)
        if source.is_dir():
            shutil.copytree(source, target, symlinks=True,
                            ignore=shutil.ignore_patterns("__pycache__", "build", "*.egg-info"))
        else:
            shutil.copy2(source, target)
    return where


@pytest.fixture(scope="session")
def sources(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return source_tree(tmp_path_factory.mktemp("src"))


@pytest.fixture(scope="session")
def runtime_wheel(sources: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_wheel(sources / RUNTIME_PROJECT.relative_to(REPO), tmp_path_factory.mktemp("dist-runtime"))


@pytest.fixture(scope="session")
def wheels(runtime_wheel: Path, sources: Path, tmp_path_factory: pytest.TempPathFactory) -> Wheels:
    return Wheels(runtime=runtime_wheel, generator=build_wheel(sources, tmp_path_factory.mktemp("dist-kgen")))


def fresh_venv(where: Path) -> Path:
    """A new virtualenv (with pip, without kgen); returns its python."""
    venv.create(where, with_pip=True)
    return where / "bin" / "python"


def pip_install(python: Path, *args: str) -> None:
    result = subprocess.run([str(python), "-m", "pip", "install", "--quiet", *args], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
