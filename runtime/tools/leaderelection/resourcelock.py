"""The election record and the Lease that stores it (client-go tools/leaderelection/resourcelock).

``LeaderElectionRecord`` is client-go's record: who holds the lock, for how long, since when,
and how many times it changed hands. ``LeaseLock`` keeps it in a coordination.k8s.io/v1 Lease,
as client-go's ``LeaseLock`` does, without doing I/O itself: it builds the GET, POST and PUT
``Request`` of each operation and remembers the Lease the server answered with, so that the
next update carries that Lease's resourceVersion (a write from a stale view is a Conflict,
never a silent overwrite). The elector's drivers send the requests.

Like client-go, an update replaces the whole spec with the record (``strategy`` and
``preferredHolder`` survive only if the record carries them), merges the lock's labels into the
Lease's, and events are recorded about the Lease with reason ``LeaderElection`` and the message
``"<identity> <what happened>"`` ("became leader", "stopped leading").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

import msgspec

from kgen.runtime.gentype.resource import ResourceInfo
from kgen.runtime.rest.client import Request

__all__ = ["EventRecorder", "LEASES", "LeaderElectionRecord", "LeaseLock"]

LEASES = ResourceInfo("coordination.k8s.io", "v1", "leases", True, "Lease")
"""The coordination.k8s.io/v1 leases resource."""


class EventRecorder(Protocol):
    """What the lock needs of an event recorder (``kgen.runtime.tools.record.EventRecorder``)."""

    def eventf(self, obj: Any, type_: str, reason: str, fmt: str, *args: Any) -> None:
        """Record an event of type ``type_`` and ``reason`` about ``obj``, its message ``fmt % args``."""


@dataclass(frozen=True)
class LeaderElectionRecord:
    """client-go's LeaderElectionRecord. Times are the Lease's MicroTime strings, kept as sent:
    the elector never compares them with its own clock (only their change matters)."""

    holder_identity: str = ""
    lease_duration_seconds: int = 0
    acquire_time: str | None = None
    renew_time: str | None = None
    leader_transitions: int = 0
    strategy: str = ""
    preferred_holder: str = ""

    @classmethod
    def from_lease_spec(cls, spec: dict[str, Any]) -> "LeaderElectionRecord":
        """The record a Lease's spec holds."""
        return cls(
            holder_identity=str(spec.get("holderIdentity") or ""),
            lease_duration_seconds=int(spec.get("leaseDurationSeconds") or 0),
            acquire_time=spec.get("acquireTime"),
            renew_time=spec.get("renewTime"),
            leader_transitions=int(spec.get("leaseTransitions") or 0),
            strategy=str(spec.get("strategy") or ""),
            preferred_holder=str(spec.get("preferredHolder") or ""),
        )

    def to_lease_spec(self) -> dict[str, Any]:
        """client-go's LeaderElectionRecordToLeaseSpec: the holder is always written, "" included
        (a released lease), the optional coordinated-election fields only when set."""
        spec: dict[str, Any] = {
            "holderIdentity": self.holder_identity,
            "leaseDurationSeconds": self.lease_duration_seconds,
            "acquireTime": self.acquire_time,
            "renewTime": self.renew_time,
            "leaseTransitions": self.leader_transitions,
        }
        if self.preferred_holder:
            spec["preferredHolder"] = self.preferred_holder
        if self.strategy:
            spec["strategy"] = self.strategy
        return spec


class LeaseLock:
    """A lock on the Lease ``namespace/name``: requests to read and write its record, and the
    last Lease the server returned."""

    def __init__(
        self,
        namespace: str,
        name: str,
        identity: str,
        *,
        event_recorder: EventRecorder | None = None,
        labels: dict[str, str] | None = None,
    ) -> None:
        self.namespace, self.name, self.identity = namespace, name, identity
        self.event_recorder = event_recorder
        self.labels = dict(labels) if labels is not None else None
        self.lease: dict[str, Any] | None = None  # the last Lease read or written

    def describe(self) -> str:
        """The lock as ``namespace/name``."""
        return f"{self.namespace}/{self.name}"

    def _path(self, with_name: bool = True) -> str:
        return LEASES.path(self.namespace, self.name if with_name else None)

    def _body(self, lease: dict[str, Any]) -> bytes:
        return msgspec.json.encode({"apiVersion": LEASES.api_version, "kind": LEASES.kind, **lease})

    # -- requests -----------------------------------------------------------------------------

    def get_request(self) -> Request:
        """The request that reads the Lease."""
        return Request("GET", self._path())

    def create_request(self, record: LeaderElectionRecord) -> Request:
        """The request that creates the Lease with ``record`` (and the lock's labels)."""
        metadata: dict[str, Any] = {"name": self.name, "namespace": self.namespace}
        if self.labels is not None:
            metadata["labels"] = dict(self.labels)
        lease = {"metadata": metadata, "spec": record.to_lease_spec()}
        return Request("POST", self._path(with_name=False), body=self._body(lease), content_type="application/json")

    def update_request(self, record: LeaderElectionRecord) -> Request:
        """A PUT of the remembered Lease with ``record`` as its spec (and its resourceVersion)."""
        if self.lease is None:
            raise RuntimeError("lease not initialized, call get or create first")
        metadata = dict(self.lease.get("metadata") or {})
        if self.labels is not None:
            metadata["labels"] = {**(metadata.get("labels") or {}), **self.labels}
        lease = {**self.lease, "metadata": metadata, "spec": record.to_lease_spec()}
        return Request("PUT", self._path(), body=self._body(lease), content_type="application/json")

    # -- answers ------------------------------------------------------------------------------

    def received(self, data: bytes) -> tuple[LeaderElectionRecord, str]:
        """Remembers the Lease in a GET, POST or PUT answer; returns its record and resourceVersion."""
        lease: dict[str, Any] = msgspec.json.decode(data)
        self.lease = lease
        resource_version = str((lease.get("metadata") or {}).get("resourceVersion") or "")
        return LeaderElectionRecord.from_lease_spec(lease.get("spec") or {}), resource_version

    def record_event(self, what: str) -> None:
        """client-go's LeaseLock.RecordEvent: a Normal ``LeaderElection`` event on the Lease."""
        if self.event_recorder is None:
            return
        metadata = (self.lease or {}).get("metadata") or {"name": self.name, "namespace": self.namespace}
        subject = {"apiVersion": LEASES.api_version, "kind": LEASES.kind, "metadata": dict(metadata)}
        self.event_recorder.eventf(subject, "Normal", "LeaderElection", "%s", f"{self.identity} {what}")
