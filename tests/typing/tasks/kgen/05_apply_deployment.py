"""Server-side apply a Deployment and read back what the server made of it."""

from kgen.kubernetes import Clientset
from kgen.kubernetes.models.apps.v1 import Deployment, DeploymentSpec
from kgen.kubernetes.models.core.v1 import Container, PodSpec, PodTemplateSpec
from kgen.kubernetes.models.meta.v1 import LabelSelector, ObjectMeta


def apply_web(cs: Clientset, namespace: str, image: str) -> int | None:
    labels = {"app": "web"}
    d = Deployment(
        metadata=ObjectMeta(name="web", namespace=namespace, labels=labels),
        spec=DeploymentSpec(
            replicas=2,
            selector=LabelSelector(match_labels=labels),
            template=PodTemplateSpec(
                metadata=ObjectMeta(labels=labels),
                spec=PodSpec(containers=[Container(name="app", image=image)]),
            ),
        ),
    )
    applied = cs.apps_v1.deployments(namespace).apply(d, field_manager="my-tool", force=True)
    return applied.spec.replicas
