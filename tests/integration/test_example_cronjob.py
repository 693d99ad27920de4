"""examples/cronjob (the kubebuilder CronJob tutorial) against the real apiserver (issue 14).

The CRD is the committed one `kgen manifests` emitted (drift-tested in
tests/unit/test_example_cronjob_files.py), installed; the manager runs in a thread with a test
clock. An hourly schedule keeps the controller's own requeue_after (about an hour) out of the
test: every reconcile here comes from an event, so what happens after a Job's status update can
only come from ``owns(Job)`` re-enqueueing the CronJob.

Steps: create → finalizer; advance the clock past the next hour and touch the CronJob → a Job
for that hour, controlled by the CronJob, with the scheduled-at annotation; status lists it
active with lastScheduleTime and Available=True. Mark the Job complete (status subresource, as
the Job controller would; envtest runs none) → the CronJob's status drops it from active, and
successfulJobsHistoryLimit=0 prunes it. Suspend, advance another hour → no Job; resume → the
missed run's Job. Delete the CronJob → the finalizer deletes its Job, and the CronJob is gone.

concurrencyPolicy and startingDeadlineSeconds (``Run``: the clock moves, a spec edit makes a
reconcile, the test waits for its observedGeneration and then for an idle controller, so a Job
not created is a decision taken, not one still to come): Forbid keeps the next run from starting
while a Job runs, and starts it once that Job finishes; Replace deletes the running Job and
creates the next; Allow, for contrast, keeps both; a run missed by more than
startingDeadlineSeconds is skipped while the next, missed by less, starts. Jobs never finish in
envtest unless the test writes their status, as here.
"""

from __future__ import annotations

import datetime as dt
import threading
import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import yaml

from examples.cronjob.client import Clientset as CronClientset
from examples.cronjob.client.models.batch_tutorial_kgen_dev.v1 import CronJob
from examples.cronjob.client.models.meta.v1 import ObjectMeta
from examples.cronjob.client.typed.batch_tutorial_kgen_dev.v1 import CronJobsClient
from examples.cronjob.controller import CONDITION, FINALIZER, SCHEDULED_TIME_ANNOTATION, setup_cronjob_controller
from kgen.kubernetes import Clientset
from kgen.kubernetes.models.batch.v1 import Job, JobCondition, JobStatus
from kgen.kubernetes.typed.batch.v1 import JobsClient
from kgen.runtime.apimachinery.errors import NotFound
from kgen.runtime.apimachinery.types import format_time, parse_time
from kgen.runtime.controller import Manager
from kgen.runtime.rest import Config
from kgen.runtime.testing import KubeAPIServer
from tests.support.apiserver import install_crd, unthrottled_config, wait_for
from tests.support.controller.running import running_in_thread

pytestmark = pytest.mark.integration

CRD = Path(__file__).resolve().parents[2] / "examples" / "cronjob" / "config" / "crd" / "batch.tutorial.kgen.dev_cronjobs.yaml"


class TestClock:
    """The controller's time source: starts at the real time, moves only when told."""

    __test__ = False

    def __init__(self) -> None:
        self._now = dt.datetime.now(dt.timezone.utc)
        self._lock = threading.Lock()

    def __call__(self) -> dt.datetime:
        with self._lock:
            return self._now

    def set(self, when: dt.datetime) -> None:
        with self._lock:
            self._now = when


def cron_job(name: str, **spec: object) -> CronJob:
    """A CronJob whose Job runs ``date`` in busybox; ``spec`` in wire names."""
    return CronJob.from_dict({"metadata": {"name": name}, "spec": {**spec, "jobTemplate": {"spec": {"template": {
        "spec": {"restartPolicy": "Never", "containers": [{"name": "tick", "image": "busybox", "args": ["date"]}]},
    }}}}})


def next_hour(t: dt.datetime) -> dt.datetime:
    return t.replace(minute=0, second=0, microsecond=0) + dt.timedelta(hours=1)


def ensure_crd(admin: httpx.Client) -> None:
    crd = yaml.safe_load(CRD.read_text())
    if admin.get(f"/apis/apiextensions.k8s.io/v1/customresourcedefinitions/{crd['metadata']['name']}").status_code == 404:
        install_crd(admin, crd)


