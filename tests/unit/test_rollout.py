"""kgen.runtime.kubectl's rollout verbs without a server: the drivers on the fake clientset (each
test on threads and on asyncio), the rollback and scale rules on objects built here.

What kubectl prints and stores is compared with kubectl itself in tests/cluster/test_rollout.py;
these pin what the cluster cannot show on demand: deletion and timeouts mid-watch, a 409 retried,
ReplicaSets with unreadable revisions, a paused Deployment.
"""

from __future__ import annotations

import datetime
import json
from typing import Any

import pytest

from kgen.kubernetes.fake import AsyncFakeClientset, FakeClientset
from kgen.kubernetes.models.apps.v1 import Deployment
from kgen.runtime.apimachinery import NotFound
from kgen.runtime.kubectl import (
    RollbackError,
    RolloutError,
    RolloutStatusError,
    RolloutTimeout,
    ScalePreconditionError,
    restart_patch,
    rollout_status,
    rollout_status_of,
    scale,
    undo,
)
from kgen.runtime.kubectl.rollout import rfc3339_now
from kgen.runtime.kubectl.rollout import rollback
from kgen.runtime.kubectl.rollout.status_viewer import revision_of
from tests.support.flavours import Flavour


def deployment(status: dict[str, Any], *, replicas: int = 2, generation: int = 1, **meta: Any) -> Deployment:
    return Deployment.from_dict({
        "metadata": {"name": "web", "namespace": "ns", "generation": generation, **meta},
        "spec": {"replicas": replicas, "selector": {"matchLabels": {"app": "web"}},
                 "template": {"metadata": {"labels": {"app": "web"}}, "spec": {"containers": [{"name": "a", "image": "a:1"}]}}},
        "status": status,
    })


# valid as the apiserver validates a Deployment's status: availableReplicas <= readyReplicas
WAITING = {"observedGeneration": 1, "replicas": 2, "updatedReplicas": 1, "readyReplicas": 1, "availableReplicas": 1}
HALFWAY = {"observedGeneration": 1, "replicas": 2, "updatedReplicas": 2, "readyReplicas": 1, "availableReplicas": 1}
DONE = {"observedGeneration": 1, "replicas": 2, "updatedReplicas": 2, "readyReplicas": 2, "availableReplicas": 2}


def clients(flavour: Flavour, *objects: Deployment) -> tuple[FakeClientset, Any]:
    cs = FakeClientset(*objects)
    if flavour.is_async:
        return cs, AsyncFakeClientset(tracker=cs.tracker).apps_v1.deployments("ns")
    return cs, cs.apps_v1.deployments("ns")


def messages(flavour: Flavour, client: Any, name: str = "web", **options: Any) -> list[str]:
    """Every message of rollout_status, on the flavour's driver."""
    if flavour.is_async:
        async def collect() -> list[str]:
            return [message async for message in rollout_status(client, name, **options)]
        result: list[str] = flavour.call(collect, timeout=20)
        return result
    return list(rollout_status(client, name, **options))


def set_status(cs: FakeClientset, status: dict[str, Any]) -> None:
    current = cs.apps_v1.deployments("ns").get("web")
    cs.apps_v1.deployments("ns").update_status(deployment(status, resourceVersion=current.metadata.resource_version
                                                          if current.metadata else None))


def test_status_follows_each_event_until_done(flavour: Flavour) -> None:
    cs, client = clients(flavour, deployment(WAITING))
    flavour.later(0.2, lambda: set_status(cs, HALFWAY))
    flavour.later(0.4, lambda: set_status(cs, DONE))
    seen = messages(flavour, client, timeout=10)
    assert seen == [rollout_status_of(deployment(s))[0] for s in (WAITING, HALFWAY, DONE)]
    assert rollout_status_of(deployment(DONE))[1] is True


