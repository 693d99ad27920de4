"""The fake clientsets' recorded actions and reactors (client-go's ``Fake.Actions()`` and
``PrependReactor``; runtime/fake/actions.py): what each verb records, the order reactors are
asked in and what they may answer, the failures named after the action's object (as the
apiserver words them), and that a reactor that passes leaves the answer to the store."""

from __future__ import annotations

import asyncio
from typing import Any

import msgspec
import pytest

from kgen.kubernetes.fake import AsyncFakeClientset, FakeClientset
from kgen.kubernetes.models.core.v1 import ConfigMap
from kgen.kubernetes.models.meta.v1 import ObjectMeta
from kgen.runtime.apimachinery.errors import Conflict, InternalError, NotFound, TooManyRequests
from kgen.runtime.fake import Action


DEPLOYMENT = {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "d", "namespace": "ns"},
              "spec": {"selector": {"matchLabels": {"a": "b"}},
                       "template": {"metadata": {"labels": {"a": "b"}}, "spec": {"containers": [{"name": "c", "image": "i"}]}}}}


def _cm(name: str, **data: str) -> ConfigMap:
    return ConfigMap(metadata=ObjectMeta(name=name, namespace="ns"), data=data or None)


def test_every_verb_is_recorded_with_what_client_go_records() -> None:
    cs = FakeClientset(_cm("a", k="v"))
    cms = cs.core_v1.config_maps("ns")
    cms.get("a")
    cms.list(label_selector="app=x")
    cms.create(_cm("b"))
    cms.update(msgspec.structs.replace(cms.get("b"), data={"k": "2"}))
    cms.patch("a", {"data": {"k": "3"}})
    cms.delete("b")
    cms.delete_collection()
    seen = [(a.verb, a.group, a.version, a.resource, a.namespace, a.name, a.subresource) for a in cs.actions()]
    assert seen == [
        ("get", "", "v1", "configmaps", "ns", "a", ""),
        ("list", "", "v1", "configmaps", "ns", "", ""),
        ("create", "", "v1", "configmaps", "ns", "", ""),
        ("get", "", "v1", "configmaps", "ns", "b", ""),
        ("update", "", "v1", "configmaps", "ns", "b", ""),
        ("patch", "", "v1", "configmaps", "ns", "a", ""),
        ("delete", "", "v1", "configmaps", "ns", "b", ""),
        ("delete-collection", "", "v1", "configmaps", "ns", "", ""),
    ]
    actions = cs.actions()
    assert actions[1].params["labelSelector"] == "app=x"
    assert actions[2].object["metadata"]["name"] == "b" and actions[4].object["data"] == {"k": "2"}
    assert actions[5].patch_type == "application/merge-patch+json" and b'"3"' in actions[5].patch
    cs.clear_actions()
    assert cs.actions() == []


def test_status_updates_and_apply_are_recorded_as_client_go_names_them() -> None:
    deployment = DEPLOYMENT
    cs = FakeClientset(deployment)
    deployments = cs.apps_v1.deployments("ns")
    deployments.update_status(deployments.get("d"))
    cs.clear_actions()
    deployments.apply({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "d"}}, field_manager="t")
    (apply,) = cs.actions()
    assert (apply.verb, apply.group, apply.resource, apply.patch_type) == (
        "patch", "apps", "deployments", "application/apply-patch+yaml")
    assert apply.params["fieldManager"] == "t"


def test_a_reactor_can_fail_a_verb_with_the_apiservers_own_failure() -> None:
    cs = FakeClientset(_cm("a"))

    def stale(action: Action) -> None:
        raise action.conflict()

    cs.prepend_reactor("update", "configmaps", stale)
    cms = cs.core_v1.config_maps("ns")
    with pytest.raises(Conflict) as raised:
        cms.update(cms.get("a"))
    assert raised.value.message == (
        'Operation cannot be fulfilled on configmaps "a": the object has been modified; please apply your changes '
        "to the latest version and try again")
    assert cms.get("a").data is None  # the store never saw the update
    assert [a.verb for a in cs.actions()] == ["get", "update", "get"]  # a handled action is recorded too


def test_reactors_are_asked_newest_first_and_one_that_passes_leaves_it_to_the_next() -> None:
    cs = FakeClientset(_cm("a", k="stored"))
    asked: list[str] = []

    def older(action: Action) -> Any:
        asked.append("older")
        return _cm(action.name, k="from the older reactor")

    def newer(action: Action) -> None:
        asked.append("newer")
        return None  # passes

    cs.prepend_reactor("get", "configmaps", older)
    cs.prepend_reactor("*", "*", newer)
    assert cs.core_v1.config_maps("ns").get("a").data == {"k": "from the older reactor"}
    assert asked == ["newer", "older"]
    assert cs.core_v1.config_maps("ns").list().items[0].data == {"k": "stored"}  # no get: the store answers


def test_a_reactor_answers_a_create_with_its_object_and_any_failure_it_raises() -> None:
    cs = FakeClientset()
    cs.prepend_reactor("create", "configmaps", lambda action: {**action.object, "data": {"set": "by reactor"}})
    created = cs.core_v1.config_maps("ns").create(_cm("a"))
    assert created.data == {"set": "by reactor"}
    with pytest.raises(NotFound):
        cs.core_v1.config_maps("ns").get("a")  # the reactor answered: nothing was stored

    def throttled(action: Action) -> None:
        raise action.failure(429, "TooManyRequests", "slow down")

    def broken(action: Action) -> None:
        raise RuntimeError("disk on fire")

    cs.prepend_reactor("list", "configmaps", throttled)
    cs.prepend_reactor("delete", "configmaps", broken)
    with pytest.raises(TooManyRequests, match="slow down"):
        cs.core_v1.config_maps("ns").list()
    with pytest.raises(InternalError, match="Internal error occurred: disk on fire"):
        cs.core_v1.config_maps("ns").delete("a")


def test_a_subresource_reactor_leaves_the_main_resource_alone() -> None:
    deployment = DEPLOYMENT
    cs = FakeClientset(deployment)

    def missing(action: Action) -> None:
        raise action.not_found()

    cs.prepend_reactor("update", "deployments/status", missing)
    deployments = cs.apps_v1.deployments("ns")
    current = deployments.get("d")
    with pytest.raises(NotFound, match='deployments.apps "d" not found'):
        deployments.update_status(current)
    assert deployments.update(current).metadata is not None  # the main resource: the store answers


def test_the_async_clientset_records_and_reacts_on_the_shared_tracker() -> None:
    cs = FakeClientset(_cm("a"))

    def stale(action: Action) -> None:
        raise action.conflict()

    cs.prepend_reactor("update", "configmaps", stale)

    async def main() -> None:
        async with AsyncFakeClientset(tracker=cs.tracker) as acs:
            cms = acs.core_v1.config_maps("ns")
            with pytest.raises(Conflict):
                await cms.update(await cms.get("a"))
            assert [a.verb for a in acs.actions()] == ["get", "update"]

    asyncio.run(main())
