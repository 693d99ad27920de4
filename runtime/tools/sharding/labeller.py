"""The shard labeller: run by the elected shard leader, it keeps each object's shard label equal
to its rendezvous owner among the live members (assignment.py), so that each replica's informer
can select its shard on the server (``shard.kgen.io/<controller>=<identity>``).

Only the leader (tools/leaderelection on ``<controller>-shard-leader``, client-go's Lease lock
and defaults) writes labels, so two labellers never fight; it stops at the elector's fence.
A round (every ``retry_period``, sooner after an event) plans moves from its cache — a
metadata-only copy of every object (a transform drops all but the metadata it reads) — and
sends them (``concurrency`` at a time) as JSON merge patches, each carrying the
resourceVersion it planned from: a patch is conditional (an object changed since is a Conflict, planned again next round), idempotent
(a label already right is not written) and rate-limited (``moves_per_second``, on top of the
client's own QPS).

Rules of a move, so that no key is ever reconciled by two replicas at once (gate.py checks
the other side):

- an unlabelled object (new: labelled on its ADD) goes to its owner at once;
- an object labelled for a member that is not live and not surely dead (membership.py) stays;
- every other move records where it came from and when: ``…-from: <previous member>`` and
  ``…-epoch: <E>``; the new owner starts it only once the previous member is dead (its Lease
  expired: it fenced itself before) or has acknowledged epoch E (``released-epoch`` on its
  Lease), which it does after a consistent list of its shard taken after it saw E published;
- E is published on the leader's Lease (``shard.kgen.io/epoch``) only after every move of
  that epoch was written, so such a list excludes them all; a new leader starts above every
  epoch it can see (published, acknowledged or on an object);
- an object whose previous handoff is still pending (its previous member live and not
  acknowledged) is not moved again: the acknowledgement it waits for would not cover it.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from kgen.runtime.apimachinery.errors import Conflict, NotFound
from kgen.runtime.apimachinery.meta import annotations_of, labels_of, namespace_and_name, resource_version_of
from kgen.runtime.gentype.client import ResourceClient
from kgen.runtime.gentype.resource import DictCodec, PatchType, ResourceInfo
from kgen.runtime.rest.client import RESTClient
from kgen.runtime.tools.cache.shared_informer import SharedIndexInformer
from kgen.runtime.tools.cache.store import meta_namespace_key
from kgen.runtime.tools.leaderelection.resourcelock import LEASES
from kgen.runtime.tools.sharding.assignment import owner
from kgen.runtime.tools.sharding.gate import epoch_annotation, from_annotation
from kgen.runtime.tools.sharding.membership import EPOCH_ANNOTATION, Members, leader_lease_name
from kgen.runtime.util.flowcontrol import TokenBucket

__all__ = ["Labeller", "Move", "plan_moves"]

log = logging.getLogger("kgen.runtime.tools.sharding")


@dataclass(frozen=True)
class Move:
    """A label move the leader writes: object, its resourceVersion, the member it goes ``to``, and the
    member it moves from (``handoff_from``; None for an unlabelled object)."""

    namespace: str
    name: str
    resource_version: str
    to: str
    handoff_from: str | None  # the previous member, None for an unlabelled object


def _epoch(annotations: Any, name: str) -> int:
    try:
        return int(annotations.get(name) or 0)
    except ValueError:
        return 0


def plan_moves(objects: Iterable[Any], controller: str, label: str, members: Members,
               lease_duration: float) -> list[Move]:
    """The moves that bring every object to its owner among the live members (module rules)."""
    live = members.live()
    if not live:
        return []
    from_key, epoch_key = from_annotation(controller), epoch_annotation(controller)
    moves = []
    for obj in objects:
        key = meta_namespace_key(obj)
        current = labels_of(obj).get(label) or None
        want = owner(key, live)
        assert want is not None
        if current == want:
            continue
        namespace, name = namespace_and_name(obj)
        rv = resource_version_of(obj)
        if current is None:
            moves.append(Move(namespace, name, rv, want, None))
            continue
        if not members.is_live(current) and not members.is_dead(current, lease_duration):
            continue  # unknown yet: wait until it is one or the other
        annotations = annotations_of(obj)
        previous = annotations.get(from_key)
        if previous and previous != current and members.released_epoch(previous) < _epoch(annotations, epoch_key) \
                and not members.is_dead(previous, lease_duration):
            continue  # its last handoff is still pending
        moves.append(Move(namespace, name, rv, want, current))
    return moves


def _metadata_only(obj: Any) -> Any:
    """What the labeller keeps of an object: enough to plan and to patch conditionally."""
    if not isinstance(obj, dict):
        return obj
    meta = obj.get("metadata") or {}
    return {"metadata": {k: meta[k] for k in ("name", "namespace", "labels", "annotations", "resourceVersion")
                         if k in meta}}


class Labeller:
    """The leader's loop: ``run(leading)`` is the shard leader elector's ``on_started_leading``."""

    def __init__(
        self,
        rest: RESTClient,
        resource: ResourceInfo,
        controller: str,
        members: Members,
        refresh_members: Callable[[], None],
        *,
        namespace: str | None,
        lease_namespace: str,
        lease_duration: float,
        retry_period: float,
        moves_per_second: float = 100.0,
        concurrency: int = 4,
    ) -> None:
        self.rest, self.resource, self.controller = rest, resource, controller
        self.members, self.refresh_members = members, refresh_members
        self.namespace, self.lease_namespace = namespace, lease_namespace
        self.lease_duration, self.retry_period = lease_duration, retry_period
        self.label = f"shard.kgen.io/{controller}"
        self.bucket = TokenBucket(moves_per_second, max(1, int(moves_per_second)))
        self.concurrency = concurrency
        self.moves_written = 0
        self._count = threading.Lock()
        self._dirty = threading.Event()

    def _client(self, namespace: str | None, resource: ResourceInfo | None = None,
                ) -> ResourceClient[dict[str, Any], dict[str, Any]]:
        resource = resource or self.resource
        return ResourceClient(self.rest, resource, namespace or None, DictCodec(resource.api_version, resource.kind))

    def run(self, leading: threading.Event) -> None:
        """Label objects until ``leading`` is set (leadership ended): an informer over the objects'
        metadata wakes the loop on each change."""
        informer: SharedIndexInformer[dict[str, Any]] = SharedIndexInformer(self._client(self.namespace))
        informer.set_transform(_metadata_only)
        def poke(*args: Any) -> None:
            self._dirty.set()

        informer.add_event_handler(on_add=poke, on_update=poke, on_delete=poke)
        informer.run()
        try:
            while not informer.has_synced():
                if leading.wait(0.1):
                    return
            self.refresh_members()
            objects = informer.get_indexer().list()
            epoch = 1 + max([self.members.requested_epoch(), self.members.max_released_epoch(),
                             *(_epoch(annotations_of(o), epoch_annotation(self.controller)) for o in objects)])
            log.info("shard leader for %s: %d objects, next epoch %d", self.controller, len(objects), epoch)
            while not leading.is_set():
                self._dirty.clear()
                moves: list[Move] = []
                try:
                    epoch, moves = self._round(informer, epoch, leading)
                except Exception:  # noqa: BLE001 - a leader must not stay leading with its labeller gone
                    log.exception("shard labeller %s: a round failed", self.controller)
                # The next round after a change, or a retry period: members' Leases expire
                # without events. After writes, the cache first takes in their echoes.
                self._dirty.wait(self.retry_period)
                leading.wait(min(0.5, self.retry_period) if moves else 0.05)
        finally:
            informer.stop()

    def _round(self, informer: SharedIndexInformer[dict[str, Any]], epoch: int,
               leading: threading.Event) -> tuple[int, list[Move]]:
        """Plans and writes one round of moves; returns the next epoch and the moves."""
        self.refresh_members()
        moves = plan_moves(informer.get_indexer().list(), self.controller, self.label, self.members,
                           self.lease_duration)
        started = time.monotonic()
        handoffs = self._write(moves, epoch, leading)
        if moves:
            log.info("shard labeller %s: %d moves planned, %d handoffs written (epoch %d) in %.2fs",
                     self.controller, len(moves), max(handoffs, 0), epoch, time.monotonic() - started)
        if handoffs > 0 and self._publish(epoch, leading):
            epoch += 1
        return epoch, moves

    def _write(self, moves: list[Move], epoch: int, leading: threading.Event) -> int:
        """Writes the moves, ``concurrency`` at a time; returns how many handoffs were written
        (-1: leadership ended half-way, the epoch must not be published)."""
        if not moves:
            return 0
        with ThreadPoolExecutor(self.concurrency, thread_name_prefix="shard-labeller") as pool:
            written = list(pool.map(lambda move: self._move(move, epoch, leading), moves))
        if leading.is_set():
            return -1
        return sum(1 for move, ok in zip(moves, written) if ok and move.handoff_from is not None)

    def _move(self, move: Move, epoch: int, leading: threading.Event) -> bool:
        wait = self.bucket.reserve()
        if leading.is_set() or (wait and leading.wait(wait)):
            return False
        metadata: dict[str, Any] = {"labels": {self.label: move.to}, "resourceVersion": move.resource_version}
        if move.handoff_from:
            metadata["annotations"] = {from_annotation(self.controller): move.handoff_from,
                                       epoch_annotation(self.controller): str(epoch)}
        try:
            self._client(move.namespace).patch(move.name, {"metadata": metadata}, PatchType.MERGE)
        except (Conflict, NotFound):
            return False  # changed or gone since planned: the next round plans it again
        except Exception as e:  # noqa: BLE001 - a failed write is retried by the next round
            log.warning("shard labeller: moving %s/%s failed: %s", move.namespace, move.name, e)
            return False
        with self._count:
            self.moves_written += 1
        return True

    def _publish(self, epoch: int, leading: threading.Event) -> bool:
        """Publishes ``epoch`` on the leader's Lease once all its moves are written; retried
        while leading (members wait for it). False if leadership ended first."""
        lease = self._client(self.lease_namespace, LEASES)
        patch = {"metadata": {"annotations": {EPOCH_ANNOTATION: str(epoch)}}}
        while not leading.is_set():
            try:
                lease.patch(leader_lease_name(self.controller), patch, PatchType.MERGE)
                return True
            except Exception as e:  # noqa: BLE001
                log.warning("shard labeller: publishing epoch %d failed: %s", epoch, e)
                leading.wait(self.retry_period)
        return False
