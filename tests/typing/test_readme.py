"""Every ```python block of README.md passes ``mypy --strict``, as a user who copies it would run it.

The blocks continue each other (the watch uses the ``deployments`` of the first, the informer its
``cs``), so they are checked as one module, in README order, verbatim. The only code added is a
prelude declaring the two placeholders the README's prose leaves to the reader: the bytes of a
server response (``response_bytes``) and an object as a dict (``obj``). Errors are reported at
their README line. The same run checks a copy with a planted mistake, so a run that sees
nothing cannot pass.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.typing.mypy_run import REPO, MypyRun, mypy_strict

README = REPO / "README.md"
PRELUDE = '''\
from typing import Any

response_bytes: bytes = b"{}"  # README: "a server response"
obj: dict[str, Any] = {}  # README: "an object the server sends", as a dict
'''
PLANTED = 'replicas: int = "three"  # a planted mistake\n'
_FENCE = re.compile(r"^```python\n(.*?)^```$", re.S | re.M)


@dataclass(frozen=True)
class Block:
    readme_line: int  # the README line of the block's first code line
    code: str


def python_blocks(markdown: str) -> list[Block]:
    return [Block(markdown.count("\n", 0, m.start(1)) + 1, m.group(1)) for m in _FENCE.finditer(markdown)]


def module_of(blocks: list[Block]) -> tuple[str, dict[int, int]]:
    """The module checked, and the README line of each of its lines that came from the README."""
    lines, where = PRELUDE.splitlines(), {}
    for block in blocks:
        lines.append("")
        for offset, text in enumerate(block.code.splitlines()):
            lines.append(text)
            where[len(lines)] = block.readme_line + offset
    return "\n".join(lines) + "\n", where


@pytest.fixture(scope="module")
def checked(tmp_path_factory: pytest.TempPathFactory) -> tuple[MypyRun, Path, Path, dict[int, int]]:
    folder = tmp_path_factory.mktemp("readme")
    source, where = module_of(python_blocks(README.read_text()))
    readme, planted = folder / "readme_snippets.py", folder / "readme_planted.py"
    readme.write_text(source)
    planted.write_text(source + PLANTED)
    return mypy_strict([readme, planted], folder / "mypy"), readme, planted, where


def test_the_readme_has_python_blocks_and_all_are_checked_verbatim(
    checked: tuple[MypyRun, Path, Path, dict[int, int]],
) -> None:
    _, readme, _, _ = checked
    blocks = python_blocks(README.read_text())
    assert len(blocks) >= 5
    source = readme.read_text()
    assert all(b.code in source for b in blocks)
    assert source.startswith(PRELUDE) and source.count("\n") == PRELUDE.count("\n") + sum(
        1 + b.code.count("\n") for b in blocks
    )


def test_readme_snippets_pass_mypy_strict(checked: tuple[MypyRun, Path, Path, dict[int, int]]) -> None:
    run, readme, _, where = checked
    found = [f"README.md:{where.get(e.line, '?')}: {e.message} [{e.code}]" for e in run.of(readme)]
    assert found == [], run.output


def test_a_mistake_planted_after_the_snippets_is_reported(checked: tuple[MypyRun, Path, Path, dict[int, int]]) -> None:
    run, readme, planted, _ = checked
    last = planted.read_text().count("\n")
    assert [(e.line, e.code) for e in run.of(planted)] == [(last, "assignment")], run.output
