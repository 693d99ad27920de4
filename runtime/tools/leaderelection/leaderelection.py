"""Leader election on a Lease (client-go tools/leaderelection, leaderelection.go), written once.

``LeaderElectionCore`` holds client-go's rules without doing I/O: its loops are generators of
steps (send a request before a deadline, wait, report a new leader) that receive each step's
outcome, as the reflector's are. ``LeaderElector`` (threads, ``kgen.runtime.rest.RESTClient``)
and ``AsyncLeaderElector`` (asyncio, ``AsyncRESTClient``) only perform the steps and call the
callbacks (elector.py).

client-go's rules, kept:

- acquire: try every ``retry_period`` (jittered by 1.2) until the lock is ours. A lease held by
  someone else may be taken once its record has not changed for its ``leaseDurationSeconds``
  — measured from when *this* candidate saw it change, on its own clock, so timestamps
  written by other machines are never compared with ours. An empty ``holderIdentity`` (a
  released lease) may be taken at once. ``leaseTransitions`` is 0 on a new Lease and grows by
  one whenever a candidate that is not the recorded leader takes the lock — a released lease
  included, whoever released it; renewals keep it and ``acquireTime``.
- renew: client-go's ``PollUntilContextTimeout(retry_period, renew_deadline)``: an attempt at
  once, then one every ``retry_period``, until one succeeds or ``renew_deadline`` passes;
  then leadership is lost. The leader renews optimistically: one PUT of the Lease it last
  wrote, and only if that fails a GET and a second try.
- release (``release_on_cancel``): client-go's released record (no holder, 1 s,
  ``acquireTime`` = ``renewTime`` = now, ``leaseTransitions`` kept), retried on Conflict until
  ``renew_deadline`` passes.
- events: "<identity> became leader" once acquired, "<identity> stopped leading" when the
  renew loop ends (after the release), reason ``LeaderElection``.

What kgen adds, so that two candidates never lead at once (client-go only keeps that when its
requests are fast; kgen keeps it when they are slow or hang too):

- every attempt, its retries included, ends by a deadline: ``renew_deadline`` from the start of
  the window (client-go bounds requests with the window's context), and never later than the
  *fence*: the time this leader's last successful write was *sent* + ``leaseDurationSeconds``
  − ``clock_skew_margin``. The others count ``leaseDurationSeconds`` from when they *received*
  that record, which is later, so the leader has stopped (and called ``on_stopped_leading``) at
  least ``clock_skew_margin`` before any other can take the lock. That margin absorbs what
  happens between the fence and the callback (scheduling) and clocks that run at different
  rates: over one lease duration, the leader's clock may run slow against the others' by
  ``clock_skew_margin`` seconds at most. Default: 1 s, or ``int(lease_duration) −
  renew_deadline`` if that is smaller. The Lease records whole seconds (client-go truncates),
  so ``int(lease_duration)`` must exceed ``renew_deadline``.
- a record counts as changed when the Lease's resourceVersion or record changed (client-go
  compares the record serialized with whole-second times, which misses renewals within one
  second, and would start the lease duration too early).
- a renewal that finds the lock held by someone else ends leadership at once; a release only
  writes when the Lease read back is still ours (client-go checks only its own last view); and
  a leader releases only after ``on_started_leading`` has returned (within ``renew_deadline``),
  since a released lease may be taken at once.
"""

from __future__ import annotations

import datetime as _dt
import logging
import random
import time
from collections.abc import Callable, Generator
from dataclasses import dataclass, replace
from typing import Any, TypeVar

from kgen.runtime.apimachinery.errors import Conflict, NotFound
from kgen.runtime.apimachinery.types import format_micro_time
from kgen.runtime.rest.client import Request
from kgen.runtime.tools.leaderelection.metrics import NO_METRICS, LeaderMetric
from kgen.runtime.tools.leaderelection.resourcelock import LeaderElectionRecord, LeaseLock
from kgen.runtime.util.wait import Backoff

__all__ = [
    "DEFAULT_CLOCK_SKEW_MARGIN", "DeadlineExceeded", "JITTER_FACTOR", "LeaderElectionCore", "NewLeader",
    "Send", "Wait",
]

log = logging.getLogger("kgen.runtime.tools.leaderelection")

JITTER_FACTOR = 1.2
"""client-go's JitterFactor: acquire attempts are retry_period apart, stretched by up to 120 %."""
DEFAULT_CLOCK_SKEW_MARGIN = 1.0
"""How long before the others could take the lock a leader stops at the latest (see above)."""

T = TypeVar("T")


class DeadlineExceeded(TimeoutError):
    """An attempt did not end before its deadline (client-go: context deadline exceeded)."""


# -- the steps --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Send:
    """Send ``request``; the reply is the answer's body. Give up at ``deadline`` (on the
    elector's clock) with ``DeadlineExceeded``, retries included."""

    request: Request
    deadline: float


@dataclass(frozen=True)
class Wait:
    """Wait this long, or until the elector is stopped."""

    seconds: float


