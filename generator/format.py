"""black, applied to every generated file: in parallel, and cached by content.

A module is formatted class by class: black's output for a module is its output for each
top-level class joined by two blank lines (the emitted code has no other top-level compound
statement), so large modules such as core/v1 spread over the worker pool and a changed class
costs only itself. The cache maps (black version, mode, unformatted chunk) to the formatted
chunk, so regenerating with nothing changed skips black entirely.
"""

from __future__ import annotations

import hashlib
import os
import re
import tempfile
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

LINE_LENGTH = 100
#: Folders of data modules left as written: one literal each, on lines no reader reads, which
#: black would spend seconds splitting (see generator/mergeschema.py).
UNFORMATTED = ("mergeschema/", "validation/")


def _mode_key() -> str:
    from importlib.metadata import version

    return f"black-{version('black')}-py310-{LINE_LENGTH}"


def _format_one(source: str) -> str:
    import black

    from black.mode import TargetVersion

    mode = black.Mode(line_length=LINE_LENGTH, target_versions={TargetVersion.PY310})
    return black.format_str(source, mode=mode)


def _cache_dir() -> Path:
    from kgen.runtime.util.paths import cache_root

    return cache_root() / "format"


_CLASS_BOUNDARY = re.compile(r"\n+(?=(?:class|@)\s)")


def chunks(source: str) -> list[str]:
    """The module's prologue, then one piece per top-level class."""
    return [piece.strip("\n") + "\n" for piece in _CLASS_BOUNDARY.split(source) if piece.strip()]


def format_files(
    files: dict[str, str], progress: Callable[[int, int], None] = lambda done, total: None
) -> dict[str, str]:
    cache = _cache_dir()
    key_prefix = _mode_key().encode()
    pieces = {
        path: chunks(text) for path, text in files.items() if path.endswith(".py") and not path.startswith(UNFORMATTED)
    }
    formatted: dict[str, str] = {}  # cache key -> formatted chunk
    todo: dict[str, str] = {}  # cache key -> unformatted chunk
    for chunk in (c for cs in pieces.values() for c in cs):
        key = hashlib.sha256(key_prefix + b"\0" + chunk.encode()).hexdigest()
        if key in formatted or key in todo:
            continue
        try:
            formatted[key] = (cache / key[:2] / key).read_text()
        except OSError:
            todo[key] = chunk
    total = len(formatted) + len(todo)
    done = len(formatted)
    progress(done, total)
    if todo:
        # Largest first, so the pool's workers finish together.
        keys = sorted(todo, key=lambda k: -len(todo[k]))
        workers = min(len(keys), os.cpu_count() or 1)
        if workers > 1 and sum(len(c) for c in todo.values()) > 200_000:
            with ProcessPoolExecutor(max_workers=workers) as pool:
                results = pool.map(_format_one, [todo[k] for k in keys], chunksize=8)
                for key, text in zip(keys, results):
                    formatted[key] = text
                    done += 1
                    progress(done, total)
        else:
            for key in keys:
                formatted[key] = _format_one(todo[key])
                done += 1
                progress(done, total)
        for key in keys:
            _store(cache, key, formatted[key])
    out: dict[str, str] = {}
    for path, text in files.items():
        if path not in pieces:
            out[path] = text
            continue
        parts = [formatted[hashlib.sha256(key_prefix + b"\0" + c.encode()).hexdigest()] for c in pieces[path]]
        out[path] = "\n\n".join(parts)
    return out


def _store(cache: Path, key: str, text: str) -> None:
    folder = cache / key[:2]
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=folder)
        with os.fdopen(fd, "w") as f:
            f.write(text)
        os.replace(tmp, folder / key)
    except OSError:
        pass  # a cache that cannot be written only costs time
