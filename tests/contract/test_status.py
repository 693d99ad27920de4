"""The status subresource: the main resource's writes keep the status, status writes keep the rest."""

from __future__ import annotations

from kgen.kubernetes import Clientset
from kgen.kubernetes.models.apps.v1 import Deployment, DeploymentStatus
from kgen.kubernetes.models.autoscaling.v1 import Scale, ScaleSpec
from kgen.kubernetes.models.meta.v1 import ObjectMeta
from kgen.runtime.gentype import PatchType

from .builders import deployment


def generation(d: Deployment) -> object:
    return d.metadata.generation if d.metadata else None


def test_create_ignores_the_status_and_starts_generation_at_one(cs: Clientset, ns: str) -> None:
    d = deployment("d")
    d.status = DeploymentStatus(replicas=5)
    created = cs.apps_v1.deployments(ns).create(d)
    assert generation(created) == 1
    assert not (created.status and created.status.replicas)


def test_update_keeps_the_status_and_update_status_keeps_the_spec(cs: Clientset, ns: str) -> None:
    deployments = cs.apps_v1.deployments(ns)
    d = deployments.create(deployment("d", replicas=1))

    assert d.spec and d.metadata and d.metadata.labels is not None
    d.status = DeploymentStatus(replicas=3, observed_generation=1)
    d.spec.replicas = 7
    d.metadata.labels["ignored-by-status"] = "yes"
    after_status = deployments.update_status(d)
    assert after_status.status and after_status.status.replicas == 3 and after_status.status.observed_generation == 1
    assert after_status.spec and after_status.spec.replicas == 1
    assert after_status.metadata and "ignored-by-status" not in (after_status.metadata.labels or {})
    assert generation(after_status) == 1

    after_status.spec.replicas = 2
    after_status.status = DeploymentStatus(replicas=99)
    after_update = deployments.update(after_status)
    assert after_update.spec and after_update.spec.replicas == 2
    assert after_update.status and after_update.status.replicas == 3
    assert generation(after_update) == 2

    assert after_update.metadata and after_update.metadata.labels is not None
    after_update.metadata.labels["team"] = "a"
    relabelled = deployments.update(after_update)
    assert generation(relabelled) == 2  # metadata changes are no new generation
    assert deployments.get("d") == relabelled


def test_patches_respect_the_status_subresource(cs: Clientset, ns: str) -> None:
    deployments = cs.apps_v1.deployments(ns)
    deployments.create(deployment("d", replicas=1))
    main = deployments.patch("d", {"spec": {"replicas": 4}, "status": {"replicas": 8}}, PatchType.MERGE)
    assert main.spec and main.spec.replicas == 4 and not (main.status and main.status.replicas)
    status = deployments.patch("d", {"spec": {"replicas": 6}, "status": {"replicas": 8}}, subresource="status")
    assert status.spec and status.spec.replicas == 4 and status.status and status.status.replicas == 8


def test_scale_subresource_reads_and_writes_spec_replicas(cs: Clientset, ns: str) -> None:
    deployments = cs.apps_v1.deployments(ns)
    created = deployments.create(deployment("d", replicas=2))
    scale = deployments.scale("d")
    assert scale.spec and scale.spec.replicas == 2
    assert scale.status and scale.status.selector == "app=d"
    assert scale.metadata and created.metadata and scale.metadata.uid == created.metadata.uid
    scaled = deployments.update_scale("d", Scale(metadata=ObjectMeta(name="d"), spec=ScaleSpec(replicas=5)))
    assert scaled.spec and scaled.spec.replicas == 5
    after = deployments.get("d")
    assert after.spec and after.spec.replicas == 5 and generation(after) == 2
