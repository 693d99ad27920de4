"""``kubectl rollout status``, ``rollout restart`` and ``rollout undo`` on the typed clients, sync
and async under the same names (``kubectl scale`` is in ``scaler``).

Each verb is one I/O-free generator of steps (``_steps``), performed by the
driver of the client's flavour: ``rollout_status(cs.apps_v1.deployments("ns"), "web")`` is an
iterator, the same call with an async clientset's client an async iterator; ``restart`` and
``undo`` return their result, or an awaitable of it.

What each does is kubectl's (k8s.io/kubectl pkg/cmd/rollout, pkg/polymorphichelpers):

* ``rollout_status`` gets the object (NotFound as kubectl's builder raises it), lists it by a
  ``metadata.name`` field selector and watches it from the list's resourceVersion through
  ``kgen.runtime.tools.watch.RetryWatcher`` (watchtools.UntilWithSync's list+watch: resumed
  across server timeouts and dropped connections, a 410 bridged by a relist), yielding the status
  viewer's message (``status_viewer``) after every event that carries the
  object, until the viewer says done. Deletion ends it with kubectl's "object has been deleted";
  ``timeout`` bounds the whole wait and raises ``RolloutTimeout``.
* ``restart`` sends kubectl's strategic merge patch, the pod template's
  ``kubectl.kubernetes.io/restartedAt`` annotation set to the local time in RFC 3339 (Go's
  ``time.RFC3339``, which writes ``Z`` for UTC), and refuses a paused Deployment.
* ``undo`` is DeploymentRollbacker: the ReplicaSet of the revision (``rollback``), skipped when
  the template already matches, else kubectl's JSON patch.
"""

from __future__ import annotations

import datetime
import json
import logging
import time
from collections.abc import AsyncIterator, Callable, Coroutine, Iterator, Mapping
from typing import Any, Protocol, TypeVar, overload

from kgen.runtime.apimachinery.meta import list_meta
from kgen.runtime.apimachinery.model import Model
from kgen.runtime.gentype.client import AsyncResourceClient, ResourceClient
from kgen.runtime.gentype.resource import DictCodec, PatchType, ResourceInfo
from kgen.runtime.kubectl.rollout import rollback
from kgen.runtime.kubectl.rollout._steps import END, Call, Emit, Next, Steps, Watch, aiterate, arun, check_arguments, is_async, iterate, run
from kgen.runtime.kubectl.rollout.status_viewer import RolloutStatusError, as_json, group_kind, status_viewer_for
from kgen.runtime.tools.watch import AsyncWatchable, Watchable, lister_watcher

log = logging.getLogger(__name__)

T = TypeVar("T")
"""The kind's model (Deployment, StatefulSet, DaemonSet)."""
T_co = TypeVar("T_co", covariant=True)
"""The model a client's protocol returns."""

RESTARTED_AT = "kubectl.kubernetes.io/restartedAt"
"""The pod template annotation ``kubectl rollout restart`` sets."""
WAIT_TIMEOUT_MESSAGE = "timed out waiting for the condition"
"""wait.ErrWaitTimeout's message, which ``kubectl rollout status --timeout`` prints."""
_CLIENTS = "a typed client of Deployments, StatefulSets or DaemonSets such as cs.apps_v1.deployments(ns)"
_RESTARTABLE = frozenset({("apps", "Deployment"), ("extensions", "Deployment"), ("apps", "DaemonSet"),
                          ("extensions", "DaemonSet"), ("apps", "StatefulSet")})


class RolloutError(Exception):
    """kubectl's refusal of a restart (a paused Deployment, a kind it cannot restart, a restart
    within the same second as the last), with its message."""


class RolloutTimeout(TimeoutError):
    """``rollout_status`` ran out of ``timeout``: kubectl's message, the object and the last status."""

    def __init__(self, kind: str, name: str, last: str | None) -> None:
        super().__init__(f"{WAIT_TIMEOUT_MESSAGE}: {kind} {name!r}, last status: {last or 'none seen'}")
        self.last_message = last


