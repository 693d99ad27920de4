"""User-style code type-checked with ``mypy --strict``: informers, listers and handlers generic in
the model, typed watch events, the workqueue's ``get()``, ``resource_version`` as a list gives it.

Every file in ``snippets/`` is checked in one mypy run. A line marked ``# E: <code>`` must get
that error and every other line none, so the good snippets must be clean and each mistake in
``rejected.py`` must be caught: neither half can pass by the checker seeing nothing.
"""

from __future__ import annotations

import os
import re
from collections import Counter
from pathlib import Path

import mypy.api
import pytest

REPO = Path(__file__).resolve().parents[2]
SNIPPETS = sorted((Path(__file__).parent / "snippets").glob("*.py"))
_MARK = re.compile(r"#\s*E:\s*([a-z-]+)\s*$")
_ERROR = re.compile(r"^(?P<file>[^:]+):(?P<line>\d+): error: .*\[(?P<code>[a-z-]+)\]$")


def _expected() -> set[tuple[str, int, str]]:
    marks = set()
    for snippet in SNIPPETS:
        for number, text in enumerate(snippet.read_text().splitlines(), 1):
            if m := _MARK.search(text):
                marks.add((snippet.name, number, m.group(1)))
    return marks


@pytest.fixture(scope="module")
def reported(tmp_path_factory: pytest.TempPathFactory) -> tuple[set[tuple[str, int, str]], str]:
    """mypy --strict over every snippet, with kgen seen as installed (a folder of links, as the
    editable install's import hook is invisible to mypy)."""
    tmp = tmp_path_factory.mktemp("typing")
    farm = tmp / "path" / "kgen"
    farm.mkdir(parents=True)
    (farm / "runtime").symlink_to(REPO / "runtime")
    (farm / "kubernetes").symlink_to(REPO / "generated" / "kubernetes")
    old = os.environ.get("MYPYPATH")
    os.environ["MYPYPATH"] = str(farm.parent)
    try:
        out, err, _ = mypy.api.run(
            ["--strict", "--no-incremental", "--cache-dir", str(tmp / "cache"), "--show-error-codes",
             "--no-pretty", "--no-color-output", *map(str, SNIPPETS)]
        )
    finally:
        if old is None:
            del os.environ["MYPYPATH"]
        else:
            os.environ["MYPYPATH"] = old
    errors = {(Path(m["file"]).name, int(m["line"]), m["code"]) for line in out.splitlines() if (m := _ERROR.match(line))}
    return errors, out + err


def test_there_are_snippets_and_mistakes_to_check() -> None:
    assert len(SNIPPETS) >= 4 and len(_expected()) >= 10


def test_user_style_snippets_pass_mypy_strict_and_every_mistake_is_rejected(
    reported: tuple[set[tuple[str, int, str]], str],
) -> None:
    errors, output = reported
    expected = _expected()
    counts = Counter(name for name, _, _ in errors)
    print("mypy --strict errors per snippet:", dict(counts), "- marked:", dict(Counter(name for name, _, _ in expected)))
    assert errors - expected == set(), f"unexpected errors:\n{output}"
    assert expected - errors == set(), f"mistakes mypy did not catch: {sorted(expected - errors)}\n{output}"
