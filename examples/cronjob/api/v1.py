"""CronJob v1, the kubebuilder tutorial's api/v1/cronjob_types.go written with kgen's markers.

The field names, enum, minimums and defaults are the tutorial's (its ``+kubebuilder`` markers
become ``Annotated[...]`` markers here) so that the CRD ``kgen manifests`` emits is the one
controller-gen emits for the Go types. ``jobTemplate`` is batch/v1 JobTemplateSpec from the stock
client, as the tutorial embeds ``batchv1.JobTemplateSpec``.
"""

from __future__ import annotations

from typing import Annotated, Literal

from kgen.kubernetes.models.batch.v1 import JobTemplateSpec
from kgen.kubernetes.models.core.v1 import ObjectReference
from kgen.kubernetes.models.meta.v1 import Condition, ObjectMeta
from kgen.runtime.apimachinery import Model, Time, field
from kgen.runtime.apimachinery.markers import Int32, ListType, MinLength, Minimum, PrinterColumn, resource

GROUP = "batch.tutorial.kgen.dev"


class CronJobSpec(Model, kw_only=True):
    """CronJobSpec is what the user asks of a CronJob."""

    schedule: Annotated[str, MinLength(0)]
    """The schedule in Cron format (five fields: minute hour day-of-month month day-of-week)."""
    starting_deadline_seconds: Annotated[int, Minimum(0)] | None = field(default=None, name="startingDeadlineSeconds")
    """Deadline in seconds for starting the job if it misses its scheduled time; missed jobs past
    it count as failed."""
    concurrency_policy: Literal["Allow", "Forbid", "Replace"] = field(default="Allow", name="concurrencyPolicy")
    """How to treat concurrent executions of a Job: Allow, Forbid (skip the new run) or Replace
    (delete the running Jobs first)."""
    suspend: bool | None = None
    """Tells the controller to suspend subsequent executions; running ones are left alone."""
    job_template: JobTemplateSpec = field(name="jobTemplate")
    """The Job created at each scheduled time."""
    successful_jobs_history_limit: Annotated[Int32, Minimum(0)] | None = field(
        default=None, name="successfulJobsHistoryLimit"
    )
    """How many finished successful Jobs to keep."""
    failed_jobs_history_limit: Annotated[Int32, Minimum(0)] | None = field(default=None, name="failedJobsHistoryLimit")
    """How many finished failed Jobs to keep."""


class CronJobStatus(Model, kw_only=True):
    """CronJobStatus is what the controller observed."""

    active: list[ObjectReference] | None = None
    """The Jobs currently running."""
    last_schedule_time: Time | None = field(default=None, name="lastScheduleTime")
    """When a Job was last successfully scheduled."""
    conditions: Annotated[list[Condition], ListType("map", keys=["type"])] | None = None
    """The CronJob's state (type Available: the last reconcile succeeded)."""


@resource(
    group=GROUP,
    version="v1",
    status=True,
    printer_columns=[
        PrinterColumn("Schedule", "string", ".spec.schedule"),
        PrinterColumn("Suspend", "boolean", ".spec.suspend"),
        PrinterColumn("Last Schedule", "date", ".status.lastScheduleTime"),
    ],
)
class CronJob(Model, kw_only=True):
    """CronJob is the Schema for the cronjobs API."""

    api_version: str | None = field(default=None, name="apiVersion")
    kind: str | None = None
    metadata: ObjectMeta | None = None
    spec: CronJobSpec
    status: CronJobStatus | None = None
