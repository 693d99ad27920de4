"""``kgen.controller`` and ``kgen.webhook``, the names DESIGN.md gives controller-runtime's parts,
are re-exports of ``kgen.runtime.controller`` and ``kgen.runtime.webhook``: the same objects under
both names, no second copy of any module, and the runtime itself never imports the short names
(an import-linter contract, shown to catch a planted import)."""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

import pytest

from tests.unit.test_packaging import _lint_imports, _tree_with_runtime_copy

REPO = Path(__file__).resolve().parents[2]
SHORT_NAMES = {
    "kgen.controller": "kgen.runtime.controller",
    "kgen.webhook": "kgen.runtime.webhook",
    "kgen.webhook.admission": "kgen.runtime.webhook.admission",
    "kgen.webhook.conversion": "kgen.runtime.webhook.conversion",
}
CONTRACT = "the runtime never imports its short names (kgen.controller, kgen.webhook)"


@pytest.mark.parametrize(("short", "long"), sorted(SHORT_NAMES.items()))
def test_short_name_exports_the_same_objects_as_the_runtime_package(short: str, long: str) -> None:
    facade, package = importlib.import_module(short), importlib.import_module(long)
    assert facade.__all__ == package.__all__ and len(package.__all__) > 3
    for name in package.__all__:
        assert getattr(facade, name) is getattr(package, name), name
    public = {n for n in vars(facade) if not n.startswith("_")}
    assert public - {"admission", "conversion"} == set(package.__all__)  # nothing but the re-exports


def test_short_names_hold_the_classes_users_name() -> None:
    import kgen.controller
    import kgen.runtime.controller
    import kgen.runtime.webhook
    import kgen.webhook

    assert kgen.controller.Manager is kgen.runtime.controller.Manager
    assert kgen.controller.AsyncManager is kgen.runtime.controller.AsyncManager
    assert kgen.controller.webhook_managed_by is kgen.runtime.controller.webhook_managed_by
    assert kgen.webhook.WebhookServer is kgen.runtime.webhook.WebhookServer
    assert kgen.controller.Manager.__module__ == "kgen.runtime.controller.manager.manager"


def test_importing_every_short_name_loads_no_second_copy_of_a_module() -> None:
    """In a fresh interpreter: after importing the short names, each class is defined once (every
    loaded kgen.controller*/kgen.webhook* module is one of the four re-exports), and a module path
    under a short name does not exist (no `kgen.controller.manager` beside `kgen.runtime.controller.manager.manager`)."""
    code = (
        "import sys, importlib\n"
        f"for name in {sorted(SHORT_NAMES)!r}: importlib.import_module(name)\n"
        "print(sorted(m for m in sys.modules if m.startswith(('kgen.controller', 'kgen.webhook'))))\n"
        "try:\n    import kgen.controller.manager\nexcept ModuleNotFoundError as e:\n    print(e.name)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=REPO).stdout
    loaded, missing = out.splitlines()
    assert loaded == repr(sorted(SHORT_NAMES))
    assert missing == "kgen.controller.manager"


def test_runtime_importing_a_short_name_breaks_the_contract(tmp_path: Path) -> None:
    tree = _tree_with_runtime_copy(tmp_path)
    target = tree / "kgen" / "runtime" / "controller" / "builder.py"
    target.write_text(target.read_text() + "\nfrom kgen.webhook import WebhookServer  # planted\n")
    result = _lint_imports(tree)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "kgen.runtime.controller.builder -> kgen.webhook" in result.stdout, result.stdout
    assert f"{CONTRACT} BROKEN" in result.stdout, result.stdout


def test_this_tree_keeps_the_short_names_contract(tmp_path: Path) -> None:
    result = _lint_imports(_tree_with_runtime_copy(tmp_path))
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"{CONTRACT} KEPT" in result.stdout, result.stdout
