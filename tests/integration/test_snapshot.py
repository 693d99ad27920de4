"""`kgen snapshot` against the real apiserver, and the embedded snapshot's completeness."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest

from kgen.generator.cli import main as kgen
from kgen.runtime.testing import KubeAPIServer

REPO = Path(__file__).resolve().parents[2]


def _served_group_versions(admin: httpx.Client, built_in_only: bool = False) -> list[str]:
    """Every served group-version; with ``built_in_only``, not those CRDs or aggregated APIs add
    (other tests of the session install some)."""
    added: set[str] = set()
    if built_in_only:
        crds = admin.get("/apis/apiextensions.k8s.io/v1/customresourcedefinitions").json()["items"]
        added = {c["spec"]["group"] for c in crds}
        services = admin.get("/apis/apiregistration.k8s.io/v1/apiservices").json()["items"]
        added |= {a["spec"].get("group", "") for a in services if a["spec"].get("service")}
    gvs = [f"api/{v}" for v in admin.get("/api").json()["versions"]]
    for group in admin.get("/apis").json()["groups"]:
        if group["name"] not in added:
            gvs += [f"apis/{v['groupVersion']}" for v in group["versions"]]
    return gvs


def _read(folder: Path, relpath: str) -> dict:
    return json.loads((folder / relpath).read_text())


def _assert_complete(folder: Path, served: list[str]) -> None:
    for gv in served:
        v3 = _read(folder, f"openapi/v3/{gv}.json")
        assert v3["openapi"].startswith("3."), gv
        assert v3["paths"], gv
        assert _read(folder, f"discovery/legacy/{gv}.json")["groupVersion"] == gv.split("/", 1)[1]
    for root in ("api", "apis"):
        assert _read(folder, f"discovery/aggregated/{root}.json")["kind"] == "APIGroupDiscoveryList"
    assert _read(folder, "openapi/v2.json")["swagger"] == "2.0"
    assert _read(folder, "version.json")["gitVersion"].startswith("v1.")


def test_snapshot_captures_every_served_group_version(
    kube_apiserver: KubeAPIServer, admin: httpx.Client, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "snap"
    assert kgen(["snapshot", "--out", str(out), "--kubeconfig", kube_apiserver.kubeconfig]) == 0
    served = _served_group_versions(admin)
    _assert_complete(out, served)
    assert f"{len(served)} group-versions" in capsys.readouterr().out
    text = (out / "openapi" / "v3" / "api" / "v1.json").read_text()
    assert text == json.dumps(json.loads(text), indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def test_embedded_snapshot_matches_the_pinned_server(kube_apiserver: KubeAPIServer, admin: httpx.Client) -> None:
    folder = REPO / "openapi" / f"kubernetes-{kube_apiserver.version.lstrip('v')}"
    assert folder.is_dir(), f"no embedded snapshot for {kube_apiserver.version}: run `make snapshot`"
    served = _served_group_versions(admin, built_in_only=True)
    _assert_complete(folder, served)
    assert set(served) <= set(_read(folder, "openapi/v3.json")["paths"])


def test_snapshot_replaces_the_folder_whole(kube_apiserver: KubeAPIServer, tmp_path: Path) -> None:
    out = tmp_path / "snap"
    (out / "openapi" / "v3").mkdir(parents=True)  # an earlier snapshot (other folders are refused)
    (out / "stale.json").write_text("{}")
    assert kgen(["snapshot", "--out", str(out), "--kubeconfig", kube_apiserver.kubeconfig]) == 0
    assert not (out / "stale.json").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["snap"]  # no staging or backup left
