"""The field manager (kgen.runtime.apimachinery.util.managedfields.fieldmanager) against structured-merge-diff's and
apimachinery's rules, each case's expectation taken from the Go code or its tests (named per
test) or from what kube-apiserver 1.37.2 wrote for the same requests (envtest, checked by hand
once; tests/contract and tests/unit/test_ssa_oracle.py compare with the server and Go directly).
"""

from __future__ import annotations

import copy
import json
import subprocess
from pathlib import Path
from collections.abc import Iterator
from typing import Any

import pytest

from kgen.runtime.apimachinery.util.managedfields.fieldmanager import ApplyConflict, FieldManager, FieldManagerError
from kgen.runtime.apimachinery.structured_merge_diff.fieldpath import PathElement, Set
from kgen.runtime.apimachinery.mergeschema import schema_for
from kgen.runtime.apimachinery.structured_merge_diff.schema import KEY_DEFAULTS

T0, T1, T2 = "2026-12-03T10:00:00Z", "2026-12-03T10:01:00Z", "2026-12-03T10:02:00Z"
ROOT = Path(__file__).resolve().parents[2]


def deployment(**spec: Any) -> dict[str, Any]:
    return {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web", "namespace": "ns"}, "spec": spec}


def entries(obj: dict[str, Any]) -> dict[tuple[str, str], dict[str, Any]]:
    return {(e["manager"], e["operation"]): e for e in obj["metadata"].get("managedFields", [])}


def fields(obj: dict[str, Any], manager: str, operation: str = "Apply") -> dict[str, Any]:
    found: dict[str, Any] = entries(obj)[(manager, operation)]["fieldsV1"]
    return found


def created(fm: FieldManager, obj: dict[str, Any], manager: str = "creator") -> dict[str, Any]:
    out = fm.update(None, obj, manager, now=T0)
    out["metadata"]["uid"] = "u1"
    return out


CONTAINERS = {"containers": [{"name": "c", "image": "nginx", "ports": [{"containerPort": 80}]}]}
TEMPLATE = {"metadata": {"labels": {"app": "web"}}, "spec": CONTAINERS}


# -- FieldsV1 -------------------------------------------------------------------------------------


def test_fields_v1_round_trips_in_the_order_go_writes_it() -> None:
    # fieldpath/serialize.go emitContentsV1: "." first, then elements by PathElement.Compare
    # (field names, then keys, then values: numbers before strings); a member without
    # children is written {} even if it was read as {".": {}} (readIterV1).
    raw = ('{"f:spec":{"f:finalizers":{"v:\\"x\\"":{},"v:1":{}},"f:containers":{"k:{\\"name\\":\\"b\\"}":{".":{}},'
           '"k:{\\"name\\":\\"a\\"}":{"f:name":{},".":{},"f:image":{}}}},"f:metadata":{"f:labels":{"f:app":{},".":{}}}}')
    out = Set.from_fields_v1(json.loads(raw)).to_fields_v1()
    assert json.dumps(out, separators=(",", ":")) == (
        '{"f:metadata":{"f:labels":{".":{},"f:app":{}}},"f:spec":{"f:containers":{"k:{\\"name\\":\\"a\\"}":{".":{},'
        '"f:image":{},"f:name":{}},"k:{\\"name\\":\\"b\\"}":{}},"f:finalizers":{"v:1":{},"v:\\"x\\"":{}}}}')


def test_key_elements_sort_their_fields_and_escape_html_as_go() -> None:
    pe = PathElement.key([("protocol", "TCP"), ("containerPort", 80)])
    assert pe.serialize() == 'k:{"containerPort":80,"protocol":"TCP"}'
    assert str(pe) == '[containerPort=80,protocol="TCP"]'
    assert PathElement.value("<a&b>").serialize() == 'v:"\\u003ca\\u0026b\\u003e"'


# -- Update ---------------------------------------------------------------------------------------


def test_create_of_a_builtin_marks_only_what_the_empty_go_value_lacks() -> None:
    # The apiserver compares a create with New(): spec, spec.template, its metadata and spec are
    # struct values there, so they carry no "."; labels and list items do. A port's key
    # defaults its protocol (OpenAPI default "TCP").
    dep = deployment(replicas=1, selector={"matchLabels": {"app": "web"}}, template=TEMPLATE)
    dep["metadata"]["labels"] = {"app": "web"}
    got = fields(created(FieldManager("apps/v1", "Deployment"), dep), "creator", "Update")
    assert got == {
        "f:metadata": {"f:labels": {".": {}, "f:app": {}}},
        "f:spec": {
            "f:replicas": {}, "f:selector": {},
            "f:template": {"f:metadata": {"f:labels": {".": {}, "f:app": {}}}, "f:spec": {"f:containers": {
                'k:{"name":"c"}': {".": {}, "f:image": {}, "f:name": {}, "f:ports": {
                    ".": {}, 'k:{"containerPort":80,"protocol":"TCP"}': {".": {}, "f:containerPort": {}}}}}}},
        },
    }


def test_create_of_a_custom_resource_marks_spec(monkeypatch: pytest.MonkeyPatch) -> None:
    # A custom resource's New() is {apiVersion, kind}: spec is added, with its ".".
    monkeypatch.syspath_prepend(str(ROOT / "examples" / "sample_controller"))
    ts = schema_for("samplecontroller.kgen.dev/v1alpha1", "Foo", package="client")
    assert ts is not None
    fm = FieldManager("samplecontroller.kgen.dev/v1alpha1", "Foo", schema=ts)
    obj = {"apiVersion": "samplecontroller.kgen.dev/v1alpha1", "kind": "Foo", "metadata": {"name": "f"},
           "spec": {"deploymentName": "d", "replicas": 1}}
    assert fields(created(fm, obj), "creator", "Update") == {
        "f:spec": {".": {}, "f:deploymentName": {}, "f:replicas": {}}}


def test_an_update_takes_fields_from_others_and_keeps_its_time_when_it_changes_nothing() -> None:
    # managedfieldsupdater_test.go TestManagedFieldsUpdateWithoutChangesDoesNotModifyTime.
    fm = FieldManager("v1", "ConfigMap")
    cm = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"}, "data": {"a": "1"}}
    live = created(fm, cm)
    changed = copy.deepcopy(live)
    changed["data"]["a"] = "2"
    after = fm.update(live, changed, "editor", now=T1)
    assert fields(after, "editor", "Update") == {"f:data": {"f:a": {}}}
    assert fields(after, "creator", "Update") == {"f:data": {}}  # data's "." alone: written {}
    again = fm.update(after, copy.deepcopy(after), "editor", now=T2)
    assert entries(again)[("editor", "Update")]["time"] == T1


def test_an_existing_object_nobody_tracked_stays_untracked_on_update() -> None:
    # skipnonapplied.go: Update with no managed fields and a live object with a uid.
    fm = FieldManager("v1", "ConfigMap")
    live = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c", "uid": "u"}, "data": {"a": "1"}}
    new = copy.deepcopy(live)
    new["data"]["b"] = "2"
    assert "managedFields" not in fm.update(live, new, "m", now=T0)["metadata"]


def test_more_than_ten_update_managers_fold_into_ancient_changes() -> None:
    # capmanagers.go: the oldest Update managers of one apiVersion merge into "ancient-changes".
    fm = FieldManager("v1", "ConfigMap")
    obj = created(fm, {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"}, "data": {"k0": "v"}}, "m00")
    for i in range(1, 12):
        new = copy.deepcopy(obj)
        new["data"][f"k{i}"] = "v"
        obj = fm.update(obj, new, f"m{i:02}", now=f"2026-12-03T10:{i:02}:00Z")
    managers = [e["manager"] for e in obj["metadata"]["managedFields"]]
    assert len(managers) == 10 and "ancient-changes" in managers
    assert "m00" not in managers and "m01" not in managers and "m02" not in managers
    ancient = fields(obj, "ancient-changes", "Update")
    assert ancient == {"f:data": {".": {}, "f:k0": {}, "f:k1": {}, "f:k2": {}}}


# -- Apply ----------------------------------------------------------------------------------------


def test_update_and_apply_of_one_name_are_two_managers_and_conflict() -> None:
    fm = FieldManager("apps/v1", "Deployment")
    live = created(fm, deployment(replicas=1, selector={"matchLabels": {"app": "web"}}, template=TEMPLATE), "m")
    with pytest.raises(ApplyConflict) as caught:
        fm.apply(live, deployment(replicas=3), "m", now=T1)
    assert str(caught.value) == 'Apply failed with 1 conflict: conflict with "m" using apps/v1: .spec.replicas'
    assert caught.value.causes() == [
        {"reason": "FieldManagerConflict", "message": 'conflict with "m" using apps/v1', "field": ".spec.replicas"}]
    forced = fm.apply(live, deployment(replicas=3), "m", force=True, now=T1)
    assert fields(forced, "m") == {"f:spec": {"f:replicas": {}}}
    assert "f:replicas" not in fields(forced, "m", "Update")["f:spec"]


def test_conflicts_with_several_managers_are_grouped_by_manager_identifier() -> None:
    # conflict.go getConflictMessage: managers sorted by identifier, paths in set order.
    fm = FieldManager("v1", "ConfigMap")
    live = created(fm, {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"}, "data": {"a": "1"}}, "zed")
    new = copy.deepcopy(live)
    new["data"]["b"] = "1"
    live = fm.update(live, new, "abe", now=T1)
    config = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"}, "data": {"a": "2", "b": "2"}}
    with pytest.raises(ApplyConflict) as caught:
        fm.apply(live, config, "applier", now=T2)
    assert str(caught.value) == (
        'Apply failed with 2 conflicts: conflicts with "abe" using v1:\n- .data.b\n'
        'conflicts with "zed" using v1:\n- .data.a')


def test_fields_an_applier_drops_are_removed_and_new_items_are_appended() -> None:
    fm = FieldManager("apps/v1", "Deployment")
    first = fm.apply(None, deployment(replicas=2, template={"spec": {"containers": [{"name": "a", "image": "x"}]}}), "ap", now=T0)
    first["metadata"]["uid"] = "u1"
    config = deployment(template={"spec": {"containers": [{"name": "a", "image": "x"}, {"name": "b", "image": "y"}]}})
    second = fm.apply(first, config, "ap", now=T1)
    assert "replicas" not in second["spec"]
    assert [c["name"] for c in second["spec"]["template"]["spec"]["containers"]] == ["a", "b"]
    other = fm.apply(second, deployment(template={"spec": {"containers": [{"name": "z", "image": "q"}]}}), "other", now=T2)
    assert [c["name"] for c in other["spec"]["template"]["spec"]["containers"]] == ["a", "b", "z"]


def test_a_reapplied_item_keeps_its_key_fields() -> None:
    # The old engine lost an item's key after a re-apply, depending on PYTHONHASHSEED.
    fm = FieldManager("v1", "Pod")
    pod = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"},
           "spec": {"containers": [{"name": "c", "image": "a", "env": [{"name": "E", "value": "1"}]}]}}
    live = fm.apply(None, pod, "ap", now=T0)
    live["metadata"]["uid"] = "u"
    pod2 = copy.deepcopy(pod)
    pod2["spec"]["containers"][0]["env"][0]["value"] = "2"
    out = fm.apply(live, pod2, "ap", now=T1)
    assert out["spec"]["containers"] == [{"name": "c", "image": "a", "env": [{"name": "E", "value": "2"}]}]


def test_a_label_selector_is_owned_whole() -> None:
    fm = FieldManager("apps/v1", "Deployment")
    out = fm.apply(None, deployment(selector={"matchLabels": {"a": "b"}}), "ap", now=T0)
    assert fields(out, "ap") == {"f:spec": {"f:selector": {}}}


def test_the_first_apply_to_an_untracked_object_conflicts_with_before_first_apply() -> None:
    # skipnonapplied_test.go TestUpdateBeforeFirstApply.
    fm = FieldManager("v1", "Pod")
    live = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "pod", "uid": "u", "labels": {"app": "my-nginx"}}}
    config = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "pod", "labels": {"app": "nginx"}},
              "spec": {"containers": [{"name": "nginx", "image": "nginx:latest"}]}}
    with pytest.raises(ApplyConflict) as caught:
        fm.apply(live, config, "fieldmanager_test_apply", now=T1)
    assert caught.value.causes() == [{"reason": "FieldManagerConflict", "field": ".metadata.labels.app",
                                      "message": 'conflict with "before-first-apply" using v1'}]
    out = fm.apply(live, config, "fieldmanager_test_apply", force=True, now=T1)
    assert [e["manager"] for e in out["metadata"]["managedFields"]] == ["fieldmanager_test_apply", "before-first-apply"]
    assert fields(out, "before-first-apply", "Update") == {"f:metadata": {"f:labels": {}}}


