"""Every verb and patch type of the REST runtime, against the real apiserver."""

from __future__ import annotations

import json
import threading
import uuid
from collections.abc import Iterator

import pytest

from kgen.kubernetes.models.apps.v1 import Deployment, DeploymentList
from kgen.kubernetes.models.core.v1 import ConfigMap, ConfigMapList, Pod, PodList
from kgen.kubernetes.models.meta.v1 import ObjectMeta
from kgen.runtime.apimachinery.codec import ModelCodec
from kgen.runtime.rest import Config, load_kubeconfig
from kgen.runtime.apimachinery.errors import BadRequest, Conflict
from kgen.runtime.gentype import PatchType, PropagationPolicy, ResourceClient, ResourceInfo
from kgen.runtime.rest.client import RESTClient
from kgen.runtime.apimachinery.selectors import labels
from kgen.runtime.testing import KubeAPIServer

CONFIGMAPS = ResourceInfo("", "v1", "configmaps", True, "ConfigMap")
DEPLOYMENTS = ResourceInfo("apps", "v1", "deployments", True, "Deployment")


@pytest.fixture(scope="module")
def config(kube_apiserver: KubeAPIServer) -> Config:
    cfg = load_kubeconfig(kube_apiserver.kubeconfig)
    cfg.qps = -1  # tests are not throttled
    return cfg


@pytest.fixture(scope="module")
def rest(config: Config) -> Iterator[RESTClient]:
    with RESTClient(config) as client:
        yield client


def configmaps(rest: RESTClient, ns: str) -> ResourceClient[ConfigMap, ConfigMapList]:
    return ResourceClient(rest, CONFIGMAPS, ns, ModelCodec(ConfigMap, ConfigMapList))


def deployments(rest: RESTClient, ns: str) -> ResourceClient[Deployment, DeploymentList]:
    return ResourceClient(rest, DEPLOYMENTS, ns, ModelCodec(Deployment, DeploymentList))


def _deployment(name: str, containers: list[dict], replicas: int = 1) -> Deployment:
    return Deployment.from_dict(
        {
            "metadata": {"name": name, "labels": {"app": name}},
            "spec": {
                "replicas": replicas,
                "selector": {"matchLabels": {"app": name}},
                "template": {"metadata": {"labels": {"app": name}}, "spec": {"containers": containers}},
            },
        }
    )


def test_create_get_update_delete_configmap(rest: RESTClient, namespace: str) -> None:
    cms = configmaps(rest, namespace)
    created = cms.create(ConfigMap(metadata=ObjectMeta(name="a"), data={"k": "v"}))
    assert created.metadata and created.metadata.uid and created.api_version == "v1"
    got = cms.get("a")
    assert got.data == {"k": "v"}
    got.data = {"k": "v2"}
    updated = cms.update(got)
    assert updated.data == {"k": "v2"}
    assert cms.delete("a") is None
    assert [c.metadata.name for c in cms.list().items or [] if c.metadata] == []


def test_dry_run_create_does_not_persist(rest: RESTClient, namespace: str) -> None:
    cms = configmaps(rest, namespace)
    result = cms.create(ConfigMap(metadata=ObjectMeta(name="dry")), dry_run=True)
    assert result.metadata and result.metadata.name == "dry"
    assert not cms.list().items


def test_strict_field_validation_rejects_unknown_fields(rest: RESTClient, namespace: str) -> None:
    cms = configmaps(rest, namespace)
    cm = ConfigMap.from_dict({"metadata": {"name": "strict"}, "bogus": 1})
    with pytest.raises(BadRequest, match="bogus"):
        cms.create(cm, field_validation="Strict")
    assert cms.create(cm, field_validation="Ignore").metadata is not None


def test_strategic_merge_patch_merges_containers_by_name(rest: RESTClient, namespace: str) -> None:
    deps = deployments(rest, namespace)
    deps.create(_deployment("smp", [{"name": "a", "image": "a:1"}, {"name": "b", "image": "b:1"}]))
    patched = deps.patch(
        "smp", {"spec": {"template": {"spec": {"containers": [{"name": "b", "image": "b:2"}]}}}}, PatchType.STRATEGIC
    )
    containers = patched.spec.template.spec.containers  # type: ignore[union-attr]
    assert [(c.name, c.image) for c in containers] == [("a", "a:1"), ("b", "b:2")]


def test_json_merge_patch_replaces_the_list(rest: RESTClient, namespace: str) -> None:
    deps = deployments(rest, namespace)
    deps.create(_deployment("jmp", [{"name": "a", "image": "a:1"}, {"name": "b", "image": "b:1"}]))
    patched = deps.patch(
        "jmp", {"spec": {"template": {"spec": {"containers": [{"name": "b", "image": "b:2"}]}}}}, PatchType.MERGE
    )
    containers = patched.spec.template.spec.containers  # type: ignore[union-attr]
    assert [(c.name, c.image) for c in containers] == [("b", "b:2")]


def test_json_patch(rest: RESTClient, namespace: str) -> None:
    cms = configmaps(rest, namespace)
    cms.create(ConfigMap(metadata=ObjectMeta(name="jp"), data={"a": "1"}))
    patched = cms.patch("jp", [{"op": "add", "path": "/data/b", "value": "2"}, {"op": "remove", "path": "/data/a"}], PatchType.JSON)
    assert patched.data == {"b": "2"}