def test_status_of_a_done_rollout_is_one_message_and_watch_false_stops_after_one(flavour: Flavour) -> None:
    _, client = clients(flavour, deployment(DONE))
    assert messages(flavour, client) == [rollout_status_of(deployment(DONE))[0]]
    _, client = clients(flavour, deployment(WAITING))
    assert messages(flavour, client, watch=False) == [rollout_status_of(deployment(WAITING))[0]]


def test_status_ends_with_kubectls_error_when_the_object_is_deleted(flavour: Flavour) -> None:
    cs, client = clients(flavour, deployment(WAITING))
    flavour.later(0.2, lambda: cs.apps_v1.deployments("ns").delete("web"))
    with pytest.raises(RolloutStatusError, match="^object has been deleted$"):
        messages(flavour, client, timeout=10)


def test_status_times_out_with_the_last_message(flavour: Flavour) -> None:
    _, client = clients(flavour, deployment(WAITING))
    with pytest.raises(RolloutTimeout) as caught:
        messages(flavour, client, timeout=0.5)
    assert isinstance(caught.value, TimeoutError)
    assert caught.value.last_message == rollout_status_of(deployment(WAITING))[0]
    assert str(caught.value).startswith("timed out waiting for the condition: Deployment 'web'")


def test_status_of_a_missing_object_is_not_found_and_a_deadline_exceeded_is_an_error(flavour: Flavour) -> None:
    _, client = clients(flavour)
    with pytest.raises(NotFound):
        messages(flavour, client)
    stuck = dict(WAITING, conditions=[{"type": "Progressing", "status": "False", "reason": "ProgressDeadlineExceeded"}])
    _, client = clients(flavour, deployment(stuck))
    with pytest.raises(RolloutStatusError, match="exceeded its progress deadline"):
        messages(flavour, client)


def test_viewers_refuse_what_kubectl_refuses() -> None:
    with pytest.raises(RolloutStatusError, match="desired revision"):
        rollout_status_of(deployment(DONE, annotations={"deployment.kubernetes.io/revision": "2"}), 3)
    with pytest.raises(RolloutStatusError, match="cannot get the revision"):
        rollout_status_of(deployment(DONE, annotations={"deployment.kubernetes.io/revision": "x"}), 3)
    on_delete = {"apiVersion": "apps/v1", "kind": "StatefulSet", "metadata": {"name": "db"},
                 "spec": {"updateStrategy": {"type": "OnDelete"}}}
    with pytest.raises(RolloutStatusError) as caught:
        rollout_status_of(on_delete)
    assert caught.value.done is True
    with pytest.raises(RolloutStatusError, match="no status viewer"):
        rollout_status_of({"apiVersion": "apps/v1", "kind": "ReplicaSet"})
    assert revision_of({"metadata": {"annotations": {"deployment.kubernetes.io/revision": "+7"}}}) == 7
    for bad in ("", "1_000", " 1", "٣", str(2**63)):
        with pytest.raises(ValueError, match="strconv.ParseInt"):
            revision_of({"metadata": {"annotations": {"deployment.kubernetes.io/revision": bad}}})


# -- restart ---------------------------------------------------------------------------------


def test_restart_patch_is_the_annotation_at_the_second_and_refuses_what_kubectl_refuses() -> None:
    now = datetime.datetime(2026, 1, 2, 3, 4, 5, 678, tzinfo=datetime.timezone.utc)
    body = json.loads(restart_patch(deployment(DONE), now=now))
    assert body == {"spec": {"template": {"metadata": {"annotations": {"kubectl.kubernetes.io/restartedAt": rfc3339_now(now)}}}}}
    assert rfc3339_now(now).endswith("Z") and "." not in rfc3339_now(now)
    east = now.astimezone(datetime.timezone(datetime.timedelta(hours=5, minutes=30)))
    assert rfc3339_now(east).endswith("+05:30") and datetime.datetime.fromisoformat(rfc3339_now(east)) == now.replace(microsecond=0)
    paused = deployment(DONE).to_dict()
    paused["spec"]["paused"] = True
    with pytest.raises(RolloutError, match="paused"):
        restart_patch(Deployment.from_dict(paused))
    with pytest.raises(RolloutError, match="not supported"):
        restart_patch({"apiVersion": "v1", "kind": "Pod"})
    again = deployment(DONE).to_dict()
    again["spec"]["template"]["metadata"]["annotations"] = {"kubectl.kubernetes.io/restartedAt": rfc3339_now(now)}
    with pytest.raises(RolloutError, match="within the past second"):
        restart_patch(Deployment.from_dict(again), now=now)


