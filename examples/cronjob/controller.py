"""The kubebuilder tutorial's CronJob reconciler (internal/controller/cronjob_controller.go) on
kgen.controller: the same steps in the same order, so the tutorial reads as a guide to
this file.

1. Get the CronJob (from the cache); on deletion run the finalizer (delete owned Jobs, then drop
   the finalizer) — the tutorial leaves cleanup to the garbage collector, the issue asks for a
   finalizer, and it also covers clusters (like envtest) that run no garbage collector.
2. List the Jobs it controls (the cache, filtered by controller reference where the tutorial uses
   a field index), sort them into active / successful / failed; the latest scheduled-at
   annotation is the last schedule time.
3. Write status: active references, lastScheduleTime, and an ``Available`` condition.
4. Prune finished Jobs beyond the history limits, oldest first.
5. Suspended: stop here.
6. Compute the last missed run and the next run with the injected clock; requeue_after the next.
7. Too late (past startingDeadlineSeconds), or Forbid with Jobs running: skip; Replace: delete
   the running Jobs first.
8. Create the Job with a controller reference and the scheduled-at annotation.

``.owns(Job)`` makes every event on an owned Job enqueue its CronJob, as ``Owns(&batchv1.Job{})``.
"""

from __future__ import annotations

import datetime as _dt
import logging
from dataclasses import dataclass

import msgspec

from examples.cronjob.client.models.batch_tutorial_kgen_dev.v1 import CronJob, CronJobStatus
from examples.cronjob.client.models.meta.v1 import Condition
from examples.cronjob.schedule import Clock, ScheduleError, TooManyMissedStarts, next_schedule, parse
from kgen.kubernetes.models.batch.v1 import Job
from kgen.kubernetes.models.core.v1 import ObjectReference
from kgen.kubernetes.models.meta.v1 import ObjectMeta
from kgen.runtime.apimachinery.errors import AlreadyExists, NotFound
from kgen.runtime.apimachinery.markers import rbac
from kgen.runtime.apimachinery.types import format_time, parse_time
from kgen.controller import (
    Client,
    Manager,
    Request,
    Result,
    add_finalizer_and_update,
    contains_finalizer,
    controller_managed_by,
    is_controlled_by,
    remove_finalizer_and_update,
    set_controller_reference,
    set_status_condition,
)

#: The tutorial's annotation, in this example's group.
SCHEDULED_TIME_ANNOTATION = "batch.tutorial.kgen.dev/scheduled-at"
FINALIZER = "batch.tutorial.kgen.dev/cleanup-jobs"
CONDITION = "Available"

log = logging.getLogger(__name__)


def utc_now() -> _dt.datetime:
    return _dt.datetime.now(_dt.timezone.utc)


def job_finished(job: Job) -> str | None:
    """``"Complete"`` or ``"Failed"`` when the Job has that condition True (the tutorial's
    isJobFinished), else ``None``."""
    for condition in (job.status.conditions or []) if job.status else []:
        if condition.type in ("Complete", "Failed") and condition.status == "True":
            return condition.type
    return None


def scheduled_time(job: Job) -> _dt.datetime | None:
    """The scheduled-at annotation the controller put on the Job (the tutorial's getScheduledTimeForJob)."""
    text = (job.metadata.annotations or {}).get(SCHEDULED_TIME_ANNOTATION) if job.metadata else None
    return parse_time(text) if text else None


@dataclass
class SortedJobs:
    active: list[Job]
    successful: list[Job]
    failed: list[Job]
    most_recent: _dt.datetime | None


def sort_jobs(jobs: list[Job]) -> SortedJobs:
    out = SortedJobs([], [], [], None)
    for job in jobs:
        state = job_finished(job)
        (out.active if state is None else out.successful if state == "Complete" else out.failed).append(job)
        when = scheduled_time(job)
        if when is not None and (out.most_recent is None or when > out.most_recent):
            out.most_recent = when
    return out


def jobs_to_prune(finished: list[Job], limit: int | None) -> list[Job]:
    """The oldest finished Jobs beyond ``limit`` (``None``: keep all), by start time as the tutorial sorts."""
    if limit is None or len(finished) <= limit:
        return []
    by_age = sorted(finished, key=lambda j: (j.status.start_time or "") if j.status else "")
    return by_age[: len(finished) - limit]


def _ref(job: Job) -> ObjectReference:
    meta = job.metadata or ObjectMeta()
    return ObjectReference(api_version="batch/v1", kind="Job", name=meta.name, namespace=meta.namespace,
                  uid=meta.uid, resource_version=meta.resource_version)


