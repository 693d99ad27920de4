"""One replica's side: its shard's informer, a workqueue, workers behind the gate, and the
acknowledgement of handoff epochs.

``ShardReplica.run(leading)`` is the ``on_started_leading`` of the replica's *membership*
elector (membership.py): it runs exactly while this replica holds its member Lease, and
``leading`` is set as soon as the Lease could not be renewed before the renew deadline. Then
the replica fences itself (gate.py): nothing starts any more, the queue is shut down, and
``run`` returns once the reconciles in flight have ended, so that the elector releases the
Lease only then (``release_on_cancel``).

The informer lists and watches with ``shard.kgen.io/<controller>=<identity>``: the server
sends this replica its shard only, so its cache, its memory and its watch traffic are the
shard's. An object moved away leaves the selection (a watch DELETED), an object moved here
enters it (ADDED). Every event and every resync enqueues the key (client-go's controller
pattern); a worker asks the gate, then calls ``reconcile(key, obj)`` with the cached object.
A reconcile that raises is retried with the queue's rate limiter (client-go's defaults).

Acknowledging (the old owner's half of a handoff, see labeller.py): when the leader's
published epoch is above the last one this run acknowledged — and once right after joining —
the replica takes a consistent list of its shard (a quorum read: no resourceVersion), hands
it to the gate as the reference for stale cache entries, waits until every reconcile that
began before has ended, and writes the epoch to its Lease (``released-epoch``). Joining
waits ``retry_period`` before that first list, so that a move the leader decided while it
still saw this replica as dead has landed before the list.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any, Generic, TypeVar

from kgen.runtime.apimachinery.util.resourceversion import compare_resource_version
from kgen.runtime.apimachinery.meta import annotations_of, labels_of, list_meta, resource_version_of
from kgen.runtime.gentype.client import ResourceClient
from kgen.runtime.gentype.resource import Codec, DictCodec, PatchType, ResourceInfo
from kgen.runtime.rest.client import RESTClient
from kgen.runtime.tools.cache.shared_informer import SharedIndexInformer
from kgen.runtime.tools.cache.store import deletion_handling_key, meta_namespace_key
from kgen.runtime.tools.leaderelection.resourcelock import LEASES
from kgen.runtime.tools.sharding.gate import Decision, ListedObject, ShardGate
from kgen.runtime.tools.sharding.membership import RELEASED_ANNOTATION, Members, member_lease_name
from kgen.runtime.util.workqueue import RateLimitingQueue, default_controller_rate_limiter

__all__ = ["Reconcile", "ShardReplica"]

log = logging.getLogger("kgen.runtime.tools.sharding")

T = TypeVar("T")
Reconcile = Callable[[str, Any], object]
"""Reconciles the object of a key: called with the key and the object (None if it is gone)."""


class ShardReplica(Generic[T]):
    """See the module docstring."""

    def __init__(
        self,
        rest: RESTClient,
        resource: ResourceInfo,
        codec: Codec[T, Any],
        controller: str,
        identity: str,
        reconcile: Reconcile,
        members: Members,
        refresh_members: Callable[[], None],
        *,
        namespace: str | None,
        lease_namespace: str,
        lease_duration: float,
        retry_period: float,
        resync: float = 0.0,
        workers: int = 1,
    ) -> None:
        self.rest, self.resource, self.codec = rest, resource, codec
        self.controller, self.identity, self.reconcile = controller, identity, reconcile
        self.members, self.refresh_members = members, refresh_members
        self.namespace, self.lease_namespace = namespace, lease_namespace
        self.lease_duration, self.retry_period, self.resync, self.workers = lease_duration, retry_period, resync, workers
        self.label = f"shard.kgen.io/{controller}"
        self.informer: SharedIndexInformer[T] | None = None
        self.gate: ShardGate | None = None
        self.acknowledged = 0
        self.membership_fence: Callable[[], float] = lambda: float("inf")
        """The membership elector's fence (``LeaderElectionCore.fence``), set by the controller."""

    def cache_keys(self) -> list[str]:
        """The keys this replica's shard informer holds now (empty when not running)."""
        informer = self.informer
        return sorted(informer.get_indexer().list_keys()) if informer is not None else []

    # -- the run ------------------------------------------------------------------------------

    def run(self, leading: threading.Event) -> None:
        """Reconcile this member's objects (those labelled with its identity) until ``leading`` is set
        (the member Lease was lost); returns once the reconciles in flight have ended."""
        selector = f"{self.label}={self.identity}"
        client = ResourceClient(self.rest, self.resource, self.namespace, self.codec)
        informer: SharedIndexInformer[T] = SharedIndexInformer(
            client, self.resync, list_options=lambda options: {**options, "label_selector": selector})
        gate = ShardGate(self.controller, self.identity, self.label, self.members, self.lease_duration,
                         fence=self.membership_fence, refresh=self.refresh_members)
        queue: RateLimitingQueue[str] = RateLimitingQueue(default_controller_rate_limiter(),
                                                          name=f"{self.controller}-{self.identity}")

        def enqueue(obj: Any) -> None:
            queue.add(deletion_handling_key(obj))

        informer.add_event_handler(on_add=enqueue, on_update=lambda old, new: enqueue(new), on_delete=enqueue)
        self.informer, self.gate, self.acknowledged = informer, gate, 0
        informer.run()
        threads: list[threading.Thread] = []
        try:
            while not informer.has_synced():
                if leading.wait(0.1):
                    return
            if leading.wait(self.retry_period):
                return
            while not self._acknowledge(gate, leading, joining=True):
                if leading.wait(self.retry_period):
                    return
            for i in range(self.workers):
                thread = threading.Thread(target=self._work, args=(queue, informer, gate), daemon=True,
                                          name=f"shard-worker-{self.identity}-{i}")
                thread.start()
                threads.append(thread)
            while not leading.wait(self.retry_period / 2):
                self.refresh_members()
                for key in gate.held():
                    queue.add(key)
                if self.members.requested_epoch() > self.acknowledged:
                    self._acknowledge(gate, leading, joining=False)
        finally:
            gate.fence()
            queue.shut_down()
            gate.wait_idle()
            for thread in threads:
                thread.join()
            informer.stop()
            self.informer = None
            log.info("shard replica %s/%s stopped", self.controller, self.identity)

    def _work(self, queue: RateLimitingQueue[str], informer: SharedIndexInformer[T], gate: ShardGate) -> None:
        while True:
            key, shutdown = queue.get()
            if shutdown:
                return
            try:
                cached = informer.get_indexer().get_by_key(key)
                try:
                    decision = gate.begin(key, cached)
                except Exception:  # noqa: BLE001 - e.g. a resourceVersion that is not comparable
                    log.exception("shard gate: deciding on %s failed", key)
                    queue.add_rate_limited(key)
                    continue
                if decision is not Decision.START:
                    queue.forget(key)
                    continue
                try:
                    self.reconcile(key, cached)
                    queue.forget(key)
                except Exception:  # noqa: BLE001 - client-go's handleErr: retried, rate-limited
                    log.exception("reconciling %s failed", key)
                    queue.add_rate_limited(key)
                finally:
                    gate.end(key)
            finally:
                queue.done(key)

    # -- acknowledging a handoff epoch ----------------------------------------------------------

    def _acknowledge(self, gate: ShardGate, leading: threading.Event, *, joining: bool) -> bool:
        """See the module docstring; False when it could not (leadership ended, or a request
        failed: tried again on the next tick, except when joining)."""
        epoch = self.members.requested_epoch()
        lister = ResourceClient(self.rest, self.resource, self.namespace,
                                DictCodec(self.resource.api_version, self.resource.kind))
        try:
            shard = lister.list_all(label_selector=f"{self.label}={self.identity}")
            items, rv, _ = list_meta(shard)
            compare_resource_version(rv, rv)  # refuses a server whose versions cannot be compared
            listed = {meta_namespace_key(o): ListedObject(resource_version_of(o), dict(labels_of(o)), dict(annotations_of(o)))
                      for o in items}
            generation = gate.install(listed, rv)
            while not gate.wait_drained(generation, 0.1):
                if leading.is_set():
                    return False
            if epoch and not leading.is_set():
                leases = ResourceClient(self.rest, LEASES, self.lease_namespace,
                                        DictCodec(LEASES.api_version, LEASES.kind))
                leases.patch(member_lease_name(self.controller, self.identity),
                             {"metadata": {"annotations": {RELEASED_ANNOTATION: str(epoch)}}}, PatchType.MERGE)
            self.acknowledged = max(self.acknowledged, epoch)
            return not leading.is_set()
        except Exception as e:  # noqa: BLE001
            log.warning("shard replica %s: acknowledging epoch %d failed: %s", self.identity, epoch, e)
            return not joining and not leading.is_set()
