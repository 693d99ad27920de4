"""The docs test runner (issue 16): every code block of a tutorial, of getting started and of the
README (issue 31) runs, in order, as a reader would run them, so the docs cannot rot.

A page's fenced code blocks, by their info string (mkdocs-material's syntax):

- ``python``: executed, all of a page's in one namespace (a block sees the names the blocks
  before it defined, as in a notebook);
- ``sh`` / ``bash`` / ``shell``: run by ``bash -euo pipefail`` in the page's folder;
- any block with ``title="path"`` (``yaml title="crd.yaml"``, ``python title="controller.py"``):
  written to that path in the page's folder, not executed (a later block uses it);
- a block with the word ``no-run`` after its language (``sh no-run``): shown, not run. For the
  README's commands that belong to a checkout of this repository (``make test``): GitHub still
  highlights the block as its language. mkdocs does not render that form; docs pages use ``text``;
- anything else (``text``, ``console``, ``json`` without a title): shown, not run.

Each page runs in a fresh folder, with ``KUBECONFIG`` naming a real kube-apiserver's admin
kubeconfig (the test gives each page a server of its own, so ``default`` is the page's), the
virtualenv's ``bin`` first on ``PATH`` (``kgen``, ``python``) and the folder on ``PYTHONPATH``
(the packages ``kgen generate`` writes there import). A failing block fails the page, its page
and first line named in the traceback.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
DOCS = REPO / "docs"
README = REPO / "README.md"

_FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})(?P<info>[^`\n]*)$")
_TITLE = re.compile(r"""title=(?:"([^"]*)"|'([^']*)')""")
RUN = {"python": "python", "py": "python", "sh": "sh", "bash": "sh", "shell": "sh"}


@dataclass(frozen=True)
class Block:
    line: int  # the first line of the code, 1-based
    language: str
    title: str | None  # written to this path instead of run
    code: str
    shown_only: bool = False  # ``no-run`` in the info string

    @property
    def action(self) -> str:
        """``write``, ``python``, ``sh`` or ``show``."""
        if self.title:
            return "write"
        if self.shown_only:
            return "show"
        return RUN.get(self.language, "show")


def blocks(markdown: str) -> list[Block]:
    """The fenced code blocks of a page, their indentation (inside admonitions, tabs) removed."""
    found: list[Block] = []
    lines = markdown.splitlines()
    i = 0
    while i < len(lines):
        opening = _FENCE.match(lines[i])
        if not opening or not opening["info"].strip():
            i += 1
            continue
        indent, fence = opening["indent"], opening["fence"]
        info = opening["info"].strip()
        language = info.split()[0].lstrip(".").lower() if info.split() else ""
        title = _TITLE.search(info)
        body: list[str] = []
        start = i + 2  # 1-based, the line after the fence
        i += 1
        while i < len(lines) and not (lines[i].strip().startswith(fence) and lines[i].strip().strip(fence[0]) == ""):
            body.append(lines[i][len(indent):] if lines[i].startswith(indent) else lines[i].lstrip())
            i += 1
        found.append(Block(start, language, (title[1] or title[2]) if title else None, "\n".join(body) + "\n",
                           shown_only="no-run" in info.split()[1:]))
        i += 1
    return found


_DRIVER = '''
import json, subprocess, sys, traceback
from pathlib import Path

page, steps = json.loads(Path(sys.argv[1]).read_text())
namespace = {"__name__": "__main__"}
for step in steps:
    where = f"{page}:{step['line']}"
    print(f"--- {where} ({step['action']})", flush=True)
    if step["action"] == "write":
        path = Path(step["title"])
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(step["code"])
    elif step["action"] == "python":
        code = compile("\\n" * (step["line"] - 1) + step["code"], page, "exec")
        exec(code, namespace)
    elif step["action"] == "sh":
        done = subprocess.run(["bash", "-euo", "pipefail", "-c", step["code"]])
        if done.returncode:
            sys.exit(f"{where}: the shell block exited {done.returncode}")
'''


def run_page(page: Path, folder: Path, kubeconfig: str, timeout: float = 300.0,
             env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """Runs ``page``'s blocks in ``folder``, ``env`` added to the environment; the completed
    process (its output holds each block's start line, ``--- page.md:12 (python)``, then what
    the block printed)."""
    steps = [{"line": b.line, "action": b.action, "title": b.title, "code": b.code}
             for b in blocks(page.read_text(encoding="utf-8")) if b.action != "show"]
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "_steps.json").write_text(json.dumps([str(page.relative_to(REPO)), steps]))
    (folder / "_driver.py").write_text(_DRIVER)
    bin_dir = str(Path(sys.executable).parent)
    env = {**os.environ, "KUBECONFIG": kubeconfig, "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}",
           "PYTHONPATH": str(folder), "PYTHONUNBUFFERED": "1", **(env or {})}
    return subprocess.run([sys.executable, "_driver.py", "_steps.json"], cwd=folder, env=env, text=True,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=timeout)


def pages() -> list[Path]:
    """The pages whose code runs: the README, getting started, the tutorials, the guides
    (docs/guides/: coming from kopf), troubleshooting."""
    tutorials = sorted(p for p in (DOCS / "tutorials").glob("*.md") if p.name != "index.md")
    guides = sorted(p for p in (DOCS / "guides").glob("*.md") if p.name != "index.md")
    found = [README, DOCS / "getting-started.md", *tutorials, *guides, DOCS / "troubleshooting.md"]
    return [p for p in found if p.exists()]


def workflow_pages() -> list[Path]:
    """docs/workflows/: the everyday workflows (exec, logs, port-forward, cp, wait, rollout, apply,
    drain), which need a whole cluster: tests/cluster/test_workflow_pages.py runs them."""
    return sorted(p for p in (DOCS / "workflows").glob("*.md") if p.name != "index.md")


def main() -> int:
    """``python -m tests.docs.runner PAGE.md [FOLDER]``: one page against ``$KUBECONFIG``."""
    page = Path(sys.argv[1]).resolve()
    folder = Path(sys.argv[2]) if len(sys.argv) > 2 else Path(f"/tmp/kgen-docs/{page.stem}")
    done = run_page(page, folder.resolve(), os.environ["KUBECONFIG"])
    print(done.stdout)
    print(f"exit {done.returncode}; ran in {shlex.quote(str(folder))}")
    return done.returncode


if __name__ == "__main__":
    raise SystemExit(main())