def test_cronjob_tutorial(kube_apiserver: KubeAPIServer, admin: httpx.Client, namespace: str) -> None:
    ensure_crd(admin)
    config = unthrottled_config(kube_apiserver)
    run_tutorial(Manager(config, namespace=namespace), config, namespace)


def run_tutorial(manager: Manager, config: Config, namespace: str) -> None:
    """The steps in the module docstring: ``manager`` runs the controller (as whichever user it
    was built for), ``config`` is the test's own (admin) identity."""
    clock = TestClock()
    setup_cronjob_controller(manager, clock=clock)
    name = f"tick-{uuid.uuid4().hex[:6]}"
    with Clientset(config) as kube, CronClientset(config) as crons_cs, running_in_thread(manager):
        crons = crons_cs.batch_tutorial_kgen_dev_v1.cron_jobs(namespace)
        jobs = kube.batch_v1.jobs(namespace)

        def touch(reason: str) -> None:
            crons.patch(name, {"metadata": {"annotations": {"test/touched": reason}}})

        crons.create(cron_job(name, schedule="0 * * * *", successfulJobsHistoryLimit=0))
        def finalizers() -> list[str]:
            meta = crons.get(name).metadata
            return (meta.finalizers or []) if meta else []

        wait_for(lambda: FINALIZER in finalizers())
        assert jobs.list().items == [], "no run is due before the clock moves"

        # -- the clock passes the hour: that run's Job, owned by the CronJob --
        first = next_hour(clock())
        clock.set(first + dt.timedelta(minutes=1))
        touch("hour-1")
        job = wait_for(lambda: next(iter(jobs.list().items), None))
        assert job is not None
        assert job.metadata is not None and job.metadata.name == f"{name}-{int(first.timestamp())}"
        assert (job.metadata.annotations or {})[SCHEDULED_TIME_ANNOTATION] == format_time(first)
        owner = crons.get(name)
        assert owner.metadata is not None
        [ref] = job.metadata.owner_references or []
        assert (ref.kind, ref.name, ref.uid, ref.controller) == ("CronJob", name, owner.metadata.uid, True)

        def status_says(*wanted: str) -> CronJob | None:
            cron = crons.get(name)
            conditions = {c.type: c for c in (cron.status.conditions or [])} if cron.status else {}
            c = conditions.get(CONDITION)
            return cron if c is not None and c.status == "True" and c.message in wanted else None

        cron = wait_for(lambda: status_says("1 active, 0 succeeded, 0 failed"))
        assert cron is not None and cron.status is not None
        assert [(a.kind, a.name) for a in cron.status.active or []] == [("Job", job.metadata.name)]
        assert cron.status.last_schedule_time is not None and parse_time(cron.status.last_schedule_time) == first

        # -- the Job completes (a status update on the Job only): owns(Job) enqueues the CronJob --
        start = format_time(first)
        done = format_time(first + dt.timedelta(seconds=30))
        jobs.update_status(Job(metadata=job.metadata, spec=job.spec, status=JobStatus(
            start_time=start, completion_time=done, succeeded=1, conditions=[
                JobCondition(type="SuccessCriteriaMet", status="True", last_transition_time=done),
                JobCondition(type="Complete", status="True", last_transition_time=done),
            ],
        )))
        # the reconcile that sees it succeeded writes "1 succeeded" then prunes it; the Job's delete
        # event enqueues another that counts none: either may be the one read here
        cron = wait_for(lambda: status_says("0 active, 1 succeeded, 0 failed", "0 active, 0 succeeded, 0 failed"),
                        timeout=20)
        assert cron is not None and cron.status is not None and cron.status.active is None
        # successfulJobsHistoryLimit=0: the finished Job is pruned
        wait_for(lambda: jobs.list().items == [])

        # -- suspended: the next hour passes, no Job --
        # suspended (and that seen by a reconcile) before the clock moves: a reconcile already
        # queued (a retried 409, the pruned Job's delete event) must not find the hour due first
        def observed(gen: int | None) -> bool:
            cron = crons.get(name)
            return any(c.type == CONDITION and c.observed_generation == gen
                       for c in (cron.status.conditions or [] if cron.status else []))

        suspended = crons.patch(name, {"spec": {"suspend": True}})
        assert suspended.metadata is not None
        wait_for(lambda: observed(suspended.metadata.generation if suspended.metadata else None))
        second = first + dt.timedelta(hours=1)
        clock.set(second + dt.timedelta(minutes=1))
        # a spec change after the move (the history limit) bumps the generation: its reconcile saw the hour
        moved = crons.patch(name, {"spec": {"failedJobsHistoryLimit": 2}})
        assert moved.metadata is not None
        wait_for(lambda: observed(moved.metadata.generation if moved.metadata else None))
        wait_for(lambda: controller_idle(manager))
        assert jobs.list().items == [], "a suspended CronJob starts no Job"

        # -- resumed: the missed run starts --
        crons.patch(name, {"spec": {"suspend": False}})
        job2 = wait_for(lambda: next(iter(jobs.list().items), None))
        assert job2 is not None and job2.metadata is not None and job2.metadata.name == f"{name}-{int(second.timestamp())}"

        # -- deleted: the finalizer removes the Job, then the CronJob goes --
        crons.delete(name)

        def gone() -> bool:
            try:
                crons.get(name)
            except NotFound:
                return True
            return False

        wait_for(gone)
        assert jobs.list().items == []