# -- undo ------------------------------------------------------------------------------------


def replica_set(rev: str | None, image: str, owner_uid: str = "uid-web", **annotations: str) -> dict[str, Any]:
    if rev is not None:
        annotations["deployment.kubernetes.io/revision"] = rev
    return {
        "metadata": {"name": f"web-{image.replace(':', '-')}", "annotations": annotations,
                     "ownerReferences": [{"uid": owner_uid, "controller": True, "kind": "Deployment", "name": "web"}]},
        "spec": {"template": {"metadata": {"labels": {"app": "web", "pod-template-hash": image[-1]}},
                              "spec": {"containers": [{"name": "a", "image": image}]}}},
    }


def test_revision_zero_is_the_second_newest_and_unreadable_revisions_are_passed_over() -> None:
    owner = {"metadata": {"uid": "uid-web", "name": "web"}}
    sets = [replica_set("1", "a:1"), replica_set("3", "a:3"), replica_set("x", "a:9"), replica_set("2", "a:2")]
    assert rollback.replica_set_for_revision(owner, sets, 0) is sets[3]
    assert rollback.replica_set_for_revision(owner, sets, 1) is sets[0]
    with pytest.raises(RollbackError, match="unable to find specified revision 9 in history"):
        rollback.replica_set_for_revision(owner, sets, 9)
    with pytest.raises(RollbackError, match="no rollout history"):
        rollback.replica_set_for_revision(owner, sets[:1], 0)
    assert rollback.owned_replica_sets(owner, [replica_set("4", "a:4", owner_uid="other")]) == []


def test_rollback_keeps_the_deployments_own_annotations_and_drops_the_hash_label() -> None:
    d = {"metadata": {"annotations": {"deployment.kubernetes.io/revision": "3", "team": "x",
                                      "kubectl.kubernetes.io/last-applied-configuration": "{}"}}}
    rs = replica_set("1", "a:1", note="first", **{"deployment.kubernetes.io/desired-replicas": "2"})
    template_op, annotations_op = rollback.rollback_patch(d, rs)
    assert "pod-template-hash" not in template_op["value"]["metadata"]["labels"]
    assert annotations_op["value"] == {"deployment.kubernetes.io/revision": "3", "note": "first",
                                       "kubectl.kubernetes.io/last-applied-configuration": "{}"}
    assert rollback.equal_ignore_hash(rs["spec"]["template"], template_op["value"])
    assert rollback.selector_string({"matchLabels": {"app": "web"},
                                     "matchExpressions": [{"key": "tier", "operator": "In", "values": ["a", "b"]}]}) \
        == "app=web,tier in (a,b)"


