"""JSON patch, JSON merge patch and strategic merge patch, on ConfigMaps and Deployment containers."""

from __future__ import annotations

import pytest

from kgen.kubernetes import Clientset
from kgen.kubernetes.models.apps.v1 import Deployment
from kgen.runtime.apimachinery.errors import Conflict, Invalid
from kgen.runtime.gentype import PatchType

from .builders import config_map, deployment


def images(d: Deployment) -> list[tuple[object, object]]:
    assert d.spec and d.spec.template and d.spec.template.spec
    return [(c.name, c.image) for c in d.spec.template.spec.containers or []]


def containers_patch(*items: dict[str, str]) -> dict[str, object]:
    return {"spec": {"template": {"spec": {"containers": list(items)}}}}


def test_strategic_merge_patch_merges_containers_by_name(cs: Clientset, ns: str) -> None:
    deployments = cs.apps_v1.deployments(ns)
    deployments.create(deployment("d", images={"web": "nginx", "side": "busybox"}))
    patched = deployments.patch("d", containers_patch({"name": "side", "image": "alpine"}), PatchType.STRATEGIC)
    assert images(patched) == [("web", "nginx"), ("side", "alpine")]
    # a new item goes first: the patch's items and the live ones meet by their live positions
    added = deployments.patch("d", containers_patch({"name": "log", "image": "fluentd"}), PatchType.STRATEGIC)
    assert images(added) == [("log", "fluentd"), ("web", "nginx"), ("side", "alpine")]
    removed = deployments.patch("d", containers_patch({"name": "side", "$patch": "delete"}), PatchType.STRATEGIC)
    assert images(removed) == [("log", "fluentd"), ("web", "nginx")]


def test_merge_patch_replaces_lists_and_null_removes_keys(cs: Clientset, ns: str) -> None:
    deployments = cs.apps_v1.deployments(ns)
    deployments.create(deployment("d", images={"web": "nginx", "side": "busybox"}))
    patched = deployments.patch("d", containers_patch({"name": "only", "image": "alpine"}), PatchType.MERGE)
    assert images(patched) == [("only", "alpine")]

    cms = cs.core_v1.config_maps(ns)
    cms.create(config_map("a", data={"keep": "1", "drop": "2"}, labels={"x": "1"}))
    merged = cms.patch("a", {"data": {"drop": None, "new": "3"}, "metadata": {"labels": {"y": "2"}}})
    assert merged.data == {"keep": "1", "new": "3"}
    assert merged.metadata and merged.metadata.labels == {"x": "1", "y": "2"}


def test_json_patch_operations(cs: Clientset, ns: str) -> None:
    cms = cs.core_v1.config_maps(ns)
    cms.create(config_map("a", data={"a": "1", "b": "2"}))
    patched = cms.patch(
        "a",
        [
            {"op": "test", "path": "/data/a", "value": "1"},
            {"op": "add", "path": "/data/c", "value": "3"},
            {"op": "replace", "path": "/data/a", "value": "10"},
            {"op": "remove", "path": "/data/b"},
            {"op": "copy", "from": "/data/c", "path": "/data/d"},
            {"op": "move", "from": "/data/c", "path": "/data/e"},
            {"op": "add", "path": "/metadata/labels", "value": {"example.com/x": "x"}},
        ],
        PatchType.JSON,
    )
    assert patched.data == {"a": "10", "d": "3", "e": "3"}
    escaped = cms.patch("a", [{"op": "replace", "path": "/metadata/labels/example.com~1x", "value": "y"}], PatchType.JSON)
    assert escaped.metadata and escaped.metadata.labels == {"example.com/x": "y"}


def test_json_patch_on_deployment_containers_by_index(cs: Clientset, ns: str) -> None:
    deployments = cs.apps_v1.deployments(ns)
    deployments.create(deployment("d", images={"web": "nginx"}))
    patched = deployments.patch(
        "d",
        [
            {"op": "add", "path": "/spec/template/spec/containers/-", "value": {"name": "side", "image": "busybox"}},
            {"op": "replace", "path": "/spec/template/spec/containers/0/image", "value": "httpd"},
        ],
        PatchType.JSON,
    )
    assert images(patched) == [("web", "httpd"), ("side", "busybox")]


def test_failed_json_patch_is_invalid_and_changes_nothing(cs: Clientset, ns: str) -> None:
    cms = cs.core_v1.config_maps(ns)
    created = cms.create(config_map("a", data={"a": "1"}))
    for ops in (
        [{"op": "add", "path": "/data/b", "value": "2"}, {"op": "test", "path": "/data/a", "value": "nope"}],
        [{"op": "replace", "path": "/data/missing/deeper", "value": "x"}],
    ):
        with pytest.raises(Invalid) as caught:
            cms.patch("a", ops, PatchType.JSON)
        assert caught.value.code == 422
    assert cms.get("a") == created


def test_patch_carrying_a_stale_resource_version_is_a_conflict(cs: Clientset, ns: str) -> None:
    cms = cs.core_v1.config_maps(ns)
    created = cms.create(config_map("a", data={"n": "0"}))
    cms.patch("a", {"data": {"n": "1"}})
    assert created.metadata
    with pytest.raises(Conflict):
        cms.patch("a", {"metadata": {"resourceVersion": created.metadata.resource_version}, "data": {"n": "2"}})
    assert cms.get("a").data == {"n": "1"}


def test_dry_run_patch_is_answered_but_not_stored(cs: Clientset, ns: str) -> None:
    cms = cs.core_v1.config_maps(ns)
    cms.create(config_map("a", data={"n": "0"}))
    assert cms.patch("a", {"data": {"n": "1"}}, dry_run=True).data == {"n": "1"}
    assert cms.get("a").data == {"n": "0"}