@dataclass(frozen=True)
class NewLeader:
    """Call ``on_new_leader(identity)`` without waiting for it (client-go: in a goroutine)."""

    identity: str


Step = Send | Wait | NewLeader
Steps = Generator[Step, Any, T]


class LeaderElectionCore:
    """One candidate's view of the election and its loops, as step generators:
    ``acquire_steps`` (returns True once leading), ``renew_steps`` (returns when leadership is
    lost) and ``release_steps``. Drivers perform the steps and stop between any two."""

    def __init__(
        self,
        lock: LeaseLock,
        *,
        lease_duration: float = 15.0,
        renew_deadline: float = 10.0,
        retry_period: float = 2.0,
        release_on_cancel: bool = False,
        clock_skew_margin: float | None = None,
        clock: Callable[[], float] = time.monotonic,
        wall_clock: Callable[[], _dt.datetime] = lambda: _dt.datetime.now(_dt.timezone.utc),
        rng: random.Random | None = None,
        metrics: LeaderMetric = NO_METRICS,
    ) -> None:
        if lease_duration <= renew_deadline:
            raise ValueError("lease_duration must be greater than renew_deadline")
        if renew_deadline <= JITTER_FACTOR * retry_period:
            raise ValueError("renew_deadline must be greater than retry_period*JitterFactor")
        if retry_period <= 0:
            raise ValueError("retry_period must be greater than zero")
        if int(lease_duration) <= renew_deadline:
            raise ValueError("the Lease records whole seconds: int(lease_duration) must be greater than renew_deadline")
        if not lock.identity:
            raise ValueError("Lock identity is empty")
        self.lease_seconds = int(lease_duration)
        slack = self.lease_seconds - renew_deadline
        margin = min(DEFAULT_CLOCK_SKEW_MARGIN, slack) if clock_skew_margin is None else clock_skew_margin
        if not 0 <= margin <= slack:
            raise ValueError("clock_skew_margin must be between 0 and int(lease_duration) - renew_deadline")
        self.lock = lock
        self.identity = lock.identity
        self.lease_duration, self.renew_deadline, self.retry_period = lease_duration, renew_deadline, retry_period
        self.release_on_cancel = release_on_cancel
        self.clock_skew_margin = margin
        self.clock = clock
        self._wall_clock = wall_clock
        self._rng = rng or random.Random()
        self._acquire_backoff = Backoff(duration=retry_period, jitter=JITTER_FACTOR)
        self.observed_record = LeaderElectionRecord()
        self.observed_time = float("-inf")  # when observed_record was seen (or, ours, sent)
        self._observed_raw: tuple[str, LeaderElectionRecord] | None = None  # the Lease last read
        self._fence = float("-inf")  # leading is safe until then
        self._reported_leader = ""
        self.metrics = metrics
        metrics.off(lock.name)  # client-go's NewLeaderElector: a candidate shows 0 until it leads

    # -- what a caller may ask --------------------------------------------------------------

    def leader(self) -> str:
        """The last observed leader ("" if none yet): for information only."""
        return self.observed_record.holder_identity

    def is_leader(self) -> bool:
        """Whether the record last seen names this candidate the holder."""
        return self.observed_record.holder_identity == self.identity

    @property
    def fence(self) -> float:
        """The time (elector's clock) until which this candidate may act as leader."""
        return self._fence

    # -- client-go's tryAcquireOrRenew --------------------------------------------------------

    def _is_lease_valid(self, now: float) -> bool:
        return self.observed_time + self.observed_record.lease_duration_seconds > now

    def _observe(self, record: LeaderElectionRecord, at: float) -> None:
        self.observed_record, self.observed_time = record, at

    def _stamp(self) -> str:
        return format_micro_time(self._wall_clock())

    def _read(self, deadline: float) -> Steps[tuple[LeaderElectionRecord, str]]:
        data = yield Send(self.lock.get_request(), deadline)
        return self.lock.received(data)

    def _write(self, request: Request, record: LeaderElectionRecord, deadline: float) -> Steps[float]:
        """Sends a write of ``record``; returns when it was sent (what the fence counts from)."""
        sent = self.clock()
        data = yield Send(request, deadline)
        self.lock.received(data)
        self._observe(record, sent)
        return sent

    def _hold(self, sent: float, record: LeaderElectionRecord) -> None:
        self._fence = sent + record.lease_duration_seconds - self.clock_skew_margin

    def try_acquire_or_renew(self, deadline: float) -> Steps[bool]:
        """One attempt to take or keep the lock; True if it is ours."""
        now = self.clock()
        stamp = self._stamp()
        record = LeaderElectionRecord(self.identity, self.lease_seconds, stamp, stamp)
        desc = self.lock.describe()

        # 1. The leader writes optimistically from the Lease it last wrote: one PUT.
        if self.is_leader() and self._is_lease_valid(now):
            old = self.observed_record
            renewal = replace(record, acquire_time=old.acquire_time, leader_transitions=old.leader_transitions)
            try:
                self._hold((yield from self._write(self.lock.update_request(renewal), renewal, deadline)), renewal)
                return True
            except Exception as e:  # noqa: BLE001 - any failure: read the Lease and try again
                log.debug("failed to update lease %s optimistically, falling back to slow path: %s", desc, e)

        # 2. Read the record, or create the Lease.
        try:
            old, resource_version = yield from self._read(deadline)
        except NotFound:
            try:
                self._hold((yield from self._write(self.lock.create_request(record), record, deadline)), record)
            except Exception as e:  # noqa: BLE001
                log.error("error initially creating lease lock %s: %s", desc, e)
                return False
            return True
        except Exception as e:  # noqa: BLE001
            log.error("error retrieving lease lock %s: %s", desc, e)
            return False

        # 3. A changed record restarts the lease duration, from now.
        if (resource_version, old) != self._observed_raw:
            self._observe(old, self.clock())
            self._observed_raw = (resource_version, old)
        if old.holder_identity and self._is_lease_valid(now) and not self.is_leader():
            log.debug("lease %s is held by %s and has not yet expired", desc, old.holder_identity)
            return False

        # 4. Take the lock, or renew it from what was read.
        if self.is_leader():
            record = replace(record, acquire_time=old.acquire_time, leader_transitions=old.leader_transitions)
            self.metrics.slowpath_exercised(self.lock.name)
        else:
            record = replace(record, leader_transitions=old.leader_transitions + 1)
        try:
            self._hold((yield from self._write(self.lock.update_request(record), record, deadline)), record)
        except Exception as e:  # noqa: BLE001
            log.error("failed to update lease %s: %s", desc, e)
            return False
        return True

    def _report_transition(self) -> Steps[None]:
        holder = self.observed_record.holder_identity
        if holder != self._reported_leader:
            self._reported_leader = holder
            yield NewLeader(holder)

    # -- the loops ----------------------------------------------------------------------------

    def acquire_steps(self) -> Steps[bool]:
        """Tries until the lock is ours (client-go's JitterUntil(retry_period, 1.2, sliding))."""
        desc = self.lock.describe()
        log.info("attempting to acquire leader lease %s...", desc)
        while True:
            acquired = yield from self.try_acquire_or_renew(self.clock() + self.renew_deadline)
            yield from self._report_transition()
            # A write answered so late that the lease may already be taken is not leadership.
            if acquired and self.clock() < self._fence:
                self.lock.record_event("became leader")
                self.metrics.on(self.lock.name)
                log.info("successfully acquired lease %s", desc)
                return True
            log.debug("failed to acquire lease %s", desc)
            yield Wait(self._acquire_backoff.jittered(self.retry_period, self._rng))

    def renew_steps(self) -> Steps[None]:
        """Renews until an attempt window of ``renew_deadline`` passes without success, or the
        fence; returns then (client-go's renew: Until(PollUntilContextTimeout, retry_period))."""
        desc = self.lock.describe()
        try:
            while True:
                renewed = yield from self._renew_within(self.clock() + self.renew_deadline)
                yield from self._report_transition()
                if not renewed:
                    log.info("failed to renew lease %s: leadership lost", desc)
                    return
                log.debug("successfully renewed lease %s", desc)
                yield Wait(self.retry_period)
        finally:
            # Lost, or stopped (the driver closes the generator): client-go's renew reports off
            # whenever its renewal loop ends with an error, a cancelled context included.
            self.metrics.off(self.lock.name)

    def _renew_within(self, window_end: float) -> Steps[bool]:
        while True:
            started = self.clock()
            deadline = min(window_end, self._fence)
            if started >= deadline:
                return False
            if (yield from self.try_acquire_or_renew(deadline)):
                return True
            if not self.is_leader():
                return False  # the Lease names another holder: it is not ours to renew
            if max(started + self.retry_period, self.clock()) >= min(window_end, self._fence):
                return False
            yield Wait(max(0.0, started + self.retry_period - self.clock()))

    def release_steps(self) -> Steps[bool]:
        """Writes the released record if the lock is still ours; True if it is not ours now."""
        desc = self.lock.describe()
        deadline = self.clock() + self.renew_deadline
        while True:
            try:
                old, _ = yield from self._read(deadline)
            except NotFound:
                log.info("lease lock %s not found", desc)
                return False
            except Exception as e:  # noqa: BLE001
                log.error("error retrieving resource lock %s: %s", desc, e)
                return False
            if not self.is_leader() or old.holder_identity != self.identity:
                return True
            stamp = self._stamp()
            released = LeaderElectionRecord("", 1, stamp, stamp, old.leader_transitions)
            try:
                yield from self._write(self.lock.update_request(released), released, deadline)
            except Conflict:
                log.debug("conflict when releasing lease %s, retrying", desc)
                continue
            except Exception as e:  # noqa: BLE001
                log.error("failed to release lease %s: %s", desc, e)
                return False
            self._fence = float("-inf")
            return True