# -- the clients each verb needs ------------------------------------------------------------


class PatchableClient(Protocol[T_co]):
    """A typed client that gets and patches its kind."""

    def get(self, name: str, *, resource_version: str | None = None) -> T_co:
        """The object ``name``."""
        ...

    def patch(self, name: str, patch: Any, patch_type: PatchType = ..., *, subresource: str | None = None,
              dry_run: bool = False, field_manager: str | None = None, field_validation: str | None = None) -> T_co:
        """``patch`` sent as ``patch_type``; the object the server stored."""
        ...


class AsyncPatchableClient(Protocol[T_co]):
    """``PatchableClient`` on asyncio."""

    async def get(self, name: str, *, resource_version: str | None = None) -> T_co:
        """The object ``name``."""
        ...

    async def patch(self, name: str, patch: Any, patch_type: PatchType = ..., *, subresource: str | None = None,
                    dry_run: bool = False, field_manager: str | None = None, field_validation: str | None = None) -> T_co:
        """``patch`` sent as ``patch_type``; the object the server stored."""
        ...


# -- rollout status ------------------------------------------------------------------------


def _status_steps(client: Any, name: str, revision: int, watch: bool, timeout: float | None,
                  clock: Callable[[], float]) -> Steps:
    """kubectl rollout status's loop (RolloutStatusOptions.Run: get, then UntilWithSync) as steps."""
    deadline = None if not timeout else clock() + timeout  # kubectl: 0 means no timeout
    resources = lister_watcher(client)
    obj = yield Call(resources, "get", (name,))  # kubectl's builder gets it first: NotFound as kubectl's
    group, kind = group_kind(obj)
    viewer = status_viewer_for(group, kind)
    selector = f"metadata.name={name}"
    listed = yield Call(resources, "list", (), {"field_selector": selector})
    items, resource_version, _ = list_meta(listed)
    last: str | None = None
    for item in items:  # the informer's ADDED events
        last, done = viewer(item, revision)
        yield Emit(last)
        if done or not watch:
            return None
    remaining = None if deadline is None else deadline - clock()
    if remaining is not None and remaining <= 0:
        raise RolloutTimeout(kind, name, last)
    events = yield Watch(client, resource_version, items, selector, remaining)
    while (event := (yield Next(events))) is not END:
        if event.type == "DELETED":
            raise RolloutStatusError("object has been deleted")
        last, done = viewer(event.object, revision)
        yield Emit(last)
        if done or not watch:
            return None
    raise RolloutTimeout(kind, name, last)  # a RetryWatcher ends only when stopped: the deadline came


@overload
def rollout_status(client: AsyncWatchable[Any], name: str, *, revision: int = 0, watch: bool = True,
                   timeout: float | None = None) -> AsyncIterator[str]: ...
@overload
def rollout_status(client: Watchable[Any], name: str, *, revision: int = 0, watch: bool = True,
                   timeout: float | None = None) -> Iterator[str]: ...
def rollout_status(client: Any, name: str, *, revision: int = 0, watch: bool = True,
                   timeout: float | None = None) -> Iterator[str] | AsyncIterator[str]:
    """The status messages of the rollout of Deployment, DaemonSet or StatefulSet ``name`` until it is
    done, as ``kubectl rollout status`` prints them (``kubectl rollout status -w`` prints one line
    per event too, repeated when the status did not change). ``client`` is the kind's typed client,
    e.g. ``cs.apps_v1.deployments("prod")``; an async one gives an async iterator.

    ``revision`` > 0 (Deployments) requires that revision to be the running one; ``watch=False``
    yields the current status and stops; ``timeout`` (seconds, None or 0: none) raises
    ``RolloutTimeout``. A failed rollout (a progress deadline exceeded), an OnDelete strategy and
    the object's deletion raise ``RolloutStatusError`` with kubectl's message."""
    lister_watcher(client)  # a TypeError naming what it expected, before any request
    check_arguments(client, name, (), "")
    if timeout is not None and timeout < 0:
        raise ValueError(f"timeout: expected None or seconds >= 0, got {timeout}")
    if isinstance(revision, bool) or not isinstance(revision, int) or revision < 0:
        raise ValueError(f"revision: expected an integer >= 0, got {revision!r}")
    steps = _status_steps(client, name, revision, watch, timeout, time.monotonic)
    return aiterate(steps) if is_async(client) else iterate(steps)