def test_apply_conflict_without_force_then_force_takes_ownership(rest: RESTClient, namespace: str) -> None:
    cms = configmaps(rest, namespace)
    body = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "ssa"}, "data": {"owner": "first"}}
    applied = cms.apply(body, field_manager="first")
    assert applied.data == {"owner": "first"}
    second = {**body, "data": {"owner": "second"}}
    with pytest.raises(Conflict) as conflict:
        cms.apply(second, field_manager="second")
    assert conflict.value.code == 409 and "first" in conflict.value.message
    forced = cms.apply(second, field_manager="second", force=True)
    assert forced.data == {"owner": "second"}
    managers = {m.manager for m in forced.metadata.managed_fields or []}  # type: ignore[union-attr]
    assert "second" in managers


def test_update_status_leaves_spec_alone_and_scale_subresource(rest: RESTClient, namespace: str) -> None:
    deps = deployments(rest, namespace)
    created = deps.create(_deployment("st", [{"name": "a", "image": "a:1"}], replicas=2))
    created.spec.replicas = 5  # type: ignore[union-attr]
    created.status = Deployment.from_dict({"status": {"observedGeneration": 7}}).status
    after = deps.update_status(created)
    assert after.status and after.status.observed_generation == 7
    assert after.spec and after.spec.replicas == 2  # spec changes are ignored on status

    scale = deps.get_subresource("st", "scale")
    assert scale["spec"]["replicas"] == 2
    scale["spec"]["replicas"] = 4
    deps.update_subresource("st", "scale", json.dumps(scale).encode())
    assert deps.get("st").spec.replicas == 4  # type: ignore[union-attr]


def test_delete_with_preconditions_and_propagation(rest: RESTClient, namespace: str) -> None:
    cms = configmaps(rest, namespace)
    cm = cms.create(ConfigMap(metadata=ObjectMeta(name="pre")))
    with pytest.raises(Conflict):
        cms.delete("pre", preconditions={"uid": str(uuid.uuid4())})
    uid = cm.metadata.uid  # type: ignore[union-attr]
    pending = cms.delete("pre", preconditions={"uid": uid}, propagation_policy=PropagationPolicy.FOREGROUND)
    # Foreground deletion waits on the garbage collector (no controller-manager runs here):
    # the object stays, marked, with the finalizer the policy asked for.
    assert pending is not None and pending.metadata and pending.metadata.deletion_timestamp
    assert pending.metadata.finalizers == ["foregroundDeletion"]
    cms.create(ConfigMap(metadata=ObjectMeta(name="bg")))
    assert cms.delete("bg", propagation_policy="Background") is None


def test_delete_collection_by_label_selector(rest: RESTClient, namespace: str) -> None:
    cms = configmaps(rest, namespace)
    for i, tier in enumerate(["a", "a", "b"]):
        cms.create(ConfigMap(metadata=ObjectMeta(name=f"dc{i}", labels={"tier": tier})))
    cms.delete_collection(label_selector=labels(tier="a"))
    assert sorted(c.metadata.name for c in cms.list().items or [] if c.metadata) == ["dc2"]


def test_list_pages_and_iterates_with_selectors(rest: RESTClient, namespace: str) -> None:
    cms = configmaps(rest, namespace)
    for i in range(7):
        cms.create(ConfigMap(metadata=ObjectMeta(name=f"p{i}", labels={"odd": str(i % 2)})))
    page = cms.list(limit=3)
    assert len(page.items or []) == 3 and page.metadata and page.metadata.continue_
    assert len(cms.list_all(page_size=2).items or []) == 7
    assert sorted(c.metadata.name for c in cms.iter(page_size=2, label_selector="odd=1") if c.metadata) == ["p1", "p3", "p5"]
    assert [c.metadata.name for c in cms.iter(field_selector="metadata.name=p4") if c.metadata] == ["p4"]


def test_watch_sees_changes_in_order_with_bookmarks_allowed(rest: RESTClient, namespace: str) -> None:
    cms = configmaps(rest, namespace)
    start = cms.list().metadata.resource_version  # type: ignore[union-attr]

    def writer() -> None:
        cms.create(ConfigMap(metadata=ObjectMeta(name="w"), data={"n": "1"}))
        cms.patch("w", {"data": {"n": "2"}})
        cms.delete("w")

    threading.Thread(target=writer).start()
    seen = []
    for event in cms.watch(resource_version=start, allow_watch_bookmarks=True, timeout_seconds=20):
        if event.type == "BOOKMARK":
            continue
        seen.append((event.type, event.object.data))
        if event.type == "DELETED":
            break
    assert seen == [("ADDED", {"n": "1"}), ("MODIFIED", {"n": "2"}), ("DELETED", {"n": "2"})]


def test_pod_eviction_subresource(rest: RESTClient, namespace: str) -> None:
    pods = ResourceClient(rest, ResourceInfo("", "v1", "pods", True, "Pod"), namespace, ModelCodec(Pod, PodList))
    pods.create(Pod.from_dict({"metadata": {"name": "ev"}, "spec": {"containers": [{"name": "c", "image": "x"}]}}))
    eviction = {"apiVersion": "policy/v1", "kind": "Eviction", "metadata": {"name": "ev", "namespace": namespace}}
    pods.create_subresource("ev", "eviction", json.dumps(eviction).encode())
    remaining = pods.list().items or []
    assert all(p.metadata and p.metadata.deletion_timestamp for p in remaining)
