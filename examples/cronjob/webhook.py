"""The CronJob tutorial's webhooks (book.kubebuilder.io/cronjob-tutorial/webhook-implementation):
a defaulter and a validator, with the ``+kubebuilder:webhook`` markers as ``@webhook(...)``.

``kgen manifests --module examples.cronjob.webhook --out examples/cronjob/config/webhook`` writes
their configurations to ``manifests.yaml``, as controller-gen does from the tutorial's markers;
``setup_cronjob_webhooks(manager)`` serves them on the manager's webhook server at the paths the
configurations name (controller-runtime's, which the markers leave to their default).
"""

from __future__ import annotations

from collections.abc import Sequence

from examples.cronjob.api import v1
from examples.cronjob.schedule import ScheduleError, parse
from kgen.controller import Manager
from kgen.runtime.controller.webhook_builder import webhook_managed_by
from kgen.runtime.webhook.admission import Denied
from kgen.runtime.webhook.markers import webhook

#: A CronJob's name, plus the 11 characters of a Job's suffix, must fit in a label value (63).
MAX_NAME_LENGTH = 52


@webhook(v1.CronJob, mutating=True, name="mcronjob-v1.kb.io")
class CronJobDefaulter:
    """Fills in what the user left out, as the tutorial's CronJobCustomDefaulter does."""

    def default(self, obj: v1.CronJob) -> None:
        """Suspend false, and keep 3 successful and 1 failed finished Jobs, unless the object says."""
        spec = obj.spec
        if spec.suspend is None:
            spec.suspend = False
        if spec.successful_jobs_history_limit is None:
            spec.successful_jobs_history_limit = 3
        if spec.failed_jobs_history_limit is None:
            spec.failed_jobs_history_limit = 1


@webhook(v1.CronJob, mutating=False, name="vcronjob-v1.kb.io")
class CronJobValidator:
    """Refuses a name too long for its Jobs' labels and a schedule that does not parse, as the
    tutorial's CronJobCustomValidator does."""

    def validate_create(self, obj: v1.CronJob) -> Sequence[str] | None:
        """A new CronJob: its name and schedule."""
        _check(obj)
        return None

    def validate_update(self, old: v1.CronJob, new: v1.CronJob) -> Sequence[str] | None:
        """An updated CronJob: its name and schedule."""
        _check(new)
        return None

    def validate_delete(self, obj: v1.CronJob) -> Sequence[str] | None:
        """Deleting is always allowed."""
        return None


def _check(obj: v1.CronJob) -> None:
    name = obj.metadata.name if obj.metadata is not None else None
    if name is not None and len(name) > MAX_NAME_LENGTH:
        raise Denied(f"metadata.name: Invalid value: {name!r}: must be no more than {MAX_NAME_LENGTH} characters")
    try:
        parse(obj.spec.schedule)
    except ScheduleError as e:
        raise Denied(f"spec.schedule: Invalid value: {obj.spec.schedule!r}: {e}") from None


def setup_cronjob_webhooks(manager: Manager) -> None:
    """Serves the defaulter and the validator on ``manager``'s webhook server."""
    webhook_managed_by(manager).for_(v1.CronJob).with_defaulter(CronJobDefaulter()).with_validator(CronJobValidator()).complete()
