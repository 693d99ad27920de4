"""kgen installs from a built wheel: the console script and every import name work."""

from __future__ import annotations

import subprocess
import sys
import venv
import zipfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def test_wheel_installs_with_console_script_and_import_names(tmp_path: Path) -> None:
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(tmp_path / "dist"), str(REPO)],
        check=True,
    )
    (wheel,) = (tmp_path / "dist").glob("kgen-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for expected in (
        "kgen/generator/cli.py",
        "kgen/runtime/testing/pytest_plugin.py",
        "kgen/templates/__init__.py",
        "kgen/kubernetes/__init__.py",
        "kgen/kubernetes/py.typed",
        "kgen/openapi/kubernetes-1.37.2/openapi/v3/apis/apps/v1.json",
        "kgen/openapi/kubernetes-1.37.2/discovery/aggregated/apis.json",
    ):
        assert expected in names, expected
    assert not any(n.startswith(("tests/", "hack/", "openapi/", "examples/")) for n in names)

    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True)
    python = env_dir / "bin" / "python"
    subprocess.run([str(python), "-m", "pip", "install", "--quiet", str(wheel)], check=True)

    version = subprocess.run([str(env_dir / "bin" / "kgen"), "--version"], capture_output=True, text=True, cwd=tmp_path)
    assert version.returncode == 0 and version.stdout.strip() == "kgen 0.1.0", version.stderr
    helptext = subprocess.run([str(env_dir / "bin" / "kgen"), "--help"], capture_output=True, text=True, cwd=tmp_path)
    assert helptext.returncode == 0 and "snapshot" in helptext.stdout
    # The main job from the installed wheel: the embedded snapshot travels with it.
    generated = subprocess.run(
        [str(env_dir / "bin" / "kgen"), "generate", "--out", str(tmp_path / "out"), "--groups", "apps/v1"],
        capture_output=True, text=True, cwd=tmp_path,
    )
    assert generated.returncode == 0, generated.stderr
    assert (tmp_path / "out" / "kubernetes" / "models" / "apps" / "v1.py").is_file()
    imports = "import kgen.generator, kgen.runtime, kgen.templates, kgen.kubernetes; print(kgen.runtime.__file__)"
    where = subprocess.run([str(python), "-c", imports], capture_output=True, text=True, cwd=tmp_path, check=True)
    assert str(env_dir) in where.stdout  # the wheel's copy, not the checkout