def test_undo_on_the_fake_clientset(flavour: Flavour, caplog: pytest.LogCaptureFixture) -> None:
    live = deployment(DONE, uid="uid-web", annotations={"deployment.kubernetes.io/revision": "2",
                                                        "kubectl.kubernetes.io/last-applied-configuration": "{}"}).to_dict()
    live["spec"]["template"]["spec"]["containers"][0]["image"] = "a:2"
    old, new = replica_set("1", "a:1"), replica_set("2", "a:2")
    for rs in (old, new):
        rs.update(apiVersion="apps/v1", kind="ReplicaSet")
        rs["metadata"]["namespace"] = "ns"
        rs["metadata"]["labels"] = {"app": "web"}
        rs["spec"]["selector"] = {"matchLabels": {"app": "web"}}
    cs = FakeClientset({"apiVersion": "apps/v1", "kind": "Deployment", **live}, old, new)
    client = AsyncFakeClientset(tracker=cs.tracker).apps_v1.deployments("ns") if flavour.is_async else cs.apps_v1.deployments("ns")
    assert flavour.call(lambda: undo(client, "web", 2)) == rollback.skipped_message(2)
    assert flavour.call(lambda: undo(client, "web")) == "rolled back"
    stored = cs.apps_v1.deployments("ns").get("web").to_dict()
    assert stored["spec"]["template"]["spec"]["containers"][0]["image"] == "a:1"
    assert "pod-template-hash" not in stored["spec"]["template"]["metadata"]["labels"]
    assert stored["metadata"]["annotations"]["kubectl.kubernetes.io/last-applied-configuration"] == "{}"  # kept
    assert "previously managed with 'kubectl apply'" in caplog.text  # and warned about, as kubectl warns
    with pytest.raises(RollbackError, match="revision -1"):
        flavour.call(lambda: undo(client, "web", -1))


# -- scale -----------------------------------------------------------------------------------


def test_scale_retries_a_conflict_and_checks_preconditions(flavour: Flavour, monkeypatch: pytest.MonkeyPatch) -> None:
    import kgen.runtime.kubectl.rollout.scaler as module

    monkeypatch.setattr(module, "SCALE_RETRY_INTERVAL", 0.01)
    cs, client = clients(flavour, deployment(DONE, replicas=3))
    conflicts = [1]

    def conflict_once(action: Any) -> None:
        if conflicts[0]:
            conflicts[0] -= 1
            raise action.conflict()

    cs.prepend_reactor("update", "deployments/scale", conflict_once)
    stored = flavour.call(lambda: scale(client, "web", 5, current_replicas=3))
    assert stored.spec.replicas == 5 and cs.apps_v1.deployments("ns").get("web").spec.replicas == 5
    assert conflicts == [0] and [a.verb for a in cs.actions() if a.subresource == "scale"] == ["get", "update"] * 2
    meta = cs.apps_v1.deployments("ns").scale("web").metadata
    resource_version = meta.resource_version if meta else None
    with pytest.raises(ScalePreconditionError, match="^Expected replicas to be 1, was 5$"):
        flavour.call(lambda: scale(client, "web", 2, current_replicas=1))
    with pytest.raises(ScalePreconditionError, match=f"^Expected resource version to be 9, was {resource_version}$"):
        flavour.call(lambda: scale(client, "web", 2, resource_version="9"))
    with pytest.raises(ValueError, match="replicas"):
        flavour.call(lambda: scale(client, "web", -1))
    assert cs.apps_v1.deployments("ns").get("web").spec.replicas == 5


def test_bad_arguments_are_refused_naming_what_was_expected() -> None:
    cs = FakeClientset()
    with pytest.raises(TypeError, match="expected a typed client with the scale subresource.*PodsClient.*scale, update_scale"):
        scale(cs.core_v1.pods("ns"), "web", 1)  # type: ignore[call-overload]
    with pytest.raises(TypeError, match="expected a resource client to watch"):
        rollout_status(object(), "web")  # type: ignore[call-overload]
    with pytest.raises(ValueError, match="name: expected an object's name, got ''"):
        undo(cs.apps_v1.deployments("ns"), "")
    with pytest.raises(ValueError, match="revision: expected an integer >= 0"):
        rollout_status(cs.apps_v1.deployments("ns"), "web", revision=-1)
    with pytest.raises(ValueError, match="timeout: expected None or seconds >= 0"):
        rollout_status(cs.apps_v1.deployments("ns"), "web", timeout=-1)
