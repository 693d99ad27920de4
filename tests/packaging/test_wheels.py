"""kgen-runtime and kgen-k8s install from built wheels: each carries its own part of the `kgen`
namespace, the runtime needs only httpx, msgspec, websockets and google-re2, and `kgen generate` works from the install.
Their distribution names are this project's own: PyPI's `kgen` is another project (seawater
chemistry), a regular package `kgen` whose files pip puts in the same folder as this project's."""

from __future__ import annotations

import os
import subprocess
import sys
import tarfile
import zipfile
from dataclasses import dataclass
from email.parser import Parser
from pathlib import Path

from kgen.runtime.testing import find_assets
from tests.packaging.conftest import Wheels, build_wheel, fresh_venv, pip_install
from tests.packaging.test_envtest_cmd import FAKE_GO


#: A user's file on the installed short names: mypy must resolve them to the runtime's classes
#: (the wheel's py.typed files), and still refuse a name that is not there (line 9).
SHORT_NAMES_APP = """\
from kgen.controller import Manager, webhook_managed_by
from kgen.webhook.admission import Denied


def build(manager: Manager) -> None:
    reveal_type(manager)
    webhook_managed_by(manager)
    raise Denied("no")
from kgen.webhook import Nope  # noqa
"""


def _names(wheel: Path) -> set[str]:
    return set(zipfile.ZipFile(wheel).namelist())


@dataclass(frozen=True)
class Metadata:
    name: str
    requires: list[str]  # Requires-Dist
    extras: list[str]  # Provides-Extra


def _metadata(wheel: Path) -> Metadata:
    with zipfile.ZipFile(wheel) as z:
        (meta,) = [n for n in z.namelist() if n.endswith(".dist-info/METADATA")]
        msg = Parser().parsestr(z.read(meta).decode())
    return Metadata(msg["Name"], msg.get_all("Requires-Dist") or [], msg.get_all("Provides-Extra") or [])


def test_runtime_wheel_holds_the_runtime_and_the_stock_client_only(wheels: Wheels) -> None:
    names = _names(wheels.runtime)
    for expected in (
        "kgen/runtime/py.typed",
        "kgen/runtime/rest/client.py",
        "kgen/runtime/testing/pytest_plugin.py",
        "kgen/runtime/fake/schema/zero_fields.json",  # package data the fake reads
        "kgen/runtime/fake/schema/defaults.json",  # ... its defaulting of built-in kinds
        "kgen/runtime/apimachinery/util/managedfields/zero_objects.json",  # ... and the field manager
        "kgen/kubernetes/py.typed",
        "kgen/kubernetes/__init__.py",
        # the short names of kgen.runtime.controller and kgen.runtime.webhook (re-exports), typed
        "kgen/controller/__init__.py",
        "kgen/controller/py.typed",
        "kgen/controller/metrics/__init__.py",  # controller-runtime's pkg/metrics
        "kgen/webhook/__init__.py",
        "kgen/webhook/py.typed",
        "kgen/webhook/admission/__init__.py",
        "kgen/webhook/conversion/__init__.py",
    ):
        assert expected in names, expected
    assert not any(n.startswith(("kgen/generator/", "kgen/templates/", "kgen/openapi/", "kgen/envtest/")) for n in names)
    assert not any("__pycache__" in n or n.endswith(".pyc") for n in names)
    assert "kgen/__init__.py" not in names  # kgen stays a namespace both distributions share
    meta = _metadata(wheels.runtime)
    assert meta.name == "kgen-runtime" and wheels.runtime.name == "kgen_runtime-0.1.0-py3-none-any.whl"
    unconditional = sorted(r.split(">=")[0] for r in meta.requires if "extra ==" not in r)
    assert unconditional == ["google-re2", "httpx", "msgspec", "websockets"], meta.requires
    assert sorted(meta.extras) == ["kubeconfig", "metrics", "testing", "validation"]  # validation: the CEL library


