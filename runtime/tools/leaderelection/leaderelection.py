"""Leader election on a coordination.k8s.io/v1 Lease (client-go tools/leaderelection).

Candidates race to hold the Lease; the holder renews it every ``retry_period`` and loses
leadership if it cannot renew within ``renew_deadline``. Others take over once the record has
not changed for ``lease_duration`` — judged by when *they* observed the last change, on their
own clock, so clock skew between machines does not matter. Defaults are the recommended
15 s / 10 s / 2 s. Writes use the Lease's resourceVersion, so two candidates can never both win.

    elector = LeaderElector(rest, "kube-system", "my-controller", identity=socket.gethostname(),
                            on_started_leading=run_controller, on_stopped_leading=exit_process)
    elector.run(stop_event)
"""

from __future__ import annotations

import datetime as _dt
import logging
import random
import threading
import time
from collections.abc import Callable
from typing import Any

from kgen.runtime.apimachinery.errors import ApiError, Conflict, NotFound
from kgen.runtime.gentype.client import ResourceClient
from kgen.runtime.gentype.resource import DictCodec, ResourceInfo
from kgen.runtime.rest.client import RESTClient
from kgen.runtime.apimachinery.types import format_micro_time

log = logging.getLogger("kgen.runtime.tools.leaderelection.leaderelection")

LEASES = ResourceInfo("coordination.k8s.io", "v1", "leases", True, "Lease")
JITTER_FACTOR = 1.2


class LeaderElector:
    def __init__(
        self,
        rest: RESTClient,
        namespace: str,
        name: str,
        identity: str,
        *,
        on_started_leading: Callable[[threading.Event], None],
        on_stopped_leading: Callable[[], None] = lambda: None,
        on_new_leader: Callable[[str], None] = lambda identity: None,
        lease_duration: float = 15.0,
        renew_deadline: float = 10.0,
        retry_period: float = 2.0,
        release_on_cancel: bool = False,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if not (lease_duration > renew_deadline > JITTER_FACTOR * retry_period > 0):
            raise ValueError("need lease_duration > renew_deadline > 1.2 * retry_period > 0")
        if not identity:
            raise ValueError("a leader election identity is required")
        self._leases = ResourceClient(rest, LEASES, namespace, DictCodec(LEASES.api_version, LEASES.kind))
        self.name, self.identity = name, identity
        self.on_started_leading, self.on_stopped_leading, self.on_new_leader = (
            on_started_leading, on_stopped_leading, on_new_leader)
        self.lease_duration, self.renew_deadline, self.retry_period = lease_duration, renew_deadline, retry_period
        self.release_on_cancel = release_on_cancel
        self._clock = clock
        self._observed: dict[str, Any] | None = None  # the last record seen
        self._observed_at = 0.0
        self._reported_leader = ""

    def leader(self) -> str:
        return str((self._observed or {}).get("holderIdentity") or "")

    def is_leader(self) -> bool:
        return self.leader() == self.identity

    def run(self, stop: threading.Event) -> None:
        """Acquires, leads (calling on_started_leading in a thread), renews; returns when stopped or lost."""
        if not self._acquire(stop):
            return
        leading = threading.Event()
        worker = threading.Thread(target=self.on_started_leading, args=(leading,), daemon=True, name="leader")
        worker.start()
        try:
            self._renew(stop)
        finally:
            leading.set()  # tell the leader's work to stop
            if self.release_on_cancel and stop.is_set():
                self._release()
            self.on_stopped_leading()

    def _acquire(self, stop: threading.Event) -> bool:
        while not stop.is_set():
            if self._try_acquire_or_renew():
                log.info("%s: acquired lease %s", self.identity, self.name)
                return True
            stop.wait(self.retry_period * (1 + JITTER_FACTOR * random.random()))
        return False

    def _renew(self, stop: threading.Event) -> None:
        while not stop.is_set():
            deadline = self._clock() + self.renew_deadline
            while not self._try_acquire_or_renew():
                if self._clock() >= deadline or stop.is_set():
                    if not stop.is_set():
                        log.warning("%s: failed to renew lease %s: leadership lost", self.identity, self.name)
                    return
                stop.wait(self.retry_period)
            stop.wait(self.retry_period)

    def _record(self, old: dict[str, Any] | None) -> dict[str, Any]:
        now = format_micro_time(_dt.datetime.now(_dt.timezone.utc))
        spec = dict((old or {}).get("spec") or {})
        held_by_me = spec.get("holderIdentity") == self.identity
        return {
            **spec,
            "holderIdentity": self.identity,
            "leaseDurationSeconds": int(round(self.lease_duration)),
            "acquireTime": spec.get("acquireTime") if held_by_me and spec.get("acquireTime") else now,
            "renewTime": now,
            "leaseTransitions": int(spec.get("leaseTransitions") or 0) + (0 if held_by_me or not spec.get("holderIdentity") else 1),
        }

    def _observe(self, spec: dict[str, Any]) -> None:
        if spec != self._observed:
            self._observed, self._observed_at = spec, self._clock()
            holder = str(spec.get("holderIdentity") or "")
            if holder and holder != self._reported_leader:
                self._reported_leader = holder
                self.on_new_leader(holder)

    def _try_acquire_or_renew(self) -> bool:
        try:
            lease = self._leases.get(self.name)
        except NotFound:
            body = {"metadata": {"name": self.name}, "spec": self._record(None)}
            try:
                created = self._leases.create(body)
            except ApiError as e:
                log.debug("creating lease %s: %s", self.name, e)
                return False
            self._observe(created["spec"])
            return True
        except Exception as e:  # noqa: BLE001 - any failure is a failed attempt
            log.debug("getting lease %s: %s", self.name, e)
            return False
        spec = lease.get("spec") or {}
        self._observe(spec)
        holder = spec.get("holderIdentity")
        duration = float(spec.get("leaseDurationSeconds") or self.lease_duration)
        if holder and holder != self.identity and self._observed_at + duration > self._clock():
            return False  # held, and not yet expired as we observed it
        lease["spec"] = self._record(lease)
        try:
            updated = self._leases.update(lease)  # carries resourceVersion: a lost race is a Conflict
        except (Conflict, ApiError) as e:
            log.debug("updating lease %s: %s", self.name, e)
            return False
        except Exception as e:  # noqa: BLE001
            log.debug("updating lease %s: %s", self.name, e)
            return False
        self._observe(updated["spec"])
        return True

    def _release(self) -> None:
        try:
            lease = self._leases.get(self.name)
            if (lease.get("spec") or {}).get("holderIdentity") != self.identity:
                return
            lease["spec"] = {**lease["spec"], "holderIdentity": None, "leaseDurationSeconds": 1}
            self._leases.update(lease)
        except Exception as e:  # noqa: BLE001
            log.warning("releasing lease %s: %s", self.name, e)
