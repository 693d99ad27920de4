"""The sample controller, end to end against the real apiserver, run as users run it."""

from __future__ import annotations

import signal
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from examples.sample_controller.client import Clientset as FooClientset
from examples.sample_controller.client.models.meta.v1 import ObjectMeta as FooObjectMeta
from examples.sample_controller.client.models.samplecontroller_kgen_dev.v1alpha1 import Foo, FooSpec
from kgen.generator.cli import main as kgen
from kgen.generator.yamlfile import load_all
from kgen.kubernetes import Clientset
from kgen.kubernetes.models.apps.v1 import Deployment, DeploymentSpec
from kgen.kubernetes.models.core.v1 import Container, PodSpec, PodTemplateSpec
from kgen.kubernetes.models.meta.v1 import LabelSelector, ObjectMeta
from kgen.runtime.rest import load_kubeconfig
from kgen.runtime.apimachinery.errors import NotFound
from kgen.runtime.testing import KubeAPIServer
from tests.support.apiserver import install_crd, wait_for
from tests.support.packages import REPO

EXAMPLE = REPO / "examples" / "sample_controller"


def test_generated_example_client_is_up_to_date() -> None:
    args = ["generate", "--crd", str(EXAMPLE / "crd.yaml"), "--package", "client", "--out", str(EXAMPLE), "--check"]
    assert kgen(args) == 0


@pytest.fixture
def controller(kube_apiserver: KubeAPIServer, admin: httpx.Client) -> Iterator[subprocess.Popen[str]]:
    (crd,) = load_all((EXAMPLE / "crd.yaml").read_text())
    if admin.get(f"/apis/apiextensions.k8s.io/v1/customresourcedefinitions/{crd['metadata']['name']}").status_code == 404:
        install_crd(admin, crd)
    proc = subprocess.Popen(
        [sys.executable, "-m", "examples.sample_controller", "--kubeconfig", kube_apiserver.kubeconfig],
        cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    yield proc
    if proc.poll() is None:
        proc.kill()
        proc.wait()


def _deployment_replicas(kube: Clientset, namespace: str, name: str) -> Any:
    try:
        deployment = kube.apps_v1.deployments(namespace).get(name)
    except NotFound:
        return None
    return deployment.spec.replicas if deployment.spec else None


def test_foo_drives_its_deployment_and_reports_observed_generation(
    kube_apiserver: KubeAPIServer, controller: subprocess.Popen[str], namespace: str
) -> None:
    config = load_kubeconfig(kube_apiserver.kubeconfig)
    kube, foos_cs = Clientset(config), FooClientset(config)
    foos = foos_cs.samplecontroller_kgen_dev_v1alpha1.foos(namespace)

    foo = foos.create(Foo(metadata=FooObjectMeta(name="example"), spec=FooSpec(deployment_name="web", replicas=2)))
    wait_for(lambda: _deployment_replicas(kube, namespace, "web") == 2)
    deployment = kube.apps_v1.deployments(namespace).get("web")
    refs = deployment.metadata.owner_references if deployment.metadata else None
    assert refs and refs[0].kind == "Foo" and refs[0].uid == foo.metadata.uid and refs[0].controller  # type: ignore[union-attr]
    wait_for(lambda: _observed_generation(foos) == 1)

    foos.patch("example", {"spec": {"replicas": 4}})
    wait_for(lambda: _deployment_replicas(kube, namespace, "web") == 4)
    wait_for(lambda: _observed_generation(foos) == 2)

    synced = wait_for(lambda: [e for e in kube.core_v1.events(namespace).list(
        field_selector="involvedObject.kind=Foo,involvedObject.name=example").items or [] if e.reason == "Synced"])
    assert synced[0].source and synced[0].source.component == "kgen-sample-controller"

    controller.send_signal(signal.SIGTERM)
    output, _ = controller.communicate(timeout=60)
    assert controller.returncode == 0, output
    # The manager's graceful stop (controller-runtime's wording), then the program's last line.
    assert "shutdown signal received" in output and "all workers finished" in output and "stopped" in output
    kube.close()
    foos_cs.close()


def test_foo_refuses_to_adopt_a_deployment_it_does_not_control(
    kube_apiserver: KubeAPIServer, controller: subprocess.Popen[str], namespace: str
) -> None:
    config = load_kubeconfig(kube_apiserver.kubeconfig)
    kube, foos_cs = Clientset(config), FooClientset(config)
    labels = {"app": "other"}
    kube.apps_v1.deployments(namespace).create(Deployment(
        metadata=ObjectMeta(name="taken"),
        spec=DeploymentSpec(
            replicas=1, selector=LabelSelector(match_labels=labels),
            template=PodTemplateSpec(metadata=ObjectMeta(labels=labels),
                                     spec=PodSpec(containers=[Container(name="c", image="nginx:latest")])),
        ),
    ))
    foos = foos_cs.samplecontroller_kgen_dev_v1alpha1.foos(namespace)
    foos.create(Foo(metadata=FooObjectMeta(name="squatter"), spec=FooSpec(deployment_name="taken", replicas=3)))

    refused = wait_for(lambda: [e for e in kube.core_v1.events(namespace).list(
        field_selector="involvedObject.kind=Foo,involvedObject.name=squatter").items or []
        if e.reason == "ErrResourceExists"])
    assert refused[0].type == "Warning"
    assert refused[0].message == "Deployment taken exists and is not controlled by Foo squatter"
    deployment = kube.apps_v1.deployments(namespace).get("taken")
    assert deployment.metadata is not None and not deployment.metadata.owner_references
    assert deployment.spec is not None and deployment.spec.replicas == 1  # left as its owner made it
    assert foos.get("squatter").status is None  # never reported as synced

    controller.send_signal(signal.SIGTERM)
    output, _ = controller.communicate(timeout=60)
    assert controller.returncode == 0, output
    assert "Deployment taken exists and is not controlled by Foo squatter" in output  # the retried error, logged
    kube.close()
    foos_cs.close()


def _observed_generation(foos: Any) -> Any:
    status = foos.get("example").status
    return status.observed_generation if status else None
