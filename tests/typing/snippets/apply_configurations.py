"""Server-side apply with apply configurations, as client-go's users write it: build the fields
you own, apply, extract what your manager owns, change it, apply again; sync and async."""

from __future__ import annotations

from kgen.kubernetes import AsyncClientset, Clientset
from kgen.kubernetes.applyconfigurations.apps.v1 import (
    DeploymentApplyConfiguration,
    DeploymentSpecApplyConfiguration,
    DeploymentStatusApplyConfiguration,
)
from kgen.kubernetes.applyconfigurations.core.v1 import (
    ContainerApplyConfiguration,
    PodSpecApplyConfiguration,
    PodTemplateSpecApplyConfiguration,
)
from kgen.kubernetes.applyconfigurations.meta.v1 import (
    LabelSelectorApplyConfiguration,
    ObjectMetaApplyConfiguration,
)
from kgen.kubernetes.models.apps.v1 import Deployment


def desired(name: str, namespace: str, image: str) -> DeploymentApplyConfiguration:
    labels = {"app": name}
    return DeploymentApplyConfiguration(
        metadata=ObjectMetaApplyConfiguration(name=name, namespace=namespace, labels=labels),
        spec=DeploymentSpecApplyConfiguration(
            replicas=2,
            selector=LabelSelectorApplyConfiguration(match_labels=labels),
            template=PodTemplateSpecApplyConfiguration(
                metadata=ObjectMetaApplyConfiguration(labels=labels),
                spec=PodSpecApplyConfiguration(containers=[ContainerApplyConfiguration(name="app", image=image)]),
            ),
        ),
    )


def scale(cs: Clientset, namespace: str, replicas: int) -> int | None:
    deployments = cs.apps_v1.deployments(namespace)
    applied: Deployment = deployments.apply(desired("web", namespace, "nginx"), field_manager="me", force=True)
    mine = DeploymentApplyConfiguration.extract(applied, "me")
    if mine.spec is None:
        mine.spec = DeploymentSpecApplyConfiguration()
    mine.spec.replicas = replicas
    again = deployments.apply(mine, field_manager="me")
    status = DeploymentApplyConfiguration(
        metadata=ObjectMetaApplyConfiguration(name="web"),
        status=DeploymentStatusApplyConfiguration(observed_generation=1),
    )
    deployments.apply_status(status, field_manager="me-status")
    deployments.apply({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web"}}, field_manager="x")
    copy = DeploymentApplyConfiguration.from_model(again)
    assert copy.kind == "Deployment"
    return again.spec.replicas  # E<=1.36: union-attr


async def scale_async(cs: AsyncClientset, namespace: str) -> str | None:
    applied = await cs.apps_v1.deployments(namespace).apply(desired("web", namespace, "nginx"), field_manager="me")
    mine = DeploymentApplyConfiguration.extract(applied, "me", subresource="status")
    return mine.metadata.name if mine.metadata is not None else None
