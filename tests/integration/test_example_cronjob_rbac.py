"""examples/cronjob runs as a user bound only to the role `kgen manifests` wrote from its ``@rbac``
markers (examples/cronjob/config/rbac/role.yaml), and each verb of that role is needed (issue 14).

The controller's identity is a ServiceAccount (what a controller runs as in a cluster) with a
token from the TokenRequest API, written into a kubeconfig the manager is built from; the
ClusterRole is the committed file's rules (drift-tested in tests/unit/test_example_cronjob_files.py)
bound to it by a ClusterRoleBinding. The test's own steps use the admin identity.

This module starts its own apiserver with the OwnerReferencesPermissionEnforcement admission
plugin on (OpenShift runs it; kube-apiserver's defaults do not): there, creating a Job whose
controller reference has blockOwnerDeletion needs ``update`` on ``cronjobs/finalizers``, so that
rule can be shown needed too.

- The full role: the tutorial's steps (tests/integration/test_example_cronjob.py) pass.
- The role minus one verb of one rule, for every verb of every rule: the apiserver's denial of
  exactly that verb on that resource reaches the controller: in a reconcile error, in the
  reflector's failed list or watch (the cache then never syncs or never hears of changes), or
  in the admission plugin's refusal. ``get`` on cronjobs is used only when the finalizer helper
  re-reads after a Conflict; the test makes the reconciler's first read stale (the CronJob is
  changed right after it), so that path is taken every run.
"""

from __future__ import annotations

import copy
import datetime as dt
import logging
import threading
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

import httpx
import pytest
import yaml

from examples.cronjob.client import Clientset as CronClientset
from examples.cronjob.client.models.batch_tutorial_kgen_dev.v1 import CronJob
from examples.cronjob.controller import FINALIZER, CronJobReconciler
from kgen.kubernetes import Clientset
from kgen.kubernetes.models.batch.v1 import Job, JobCondition, JobStatus
from kgen.runtime.apimachinery.errors import NotFound
from kgen.runtime.apimachinery.model import Model
from kgen.runtime.apimachinery.types import format_time
from kgen.runtime.controller import Client, Manager, contains_finalizer, controller_managed_by
from kgen.runtime.rest import Config, load_kubeconfig
from kgen.runtime.testing import KubeAPIServer
from kgen.runtime.tools.cache.reflector_state import WATCH_LIST_CLIENT_ENV
from tests.integration.test_example_cronjob import TestClock, cron_job, ensure_crd, next_hour, run_tutorial
from tests.support.controller.running import running_in_thread

pytestmark = pytest.mark.integration

ROLE = Path(__file__).resolve().parents[2] / "examples" / "cronjob" / "config" / "rbac" / "role.yaml"
RBAC = "/apis/rbac.authorization.k8s.io/v1"
T = TypeVar("T", bound=Model)

#: (group, resource, verb): one verb of one rule of the generated role.
Permission = tuple[str, str, str]


def generated_role() -> dict[str, Any]:
    [role] = list(yaml.safe_load_all(ROLE.read_text()))
    assert role["kind"] == "ClusterRole"
    return dict(role)


def permissions(role: dict[str, Any]) -> list[Permission]:
    return [(group, resource, verb) for rule in role["rules"] for group in rule["apiGroups"]
            for resource in rule["resources"] for verb in rule["verbs"]]


def without(role: dict[str, Any], removed: Permission) -> dict[str, Any]:
    """``role`` less one verb on one resource (a rule shared by several resources is split)."""
    out = copy.deepcopy(role)
    rules = []
    for rule in out["rules"]:
        group, resource, verb = removed
        if group not in rule["apiGroups"] or resource not in rule["resources"]:
            rules.append(rule)
            continue
        others = [r for r in rule["resources"] if r != resource]
        if others:
            rules.append({**rule, "resources": others})
        verbs = [v for v in rule["verbs"] if v != verb]
        if verbs:
            rules.append({**rule, "resources": [resource], "verbs": verbs})
    out["rules"] = rules
    assert len(permissions(out)) == len(permissions(role)) - 1
    return out