def test_generator_wheel_holds_the_generator_and_depends_on_the_same_runtime(wheels: Wheels) -> None:
    names = _names(wheels.generator)
    for expected in (
        "kgen/generator/cli.py",
        "kgen/templates/__init__.py",
        "kgen/templates/models.py.jinja",
        "kgen/openapi/kubernetes-1.37.2/openapi/v3/apis/apps/v1.json",
        "kgen/openapi/kubernetes-1.37.2/discovery/aggregated/apis.json",
        # the older supported releases' snapshots (`kgen generate --kubernetes 1.34`) and the
        # table of built-in models' field order they share
        "kgen/openapi/kubernetes-1.34.4/openapi/v3/api/v1.json",
        "kgen/openapi/kubernetes-1.34.4/version.json",
        "kgen/openapi/field_order.json",
        "kgen/openapi/field_order_dropped.json",
        # the recipe `kgen envtest` builds kube-apiserver and etcd from (hack/envtest/)
        "kgen/envtest/build.sh",
        "kgen/envtest/versions.env",
        # ... and the whole test cluster's (`kgen envtest --cluster`): kcm, scheduler, kubectl, patched kwok
        "kgen/envtest/cluster.sh",
        "kgen/envtest/kwok-exec.patch",
        "kgen/envtest/etcd/go.mod",
        "kgen/envtest/etcd/go.sum",
        "kgen/envtest/etcd/main.go",
        "kgen/envtest/kube-apiserver/go.mod",
        "kgen/envtest/kube-apiserver/go.sum",
    ):
        assert expected in names, expected
    assert not any(n.startswith(("kgen/runtime/", "kgen/kubernetes/")) for n in names)
    assert not any(n.startswith(("tests/", "hack/", "openapi/", "examples/", "packaging/")) for n in names)
    assert "kgen/__init__.py" not in names
    meta = _metadata(wheels.generator)
    # Not `kgen`: that name on PyPI is the seawater-chemistry package.
    assert meta.name == "kgen-k8s" and wheels.generator.name == "kgen_k8s-0.1.0-py3-none-any.whl"
    assert "kgen-runtime==0.1.0" in meta.requires
    assert 'kgen-runtime[testing]==0.1.0; extra == "testing"' in meta.requires
    for dep in ("jinja2", "pyyaml", "jsonschema", "black"):
        assert any(r.startswith(dep) for r in meta.requires), (dep, meta.requires)


def test_wheels_install_with_console_script_and_import_names(wheels: Wheels, tmp_path: Path) -> None:
    python = fresh_venv(tmp_path / "venv")
    pip_install(python, str(wheels.runtime), str(wheels.generator))
    kgen = str(python.parent / "kgen")

    version = subprocess.run([kgen, "--version"], capture_output=True, text=True, cwd=tmp_path)
    assert version.returncode == 0 and version.stdout.strip() == "kgen 0.1.0", version.stderr
    assert version.stderr == ""  # no foreign `kgen/__init__.py` to warn about
    # pip knows the two by their distribution names, and names this project.
    assert _pip_show(python, "kgen-k8s")["Summary"].startswith("client-go's code generator and runtime, for Python")
    assert _pip_show(python, "kgen-runtime")["Summary"].startswith("The runtime of kgen's generated Kubernetes clients")
    assert _pip_show(python, "kgen-k8s")["Requires"].split(", ") == ["black", "jinja2", "jsonschema", "kgen-runtime", "pyyaml"]
    helptext = subprocess.run([kgen, "--help"], capture_output=True, text=True, cwd=tmp_path)
    assert helptext.returncode == 0 and "snapshot" in helptext.stdout and "envtest" in helptext.stdout
    # The main job from the installed wheels: the embedded snapshot travels with them.
    generated = subprocess.run(
        [kgen, "generate", "--out", str(tmp_path / "out"), "--package", "mykube", "--groups", "apps/v1"],
        capture_output=True, text=True, cwd=tmp_path,
    )
    assert generated.returncode == 0, generated.stderr
    assert (tmp_path / "out" / "mykube" / "models" / "apps" / "v1.py").is_file()
    imports = (
        "import kgen.generator, kgen.runtime, kgen.templates, kgen.kubernetes; "
        "print(kgen.runtime.__file__); print(kgen.generator.__file__)"
    )
    where = subprocess.run([str(python), "-c", imports], capture_output=True, text=True, cwd=tmp_path, check=True)
    runtime_file, generator_file = where.stdout.split()
    assert runtime_file.startswith(str(tmp_path / "venv")), runtime_file  # the wheels' copies, not the checkout
    assert generator_file.startswith(str(tmp_path / "venv")), generator_file
    # The short names from the wheel: the runtime's own classes, and typed for a user's mypy.
    same = (
        "import kgen.controller, kgen.runtime.controller, kgen.webhook.admission, kgen.runtime.webhook.admission; "
        "import kgen.controller.metrics, kgen.runtime.controller.metrics; "
        "assert kgen.controller.Manager is kgen.runtime.controller.Manager; "
        "assert kgen.controller.metrics.Registry is kgen.runtime.controller.metrics.Registry; "
        "assert kgen.webhook.admission.Validator is kgen.runtime.webhook.admission.Validator; "
        "print(kgen.controller.__file__)"
    )
    short = subprocess.run([str(python), "-c", same], capture_output=True, text=True, cwd=tmp_path)
    assert short.returncode == 0 and short.stdout.startswith(str(tmp_path / "venv")), short.stdout + short.stderr
    (tmp_path / "short.py").write_text(SHORT_NAMES_APP)
    typed = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--python-executable", str(python),
         "--cache-dir", str(tmp_path / ".mypy_cache"), "short.py"],
        capture_output=True, text=True, cwd=tmp_path,
    )
    assert 'Revealed type is "kgen.runtime.controller.manager.manager.Manager"' in typed.stdout, typed.stdout
    assert 'short.py:9: error: Module "kgen.webhook" has no attribute "Nope"' in typed.stdout, typed.stdout
    assert "import-not-found" not in typed.stdout and "Found 1 error" in typed.stdout, typed.stdout

    # `kgen envtest` from the install, outside any checkout: finds the session's binaries...
    assets = find_assets()
    found = subprocess.run([kgen, "envtest", "--cache-dir", str(assets.parent.parent)], capture_output=True, text=True,
                           cwd=tmp_path)
    assert (found.returncode, found.stdout) == (0, f"{assets}\n"), found.stderr
    # ... and builds with the recipe the wheel carries (a stand-in `go`, as in test_envtest_cmd.py).
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "go").write_text(FAKE_GO)
    (bin_dir / "go").chmod(0o755)
    env = dict(os.environ, PATH=f"{bin_dir}:/usr/bin:/bin", FAKE_GO_LOG=str(tmp_path / "go.log"))
    built = subprocess.run([kgen, "envtest", "--cache-dir", str(tmp_path / "cache")], capture_output=True, text=True,
                           cwd=tmp_path, env=env)
    folder = tmp_path / "cache" / "envtest" / "k8s-1.37.2-etcd-3.7.3"
    assert (built.returncode, built.stdout) == (0, f"{folder}\n"), built.stderr
    assert (folder / "kube-apiserver").is_file() and (folder / "etcd").is_file()


