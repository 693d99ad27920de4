"""``kubectl rollout`` (status, restart, undo) and ``kubectl scale`` for Python: k8s.io/kubectl's
pkg/cmd/rollout, pkg/polymorphichelpers (StatusViewers, DeploymentRollbacker, the restarter) and
pkg/scale, on the typed clients, sync and async under the same names.

One module per concept: ``status_viewer`` (kubectl's status rules, pure), ``rollback`` (undo's
choice of ReplicaSet and its patch, pure), ``commands`` (``rollout_status``, ``restart``,
``undo``: the requests), ``scaler`` (``scale`` through the scale subresource), and ``_steps``, the
two drivers (threads, asyncio) that perform each verb's I/O-free steps.
"""

from kgen.runtime.kubectl.rollout.commands import (
    RESTARTED_AT,
    WAIT_TIMEOUT_MESSAGE,
    AsyncPatchableClient,
    PatchableClient,
    RolloutError,
    RolloutTimeout,
    restart,
    restart_patch,
    rfc3339_now,
    rollout_status,
    undo,
)
from kgen.runtime.kubectl.rollout.rollback import RollbackError
from kgen.runtime.kubectl.rollout.scaler import (
    AsyncScalableClient,
    ScalableClient,
    ScalePreconditionError,
    check_scale_preconditions,
    scale,
)
from kgen.runtime.kubectl.rollout.status_viewer import (
    RolloutStatusError,
    daemon_set_status,
    deployment_status,
    revision_of,
    rollout_status_of,
    stateful_set_status,
    status_viewer_for,
)

__all__ = [
    "RESTARTED_AT", "WAIT_TIMEOUT_MESSAGE", "AsyncPatchableClient", "AsyncScalableClient", "PatchableClient",
    "RollbackError", "RolloutError", "RolloutStatusError", "RolloutTimeout", "ScalableClient", "ScalePreconditionError",
    "check_scale_preconditions", "daemon_set_status", "deployment_status", "restart", "restart_patch", "revision_of",
    "rfc3339_now", "rollout_status", "rollout_status_of", "scale", "stateful_set_status", "status_viewer_for", "undo",
]