def controller_idle(manager: Manager) -> bool:
    """No cronjob worker busy and nothing queued: the reconciles asked for so far have decided."""
    series = {n: manager.registry.get(n) for n in (
        "controller_runtime_active_workers", "workqueue_depth", "controller_runtime_max_concurrent_reconciles",
        "workqueue_adds_total")}
    active, depth, workers, adds = series.values()
    assert active is not None and depth is not None and workers is not None and adds is not None, series
    # An unknown series reads 0: these two say "cronjob" names the controller and its queue.
    # The workqueue series carry controller-runtime's labels: name and controller (and priority on depth).
    assert workers.value("cronjob") == 1 and adds.value("cronjob", "cronjob") > 0
    return active.value("cronjob") == 0 and depth.value("cronjob", "cronjob", "") == 0


# -- concurrencyPolicy and startingDeadlineSeconds against the apiserver ------------------------------

class Run:
    """The controller running as the admin identity in ``namespace``, its clock, and the test's
    clients for CronJobs and Jobs there."""

    def __init__(self, config: Config, namespace: str, crons: CronJobsClient, jobs: JobsClient) -> None:
        self.clock = TestClock()
        self.manager = Manager(config, namespace=namespace)
        setup_cronjob_controller(self.manager, clock=self.clock)
        self.crons = crons
        self.jobs = jobs

    def create(self, name: str, **spec: object) -> None:
        """Creates the CronJob and waits for its first reconcile (the finalizer)."""
        self.crons.create(cron_job(name, schedule="0 * * * *", **spec))
        wait_for(lambda: FINALIZER in ((self.crons.get(name).metadata or ObjectMeta()).finalizers or []))

    def reconcile_at(self, name: str, when: dt.datetime) -> None:
        """Moves the clock to ``when`` and waits for a reconcile that saw it to end: a spec change
        (the history limit) bumps the generation; the Available condition's observedGeneration
        says a reconcile after the move has written status (it decides whether to start a Job
        after that, in the same reconcile); then the controller is idle (no worker busy, nothing
        queued), so that reconcile has decided."""
        self.clock.set(when)
        patched = self.crons.patch(name, {"spec": {"failedJobsHistoryLimit": int(when.timestamp()) % 1000 + 1}})
        generation = patched.metadata.generation if patched.metadata else None
        assert generation is not None

        def observed() -> bool:
            cron = self.crons.get(name)
            return any(c.type == CONDITION and c.observed_generation == generation
                       for c in (cron.status.conditions or [] if cron.status else []))

        wait_for(observed, timeout=20)
        wait_for(self.idle, timeout=20)

    def idle(self) -> bool:
        return controller_idle(self.manager)

    def job_names(self) -> list[str]:
        return sorted(j.metadata.name or "" for j in self.jobs.list().items if j.metadata)

    def complete(self, job_name: str, when: dt.datetime) -> None:
        """Marks the Job succeeded through its status subresource, as the Job controller would."""
        job = self.jobs.get(job_name)
        stamp = format_time(when)
        self.jobs.update_status(Job(metadata=job.metadata, spec=job.spec, status=JobStatus(
            start_time=stamp, completion_time=stamp, succeeded=1, conditions=[
                JobCondition(type="SuccessCriteriaMet", status="True", last_transition_time=stamp),
                JobCondition(type="Complete", status="True", last_transition_time=stamp),
            ],
        )))


