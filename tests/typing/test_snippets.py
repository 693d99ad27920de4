"""User-style code type-checked with ``mypy --strict``: informers, listers and handlers generic in
the model, typed watch events, the workqueue's ``get()``, ``resource_version`` as a list gives it.

Every file in ``snippets/`` is checked in one mypy run. A line marked ``# E: <code>`` must get
that error and every other line none (``# E<=1.36: <code>`` marks what a package of an
older release gets: tests/compat checks those), so the good snippets must be clean and each mistake in
``rejected.py`` must be caught: neither half can pass by the checker seeing nothing.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from tests.typing.mypy_run import marked_errors, mypy_strict

SNIPPETS = sorted((Path(__file__).parent / "snippets").glob("*.py"))


def _expected() -> set[tuple[str, int, str]]:
    return marked_errors(SNIPPETS)


@pytest.fixture(scope="module")
def reported(tmp_path_factory: pytest.TempPathFactory) -> tuple[set[tuple[str, int, str]], str]:
    """mypy --strict over every snippet in one run, with kgen seen as installed (mypy_run.py)."""
    run = mypy_strict(SNIPPETS, tmp_path_factory.mktemp("typing"))
    return {(e.file.name, e.line, e.code) for e in run.errors}, run.output


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
