"""Deletion: preconditions, finalizers, propagation policies, collections, dry run."""

from __future__ import annotations

import pytest

from kgen.kubernetes import Clientset
from kgen.kubernetes.models.core.v1 import ConfigMap
from kgen.runtime.apimachinery.errors import Conflict, NotFound

from .builders import config_map


def test_delete_preconditions_on_uid_and_resource_version(cs: Clientset, ns: str) -> None:
    cms = cs.core_v1.config_maps(ns)
    created = cms.create(config_map("a"))
    assert created.metadata
    with pytest.raises(Conflict) as caught:
        cms.delete("a", preconditions={"uid": "not-the-uid"})
    assert caught.value.message == (
        f'Operation cannot be fulfilled on ConfigMap "a": the UID in the precondition (not-the-uid) does not match '
        f"the UID in record ({created.metadata.uid}). The object might have been deleted and then recreated"
    )
    with pytest.raises(Conflict) as caught:
        cms.delete("a", preconditions={"resourceVersion": "1"})
    assert caught.value.message == (
        'Operation cannot be fulfilled on ConfigMap "a": the ResourceVersion in the precondition (1) does not match '
        f"the ResourceVersion in record ({created.metadata.resource_version}). The object might have been modified"
    )
    cms.delete("a", preconditions={"uid": str(created.metadata.uid), "resourceVersion": str(created.metadata.resource_version)})
    with pytest.raises(NotFound):
        cms.get("a")


def test_finalizers_keep_a_deleted_object_until_an_update_removes_them(cs: Clientset, ns: str) -> None:
    cms = cs.core_v1.config_maps(ns)
    cms.create(config_map("a", finalizers=["example.com/hold"]))
    answered = cms.delete("a")
    assert isinstance(answered, ConfigMap) and answered.metadata
    assert answered.metadata.deletion_timestamp and answered.metadata.finalizers == ["example.com/hold"]
    assert answered.metadata.deletion_grace_period_seconds == 0
    held = cms.get("a")
    assert held.metadata and held.metadata.deletion_timestamp == answered.metadata.deletion_timestamp
    assert cms.delete("a") == held  # deleting again changes nothing

    held.metadata.finalizers = []
    cms.update(held)
    with pytest.raises(NotFound):
        cms.get("a")


@pytest.mark.parametrize(("policy", "finalizer"), [("Foreground", "foregroundDeletion"), ("Orphan", "orphan")])
def test_propagation_policy_adds_its_finalizer(cs: Clientset, ns: str, policy: str, finalizer: str) -> None:
    cms = cs.core_v1.config_maps(ns)
    cms.create(config_map("a"))
    answered = cms.delete("a", propagation_policy=policy)
    assert isinstance(answered, ConfigMap) and answered.metadata
    assert answered.metadata.finalizers == [finalizer] and answered.metadata.deletion_timestamp
    held = cms.get("a")
    assert held.metadata
    held.metadata.finalizers = []
    cms.update(held)  # nothing runs the garbage collector here: finish by hand
    with pytest.raises(NotFound):
        cms.get("a")


def test_delete_collection_with_a_label_selector(cs: Clientset, ns: str) -> None:
    cms = cs.core_v1.config_maps(ns)
    cms.create(config_map("a", labels={"batch": "1"}))
    cms.create(config_map("b", labels={"batch": "1"}))
    cms.create(config_map("c", labels={"batch": "2"}))
    cms.delete_collection(label_selector="batch=1")
    assert [item.metadata.name for item in cms.list().items if item.metadata] == ["c"]


def test_dry_run_delete_keeps_the_object(cs: Clientset, ns: str) -> None:
    cms = cs.core_v1.config_maps(ns)
    created = cms.create(config_map("a"))
    assert cms.delete("a", dry_run=True) is None
    cms.delete_collection(dry_run=True)
    assert cms.get("a") == created
