"""examples/cronjob's committed files are not stale: the CRD in config/crd/ is what `kgen
manifests` writes for api/v1.py today, the role in config/rbac/ is what it writes from the
reconciler's ``@rbac`` markers (controller.py), and client/ is what `kgen generate --crd` makes of
that CRD (all through the commands' own ``--check``, which exits 1 on drift)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from kgen.generator.cli import main as kgen

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "cronjob"


@pytest.fixture(autouse=True)
def _at_repo_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(EXAMPLE.parents[1])


def test_crd_is_what_kgen_manifests_writes() -> None:
    assert kgen(["manifests", "--module", "examples.cronjob.api.v1", "--out", "examples/cronjob/config/crd",
                 "--check"]) == 0
    assert sorted(os.listdir(EXAMPLE / "config" / "crd")) == ["batch.tutorial.kgen.dev_cronjobs.yaml"]


def test_role_is_what_kgen_manifests_writes_from_the_rbac_markers() -> None:
    assert kgen(["manifests", "--module", "examples.cronjob.controller", "--out", "examples/cronjob/config/rbac",
                 "--check"]) == 0
    assert sorted(os.listdir(EXAMPLE / "config" / "rbac")) == ["role.yaml"]


def test_webhook_configurations_are_what_kgen_manifests_writes_from_the_webhook_markers() -> None:
    assert kgen(["manifests", "--module", "examples.cronjob.webhook", "--out", "examples/cronjob/config/webhook",
                 "--check"]) == 0
    assert sorted(os.listdir(EXAMPLE / "config" / "webhook")) == ["manifests.yaml"]


def test_client_is_what_kgen_generate_makes_of_the_crd() -> None:
    assert kgen(["generate", "--crd", "examples/cronjob/config/crd", "--out", "examples/cronjob",
                 "--package", "client", "--check"]) == 0


def test_check_notices_drift(tmp_path: Path) -> None:
    """The check above is not vacuous: a CRD edited by hand is reported as drift."""
    crd = tmp_path / "batch.tutorial.kgen.dev_cronjobs.yaml"
    crd.write_text((EXAMPLE / "config" / "crd" / crd.name).read_text().replace("Forbid", "Forbidden", 1))
    assert kgen(["manifests", "--module", "examples.cronjob.api.v1", "--out", str(tmp_path), "--check"]) == 1


def test_check_notices_a_role_edited_by_hand(tmp_path: Path) -> None:
    """Nor is the role's: one verb more than the markers declare is drift."""
    role = tmp_path / "role.yaml"
    role.write_text((EXAMPLE / "config" / "rbac" / role.name).read_text().replace("  - create\n", "  - create\n  - patch\n", 1))
    assert kgen(["manifests", "--module", "examples.cronjob.controller", "--out", str(tmp_path), "--check"]) == 1