def test_an_apply_that_changes_nothing_keeps_the_time() -> None:
    # managedfieldsupdater_test.go TestManagedFieldsApplyWithoutChangesDoesNotModifyTime.
    fm = FieldManager("v1", "ConfigMap")
    config = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"}, "data": {"a": "1"}}
    live = fm.apply(None, config, "ap", now=T0)
    live["metadata"]["uid"] = "u"
    assert entries(fm.apply(live, config, "ap", now=T1))[("ap", "Apply")]["time"] == T0


def test_apply_refuses_what_the_apiserver_refuses() -> None:
    fm = FieldManager("v1", "ConfigMap")
    base = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"}}
    with pytest.raises(FieldManagerError) as caught:
        fm.apply(None, {**base, "kind": "Secret"}, "ap", now=T0)
    assert (caught.value.code, str(caught.value)) == (400, "invalid object type: /v1, Kind=Secret")
    with pytest.raises(FieldManagerError) as caught:
        fm.apply(None, {**base, "metadata": {"name": "c", "managedFields": []}}, "ap", now=T0)
    assert (caught.value.code, str(caught.value)) == (400, "metadata.managedFields must be nil")
    with pytest.raises(FieldManagerError) as caught:
        fm.apply(None, {**base, "bogus": 1}, "ap", now=T0)
    assert str(caught.value) == "failed to create typed patch object (/c; /v1, Kind=ConfigMap): .bogus: field not declared in schema"
    pod = FieldManager("v1", "Pod")
    with pytest.raises(FieldManagerError) as caught:
        pod.apply(None, {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"}, "spec": {"containers": [
            {"name": "c", "image": "a"}, {"name": "c", "image": "b"}]}}, "ap", now=T0)
    assert str(caught.value).endswith('.spec.containers: duplicate entries for key [name="c"]')


