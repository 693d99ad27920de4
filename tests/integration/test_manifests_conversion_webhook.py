"""`kgen manifests`' webhook output against the real apiserver (issue 35 item 25).

controller-gen writes no conversion stanza (kubebuilder adds ``spec.conversion`` with a kustomize
patch), so the oracle for it is the apiserver: the Gear CRD (tests/support/manifests/gears.py,
``@conversion_webhook(GearV1)``) is created with ``dryRun=All`` and must be accepted with the
stanza kept as written, the apiserver adding only its defaults. The webhook configurations
(compared with controller-gen in test_manifests_vs_controller_gen.py) are created the same way:
accepted, each webhook kept, with the server's defaults around it. Dry runs only: a webhook
configuration calling a service that does not exist would break every other test on the shared
apiserver.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import httpx
import pytest
import yaml

from kgen.generator.cli import main as kgen

REPO = Path(__file__).resolve().parents[2]
CRDS = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions"
WEBHOOK_CONFIGURATIONS = {
    "MutatingWebhookConfiguration": "/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations",
    "ValidatingWebhookConfiguration": "/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations",
}


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("gears")
    old = Path.cwd()
    os.chdir(REPO)
    try:
        assert kgen(["manifests", "--allow-dangerous-types", "--module", "tests.support.manifests.gears", "--out", str(out)]) == 0
    finally:
        os.chdir(old)
    return out


def contained(ours: Any, theirs: Any) -> bool:
    """Every value of ``ours`` is in ``theirs`` (which may add keys: the server's defaults)."""
    if isinstance(ours, dict):
        return isinstance(theirs, dict) and all(k in theirs and contained(v, theirs[k]) for k, v in ours.items())
    if isinstance(ours, list):
        return isinstance(theirs, list) and len(ours) == len(theirs) and all(map(contained, ours, theirs))
    return bool(ours == theirs)


def test_the_conversion_stanza_is_accepted_and_kept(admin: httpx.Client, written: Path) -> None:
    crd = yaml.safe_load((written / "gears.kgen.dev_gears.yaml").read_text())
    ours = crd["spec"]["conversion"]
    assert ours["strategy"] == "Webhook" and ours["webhook"]["clientConfig"]["service"]["path"] == "/convert"
    answer = admin.post(CRDS, params={"dryRun": "All"}, json=crd)
    assert answer.status_code == 201, answer.text
    stored = answer.json()["spec"]["conversion"]
    assert contained(ours, stored), (ours, stored)
    added = {k: v for k, v in stored["webhook"]["clientConfig"]["service"].items() if k not in ours["webhook"]["clientConfig"]["service"]}
    print(f"apiserver's defaults on the conversion service: {added}")


def test_a_conversion_stanza_the_apiserver_refuses_is_noticed(admin: httpx.Client, written: Path) -> None:
    """Not vacuous: the same CRD with the stanza broken (no review versions) is refused."""
    crd = yaml.safe_load((written / "gears.kgen.dev_gears.yaml").read_text())
    crd["spec"]["conversion"]["webhook"]["conversionReviewVersions"] = []
    answer = admin.post(CRDS, params={"dryRun": "All"}, json=crd)
    assert answer.status_code == 422, answer.text
    assert "conversionReviewVersions" in answer.text


def test_webhook_configurations_are_accepted_and_kept(admin: httpx.Client, written: Path) -> None:
    docs = list(yaml.safe_load_all((written / "manifests.yaml").read_text()))
    assert [d["kind"] for d in docs] == ["MutatingWebhookConfiguration", "ValidatingWebhookConfiguration"]
    for doc in docs:
        answer = admin.post(WEBHOOK_CONFIGURATIONS[doc["kind"]], params={"dryRun": "All"}, json=doc)
        assert answer.status_code == 201, answer.text
        stored = answer.json()
        assert [w["name"] for w in stored["webhooks"]] == [w["name"] for w in doc["webhooks"]]
        for ours, theirs in zip(doc["webhooks"], stored["webhooks"], strict=True):
            assert contained(ours, theirs), (ours, theirs)
