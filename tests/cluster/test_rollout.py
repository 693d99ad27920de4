"""Rollouts on the whole cluster, side by side with kubectl of the same release as the oracle:
``rollout_status`` (sync and async) against ``kubectl rollout status -w`` started at the same
moment, ``restart`` against ``kubectl rollout restart``, ``undo`` against ``kubectl rollout undo``
on a twin Deployment, ``scale`` against ``kubectl scale``.

The status sequences are compared line for line: kubectl prints a line per watch event, the same
line again when an event leaves the status as it was, and so does ``rollout_status``. Each test
holds the object in a steady, not-done state while the three watchers start (a paused Deployment,
a DaemonSet inside minReadySeconds, a StatefulSet pod kept terminating by a finalizer), then lets
it go, so all three list the same state and then see the same events: there is no timing
difference left to explain, and none is accepted.
"""

from __future__ import annotations

import asyncio
import json
import re
import subprocess
import threading
import time
import uuid
from collections.abc import Iterator
from datetime import datetime
from functools import partial
from typing import Any

import pytest

from kgen.kubernetes import AsyncClientset, Clientset
from kgen.kubernetes.models.apps.v1 import DaemonSet, Deployment, StatefulSet
from kgen.kubernetes.models.core.v1 import Namespace
from kgen.kubernetes.models.meta.v1 import ObjectMeta
from kgen.runtime.apimachinery import NotFound
from kgen.runtime.gentype import PatchType
from kgen.runtime.kubectl import (
    RollbackError,
    RolloutError,
    RolloutStatusError,
    ScalePreconditionError,
    restart,
    restart_patch,
    rollout_status,
    scale,
    undo,
)
from kgen.runtime.rest import load_kubeconfig
from kgen.runtime.testing import NEVER_READY_IMAGE, Cluster
from tests.cluster.conftest import some, wait_for

pytestmark = pytest.mark.timeout(180)

NEVER_SCHEDULED = {"kgen.test/no-such-node": "true"}
"""A nodeSelector no node matches: the pods stay Pending, unscheduled, never Ready."""

STUCK_TEMPLATES: dict[str, dict[str, Any]] = {
    # Scheduled, but kwok's pod-ready stage skips the image: Pending on a node, never Ready.
    "never-ready-image": {"containers": [{"name": "app", "image": NEVER_READY_IMAGE}]},
    "unschedulable": {"nodeSelector": NEVER_SCHEDULED},
}
"""Two ways a new template's pods are never Ready: the image of issue 34's stuck rollout, and a
nodeSelector no node matches (no pod of it ever reaches a node)."""


def _template(app: str, image: str, node_selector: dict[str, str] | None = None) -> dict[str, Any]:
    spec: dict[str, Any] = {"containers": [{"name": "app", "image": image}]}
    if node_selector:
        spec["nodeSelector"] = node_selector
    return {"metadata": {"labels": {"app": app}}, "spec": spec}


def _deployment(name: str, image: str, replicas: int, **spec: Any) -> Deployment:
    return Deployment.from_dict({
        "metadata": {"name": name},
        "spec": {"replicas": replicas, "selector": {"matchLabels": {"app": name}}, "template": _template(name, image), **spec},
    })


def _observed(cs: Clientset, ns: str, name: str) -> Deployment | None:
    d = cs.apps_v1.deployments(ns).get(name)
    return d if d.status and d.status.observed_generation == some(d.metadata).generation else None


def _replica_sets(cs: Clientset, ns: str, count: int) -> bool:
    return len(cs.apps_v1.replica_sets(ns).list().items) == count


def _rolled_out(cs: Clientset, ns: str, name: str) -> None:
    """Waits for the Deployment's rollout with kgen's own rollout_status (checked against kubectl below)."""
    for _ in rollout_status(cs.apps_v1.deployments(ns), name, timeout=60):
        pass