def test_kubectl_takes_over_fields_its_last_applied_configuration_set() -> None:
    # lastappliedmanager.go: client-side to server-side apply migration.
    fm = FieldManager("v1", "ConfigMap")
    last = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"}, "data": {"a": "1"}}
    obj = {**copy.deepcopy(last), "metadata": {"name": "c", "annotations": {
        "kubectl.kubernetes.io/last-applied-configuration": json.dumps(last)}}}
    live = created(fm, obj, "kubectl-client-side-apply")
    config = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"}, "data": {"a": "2"}}
    out = fm.apply(live, config, "kubectl", now=T1)
    assert out["data"] == {"a": "2"}
    assert out["metadata"]["annotations"]["kubectl.kubernetes.io/last-applied-configuration"] == (
        '{"apiVersion":"v1","data":{"a":"2"},"kind":"ConfigMap","metadata":{"name":"c"}}\n')
    with pytest.raises(ApplyConflict):
        fm.apply(live, config, "someone-else", now=T1)


def _after_client_side_apply(fm: FieldManager, **annotations: str | None) -> dict[str, Any]:
    last = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"}, "data": {"a": "1"}}
    obj = {**copy.deepcopy(last), "metadata": {"name": "c", "annotations": {
        "kubectl.kubernetes.io/last-applied-configuration": json.dumps(last), **annotations}}}
    return created(fm, obj, "kubectl-client-side-apply")


