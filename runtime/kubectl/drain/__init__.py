"""Drain a node as ``kubectl drain`` does (k8s.io/kubectl/pkg/drain), sync and async.

    from kgen.runtime.kubectl import drain, DrainError

    result = drain(cs, "worker-1", ignore_daemonsets=True, delete_emptydir_data=True, timeout=120)
    for pod in result.pods:
        print(pod.key, pod.outcome.value, pod.reason)

    result = await drain(async_cs, "worker-1", force=True)   # an asyncio clientset: awaited

The node is cordoned first, then every pod bound to it passes kubectl's filters, in kubectl's
order and with its messages (filters.py): DaemonSet-managed pods are skipped with
``ignore_daemonsets`` and refuse the drain without it, mirror pods are skipped, pods with
emptyDir volumes refuse it unless ``delete_emptydir_data``, pods no controller manages refuse
it unless ``force``, finished pods always go. One refusal refuses the whole drain before
anything is evicted: ``DrainError`` with kubectl's text, e.g.
``[cannot delete Pods that declare no controller (use --force to override): ns/a, cannot delete
DaemonSet-managed Pods (use --ignore-daemonsets to ignore): ns/b]``.

The others are evicted through the ``pods/eviction`` subresource, concurrently, each retried
every ``evict_error_retry_delay`` seconds (kubectl's 5) while a PodDisruptionBudget answers 429,
and waited for until gone or replaced (core.py has the sequence). ``disable_eviction``
deletes them instead, bypassing the budgets. ``grace_period`` (seconds, -1: each pod's own) goes
with every eviction or deletion; ``timeout`` (seconds; None or 0: none) bounds the evictions and
the waits; ``pod_selector`` limits the drain to the pods it matches;
``skip_wait_for_delete_timeout`` leaves pods deleted longer ago than that many seconds alone (a
node that is gone never confirms their deletion). ``additional_filters`` (pkg/drain's
AdditionalFilters) run after kubectl's, each a function of the pod's JSON returning a
``PodDeleteStatus`` (``.okay()``, ``.skip()``, ``.warning(delete, message)``,
``.error(message)``). ``dry_run`` is ``kubectl drain --dry-run=server``: the cordon, evictions
and deletions are the server's dry runs (admission and budgets answer, nothing is stored or
waited for), and kubectl's lines end in ``(server dry run)``.

The result has a ``PodDrainResult`` per pod (evicted, deleted, gone, skipped, refused, failed or
pending, with the reason, kubectl's warning and the lines kubectl prints about it) and the
drain's ``output``: the lines ``kubectl drain`` prints, in order (``on_output`` receives each as
it comes). Any failure raises ``DrainError`` with that result; the node stays cordoned, as
kubectl leaves it (``uncordon`` to undo). Errors of the server on the node or the pod list are
raised as their ``ApiError``.

``cs`` is a typed clientset of any generated package (``kgen.kubernetes.Clientset``, its fake),
or its asyncio twin, for which ``drain`` returns a coroutine: the same name, awaited.

The package follows pkg/drain's files: ``filters.py`` (filters.go), ``cordon.py`` (cordon.go),
``core.py`` (drain.go's Helper: the drain as I/O-free steps), ``default.py`` (default.go's
RunNodeDrain: ``drain``), and ``steps.py``, the two drivers that run the steps.
"""

from kgen.runtime.kubectl.drain.cordon import cordon, uncordon
from kgen.runtime.kubectl.drain.core import DrainError, DrainOptions, DrainOutcome, DrainResult, PodDrainResult
from kgen.runtime.kubectl.drain.default import drain
from kgen.runtime.kubectl.drain.filters import PodDeleteStatus, PodFilter

__all__ = [
    "DrainError", "DrainOptions", "DrainOutcome", "DrainResult", "PodDeleteStatus", "PodDrainResult", "PodFilter", "cordon",
    "drain", "uncordon",
]
