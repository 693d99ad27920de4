"""Every ```python block of README.md passes ``mypy --strict``, as a user who copies it would run it.

The blocks continue each other (the watch uses the ``deployments`` of the first, the informer its
``cs``), so they are checked as one module, in README order, verbatim, with nothing added: the
README defines every name it uses (tests/docs/test_tutorials.py runs the same blocks). The
package the README generates from its CRD (``mycrds``) is generated the same way first: the
README's files written and its shell blocks run (``kgen generate --crd ...``) in a folder on
mypy's path. Errors are reported at their README line. The same run checks a copy with a
planted mistake, so a run that sees nothing cannot pass.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.docs import runner
from tests.typing.mypy_run import REPO, MypyRun, link_farm, mypy_strict

README = REPO / "README.md"
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
    lines: list[str] = []
    where: dict[int, int] = {}
    for block in blocks:
        lines.append("")
        for offset, text in enumerate(block.code.splitlines()):
            lines.append(text)
            where[len(lines)] = block.readme_line + offset
    return "\n".join(lines) + "\n", where


def generate_the_readmes_packages(folder: Path) -> None:
    """The README's files (``title=`` blocks) written and its shell blocks run in ``folder``, as
    tests/docs/runner.py does: what ``kgen generate`` writes there is what the README imports."""
    bin_dir = str(Path(sys.executable).parent)  # the venv's `kgen`
    for block in runner.blocks(README.read_text(encoding="utf-8")):
        if block.action == "write" and block.title:
            (folder / block.title).parent.mkdir(parents=True, exist_ok=True)
            (folder / block.title).write_text(block.code)
        elif block.action == "sh":
            done = subprocess.run(["bash", "-euo", "pipefail", "-c", block.code], cwd=folder, capture_output=True,
                                  text=True, env={**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}"})
            assert done.returncode == 0, f"README.md:{block.line}: {done.stdout}{done.stderr}"


@pytest.fixture(scope="module")
def checked(tmp_path_factory: pytest.TempPathFactory) -> tuple[MypyRun, Path, Path, dict[int, int]]:
    folder = tmp_path_factory.mktemp("readme")
    generate_the_readmes_packages(link_farm(folder / "mypy"))
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
    assert source.count("\n") == sum(1 + b.code.count("\n") for b in blocks)  # nothing but the blocks


def test_readme_snippets_pass_mypy_strict(checked: tuple[MypyRun, Path, Path, dict[int, int]]) -> None:
    run, readme, _, where = checked
    found = [f"README.md:{where.get(e.line, '?')}: {e.message} [{e.code}]" for e in run.of(readme)]
    assert found == [], run.output


def test_a_mistake_planted_after_the_snippets_is_reported(checked: tuple[MypyRun, Path, Path, dict[int, int]]) -> None:
    run, readme, planted, _ = checked
    last = planted.read_text().count("\n")
    assert [(e.line, e.code) for e in run.of(planted)] == [(last, "assignment")], run.output