# -- restart -------------------------------------------------------------------------------


def rfc3339_now(now: datetime.datetime | None = None) -> str:
    """Go's ``time.Now().Format(time.RFC3339)``: the time to the second with its offset, ``Z`` for a
    zero one; ``now`` (default: the current time) in the local zone unless it carries its own."""
    local = now if now is not None and now.tzinfo is not None else (now or datetime.datetime.now()).astimezone()
    offset = local.utcoffset() or datetime.timedelta(0)
    if offset == datetime.timedelta(0):
        return local.strftime("%Y-%m-%dT%H:%M:%SZ")
    minutes = int(offset.total_seconds()) // 60
    sign = "+" if minutes >= 0 else "-"
    return local.strftime("%Y-%m-%dT%H:%M:%S") + f"{sign}{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}"


def restart_patch(obj: Model | Mapping[str, Any], now: datetime.datetime | None = None) -> bytes:
    """The strategic merge patch ``kubectl rollout restart`` sends for ``obj``: its pod template's
    ``kubectl.kubernetes.io/restartedAt`` set to ``now`` (default: the current time).
    ``RolloutError`` for a paused Deployment, a kind kubectl cannot restart, and an annotation that
    already holds this second (kubectl's "{}" patch)."""
    group, kind = group_kind(obj)
    if (group, kind) not in _RESTARTABLE:
        raise RolloutError("restarting is not supported")
    spec = as_json(obj).get("spec") or {}
    if kind == "Deployment" and spec.get("paused") is True:
        raise RolloutError("can't restart paused deployment (run rollout resume first)")
    stamp = rfc3339_now(now)
    current = ((spec.get("template") or {}).get("metadata") or {}).get("annotations") or {}
    if current.get(RESTARTED_AT) == stamp:
        name = (as_json(obj).get("metadata") or {}).get("name", "")
        raise RolloutError(f"failed to create patch for {name}: if restart has already been triggered within the past "
                           "second, please wait before attempting to trigger another")
    patch = {"spec": {"template": {"metadata": {"annotations": {RESTARTED_AT: stamp}}}}}
    return json.dumps(patch, separators=(",", ":")).encode()


def _restart_steps(client: Any, name: str, field_manager: str | None, dry_run: bool) -> Steps:
    obj = yield Call(client, "get", (name,))
    patch = restart_patch(obj)
    return (yield Call(client, "patch", (name, patch, PatchType.STRATEGIC),
                        {"field_manager": field_manager, "dry_run": dry_run}))


@overload
def restart(client: AsyncPatchableClient[T], name: str, *, field_manager: str | None = None,
            dry_run: bool = False) -> Coroutine[Any, Any, T]: ...
@overload
def restart(client: PatchableClient[T], name: str, *, field_manager: str | None = None, dry_run: bool = False) -> T: ...
def restart(client: Any, name: str, *, field_manager: str | None = None, dry_run: bool = False) -> Any:
    """``kubectl rollout restart``: patch the pod template of Deployment, DaemonSet or StatefulSet
    ``name`` with the restartedAt annotation, so its controller rolls every pod; returns the
    patched object (awaitable on an async client). kubectl's field manager is
    ``kubectl-rollout``; pass it as ``field_manager`` to appear as kubectl does."""
    check_arguments(client, name, ("get", "patch"), _CLIENTS)
    steps = _restart_steps(client, name, field_manager, dry_run)
    return arun(steps) if is_async(client) else run(steps)


# -- undo ----------------------------------------------------------------------------------

_REPLICA_SETS = ResourceInfo("apps", "v1", "replicasets", True, "ReplicaSet")


