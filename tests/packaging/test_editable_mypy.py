"""mypy --strict in a user's project sees kgen through an editable install of this checkout.

setuptools installs remapped folders (runtime/ as kgen.runtime, ...) editable through an import
hook, which mypy cannot follow: every `kgen.*` import was `import-not-found` in a user's project
(1064 errors, 23 of them import-not-found, for the file below). The link farms in packaging/ make
both editable installs plain `.pth` paths; this test installs them into a fresh venv, generates a
package into a project outside the repository, and type-checks both with that venv's
site-packages (mypy's --python-executable, as a project's own mypy would see them).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.packaging.conftest import REPO, RUNTIME_PROJECT, fresh_venv, pip_install

APP = '''\
from kgen.kubernetes import Clientset as StockClientset
from kgen.kubernetes.models.core.v1 import ConfigMap
from kgen.runtime.util.workqueue import RateLimitingQueue, default_controller_rate_limiter
from userclient import Clientset
from userclient.informers.factory import SharedInformerFactory
from userclient.models.apps.v1 import Deployment


def names(cs: Clientset) -> list[str]:
    factory = SharedInformerFactory(cs, resync=0)
    deployments = factory.apps_v1.deployments()
    return [d.metadata.name for d in deployments.lister.list() if d.metadata and d.metadata.name]


def main() -> None:
    queue: RateLimitingQueue[str] = RateLimitingQueue(default_controller_rate_limiter())
    queue.add("default/web")
    print(names(Clientset.from_kubeconfig()), StockClientset, ConfigMap, Deployment)
'''

REVEAL = '''\
from kgen.controller import Manager
from kgen.runtime.rest import Config
from userclient.models.apps.v1 import Deployment

reveal_type(Config)
reveal_type(Deployment)
reveal_type(Manager.start)
'''


def _mypy(python: Path | None, project: Path, *targets: str) -> subprocess.CompletedProcess[str]:
    where = ["--python-executable", str(python)] if python else ["--no-site-packages"]
    return subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", *where,
         "--cache-dir", str(project / ".mypy_cache"), *targets],
        capture_output=True, text=True, cwd=project,
    )


def test_user_project_type_checks_against_editable_kgen(tmp_path: Path) -> None:
    python = fresh_venv(tmp_path / "venv")
    # The kgen distributions editable (no deps: their deps are PyPI's business), and what the
    # runtime's types refer to.
    pip_install(python, "--no-deps", "-e", str(RUNTIME_PROJECT), "-e", str(REPO))
    pip_install(python, "httpx", "msgspec", "websockets")
    pth = sorted(p.read_text().strip() for p in (tmp_path / "venv").glob("lib/python*/site-packages/__editable__*.pth"))
    assert pth == [str(REPO / "packaging" / "kgen"), str(REPO / "packaging" / "kgen-runtime")], pth

    project = tmp_path / "project"
    project.mkdir()
    generated = subprocess.run(
        [sys.executable, "-m", "kgen.generator.cli", "generate", "--package", "userclient", "--groups", "apps/v1",
         "--out", str(project)],
        capture_output=True, text=True,
    )
    assert generated.returncode == 0, generated.stderr
    assert (project / "userclient" / "py.typed").is_file()
    (project / "app.py").write_text(APP)

    # Control: without site-packages mypy does not find kgen, and says so.
    blind = _mypy(None, project, "app.py", "userclient")
    assert 'Cannot find implementation or library stub for module named "kgen.runtime' in blind.stdout, blind.stdout

    checked = _mypy(python, project, "app.py", "userclient")
    assert "import-not-found" not in checked.stdout, checked.stdout
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert checked.stdout.startswith("Success: no issues found"), checked.stdout

    # mypy resolved the names to kgen's and the package's classes (not Any).
    (project / "reveal.py").write_text(REVEAL)
    revealed = _mypy(python, project, "reveal.py")
    assert 'Revealed type is "def (host: str' in revealed.stdout, revealed.stdout
    assert "-> kgen.runtime.rest.config.Config" in revealed.stdout, revealed.stdout
    assert "userclient.models.apps.v1.Deployment" in revealed.stdout, revealed.stdout
    # kgen.controller, the short name packaging/kgen-runtime/kgen/controller/ re-exports, is the runtime's Manager.
    assert 'Revealed type is "def (self: kgen.runtime.controller.manager.manager.Manager)' in revealed.stdout, revealed.stdout
