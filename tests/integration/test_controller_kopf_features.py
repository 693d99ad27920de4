"""What the level-based toolkit gives kopf users and controller-runtime's hub-and-spoke conversion,
on the real apiserver, on both flavours (threads and asyncio) where the code has both.

- **Conversion through a hub**: a three-version CRD (v1, v2, v3; ``Hub`` in the middle, v2;
  stored as v1, a spoke, so that the apiserver asks for spoke-to-spoke conversions too) served by
  a manager's ``/convert`` (``webhook_managed_by(...).with_hub_and_spokes(...)``). Created at v3
  and stored as v1 (v3 → v2 → v1), read back at v3 and v2, created at v2: the apiserver's answer
  is the oracle, and the conversions' calls show every spoke-to-spoke one went through the hub.
- **diff on real objects**: the changes between two versions of a Deployment as the server
  stored them, turned into a JSON patch and applied by the server to the first, give the second.
- **every()**: a reconciler returning ``every(interval, jitter=)`` is called again and again, each
  time within interval ± jitter of the last (with a scheduling allowance).
- **Daemon**: a body runs per object while it exists; deleting the object, or stopping the
  manager, sets its stop signal and the body returns.
"""

from __future__ import annotations

import asyncio
import base64
import itertools
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

from kgen.controller import (
    AsyncManager,
    Manager,
    Request,
    Result,
    async_controller_managed_by,
    controller_managed_by,
    webhook_managed_by,
)
from kgen.kubernetes import Clientset
from kgen.kubernetes.models.apps.v1 import Deployment, DeploymentSpec
from kgen.kubernetes.models.core.v1 import ConfigMap, Container, EnvVar, PodSpec, PodTemplateSpec
from kgen.kubernetes.models.meta.v1 import LabelSelector, ObjectMeta
from kgen.runtime.apimachinery import Model
from kgen.runtime.controller.patterns.daemon import AsyncDaemon, Daemon
from kgen.runtime.controller.patterns.diff import Change, diff
from kgen.runtime.controller.patterns.timers import every
from kgen.runtime.gentype import PatchType
from kgen.runtime.testing import KubeAPIServer
from kgen.webhook.conversion import Hub
from tests.support.apiserver import CRDS, install_crd, unthrottled_config, wait_for
from tests.support.controller.running import running_in_thread
from tests.support.webhook.certs import write_pair

pytestmark = pytest.mark.integration

RUN = uuid.uuid4().hex[:6]
GROUP = f"kopf{RUN}.kgen.test"

Flavour = type[Manager] | type[AsyncManager]
FLAVOURS = pytest.mark.parametrize("flavour", [Manager, AsyncManager], ids=["threads", "asyncio"])


@contextmanager
def running(manager: Manager | AsyncManager) -> Iterator[threading.Thread]:
    """``manager`` started on a thread (an event loop of its own for the asyncio one), stopped and
    joined at the end; yields the thread once the manager leads."""
    with running_in_thread(manager) as thread:
        assert manager.elected.wait(30), "the manager never started its controllers"
        yield thread


# -- conversion through a hub ----------------------------------------------------------------------

CALLS: list[str] = []  # each conversion step, as "<model>.<method>"


class GadgetSpecV1(Model, kw_only=True):
    size: int


class GadgetSpecV2(Model, kw_only=True):
    replicas: int
    unit: str


class GadgetScale(Model, kw_only=True):
    count: int
    unit: str


class GadgetSpecV3(Model, kw_only=True):
    scale: GadgetScale


class GadgetV2(Model, Hub, kw_only=True):
    """The hub: v1 and v3 convert to and from it."""

    API_VERSION = f"{GROUP}/v2"
    KIND = "Gadget"
    metadata: ObjectMeta | None = None
    spec: GadgetSpecV2 | None = None


UNIT = f"{GROUP}/unit"  # v1 has no unit: it keeps the hub's in an annotation, as kubebuilder projects do