def _replica_sets_beside(client: Any) -> Any:
    """A dict client of the ReplicaSets in the namespace of the Deployments ``client`` (a typed client,
    which keeps its ``ResourceClient`` in ``_client``, or a resource client), on its REST client."""
    inner = client if isinstance(client, (ResourceClient, AsyncResourceClient)) else getattr(client, "_client", None)
    if not isinstance(inner, (ResourceClient, AsyncResourceClient)):
        raise TypeError(f"expected a Deployments client such as cs.apps_v1.deployments(ns), not {type(client).__name__}")
    codec = DictCodec("apps/v1", "ReplicaSet")
    if isinstance(inner, AsyncResourceClient):
        return AsyncResourceClient(inner._rest, _REPLICA_SETS, inner._req.namespace, codec)
    return ResourceClient(inner._rest, _REPLICA_SETS, inner._req.namespace, codec)


def _undo_steps(client: Any, name: str, to_revision: int, dry_run: bool) -> Steps:
    """DeploymentRollbacker.Rollback as steps."""
    if to_revision < 0:
        raise rollback.revision_not_found(to_revision)
    obj = yield Call(client, "get", (name,))
    group, kind = group_kind(obj)
    if kind != "Deployment":
        raise rollback.RollbackError(f'no rollbacker has been implemented for "{kind}.{group}"')
    deployment = as_json(obj)
    if rollback.LAST_APPLIED in ((deployment.get("metadata") or {}).get("annotations") or {}):
        log.warning("resource deployment.apps/%s was previously managed with 'kubectl apply'. Rolling back will not "
                    "update the %s annotation, which may cause unexpected behavior on future 'kubectl apply' "
                    "operations. Consider using 'kubectl apply' with your previous configuration file instead.",
                    name, rollback.LAST_APPLIED)
    selector = rollback.selector_string((deployment.get("spec") or {}).get("selector"))
    listed = yield Call(_replica_sets_beside(client), "list_all", (), {"label_selector": selector})
    owned = rollback.owned_replica_sets(deployment, listed.get("items") or [])
    replica_set = rollback.replica_set_for_revision(deployment, owned, to_revision)
    spec = deployment.get("spec") or {}
    if spec.get("paused") is True:
        raise rollback.RollbackError("you cannot rollback a paused deployment; resume it first with 'kubectl rollout "
                                     "resume' and try again")
    if rollback.equal_ignore_hash((replica_set.get("spec") or {}).get("template"), spec.get("template")):
        return rollback.skipped_message(to_revision)
    patch = rollback.rollback_patch(deployment, replica_set)
    try:
        yield Call(client, "patch", (name, patch, PatchType.JSON), {"dry_run": dry_run})
    except Exception as e:
        raise rollback.RollbackError(f"failed restoring revision {to_revision}: {e}") from e
    return rollback.ROLLBACK_SUCCESS


@overload
def undo(client: AsyncPatchableClient[Any], name: str, to_revision: int = 0, *,
         dry_run: bool = False) -> Coroutine[Any, Any, str]: ...
@overload
def undo(client: PatchableClient[Any], name: str, to_revision: int = 0, *, dry_run: bool = False) -> str: ...
def undo(client: Any, name: str, to_revision: int = 0, *, dry_run: bool = False) -> Any:
    """``kubectl rollout undo`` of Deployment ``name`` to ``to_revision`` (0: the previous one);
    ``client`` is the typed Deployments client. Returns kubectl's result, ``"rolled back"`` or
    ``"skipped rollback (current template already matches revision N)"`` (awaitable on an async
    client); ``RollbackError`` with kubectl's message for a revision not in the history, a paused
    Deployment or no history."""
    check_arguments(client, name, ("get", "patch"), "a typed Deployments client such as cs.apps_v1.deployments(ns)")
    steps = _undo_steps(client, name, to_revision, dry_run)
    return arun(steps) if is_async(client) else run(steps)


__all__ = [
    "RESTARTED_AT", "WAIT_TIMEOUT_MESSAGE", "AsyncPatchableClient", "PatchableClient", "RolloutError", "RolloutTimeout",
    "restart", "restart_patch", "rfc3339_now", "rollout_status", "undo",
]