# -- the apiserver, the identity ------------------------------------------------------------------

@pytest.fixture(scope="module")
def server() -> Iterator[KubeAPIServer]:
    with KubeAPIServer(apiserver_flags=("--enable-admission-plugins=OwnerReferencesPermissionEnforcement",)) as s:
        yield s


@pytest.fixture(scope="module")
def root(server: KubeAPIServer) -> Iterator[httpx.Client]:
    with server.admin_client(timeout=30.0) as client:
        ensure_crd(client)
        yield client


@pytest.fixture
def ns(root: httpx.Client) -> str:
    name = f"t-{uuid.uuid4().hex[:10]}"
    root.post("/api/v1/namespaces", json={"metadata": {"name": name}}).raise_for_status()
    return name


def admin_config(server: KubeAPIServer) -> Config:
    config = load_kubeconfig(server.kubeconfig)
    config.qps = -1
    return config


def _created(response: httpx.Response) -> dict[str, Any]:
    assert response.status_code == 201, response.text
    return dict(response.json())


def service_account_bound_to(server: KubeAPIServer, root: httpx.Client, namespace: str, role: dict[str, Any],
                             tmp_path: Path) -> Config:
    """A ServiceAccount in ``namespace`` bound to ``role`` (created under a fresh name) and
    nothing else; returns the Config of a kubeconfig holding its token."""
    sa = f"cronjob-controller-{uuid.uuid4().hex[:6]}"
    _created(root.post(f"/api/v1/namespaces/{namespace}/serviceaccounts", json={"metadata": {"name": sa}}))
    role = {**role, "metadata": {"name": sa}}
    _created(root.post(f"{RBAC}/clusterroles", json=role))
    subject = {"kind": "ServiceAccount", "name": sa, "namespace": namespace}
    _created(root.post(f"{RBAC}/clusterrolebindings", json={
        "metadata": {"name": sa}, "subjects": [subject],
        "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": sa},
    }))
    token = _created(root.post(f"/api/v1/namespaces/{namespace}/serviceaccounts/{sa}/token",
                               json={"apiVersion": "authentication.k8s.io/v1", "kind": "TokenRequest",
                                     "spec": {"expirationSeconds": 3600}}))["status"]["token"]
    kubeconfig = tmp_path / f"{sa}.kubeconfig"
    kubeconfig.write_text(yaml.safe_dump({
        "apiVersion": "v1", "kind": "Config", "current-context": sa,
        "clusters": [{"name": "envtest", "cluster": {"server": server.url,
                                                      "certificate-authority": str(_ca_file(server, tmp_path))}}],
        "users": [{"name": sa, "user": {"token": token}}],
        "contexts": [{"name": sa, "context": {"cluster": "envtest", "user": sa, "namespace": namespace}}],
    }))
    # The authorizer learns of the binding through its informers: wait until it grants the role.
    group, resource, verb = permissions(role)[0]
    user = f"system:serviceaccount:{namespace}:{sa}"
    wait_until(lambda: _allowed(root, user, namespace, group, resource, verb), "the binding to take effect")
    config = load_kubeconfig(str(kubeconfig))
    config.qps = -1
    return config


def _ca_file(server: KubeAPIServer, tmp_path: Path) -> Path:
    path = tmp_path / "ca.crt"
    path.write_bytes(server.ca_pem)
    return path


def _allowed(root: httpx.Client, user: str, namespace: str, group: str, resource: str, verb: str) -> bool:
    name, _, sub = resource.partition("/")
    review = _created(root.post("/apis/authorization.k8s.io/v1/subjectaccessreviews", json={
        "apiVersion": "authorization.k8s.io/v1", "kind": "SubjectAccessReview",
        "spec": {"user": user, "groups": ["system:serviceaccounts", "system:authenticated"],
                 "resourceAttributes": {"group": group, "resource": name, "subresource": sub, "verb": verb,
                                        "namespace": namespace}},
    }))
    return bool(review["status"].get("allowed"))