def test_kubectl_rewriting_last_applied_writes_null_annotations_as_empty_strings() -> None:
    # lastappliedupdater.go SetLastApplied / buildLastApplied go through Unstructured's
    # GetAnnotations (NestedNullCoercingStringMap: null reads as "") and SetAnnotations; the Go
    # oracle answers these (seed 1 of `make fuzz-ssa FUZZ_SSA_OPS=30000`: the live annotation
    # {"note": null} came back "note": "").
    fm = FieldManager("v1", "ConfigMap")
    live = _after_client_side_apply(fm, note=None, other="x")
    config: dict[str, Any] = {"apiVersion": "v1", "kind": "ConfigMap",
                              "metadata": {"name": "c", "annotations": {"keep": None}}, "data": {"a": "2"}}
    annotations = fm.apply(live, config, "kubectl", now=T1)["metadata"]["annotations"]
    assert annotations == {
        "kubectl.kubernetes.io/last-applied-configuration":
            '{"apiVersion":"v1","data":{"a":"2"},"kind":"ConfigMap","metadata":{"annotations":{"keep":""},'
            '"name":"c"}}\n',
        "note": "", "other": "x", "keep": ""}
    # a configuration's null annotations (SetAnnotations(nil)) are left out of the record
    config["metadata"]["annotations"] = None
    annotations = fm.apply(live, config, "kubectl", now=T1)["metadata"]["annotations"]
    assert annotations["kubectl.kubernetes.io/last-applied-configuration"] == (
        '{"apiVersion":"v1","data":{"a":"2"},"kind":"ConfigMap","metadata":{"name":"c"}}\n')
    assert annotations["note"] == ""
    # another manager's apply leaves the annotations as they are, null included
    assert fm.apply(live, config, "other", force=True, now=T1)["metadata"]["annotations"]["note"] is None


