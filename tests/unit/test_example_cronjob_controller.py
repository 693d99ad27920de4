"""examples/cronjob/controller.py's I/O-free steps: sorting owned Jobs by their conditions (the
tutorial's isJobFinished), the scheduled-at annotation, history pruning oldest first, and the Job
built for a run (name, annotation, template labels, controller reference)."""

from __future__ import annotations

import datetime as dt

from examples.cronjob.client.models.batch_tutorial_kgen_dev.v1 import CronJob, CronJobSpec
from examples.cronjob.client.models.meta.v1 import ObjectMeta as CronMeta
from examples.cronjob.controller import (
    SCHEDULED_TIME_ANNOTATION,
    CronJobReconciler,
    job_finished,
    jobs_to_prune,
    sort_jobs,
)
from kgen.kubernetes.models.batch.v1 import Job, JobCondition, JobStatus, JobTemplateSpec
from kgen.kubernetes.models.meta.v1 import ObjectMeta
from kgen.runtime.controller import is_controlled_by


def job(name: str, state: str | None = None, scheduled: str | None = None, started: str | None = None) -> Job:
    conditions = [JobCondition(type=state, status="True")] if state else None
    return Job(
        metadata=ObjectMeta(name=name, annotations={SCHEDULED_TIME_ANNOTATION: scheduled} if scheduled else None),
        status=JobStatus(conditions=conditions, start_time=started),
    )


def test_finished_only_on_a_true_complete_or_failed_condition() -> None:
    assert job_finished(job("a")) is None
    assert job_finished(job("b", "Complete")) == "Complete"
    assert job_finished(job("c", "Failed")) == "Failed"
    assert job_finished(job("d", "Suspended")) is None
    false_complete = Job(status=JobStatus(conditions=[JobCondition(type="Complete", status="False")]))
    assert job_finished(false_complete) is None


def test_sort_jobs_and_the_most_recent_scheduled_time() -> None:
    jobs = [job("run", None, "2026-12-03T10:00:00Z"), job("ok", "Complete", "2026-12-03T09:00:00Z"),
            job("bad", "Failed", "2026-12-03T11:00:00Z"), job("manual", "Complete")]
    out = sort_jobs(jobs)
    assert [j.metadata.name for j in out.active if j.metadata] == ["run"]
    assert [j.metadata.name for j in out.successful if j.metadata] == ["ok", "manual"]
    assert [j.metadata.name for j in out.failed if j.metadata] == ["bad"]
    assert out.most_recent == dt.datetime(2026, 12, 3, 11, tzinfo=dt.timezone.utc)


def test_prune_keeps_the_newest_up_to_the_limit() -> None:
    finished = [job("new", "Complete", started="2026-12-03T12:00:00Z"), job("old", "Complete", started="2026-12-03T08:00:00Z"),
                job("mid", "Complete", started="2026-12-03T10:00:00Z")]
    assert [j.metadata.name for j in jobs_to_prune(finished, 1) if j.metadata] == ["old", "mid"]
    assert jobs_to_prune(finished, 3) == []
    assert jobs_to_prune(finished, None) == []
    assert len(jobs_to_prune(finished, 0)) == 3


def test_job_for_a_run() -> None:
    cron = CronJob(
        api_version="batch.tutorial.kgen.dev/v1", kind="CronJob",
        metadata=CronMeta(name="tick", namespace="ns", uid="u-1"),
        spec=CronJobSpec(schedule="* * * * *", job_template=JobTemplateSpec.from_dict({
            "metadata": {"labels": {"app": "tick"}},
            "spec": {"backoffLimit": 2, "template": {"spec": {"restartPolicy": "Never",
                                                              "containers": [{"name": "c", "image": "busybox"}]}}},
        })),
    )
    when = dt.datetime(2026, 12, 3, 10, 0, tzinfo=dt.timezone.utc)
    built = CronJobReconciler.job_for(cron, when)
    assert built.metadata is not None
    assert built.metadata.name == f"tick-{int(when.timestamp())}"
    assert built.metadata.namespace == "ns"
    assert built.metadata.labels == {"app": "tick"}
    assert built.metadata.annotations == {SCHEDULED_TIME_ANNOTATION: "2026-12-03T10:00:00Z"}
    assert built.spec is not None and built.spec.backoff_limit == 2
    assert built.spec.template.spec is not None and built.spec.template.spec.containers[0].image == "busybox"
    assert is_controlled_by(built, cron)
