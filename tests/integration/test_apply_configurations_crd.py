"""A CRD's generated apply configurations (examples/sample_controller's Foo) through server-side
apply on the real apiserver: ownership per manager, the status subresource, extract, and the
server (not the apply configuration) enforcing the schema's required fields on the merged object."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from examples.sample_controller.client import Clientset as FooClientset
from examples.sample_controller.client.applyconfigurations.meta.v1 import ObjectMetaApplyConfiguration
from examples.sample_controller.client.applyconfigurations.samplecontroller_kgen_dev.v1alpha1 import (
    FooApplyConfiguration,
    FooSpecApplyConfiguration,
    FooStatusApplyConfiguration,
)
from examples.sample_controller.client.models.samplecontroller_kgen_dev.v1alpha1 import Foo
from examples.sample_controller.client.typed.samplecontroller_kgen_dev.v1alpha1 import FoosClient
from kgen.generator.yamlfile import load_all
from kgen.runtime.apimachinery.errors import Invalid
from kgen.runtime.rest import load_kubeconfig
from kgen.runtime.testing import KubeAPIServer
from tests.support.apiserver import install_crd
from tests.support.packages import REPO

CRD = REPO / "examples" / "sample_controller" / "crd.yaml"


@pytest.fixture
def foos(kube_apiserver: KubeAPIServer, admin: httpx.Client, namespace: str) -> Iterator[FoosClient]:
    (crd,) = load_all(CRD.read_text())
    if admin.get(f"/apis/apiextensions.k8s.io/v1/customresourcedefinitions/{crd['metadata']['name']}").status_code == 404:
        install_crd(admin, crd)
    cs = FooClientset(load_kubeconfig(kube_apiserver.kubeconfig))
    yield cs.samplecontroller_kgen_dev_v1alpha1.foos(namespace)
    cs.close()


def _entries(foo: Foo) -> dict[tuple[str, str, str], Any]:
    assert foo.metadata is not None
    return {(str(e.manager), str(e.operation), e.subresource or ""): e.fields_v1 for e in foo.metadata.managed_fields or []}


def test_a_crd_apply_configuration_applies_and_extracts(foos: FoosClient, namespace: str) -> None:
    meta = ObjectMetaApplyConfiguration(name="foo", namespace=namespace)
    created: Foo = foos.apply(
        FooApplyConfiguration(metadata=meta, spec=FooSpecApplyConfiguration(deployment_name="web", replicas=1)),
        field_manager="owner",
    )
    assert (created.api_version, created.kind) == ("samplecontroller.kgen.dev/v1alpha1", "Foo")
    assert (created.spec.deployment_name, created.spec.replicas) == ("web", 1)
    assert _entries(created) == {("owner", "Apply", ""): {"f:spec": {"f:deploymentName": {}, "f:replicas": {}}}}

    # Another manager owns replicas alone; the schema's other required field stays the owner's.
    scaled: Foo = foos.apply(
        FooApplyConfiguration(metadata=meta, spec=FooSpecApplyConfiguration(replicas=3)),
        field_manager="scaler", force=True,
    )
    assert (scaled.spec.deployment_name, scaled.spec.replicas) == ("web", 3)
    assert _entries(scaled) == {
        ("owner", "Apply", ""): {"f:spec": {"f:deploymentName": {}}},
        ("scaler", "Apply", ""): {"f:spec": {"f:replicas": {}}},
    }

    status = FooApplyConfiguration(metadata=meta, status=FooStatusApplyConfiguration(available_replicas=3, observed_generation=2))
    reported: Foo = foos.apply_status(status, field_manager="controller")
    assert reported.status is not None and reported.status.available_replicas == 3
    assert _entries(reported)[("controller", "Apply", "status")] == {
        "f:status": {"f:availableReplicas": {}, "f:observedGeneration": {}}
    }
    assert FooApplyConfiguration.extract(reported, "controller", subresource="status") == status
    mine = FooApplyConfiguration.extract(reported, "owner")
    assert mine == FooApplyConfiguration(metadata=meta, spec=FooSpecApplyConfiguration(deployment_name="web"))


def test_the_server_validates_the_merged_object_not_the_apply_configuration(foos: FoosClient, namespace: str) -> None:
    partial = FooApplyConfiguration(
        metadata=ObjectMetaApplyConfiguration(name="bare", namespace=namespace), spec=FooSpecApplyConfiguration(replicas=1)
    )
    with pytest.raises(Invalid) as caught:
        foos.apply(partial, field_manager="owner")
    assert "spec.deploymentName: Required value" in caught.value.message