def test_sdists_carry_the_linked_folders_and_build_the_same_wheels(
    wheels: Wheels, sources: Path, tmp_path: Path
) -> None:
    """The release path (`python -m build`: an sdist, then a wheel from it) gives the same files
    as the wheels built from the checkout: the sdists hold copies of what the link farms point
    at, not the links."""
    python = fresh_venv(tmp_path / "venv")
    pip_install(python, "setuptools>=77", "wheel")
    sdists = tmp_path / "sdist"
    for project in (sources / "packaging" / "kgen-runtime", sources):
        subprocess.run(
            [str(python), "-c", "import sys; from setuptools import build_meta; build_meta.build_sdist(sys.argv[1])",
             str(sdists)],
            cwd=project, check=True, capture_output=True,
        )
    for sdist, built in (("kgen_runtime-0.1.0.tar.gz", wheels.runtime), ("kgen_k8s-0.1.0.tar.gz", wheels.generator)):
        with tarfile.open(sdists / sdist) as tar:
            assert not any(member.issym() or member.islnk() for member in tar.getmembers()), sdist
        (tmp_path / sdist.split("-0")[0]).mkdir()
        again = build_wheel(sdists / sdist, tmp_path / sdist.split("-0")[0])
        assert _package_files(again) == _package_files(built), sdist


def _package_files(wheel: Path) -> set[str]:
    return {n for n in _names(wheel) if ".dist-info/" not in n}


def _pip_show(python: Path, name: str) -> dict[str, str]:
    """`pip show NAME`'s fields; {} when NAME is not installed."""
    shown = subprocess.run([str(python), "-m", "pip", "show", name], capture_output=True, text=True)
    lines = shown.stdout.splitlines() if shown.returncode == 0 else []
    return {k: v.strip() for k, _, v in (line.partition(":") for line in lines) if v}


#: What PyPI's `kgen` 1.1.0 (seawater chemistry) puts in site-packages, in short: a regular package
#: `kgen` (its own `__init__.py`) beside this project's namespace. Its real `__init__` imports
#: numpy, pandas, scipy and scikit-learn; this stand-in imports nothing, so the test needs none.
SEAWATER_INIT = 'VERSION = "1.1.0"\n__version__ = VERSION\n'
SEAWATER_SUMMARY = "Python functions for calculating stoichiometric speciation constants for seawater."