@pytest.fixture
def run(kube_apiserver: KubeAPIServer, admin: httpx.Client, namespace: str) -> Iterator[Run]:
    ensure_crd(admin)
    config = unthrottled_config(kube_apiserver)
    with Clientset(config) as kube, CronClientset(config) as crons_cs:
        r = Run(config, namespace, crons_cs.batch_tutorial_kgen_dev_v1.cron_jobs(namespace),
                kube.batch_v1.jobs(namespace))
        with running_in_thread(r.manager):
            yield r


def job_name(cron: str, when: dt.datetime) -> str:
    return f"{cron}-{int(when.timestamp())}"


def test_forbid_skips_a_run_while_a_job_is_running(run: Run) -> None:
    name = f"forbid-{uuid.uuid4().hex[:6]}"
    run.create(name, concurrencyPolicy="Forbid")
    first = next_hour(run.clock())
    run.reconcile_at(name, first + dt.timedelta(minutes=1))
    assert run.job_names() == [job_name(name, first)]

    second = first + dt.timedelta(hours=1)
    run.reconcile_at(name, second + dt.timedelta(minutes=1))
    assert run.job_names() == [job_name(name, first)], "Forbid: the running Job blocks the next run"

    # Once it finishes, the run it blocked starts (the finished Job's event enqueues the CronJob).
    run.complete(job_name(name, first), second + dt.timedelta(minutes=2))
    wait_for(lambda: job_name(name, second) in run.job_names(), timeout=20)
    assert run.job_names() == [job_name(name, first), job_name(name, second)]


def test_replace_deletes_the_running_job_and_starts_the_next(run: Run) -> None:
    name = f"replace-{uuid.uuid4().hex[:6]}"
    run.create(name, concurrencyPolicy="Replace")
    first = next_hour(run.clock())
    run.reconcile_at(name, first + dt.timedelta(minutes=1))
    assert run.job_names() == [job_name(name, first)]

    second = first + dt.timedelta(hours=1)
    run.reconcile_at(name, second + dt.timedelta(minutes=1))
    wait_for(lambda: run.job_names() == [job_name(name, second)], timeout=20)
    with pytest.raises(NotFound):
        run.jobs.get(job_name(name, first))


def test_allow_lets_runs_overlap(run: Run) -> None:
    """The default policy, for contrast: the same steps keep both Jobs."""
    name = f"allow-{uuid.uuid4().hex[:6]}"
    run.create(name)
    first = next_hour(run.clock())
    run.reconcile_at(name, first + dt.timedelta(minutes=1))
    second = first + dt.timedelta(hours=1)
    run.reconcile_at(name, second + dt.timedelta(minutes=1))
    wait_for(lambda: len(run.job_names()) == 2, timeout=20)
    assert run.job_names() == [job_name(name, first), job_name(name, second)]


def test_starting_deadline_skips_a_run_missed_by_more_than_it(run: Run) -> None:
    name = f"deadline-{uuid.uuid4().hex[:6]}"
    run.create(name, startingDeadlineSeconds=120)
    first = next_hour(run.clock())
    run.reconcile_at(name, first + dt.timedelta(minutes=5))  # 5 min late, the deadline is 2
    assert run.job_names() == [], "a run missed by more than startingDeadlineSeconds is skipped"

    second = first + dt.timedelta(hours=1)
    run.reconcile_at(name, second + dt.timedelta(seconds=90))  # within the deadline: it starts
    wait_for(lambda: run.job_names(), timeout=20)
    assert run.job_names() == [job_name(name, second)]
