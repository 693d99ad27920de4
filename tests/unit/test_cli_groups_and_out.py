"""`kgen generate --groups` and `--out`: what each selects or refuses, with the exact exit code and
the exact line on stderr (and never a traceback).

Before these fixes, `--groups core/v1` (or `v1`) wrote a package with an empty Clientset and exit
0 (apimachinery's meta/v1 shares core's group "" and version "v1", and replaced it in the
lookup), and `--out` naming a file ended in a FileExistsError traceback.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from kgen.generator import write
from kgen.generator.cli import main
from tests.unit.helpers import unique_package, write_json

META = "io.k8s.apimachinery.pkg.apis.meta.v1"


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _kind(group: str, version: str, kind: str, **props: Any) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {"apiVersion": {"type": "string"}, "kind": {"type": "string"},
                       "metadata": _ref(f"{META}.ObjectMeta"), **props},
        "x-kubernetes-group-version-kind": [{"group": group, "version": version, "kind": kind}],
    }


def _actions(prefix: str, plural: str, group: str, version: str, kind: str) -> dict[str, Any]:
    gvk = {"group": group, "version": version, "kind": kind}
    return {
        f"{prefix}/namespaces/{{namespace}}/{plural}": {
            "get": {"x-kubernetes-action": "list", "x-kubernetes-group-version-kind": gvk},
            "post": {"x-kubernetes-action": "post", "x-kubernetes-group-version-kind": gvk},
        },
        f"{prefix}/namespaces/{{namespace}}/{plural}/{{name}}": {
            "get": {"x-kubernetes-action": "get", "x-kubernetes-group-version-kind": gvk},
        },
    }


def _core_and_apps(tmp_path: Path) -> Path:
    """A small API: core/v1 ConfigMap and PodSpec, apps/v1 Deployment (uses PodSpec), batch/v1 Job,
    and apimachinery's meta/v1 (ObjectMeta, ListMeta), with the paths that make them resources."""
    schemas = {
        f"{META}.ObjectMeta": {"type": "object", "properties": {"name": {"type": "string"}}},
        f"{META}.ListMeta": {"type": "object", "properties": {"continue": {"type": "string"}}},
        "io.k8s.api.core.v1.ConfigMap": _kind("", "v1", "ConfigMap", data={"type": "object", "additionalProperties": {"type": "string"}}),
        "io.k8s.api.core.v1.PodSpec": {"type": "object", "properties": {"hostname": {"type": "string"}}},
        "io.k8s.api.apps.v1.Deployment": _kind("apps", "v1", "Deployment", spec=_ref("io.k8s.api.core.v1.PodSpec")),
        "io.k8s.api.batch.v1.Job": _kind("batch", "v1", "Job"),
        "io.k8s.api.autoscaling.v1.Scale": _kind("autoscaling", "v1", "Scale"),
    }
    paths = {
        **_actions("/api/v1", "configmaps", "", "v1", "ConfigMap"),
        **_actions("/apis/apps/v1", "deployments", "apps", "v1", "Deployment"),
        **_actions("/apis/batch/v1", "jobs", "batch", "v1", "Job"),
        "/apis/apps/v1/namespaces/{namespace}/deployments/{name}/scale": {
            "get": {"x-kubernetes-action": "get", "x-kubernetes-group-version-kind": {"group": "autoscaling", "version": "v1", "kind": "Scale"}},
        },
    }
    doc = {"openapi": "3.0.0", "info": {"title": "t", "version": "v1"}, "components": {"schemas": schemas}, "paths": paths}
    return write_json(tmp_path / "openapi.json", doc)


def _generated(out: Path, package: str) -> list[str]:
    folder = out / package
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*.py"))


def _fails(capsys: pytest.CaptureFixture[str], args: list[str], code: int = 2) -> str:
    assert main(args) == code
    captured = capsys.readouterr()
    assert captured.out == "" and "Traceback" not in captured.err
    assert captured.err.endswith("\n") and len(captured.err.splitlines()) == 1, captured.err
    return captured.err.rstrip("\n")


# -- --groups ---------------------------------------------------------------------------------


