"""One ``mypy --strict`` run over user-style files, with kgen seen as an installed package.

The editable install's import hook is invisible to mypy, so the run puts a folder of links on
``MYPYPATH``: ``kgen/runtime`` -> runtime/, ``kgen/kubernetes`` -> generated/kubernetes/ and
``examples`` -> examples/ (the sample controller's generated CRD package,
``examples.sample_controller.client``, as the tests import it). Third-party clients (lightkube,
which ships ``py.typed``) come from the venv. Shared by test_snippets.py, test_peers.py and test_readme.py; a
helper for any other mypy-over-snippets test.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import mypy.api

REPO = Path(__file__).resolve().parents[2]
_MARK = re.compile(r"#\s*E(?:<=(?P<release>\d+\.\d+))?:\s*(?P<code>[a-z-]+)\s*$")
_ERROR = re.compile(r"^(?P<file>[^:]+):(?P<line>\d+): error: (?P<message>.*?)(?:  \[(?P<code>[a-z-]+)\])?$")


@dataclass(frozen=True)
class MypyError:
    file: Path
    line: int
    code: str
    message: str


@dataclass(frozen=True)
class MypyRun:
    errors: list[MypyError]
    output: str

    def of(self, path: Path) -> list[MypyError]:
        """The errors reported in ``path``."""
        resolved = path.resolve()
        return [e for e in self.errors if e.file == resolved]


def marked_errors(paths: Iterable[Path], release: str | None = None) -> set[tuple[str, int, str]]:
    """(file name, line, code) of every line marked to get an error: ``# E: <code>`` always, and
    ``# E<=1.36: <code>`` in a package of Kubernetes ``release`` 1.36 or older (a field the newer
    releases' OpenAPI makes required, optional before); ``release=None``: the stock package's."""
    def minor(version: str) -> tuple[int, ...]:
        return tuple(int(part) for part in version.split(".")[:2])

    marks = set()
    for path in paths:
        for number, text in enumerate(path.read_text().splitlines(), 1):
            m = _MARK.search(text)
            if m and (not m["release"] or (release is not None and minor(release) <= minor(m["release"]))):
                marks.add((path.name, number, m["code"]))
    return marks


def link_farm(folder: Path) -> Path:
    """A folder to put on ``MYPYPATH`` in which ``kgen`` and ``examples`` resolve to the checkout."""
    farm = folder / "path"
    (farm / "kgen").mkdir(parents=True, exist_ok=True)
    for link, target in (("kgen/runtime", "runtime"), ("kgen/kubernetes", "generated/kubernetes"),
                         ("examples", "examples")):
        if not (farm / link).exists():
            (farm / link).symlink_to(REPO / target)
    return farm


def mypy_strict(paths: Iterable[Path], workdir: Path) -> MypyRun:
    """``mypy --strict`` over ``paths`` in one run; ``workdir`` holds the farm and the cache."""
    farm = link_farm(workdir)
    old = os.environ.get("MYPYPATH")
    os.environ["MYPYPATH"] = str(farm)
    try:
        out, err, status = mypy.api.run(
            ["--strict", "--cache-dir", str(workdir / "cache"), "--show-error-codes", "--no-pretty",
             "--no-color-output", "--no-error-summary", *map(str, paths)]
        )
    finally:
        if old is None:
            del os.environ["MYPYPATH"]
        else:
            os.environ["MYPYPATH"] = old
    if status not in (0, 1):  # 2: mypy itself failed (bad flags, a crash), no verdict on the files
        raise RuntimeError(f"mypy failed to run:\n{out}{err}")
    errors = []
    for line in out.splitlines():
        if m := _ERROR.match(line):
            errors.append(MypyError(Path(m["file"]).resolve(), int(m["line"]), m["code"] or "", m["message"]))
    return MypyRun(errors, out + err)
