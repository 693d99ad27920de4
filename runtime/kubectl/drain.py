"""Drain a node as ``kubectl drain`` does (k8s.io/kubectl/pkg/drain), sync and async.

    from kgen.runtime.kubectl import drain, DrainError

    result = drain(cs, "worker-1", ignore_daemonsets=True, delete_emptydir_data=True, timeout=120)
    for pod in result.pods:
        print(pod.key, pod.outcome.value, pod.reason)

    result = await drain(async_cs, "worker-1", force=True)   # an asyncio clientset: awaited

The node is cordoned first, then every pod bound to it passes kubectl's filters, in kubectl's
order and with its messages (drain_filters.py): DaemonSet-managed pods are skipped with
``ignore_daemonsets`` and refuse the drain without it, mirror pods are skipped, pods with
emptyDir volumes refuse it unless ``delete_emptydir_data``, pods no controller manages refuse
it unless ``force``, finished pods always go. One refusal refuses the whole drain before
anything is evicted: ``DrainError`` with kubectl's text, e.g.
``[cannot delete Pods that declare no controller (use --force to override): ns/a, cannot delete
DaemonSet-managed Pods (use --ignore-daemonsets to ignore): ns/b]``.

The others are evicted through the ``pods/eviction`` subresource, concurrently, each retried
every ``evict_error_retry_delay`` seconds (kubectl's 5) while a PodDisruptionBudget answers 429,
and waited for until gone or replaced (drain_core.py has the sequence). ``disable_eviction``
deletes them instead, bypassing the budgets. ``grace_period`` (seconds, -1: each pod's own) goes
with every eviction or deletion; ``timeout`` (seconds; None or 0: none) bounds the evictions and
the waits; ``pod_selector`` limits the drain to the pods it matches;
``skip_wait_for_delete_timeout`` leaves pods deleted longer ago than that many seconds alone
(a node that is gone never confirms their deletion).

The result has a ``PodDrainResult`` per pod (evicted, deleted, gone, skipped, refused, failed or
pending, with the reason, kubectl's warning and the lines kubectl prints about it) and the
drain's ``output``: the lines ``kubectl drain`` prints, in order (``on_output`` receives each as
it comes). Any failure raises ``DrainError`` with that result; the node stays cordoned, as
kubectl leaves it (``uncordon`` to undo). Errors of the server on the node or the pod list are
raised as their ``ApiError``.

``cs`` is a typed clientset of any generated package (``kgen.kubernetes.Clientset``, its fake),
or its asyncio twin, for which ``drain`` returns a coroutine: the same name, awaited.
"""

from __future__ import annotations

import datetime
import time
from collections.abc import Callable, Coroutine
from typing import Any, overload

from kgen.runtime.kubectl.drain_steps import AsyncClientsetLike, ClientsetLike, arun, run
from kgen.runtime.kubectl.cordon import cordon, uncordon
from kgen.runtime.kubectl.drain_core import (
    DrainError,
    DrainOptions,
    DrainResult,
    DrainOutcome,
    PodDrainResult,
    drain_steps,
)
from kgen.runtime.rest.client import AsyncRESTClient

__all__ = ["DrainError", "DrainOptions", "DrainResult", "DrainOutcome", "PodDrainResult", "cordon", "drain", "uncordon"]


def _utcnow() -> datetime.datetime:
    return datetime.datetime.now(datetime.timezone.utc)


@overload
def drain(
    cs: ClientsetLike, node: str, *, force: bool = False, ignore_daemonsets: bool = False,
    delete_emptydir_data: bool = False, grace_period: int = -1, timeout: float | None = None,
    pod_selector: str | None = None, disable_eviction: bool = False, skip_wait_for_delete_timeout: int = 0,
    evict_error_retry_delay: float = 5.0, chunk_size: int = 500, on_output: Callable[[str], None] | None = None,
) -> DrainResult: ...
@overload
def drain(
    cs: AsyncClientsetLike, node: str, *, force: bool = False, ignore_daemonsets: bool = False,
    delete_emptydir_data: bool = False, grace_period: int = -1, timeout: float | None = None,
    pod_selector: str | None = None, disable_eviction: bool = False, skip_wait_for_delete_timeout: int = 0,
    evict_error_retry_delay: float = 5.0, chunk_size: int = 500, on_output: Callable[[str], None] | None = None,
) -> Coroutine[Any, Any, DrainResult]: ...
def drain(
    cs: ClientsetLike | AsyncClientsetLike, node: str, *, force: bool = False, ignore_daemonsets: bool = False,
    delete_emptydir_data: bool = False, grace_period: int = -1, timeout: float | None = None,
    pod_selector: str | None = None, disable_eviction: bool = False, skip_wait_for_delete_timeout: int = 0,
    evict_error_retry_delay: float = 5.0, chunk_size: int = 500, on_output: Callable[[str], None] | None = None,
) -> DrainResult | Coroutine[Any, Any, DrainResult]:
    """Cordons Node ``node`` and evicts its pods as ``kubectl drain`` with the same flags; the
    account of each pod, or ``DrainError`` (see the module's docstring). With an asyncio
    clientset, a coroutine to await."""
    if not isinstance(node, str) or not node or "/" in node:
        raise ValueError(f"node: expected the name of a Node, got {node!r}")
    options = DrainOptions(
        force=force, ignore_daemonsets=ignore_daemonsets, delete_emptydir_data=delete_emptydir_data,
        grace_period=grace_period, timeout=timeout, pod_selector=pod_selector, disable_eviction=disable_eviction,
        skip_wait_for_delete_timeout=skip_wait_for_delete_timeout, evict_error_retry_delay=evict_error_retry_delay,
        chunk_size=chunk_size,
    )
    steps = drain_steps(node, options, clock=time.monotonic, wall=_utcnow, on_output=on_output)
    return arun(cs.rest, steps) if isinstance(cs.rest, AsyncRESTClient) else run(cs.rest, steps)
