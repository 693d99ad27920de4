"""The architecture holds: import contracts (import-linter, pyproject.toml) and small modules.

See docs/architecture.md. The contracts run against a folder where kgen/runtime,
kgen/kubernetes and kgen/generator are this checkout's folders (links, or copies with one planted
import), put first on PYTHONPATH, so what is checked is this tree whatever way kgen is installed.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")
ROOTS = {"runtime": REPO / "runtime", "kubernetes": REPO / "generated" / "kubernetes", "generator": REPO / "generator"}

MAX_MODULE_LINES = 500
# Modules that are generated tables (data, not logic) may be longer. There are none today.
GENERATED_TABLES: frozenset[str] = frozenset()


def _tree(tmp: Path, copy: str | None = None) -> Path:
    """A folder holding pyproject.toml and kgen/{runtime,kubernetes,generator}: links to this
    checkout, except ``copy`` (one of ROOTS), which is a copy that may be edited."""
    tree = tmp / "tree"
    (tree / "kgen").mkdir(parents=True)
    (tree / "pyproject.toml").symlink_to(REPO / "pyproject.toml")
    for name, folder in ROOTS.items():
        if name == copy:
            shutil.copytree(folder, tree / "kgen" / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            (tree / "kgen" / name).symlink_to(folder)
    return tree


def _lint_imports(tree: Path) -> subprocess.CompletedProcess[str]:
    assert LINT_IMPORTS.exists(), f"{LINT_IMPORTS} missing: pip install -e '.[test]' installs import-linter"
    env = dict(os.environ, PYTHONPATH=str(tree))
    return subprocess.run(
        [str(LINT_IMPORTS), "--no-cache", "--no-logo"], cwd=tree, env=env, capture_output=True, text=True, timeout=120
    )


def test_import_contracts_are_kept(tmp_path: Path) -> None:
    result = _lint_imports(_tree(tmp_path))
    assert result.returncode == 0, result.stdout + result.stderr
    assert " 0 broken." in result.stdout, result.stdout


@pytest.mark.parametrize(
    ("root", "module", "planted", "contract", "finding"),
    [
        pytest.param(
            "runtime", "apimachinery/labels.py", "import kgen.runtime.tools.cache",
            "runtime layers import only downward",
            "kgen.runtime.apimachinery is not allowed to import kgen.runtime.tools",
            id="values-import-tools",
        ),
        pytest.param(
            "runtime", "util/retry.py", "import kgen.kubernetes",
            "the runtime imports neither the generator nor generated code",
            "kgen.runtime is not allowed to import kgen.kubernetes",
            id="runtime-imports-generated",
        ),
        pytest.param(
            "kubernetes", "__init__.py", "import kgen.runtime.testing",
            "generated code imports neither the generator nor the test apiserver",
            "kgen.kubernetes is not allowed to import kgen.runtime.testing",
            id="generated-imports-testing",
        ),
        pytest.param(
            "kubernetes", "__init__.py", "from kgen.runtime.rest.client import RESTClient",
            "generated code imports the runtime's package-level names, never their modules",
            "kgen.kubernetes is not allowed to import kgen.runtime.rest.client",
            id="generated-imports-a-submodule",
        ),
        pytest.param(
            "runtime", "apimachinery/model.py", "import kgen.runtime.apimachinery.golang.gofmt",
            "apimachinery's packages import only downward",
            "kgen.runtime.apimachinery.model is not allowed to import kgen.runtime.apimachinery.golang",
            id="model-core-imports-a-sibling",
        ),
        pytest.param(
            "runtime", "apimachinery/util/strategicpatch/patch.py", "import kgen.runtime.apimachinery.validation",
            "apimachinery's packages import only downward",
            "kgen.runtime.apimachinery.util is not allowed to import kgen.runtime.apimachinery.validation",
            id="patch-imports-validation",
        ),
        pytest.param(
            "runtime", "apimachinery/util/managedfields/fieldmanager.py",
            "import kgen.runtime.apimachinery.validation.schemas",
            "apimachinery's packages import only downward",
            "kgen.runtime.apimachinery.util is not allowed to import kgen.runtime.apimachinery.validation",
            id="apply-imports-validation",
        ),
        pytest.param(
            "runtime", "apimachinery/util/strategicpatch/diff.py", "import kgen.runtime.apimachinery.util.resourceversion",
            "apimachinery's util packages are independent",
            "kgen.runtime.apimachinery.util.strategicpatch is not allowed to import "
            "kgen.runtime.apimachinery.util.resourceversion",
            id="util-packages-import-each-other",
        ),
        pytest.param(
            "runtime", "apimachinery/patch/jsonpatch.py", "import kgen.runtime.apimachinery.structured_merge_diff.fieldpath",
            "the patch formats import nothing of server-side apply",
            "kgen.runtime.apimachinery.patch is not allowed to import "
            "kgen.runtime.apimachinery.structured_merge_diff",
            id="patch-imports-apply",
        ),
        pytest.param(
            "runtime", "apimachinery/structured_merge_diff/fieldpath.py",
            "import kgen.runtime.apimachinery.structured_merge_diff.typed.value",
            "structured-merge-diff's packages import only downward",
            "kgen.runtime.apimachinery.structured_merge_diff.fieldpath is not allowed to import "
            "kgen.runtime.apimachinery.structured_merge_diff.typed",
            id="fieldpath-imports-typed",
        ),
    ],
)
def test_one_planted_import_breaks_its_contract(
    tmp_path: Path, root: str, module: str, planted: str, contract: str, finding: str
) -> None:
    tree = _tree(tmp_path, copy=root)
    path = tree / "kgen" / root / module
    path.write_text(path.read_text() + f"\n{planted}\n")

    result = _lint_imports(tree)

    assert result.returncode == 1, result.stdout + result.stderr
    report = " ".join(result.stdout.split())  # lint-imports wraps long lines
    assert re.search(re.escape(contract) + r"(?:(?! KEPT).)*? BROKEN", report), result.stdout
    assert finding in report, result.stdout


def test_no_runtime_module_is_over_500_lines() -> None:
    long = {}
    for path in sorted(ROOTS["runtime"].rglob("*.py")):
        name = path.relative_to(ROOTS["runtime"]).as_posix()
        lines = len(path.read_text().splitlines())
        if lines > MAX_MODULE_LINES and name not in GENERATED_TABLES:
            long[name] = lines
    assert not long, f"runtime modules over {MAX_MODULE_LINES} lines (split them by concept): {long}"


MAX_MODULES_PER_FOLDER = 15


def test_no_runtime_folder_holds_more_than_15_modules() -> None:
    """A folder is a Go package's counterpart (docs/architecture.md): past 15 modules side by side
    it holds more than one concept, and a reader cannot find one by folder."""
    crowded = {}
    for folder in sorted([ROOTS["runtime"], *ROOTS["runtime"].rglob("*/")]):
        if folder.name == "__pycache__" or not folder.is_dir():
            continue
        modules = len(list(folder.glob("*.py")))
        if modules > MAX_MODULES_PER_FOLDER:
            crowded[folder.relative_to(ROOTS["runtime"]).as_posix() or "."] = modules
    assert not crowded, f"runtime folders over {MAX_MODULES_PER_FOLDER} modules (split them by concept): {crowded}"