@pytest.mark.parametrize("selector", ["core/v1", "v1"])
def test_groups_core_v1_generates_the_core_client(tmp_path: Path, capsys: pytest.CaptureFixture[str], selector: str) -> None:
    source, out, package = _core_and_apps(tmp_path), tmp_path / "out", unique_package()
    assert main(["generate", "--from", str(source), "--out", str(out), "--package", package, "--groups", selector]) == 0
    assert capsys.readouterr().err == ""
    files = _generated(out, package)
    assert "models/core/v1.py" in files and "typed/core/v1.py" in files and "listers/core/v1.py" in files
    assert not any(f.startswith(("models/apps", "models/batch")) for f in files)
    core = (out / package / "models" / "core" / "v1.py").read_text()
    assert "class ConfigMap(" in core and "class ObjectMeta(" not in core
    meta = (out / package / "models" / "meta" / "v1.py").read_text()
    assert "class ObjectMeta(" in meta and "class ListMeta(" in meta and "class ConfigMap(" not in meta
    init = (out / package / "__init__.py").read_text()
    assert "def core_v1(self) -> _core_v1.CoreV1Client:" in init
    assert "def core_v1(self) -> _core_v1.AsyncCoreV1Client:" in init
    assert "config_maps" in (out / package / "typed" / "core" / "v1.py").read_text()


