"""`kgen generate --kubernetes VERSION`: the embedded snapshot of another supported release,
offline; without it the newest, which the stock kgen.kubernetes is generated from."""

from __future__ import annotations

from pathlib import Path

import pytest

from kgen.generator.cli import main as kgen
from kgen.generator.generate import embedded_snapshot, embedded_versions
from tests.support.packages import REPO


def _generate(out: Path, *args: str) -> Path:
    assert kgen(["generate", "--out", str(out), "--package", "pkg", *args]) == 0
    return out / "pkg"


def test_every_supported_release_is_embedded_and_the_default_is_the_newest() -> None:
    versions = embedded_versions()
    assert versions[0] == "1.34.4" and versions[-1] == "1.37.2"
    assert versions == sorted(versions, key=lambda v: tuple(map(int, v.split("."))))
    assert embedded_snapshot() == embedded_snapshot("1.37") == REPO / "openapi" / "kubernetes-1.37.2"


@pytest.mark.parametrize("asked", ["1.34", "1.34.4", "v1.34.4"])
def test_a_minor_or_a_version_selects_its_snapshot(asked: str) -> None:
    assert embedded_snapshot(asked) == REPO / "openapi" / "kubernetes-1.34.4"


def test_the_default_is_what_kubernetes_newest_generates(tmp_path: Path) -> None:
    default = _generate(tmp_path / "default", "--groups", "batch/v1")
    newest = _generate(tmp_path / "newest", "--groups", "batch/v1", "--kubernetes", embedded_versions()[-1])
    files = sorted(p.relative_to(default).as_posix() for p in default.rglob("*.py"))
    assert files == sorted(p.relative_to(newest).as_posix() for p in newest.rglob("*.py"))
    assert all((default / rel).read_text() == (newest / rel).read_text() for rel in files)


def test_kubernetes_1_34_generates_1_34s_types(tmp_path: Path) -> None:
    """batch/v1 JobSpec gained `scheduling` after 1.34 (JobSchedulingConfiguration, 1.37)."""
    old = (_generate(tmp_path / "old", "--groups", "batch/v1", "--kubernetes", "1.34") / "models" / "batch" / "v1.py").read_text()
    new = (_generate(tmp_path / "new", "--groups", "batch/v1") / "models" / "batch" / "v1.py").read_text()
    assert "class JobSchedulingConfiguration" in new and "class JobSchedulingConfiguration" not in old
    assert "class JobSpec" in old


def test_a_group_version_the_release_does_not_serve_is_bad_input(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert kgen(["generate", "--out", str(tmp_path), "--kubernetes", "1.34", "--groups", "storagemigration.k8s.io/v1"]) == 2
    assert "storagemigration.k8s.io/v1" in capsys.readouterr().err


def test_an_unknown_version_exits_2_listing_the_embedded_ones(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert kgen(["generate", "--out", str(tmp_path), "--kubernetes", "1.33"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0
    assert "--kubernetes 1.33" in err and "no snapshot of Kubernetes 1.33" in err
    assert all(version in err for version in embedded_versions())
    assert not any(tmp_path.iterdir())


@pytest.mark.parametrize("source", [["--cluster"], ["--from", "openapi/kubernetes-1.37.2"]])
def test_kubernetes_with_another_source_is_a_usage_error(source: list[str], capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert kgen(["generate", "--out", str(tmp_path), "--kubernetes", "1.34", *source]) == 2
    assert "--kubernetes selects an embedded snapshot" in capsys.readouterr().err