class GadgetV1(Model, kw_only=True):
    API_VERSION = f"{GROUP}/v1"
    KIND = "Gadget"
    metadata: ObjectMeta | None = None
    spec: GadgetSpecV1 | None = None

    def convert_to(self) -> GadgetV2:
        CALLS.append("GadgetV1.convert_to")
        annotations = dict(self.metadata.annotations or {}) if self.metadata else {}
        unit = annotations.pop(UNIT, "pods")
        metadata = ObjectMeta.from_dict({**(self.metadata.to_dict() if self.metadata else {}), "annotations": annotations or None})
        spec = GadgetSpecV2(replicas=self.spec.size, unit=unit) if self.spec else None
        return GadgetV2(metadata=metadata, spec=spec)

    @classmethod
    def convert_from(cls, hub: GadgetV2) -> GadgetV1:
        CALLS.append("GadgetV1.convert_from")
        metadata = hub.metadata.to_dict() if hub.metadata else {}
        if hub.spec is not None:
            metadata["annotations"] = {**metadata.get("annotations", {}), UNIT: hub.spec.unit}
        return cls(metadata=ObjectMeta.from_dict(metadata), spec=GadgetSpecV1(size=hub.spec.replicas) if hub.spec else None)


class GadgetV3(Model, kw_only=True):
    API_VERSION = f"{GROUP}/v3"
    KIND = "Gadget"
    metadata: ObjectMeta | None = None
    spec: GadgetSpecV3 | None = None

    def convert_to(self) -> GadgetV2:
        CALLS.append("GadgetV3.convert_to")
        spec = GadgetSpecV2(replicas=self.spec.scale.count, unit=self.spec.scale.unit) if self.spec else None
        return GadgetV2(metadata=self.metadata, spec=spec)

    @classmethod
    def convert_from(cls, hub: GadgetV2) -> GadgetV3:
        CALLS.append("GadgetV3.convert_from")
        spec = GadgetSpecV3(scale=GadgetScale(count=hub.spec.replicas, unit=hub.spec.unit)) if hub.spec else None
        return cls(metadata=hub.metadata, spec=spec)


def gadget_crd(url: str, ca_bundle: str) -> dict[str, Any]:
    def version(name: str, spec: dict[str, Any]) -> dict[str, Any]:
        return {"name": name, "served": True, "storage": name == "v1", "schema": {"openAPIV3Schema": {
            "type": "object", "properties": {"spec": {"type": "object", "properties": spec}}}}}

    integer, string = {"type": "integer"}, {"type": "string"}
    return {
        "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
        "metadata": {"name": f"gadgets.{GROUP}"},
        "spec": {
            "group": GROUP, "scope": "Namespaced",
            "names": {"plural": "gadgets", "singular": "gadget", "kind": "Gadget", "listKind": "GadgetList"},
            "versions": [
                version("v1", {"size": integer}),
                version("v2", {"replicas": integer, "unit": string}),
                version("v3", {"scale": {"type": "object", "properties": {"count": integer, "unit": string}}}),
            ],
            "conversion": {"strategy": "Webhook", "webhook": {
                "conversionReviewVersions": ["v1"], "clientConfig": {"url": url, "caBundle": ca_bundle}}},
        },
    }


@pytest.fixture
def cert_dir(kube_apiserver: KubeAPIServer, tmp_path: Path) -> Path:
    write_pair(kube_apiserver.issue_serving_cert(["127.0.0.1"]), tmp_path)
    return tmp_path


@contextmanager
def gadgets_served_by(admin: httpx.Client, kube_apiserver: KubeAPIServer, port: int) -> Iterator[None]:
    """The Gadget CRD, its conversion webhook at 127.0.0.1:<port>/convert, until the end."""
    crd = gadget_crd(f"https://127.0.0.1:{port}/convert", base64.b64encode(kube_apiserver.ca_pem).decode())
    install_crd(admin, crd)
    try:
        yield
    finally:
        admin.delete(f"{CRDS}/{crd['metadata']['name']}")
        wait_for(lambda: admin.get(f"{CRDS}/{crd['metadata']['name']}").status_code == 404)


