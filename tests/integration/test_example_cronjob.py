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
"""

from __future__ import annotations

import datetime as dt
import threading
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest
import yaml

from examples.cronjob.client import Clientset as CronClientset
from examples.cronjob.client.models.batch_tutorial_kgen_dev.v1 import CronJob
from examples.cronjob.controller import CONDITION, FINALIZER, SCHEDULED_TIME_ANNOTATION, setup_cronjob_controller
from kgen.kubernetes import Clientset
from kgen.kubernetes.models.batch.v1 import Job, JobCondition, JobStatus
from kgen.runtime.apimachinery.errors import NotFound
from kgen.runtime.apimachinery.types import format_time, parse_time
from kgen.runtime.controller import Manager
from kgen.runtime.rest import Config
from kgen.runtime.testing import KubeAPIServer
from tests.support.apiserver import install_crd, unthrottled_config, wait_for

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


@contextmanager
def running(manager: Manager) -> Iterator[None]:
    thread = threading.Thread(target=manager.start, name="cronjob-manager")
    thread.start()
    try:
        yield
    finally:
        manager.stop()
        thread.join(60)
        assert not thread.is_alive(), "the manager did not stop"


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
    with Clientset(config) as kube, CronClientset(config) as crons_cs, running(manager):
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
        second = first + dt.timedelta(hours=1)
        clock.set(second + dt.timedelta(minutes=1))
        suspended = crons.patch(name, {"spec": {"suspend": True}})
        assert suspended.metadata is not None
        generation = suspended.metadata.generation

        def observed(gen: int | None) -> bool:
            cron = crons.get(name)
            return any(c.type == CONDITION and c.observed_generation == gen
                       for c in (cron.status.conditions or [] if cron.status else []))

        wait_for(lambda: observed(generation))
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
