"""Client-side validation (issue 15): ``validate=True`` on create, update, update_status, apply
and apply_status of the generated typed clients, sync and async; the refusal is the apiserver's
``Invalid`` with its causes."""

from __future__ import annotations

from kgen.kubernetes import AsyncClientset, Clientset
from kgen.kubernetes.applyconfigurations.apps.v1 import DeploymentApplyConfiguration, DeploymentStatusApplyConfiguration
from kgen.kubernetes.applyconfigurations.meta.v1 import ObjectMetaApplyConfiguration
from kgen.kubernetes.models.apps.v1 import Deployment
from kgen.kubernetes.models.core.v1 import ConfigMap
from kgen.runtime.apimachinery.errors import Invalid


def create_checked(cs: Clientset, cm: ConfigMap) -> list[str]:
    try:
        cs.core_v1.config_maps("default").create(cm, validate=True, field_validation="Strict")
    except Invalid as e:
        return [f"{cause.field}: {cause.message}" for cause in e.causes]
    return []


def write_checked(cs: Clientset, deployment: Deployment) -> Deployment:
    deployments = cs.apps_v1.deployments("default")
    updated = deployments.update(deployment, validate=True)
    updated = deployments.update_status(updated, validate=True)
    meta = ObjectMetaApplyConfiguration(name="web", namespace="default")
    deployments.apply_status(
        DeploymentApplyConfiguration(metadata=meta, status=DeploymentStatusApplyConfiguration(replicas=1)),
        field_manager="ctl", validate=True,
    )
    return deployments.apply(DeploymentApplyConfiguration(metadata=meta), field_manager="ctl", validate=True)


async def create_checked_async(cs: AsyncClientset, cm: ConfigMap) -> ConfigMap:
    config_maps = cs.core_v1.config_maps("default")
    created = await config_maps.create(cm, validate=True)
    return await config_maps.update(created, validate=True)


def validate_is_a_bool(cs: Clientset, cm: ConfigMap) -> None:
    cs.core_v1.config_maps("default").create(cm, validate="yes")  # E: arg-type
