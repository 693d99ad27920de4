"""The real test data helper fetches what later issues' tests consume."""

from __future__ import annotations

import json

import pytest

from tests.support.corpus import CRD_SOURCES, api_fixtures, crds


def test_api_fixtures_cover_the_built_in_kinds() -> None:
    fixtures = api_fixtures()
    names = {p.name for p in fixtures}
    assert len(fixtures) > 150, len(fixtures)  # 193 kinds in k8s.io/api v0.37
    assert {"core.v1.Pod.json", "apps.v1.Deployment.json", "core.v1.ConfigMap.json"} <= names
    pod = json.loads(next(p for p in fixtures if p.name == "core.v1.Pod.json").read_text())
    assert pod["kind"] == "Pod" and pod["apiVersion"] == "v1" and pod["spec"]["containers"]


@pytest.mark.parametrize("project", sorted(CRD_SOURCES))
def test_crd_projects_ship_crds(project: str) -> None:
    found = crds(project)
    assert len(found) >= 5, [c["metadata"]["name"] for c in found]
    for crd in found:
        assert crd["spec"]["versions"] and all(
            "openAPIV3Schema" in v.get("schema", {}) for v in crd["spec"]["versions"]
        ), crd["metadata"]["name"]