@FLAVOURS
def test_a_three_version_crd_converts_through_the_hub(
    kube_apiserver: KubeAPIServer, admin: httpx.Client, namespace: str, cert_dir: Path, flavour: Flavour,
) -> None:
    manager = flavour(unthrottled_config(kube_apiserver), webhook_host="127.0.0.1", webhook_port=0,
                      webhook_cert_dir=cert_dir)
    webhook_managed_by(manager).for_(GadgetV1).with_hub_and_spokes(GadgetV2, GadgetV3).complete()
    with running(manager), gadgets_served_by(admin, kube_apiserver, manager.webhook_server.port):
        base = f"/apis/{GROUP}/{{}}/namespaces/{namespace}/gadgets"
        # Served once a list at a spoke the storage is not answers (Established comes first).
        wait_for(lambda: admin.get(base.format("v3")).status_code == 200)
        CALLS.clear()
        created = admin.post(base.format("v3"), json={
            "apiVersion": f"{GROUP}/v3", "kind": "Gadget", "metadata": {"name": "g", "labels": {"a": "b"}},
            "spec": {"scale": {"count": 3, "unit": "nodes"}}})
        assert created.status_code == 201, created.text
        assert created.json()["spec"] == {"scale": {"count": 3, "unit": "nodes"}}  # v3 → v1 (stored) → v3
        # Every v3 → v1 went through the hub, and back: spoke → hub → spoke, never directly.
        assert CALLS[:2] == ["GadgetV3.convert_to", "GadgetV1.convert_from"], CALLS
        as_v1 = admin.get(base.format("v1") + "/g").json()  # as stored: no conversion
        assert as_v1["spec"] == {"size": 3} and as_v1["metadata"]["annotations"] == {UNIT: "nodes"}
        assert as_v1["metadata"]["labels"] == {"a": "b"}
        as_v2 = admin.get(base.format("v2") + "/g").json()  # spoke → hub
        assert as_v2["apiVersion"] == f"{GROUP}/v2" and as_v2["spec"] == {"replicas": 3, "unit": "nodes"}
        assert "annotations" not in as_v2["metadata"]
        CALLS.clear()
        as_v3 = admin.get(base.format("v3") + "/g").json()  # v1 → v2 → v3
        assert as_v3["spec"] == {"scale": {"count": 3, "unit": "nodes"}}
        assert CALLS == ["GadgetV1.convert_to", "GadgetV3.convert_from"], CALLS
        created_v2 = admin.post(base.format("v2"), json={
            "apiVersion": f"{GROUP}/v2", "kind": "Gadget", "metadata": {"name": "h"}, "spec": {"replicas": 5, "unit": "pods"}})
        assert created_v2.status_code == 201, created_v2.text  # hub → v1 (stored) → hub
        listed = admin.get(base.format("v3")).json()
        assert {i["metadata"]["name"]: i["spec"] for i in listed["items"]} == {
            "g": {"scale": {"count": 3, "unit": "nodes"}}, "h": {"scale": {"count": 5, "unit": "pods"}}}


# -- diff on real objects ------------------------------------------------------------------------