def test_last_applied_size_limit_counts_bytes_as_go_len() -> None:
    # ValidateAnnotationsSize sums len(k)+len(v), Go's byte lengths: 65536 four-byte characters are
    # 256 KiB, so the rewritten last-applied annotation no longer fits and is dropped.
    fm = FieldManager("v1", "ConfigMap")
    live = _after_client_side_apply(fm, big="\U0001f600" * (1 << 16))
    config = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"}, "data": {"a": "2"}}
    annotations = fm.apply(live, config, "kubectl", now=T1)["metadata"]["annotations"]
    assert "kubectl.kubernetes.io/last-applied-configuration" not in annotations
    assert len(annotations["big"]) == 1 << 16


@pytest.fixture(scope="module")
def gizmo_manager(tmp_path_factory: pytest.TempPathFactory) -> Iterator[FieldManager]:
    """The field manager of tests/support/ssa_crd.yaml's custom resource (a generated package)."""
    from tests.support.packages import generate
    from tests.support.ssa_oracle import GIZMO, SSA_CRD

    out = tmp_path_factory.mktemp("gizmo")
    generate(out, "ssa_gizmos_fm", "--crd", str(SSA_CRD))
    with pytest.MonkeyPatch.context() as mp:
        mp.syspath_prepend(str(out))
        ts = schema_for(GIZMO, "Gizmo", package="ssa_gizmos_fm")
        assert ts is not None
        yield FieldManager(GIZMO, "Gizmo", schema=ts)


PORTS = [{"port": p, "protocol": "TCP"} for p in (80, 443, 9, 1080, 2)]


def _ports(keys: dict[str, Any]) -> list[int]:
    return [json.loads(k[2:])["port"] for k in keys if k != "."]


