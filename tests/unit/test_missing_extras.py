"""A missing optional dependency names the kgen-runtime extra that installs it, in one line.

Each case runs a fresh interpreter in which the module is absent (``sys.modules[name] = None``
makes Python's import fail as for a module never installed) and reads the last line of its
traceback: what a user sees. The kubeconfig extra (a ConfigError naming it,
tests/unit/test_packaging.py), the validation extra (CEL rules "not checked" with the pip command,
tests/unit/test_validation_cel.py) and the metrics extra (tests/unit/test_rest_metrics.py,
tests/unit/test_workqueue_metrics.py) are pinned where their features are tested.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from kgen.runtime.util.extras import EXTRAS, MissingExtraError, missing_extra


def _last_line(code: str, absent: str) -> str:
    run = subprocess.run(
        [sys.executable, "-c", f"import sys; sys.modules[{absent!r}] = None\n{code}"],
        capture_output=True, text=True, timeout=60,
    )
    assert run.returncode == 1, run.stdout + run.stderr
    return run.stderr.splitlines()[-1]


@pytest.mark.parametrize("absent", ["cryptography", "yaml"])
@pytest.mark.parametrize(
    "code",
    [
        "from kgen.runtime.testing import KubeAPIServer",
        "import kgen.runtime.testing._server",
    ],
)
def test_the_test_apiserver_without_the_testing_extra_names_it(absent: str, code: str) -> None:
    assert _last_line(code, absent) == (
        f"kgen.runtime.util.extras.MissingExtraError: kgen.runtime.testing needs the {absent!r} module, "
        "which is not installed: pip install 'kgen-runtime[testing]'"
    )


def test_finding_the_binaries_needs_no_extra() -> None:
    """`kgen envtest` and find_assets share the pinned versions: they import without cryptography or PyYAML."""
    code = (
        "import sys; sys.modules['cryptography'] = sys.modules['yaml'] = None\n"
        "from kgen.runtime.testing import PINNED, find_assets\n"
        "print(PINNED.folder_name)"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    assert run.stdout.startswith("k8s-")


@pytest.mark.parametrize("absent", ["prometheus_client"])
def test_prometheus_metrics_without_the_metrics_extra_name_it(absent: str) -> None:
    code = "from kgen.runtime.rest import prometheus_rest_metrics; prometheus_rest_metrics()"
    assert _last_line(code, absent) == (
        "kgen.runtime.util.extras.MissingExtraError: prometheus_rest_metrics needs the 'prometheus_client' module, "
        "which is not installed: pip install 'kgen-runtime[metrics]' (or use InMemoryRESTMetrics)"
    )


def test_every_extra_named_is_one_the_runtime_declares() -> None:
    import tomllib
    from pathlib import Path

    pyproject = Path(__file__).resolve().parents[2] / "packaging" / "kgen-runtime" / "pyproject.toml"
    declared = tomllib.loads(pyproject.read_text())["project"]["optional-dependencies"]
    assert set(EXTRAS) == set(declared)
    with pytest.raises(ValueError, match="unknown kgen-runtime extra 'tsting'"):
        missing_extra("x", extra="tsting", needed_by="y")
    error = missing_extra("yaml", extra="kubeconfig", needed_by="z")
    assert isinstance(error, ImportError) and isinstance(error, MissingExtraError)
    assert (error.name, error.extra) == ("yaml", "kubeconfig")