def test_the_diff_of_two_stored_deployments_is_what_the_server_applies(kube_apiserver: KubeAPIServer, namespace: str) -> None:
    """Deployment ``a`` is updated (image, replicas, an env var, a label, a container removed); the
    changes between its two stored states, as a JSON patch, are sent for ``b``, created as ``a``
    was: the server's result has ``a``'s new spec. The server is the oracle of what the changes mean."""
    def spec(image: str, replicas: int, env: list[EnvVar] | None, sidecar: bool) -> DeploymentSpec:
        containers = [Container(name="web", image=image, env=env)] + ([Container(name="log", image="busybox")] if sidecar else [])
        return DeploymentSpec(
            replicas=replicas, selector=LabelSelector(match_labels={"app": "web"}),
            template=PodTemplateSpec(metadata=ObjectMeta(labels={"app": "web"}), spec=PodSpec(containers=containers)),
        )

    with Clientset(unthrottled_config(kube_apiserver)) as cs:
        deployments = cs.apps_v1.deployments(namespace)
        old = deployments.create(Deployment(metadata=ObjectMeta(name="a"), spec=spec("nginx:1", 1, None, True)))
        b = deployments.create(Deployment(metadata=ObjectMeta(name="b"), spec=spec("nginx:1", 1, None, True)))
        assert old.metadata is not None
        changed = Deployment(metadata=old.metadata, spec=spec("nginx:2", 3, [EnvVar(name="MODE", value="fast")], False))
        assert changed.spec is not None and changed.spec.template is not None and changed.spec.template.metadata is not None
        changed.spec.template.metadata.labels = {"app": "web", "app.kubernetes.io/version": "2"}
        new = deployments.update(changed)
        changes = diff(old, new, ignore_metadata=True, ignore_status=True)
        assert {c.dotted for c in changes} >= {
            "spec.replicas", "spec.template.spec.containers[0].image", "spec.template.spec.containers[0].env",
            "spec.template.spec.containers[1]", 'spec.template.metadata.labels["app.kubernetes.io/version"]',
        }, [c.dotted for c in changes]
        print(f"diff of the stored Deployments: {len(changes)} changes: {[c.dotted for c in changes]}")
        patched = deployments.patch("b", json_patch_of(changes), PatchType.JSON)
        assert patched.spec is not None and new.spec is not None and b.spec is not None
        assert patched.spec.to_dict() == new.spec.to_dict() != b.spec.to_dict()
        assert diff(new, patched, ignore_metadata=True, ignore_status=True) == []


def json_patch_of(changes: list[Change]) -> list[dict[str, Any]]:
    """The changes as RFC 6902 operations, one each, in order (``diff``'s documented reading)."""
    def pointer(path: tuple[str | int, ...]) -> str:
        return "".join("/" + str(t).replace("~", "~0").replace("/", "~1") for t in path)

    op = {"add": "add", "remove": "remove", "change": "replace"}
    return [{"op": op[c.op], "path": pointer(c.path)} | ({} if c.op == "remove" else {"value": c.new}) for c in changes]


# -- every(): a timer per object -----------------------------------------------------------------

INTERVAL, JITTER = 0.5, 0.1
ALLOWANCE = 0.5  # a worker's scheduling delay on a loaded machine; never early


def timer_calls(kube_apiserver: KubeAPIServer, namespace: str, flavour: Flavour, count: int) -> list[float]:
    """When a reconciler returning ``every(INTERVAL, jitter=JITTER)`` for one ConfigMap was called,
    its first ``count`` times."""
    calls: list[float] = []
    done = threading.Event()

    def record(request: Request) -> Result | None:
        if request.name != "tick":
            return None
        calls.append(time.monotonic())
        if len(calls) >= count:
            done.set()
            return None  # enough: the timer stops
        return every(INTERVAL, jitter=JITTER)

    async def arecord(request: Request) -> Result | None:
        return record(request)

    manager = flavour(unthrottled_config(kube_apiserver), namespace=namespace)
    if isinstance(manager, AsyncManager):
        async_controller_managed_by(manager).for_(ConfigMap).complete(arecord)
    else:
        controller_managed_by(manager).for_(ConfigMap).complete(record)
    with running(manager), Clientset(unthrottled_config(kube_apiserver)) as cs:
        cs.core_v1.config_maps(namespace).create(ConfigMap(metadata=ObjectMeta(name="tick")))
        assert done.wait(30), f"only {len(calls)} reconciles"
    return calls


@FLAVOURS
def test_every_brings_the_object_back_within_its_interval_and_jitter(
    kube_apiserver: KubeAPIServer, namespace: str, flavour: Flavour,
) -> None:
    calls = timer_calls(kube_apiserver, namespace, flavour, 6)
    gaps = [b - a for a, b in itertools.pairwise(calls)]
    print(f"every({INTERVAL}, jitter={JITTER}) on {flavour.__name__}: gaps {[round(g, 3) for g in gaps]}")
    assert all(INTERVAL - JITTER - 0.01 <= g <= INTERVAL + JITTER + ALLOWANCE for g in gaps), gaps


