"""Every code block of the README (issue 31), the docs' getting started, tutorials and
troubleshooting runs (issue 16), each page against a real kube-apiserver + etcd of its own
(tests/docs/runner.py says how blocks run). A page fails on the first block that raises or exits
non-zero; its output is shown."""

from __future__ import annotations

from pathlib import Path

import pytest

from kgen.runtime.testing import KubeAPIServer
from tests.docs.runner import README, REPO, blocks, pages, run_page

PAGES = pages()


def test_the_tutorials_are_there() -> None:
    """The guide's concepts, one page each (issue 16's list), and every page runs something."""
    names = {p.stem for p in PAGES}
    assert {"README", "getting-started", "troubleshooting"} <= names and len(PAGES) >= 17, sorted(names)
    for page in PAGES:
        assert any(b.action in ("python", "sh") for b in blocks(page.read_text(encoding="utf-8"))), page


@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(REPO)) for p in PAGES])
def test_every_code_block_of_the_page_runs(page: Path, tmp_path: Path) -> None:
    with KubeAPIServer() as server:
        done = run_page(page, tmp_path / page.stem, str(server.kubeconfig))
    assert done.returncode == 0, f"{page.relative_to(REPO)} failed in {tmp_path}:\n{done.stdout[-6000:]}"


def test_the_readme_runs_its_python_and_shows_only_the_checkout_commands() -> None:
    """The README's python blocks all run; of its shell blocks, only those marked ``no-run``
    (``make test`` belongs to a checkout, not to the page's folder) are skipped."""
    found = blocks(README.read_text(encoding="utf-8"))
    python = [b for b in found if b.language == "python"]
    assert len(python) >= 8 and all(b.action == "python" for b in python)
    first = found[0]
    assert (first.language, first.action) == ("sh", "show") and first.code.startswith("make generate"), first
    assert {b.title for b in found if b.action == "write"} >= {"web.yaml", "crds/widgets.yaml"}


def test_blocks_are_read_as_mkdocs_renders_them() -> None:
    """The runner's reading of fences: indented blocks (tabs, admonitions), titles, languages."""
    page = (
        "text\n\n```python\nx = 1\n```\n\n=== \"Sync\"\n\n    ```python\n    y = x + 1\n    ```\n\n"
        "```yaml title=\"crd.yaml\"\nkind: A\n```\n\n```text\nout\n```\n\n````sh\necho ```\n````\n"
        "\n```sh no-run\nmake test\n```\n"
    )
    found = blocks(page)
    assert [(b.line, b.action, b.title, b.code) for b in found] == [
        (4, "python", None, "x = 1\n"), (10, "python", None, "y = x + 1\n"), (14, "write", "crd.yaml", "kind: A\n"),
        (18, "show", None, "out\n"), (22, "sh", None, "echo ```\n"), (26, "show", None, "make test\n"),
    ]
