"""A controller sharded across replicas: membership, the shard leader, and the replica, wired.

    controller = ShardedController(rest, CONFIG_MAPS, "cm-controller", identity=pod_name,
                                   reconcile=reconcile, lease_namespace="kube-system")
    controller.run(stop)        # threading.Event: until stop is set

Each process runs two electors on Leases in ``lease_namespace`` (client-go's Lease lock and
timings, the same ``lease_duration``/``renew_deadline``/``retry_period`` for both):

- its membership, ``<controller>-shard-<identity>``, which only it ever holds; holding it is
  running the replica (replica.py). Losing it (no renewal before the renew deadline) fences
  the replica; the process then tries to join again, as a new member run.
- the shard leadership, ``<controller>-shard-leader``, contended by all; the leader runs the
  labeller (labeller.py).

Both read the member Leases from one Lease informer (selected by
``shard.kgen.io/controller=<controller>``) through ``Members`` (membership.py).

Threads; ``AsyncShardedController`` (async_controller.py) runs the reconciles as coroutines
on an asyncio loop over this same machinery.
"""

from __future__ import annotations

import threading
from typing import Any, Generic, TypeVar

from kgen.runtime.gentype.client import ResourceClient
from kgen.runtime.gentype.resource import Codec, DictCodec, ResourceInfo
from kgen.runtime.rest.client import RESTClient
from kgen.runtime.tools.cache.shared_informer import SharedIndexInformer
from kgen.runtime.tools.leaderelection.elector import LeaderElector
from kgen.runtime.tools.leaderelection.resourcelock import LEASES
from kgen.runtime.tools.sharding.labeller import Labeller
from kgen.runtime.tools.sharding.membership import (
    CONTROLLER_LABEL,
    LEADER_ROLE,
    MEMBER_ROLE,
    ROLE_LABEL,
    Members,
    leader_lease_name,
    member_lease_name,
    validate_name,
)
from kgen.runtime.tools.sharding.replica import Reconcile, ShardReplica

__all__ = ["ShardedController"]

T = TypeVar("T")


class ShardedController(Generic[T]):
    """See the module docstring. ``codec``: how the replica decodes its objects (plain dicts
    by default; a typed client's codec gives typed objects)."""

    def __init__(
        self,
        rest: RESTClient,
        resource: ResourceInfo,
        controller: str,
        *,
        identity: str,
        reconcile: Reconcile,
        codec: Codec[T, Any] | None = None,
        namespace: str | None = None,
        lease_namespace: str = "default",
        lease_duration: float = 15.0,
        renew_deadline: float = 10.0,
        retry_period: float = 2.0,
        resync: float = 0.0,
        workers: int = 1,
        moves_per_second: float = 100.0,
        labeller_concurrency: int = 4,
    ) -> None:
        self.controller = validate_name("controller", controller)
        self.identity = validate_name("identity", identity)
        self.rest, self.lease_namespace = rest, lease_namespace
        self.timings: dict[str, Any] = {"lease_duration": lease_duration, "renew_deadline": renew_deadline,
                        "retry_period": retry_period}
        self.members = Members(controller)
        self._leases: SharedIndexInformer[dict[str, Any]] = SharedIndexInformer(
            ResourceClient(rest, LEASES, lease_namespace, DictCodec(LEASES.api_version, LEASES.kind)),
            list_options=lambda options: {**options, "label_selector": f"{CONTROLLER_LABEL}={controller}"})
        common: dict[str, Any] = {"namespace": namespace, "lease_namespace": lease_namespace,
                                  "lease_duration": lease_duration, "retry_period": retry_period}
        self.replica: ShardReplica[T] = ShardReplica(
            rest, resource, codec or DictCodec(resource.api_version, resource.kind),  # type: ignore[arg-type]
            controller, identity, reconcile, self.members, self.refresh_members,
            resync=resync, workers=workers, **common)
        self.labeller = Labeller(rest, resource, controller, self.members, self.refresh_members,
                                 moves_per_second=moves_per_second, concurrency=labeller_concurrency, **common)

    def refresh_members(self) -> None:
        """Refresh the members from the Leases in the informer's cache."""
        self.members.refresh(self._leases.get_indexer().list())

    def run(self, stop: threading.Event) -> None:
        """Runs until ``stop`` is set; returns once the replica and the labeller have stopped
        (also when it fails: the leadership then ends too, without setting the caller's
        ``stop``)."""
        self._leases.run()
        halt = _linked(stop)
        leader = threading.Thread(target=self._elect, args=(halt,), daemon=True,
                                  name=f"shard-leader-{self.identity}")
        try:
            while not self._leases.has_synced():
                if halt.wait(0.1):
                    return
            self.refresh_members()
            leader.start()
            while not halt.is_set():
                self._member_once(halt)
                halt.wait(self.timings["retry_period"])
        finally:
            halt.set()
            if leader.is_alive():
                leader.join()
            self._leases.stop()

    def _member_once(self, stop: threading.Event) -> None:
        """One membership: join, run the replica, leave. A replica that ends on its own (it
        failed) ends the membership too, so that a member never holds its Lease idle."""
        ended = _linked(stop)

        def replica(leading: threading.Event) -> None:
            try:
                self.replica.run(leading)
            finally:
                ended.set()

        membership = LeaderElector(
            self.rest, self.lease_namespace, member_lease_name(self.controller, self.identity), self.identity,
            on_started_leading=replica, release_on_cancel=True,
            labels={CONTROLLER_LABEL: self.controller, ROLE_LABEL: MEMBER_ROLE}, **self.timings)
        self.replica.membership_fence = lambda: membership.fence
        try:
            membership.run(ended)
        finally:
            ended.set()

    def _elect(self, stop: threading.Event) -> None:
        while not stop.is_set():
            LeaderElector(
                self.rest, self.lease_namespace, leader_lease_name(self.controller), self.identity,
                on_started_leading=self.labeller.run, release_on_cancel=True,
                labels={CONTROLLER_LABEL: self.controller, ROLE_LABEL: LEADER_ROLE}, **self.timings,
            ).run(stop)
            stop.wait(self.timings["retry_period"])


def _linked(outer: threading.Event) -> threading.Event:
    """An event set when ``outer`` is (polled by a helper thread that ends with it) or directly."""
    inner = threading.Event()

    def forward() -> None:
        while not inner.wait(0.1):
            if outer.is_set():
                inner.set()

    threading.Thread(target=forward, daemon=True, name="shard-stop").start()
    return inner
