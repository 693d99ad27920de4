"""kopf tuned to keep its records in the Widget's ``status``: the operator bench's second kopf row.

Loaded beside bench/operator_kopf.py (``kopf run ... operator_kopf.py operator_kopf_tuned.py``):
the same handlers and settings, and this one change. As shipped, kopf keeps its progress (per
handler, while a handler is retried) and its diff base (the last handled configuration, written
on every handled change) in annotations: each update then costs a merge patch of the Widget's
body for the annotation and a second one of its ``/status`` subresource for what the handler
put in ``patch.status`` (kopf splits the patch when the resource has a status subresource).
Kept in the status instead, both go with the handler's ``status.observed`` in the one status
patch: one API write fewer per update.

The Widget's schema keeps what kopf writes there: ``status.kopf`` preserves unknown fields
(bench/widget_api.py), as kopf's documentation requires of a CRD whose status holds its storage
(a structural schema would prune the fields and kopf would lose its records). The fields are
kopf's defaults, ``status.kopf.progress`` and ``status.kopf.last-handled-configuration``.

    KUBECONFIG=PATH BENCH_WORKERS=N kopf run --standalone --namespace NS \\
        bench/operator_kopf.py bench/operator_kopf_tuned.py
"""

from __future__ import annotations

from typing import Any

import kopf


@kopf.on.startup()
def keep_records_in_status(settings: kopf.OperatorSettings, **_: Any) -> None:
    settings.persistence.progress_storage = kopf.StatusProgressStorage()
    settings.persistence.diffbase_storage = kopf.StatusDiffBaseStorage()