# The tutorial's +kubebuilder:rbac markers, cut to what this controller does (each verb is shown
# needed by tests/integration/test_example_cronjob_rbac.py): reads come from the cache (list,
# watch); get only when the finalizer helpers re-read after a conflict; CronJobs are never
# created, patched or deleted, and Job status is read from the cache, not jobs/status.
# cronjobs/finalizers: a controller reference with blockOwnerDeletion needs it where the
# OwnerReferencesPermissionEnforcement admission plugin runs.
@rbac(groups=["batch.tutorial.kgen.dev"], resources=["cronjobs"], verbs=["get", "list", "watch", "update"])
@rbac(groups=["batch.tutorial.kgen.dev"], resources=["cronjobs/status"], verbs=["update"])
@rbac(groups=["batch.tutorial.kgen.dev"], resources=["cronjobs/finalizers"], verbs=["update"])
@rbac(groups=["batch"], resources=["jobs"], verbs=["list", "watch", "create", "delete"])
class CronJobReconciler:
    """Reconciles CronJobs; ``clock`` is the time source (a test clock in tests)."""

    def __init__(self, client: Client, *, clock: Clock = utc_now) -> None:
        self.client = client
        self.clock = clock

    def reconcile(self, request: Request) -> Result | None:
        try:
            cron = self.client.get(CronJob, request.name, request.namespace)
        except NotFound:
            return None
        assert cron.metadata is not None  # a served object always has metadata
        namespace = cron.metadata.namespace or request.namespace
        if cron.metadata.deletion_timestamp:
            if contains_finalizer(cron, FINALIZER):
                for job in self._owned_jobs(cron, namespace):
                    self._delete_job(job)
                remove_finalizer_and_update(self.client, cron, FINALIZER)
            return None
        if not contains_finalizer(cron, FINALIZER):
            cron = add_finalizer_and_update(self.client, cron, FINALIZER)

        jobs = sort_jobs(self._owned_jobs(cron, namespace))
        now = self.clock()
        problem: str | None = None
        try:
            schedule = parse(cron.spec.schedule)
        except ScheduleError as err:
            problem = f"invalid schedule {cron.spec.schedule!r}: {err}"
        cron = self._write_status(cron, jobs, problem, now)
        for job in jobs_to_prune(jobs.failed, cron.spec.failed_jobs_history_limit) + jobs_to_prune(
            jobs.successful, cron.spec.successful_jobs_history_limit
        ):
            self._delete_job(job)
        if problem is not None or cron.spec.suspend:
            return None  # a bad schedule waits for the user to edit it (the edit enqueues)

        stamp = cron.metadata.creation_timestamp if cron.metadata else None
        created = parse_time(stamp) if stamp else now
        earliest = jobs.most_recent or (
            parse_time(cron.status.last_schedule_time) if cron.status and cron.status.last_schedule_time else created
        )
        try:
            missed, upcoming = next_schedule(schedule, earliest=earliest, now=now,
                                             starting_deadline_seconds=cron.spec.starting_deadline_seconds)
        except TooManyMissedStarts as err:
            log.warning("CronJob %s/%s: %s", namespace, request.name, err)
            return None
        later = Result(requeue_after=max((upcoming - now).total_seconds(), 0.0))
        if missed is None:
            return later
        deadline = cron.spec.starting_deadline_seconds
        if deadline is not None and missed + _dt.timedelta(seconds=deadline) < now:
            return later  # too late for that run
        if cron.spec.concurrency_policy == "Forbid" and jobs.active:
            return later
        if cron.spec.concurrency_policy == "Replace":
            for job in jobs.active:
                self._delete_job(job)
        job = self.job_for(cron, missed)
        try:
            self.client.create(job)
        except AlreadyExists:
            pass  # created by an earlier reconcile the cache has not seen yet: names are per run
        return later

    @staticmethod
    def job_for(cron: CronJob, when: _dt.datetime) -> Job:
        """The tutorial's constructJobForCronJob: name ``<cronjob>-<unix time>`` (deterministic,
        so a second reconcile for the same run cannot make a second Job)."""
        assert cron.metadata is not None
        template = cron.spec.job_template
        template_meta = template.metadata or ObjectMeta()
        labels = dict(template_meta.labels or {})
        annotations = dict(template_meta.annotations or {})
        annotations[SCHEDULED_TIME_ANNOTATION] = format_time(when)
        job = Job(
            metadata=ObjectMeta(name=f"{cron.metadata.name}-{int(when.timestamp())}",
                                namespace=cron.metadata.namespace, labels=labels, annotations=annotations),
            spec=template.spec,
        )
        return set_controller_reference(cron, job)

    def _owned_jobs(self, cron: CronJob, namespace: str | None) -> list[Job]:
        return [job for job in self.client.list(Job, namespace) if is_controlled_by(job, cron)]

    def _delete_job(self, job: Job) -> None:
        try:
            self.client.delete(job, propagation_policy="Background")  # its Pods go too
        except NotFound:
            pass

    def _write_status(self, cron: CronJob, jobs: SortedJobs, problem: str | None, now: _dt.datetime) -> CronJob:
        status = cron.status or CronJobStatus()
        condition = Condition(
            type=CONDITION,
            status="False" if problem else "True",
            reason="InvalidSchedule" if problem else "Reconciled",
            message=problem or f"{len(jobs.active)} active, {len(jobs.successful)} succeeded, {len(jobs.failed)} failed",
            last_transition_time=format_time(now),
            observed_generation=cron.metadata.generation if cron.metadata else None,
        )
        conditions, _ = set_status_condition(status.conditions, condition, now=self.clock)
        new = CronJobStatus(
            active=[_ref(j) for j in jobs.active] or None,
            last_schedule_time=format_time(jobs.most_recent) if jobs.most_recent else status.last_schedule_time,
            conditions=conditions,
        )
        if new == status:
            return cron
        # A copy: the cached object is shared with the informer and must not change under it.
        return self.client.update_status(msgspec.structs.replace(cron, status=new))


def setup_cronjob_controller(manager: Manager, *, clock: Clock = utc_now) -> CronJobReconciler:
    """Registers the controller: ``For(&CronJob{}).Owns(&batchv1.Job{})``."""
    reconciler = CronJobReconciler(manager.client, clock=clock)
    controller_managed_by(manager).for_(CronJob).owns(Job).complete(reconciler)
    return reconciler
