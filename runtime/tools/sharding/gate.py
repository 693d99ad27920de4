"""The replica's gate: whether it may start reconciling a key now, and what it has in flight.

The workqueue already keeps one key on one worker of one process (client-go's queue rule).
Across processes nothing but this gate stands between a key and a second replica, so every
start passes here, decided on the freshest view this replica has, and refused when in doubt:

- fenced: the member Lease could not be renewed before its renew deadline (the elector's
  ``leading`` event), or the elector's fence has passed — checked here on the clock, because a
  process that was paused (SIGSTOP, a VM freeze) wakes with its workers running before its
  elector had a chance to notice: nothing starts any more (self-fencing, as a leader stops);
- not in this replica's shard cache, or labelled for another member: not ours;
- stale: the last consistent list of the shard (taken to acknowledge a handoff epoch, see
  ``install``) did not contain the key, and the cached version is not newer than that list:
  the cache has not yet caught up with a move away — the version it holds was superseded;
- held: the object was handed over from a member (``shard.kgen.io/<controller>-from``) at an
  epoch (``…-epoch``) that member has not acknowledged yet (``released-epoch`` on its Lease),
  and that member is not dead: its in-flight work on the key may not be finished. Held keys
  are retried when the member Leases change (``held()``). "Dead" is judged on the Lease
  informer's store as of this call (``refresh``): the previous owner fenced itself
  ``clock_skew_margin`` before its Lease expires on this clock, which covers this replica's
  Lease watch lagging by less than that margin.

Versions are compared with apimachinery's CompareResourceVersion (same resource only).
``install`` + ``wait_drained`` give the acknowledging side: after a consistent list of the shard,
every reconcile that began before it has ended, and none begins on a key the list excluded.
"""

from __future__ import annotations

import enum
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from kgen.runtime.apimachinery.meta import annotations_of, labels_of, resource_version_of
from kgen.runtime.apimachinery.util.resourceversion import compare_resource_version
from kgen.runtime.tools.sharding.membership import Members

__all__ = ["Decision", "ListedObject", "ShardGate", "from_annotation", "epoch_annotation"]


def from_annotation(controller: str) -> str:
    """On a moved object: the member it was handed over from."""
    return f"shard.kgen.io/{controller}-from"


def epoch_annotation(controller: str) -> str:
    """On a moved object: the handoff epoch of the move."""
    return f"shard.kgen.io/{controller}-epoch"


class Decision(enum.Enum):
    """The gate's verdict on a key: start a reconcile, skip it (not ours now: an event brings it back if
    it becomes ours), or hold it (ours, waiting for the previous owner's acknowledgement)."""

    START = "start"
    SKIP = "skip"  # not ours (now): forget it, an event brings it back if it becomes ours
    HOLD = "hold"  # ours, waiting for the previous owner's acknowledgement


@dataclass(frozen=True)
class ListedObject:
    """What the gate keeps of an object from a consistent list: its version and metadata."""

    resource_version: str
    labels: Mapping[str, str]
    annotations: Mapping[str, str]


def _epoch(annotations: Mapping[str, str], name: str) -> int:
    try:
        return int(annotations.get(name) or 0)
    except ValueError:
        return 0


class ShardGate:
    """See the module docstring. ``begin`` decides and, on START, counts the key in flight
    until ``end``."""

    def __init__(self, controller: str, identity: str, label: str, members: Members, lease_duration: float,
                 *, fence: Callable[[], float] = lambda: float("inf"), refresh: Callable[[], None] = lambda: None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        """``fence``: until when (on ``clock``) the member Lease is surely ours (the elector's).
        ``refresh``: brings ``members`` up to date with the Lease informer's store; called
        before a previous owner is judged, so that the judgement is as fresh as the watch."""
        self.refresh = refresh
        self.controller, self.identity, self.label, self.fence_time = controller, identity, label, fence
        self.members, self.lease_duration, self.clock = members, lease_duration, clock
        self._from, self._epoch = from_annotation(controller), epoch_annotation(controller)
        self._changed = threading.Condition()
        self._fenced = False
        self._generation = 0
        self._in_flight: dict[str, int] = {}  # key -> generation it started in
        self._listed: dict[str, ListedObject] | None = None
        self._listed_rv = ""
        self._held: set[str] = set()

    # -- deciding ---------------------------------------------------------------------------

    def _view(self, key: str, cached: Any) -> tuple[Mapping[str, str], Mapping[str, str]] | None:
        """The newest labels and annotations known for ``key``; None if the cache is stale."""
        rv = resource_version_of(cached)
        labels, annotations = labels_of(cached), annotations_of(cached)
        if self._listed is None:
            return labels, annotations
        listed = self._listed.get(key)
        if listed is None:
            return (labels, annotations) if compare_resource_version(rv, self._listed_rv) > 0 else None
        if compare_resource_version(listed.resource_version, rv) > 0:
            return listed.labels, listed.annotations
        return labels, annotations

    def _handoff_pending(self, annotations: Mapping[str, str]) -> bool:
        previous = annotations.get(self._from)
        if not previous or previous == self.identity:
            return False
        self.refresh()
        if self.members.released_epoch(previous) >= _epoch(annotations, self._epoch):
            return False
        return not self.members.is_dead(previous, self.lease_duration)

    def begin(self, key: str, cached: Any) -> Decision:
        """May ``key`` (whose cached object is ``cached``, None if gone) start now?"""
        with self._changed:
            if self._fenced or self.clock() >= self.fence_time() or cached is None or key in self._in_flight:
                return Decision.SKIP
            view = self._view(key, cached)
            if view is None or view[0].get(self.label) != self.identity:
                return Decision.SKIP
            if self._handoff_pending(view[1]):
                self._held.add(key)
                return Decision.HOLD
            self._held.discard(key)
            self._in_flight[key] = self._generation
            return Decision.START

    def end(self, key: str) -> None:
        """The reconcile of ``key`` ended: it is no longer in flight."""
        with self._changed:
            self._in_flight.pop(key, None)
            self._changed.notify_all()

    def held(self) -> list[str]:
        """Keys waiting for a previous owner, to be tried again (and forgotten here until then)."""
        with self._changed:
            keys, self._held = sorted(self._held), set()
            return keys

    # -- acknowledging and fencing ------------------------------------------------------------

    def install(self, listed: dict[str, ListedObject], list_resource_version: str) -> int:
        """Takes a consistent list of the shard as the reference for staleness; returns the
        generation whose earlier reconciles ``wait_drained`` waits for."""
        with self._changed:
            self._listed, self._listed_rv = listed, list_resource_version
            self._generation += 1
            return self._generation

    def wait_drained(self, generation: int, timeout: float | None = None) -> bool:
        """Waits until no reconcile that began before ``generation`` is still running."""
        with self._changed:
            return self._changed.wait_for(
                lambda: all(g >= generation for g in self._in_flight.values()), timeout)

    def fence(self) -> None:
        """Nothing starts any more; ``wait_idle`` waits for what is running."""
        with self._changed:
            self._fenced = True
            self._changed.notify_all()

    def wait_idle(self, timeout: float | None = None) -> bool:
        """Wait until no reconcile is in flight (or ``timeout`` seconds pass); True if none is."""
        with self._changed:
            return self._changed.wait_for(lambda: not self._in_flight, timeout)

    def in_flight(self) -> list[str]:
        """The keys being reconciled, sorted."""
        with self._changed:
            return sorted(self._in_flight)
