"""Class-by-class formatting gives exactly what black gives the whole module."""

from __future__ import annotations

from pathlib import Path

from kgen.generator import build, clients, format, render
from kgen.generator.generate import embedded_snapshot
from kgen.generator.sources import snapshot_dir


def test_formatting_by_class_equals_formatting_the_whole_module(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("KGEN_CACHE_DIR", str(tmp_path))
    package = build.build(snapshot_dir.load(embedded_snapshot()), "kubernetes", ["apps/v1"])
    files = render.render(package)
    files.update(render.render_clients(package, clients.client_modules(package)))
    chosen = {p: t for p, t in files.items() if p in ("models/apps/v1.py", "typed/apps/v1.py", "__init__.py")}
    assert len(chosen) == 3 and len(format.chunks(chosen["models/apps/v1.py"])) > 10
    by_class = format.format_files(chosen)
    for path, text in chosen.items():
        assert by_class[path] == format._format_one(text), path
