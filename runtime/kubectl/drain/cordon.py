"""Cordon and uncordon a node (k8s.io/kubectl/pkg/drain, cordon.go), as ``kubectl cordon`` does.

kubectl reads the Node and, only when ``spec.unschedulable`` differs from what is wanted, sends
the two-way strategic merge patch between the Node and its copy with the field changed. As the
field is ``omitempty``, that patch is ``{"spec":{"unschedulable":true}}`` to cordon and
``{"spec":{"unschedulable":null}}`` to uncordon (the field removed, not set false): the same
bytes are sent here, so the stored Node and its managedFields are what kubectl leaves. The node
lifecycle controller then adds (or removes) the ``node.kubernetes.io/unschedulable`` taint.

    changed = cordon(cs, "worker-1")          # False: it was cordoned already
    changed = await uncordon(async_cs, "worker-1")

An error of the server (no such Node, no permission) is raised as its ``ApiError``, as
pkg/drain's ``RunCordonOrUncordon`` returns it.
"""

from __future__ import annotations

from collections.abc import Coroutine
from typing import Any, overload

from kgen.runtime.rest.client import AsyncRESTClient, Request
from kgen.runtime.kubectl.drain.steps import AsyncClientsetLike, ClientsetLike, Send, Steps, arun, run

__all__ = ["cordon", "cordon_patch", "cordon_steps", "uncordon"]

STRATEGIC_MERGE_PATCH = "application/strategic-merge-patch+json"


def _node_path(node: str) -> str:
    if not isinstance(node, str) or not node or "/" in node:
        raise ValueError(f"node: expected the name of a Node, got {node!r}")
    return f"/api/v1/nodes/{node}"


def cordon_patch(desired: bool) -> bytes:
    """The patch kubectl sends to make a Node (un)schedulable: ``spec.unschedulable`` true, or
    removed (null) since the field is omitted when false."""
    return b'{"spec":{"unschedulable":true}}' if desired else b'{"spec":{"unschedulable":null}}'


def cordon_steps(node: str, desired: bool, *, dry_run: bool = False) -> Steps[bool]:
    """Reads Node ``node`` and patches it only if ``spec.unschedulable`` is not ``desired``
    already; returns whether it changed (kubectl's ``cordoned`` versus ``already cordoned``).
    ``dry_run``: the patch is the server's dry run (``--dry-run=server``), stored nowhere."""
    path = _node_path(node)
    current = yield Send(Request("GET", path))
    if isinstance(current, Exception):
        raise current
    if bool((current.get("spec") or {}).get("unschedulable")) == desired:
        return False
    params = [("dryRun", "All")] if dry_run else []
    patched = yield Send(Request("PATCH", path, params, body=cordon_patch(desired), content_type=STRATEGIC_MERGE_PATCH))
    if isinstance(patched, Exception):
        raise patched
    return True


@overload
def cordon(cs: ClientsetLike, node: str, *, dry_run: bool = False) -> bool: ...
@overload
def cordon(cs: AsyncClientsetLike, node: str, *, dry_run: bool = False) -> Coroutine[Any, Any, bool]: ...
def cordon(cs: ClientsetLike | AsyncClientsetLike, node: str, *, dry_run: bool = False) -> bool | Coroutine[Any, Any, bool]:
    """Marks Node ``node`` unschedulable, as ``kubectl cordon``; True if it was not already.
    ``dry_run``: the server's dry run only. With an asyncio clientset, a coroutine to await."""
    _node_path(node)
    steps = cordon_steps(node, True, dry_run=dry_run)
    return arun(cs.rest, steps) if isinstance(cs.rest, AsyncRESTClient) else run(cs.rest, steps)


@overload
def uncordon(cs: ClientsetLike, node: str, *, dry_run: bool = False) -> bool: ...
@overload
def uncordon(cs: AsyncClientsetLike, node: str, *, dry_run: bool = False) -> Coroutine[Any, Any, bool]: ...
def uncordon(cs: ClientsetLike | AsyncClientsetLike, node: str, *, dry_run: bool = False) -> bool | Coroutine[Any, Any, bool]:
    """Marks Node ``node`` schedulable again, as ``kubectl uncordon``; True if it was cordoned.
    ``dry_run``: the server's dry run only. With an asyncio clientset, a coroutine to await."""
    _node_path(node)
    steps = cordon_steps(node, False, dry_run=dry_run)
    return arun(cs.rest, steps) if isinstance(cs.rest, AsyncRESTClient) else run(cs.rest, steps)
