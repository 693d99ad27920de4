"""controller-runtime's pkg/event: what a source hands to predicates and event handlers.

Typed in the watched model (``CreateEvent[Deployment]``), so a predicate or a map function for
Deployments is checked against Deployments. A delete seen only as a relist's tombstone (client-go's
``DeletedFinalStateUnknown``) arrives unwrapped, with ``delete_state_unknown=True``, as
controller-runtime's Kind source hands it on.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, TypeVar

__all__ = ["CreateEvent", "DeleteEvent", "GenericEvent", "UpdateEvent"]

T = TypeVar("T")


@dataclass(frozen=True)
class CreateEvent(Generic[T]):
    """An object was created (or first seen by the informer)."""

    object: T


@dataclass(frozen=True)
class UpdateEvent(Generic[T]):
    """An object was updated: its old and new states."""

    object_old: T
    object_new: T


@dataclass(frozen=True)
class DeleteEvent(Generic[T]):
    """An object was deleted; ``delete_state_unknown`` when the watch missed the delete and ``object``
    is its last known state."""

    object: T
    delete_state_unknown: bool = False


@dataclass(frozen=True)
class GenericEvent(Generic[T]):
    """An event from outside the cluster's watch (a ``Channel`` source, a timer)."""

    object: T
