"""Server-side apply with generated apply configurations, on both sides (real apiserver and fake):
the manager owns exactly the fields it set; extract -> modify -> apply changes only the intended
field and claims nothing another manager owns (client-go's ExtractDeployment workflow)."""

from __future__ import annotations

import asyncio
from typing import Any

from kgen.kubernetes import Clientset
from kgen.kubernetes.applyconfigurations.apps.v1 import (
    DeploymentApplyConfiguration,
    DeploymentSpecApplyConfiguration,
    DeploymentStatusApplyConfiguration,
)
from kgen.kubernetes.applyconfigurations.core.v1 import (
    ConfigMapApplyConfiguration,
    ContainerApplyConfiguration,
    PodSpecApplyConfiguration,
    PodTemplateSpecApplyConfiguration,
)
from kgen.kubernetes.applyconfigurations.meta.v1 import (
    LabelSelectorApplyConfiguration,
    ObjectMetaApplyConfiguration,
)

from .conftest import Backend
from .test_apply import owners

LABELS = {"app": "web"}


def desired(ns: str, replicas: int = 2) -> DeploymentApplyConfiguration:
    return DeploymentApplyConfiguration(
        metadata=ObjectMetaApplyConfiguration(name="web", namespace=ns, labels=LABELS),
        spec=DeploymentSpecApplyConfiguration(
            replicas=replicas,
            selector=LabelSelectorApplyConfiguration(match_labels=LABELS),
            template=PodTemplateSpecApplyConfiguration(
                metadata=ObjectMetaApplyConfiguration(labels=LABELS),
                spec=PodSpecApplyConfiguration(containers=[ContainerApplyConfiguration(name="app", image="nginx")]),
            ),
        ),
    )


#: What the apiserver records for ``desired``'s manager: the fields it set, and nothing else
#: (LabelSelector is an atomic map, ``x-kubernetes-map-type: atomic``: owned whole; an applied
#: map records no ``.`` of its own, a list item keyed by name does).
DESIRED_FIELDS: dict[str, Any] = {
    "f:metadata": {"f:labels": {"f:app": {}}},
    "f:spec": {
        "f:replicas": {},
        "f:selector": {},
        "f:template": {
            "f:metadata": {"f:labels": {"f:app": {}}},
            "f:spec": {"f:containers": {'k:{"name":"app"}': {".": {}, "f:image": {}, "f:name": {}}}},
        },
    },
}

#: A second manager's fields: an annotation and a sidecar container.
SIDECAR_FIELDS: dict[str, Any] = {
    "f:metadata": {"f:annotations": {"f:team": {}}},
    "f:spec": {
        "f:template": {"f:spec": {"f:containers": {'k:{"name":"side"}': {".": {}, "f:image": {}, "f:name": {}}}}},
    },
}


def sidecar(ns: str) -> DeploymentApplyConfiguration:
    return DeploymentApplyConfiguration(
        metadata=ObjectMetaApplyConfiguration(name="web", namespace=ns, annotations={"team": "b"}),
        spec=DeploymentSpecApplyConfiguration(
            template=PodTemplateSpecApplyConfiguration(
                spec=PodSpecApplyConfiguration(containers=[ContainerApplyConfiguration(name="side", image="busybox")]),
            ),
        ),
    )


def test_applying_a_built_apply_configuration_creates_the_object_and_owns_exactly_its_fields(cs: Clientset, ns: str) -> None:
    deployments = cs.apps_v1.deployments(ns)
    created = deployments.apply(desired(ns), field_manager="first")
    assert created.spec.replicas == 2
    assert [c.image for c in created.spec.template.spec.containers] == ["nginx"] if created.spec.template.spec else False
    assert owners(created) == {("first", "Apply"): DESIRED_FIELDS}

    updated = deployments.apply(desired(ns, replicas=3), field_manager="first")
    assert updated.spec.replicas == 3
    assert owners(updated) == {("first", "Apply"): DESIRED_FIELDS}


def test_extract_modify_apply_changes_one_field_and_claims_nothing_another_manager_owns(cs: Clientset, ns: str) -> None:
    deployments = cs.apps_v1.deployments(ns)
    deployments.apply(desired(ns), field_manager="first")
    live = deployments.apply(sidecar(ns), field_manager="second")
    assert owners(live) == {("first", "Apply"): DESIRED_FIELDS, ("second", "Apply"): SIDECAR_FIELDS}

    mine = DeploymentApplyConfiguration.extract(live, "first")
    assert mine == desired(ns)  # exactly what "first" applied, nothing "second" added
    assert mine.spec is not None
    mine.spec.replicas = 5
    after = deployments.apply(mine, field_manager="first")  # no force needed: no conflict

    assert after.spec.replicas == 5
    before = live.to_dict()
    before["spec"]["replicas"] = 5
    for key in ("managedFields", "resourceVersion", "generation"):
        before["metadata"].pop(key, None)
    changed = after.to_dict()
    for key in ("managedFields", "resourceVersion", "generation"):
        changed["metadata"].pop(key, None)
    assert changed["spec"] == before["spec"] and changed["metadata"] == before["metadata"]
    assert owners(after) == {("first", "Apply"): DESIRED_FIELDS, ("second", "Apply"): SIDECAR_FIELDS}


def test_a_converted_live_model_claims_every_field_which_is_why_extract_exists(cs: Clientset, ns: str) -> None:
    deployments = cs.apps_v1.deployments(ns)
    deployments.apply(desired(ns), field_manager="first")
    live = deployments.apply(sidecar(ns), field_manager="second")
    everything = DeploymentApplyConfiguration.from_model(live)
    third = owners(deployments.apply(everything, field_manager="third", dry_run=True))[("third", "Apply")]
    assert 'k:{"name":"side"}' in third["f:spec"]["f:template"]["f:spec"]["f:containers"]
    assert "f:annotations" in third["f:metadata"] and "f:replicas" in third["f:spec"]


def test_apply_status_and_extract_of_the_status_subresource(cs: Clientset, ns: str) -> None:
    deployments = cs.apps_v1.deployments(ns)
    deployments.apply(desired(ns), field_manager="first")
    status = DeploymentApplyConfiguration(
        metadata=ObjectMetaApplyConfiguration(name="web", namespace=ns),
        status=DeploymentStatusApplyConfiguration(observed_generation=1),
    )
    live = deployments.apply_status(status, field_manager="ctrl")
    assert live.status is not None and live.status.observed_generation == 1
    entries = {(e.manager, e.operation, e.subresource): e.fields_v1 for e in live.metadata.managed_fields or []}
    assert entries[("ctrl", "Apply", "status")] == {"f:status": {"f:observedGeneration": {}}}
    assert DeploymentApplyConfiguration.extract(live, "ctrl", subresource="status") == status
    assert DeploymentApplyConfiguration.extract(live, "ctrl").status is None  # not owned on the main resource


def test_async_apply_of_an_apply_configuration(backend: Backend, ns: str) -> None:
    async def main() -> dict[str, str] | None:
        acs = backend.async_clientset()
        try:
            cm = ConfigMapApplyConfiguration(metadata=ObjectMetaApplyConfiguration(name="a"), data={"k": "v"})
            applied = await acs.core_v1.config_maps(ns).apply(cm, field_manager="async")
            assert owners(applied) == {("async", "Apply"): {"f:data": {"f:k": {}}}}
            return applied.data
        finally:
            await acs.close()

    assert asyncio.run(main()) == {"k": "v"}
