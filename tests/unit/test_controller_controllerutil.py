"""controllerutil's owner-reference and finalizer rules, and model class → resource look-up."""

from __future__ import annotations

import asyncio

import pytest

from examples.sample_controller.client.models.meta.v1 import ObjectMeta as FooObjectMeta
from examples.sample_controller.client.models.samplecontroller_kgen_dev.v1alpha1 import Foo, FooList, FooSpec
from kgen.kubernetes.models.apps.v1 import Deployment, DeploymentSpec
from kgen.kubernetes.models.core.v1 import ConfigMap, Namespace
from kgen.kubernetes.models.meta.v1 import ObjectMeta, OwnerReference
from kgen.runtime.apimachinery.errors import Conflict
from kgen.runtime.controller import (
    AlreadyOwnedError,
    NotAResourceError,
    add_finalizer,
    add_finalizer_and_update,
    async_remove_finalizer_and_update,
    contains_finalizer,
    get_controller_of,
    has_controller_reference,
    is_controlled_by,
    remove_finalizer,
    remove_finalizer_and_update,
    remove_owner_reference,
    resource_for,
    set_controller_reference,
    set_owner_reference,
)
from kgen.runtime.controller.cluster.client import Client


def foo(name: str = "foo", uid: str = "uid-foo", namespace: str = "ns") -> Foo:
    return Foo(metadata=FooObjectMeta(name=name, namespace=namespace, uid=uid), spec=FooSpec(deployment_name="d", replicas=1))


def deployment(namespace: str = "ns", finalizers: list[str] | None = None) -> ConfigMap:
    return ConfigMap(metadata=ObjectMeta(name="d", namespace=namespace, finalizers=finalizers))


def test_set_controller_reference_sets_controller_and_block_owner_deletion_in_the_dependents_package() -> None:
    owned = set_controller_reference(foo(), deployment())
    assert owned.metadata is not None
    assert owned.metadata.owner_references == [OwnerReference(
        api_version="samplecontroller.kgen.dev/v1alpha1", kind="Foo", name="foo", uid="uid-foo",
        controller=True, block_owner_deletion=True,
    )]
    assert is_controlled_by(owned, foo()) and has_controller_reference(owned)
    assert deployment().metadata is not None and deployment().metadata.owner_references is None  # type: ignore[union-attr]


def test_set_controller_reference_is_idempotent_and_refuses_a_second_controller() -> None:
    once = set_controller_reference(foo(), deployment())
    assert set_controller_reference(foo(), once) == once
    # The same owner by group/kind/name (a new uid after re-creation) replaces the reference.
    renewed = set_controller_reference(foo(uid="uid-2"), once)
    controller = get_controller_of(renewed)
    assert controller is not None and controller.uid == "uid-2"
    assert renewed.metadata is not None and len(renewed.metadata.owner_references or []) == 1
    with pytest.raises(AlreadyOwnedError, match="already owned by another Foo controller foo"):
        set_controller_reference(foo(name="other", uid="uid-other"), once)


def test_owner_scope_rules() -> None:
    with pytest.raises(ValueError, match="cross-namespace owner references are disallowed"):
        set_controller_reference(foo(), deployment(namespace="elsewhere"))
    with pytest.raises(ValueError, match="cluster-scoped resource must not have a namespace-scoped owner"):
        set_owner_reference(foo(), Namespace(metadata=ObjectMeta(name="n")))
    with pytest.raises(ValueError, match="no name or uid"):
        set_controller_reference(foo(uid=""), deployment())


def test_set_owner_reference_adds_a_non_controller_owner_and_remove_takes_it_away() -> None:
    cm = ConfigMap(metadata=ObjectMeta(name="c", namespace="ns"))
    owned = set_controller_reference(foo(), set_owner_reference(foo(name="second", uid="u2"), cm))
    assert owned.metadata is not None and [(r.name, r.controller) for r in owned.metadata.owner_references or []] == [
        ("second", None), ("foo", True)]
    without = remove_owner_reference(foo(name="second", uid="u2"), owned)
    assert without.metadata is not None and [r.name for r in without.metadata.owner_references or []] == ["foo"]
    with pytest.raises(ValueError, match="is not owned by Foo second"):
        remove_owner_reference(foo(name="second", uid="u2"), without)


