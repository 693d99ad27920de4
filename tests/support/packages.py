"""Generate a package into a temp folder, import it, and type-check it — for integration tests."""

from __future__ import annotations

import atexit
import functools
import importlib
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

from kgen.generator.cli import main as kgen

REPO = Path(__file__).resolve().parents[2]


def generate(out: Path, package: str, *args: str) -> Path:
    code = kgen(["generate", "--out", str(out), "--package", package, *args])
    assert code == 0, f"kgen generate exited {code}"
    return out / package


def import_all(root: Path, package: str) -> Iterator[ModuleType]:
    """Imports every module of a generated package found under ``root`` (on sys.path)."""
    if str(root) not in sys.path:
        sys.path.insert(0, str(root))
    for path in sorted((root / package).rglob("*.py")):
        parts = path.relative_to(root).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        yield importlib.import_module(name)


def resource_classes(modules: Iterator[ModuleType]) -> dict[tuple[str, str], type]:
    """(apiVersion, kind) -> model class, from the classes' API_VERSION/KIND."""
    found = {}
    for module in modules:
        for obj in vars(module).values():
            if isinstance(obj, type) and getattr(obj, "KIND", None) and obj.__module__ == module.__name__:
                found[(obj.API_VERSION, obj.KIND)] = obj
    return found


def mypy_strict(tmp: Path, *targets: Path | str) -> subprocess.CompletedProcess[str]:
    """mypy --strict over ``targets`` (files, folders, or ``-p`` arguments), seeing kgen as installed.

    The editable install maps kgen.runtime onto runtime/ with an import hook mypy cannot
    follow, so mypy gets a folder where kgen/runtime is a link to runtime/.
    """
    farm = tmp / "mypy-path"
    (farm / "kgen").mkdir(parents=True, exist_ok=True)
    links = (("runtime", REPO / "runtime"), ("kubernetes", REPO / "generated" / "kubernetes"), ("generator", REPO / "generator"))
    for name, folder in links:
        link = farm / "kgen" / name
        if not link.exists():
            link.symlink_to(folder)
    env = dict(os.environ, MYPYPATH=str(farm))
    return subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--cache-dir", str(tmp / "mypy-cache"),
         *map(str, targets)],
        capture_output=True, text=True, env=env, cwd=tmp,
    )


@functools.cache
def _session_folder() -> Path:
    folder = Path(tempfile.mkdtemp(prefix="kgen-crd-packages-"))
    atexit.register(shutil.rmtree, folder, True)
    return folder


@functools.cache
def crd_package(project: str) -> tuple[Path, str]:
    """(folder on sys.path, package name): ``project``'s CRDs (tests/support/corpus.py) generated
    once per test session, shared by the tests that read the same packages."""
    from tests.support.corpus import crd_files

    folder = _session_folder()
    package = project.replace("-", "_")
    generate(folder, package, *[a for path in crd_files(project) for a in ("--crd", str(path))])
    return folder, package
