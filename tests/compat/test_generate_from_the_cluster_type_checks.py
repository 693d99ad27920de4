"""`kgen generate --cluster` against the release's own cluster, then every module imported and the
user-style typing snippets (tests/typing/snippets, written for the stock package) checked with
`mypy --strict` against the generated package instead: what a user of that release writes.

A snippet line marked ``# E: <code>`` must get that error on every release, ``# E<=1.36: <code>``
on 1.36 and older only (1.37's OpenAPI makes ``spec`` of Deployment and others required:
docs/compatibility.md), and every other line none."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from kgen.runtime.testing import Cluster
from tests.support.packages import generate, import_all
from tests.typing.mypy_run import marked_errors, mypy_strict

SNIPPETS = Path(__file__).resolve().parents[1] / "typing" / "snippets"


def test_the_package_generated_from_the_cluster_imports_and_passes_mypy_strict(
    compat_cluster: Cluster, tmp_path: Path
) -> None:
    package = generate(tmp_path, "live", "--cluster", "--kubeconfig", compat_cluster.kubeconfig)
    release = compat_cluster.version.removeprefix("v")
    assert f'KUBERNETES_VERSION = "{release}"' in (package / "__init__.py").read_text()
    assert len(list(import_all(tmp_path, "live"))) > 100

    users = tmp_path / "users"
    users.mkdir()
    snippets = sorted(SNIPPETS.glob("*.py"))
    for snippet in snippets:
        text = snippet.read_text()
        assert "kgen.kubernetes" in text, snippet.name
        (users / snippet.name).write_text(re.sub(r"\bkgen\.kubernetes\b", "live", text))
    shutil.copytree(package, users / "live")
    run = mypy_strict(sorted(users.glob("*.py")), tmp_path / "mypy")
    reported = {(e.file.name, e.line, e.code) for e in run.errors if e.file.parent == users.resolve()}
    expected = marked_errors(snippets, release)
    assert len(expected) >= 10
    assert reported - expected == set(), f"unexpected errors:\n{run.output}"
    assert expected - reported == set(), f"mistakes mypy did not catch: {sorted(expected - reported)}\n{run.output}"
    assert [e for e in run.errors if e.file.parent != users.resolve()] == []  # none in the package
