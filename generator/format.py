"""black, applied to every generated file: in parallel, and cached by content.

The cache maps (black version, mode, unformatted text) to the formatted text, so regenerating
with nothing changed skips black entirely.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

LINE_LENGTH = 100


def _mode_key() -> str:
    import black

    return f"black-{black.__version__}-py310-{LINE_LENGTH}"


def _format_one(source: str) -> str:
    import black

    mode = black.Mode(line_length=LINE_LENGTH, target_versions={black.TargetVersion.PY310})
    return black.format_str(source, mode=mode)


def _cache_dir() -> Path:
    from kgen.runtime.testing._assets import cache_root

    return cache_root() / "format"


def format_files(
    files: dict[str, str], progress: Callable[[int, int], None] = lambda done, total: None
) -> dict[str, str]:
    cache = _cache_dir()
    key_prefix = _mode_key().encode()
    keys = {path: hashlib.sha256(key_prefix + b"\0" + text.encode()).hexdigest() for path, text in files.items()}
    out: dict[str, str] = {}
    todo: list[str] = []
    for path, text in files.items():
        if not path.endswith(".py"):
            out[path] = text
            continue
        cached = cache / keys[path][:2] / keys[path]
        try:
            out[path] = cached.read_text()
        except OSError:
            todo.append(path)
    done = len(out)
    progress(done, len(files))
    if todo:
        # Largest first, so the pool's workers finish together.
        todo.sort(key=lambda p: -len(files[p]))
        workers = min(len(todo), os.cpu_count() or 1)
        if workers > 1 and sum(len(files[p]) for p in todo) > 200_000:
            with ProcessPoolExecutor(max_workers=workers) as pool:
                for path, formatted in zip(todo, pool.map(_format_one, [files[p] for p in todo])):
                    out[path] = formatted
                    done += 1
                    progress(done, len(files))
        else:
            for path in todo:
                out[path] = _format_one(files[path])
                done += 1
                progress(done, len(files))
        for path in todo:
            _store(cache, keys[path], out[path])
    return {path: out[path] for path in files}


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
