"""``kubectl scale``: replicas set through the scale subresource, with kubectl's preconditions
(k8s.io/kubectl pkg/scale), sync and async under one name.

kubectl GETs the Scale, checks ``--current-replicas`` and ``--resource-version`` against it
(``ScalePreconditionError``, kubectl's PreconditionError message), PUTs it back with the new
replicas, and on a 409 Conflict tries again every second for up to 5 minutes
(ScaleWithRetries). Without preconditions kubectl sends a blind merge patch instead; the typed
clients have no patch of the scale subresource (``scale(name)`` and ``update_scale(name, Scale)``
only), so here it is the same GET and PUT, which ends in the same state: a conflict is retried,
never reported.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Coroutine, Mapping
from typing import Any, Protocol, TypeVar, overload

from kgen.runtime.apimachinery.errors import Conflict
from kgen.runtime.apimachinery.model import Model
from kgen.runtime.kubectl.rollout._steps import Call, Sleep, Steps, arun, check_arguments, is_async, run
from kgen.runtime.kubectl.rollout.status_viewer import as_json

S = TypeVar("S", bound=Model)
"""The Scale model."""

SCALE_RETRY_INTERVAL = 1.0
SCALE_RETRY_TIMEOUT = 300.0
"""kubectl scale's retry on conflicts: every second, for up to 5 minutes (scale.NewRetryParams)."""


class ScalePreconditionError(Exception):
    """kubectl scale's PreconditionError: the Scale did not have the replicas or resourceVersion the
    caller expected."""

    def __init__(self, precondition: str, expected: str, actual: str) -> None:
        super().__init__(f"Expected {precondition} to be {expected}, was {actual}")
        self.precondition, self.expected, self.actual = precondition, expected, actual


class ScalableClient(Protocol[S]):
    """A typed client with the scale subresource (Deployments, StatefulSets, ReplicaSets)."""

    def scale(self, name: str) -> S:
        """The Scale of ``name`` (GET .../scale)."""
        ...

    def update_scale(self, name: str, scale: S) -> S:
        """Replace the Scale of ``name`` (PUT .../scale); the Scale the server stored."""
        ...


class AsyncScalableClient(Protocol[S]):
    """``ScalableClient`` on asyncio."""

    async def scale(self, name: str) -> S:
        """The Scale of ``name`` (GET .../scale)."""
        ...

    async def update_scale(self, name: str, scale: S) -> S:
        """Replace the Scale of ``name`` (PUT .../scale); the Scale the server stored."""
        ...


def check_scale_preconditions(scale_: Model | Mapping[str, Any], current_replicas: int | None,
                              resource_version: str | None) -> None:
    """kubectl's ScalePrecondition.validate: ``ScalePreconditionError`` when the Scale's replicas or
    resourceVersion are not the expected ones (None: not checked)."""
    data = as_json(scale_)
    replicas = int((data.get("spec") or {}).get("replicas") or 0)
    if current_replicas is not None and replicas != current_replicas:
        raise ScalePreconditionError("replicas", str(current_replicas), str(replicas))
    actual_version = str((data.get("metadata") or {}).get("resourceVersion") or "")
    if resource_version and actual_version != resource_version:
        raise ScalePreconditionError("resource version", resource_version, actual_version)


def _scale_steps(client: Any, name: str, replicas: int, current_replicas: int | None, resource_version: str | None,
                 clock: Callable[[], float]) -> Steps:
    if isinstance(replicas, bool) or not isinstance(replicas, int) or replicas < 0:
        raise ValueError(f"replicas: expected an integer >= 0, got {replicas!r}")
    deadline = clock() + SCALE_RETRY_TIMEOUT
    while True:
        current = yield Call(client, "scale", (name,))
        check_scale_preconditions(current, current_replicas, resource_version)
        data = current.to_dict()
        data.setdefault("spec", {})["replicas"] = replicas
        try:
            return (yield Call(client, "update_scale", (name, type(current).from_dict(data))))
        except Conflict:
            if clock() + SCALE_RETRY_INTERVAL > deadline:
                raise
            yield Sleep(SCALE_RETRY_INTERVAL)


@overload
def scale(client: AsyncScalableClient[S], name: str, replicas: int, *, current_replicas: int | None = None,
          resource_version: str | None = None) -> Coroutine[Any, Any, S]: ...
@overload
def scale(client: ScalableClient[S], name: str, replicas: int, *, current_replicas: int | None = None,
          resource_version: str | None = None) -> S: ...
def scale(client: Any, name: str, replicas: int, *, current_replicas: int | None = None,
          resource_version: str | None = None) -> Any:
    """``kubectl scale --replicas``: set ``name``'s replicas through its scale subresource; returns
    the Scale the server stored (awaitable on an async client). ``current_replicas`` and
    ``resource_version`` are kubectl's ``--current-replicas`` and ``--resource-version``
    preconditions (``ScalePreconditionError``)."""
    check_arguments(client, name, ("scale", "update_scale"),
                    "a typed client with the scale subresource such as cs.apps_v1.deployments(ns)")
    steps = _scale_steps(client, name, replicas, current_replicas, resource_version, time.monotonic)
    return arun(steps) if is_async(client) else run(steps)


__all__ = ["AsyncScalableClient", "ScalableClient", "ScalePreconditionError", "check_scale_preconditions", "scale"]
