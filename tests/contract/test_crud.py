"""Create, get, update, delete, list: identity, resourceVersion and the errors they answer with."""

from __future__ import annotations

import re

import msgspec
import pytest

from kgen.kubernetes import Clientset
from kgen.kubernetes.models.core.v1 import ConfigMap
from kgen.runtime.apimachinery.errors import AlreadyExists, Conflict, Invalid, NotFound

from .builders import config_map


def rv(obj: ConfigMap) -> int:
    assert obj.metadata and isinstance(obj.metadata.resource_version, str)
    return int(obj.metadata.resource_version)


def test_crud_round_trip_sets_identity_and_bumps_resource_version(cs: Clientset, ns: str) -> None:
    cms = cs.core_v1.config_maps(ns)
    created = cms.create(config_map("a", data={"k": "v"}))
    assert created.metadata and created.metadata.name == "a" and created.metadata.namespace == ns
    assert re.fullmatch(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", str(created.metadata.uid))
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", str(created.metadata.creation_timestamp))
    assert created.metadata.generation is None  # ConfigMaps carry none
    assert cms.get("a") == created

    created.data = {"k": "w"}
    updated = cms.update(created)
    assert updated.data == {"k": "w"} and rv(updated) > rv(created)
    assert updated.metadata and updated.metadata.uid == created.metadata.uid
    assert [item.metadata.name for item in cms.list().items if item.metadata] == ["a"]

    assert cms.delete("a") is None  # deleted at once: the answer is a Status, not the object
    with pytest.raises(NotFound):
        cms.get("a")


def test_create_of_an_existing_name_is_already_exists(cs: Clientset, ns: str) -> None:
    cms = cs.core_v1.config_maps(ns)
    cms.create(config_map("a"))
    with pytest.raises(AlreadyExists) as caught:
        cms.create(config_map("a"))
    err = caught.value
    assert (err.code, err.reason, err.message) == (409, "AlreadyExists", 'configmaps "a" already exists')
    assert err.details == {"name": "a", "kind": "configmaps"}


def test_get_update_patch_delete_of_a_missing_object_are_not_found(cs: Clientset, ns: str) -> None:
    cms = cs.core_v1.config_maps(ns)
    for call in (
        lambda: cms.get("nope"),
        lambda: cms.update(config_map("nope")),
        lambda: cms.patch("nope", {"data": {"a": "b"}}),
        lambda: cms.delete("nope"),
    ):
        with pytest.raises(NotFound) as caught:
            call()
        assert (caught.value.code, caught.value.message) == (404, 'configmaps "nope" not found')
        assert caught.value.details == {"name": "nope", "kind": "configmaps"}


def test_not_found_names_the_group_of_a_grouped_resource(cs: Clientset, ns: str) -> None:
    with pytest.raises(NotFound) as caught:
        cs.apps_v1.deployments(ns).get("nope")
    assert caught.value.message == 'deployments.apps "nope" not found'
    assert caught.value.details == {"name": "nope", "group": "apps", "kind": "deployments"}


def test_update_with_a_stale_resource_version_is_a_conflict(cs: Clientset, ns: str) -> None:
    cms = cs.core_v1.config_maps(ns)
    first = cms.create(config_map("a", data={"n": "0"}))
    second = msgspec.structs.replace(first, data={"n": "1"})
    cms.update(second)
    first.data = {"n": "2"}
    with pytest.raises(Conflict) as caught:
        cms.update(first)
    err = caught.value
    assert not isinstance(err, AlreadyExists)
    assert (err.code, err.reason) == (409, "Conflict")
    assert err.message == (
        'Operation cannot be fulfilled on configmaps "a": the object has been modified; '
        "please apply your changes to the latest version and try again"
    )
    assert cms.get("a").data == {"n": "1"}


def test_update_without_resource_version_is_unconditional(cs: Clientset, ns: str) -> None:
    cms = cs.core_v1.config_maps(ns)
    cms.create(config_map("a", data={"n": "0"}))
    assert cms.update(config_map("a", data={"n": "1"})).data == {"n": "1"}


def test_update_that_changes_nothing_keeps_the_resource_version(cs: Clientset, ns: str) -> None:
    cms = cs.core_v1.config_maps(ns)
    created = cms.create(config_map("a", data={"n": "0"}))
    assert rv(cms.update(created)) == rv(created)


def test_generate_name_appends_five_random_characters(cs: Clientset, ns: str) -> None:
    cms = cs.core_v1.config_maps(ns)
    names = {str(cms.create(config_map(generate_name="gen-")).metadata.name) for _ in range(3)}
    assert len(names) == 3
    assert all(re.fullmatch(r"gen-[a-z0-9]{5}", name) for name in names)
    assert {item.metadata.name for item in cms.list().items if item.metadata} == names


def test_create_without_name_or_generate_name_is_invalid(cs: Clientset, ns: str) -> None:
    with pytest.raises(Invalid) as caught:
        cs.core_v1.config_maps(ns).create(config_map(data={"a": "b"}))
    err = caught.value
    assert err.code == 422
    assert err.message == 'ConfigMap "" is invalid: metadata.name: Required value: name or generateName is required'
    assert [(c.field, c.reason) for c in err.causes] == [("metadata.name", "FieldValueRequired")]


def test_dry_run_create_and_update_are_answered_but_not_stored(cs: Clientset, ns: str) -> None:
    cms = cs.core_v1.config_maps(ns)
    dry = cms.create(config_map("dry", data={"a": "b"}), dry_run=True)
    assert dry.metadata and dry.metadata.name == "dry" and dry.data == {"a": "b"}
    assert dry.metadata.resource_version is None and dry.metadata.uid
    with pytest.raises(NotFound):
        cms.get("dry")

    stored = cms.create(config_map("a", data={"n": "0"}))
    stored.data = {"n": "1"}
    answered = cms.update(stored, dry_run=True)
    assert answered.data == {"n": "1"} and rv(answered) == rv(stored)
    assert cms.get("a").data == {"n": "0"}


def test_cluster_scoped_objects_have_no_namespace(cs: Clientset, ns: str) -> None:
    got = cs.core_v1.namespaces().get(ns)
    assert got.metadata and got.metadata.name == ns and got.metadata.namespace is None
    assert got.status and got.status.phase == "Active"
    found = cs.core_v1.namespaces().list(field_selector=f"metadata.name={ns}").items
    assert [item.metadata.name for item in found if item.metadata] == [ns]


def test_list_pages_with_limit_and_continue(cs: Clientset, ns: str) -> None:
    cms = cs.core_v1.config_maps(ns)
    for name in "edcba":
        cms.create(config_map(name))
    first = cms.list(limit=2)
    assert first.metadata and first.metadata.continue_ and first.metadata.remaining_item_count == 3
    seen = [item.metadata.name for item in first.items if item.metadata]
    assert seen == ["a", "b"]  # in key order
    page = first
    while page.metadata and page.metadata.continue_:
        page = cms.list(limit=2, continue_=page.metadata.continue_)
        assert page.metadata and page.metadata.resource_version == first.metadata.resource_version
        seen += [item.metadata.name for item in page.items if item.metadata]
    assert seen == ["a", "b", "c", "d", "e"]
    assert page.metadata and page.metadata.remaining_item_count is None
    assert [i.metadata.name for i in cms.list_all(page_size=2).items if i.metadata] == seen


def test_continued_list_is_served_from_the_first_pages_snapshot(cs: Clientset, ns: str) -> None:
    cms = cs.core_v1.config_maps(ns)
    for name in "abcd":
        cms.create(config_map(name))
    first = cms.list(limit=2)
    cms.delete("d")
    cms.create(config_map("e"))
    assert first.metadata and first.metadata.continue_
    rest = cms.list(limit=10, continue_=first.metadata.continue_)
    assert [item.metadata.name for item in rest.items if item.metadata] == ["c", "d"]
    assert [item.metadata.name for item in cms.list().items if item.metadata] == ["a", "b", "c", "e"]


def test_list_resource_version_is_the_latest_write(cs: Clientset, ns: str) -> None:
    cms = cs.core_v1.config_maps(ns)
    created = cms.create(config_map("a"))
    listed = cms.list()
    assert listed.metadata and int(str(listed.metadata.resource_version)) >= rv(created)
    assert listed.items[0].api_version is None and listed.items[0].kind is None  # items carry no TypeMeta
