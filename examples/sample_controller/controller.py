"""The Foo controller: keeps a Deployment in line with each Foo's spec.

It uses only generated code (the stock client, and ``client/`` generated from crd.yaml) and
kgen's runtime: shared informers and listers for Foos and Deployments, a rate-limited
workqueue of ``namespace/name`` keys, and status updates that report ``observedGeneration``.
Informer events only enqueue keys; ``sync`` reads the caches and converges, so it can run any
number of times for the same key. Outcomes are recorded as Events on the Foo.
"""

from __future__ import annotations

import logging
import threading

import msgspec

from kgen.kubernetes import Clientset
from kgen.kubernetes.informers.factory import SharedInformerFactory
from kgen.kubernetes.models.apps.v1 import Deployment, DeploymentSpec
from kgen.kubernetes.models.core.v1 import Container, PodSpec, PodTemplateSpec
from kgen.kubernetes.models.meta.v1 import LabelSelector, ObjectMeta, OwnerReference
from kgen.runtime.tools.cache.delta_fifo import DeletedFinalStateUnknown
from kgen.runtime.tools.cache.store import meta_namespace_key, split_key
from kgen.runtime.apimachinery.errors import NotFound
from kgen.runtime.tools.record.event import EventRecorder
from kgen.runtime.util.workqueue import RateLimitingQueue, default_controller_rate_limiter

from .client import Clientset as FooClientset
from .client.informers.factory import SharedInformerFactory as FooInformerFactory
from .client.models.samplecontroller_kgen_dev.v1alpha1 import Foo, FooStatus

log = logging.getLogger("sample-controller")

CONTROLLER_NAME = "kgen-sample-controller"
MAX_RETRIES = 15


