"""Model fields read and written the way users write them: a schema-required field needs no
narrowing, an optional one the ordinary ``is not None``; tests/typing/test_model_fields.py also
runs these functions on objects whose optional fields are absent."""

from __future__ import annotations

from kgen.kubernetes.models.apps.v1 import Deployment, DeploymentSpec
from kgen.kubernetes.models.core.v1 import ConfigMapList, Container, PodCondition, PodSpec, PodTemplateSpec
from kgen.kubernetes.models.meta.v1 import LabelSelector, ObjectMeta


def name_of(d: Deployment) -> str | None:
    if d.metadata is not None:
        return d.metadata.name
    return None


def replicas_and_images(d: Deployment) -> tuple[int, list[str]]:
    replicas = d.spec.replicas if d.spec.replicas is not None else 1  # spec is required from 1.37  # E<=1.36: union-attr
    pod = d.spec.template.spec  # E<=1.36: union-attr
    return replicas, [c.image or "" for c in pod.containers] if pod is not None else []


def container_ports(d: Deployment) -> int:
    pod = d.spec.template.spec  # E<=1.36: union-attr
    return sum(p.container_port for c in (pod.containers if pod else []) for p in c.ports or [])


def scale(d: Deployment, replicas: int) -> None:
    d.spec.replicas = replicas  # E<=1.36: union-attr


def names(cms: ConfigMapList) -> list[str]:
    return [cm.metadata.name for cm in cms.items if cm.metadata is not None and cm.metadata.name is not None]


def ready(conditions: list[PodCondition]) -> bool:
    return any(c.type == "Ready" and c.status == "True" for c in conditions)


def web() -> Deployment:
    labels = {"app": "web"}
    return Deployment(
        metadata=ObjectMeta(name="web", labels=labels),
        spec=DeploymentSpec(
            replicas=2,
            selector=LabelSelector(match_labels=labels),
            template=PodTemplateSpec(
                metadata=ObjectMeta(labels=labels), spec=PodSpec(containers=[Container(name="app", image="nginx")])
            ),
        ),
    )
