"""The Foo controller (Kubernetes' sample-controller, controller.go) on kgen.runtime.controller:
a Deployment per Foo, named and sized by the Foo's spec and controlled by it.

``For(&Foo{}).Owns(&appsv1.Deployment{})`` replaces sample-controller's hand plumbing (two
informer factories, a workqueue, handlers that map an owned Deployment to its Foo, a worker loop):
the manager's cache, its rate-limited queue and ``.owns`` do the same, the way controller-runtime
users write it. ``reconcile`` keeps syncHandler's steps in order, so the two read side by side:

1. Get the Foo (from the cache); gone: nothing to do, the garbage collector removes its
   Deployment through the owner reference.
2. Get the Deployment named by ``spec.deploymentName``, creating it if missing.
3. A Deployment the Foo does not control is refused, with an ``ErrResourceExists`` Warning Event
   and an error, so it is retried with backoff (the user may delete or rename it).
4. Replicas differ from the spec: update the Deployment.
5. Write status (availableReplicas, observedGeneration) when it changed; record ``Synced``.

``reconcile`` reads only the cache and converges, so it can run any number of times for a Foo.
"""

from __future__ import annotations

import logging

import msgspec

from kgen.kubernetes.models.apps.v1 import Deployment, DeploymentSpec
from kgen.kubernetes.models.core.v1 import Container, PodSpec, PodTemplateSpec
from kgen.kubernetes.models.meta.v1 import LabelSelector, ObjectMeta
from kgen.runtime.apimachinery.errors import AlreadyExists, NotFound
from kgen.controller import (
    Client,
    Manager,
    Request,
    Result,
    controller_managed_by,
    is_controlled_by,
    set_controller_reference,
)
from kgen.runtime.tools.record.event import EventRecorder

from .client.models.samplecontroller_kgen_dev.v1alpha1 import Foo, FooStatus

log = logging.getLogger("sample-controller")

#: The Events' source component, as sample-controller's controllerAgentName.
CONTROLLER_NAME = "kgen-sample-controller"


class ResourceExists(RuntimeError):
    """The Deployment a Foo names exists and another object (or nobody) controls it."""


class FooReconciler:
    def __init__(self, client: Client, recorder: EventRecorder) -> None:
        self.client = client
        self.recorder = recorder

    def reconcile(self, request: Request) -> Result | None:
        try:
            foo = self.client.get(Foo, request.name, request.namespace)
        except NotFound:
            return None
        spec = foo.spec
        if not spec or not spec.deployment_name:
            # Not retried: only an edit of the Foo (which enqueues it) can fix it.
            log.warning("%s/%s: spec.deploymentName is empty", request.namespace, request.name)
            return None
        try:
            deployment = self.client.get(Deployment, spec.deployment_name, request.namespace)
        except NotFound:
            try:
                deployment = self.client.create(deployment_for(foo))
            except AlreadyExists:
                # Created meanwhile (by an earlier reconcile the cache has not seen, or by
                # someone else): the retry reads it from the cache and checks its owner.
                return Result(requeue=True)
        if not is_controlled_by(deployment, foo):
            message = f"Deployment {spec.deployment_name} exists and is not controlled by Foo {request.name}"
            self.recorder.event(foo, "Warning", "ErrResourceExists", message)
            raise ResourceExists(message)
        replicas = spec.replicas if isinstance(spec.replicas, int) else 1
        current = deployment.spec.replicas if deployment.spec else None
        if current != replicas:
            log.info("%s/%s: replicas %s -> %d", request.namespace, request.name, current, replicas)
            deployment = self.client.update(deployment_for(foo, base=deployment))
        self._update_status(foo, deployment)
        self.recorder.event(foo, "Normal", "Synced", "Foo synced successfully")
        return None

    def _update_status(self, foo: Foo, deployment: Deployment) -> None:
        available = deployment.status.available_replicas if deployment.status else None
        status = FooStatus(
            available_replicas=available if isinstance(available, int) else 0,
            observed_generation=foo.metadata.generation if foo.metadata else None,
        )
        if foo.status == status:
            return
        # A copy: the cached object is shared with the informer and must not change under it.
        self.client.update_status(msgspec.structs.replace(foo, status=status))


def deployment_for(foo: Foo, base: Deployment | None = None) -> Deployment:
    """sample-controller's newDeployment: nginx Pods labelled for this Foo, ``spec.replicas`` of
    them (1 when unset), controlled by the Foo. ``base`` (the existing Deployment) keeps its
    metadata (resourceVersion for the update)."""
    assert foo.metadata and foo.spec and isinstance(foo.spec.deployment_name, str)
    labels = {"app": "nginx", "controller": str(foo.metadata.name)}
    spec = DeploymentSpec(
        replicas=foo.spec.replicas if isinstance(foo.spec.replicas, int) else 1,
        selector=LabelSelector(match_labels=labels),
        template=PodTemplateSpec(
            metadata=ObjectMeta(labels=labels),
            spec=PodSpec(containers=[Container(name="nginx", image="nginx:latest")]),
        ),
    )
    metadata = ObjectMeta(name=foo.spec.deployment_name, namespace=foo.metadata.namespace)
    if base is not None and base.metadata:
        metadata = base.metadata
    return set_controller_reference(foo, Deployment(metadata=metadata, spec=spec))


def setup_foo_controller(manager: Manager, *, workers: int = 2) -> FooReconciler:
    """Registers the controller: ``For(&Foo{}).Owns(&appsv1.Deployment{})``."""
    reconciler = FooReconciler(manager.client, manager.get_event_recorder_for(CONTROLLER_NAME))
    controller_managed_by(manager).for_(Foo).owns(Deployment).named("foo").with_options(
        max_concurrent_reconciles=workers
    ).complete(reconciler)
    return reconciler
