"""Server-side apply a Deployment and read back what the server made of it."""

from kgen.kubernetes import Clientset
from kgen.kubernetes.applyconfigurations.apps.v1 import DeploymentApplyConfiguration, DeploymentSpecApplyConfiguration
from kgen.kubernetes.applyconfigurations.core.v1 import (
    ContainerApplyConfiguration,
    PodSpecApplyConfiguration,
    PodTemplateSpecApplyConfiguration,
)
from kgen.kubernetes.applyconfigurations.meta.v1 import LabelSelectorApplyConfiguration, ObjectMetaApplyConfiguration


def apply_web(cs: Clientset, namespace: str, image: str) -> int | None:
    labels = {"app": "web"}
    d = DeploymentApplyConfiguration(
        metadata=ObjectMetaApplyConfiguration(name="web", namespace=namespace, labels=labels),
        spec=DeploymentSpecApplyConfiguration(
            replicas=2,
            selector=LabelSelectorApplyConfiguration(match_labels=labels),
            template=PodTemplateSpecApplyConfiguration(
                metadata=ObjectMetaApplyConfiguration(labels=labels),
                spec=PodSpecApplyConfiguration(containers=[ContainerApplyConfiguration(name="app", image=image)]),
            ),
        ),
    )
    applied = cs.apps_v1.deployments(namespace).apply(d, field_manager="my-tool", force=True)
    return applied.spec.replicas
