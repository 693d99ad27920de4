"""Small object builders the contract tests share."""

from __future__ import annotations

from kgen.kubernetes.models.apps.v1 import Deployment, DeploymentSpec
from kgen.kubernetes.models.core.v1 import ConfigMap, Container, PodSpec, PodTemplateSpec
from kgen.kubernetes.models.meta.v1 import LabelSelector, ObjectMeta


def config_map(
    name: str | None = None, *, data: dict[str, str] | None = None, labels: dict[str, str] | None = None,
    generate_name: str | None = None, finalizers: list[str] | None = None,
) -> ConfigMap:
    """Only what is given is set: None stays off the wire, it is not sent as null."""
    meta = ObjectMeta(name=name, labels=labels, generate_name=generate_name, finalizers=finalizers)
    return ConfigMap(metadata=meta, data=data)


def deployment(name: str, *, replicas: int = 1, images: dict[str, str] | None = None) -> Deployment:
    """A Deployment whose pods run one container per ``images`` item (name -> image)."""
    labels = {"app": name}
    containers = [Container(name=c, image=image) for c, image in (images or {"main": "nginx"}).items()]
    return Deployment(
        metadata=ObjectMeta(name=name, labels=labels),
        spec=DeploymentSpec(
            replicas=replicas,
            selector=LabelSelector(match_labels=labels),
            template=PodTemplateSpec(metadata=ObjectMeta(labels=labels), spec=PodSpec(containers=containers)),
        ),
    )
