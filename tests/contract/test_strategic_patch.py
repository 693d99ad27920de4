"""Strategic merge patch as the apiserver applies it (apimachinery's strategicpatch with the kind's
patch metadata), on both backends: merge keys from the schema, sets of primitives, directives, and
the status each strategicpatch error is answered with (handlers/patch.go
interpretStrategicMergePatchError). hack/oracle/strategicpatch checks the engine on random cases."""

from __future__ import annotations

from typing import Any

import pytest

from kgen.kubernetes import Clientset
from kgen.runtime.apimachinery.errors import ApiError
from kgen.runtime.gentype import PatchType

from .builders import config_map, deployment
from .test_patch_errors import _refused, _status


def _spec(d: Any) -> dict[str, Any]:
    out: dict[str, Any] = d.to_dict()["spec"]["template"]["spec"]
    return out


def _containers(*items: dict[str, Any]) -> dict[str, Any]:
    return {"spec": {"template": {"spec": {"containers": list(items)}}}}


def test_ports_merge_on_container_port_and_an_empty_list_changes_nothing(cs: Clientset, ns: str) -> None:
    deployments = cs.apps_v1.deployments(ns)
    deployments.create(deployment("d", images={"web": "nginx"}))
    two = [{"containerPort": 80, "name": "http"}, {"containerPort": 81}]
    deployments.patch("d", _containers({"name": "web", "ports": two}), PatchType.STRATEGIC)
    patched = deployments.patch("d", _containers({"name": "web", "ports": [{"containerPort": 81, "name": "alt"}]}),
                                PatchType.STRATEGIC)
    ports = [(p["containerPort"], p.get("name")) for p in _spec(patched)["containers"][0]["ports"]]
    assert ports == [(80, "http"), (81, "alt")]
    kept = deployments.patch("d", _containers({"name": "web", "ports": []}), PatchType.STRATEGIC)
    assert len(_spec(kept)["containers"][0]["ports"]) == 2


def test_finalizers_merge_as_a_set_and_delete_from_primitive_list(cs: Clientset, ns: str) -> None:
    cms = cs.core_v1.config_maps(ns)
    cms.create(config_map("a", data={"a": "1"}))
    cms.patch("a", {"metadata": {"finalizers": ["x.io/a", "x.io/b"]}}, PatchType.STRATEGIC)
    merged = cms.patch("a", {"metadata": {"finalizers": ["x.io/c"]}}, PatchType.STRATEGIC)
    assert merged.metadata and merged.metadata.finalizers == ["x.io/c", "x.io/a", "x.io/b"]
    deleted = cms.patch("a", {"metadata": {"$deleteFromPrimitiveList/finalizers": ["x.io/a", "x.io/b", "x.io/c"]}},
                        PatchType.STRATEGIC)
    assert deleted.metadata and not deleted.metadata.finalizers


def test_set_element_order_reorders_and_tolerations_stay_atomic(cs: Clientset, ns: str) -> None:
    deployments = cs.apps_v1.deployments(ns)
    deployments.create(deployment("d", images={"web": "nginx", "side": "busybox"}))
    reordered = deployments.patch(
        "d", {"spec": {"template": {"spec": {"$setElementOrder/containers": [{"name": "side"}, {"name": "web"}]}}}},
        PatchType.STRATEGIC)
    assert [c["name"] for c in _spec(reordered)["containers"]] == ["side", "web"]
    tolerations = [{"key": "a", "operator": "Exists"}]
    deployments.patch("d", {"spec": {"template": {"spec": {"tolerations": tolerations}}}}, PatchType.STRATEGIC)
    replaced = deployments.patch("d", {"spec": {"template": {"spec": {"tolerations": [
        {"key": "b", "operator": "Exists"}]}}}}, PatchType.STRATEGIC)
    assert _spec(replaced)["tolerations"] == [{"key": "b", "operator": "Exists"}]


@pytest.mark.parametrize(("body", "code", "reason", "message"), [
    ({"metadata": {"$retainKeys": "labels", "labels": {"x": "1"}}}, 400, "BadRequest",
     "invalid patch format of retainKeys"),
    ({"metadata": {"$retainKeys": ["name"], "labels": {"x": "1"}}}, 400, "BadRequest",
     "invalid patch format of retainKeys"),
    ({"metadata": {"$setElementOrder": []}}, 400, "BadRequest", "invalid patch format of setElementOrder list"),
], ids=["retainKeys-not-a-list", "retainKeys-missing-a-key", "setElementOrder-without-a-list"])
def test_a_malformed_directive_is_a_400(cs: Clientset, ns: str, body: Any, code: int, reason: str, message: str) -> None:
    assert _refused(cs, ns, body, PatchType.STRATEGIC) == _status(code, reason, message)


def test_mixed_list_items_are_a_500_in_apimachinerys_words(cs: Clientset, ns: str) -> None:
    cms = cs.core_v1.config_maps(ns)
    cms.create(config_map("l", data={"a": "1"}))
    cms.patch("l", {"metadata": {"finalizers": ["x.io/a"]}}, PatchType.STRATEGIC)
    with pytest.raises(ApiError) as refused:
        cms.patch("l", {"metadata": {"finalizers": [["x.io/b"]]}}, PatchType.STRATEGIC)
    status = dict(refused.value.status)
    status.pop("metadata", None)
    message = "list element types are not identical: [[x.io/a] [[x.io/b]]]"
    assert status == _plain_500(message)
    cms.patch("l", {"metadata": {"$deleteFromPrimitiveList/finalizers": ["x.io/a"]}}, PatchType.STRATEGIC)


def test_patch_merge_in_a_map_is_a_500(cs: Clientset, ns: str) -> None:
    message = "unknown patch type: merge in map: map[$patch:merge]"
    assert _refused(cs, ns, {"data": {"$patch": "merge"}}, PatchType.STRATEGIC) == _plain_500(message)


def _plain_500(message: str) -> dict[str, Any]:
    """A strategicpatch error that is not an API status: a 500 without reason or details."""
    return {"kind": "Status", "apiVersion": "v1", "status": "Failure", "message": message, "code": 500}