def test_finalizers_add_once_and_remove_every_copy() -> None:
    obj = deployment()
    added, changed = add_finalizer(obj, "kgen.dev/cleanup")
    assert changed and contains_finalizer(added, "kgen.dev/cleanup") and not contains_finalizer(obj, "kgen.dev/cleanup")
    again, changed = add_finalizer(added, "kgen.dev/cleanup")
    assert not changed and again is added
    assert added.metadata is not None
    doubled = ConfigMap(metadata=ObjectMeta(name="d", finalizers=["x", "kgen.dev/cleanup", "kgen.dev/cleanup"]))
    removed, changed = remove_finalizer(doubled, "kgen.dev/cleanup")
    assert changed and removed.metadata is not None and removed.metadata.finalizers == ["x"]
    assert remove_finalizer(removed, "kgen.dev/cleanup") == (removed, False)


class ConflictOnceClient:
    """The two calls the *_and_update helpers make: update (first one conflicts) and a live get."""

    def __init__(self, live: ConfigMap) -> None:
        self.live = live
        self.updates: list[ConfigMap] = []
        self.api_reader = self

    def update(self, obj: ConfigMap) -> ConfigMap:
        self.updates.append(obj)
        if len(self.updates) == 1:
            raise Conflict({"kind": "Status", "code": 409, "reason": "Conflict", "message": "stale"}, 409)
        return obj

    def get(self, model: type[ConfigMap], name: str, namespace: str | None = None) -> ConfigMap:
        assert (model, name, namespace) == (ConfigMap, "d", "ns")
        return self.live


def test_finalizer_update_retries_on_conflict_from_the_live_object() -> None:
    live = ConfigMap(metadata=ObjectMeta(name="d", namespace="ns", finalizers=["someone.else/f"], resource_version="7"))
    client = ConflictOnceClient(live)
    stale = deployment()
    written = add_finalizer_and_update(client, stale, "kgen.dev/cleanup")  # type: ignore[arg-type]
    assert written.metadata is not None
    assert written.metadata.finalizers == ["someone.else/f", "kgen.dev/cleanup"]
    assert written.metadata.resource_version == "7"
    assert len(client.updates) == 2
    unchanged = remove_finalizer_and_update(ConflictOnceClient(live), stale, "kgen.dev/cleanup")  # type: ignore[arg-type]
    assert unchanged is stale  # nothing to remove: nothing written


def test_resource_for_finds_stock_and_crd_resources() -> None:
    assert resource_for(Deployment).info.plural == "deployments"
    foos = resource_for(Foo)
    assert (foos.info.group, foos.info.version, foos.info.plural, foos.namespaced) == (
        "samplecontroller.kgen.dev", "v1alpha1", "foos", True)
    assert foos.codec.list_cls is FooList
    assert resource_for(Namespace).namespaced is False


@pytest.mark.parametrize(("cls", "message"), [
    (DeploymentSpec, "DeploymentSpec is not a top-level resource: it has no API_VERSION/KIND"),
    (FooList, "FooList is not a top-level resource: .* has no resource of kind 'FooList'"),
    (Client, "Client is not a kgen model class"),
])
def test_resource_for_refuses_what_is_not_a_resource(cls: type, message: str) -> None:
    with pytest.raises(NotAResourceError, match=message):
        resource_for(cls)


class AsyncConflictOnceClient(ConflictOnceClient):
    async def update(self, obj: ConfigMap) -> ConfigMap:  # type: ignore[override]
        return ConflictOnceClient.update(self, obj)

    async def get(self, model: type[ConfigMap], name: str, namespace: str | None = None) -> ConfigMap:  # type: ignore[override]
        return ConflictOnceClient.get(self, model, name, namespace)


def test_async_finalizer_update_retries_on_conflict_from_the_live_object() -> None:
    live = ConfigMap(metadata=ObjectMeta(name="d", namespace="ns", finalizers=["kgen.dev/cleanup", "x"], resource_version="9"))
    client = AsyncConflictOnceClient(live)
    written = asyncio.run(async_remove_finalizer_and_update(client, deployment(finalizers=["kgen.dev/cleanup"]),  # type: ignore[arg-type]
                                                            "kgen.dev/cleanup"))
    assert written.metadata is not None and written.metadata.finalizers == ["x"]
    assert len(client.updates) == 2
