"""What kubectl's libraries do for its everyday commands, for Python: k8s.io/kubectl's drain,
polymorphichelpers' rollout status and rollback, cli-runtime's resource builder (manifests and
apply in kubectl's order), ``kubectl wait`` and ``kubectl cp``. Each stands on the typed and
dynamic clients and on client-go's tools (tools/watch, tools/remotecommand) below it."""

from kgen.runtime.kubectl.apply import ApplyResult as ApplyResult, apply as apply, async_apply as async_apply  # noqa: E402
from kgen.runtime.kubectl.apply import async_delete as async_delete, delete as delete  # noqa: E402
from kgen.runtime.kubectl.manifests import Manifest as Manifest, ManifestError as ManifestError  # noqa: E402
from kgen.runtime.kubectl.manifests import dump_all_yaml as dump_all_yaml, load_all_yaml as load_all_yaml  # noqa: E402
from kgen.runtime.kubectl.rollout import RollbackError as RollbackError, RolloutError as RolloutError  # noqa: E402
from kgen.runtime.kubectl.rollout import RolloutStatusError as RolloutStatusError, RolloutTimeout as RolloutTimeout  # noqa: E402
from kgen.runtime.kubectl.rollout import ScalePreconditionError as ScalePreconditionError, restart as restart  # noqa: E402
from kgen.runtime.kubectl.rollout import restart_patch as restart_patch, rollout_status as rollout_status  # noqa: E402
from kgen.runtime.kubectl.rollout import rollout_status_of as rollout_status_of, scale as scale, undo as undo  # noqa: E402
from kgen.runtime.kubectl.wait import async_wait_for as async_wait_for, async_wait_for_all as async_wait_for_all  # noqa: E402
from kgen.runtime.kubectl.wait import wait_for as wait_for, wait_for_all as wait_for_all  # noqa: E402
from kgen.runtime.kubectl.drain import DrainError as DrainError, DrainOutcome as DrainOutcome, DrainResult as DrainResult  # noqa: E402
from kgen.runtime.kubectl.drain import PodDrainResult as PodDrainResult, cordon as cordon, drain as drain  # noqa: E402
from kgen.runtime.kubectl.drain import uncordon as uncordon  # noqa: E402
from kgen.runtime.kubectl.cp import CopyError as CopyError, CopyResult as CopyResult, copy_from_pod as copy_from_pod  # noqa: E402
from kgen.runtime.kubectl.cp import async_copy_from_pod as async_copy_from_pod, async_copy_to_pod as async_copy_to_pod  # noqa: E402
from kgen.runtime.kubectl.cp import copy_to_pod as copy_to_pod  # noqa: E402