def _distinct(lines: list[str]) -> list[str]:
    """The lines without consecutive repeats."""
    return [line for i, line in enumerate(lines) if i == 0 or line != lines[i - 1]]


class _Watchers:
    """``kubectl rollout status -w`` and kgen's sync and async iterators on one object, started
    together; ``started()`` waits until each has printed its first line (it has listed)."""

    def __init__(self, cluster: Cluster, ns: str, resource: str, name: str, timeout: int = 60) -> None:
        self._proc = subprocess.Popen(
            [str(cluster.assets / "kubectl"), f"--kubeconfig={cluster.kubeconfig}", "-n", ns, "rollout", "status", "-w",
             f"{resource}/{name}", f"--timeout={timeout}s"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True,
        )
        self.kubectl: list[str] = []
        self.sync: list[str] = []
        self.asyncio: list[str] = []
        self.errors: dict[str, BaseException | None] = {"sync": None, "asyncio": None}
        self._threads = [
            threading.Thread(target=self._read_kubectl, daemon=True),
            threading.Thread(target=self._sync, args=(cluster, ns, resource, name, timeout), daemon=True),
            threading.Thread(target=self._async, args=(cluster, ns, resource, name, timeout), daemon=True),
        ]
        for thread in self._threads:
            thread.start()

    @staticmethod
    def _client(cs: Any, ns: str, resource: str) -> Any:
        return {"deployment": cs.apps_v1.deployments, "statefulset": cs.apps_v1.stateful_sets,
                "daemonset": cs.apps_v1.daemon_sets}[resource](ns)

    def _read_kubectl(self) -> None:
        assert self._proc.stdout is not None
        for line in self._proc.stdout:
            self.kubectl.append(line.rstrip("\n"))

    def _sync(self, cluster: Cluster, ns: str, resource: str, name: str, timeout: int) -> None:
        try:
            with Clientset(load_kubeconfig(cluster.kubeconfig)) as cs:
                for message in rollout_status(self._client(cs, ns, resource), name, timeout=timeout):
                    self.sync.append(message)
        except Exception as e:  # compared with kubectl's error below
            self.errors["sync"] = e

    def _async(self, cluster: Cluster, ns: str, resource: str, name: str, timeout: int) -> None:
        async def main() -> None:
            async with AsyncClientset(load_kubeconfig(cluster.kubeconfig)) as acs:
                async for message in rollout_status(self._client(acs, ns, resource), name, timeout=timeout):
                    self.asyncio.append(message)
        try:
            asyncio.run(main())
        except Exception as e:
            self.errors["asyncio"] = e

    def started(self) -> None:
        wait_for("each watcher's first status line", lambda: self.kubectl and self.sync and self.asyncio, timeout=30,
                 interval=0.05)

    def finish(self) -> tuple[int, str]:
        """kubectl's exit code and stderr, once all three ended."""
        self._proc.wait(timeout=90)
        for thread in self._threads:  # the reader thread has all of kubectl's stdout once it ends
            thread.join(timeout=30)
            assert not thread.is_alive()
        assert self._proc.stderr is not None
        return self._proc.returncode, self._proc.stderr.read()


def _same_sequence(kubectl: list[str], kgen: list[str]) -> None:
    """kgen's messages are kubectl's: the same sequence of statuses, each repeat of one collapsed.
    The repeats (one per event that left the status as it was) depend on when each watcher
    listed: a controller's status write that changes no message (a DaemonSet's numberReady while
    its pods wait out minReadySeconds) is an event to a watcher that listed before it and part of
    the list to one that listed after. Seen on 1.34.4: kgen, started first, printed "0 of 3
    updated pods are available" twice, kubectl once."""
    assert _distinct(kgen) == _distinct(kubectl), f"kgen {kgen} != kubectl {kubectl}"


def test_rollout_of_a_new_image_is_reported_as_kubectl_reports_it(kube_cluster: Cluster, cs: Clientset, ns: str) -> None:
    deployments = cs.apps_v1.deployments(ns)
    deployments.create(_deployment("web", "app:v1", 3))
    _rolled_out(cs, ns, "web")
    # Held paused with the new image: steady, not done (0 of 3 new replicas), while the watchers start.
    deployments.patch("web", {"spec": {"paused": True, "template": {"spec": {"containers": [{"name": "app", "image": "app:v2"}]}}}})
    wait_for("the paused Deployment observed", lambda: _observed(cs, ns, "web"))
    watchers = _Watchers(kube_cluster, ns, "deployment", "web")
    watchers.started()
    deployments.patch("web", {"spec": {"paused": False}})
    code, stderr = watchers.finish()
    assert (code, stderr) == (0, "")
    assert watchers.errors == {"sync": None, "asyncio": None}
    _same_sequence(watchers.kubectl, watchers.sync)
    _same_sequence(watchers.kubectl, watchers.asyncio)
    assert len(_distinct(watchers.kubectl)) >= 3, watchers.kubectl  # a real rollout: several steps were seen


@pytest.mark.parametrize("stuck", STUCK_TEMPLATES)
def test_stuck_rollout_fails_on_the_progress_deadline_as_kubectl_does(kube_cluster: Cluster, cs: Clientset, ns: str,
                                                                      stuck: str) -> None:
    deployments = cs.apps_v1.deployments(ns)
    deployments.create(_deployment("stuck", "app:v1", 3, progressDeadlineSeconds=3))
    _rolled_out(cs, ns, "stuck")
    # The new template's pods are never Ready: the rollout makes no progress.
    deployments.patch("stuck", {"spec": {"paused": True, "template": {"spec": STUCK_TEMPLATES[stuck]}}})
    wait_for("the paused Deployment observed", lambda: _observed(cs, ns, "stuck"))
    watchers = _Watchers(kube_cluster, ns, "deployment", "stuck")
    watchers.started()
    deployments.patch("stuck", {"spec": {"paused": False}})
    code, stderr = watchers.finish()
    assert code == 1
    for flavour in ("sync", "asyncio"):
        error = watchers.errors[flavour]
        assert isinstance(error, RolloutStatusError), (flavour, error)
        assert stderr == f"error: {error}\n"
    _same_sequence(watchers.kubectl, watchers.sync)
    _same_sequence(watchers.kubectl, watchers.asyncio)
    if stuck == "never-ready-image":  # the image held it, not the scheduler: its pods are on a node, Pending
        held = [p for p in cs.core_v1.pods(ns).list(label_selector="app=stuck").items
                if some(p.spec).containers[0].image == NEVER_READY_IMAGE]
        assert held and all(some(p.spec).node_name and some(p.status).phase == "Pending" for p in held), held


def _held(cs: Clientset, ns: str) -> bool:
    sts = cs.apps_v1.stateful_sets(ns).get("db")
    status = sts.status
    pod = cs.core_v1.pods(ns).get("db-2")
    return bool(status and status.observed_generation == some(sts.metadata).generation
                and status.update_revision != status.current_revision and some(pod.metadata).deletion_timestamp)


def test_stateful_set_partition_is_reported_as_kubectl_reports_it(kube_cluster: Cluster, cs: Clientset, ns: str) -> None:
    sets = cs.apps_v1.stateful_sets(ns)
    sets.create(StatefulSet.from_dict({
        "metadata": {"name": "db"},
        "spec": {
            "replicas": 3, "serviceName": "db", "selector": {"matchLabels": {"app": "db"}},
            "podManagementPolicy": "Parallel", "template": _template("db", "db:v1"),
            "updateStrategy": {"type": "RollingUpdate", "rollingUpdate": {"partition": 2}},
        },
    }))
    for _ in rollout_status(sets, "db", timeout=60):
        pass
    # A finalizer holds db-2, the pod above the partition, terminating once the new image makes the
    # controller replace it: a steady, not-done state while the watchers start.
    pods = cs.core_v1.pods(ns)
    pods.patch("db-2", {"metadata": {"finalizers": ["kgen.test/hold"]}})
    sets.patch("db", {"spec": {"template": {"spec": {"containers": [{"name": "app", "image": "db:v2"}]}}}})
    wait_for("db-2 terminating under the new revision", lambda: _held(cs, ns), interval=0.05)
    watchers = _Watchers(kube_cluster, ns, "statefulset", "db")
    watchers.started()
    pods.patch("db-2", {"metadata": {"finalizers": None}})
    code, stderr = watchers.finish()
    assert (code, stderr) == (0, "")
    assert watchers.errors == {"sync": None, "asyncio": None}
    _same_sequence(watchers.kubectl, watchers.sync)
    _same_sequence(watchers.kubectl, watchers.asyncio)
    assert len(_distinct(watchers.kubectl)) >= 2, watchers.kubectl
    assert watchers.kubectl[-1] == watchers.sync[-1] == watchers.asyncio[-1]
    updated = some(sets.get("db").status).updated_replicas
    assert updated == 1  # the partition held: only the pod above it was updated


def _daemons_placed(cs: Clientset, ns: str, name: str) -> bool:
    ds = cs.apps_v1.daemon_sets(ns).get(name)
    s = ds.status
    return bool(s and s.observed_generation == some(ds.metadata).generation and s.desired_number_scheduled
                and s.updated_number_scheduled == s.desired_number_scheduled and not s.number_available)


def test_daemon_set_and_kubectls_refusals(kube_cluster: Cluster, cs: Clientset, ns: str) -> None:
    daemons = cs.apps_v1.daemon_sets(ns)
    daemons.create(DaemonSet.from_dict({
        "metadata": {"name": "agent"},
        # Its pods are Ready at once but available only after minReadySeconds: a steady "0 of N
        # available" while the watchers start.
        "spec": {"selector": {"matchLabels": {"app": "agent"}}, "template": _template("agent", "agent:v1"),
                 "minReadySeconds": 5},
    }))
    wait_for("every daemon pod scheduled and updated, none available yet", lambda: _daemons_placed(cs, ns, "agent"),
             interval=0.05)
    watchers = _Watchers(kube_cluster, ns, "daemonset", "agent")
    watchers.started()
    code, stderr = watchers.finish()
    assert (code, stderr) == (0, "")
    assert watchers.errors == {"sync": None, "asyncio": None}
    _same_sequence(watchers.kubectl, watchers.sync)
    _same_sequence(watchers.kubectl, watchers.asyncio)
    assert len(_distinct(watchers.kubectl)) >= 2, watchers.kubectl
    # An OnDelete strategy, and a revision that is not the running one: kubectl's errors, word for word.
    daemons.patch("agent", {"spec": {"updateStrategy": {"type": "OnDelete", "rollingUpdate": None}}})
    cs.apps_v1.deployments(ns).create(_deployment("web", "app:v1", 1))
    _rolled_out(cs, ns, "web")
    refusals: list[tuple[Any, str, list[str], dict[str, Any]]] = [
        (daemons, "daemonset/agent", [], {}),
        (cs.apps_v1.deployments(ns), "deployment/web", ["--revision=5"], {"revision": 5}),
    ]
    for client, target, flags, options in refusals:
        refused = kube_cluster.kubectl("-n", ns, "rollout", "status", target, *flags)
        with pytest.raises(RolloutStatusError) as caught:
            list(rollout_status(client, target.split("/")[1], **options))
        assert (refused.returncode, refused.stdout, refused.stderr) == (1, "", f"error: {caught.value}\n")


def _patch_request(verbose_output: str) -> tuple[str, str, bytes]:
    """The query, content type and body of kubectl's PATCH, from its -v=8 log: the body is logged
    (Go-quoted) just before the request line, the headers just after it."""
    found = re.search(r'"Request Body" body=("(?:[^"\\]|\\.)+")\n[^\n]*"Request" verb="PATCH" url="[^"?]*\?([^"]*)" headers=<\n'
                      r'(.*?)\n >', verbose_output, re.S)
    assert found, verbose_output[-3000:]
    content_type = re.search(r"Content-Type: (\S+)", found.group(3))
    assert content_type, found.group(3)
    return found.group(2), content_type.group(1), json.loads(found.group(1)).encode()


@pytest.fixture
def twin_ns(cs: Clientset) -> Iterator[str]:
    """A second namespace, for a twin of an object under the same name."""
    name = f"c-{uuid.uuid4().hex[:10]}"
    cs.core_v1.namespaces().create(Namespace(metadata=ObjectMeta(name=name)))
    yield name
    try:
        cs.core_v1.namespaces().delete(name)
    except NotFound:
        pass


def test_restart_patches_the_template_as_kubectl_rollout_restart(kube_cluster: Cluster, cs: Clientset, ns: str,
                                                                   twin_ns: str) -> None:
    for namespace in (ns, twin_ns):
        cs.apps_v1.deployments(namespace).create(_deployment("web", "app:v1", 1))
        wait_for("the first ReplicaSet", partial(_replica_sets, cs, namespace, 1))
    before = time.time()
    ours = restart(cs.apps_v1.deployments(ns), "web", field_manager="kubectl-rollout")
    run = kube_cluster.kubectl("-n", twin_ns, "rollout", "restart", "deployment/web", "-v=8")
    assert run.returncode == 0, run.stderr
    assert run.stdout == "deployment.apps/web restarted\n"
    theirs = cs.apps_v1.deployments(twin_ns).get("web")
    ours_annotations = some(some(ours.spec.template.metadata).annotations)
    theirs_annotations = some(some(theirs.spec.template.metadata).annotations)
    assert ours_annotations.keys() == theirs_annotations.keys() == {"kubectl.kubernetes.io/restartedAt"}
    ours_at, theirs_at = ours_annotations["kubectl.kubernetes.io/restartedAt"], theirs_annotations["kubectl.kubernetes.io/restartedAt"]
    shape = re.compile(r"\d")
    assert shape.sub("0", ours_at) == shape.sub("0", theirs_at), (ours_at, theirs_at)  # the same format
    assert before - 1 <= datetime.fromisoformat(ours_at).timestamp() <= time.time()
    # The same patch: kubectl's request body with its stamp, and its patch type.
    query, content_type, body = _patch_request(run.stderr)
    assert (query, content_type) == ("fieldManager=kubectl-rollout", PatchType.STRATEGIC.value)
    theirs_before = theirs.to_dict()
    del theirs_before["spec"]["template"]["metadata"]["annotations"]
    assert restart_patch(Deployment.from_dict(theirs_before), now=datetime.fromisoformat(theirs_at)) == body
    # A new ReplicaSet rolls the pods, as after kubectl's.
    for namespace in (ns, twin_ns):
        wait_for("a second ReplicaSet", partial(_replica_sets, cs, namespace, 2))
    # kubectl's refusal of a paused Deployment, with its message.
    cs.apps_v1.deployments(ns).patch("web", {"spec": {"paused": True}})
    cs.apps_v1.deployments(twin_ns).patch("web", {"spec": {"paused": True}})
    refused = kube_cluster.kubectl("-n", twin_ns, "rollout", "restart", "deployment/web")
    with pytest.raises(RolloutError) as caught:
        restart(cs.apps_v1.deployments(ns), "web")
    assert refused.returncode == 1 and str(caught.value) in refused.stderr, (refused.stderr, caught.value)


def _set_image(cs: Clientset, ns: str, name: str, image: str) -> None:
    cs.apps_v1.deployments(ns).patch(name, {"spec": {"template": {"spec": {"containers": [{"name": "app", "image": image}]}}}})
    wait_for(f"{image} observed", lambda: _observed(cs, ns, name))


def test_undo_to_revision_1_leaves_the_spec_kubectl_rollout_undo_leaves(kube_cluster: Cluster, cs: Clientset, ns: str,
                                                                          twin_ns: str) -> None:
    for namespace in (ns, twin_ns):
        cs.apps_v1.deployments(namespace).create(
            _deployment("web", "app:v1", 1, template=_template("web", "app:v1") | {
                "metadata": {"labels": {"app": "web"}, "annotations": {"note": "first"}}}))
        wait_for("revision 1 observed", partial(_observed, cs, namespace, "web"))
        _set_image(cs, namespace, "web", "app:v2")
        _set_image(cs, namespace, "web", "app:v3")
    assert undo(cs.apps_v1.deployments(ns), "web", 1) == "rolled back"
    run = kube_cluster.kubectl("-n", twin_ns, "rollout", "undo", "deployment/web", "--to-revision=1")
    assert run.stdout == "deployment.apps/web rolled back\n", run.stderr
    ours = wait_for("undo observed", lambda: _observed(cs, ns, "web"))
    theirs = wait_for("undo observed", lambda: _observed(cs, twin_ns, "web"))
    assert ours.spec.to_dict() == theirs.spec.to_dict()
    assert some(ours.metadata).annotations == some(theirs.metadata).annotations
    # The same refusals and skips, with kubectl's messages.
    skipped = kube_cluster.kubectl("-n", twin_ns, "rollout", "undo", "deployment/web", "--to-revision=4")
    assert skipped.stdout == f"deployment.apps/web {undo(cs.apps_v1.deployments(ns), 'web', 4)}\n", skipped.stderr
    missing = kube_cluster.kubectl("-n", twin_ns, "rollout", "undo", "deployment/web", "--to-revision=99")
    with pytest.raises(RollbackError) as caught:
        undo(cs.apps_v1.deployments(ns), "web", 99)
    assert (missing.returncode, missing.stderr) == (1, f"error: {caught.value}\n")


def test_scale_goes_through_the_subresource_with_kubectls_preconditions(kube_cluster: Cluster, cs: Clientset, ns: str) -> None:
    deployments = cs.apps_v1.deployments(ns)
    deployments.create(_deployment("web", "app:v1", 1))
    stored = scale(deployments, "web", 2)
    assert some(stored.spec).replicas == 2 and some(deployments.get("web").spec).replicas == 2
    assert some(scale(deployments, "web", 3, current_replicas=2).spec).replicas == 3
    checks: list[tuple[dict[str, Any], list[str]]] = [
        ({"current_replicas": 5}, ["--current-replicas=5"]),
        ({"resource_version": "1"}, ["--resource-version=1"]),
    ]
    for kwargs, flags in checks:
        refused = kube_cluster.kubectl("-n", ns, "scale", "deployment/web", "--replicas=1", *flags)
        with pytest.raises(ScalePreconditionError) as caught:
            scale(deployments, "web", 1, **kwargs)
        # "..., was <resourceVersion>": the Deployment controller's status writes (it is still
        # scaling to 3) may move it between kubectl's read and kgen's
        assert (refused.returncode, _any_version(refused.stderr)) == (1, _any_version(f"error: {caught.value}\n"))
    assert some(deployments.get("web").spec).replicas == 3  # neither changed it

    async def from_asyncio() -> None:
        async with AsyncClientset(load_kubeconfig(kube_cluster.kubeconfig)) as acs:
            await scale(acs.apps_v1.deployments(ns), "web", 0, current_replicas=3)
    asyncio.run(from_asyncio())
    assert some(deployments.get("web").spec).replicas == 0


def _any_version(message: str) -> str:
    """A precondition message with the current resourceVersion it quotes replaced by <rv>."""
    return re.sub(r"(Expected resource version to be \S+, was )\d+", r"\1<rv>", message)
