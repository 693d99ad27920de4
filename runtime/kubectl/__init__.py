"""What kubectl's libraries do for its everyday commands, for Python: k8s.io/kubectl's drain,
polymorphichelpers' rollout status and rollback, cli-runtime's resource builder (manifests and
apply in kubectl's order), ``kubectl wait`` and ``kubectl cp``. Each stands on the typed and
dynamic clients and on client-go's tools (tools/watch, tools/remotecommand) below it.

- ``wait``: ``wait_for`` / ``wait_for_all`` (kubectl wait's ``--for`` forms);
- ``rollout``: ``rollout_status``, ``restart``, ``undo``, ``scale``;
- ``manifests`` and ``apply``: ``load_all_yaml`` / ``dump_all_yaml``, ``apply`` / ``delete``;
- ``drain``: ``cordon``, ``uncordon``, ``drain``;
- ``cp``: ``copy_to_pod`` / ``copy_from_pod``.

Each has an asyncio flavour: an ``async_`` twin, or the same name given an asyncio client.
"""

from kgen.runtime.kubectl.apply import ApplyResult, apply, async_apply, async_delete, delete
from kgen.runtime.kubectl.cp import CopyError, CopyResult, async_copy_from_pod, async_copy_to_pod, copy_from_pod, copy_to_pod
from kgen.runtime.kubectl.drain import DrainError, DrainOutcome, DrainResult, PodDrainResult, cordon, drain, uncordon
from kgen.runtime.kubectl.manifests import Manifest, ManifestError, dump_all_yaml, load_all_yaml
from kgen.runtime.kubectl.rollout import (
    RollbackError, RolloutError, RolloutStatusError, RolloutTimeout, ScalePreconditionError, restart, restart_patch,
    rollout_status, rollout_status_of, scale, undo,
)
from kgen.runtime.kubectl.wait import async_wait_for, async_wait_for_all, wait_for, wait_for_all

__all__ = [
    "ApplyResult", "CopyError", "CopyResult", "DrainError", "DrainOutcome", "DrainResult", "Manifest", "ManifestError",
    "PodDrainResult", "RollbackError", "RolloutError", "RolloutStatusError", "RolloutTimeout", "ScalePreconditionError",
    "apply", "async_apply", "async_copy_from_pod", "async_copy_to_pod", "async_delete", "async_wait_for",
    "async_wait_for_all", "copy_from_pod", "copy_to_pod", "cordon", "delete", "drain", "dump_all_yaml", "load_all_yaml",
    "restart", "restart_patch", "rollout_status", "rollout_status_of", "scale", "uncordon", "undo", "wait_for",
    "wait_for_all",
]