def test_groups_apps_and_core(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source, out, package = _core_and_apps(tmp_path), tmp_path / "out", unique_package()
    assert main(["generate", "--from", str(source), "--out", str(out), "--package", package, "--groups", "apps/v1,core/v1"]) == 0
    files = _generated(out, package)
    assert {"models/apps/v1.py", "models/core/v1.py", "models/meta/v1.py", "typed/apps/v1.py", "typed/core/v1.py"} <= set(files)
    assert not any("batch" in f for f in files)
    init = (out / package / "__init__.py").read_text()
    assert "def apps_v1(self)" in init and "def core_v1(self)" in init and "batch_v1" not in init


def test_groups_keep_the_models_of_subresources(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`--groups apps/v1`: deployments' scale subresource uses autoscaling/v1 Scale, so it comes
    along (before, the typed client silently lost scale() and update_scale())."""
    source, out, package = _core_and_apps(tmp_path), tmp_path / "out", unique_package()
    assert main(["generate", "--from", str(source), "--out", str(out), "--package", package, "--groups", "apps/v1"]) == 0
    assert "models/autoscaling/v1.py" in _generated(out, package)
    typed = (out / package / "typed" / "apps" / "v1.py").read_text()
    assert "def scale(self, name: str) -> autoscalingv1.Scale:" in typed


def test_groups_unknown_group_names_it_and_what_exists(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source, out = _core_and_apps(tmp_path), tmp_path / "out"
    line = _fails(capsys, ["generate", "--from", str(source), "--out", str(out), "--groups", "apps/v1,widgets.example.io/v1"])
    assert line == (
        "kgen generate: --groups: unknown group/version widgets.example.io/v1 "
        "(expected one of apps/v1, autoscaling/v1, batch/v1, core/v1)"
    )
    assert not out.exists()


@pytest.mark.parametrize(
    ("groups", "problem"),
    [
        ("apps", "'apps' is not a group/version"),
        ("apps/v1/x", "'apps/v1/x' is not a group/version"),
        ("/v1", "'/v1' is not a group/version"),
        ("apps/", "'apps/' is not a group/version"),
        ("", "no group/version given"),
        (",", "no group/version given"),
    ],
)
def test_groups_that_are_not_group_versions(tmp_path: Path, capsys: pytest.CaptureFixture[str], groups: str, problem: str) -> None:
    source = _core_and_apps(tmp_path)
    line = _fails(capsys, ["generate", "--from", str(source), "--out", str(tmp_path / "out"), "--groups", groups])
    assert line == (
        f"kgen generate: --groups: {problem} "
        "(expected GROUP/VERSION[,...] such as apps/v1,core/v1; v1 or core/v1 names the core group)"
    )


# -- --out ------------------------------------------------------------------------------------


def test_out_naming_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source, out = _core_and_apps(tmp_path), tmp_path / "afile"
    out.write_text("mine\n")
    line = _fails(capsys, ["generate", "--from", str(source), "--out", str(out), "--package", "pkg"])
    assert line == f"kgen generate: --out {out}: is a file (expected a folder; the package goes to {out}/pkg/)"
    assert out.read_text() == "mine\n"


def test_out_inside_a_file_path(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source, afile = _core_and_apps(tmp_path), tmp_path / "afile"
    afile.write_text("mine\n")
    out = afile / "sub"
    line = _fails(capsys, ["generate", "--from", str(source), "--out", str(out), "--package", "pkg"])
    assert line == f"kgen generate: --out {out}: {afile} is a file (expected a folder; the package goes to {out}/pkg/)"


def test_dotted_package_through_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source, out = _core_and_apps(tmp_path), tmp_path / "out"
    out.mkdir()
    (out / "company").write_text("a file where the package's parent folder would go\n")
    line = _fails(capsys, ["generate", "--from", str(source), "--out", str(out), "--package", "company.kube"])
    assert line == f"kgen generate: --out {out}: {out / 'company'} is a file (expected a folder; the package goes to {out}/company/kube/)"


def _without_root_powers(argv: list[str]) -> list[str]:
    """The command, run so that file permissions bind it: as root, without CAP_DAC_OVERRIDE."""
    if os.geteuid() != 0:
        return argv
    setpriv = shutil.which("setpriv")
    assert setpriv, "running as root, the unwritable-folder test needs util-linux's setpriv"
    return [setpriv, "--bounding-set=-dac_override,-dac_read_search", *argv]


def test_out_in_an_unwritable_folder(tmp_path: Path) -> None:
    source, locked = _core_and_apps(tmp_path), tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o555)
    out = locked / "out"
    try:
        result = subprocess.run(
            _without_root_powers([sys.executable, "-m", "kgen.generator.cli", "generate", "--from", str(source),
                                  "--out", str(out), "--package", "pkg"]),
            capture_output=True, text=True,
        )
    finally:
        locked.chmod(0o755)
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr == f"kgen generate: --out {out}: cannot write into {locked} (permission denied)\n"
    assert list(locked.iterdir()) == []


def test_write_errors_after_the_checks_are_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """A write that fails midway (a full disk, a read-only mount) exits 2 and leaves nothing behind."""
    source, out = _core_and_apps(tmp_path), tmp_path / "out"
    real = Path.write_text

    def full_disk(self: Path, text: str, *args: Any, **kwargs: Any) -> int:
        if self.name == "v1.py":
            raise OSError(28, "No space left on device", str(self))
        return real(self, text, *args, **kwargs)

    monkeypatch.setattr(Path, "write_text", full_disk)
    line = _fails(capsys, ["generate", "--from", str(source), "--out", str(out), "--package", "pkg"])
    assert line.startswith(f"kgen generate: --out {out}: cannot write {out}/.pkg.new-")
    assert line.endswith("/v1.py: No space left on device")
    assert list(out.iterdir()) == []


# -- --check ----------------------------------------------------------------------------------


def test_check_without_an_existing_output(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source, out = _core_and_apps(tmp_path), tmp_path / "out"
    line = _fails(capsys, ["generate", "--from", str(source), "--out", str(out), "--package", "pkg", "--check"], code=1)
    assert line == f"kgen generate --check: {out}/pkg does not exist: nothing generated there yet (check --out and --package)"
    assert not out.exists()


def test_check_against_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source, out = _core_and_apps(tmp_path), tmp_path / "out"
    out.mkdir()
    (out / "pkg").write_text("x\n")
    line = _fails(capsys, ["generate", "--from", str(source), "--out", str(out), "--package", "pkg", "--check"])
    assert line == f"kgen generate: {out}/pkg: is a file; refusing to replace it (expected a folder kgen generated, or nothing there)"


# -- interrupted runs -------------------------------------------------------------------------


def _package(tmp_path: Path) -> tuple[Path, Path, dict[str, bytes]]:
    source, out = _core_and_apps(tmp_path), tmp_path / "out"
    assert main(["generate", "--from", str(source), "--out", str(out), "--package", "pkg", "--groups", "core/v1"]) == 0
    before = {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}
    return source, out, before


def test_ctrl_c_while_writing_leaves_the_old_package(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    source, out, before = _package(tmp_path)
    capsys.readouterr()
    real = Path.write_text
    written: list[Path] = []

    def interrupted(self: Path, text: str, *args: Any, **kwargs: Any) -> int:
        if len(written) == 5:
            raise KeyboardInterrupt
        written.append(self)
        return real(self, text, *args, **kwargs)

    monkeypatch.setattr(Path, "write_text", interrupted)
    line = _fails(capsys, ["generate", "--from", str(source), "--out", str(out), "--package", "pkg"], code=130)
    assert line == "kgen generate: interrupted"
    assert len(written) == 5 and all(".pkg.new-" in str(p) for p in written)
    after = {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}
    assert after == before  # the old package, whole; no staging folder left
    assert [p.name for p in out.iterdir()] == ["pkg"]


def test_a_signal_during_the_swap_waits_until_the_new_package_is_in_place(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "out"
    write.write({"__init__.py": write.HEADER + "\nOLD = 1\n"}, out / "pkg", out)
    real = Path.rename
    renames: list[str] = []

    def rename_then_signal(self: Path, target: Any) -> Path:
        if not renames:
            os.kill(os.getpid(), signal.SIGINT)  # Ctrl-C between the two renames of the swap
        renames.append(self.name)
        return real(self, target)

    monkeypatch.setattr(Path, "rename", rename_then_signal)
    with pytest.raises(KeyboardInterrupt):
        write.write({"__init__.py": write.HEADER + "\nNEW = 1\n"}, out / "pkg", out)
    assert len(renames) == 2  # both renames ran before the interrupt was delivered
    assert (out / "pkg" / "__init__.py").read_text().endswith("NEW = 1\n")
    assert [p.name for p in out.iterdir()] == ["pkg"]


def test_sigterm_while_writing_leaves_the_old_package(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    source, out, before = _package(tmp_path)
    capsys.readouterr()
    real = Path.write_text
    written: list[Path] = []

    def terminated(self: Path, text: str, *args: Any, **kwargs: Any) -> int:
        if len(written) == 3:
            os.kill(os.getpid(), signal.SIGTERM)  # `kill <pid>`, a container stopping
        written.append(self)
        return real(self, text, *args, **kwargs)

    monkeypatch.setattr(Path, "write_text", terminated)
    previous = signal.getsignal(signal.SIGTERM)
    line = _fails(capsys, ["generate", "--from", str(source), "--out", str(out), "--package", "pkg"], code=130)
    assert line == "kgen generate: interrupted"
    assert signal.getsignal(signal.SIGTERM) is previous  # restored
    after = {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}
    assert after == before
    assert [p.name for p in out.iterdir()] == ["pkg"]


def test_out_on_a_read_only_file_system(tmp_path: Path) -> None:
    """A read-only mount (a container's image layer, a CI cache) is named as such."""
    source, mount = _core_and_apps(tmp_path), tmp_path / "ro"
    mount.mkdir()
    unshare = shutil.which("unshare")
    assert unshare, "this test mounts a read-only tmpfs in a mount namespace of its own (util-linux's unshare)"
    script = (
        f"mount -t tmpfs -o ro tmpfs {mount} && exec {sys.executable} -m kgen.generator.cli generate "
        f"--from {source} --out {mount}/out --package pkg"
    )
    as_root = [] if os.geteuid() == 0 else ["--map-root-user"]  # a user namespace lets others mount
    result = subprocess.run([unshare, *as_root, "--mount", "sh", "-c", script], capture_output=True, text=True)
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr == f"kgen generate: --out {mount}/out: cannot write into {mount} (a read-only file system)\n"


def test_groups_v1_on_the_embedded_snapshot_matches_the_stock_core_and_meta(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The real API: `--groups v1` writes core/v1 (models, typed client, lister, informer) and
    meta/v1, each module the same as the committed stock package's."""
    out, package = tmp_path / "out", unique_package()
    assert main(["generate", "--out", str(out), "--package", package, "--groups", "v1"]) == 0
    files = _generated(out, package)
    assert {"models/core/v1.py", "models/meta/v1.py", "typed/core/v1.py", "listers/core/v1.py", "informers/core/v1.py"} <= set(files)
    assert not any(f.startswith("models/apps") for f in files)
    stock = Path(__file__).resolve().parents[2] / "generated" / "kubernetes"
    for module in ("models/core/v1.py", "models/meta/v1.py", "typed/core/v1.py", "listers/core/v1.py"):
        assert (out / package / module).read_text() == (stock / module).read_text(), module
