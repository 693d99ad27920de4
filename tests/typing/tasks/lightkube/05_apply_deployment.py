"""Server-side apply a Deployment and read back what the server made of it."""

from lightkube import Client
from lightkube.models.apps_v1 import DeploymentSpec
from lightkube.models.core_v1 import Container, PodSpec, PodTemplateSpec
from lightkube.models.meta_v1 import LabelSelector, ObjectMeta
from lightkube.resources.apps_v1 import Deployment


def apply_web(client: Client, namespace: str, image: str) -> int | None:
    labels = {"app": "web"}
    d = Deployment(
        metadata=ObjectMeta(name="web", namespace=namespace, labels=labels),
        spec=DeploymentSpec(
            replicas=2,
            selector=LabelSelector(matchLabels=labels),
            template=PodTemplateSpec(
                metadata=ObjectMeta(labels=labels),
                spec=PodSpec(containers=[Container(name="app", image=image)]),
            ),
        ),
    )
    applied = client.apply(d, field_manager="my-tool", force=True)
    return applied.spec.replicas
