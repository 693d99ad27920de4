"""Who is in the shard group: each replica's own Lease, and each reader's view of them.

Every replica holds a coordination.k8s.io/v1 Lease ``<controller>-shard-<identity>`` in the
controller's namespace, labelled ``shard.kgen.io/controller=<controller>`` and
``shard.kgen.io/role=member``. It takes and renews it with the runtime's leader elector
(tools/leaderelection): a Lease per member is a lock each member "leads" alone, so client-go's
rules (holderIdentity, renewTime, leaseDurationSeconds, the renew deadline) and kgen's fence
come for free. The shard leader's Lease (``<controller>-shard-leader``, role ``leader``) carries
the handoff epoch it asks members to acknowledge (``shard.kgen.io/epoch``); each member's Lease
carries the last epoch it acknowledged (``shard.kgen.io/released-epoch``).

Liveness follows the leader elector's rule, never another machine's timestamps: a member is
live while its Lease has changed within its ``leaseDurationSeconds``, measured from when *this*
reader saw the change, on its own monotonic clock. A reader that polls sees a change late,
which only makes a member count as live longer (the safe side). A member is dead when its
Lease expired that way, when it was released (empty holder: the member stopped reconciling
before releasing), or when no Lease names it for a whole lease duration of this reader's
watching (a label naming a member that no longer exists).
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

__all__ = [
    "CONTROLLER_LABEL", "EPOCH_ANNOTATION", "LEADER_ROLE", "MEMBER_ROLE", "Members", "MemberState",
    "RELEASED_ANNOTATION", "ROLE_LABEL", "leader_lease_name", "member_lease_name", "shard_label",
    "validate_name",
]

CONTROLLER_LABEL = "shard.kgen.io/controller"
"""The label on each member and leader Lease naming the controller sharded."""
ROLE_LABEL = "shard.kgen.io/role"
"""The label on each shard Lease naming its role (``MEMBER_ROLE`` or ``LEADER_ROLE``)."""
MEMBER_ROLE = "member"
"""The role label's value on a member's Lease."""
LEADER_ROLE = "leader"
"""The role label's value on the leader's Lease."""
EPOCH_ANNOTATION = "shard.kgen.io/epoch"
"""On the leader's Lease: the latest handoff epoch whose label moves are all written."""
RELEASED_ANNOTATION = "shard.kgen.io/released-epoch"
"""On a member's Lease: the latest epoch after which it reconciles none of the keys moved away."""

_NAME = re.compile(r"^[a-z0-9]([-a-z0-9.]{0,61}[a-z0-9])?$")


def validate_name(what: str, value: str) -> str:
    """Controller names and identities end up in label keys and values and in Lease names."""
    if not _NAME.match(value):
        raise ValueError(f"sharding: {what} {value!r} must be 1-63 lowercase alphanumerics, '-' or '.', "
                         "starting and ending alphanumeric (it names Leases and labels)")
    return value


def shard_label(controller: str) -> str:
    """The label on each object naming the member that owns it."""
    return f"shard.kgen.io/{controller}"


def member_lease_name(controller: str, identity: str) -> str:
    """The name of the member Lease of ``identity``."""
    return f"{controller}-shard-{identity}"


def leader_lease_name(controller: str) -> str:
    """The name of the shard leader's Lease."""
    return f"{controller}-shard-leader"


def _int_annotation(lease: dict[str, Any], name: str) -> int:
    value = ((lease.get("metadata") or {}).get("annotations") or {}).get(name)
    try:
        return int(value) if value is not None else 0
    except ValueError:
        return 0


@dataclass(frozen=True)
class MemberState:
    """One member as this reader sees it now."""

    identity: str
    live: bool
    released_epoch: int


class Members:
    """A reader's view of the member Leases, fed with the Leases it lists (an informer's store).

    ``refresh(leases)`` records, per Lease, when its resourceVersion last changed on this
    reader's clock; ``state(identity)`` and ``live()`` answer from that."""

    def __init__(self, controller: str, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.controller = controller
        self.clock = clock
        self._lock = threading.Lock()
        self._seen: dict[str, tuple[str, float]] = {}  # identity -> (resourceVersion, seen at)
        self._leases: dict[str, dict[str, Any]] = {}  # identity -> Lease
        self._leader: dict[str, Any] | None = None
        self._absent_since: dict[str, float] = {}
        self._started = clock()

    def refresh(self, leases: Iterable[dict[str, Any]]) -> None:
        """Take in the controller's member and leader Leases among ``leases``: the view is theirs from
        now."""
        now = self.clock()
        with self._lock:
            current: dict[str, dict[str, Any]] = {}
            for lease in leases:
                labels = (lease.get("metadata") or {}).get("labels") or {}
                if labels.get(CONTROLLER_LABEL) != self.controller:
                    continue
                if labels.get(ROLE_LABEL) == LEADER_ROLE:
                    self._leader = lease
                    continue
                name = str((lease.get("metadata") or {}).get("name") or "")
                prefix = f"{self.controller}-shard-"
                if labels.get(ROLE_LABEL) != MEMBER_ROLE or not name.startswith(prefix):
                    continue
                current[name[len(prefix):]] = lease
            for identity, lease in current.items():
                rv = str((lease.get("metadata") or {}).get("resourceVersion") or "")
                if self._seen.get(identity, ("", 0.0))[0] != rv:
                    self._seen[identity] = (rv, now)
                self._absent_since.pop(identity, None)
            for identity in set(self._leases) - set(current):
                self._absent_since.setdefault(identity, now)
                self._seen.pop(identity, None)
            self._leases = current

    def _is_live(self, identity: str, now: float) -> bool:
        lease = self._leases.get(identity)
        if lease is None:
            return False
        spec = lease.get("spec") or {}
        if not spec.get("holderIdentity"):
            return False
        _, seen_at = self._seen[identity]
        return now < seen_at + int(spec.get("leaseDurationSeconds") or 0)

    def _is_dead(self, identity: str, now: float, lease_duration: float) -> bool:
        if identity in self._leases:
            return not self._is_live(identity, now)
        # No Lease names it: dead once this reader has watched a whole lease duration without one.
        since = self._absent_since.get(identity, self._started)
        return now >= since + lease_duration

    def live(self) -> list[str]:
        """The identities of the live members, sorted."""
        now = self.clock()
        with self._lock:
            return sorted(i for i in self._leases if self._is_live(i, now))

    def is_live(self, identity: str) -> bool:
        """Whether member ``identity`` is live."""
        with self._lock:
            return self._is_live(identity, self.clock())

    def is_dead(self, identity: str, lease_duration: float) -> bool:
        """Dead for sure (see the module docstring); a member neither live nor dead is unknown."""
        with self._lock:
            return self._is_dead(identity, self.clock(), lease_duration)

    def released_epoch(self, identity: str) -> int:
        """The released epoch on ``identity``'s Lease (0 if none)."""
        with self._lock:
            lease = self._leases.get(identity)
            return _int_annotation(lease, RELEASED_ANNOTATION) if lease is not None else 0

    def requested_epoch(self) -> int:
        """The epoch the shard leader last published (0: none)."""
        with self._lock:
            return _int_annotation(self._leader, EPOCH_ANNOTATION) if self._leader is not None else 0

    def max_released_epoch(self) -> int:
        """The highest released epoch on any member's Lease."""
        with self._lock:
            return max((_int_annotation(lease, RELEASED_ANNOTATION) for lease in self._leases.values()), default=0)
