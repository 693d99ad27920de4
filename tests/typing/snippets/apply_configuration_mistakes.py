"""Apply configuration mistakes mypy --strict must reject (marked ``# E: <code>``)."""

from __future__ import annotations

from kgen.kubernetes import Clientset
from kgen.kubernetes.applyconfigurations.apps.v1 import (
    DeploymentApplyConfiguration,
    DeploymentSpecApplyConfiguration,
)
from kgen.kubernetes.applyconfigurations.core.v1 import ConfigMapApplyConfiguration
from kgen.kubernetes.applyconfigurations.meta.v1 import ObjectMetaApplyConfiguration
from kgen.kubernetes.models.apps.v1 import Deployment, DeploymentSpec
from kgen.kubernetes.models.core.v1 import ConfigMap


def mistakes(cs: Clientset, live: Deployment, cm: ConfigMap) -> None:
    deployments = cs.apps_v1.deployments("default")
    DeploymentSpecApplyConfiguration(replicas="3")  # E: arg-type
    DeploymentApplyConfiguration(spec=DeploymentSpec)  # E: arg-type
    DeploymentApplyConfiguration(spec=live.spec)  # E: arg-type
    DeploymentApplyConfiguration(metadata=ObjectMetaApplyConfiguration(nmae="web"))  # E: call-arg
    deployments.apply(ConfigMapApplyConfiguration(), field_manager="me")  # E: arg-type
    deployments.apply(live, field_manager="me")  # E: arg-type
    deployments.apply(DeploymentApplyConfiguration())  # E: call-arg
    cs.core_v1.config_maps("default").apply_status(DeploymentApplyConfiguration(), field_manager="me")  # E: attr-defined
    DeploymentApplyConfiguration.extract(cm, "me")  # E: arg-type
    DeploymentApplyConfiguration.from_model(cm)  # E: arg-type
    mine = DeploymentApplyConfiguration.extract(live, "me")
    mine.spec.replicas = 2  # E: union-attr
    wrong: Deployment = mine  # E: assignment