def test_fields_v1_keys_of_a_custom_resource_are_sorted_as_strings(gizmo_manager: FieldManager) -> None:
    # A built-in kind's object is typed: FieldsV1 keeps fieldpath.Set.ToJSON's order (keys by
    # value). A custom resource's is unstructured: SetManagedFields decodes FieldsV1 into a
    # map[string]interface{} and encoding/json sorts its keys. Both orders are what kube-apiserver
    # 1.37.2 writes (tests/integration/test_ssa_oracle_vs_server.py; seed 2 of the 30000-op run).
    service = FieldManager("v1", "Service").apply(None, {
        "apiVersion": "v1", "kind": "Service", "metadata": {"name": "s"}, "spec": {"ports": PORTS}}, "a", now=T0)
    gizmo = gizmo_manager.apply(None, {"apiVersion": gizmo_manager.api_version, "kind": "Gizmo",
                                       "metadata": {"name": "g"}, "spec": {"endpoints": PORTS}}, "a", now=T0)
    assert _ports(fields(service, "a")["f:spec"]["f:ports"]) == [2, 9, 80, 443, 1080]
    endpoints = fields(gizmo, "a")["f:spec"]["f:endpoints"]
    assert _ports(endpoints) == [1080, 2, 443, 80, 9]
    assert all(list(v) == [".", "f:port", "f:protocol"] for v in endpoints.values())
    # an update writes them alike
    updated = gizmo_manager.update(None, {"apiVersion": gizmo_manager.api_version, "kind": "Gizmo",
                                          "metadata": {"name": "g"}, "spec": {"endpoints": PORTS}}, "u", now=T0)
    assert list(fields(updated, "u", "Update")["f:spec"]) == [".", "f:endpoints"]
    assert _ports(fields(updated, "u", "Update")["f:spec"]["f:endpoints"]) == [1080, 2, 443, 80, 9]


def test_the_fake_writes_a_custom_resources_fields_v1_sorted(gizmo_manager: FieldManager) -> None:
    # What the fake answers on the wire for a Gizmo (its generated package's FakeClientset):
    # the key order the field manager wrote survives the fake's encoding.
    import importlib

    from kgen.runtime.gentype import DictCodec, ResourceClient

    fake = importlib.import_module("ssa_gizmos_fm.fake")
    (info,) = fake.RESOURCES
    client = ResourceClient(fake.FakeClientset().rest, info, "ns", DictCodec(gizmo_manager.api_version, "Gizmo"))
    out = client.apply({"apiVersion": gizmo_manager.api_version, "kind": "Gizmo", "metadata": {"name": "g"},
                        "spec": {"endpoints": PORTS}}, field_manager="a")
    assert _ports(fields(out, "a")["f:spec"]["f:endpoints"]) == [1080, 2, 443, 80, 9]


def test_a_write_through_scale_sorts_a_custom_resources_fields_v1(gizmo_manager: FieldManager) -> None:
    # apiextensions-apiserver customresource/etcd.go: cr.SetManagedFields(ToParent(...)) on the
    # unstructured object; a built-in parent (typed) keeps structured-merge-diff's order.
    from kgen.runtime.fake.schema.fieldmanagers import record_scale_update

    live = created(gizmo_manager, {"apiVersion": gizmo_manager.api_version, "kind": "Gizmo", "metadata": {"name": "g"},
                                   "spec": {"endpoints": PORTS, "replicas": 1}})
    scaled = copy.deepcopy(live)
    scaled["spec"]["replicas"] = 3
    got = record_scale_update(gizmo_manager.api_version, live, scaled, "scaler", T1)
    creator = next(e for e in got if e["manager"] == "creator")
    assert _ports(creator["fieldsV1"]["f:spec"]["f:endpoints"]) == [1080, 2, 443, 80, 9]
    assert "f:replicas" not in creator["fieldsV1"]["f:spec"]

    fm = FieldManager("apps/v1", "Deployment")
    ports = [{"containerPort": p["port"]} for p in PORTS]
    template = {"metadata": {"labels": {"app": "web"}}, "spec": {"containers": [{"name": "c", "ports": ports}]}}
    dep = created(fm, deployment(replicas=2, selector={"matchLabels": {"app": "web"}}, template=template))
    scaled = copy.deepcopy(dep)
    scaled["spec"]["replicas"] = 5
    creator = next(e for e in record_scale_update("apps/v1", dep, scaled, "scaler", T1) if e["manager"] == "creator")
    container = creator["fieldsV1"]["f:spec"]["f:template"]["f:spec"]["f:containers"]['k:{"name":"c"}']
    assert [json.loads(k[2:])["containerPort"] for k in container["f:ports"] if k != "."] == [2, 9, 80, 443, 1080]