class Controller:
    def __init__(self, kube: Clientset, foos: FooClientset, resync: float = 30.0) -> None:
        self.kube = kube
        self.foos = foos
        self.kube_factory = SharedInformerFactory(kube, resync=resync)
        self.foo_factory = FooInformerFactory(foos, resync=resync)
        self.deployments = self.kube_factory.apps_v1.deployments()
        self.foo_informer = self.foo_factory.samplecontroller_kgen_dev_v1alpha1.foos()
        self.queue: RateLimitingQueue[str] = RateLimitingQueue(default_controller_rate_limiter(), name="foos")
        self.recorder = EventRecorder(kube.rest, CONTROLLER_NAME)
        self.foo_informer.informer.add_event_handler(
            on_add=self.enqueue, on_update=lambda old, new: self.enqueue(new), on_delete=self.enqueue
        )
        # A change to a Deployment a Foo owns re-syncs that Foo.
        self.deployments.informer.add_event_handler(
            on_add=self.handle_owned, on_update=lambda old, new: self.handle_owned(new), on_delete=self.handle_owned
        )

    def enqueue(self, obj: Foo | DeletedFinalStateUnknown[Foo]) -> None:
        self.queue.add(meta_namespace_key(obj))

    def handle_owned(self, obj: Deployment | DeletedFinalStateUnknown[Deployment]) -> None:
        # The informer and its handlers are typed in the model: a tombstone holds a Deployment too.
        deployment = obj.obj if isinstance(obj, DeletedFinalStateUnknown) else obj
        if deployment.metadata is None:
            return
        for ref in deployment.metadata.owner_references or []:
            if ref.kind == "Foo" and ref.controller:
                self.queue.add(f"{deployment.metadata.namespace}/{ref.name}")

    def run(self, workers: int, stop: threading.Event) -> None:
        """Starts informers and workers; returns after ``stop`` is set and work is drained."""
        self.kube_factory.start()
        self.foo_factory.start()
        synced = {**self.kube_factory.wait_for_cache_sync(timeout=60), **self.foo_factory.wait_for_cache_sync(timeout=60)}
        if not all(synced.values()):
            raise RuntimeError(f"caches did not sync: {synced}")
        threads = [threading.Thread(target=self._worker, name=f"worker-{i}") for i in range(workers)]
        for thread in threads:
            thread.start()
        log.info("started %d workers", workers)
        stop.wait()
        log.info("shutting down: draining the queue")
        self.queue.shut_down_with_drain()
        for thread in threads:
            thread.join()
        self.kube_factory.shutdown()
        self.foo_factory.shutdown()
        self.recorder.shutdown()

    def _worker(self) -> None:
        while True:
            key, shutdown = self.queue.get()
            if shutdown:
                return
            try:
                self.sync(key)
                self.queue.forget(key)
            except Exception as e:  # noqa: BLE001 - retried with backoff, then dropped
                if self.queue.num_requeues(key) < MAX_RETRIES:
                    log.warning("syncing %s: %s; retrying", key, e)
                    self.queue.add_rate_limited(key)
                else:
                    log.error("dropping %s after %d retries: %s", key, MAX_RETRIES, e)
                    self.queue.forget(key)
            finally:
                self.queue.done(key)

    def sync(self, key: str) -> None:
        namespace, name = split_key(key)
        try:
            foo = self.foo_informer.lister.foos(namespace).get(name)
        except NotFound:
            return  # deleted: the garbage collector removes its Deployment through the owner reference
        spec = foo.spec
        if not spec or not spec.deployment_name:
            log.warning("%s: spec.deploymentName is empty", key)
            return
        deployments = self.kube.apps_v1.deployments(namespace)
        try:
            deployment = self.deployments.lister.deployments(namespace).get(spec.deployment_name)
        except NotFound:
            deployment = deployments.create(self._deployment_for(foo))
        if not self._is_controlled_by(deployment, foo):
            message = f"Deployment {spec.deployment_name} exists and is not controlled by Foo {name}"
            self.recorder.event(foo, "Warning", "ErrResourceExists", message)
            raise RuntimeError(message)
        replicas = spec.replicas if isinstance(spec.replicas, int) else 1
        current = deployment.spec.replicas if deployment.spec else None
        if current != replicas:
            log.info("%s: replicas %s -> %d", key, current, replicas)
            deployment = deployments.update(self._deployment_for(foo, base=deployment))
        self._update_status(foo, deployment)
        self.recorder.event(foo, "Normal", "Synced", "Foo synced successfully")

    def _update_status(self, foo: Foo, deployment: Deployment) -> None:
        available = deployment.status.available_replicas if deployment.status else None
        status = FooStatus(
            available_replicas=available if isinstance(available, int) else 0,
            observed_generation=foo.metadata.generation if foo.metadata else None,
        )
        if foo.status == status:
            return
        # Objects from the cache are shared: change a copy.
        self.foos.samplecontroller_kgen_dev_v1alpha1.foos(self._namespace(foo)).update_status(
            msgspec.structs.replace(foo, status=status)
        )

    @staticmethod
    def _namespace(obj: Foo | Deployment) -> str:
        return obj.metadata.namespace if obj.metadata and isinstance(obj.metadata.namespace, str) else "default"

    @staticmethod
    def _is_controlled_by(deployment: Deployment, foo: Foo) -> bool:
        uid = foo.metadata.uid if foo.metadata else None
        refs = deployment.metadata.owner_references if deployment.metadata else None
        return any(ref.controller and ref.uid == uid for ref in refs or [])

    @staticmethod
    def _deployment_for(foo: Foo, base: Deployment | None = None) -> Deployment:
        assert foo.metadata and foo.spec and isinstance(foo.spec.deployment_name, str)
        labels = {"app": "nginx", "controller": str(foo.metadata.name)}
        owner = OwnerReference(
            api_version=Foo.API_VERSION or "", kind="Foo", name=str(foo.metadata.name), uid=str(foo.metadata.uid),
            controller=True, block_owner_deletion=True,
        )
        spec = DeploymentSpec(
            replicas=foo.spec.replicas if isinstance(foo.spec.replicas, int) else 1,
            selector=LabelSelector(match_labels=labels),
            template=PodTemplateSpec(
                metadata=ObjectMeta(labels=labels),
                spec=PodSpec(containers=[Container(name="nginx", image="nginx:latest")]),
            ),
        )
        metadata = ObjectMeta(name=foo.spec.deployment_name, namespace=foo.metadata.namespace, owner_references=[owner])
        if base is not None and base.metadata:
            metadata = msgspec.structs.replace(base.metadata, owner_references=[owner])
        return Deployment(metadata=metadata, spec=spec)
