"""Server-side apply: field ownership per manager, conflicts, force, and fields an applier drops."""

from __future__ import annotations

from typing import Any

import pytest

from kgen.kubernetes import Clientset
from kgen.runtime.apimachinery.errors import BadRequest, Conflict, Invalid
from kgen.runtime.gentype import PatchType

from .builders import config_map, deployment


def owners(obj: Any) -> dict[tuple[str, str], dict[str, Any]]:
    """(manager, operation) -> fieldsV1, from the object's managedFields."""
    return {
        (str(e.manager), str(e.operation)): e.fields_v1
        for e in obj.metadata.managed_fields or []
    }


def data_fields(fields_v1: dict[str, Any]) -> set[str]:
    return {key for key in fields_v1.get("f:data", {}) if key != "."}


def test_apply_conflict_with_another_manager_then_force_takes_ownership(cs: Clientset, ns: str) -> None:
    cms = cs.core_v1.config_maps(ns)
    created = cms.apply(config_map("a", data={"owner": "first", "shared": "1"}), field_manager="first")
    assert created.data == {"owner": "first", "shared": "1"}
    assert data_fields(owners(created)[("first", "Apply")]) == {"f:owner", "f:shared"}

    with pytest.raises(Conflict) as caught:
        cms.apply(config_map("a", data={"owner": "second", "shared": "1"}), field_manager="second")
    err = caught.value
    assert (err.code, err.reason) == (409, "Conflict")
    assert err.message == 'Apply failed with 1 conflict: conflict with "first": .data.owner'
    assert [(c.field, c.reason, c.message) for c in err.causes] == [
        (".data.owner", "FieldManagerConflict", 'conflict with "first"')
    ]
    assert cms.get("a").data == {"owner": "first", "shared": "1"}

    forced = cms.apply(config_map("a", data={"owner": "second", "shared": "1"}), field_manager="second", force=True)
    assert forced.data == {"owner": "second", "shared": "1"}
    assert data_fields(owners(forced)[("first", "Apply")]) == {"f:shared"}  # the same value: shared, no conflict
    assert data_fields(owners(forced)[("second", "Apply")]) == {"f:owner", "f:shared"}


def test_apply_conflicts_list_every_field_and_manager(cs: Clientset, ns: str) -> None:
    cms = cs.core_v1.config_maps(ns)
    cms.apply(config_map("a", data={"x": "1", "y": "1"}), field_manager="first")
    with pytest.raises(Conflict) as caught:
        cms.apply(config_map("a", data={"x": "2", "y": "2"}), field_manager="second")
    assert caught.value.message == 'Apply failed with 2 conflicts: conflicts with "first":\n- .data.x\n- .data.y'
    assert [c.field for c in caught.value.causes] == [".data.x", ".data.y"]


def test_fields_an_applier_stops_applying_are_removed_unless_someone_else_owns_them(cs: Clientset, ns: str) -> None:
    cms = cs.core_v1.config_maps(ns)
    cms.apply(config_map("a", data={"keep": "1", "mine": "1", "ours": "1"}, labels={"l": "1"}), field_manager="first")
    cms.apply(config_map("a", data={"ours": "1"}), field_manager="second")
    after = cms.apply(config_map("a", data={"keep": "1"}), field_manager="first")
    assert after.data == {"keep": "1", "ours": "1"}
    assert after.metadata and not after.metadata.labels


def test_an_update_takes_ownership_and_apply_then_conflicts_with_it(cs: Clientset, ns: str) -> None:
    cms = cs.core_v1.config_maps(ns)
    applied = cms.apply(config_map("a", data={"k": "applied"}), field_manager="first")
    applied.data = {"k": "edited"}
    edited = cms.update(applied, field_manager="editor")
    assert data_fields(owners(edited)[("editor", "Update")]) == {"f:k"}
    assert ("first", "Apply") not in owners(edited)  # it owned nothing else
    with pytest.raises(Conflict) as caught:
        cms.apply(config_map("a", data={"k": "again"}), field_manager="first")
    assert caught.value.message == 'Apply failed with 1 conflict: conflict with "editor" using v1: .data.k'


def test_create_and_update_record_update_managers(cs: Clientset, ns: str) -> None:
    cms = cs.core_v1.config_maps(ns)
    created = cms.create(config_map("a", data={"k": "v"}, labels={"x": "1"}), field_manager="creator")
    assert owners(created)[("creator", "Update")] == {
        "f:data": {".": {}, "f:k": {}}, "f:metadata": {"f:labels": {".": {}, "f:x": {}}}
    }
    patched = cms.patch("a", {"data": {"other": "1"}}, PatchType.MERGE, field_manager="patcher")
    assert data_fields(owners(patched)[("patcher", "Update")]) == {"f:other"}
    assert data_fields(owners(patched)[("creator", "Update")]) == {"f:k"}


def test_apply_merges_containers_by_name_and_names_the_item_in_conflicts(cs: Clientset, ns: str) -> None:
    deployments = cs.apps_v1.deployments(ns)
    deployments.apply(deployment("d", images={"web": "nginx", "side": "busybox"}), field_manager="first")
    with pytest.raises(Conflict) as caught:
        deployments.apply(deployment("d", images={"web": "httpd"}), field_manager="second")
    assert [c.field for c in caught.value.causes] == ['.spec.template.spec.containers[name="web"].image']
    forced = deployments.apply(deployment("d", images={"web": "httpd"}), field_manager="second", force=True)
    assert forced.spec and forced.spec.template and forced.spec.template.spec
    images = {c.name: c.image for c in forced.spec.template.spec.containers or []}
    assert images == {"web": "httpd", "side": "busybox"}


def test_apply_needs_a_field_manager_type_meta_and_a_matching_name(cs: Clientset, ns: str) -> None:
    cms = cs.core_v1.config_maps(ns)
    with pytest.raises(BadRequest):
        cms.apply({"metadata": {"name": "a"}, "data": {"k": "v"}}, field_manager="first")
    with pytest.raises(BadRequest) as caught:
        cms.patch("a", b'{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"b"}}', PatchType.APPLY, field_manager="first")
    assert caught.value.message == "the name of the object (b) does not match the name on the URL (a)"
    with pytest.raises(Invalid) as invalid:
        cms.patch("a", b'{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a"}}', PatchType.APPLY)
    assert [c.field for c in invalid.value.causes] == ["fieldManager"]


def test_dry_run_apply_creates_nothing(cs: Clientset, ns: str) -> None:
    cms = cs.core_v1.config_maps(ns)
    answered = cms.apply(config_map("a", data={"k": "v"}), field_manager="first", dry_run=True)
    assert answered.data == {"k": "v"}
    assert cms.list().items == []