def wait_until(predicate: Callable[[], object], what: str, timeout: float = 15.0) -> None:
    deadline = dt.datetime.now() + dt.timedelta(seconds=timeout)
    while not predicate():
        if dt.datetime.now() > deadline:
            raise AssertionError(f"timed out after {timeout:g}s waiting for {what}")
        threading.Event().wait(0.1)


# -- the controller's run, and what it logged -------------------------------------------------------

class Logged(logging.Handler):
    """Every kgen log line of the run, whichever thread wrote it."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.lines: list[str] = []
        self._lock = threading.Lock()

    def emit(self, record: logging.LogRecord) -> None:
        with self._lock:
            self.lines.append(record.getMessage())

    def holding(self, text: str) -> list[str]:
        with self._lock:
            return [line for line in self.lines if text in line]


@contextmanager
def kgen_logs() -> Iterator[Logged]:
    """Collects the ``kgen`` loggers' lines (whatever the root logger's level) for the block."""
    logged = Logged()
    kgen_log = logging.getLogger("kgen")
    level = kgen_log.level
    kgen_log.addHandler(logged)
    kgen_log.setLevel(logging.DEBUG)
    try:
        yield logged
    finally:
        kgen_log.removeHandler(logged)
        kgen_log.setLevel(level)


@contextmanager
def running(manager: Manager) -> Iterator[list[BaseException]]:
    """Runs ``manager`` in a thread; the list receives what ``start`` raised, if anything (a cache
    that never syncs ends start(): the test reads why)."""
    raised: list[BaseException] = []
    with running_in_thread(manager, raised, name="cronjob-manager"):
        yield raised


class StaleFirstRead(Client):
    """The manager's client, except that its first read of a CronJob without the finalizer is
    made stale at once (``change`` edits it on the server), so that the reconcile's finalizer
    update meets a Conflict and the helper re-reads from the server, as it would whenever the
    cache lags."""

    def __init__(self, inner: Client, change: Callable[[str], None]) -> None:
        vars(self).update(vars(inner))
        self._change: Callable[[str], None] | None = change

    def get(self, model: type[T], name: str, namespace: str | None = None) -> T:
        obj = super().get(model, name, namespace)
        if self._change is not None and isinstance(obj, CronJob) and not contains_finalizer(obj, FINALIZER):
            change, self._change = self._change, None
            change(name)
        return obj


def test_the_generated_role_is_enough(server: KubeAPIServer, root: httpx.Client, ns: str, tmp_path: Path) -> None:
    config = service_account_bound_to(server, root, ns, generated_role(), tmp_path)
    with Clientset(config) as as_controller:
        with pytest.raises(Exception, match="forbidden"):  # nothing beyond the role: not even Secrets
            as_controller.core_v1.secrets(ns).list()
    run_tutorial(Manager(config, namespace=ns), admin_config(server), ns)


@pytest.mark.parametrize("removed", permissions(generated_role()), ids=lambda p: f"{p[1]}:{p[2]}")
def test_each_verb_of_the_role_is_needed(server: KubeAPIServer, root: httpx.Client, ns: str, tmp_path: Path,
                                         removed: Permission, monkeypatch: pytest.MonkeyPatch) -> None:
    group, resource, verb = removed
    if verb == "list":
        # With client-go's WatchListClient gate on (the default), an informer's first list is a
        # watch that streams the objects (sendInitialEvents): without list the controller runs
        # the whole schedule. It lists where the gate is off or the apiserver streams no lists,
        # so list stays in the role, and is shown needed there.
        monkeypatch.setenv(WATCH_LIST_CLIENT_ENV, "false")
    config = service_account_bound_to(server, root, ns, without(generated_role(), removed), tmp_path)
    # The apiserver's words when RBAC refuses exactly that verb on that resource; for the
    # finalizers subresource, the admission plugin's (it does not name the verb).
    denial = (f'cannot {verb} resource "{resource}" in API group "{group}"' if not resource.endswith("/finalizers")
              else "cannot set blockOwnerDeletion if an ownerReference refers to a resource you can't set finalizers on")
    with kgen_logs() as logged:
        seen = drive(server, config, ns, lambda: bool(logged.holding(denial)))
    assert seen, f"without {verb} on {group}/{resource} the controller ran the whole schedule: that verb is not needed"
    assert logged.holding(denial)


def test_the_drive_meets_no_denial_with_the_whole_role(server: KubeAPIServer, root: httpx.Client, ns: str,
                                                      tmp_path: Path) -> None:
    """The cases above are not vacuous: the same drive with the whole role runs to its end (a
    Job created, completed and pruned, the stale first read, the CronJob deleted through the
    finalizer) without one 403 in the controller's log."""
    config = service_account_bound_to(server, root, ns, generated_role(), tmp_path)
    with kgen_logs() as logged:
        assert not drive(server, config, ns, lambda: bool(logged.holding("forbidden")))
    assert logged.holding("controller cronjob: started 1 workers"), "the controller ran"
    # a status code as the REST client logs it ("... 403 Forbidden in 2 milliseconds"); a bare
    # "403" also matched a Job named after its scheduled time (tick-cc4bd3-1796403600)
    assert not logged.holding(" 403 ")


