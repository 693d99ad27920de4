"""What the runtime-only distribution (kgen-runtime: httpx, msgspec, websockets) relies on, checked
without building anything: the import contract that keeps the generator's dependencies out of the
runtime catches a planted import, and kubeconfigs load without PyYAML when they are JSON."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from kgen.runtime.rest import ConfigError, load_kubeconfig

REPO = Path(__file__).resolve().parents[2]
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")
CONTRACT = "the runtime and generated code import none of the generator's dependencies"


def _tree_with_runtime_copy(tmp: Path) -> Path:
    tree = tmp / "tree"
    (tree / "kgen").mkdir(parents=True)
    (tree / "pyproject.toml").symlink_to(REPO / "pyproject.toml")
    shutil.copytree(REPO / "runtime", tree / "kgen" / "runtime", ignore=shutil.ignore_patterns("__pycache__"))
    (tree / "kgen" / "kubernetes").symlink_to(REPO / "generated" / "kubernetes")
    (tree / "kgen" / "generator").symlink_to(REPO / "generator")
    return tree


def _lint_imports(tree: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(LINT_IMPORTS), "--no-cache", "--no-logo"], cwd=tree, env=dict(os.environ, PYTHONPATH=str(tree)),
        capture_output=True, text=True, timeout=120,
    )


@pytest.mark.parametrize(
    ("module", "planted", "finding"),
    [
        ("rest/client.py", "import jinja2", "kgen.runtime.rest.client -> jinja2"),
        ("tools/cache/reflector.py", "import yaml", "kgen.runtime.tools.cache.reflector -> yaml"),
        ("util/retry.py", "from jsonschema import validate", "kgen.runtime.util.retry -> jsonschema"),
        ("apimachinery/labels.py", "import black", "kgen.runtime.apimachinery.labels -> black"),
    ],
)
def test_runtime_importing_a_generator_dependency_breaks_the_contract(
    tmp_path: Path, module: str, planted: str, finding: str
) -> None:
    tree = _tree_with_runtime_copy(tmp_path)
    target = tree / "kgen" / "runtime" / module
    target.write_text(target.read_text() + f"\n{planted}  # planted\n")
    result = _lint_imports(tree)
    assert result.returncode == 1, result.stdout + result.stderr
    assert f"{CONTRACT} BROKEN" in result.stdout, result.stdout
    assert finding in result.stdout, result.stdout


def test_this_tree_keeps_the_contract(tmp_path: Path) -> None:
    result = _lint_imports(_tree_with_runtime_copy(tmp_path))
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"{CONTRACT} KEPT" in result.stdout, result.stdout


_KUBECONFIG = {
    "apiVersion": "v1",
    "kind": "Config",
    "clusters": [{"name": "c", "cluster": {"server": "https://127.0.0.1:6443"}}],
    "users": [{"name": "u", "user": {"token": "t0ken"}}],
    "contexts": [{"name": "x", "context": {"cluster": "c", "user": "u", "namespace": "ns"}}],
    "current-context": "x",
}


@pytest.fixture
def without_pyyaml(monkeypatch: pytest.MonkeyPatch) -> None:
    """`import yaml` fails as it does where kgen-runtime is installed without its extras."""
    monkeypatch.setitem(sys.modules, "yaml", None)


@pytest.mark.usefixtures("without_pyyaml")
def test_json_kubeconfig_loads_without_pyyaml(tmp_path: Path) -> None:
    path = tmp_path / "config.json"
    path.write_text(json.dumps(_KUBECONFIG))
    config = load_kubeconfig(path)
    assert (config.host, config.namespace) == ("https://127.0.0.1:6443", "ns")


@pytest.mark.usefixtures("without_pyyaml")
def test_yaml_kubeconfig_without_pyyaml_names_the_extra(tmp_path: Path) -> None:
    path = tmp_path / "config"
    path.write_text("apiVersion: v1\nkind: Config\nclusters: []\n")
    with pytest.raises(ConfigError) as e:
        load_kubeconfig(path)
    assert str(e.value) == f"{path}: a YAML kubeconfig needs PyYAML: pip install 'kgen-runtime[kubeconfig]'"


@pytest.mark.usefixtures("without_pyyaml")
def test_json_kubeconfig_that_is_not_a_mapping_is_refused_without_pyyaml(tmp_path: Path) -> None:
    path = tmp_path / "config.json"
    path.write_text("[1, 2]")
    with pytest.raises(ConfigError, match="expected a kubeconfig mapping"):
        load_kubeconfig(path)


def test_yaml_and_json_kubeconfigs_read_alike_with_pyyaml(tmp_path: Path) -> None:
    import yaml

    (tmp_path / "a.yaml").write_text(yaml.safe_dump(_KUBECONFIG))
    (tmp_path / "a.json").write_text(json.dumps(_KUBECONFIG))
    from_yaml, from_json = load_kubeconfig(tmp_path / "a.yaml"), load_kubeconfig(tmp_path / "a.json")
    assert (from_yaml.host, from_yaml.namespace) == (from_json.host, from_json.namespace) == ("https://127.0.0.1:6443", "ns")
    assert type(from_yaml.credentials) is type(from_json.credentials)


def test_kgen_pins_the_kgen_runtime_it_is_released_with() -> None:
    """The generator emits code for its own runtime release: a version bump in one pyproject.toml
    without the other fails here, not in a user's venv."""
    import tomllib

    kgen = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    runtime = tomllib.loads((REPO / "packaging" / "kgen-runtime" / "pyproject.toml").read_text())["project"]
    assert runtime["name"] == "kgen-runtime"
    assert kgen["version"] == runtime["version"]
    assert f"kgen-runtime=={runtime['version']}" in kgen["dependencies"]
    assert f"kgen-runtime[testing]=={runtime['version']}" in kgen["optional-dependencies"]["testing"]
    # The runtime's own dependencies are httpx, msgspec, websockets (exec, attach, port-forward) and
    # google-re2 (schemas' Go regexps); everything else is an extra.
    assert sorted(d.split(">=")[0] for d in runtime["dependencies"]) == ["google-re2", "httpx", "msgspec", "websockets"]