# -- Daemon: a thread or task per object ---------------------------------------------------------

class Journal:
    """What the daemons did, in order, and a condition to wait on it."""

    def __init__(self) -> None:
        self.entries: list[tuple[str, str]] = []
        self.attempts: dict[str, int] = {}
        self._cond = threading.Condition()

    def add(self, what: str, name: str) -> None:
        with self._cond:
            self.entries.append((what, name))
            self._cond.notify_all()

    def attempt(self, name: str) -> int:
        with self._cond:
            self.attempts[name] = self.attempts.get(name, 0) + 1
            return self.attempts[name]

    def wait_for(self, what: str, name: str, times: int = 1) -> None:
        with self._cond:
            assert self._cond.wait_for(lambda: self.entries.count((what, name)) >= times, 30), (what, name, self.entries)


def thread_body(journal: Journal) -> Any:
    def body(request: Request, stop: threading.Event) -> None:
        journal.add("started", request.name)
        if request.name == "flaky" and journal.attempt(request.name) == 1:
            raise RuntimeError("the first attempt fails")
        stop.wait()
        journal.add("stopped", request.name)

    return body


def async_body(journal: Journal) -> Any:
    async def body(request: Request, stop: asyncio.Event) -> None:
        journal.add("started", request.name)
        if request.name == "flaky" and journal.attempt(request.name) == 1:
            raise RuntimeError("the first attempt fails")
        await stop.wait()
        journal.add("stopped", request.name)

    return body


@FLAVOURS
def test_a_daemon_runs_while_its_object_exists_and_stops_with_it_or_the_manager(
    kube_apiserver: KubeAPIServer, namespace: str, flavour: Flavour,
) -> None:
    journal = Journal()
    manager = flavour(unthrottled_config(kube_apiserver), namespace=namespace)
    daemon: Daemon[ConfigMap] | AsyncDaemon[ConfigMap]
    if isinstance(manager, AsyncManager):
        daemon = AsyncDaemon(manager.client, ConfigMap, async_body(journal), backoff=0.2, graceful_timeout=10)
        controller: Any = daemon.setup_with_manager(manager)
    else:
        daemon = Daemon(manager.client, ConfigMap, thread_body(journal), backoff=0.2, graceful_timeout=10)
        controller = daemon.setup_with_manager(manager)
    assert controller.name == "configmap-daemon"
    with Clientset(unthrottled_config(kube_apiserver)) as cs:
        configmaps = cs.core_v1.config_maps(namespace)
        with running(manager):
            for name in ("a", "b", "flaky"):
                configmaps.create(ConfigMap(metadata=ObjectMeta(name=name, finalizers=["kgen.test/hold"] if name == "b" else None)))
            for name in ("a", "b"):
                journal.wait_for("started", name)
            journal.wait_for("started", "flaky", times=2)  # failed once, started again after the backoff
            configmaps.create(ConfigMap(metadata=ObjectMeta(name="a-later")))  # one more, while running
            journal.wait_for("started", "a-later")
            reconciled = controller.metrics.total.value("configmap-daemon", "success")
            configmaps.patch("a", {"metadata": {"labels": {"x": "y"}}})  # an update: reconciled, the daemon kept
            wait_for(lambda: controller.metrics.total.value("configmap-daemon", "success") > reconciled)
            assert journal.entries.count(("started", "a")) == 1
            configmaps.delete("a")
            journal.wait_for("stopped", "a")  # gone: stopped
            configmaps.delete("b")  # held by its finalizer: deletionTimestamp set, the object still there
            journal.wait_for("stopped", "b")
            assert configmaps.get("b").metadata.deletion_timestamp is not None  # type: ignore[union-attr]
            wait_for(lambda: [r.name for r in daemon.running()] == ["a-later", "flaky"])
        # The manager stopped: the others' stop signals were set and they returned.
        journal.wait_for("stopped", "flaky")
        journal.wait_for("stopped", "a-later")
        assert daemon.running() == []
        configmaps.patch("b", {"metadata": {"finalizers": None}})