def drive(server: KubeAPIServer, config: Config, namespace: str, denied: Callable[[], bool]) -> bool:
    """Runs the controller as ``config`` through one scheduled run (a Job created, completed,
    pruned) and the CronJob's deletion, stopping as soon as ``denied()``; returns ``denied()``."""
    clock = TestClock()
    clock.set(next_hour(clock()) + dt.timedelta(minutes=1))  # a run is due as soon as the CronJob exists
    manager = Manager(config, namespace=namespace, cache_sync_timeout=5.0)
    admin = admin_config(server)
    name = f"tick-{uuid.uuid4().hex[:6]}"
    with Clientset(admin) as kube, CronClientset(admin) as crons_cs:
        crons = crons_cs.batch_tutorial_kgen_dev_v1.cron_jobs(namespace)
        jobs = kube.batch_v1.jobs(namespace)

        def change(cron: str) -> None:
            crons.patch(cron, {"metadata": {"annotations": {"test/stale": "yes"}}})

        reconciler = CronJobReconciler(StaleFirstRead(manager.client, change), clock=clock)
        controller_managed_by(manager).for_(CronJob).owns(Job).complete(reconciler)

        def step(done: Callable[[], object], what: str) -> bool:
            """Waits for ``done`` or the denial; True when the denial came."""
            wait_until(lambda: denied() or done(), what)
            return denied()

        def gone() -> bool:
            try:
                crons.get(name)
            except NotFound:
                return True
            return False

        with running(manager) as raised:
            crons.create(cron_job(name, schedule="0 * * * *", successfulJobsHistoryLimit=0))
            if step(lambda: raised or jobs.list().items, "the first Job"):
                return True
            assert not raised, f"the manager stopped with no denial logged: {raised[0]}"
            [job] = jobs.list().items
            done = format_time(clock())
            jobs.update_status(Job(metadata=job.metadata, spec=job.spec, status=JobStatus(
                start_time=done, completion_time=done, succeeded=1, conditions=[
                    JobCondition(type="SuccessCriteriaMet", status="True", last_transition_time=done),
                    JobCondition(type="Complete", status="True", last_transition_time=done),
                ])))
            if step(lambda: not jobs.list().items, "the finished Job to be pruned"):
                return True
            crons.delete(name)
            step(gone, "the finalizer to let the CronJob go")
            return denied()