# -- data drift -------------------------------------------------------------------------------------


def test_key_defaults_are_the_snapshot_openapi_defaults_of_list_map_keys() -> None:
    found: dict[tuple[str, str], Any] = {}
    prefixes = {"io.k8s.api.": "", "io.k8s.apimachinery.pkg.apis.": "", "io.k8s.apiextensions-apiserver.pkg.apis.": "",
                "io.k8s.kube-aggregator.pkg.apis.": ""}
    for path in sorted((ROOT / "openapi" / "kubernetes-1.37.2" / "openapi" / "v3").rglob("*.json")):
        schemas = json.loads(path.read_text()).get("components", {}).get("schemas", {})
        for prop_owner in schemas.values():
            for prop in (prop_owner.get("properties") or {}).values():
                keys = prop.get("x-kubernetes-list-map-keys")
                if not keys and prop.get("type") == "array" and not prop.get("x-kubernetes-list-type"):
                    keys = [prop["x-kubernetes-patch-merge-key"]] if prop.get("x-kubernetes-patch-merge-key") else []
                items = prop.get("items") or {}
                ref = (items.get("$ref") or (items.get("allOf") or [{}])[0].get("$ref") or "").rsplit("/", 1)[-1]
                for key in keys or ():
                    key_prop = (schemas.get(ref, {}).get("properties") or {}).get(key, {})
                    if "default" in key_prop:
                        name = next(ref[len(p):] for p in prefixes if ref.startswith(p))
                        found[(name, key)] = key_prop["default"]
    assert found == KEY_DEFAULTS


def test_the_zero_objects_table_is_what_the_go_types_say() -> None:
    """runtime/apimachinery/util/managedfields/zero_objects.json is hack/oracle/zeroobjects' output (regenerate:
    ``$(hack/oracle/build.sh zeroobjects) > runtime/apimachinery/util/managedfields/zero_objects.json``)."""
    from tests.support.oracle import oracle_binary

    fresh = json.loads(subprocess.run([str(oracle_binary("zeroobjects"))], check=True, capture_output=True, text=True).stdout)
    committed = json.loads((ROOT / "runtime" / "apimachinery" / "util" / "managedfields" / "zero_objects.json").read_text())
    assert committed == fresh
    assert committed["apps/v1/Deployment"]["spec"]["template"] == {"metadata": {}, "spec": {"containers": None}}


def test_a_write_through_scale_is_owned_on_the_parent_without_a_time() -> None:
    # scalehandler.go ToParent: the Scale manager's entry takes the parent's time for its
    # identifier, which a new manager has none of (kube-apiserver 1.37.2 writes it so, first).
    from kgen.runtime.fake.schema.fieldmanagers import record_scale_update

    fm = FieldManager("apps/v1", "Deployment")
    live = created(fm, deployment(replicas=2, selector={"matchLabels": {"app": "web"}}, template=TEMPLATE))
    scaled = copy.deepcopy(live)
    scaled["spec"]["replicas"] = 5
    got = record_scale_update("apps/v1", live, scaled, "scaler", T1)
    assert got[0] == {"manager": "scaler", "operation": "Update", "apiVersion": "apps/v1", "fieldsType": "FieldsV1",
                      "fieldsV1": {"f:spec": {"f:replicas": {}}}, "subresource": "scale"}
    assert got[1]["manager"] == "creator" and "f:replicas" not in got[1]["fieldsV1"]["f:spec"]