def seawater_kgen_wheel(dist: Path) -> Path:
    """A wheel laid out as PyPI's `kgen` 1.1.0: distribution `Kgen`, files kgen/__init__.py and
    kgen/coefs.py. Built by hand (a wheel is a zip with its RECORD), so the test needs no index."""
    files = {
        "kgen/__init__.py": SEAWATER_INIT,
        "kgen/coefs.py": "K_coefs = {}\n",
        "kgen-1.1.0.dist-info/METADATA": f"Metadata-Version: 2.1\nName: Kgen\nVersion: 1.1.0\nSummary: {SEAWATER_SUMMARY}\n",
        "kgen-1.1.0.dist-info/WHEEL": "Wheel-Version: 1.0\nGenerator: hand\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
        "kgen-1.1.0.dist-info/top_level.txt": "kgen\n",
    }
    record = "".join(f"{name},,\n" for name in files) + "kgen-1.1.0.dist-info/RECORD,,\n"
    wheel = dist / "kgen-1.1.0-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as z:
        for name, text in {**files, "kgen-1.1.0.dist-info/RECORD": record}.items():
            z.writestr(name, text)
    return wheel


def test_the_seawater_kgen_beside_the_wheels_is_named_and_either_uninstalls_cleanly(
    wheels: Wheels, tmp_path: Path
) -> None:
    """Both in one venv: pip merges the two `kgen` folders, the other project's `__init__` makes
    `kgen` its package, this project still imports, and the `kgen` command names the other
    project and how to remove it. Uninstalling either leaves the other whole."""
    python = fresh_venv(tmp_path / "venv")
    seawater = seawater_kgen_wheel(tmp_path)
    pip_install(python, str(wheels.runtime), str(wheels.generator))
    pip_install(python, "--no-deps", str(seawater))
    kgen = str(python.parent / "kgen")
    site = Path(subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                               capture_output=True, text=True, check=True).stdout.strip())
    probe = "import kgen.runtime, kgen.kubernetes, kgen; print(getattr(kgen, '__file__', None))"

    both = subprocess.run([str(python), "-c", probe], capture_output=True, text=True, cwd=tmp_path)
    assert both.returncode == 0 and both.stdout.strip() == str(site / "kgen" / "__init__.py"), both.stderr
    version = subprocess.run([kgen, "--version"], capture_output=True, text=True, cwd=tmp_path)
    assert version.stdout == "kgen 0.1.0\n", version  # kgen-k8s's version, not Kgen's 1.1.0
    assert version.stderr == (
        f"kgen: warning: {site / 'kgen' / '__init__.py'} belongs to Kgen 1.1.0 (\"{SEAWATER_SUMMARY}\"), another "
        "project than kgen-k8s: it makes `kgen` its package, so every `import kgen...` runs it first. "
        "Uninstall it (pip uninstall Kgen) or keep the two in separate virtualenvs\n"
    )
    assert _pip_show(python, "kgen")["Summary"] == SEAWATER_SUMMARY  # `pip show kgen` is the other project
    assert _pip_show(python, "kgen-k8s")["Summary"].startswith("client-go's code generator")

    # The advice taken: this project's namespace is whole again, and the command says nothing more.
    subprocess.run([str(python), "-m", "pip", "uninstall", "--yes", "--quiet", "Kgen"], check=True)
    alone = subprocess.run([str(python), "-c", probe], capture_output=True, text=True, cwd=tmp_path)
    assert (alone.returncode, alone.stdout) == (0, "None\n"), alone.stderr  # a namespace package again
    helptext = subprocess.run([kgen, "--help"], capture_output=True, text=True, cwd=tmp_path)
    assert helptext.returncode == 0 and helptext.stderr == "" and "generate" in helptext.stdout

    # The other way round: removing kgen-k8s leaves the other project's files and kgen-runtime's.
    pip_install(python, "--no-deps", str(seawater))
    subprocess.run([str(python), "-m", "pip", "uninstall", "--yes", "--quiet", "kgen-k8s"], check=True)
    left = subprocess.run([str(python), "-c", probe + "; import kgen.coefs"], capture_output=True, text=True,
                          cwd=tmp_path)
    assert left.returncode == 0 and left.stdout.strip() == str(site / "kgen" / "__init__.py"), left.stderr
    assert not (python.parent / "kgen").exists() and not (site / "kgen" / "generator").exists()
