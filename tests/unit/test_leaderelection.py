"""Leader election's core (client-go tools/leaderelection) without I/O: its steps are performed
against an in-memory Lease that answers as the apiserver does (resourceVersion preconditions,
404, 409), on a simulated clock. The drivers and the real apiserver are in
tests/integration/test_leaderelection.py.

The last tests simulate three candidates on one Lease with random network delays, stalls longer
than the lease and lost requests — writes that reach the server after their sender gave up
included — and check that no two leaderships ever overlap; a self-test removes kgen's fence and
shows the same harness catching client-go's overlap.
"""

from __future__ import annotations

import datetime as _dt
import heapq
import itertools
import logging
import random
from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass, field
from typing import Any

import msgspec
import pytest

from kgen.runtime.apimachinery.errors import AlreadyExists, ApiError, Conflict, NotFound
from kgen.runtime.rest.client import Request
from kgen.runtime.tools.leaderelection import DeadlineExceeded, LeaderElectionCore, LeaderElectionRecord, LeaseLock
from kgen.runtime.tools.leaderelection.leaderelection import NewLeader, Send, Wait
from tests.conftest import Figure

NS, NAME = "ns", "lock"


class Clock:
    def __init__(self, now: float = 1000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def wall(self) -> _dt.datetime:
        return _dt.datetime(2026, 1, 1, tzinfo=_dt.timezone.utc) + _dt.timedelta(seconds=self.now)


def status(code: int, reason: str) -> dict[str, Any]:
    return {"kind": "Status", "code": code, "reason": reason, "message": reason}


class FakeLease:
    """One Lease as the apiserver keeps it: every write gets a new resourceVersion, a PUT with
    another one is a Conflict."""

    def __init__(self) -> None:
        self.lease: dict[str, Any] | None = None
        self.version = 0
        self.requests: list[str] = []

    @property
    def spec(self) -> dict[str, Any]:
        assert self.lease is not None
        spec: dict[str, Any] = self.lease["spec"]
        return spec

    def touch(self) -> None:
        """Someone else changes the Lease (a label): its resourceVersion moves on."""
        assert self.lease is not None
        self.version += 1
        self.lease["metadata"]["resourceVersion"] = str(self.version)

    def handle(self, request: Request) -> bytes:
        self.requests.append(request.method)
        if request.method == "GET":
            if self.lease is None:
                raise NotFound(status(404, "NotFound"), 404)
            return msgspec.json.encode(self.lease)
        body = msgspec.json.decode(request.body or b"{}")
        if request.method == "POST":
            if self.lease is not None:
                raise AlreadyExists(status(409, "AlreadyExists"), 409)
        elif self.lease is None:
            raise NotFound(status(404, "NotFound"), 404)
        elif body["metadata"].get("resourceVersion") != self.lease["metadata"]["resourceVersion"]:
            raise Conflict(status(409, "Conflict"), 409)
        self.version += 1
        body["metadata"] = {**body["metadata"], "resourceVersion": str(self.version), "uid": "u-1"}
        self.lease = body
        return msgspec.json.encode(body)


class Recorder:
    def __init__(self) -> None:
        self.events: list[tuple[str, str, str, str]] = []

    def eventf(self, obj: Any, type_: str, reason: str, fmt: str, *args: Any) -> None:
        self.events.append((obj["metadata"]["name"], type_, reason, fmt % args))


def candidate(identity: str, clock: Clock, *, recorder: Recorder | None = None, **config: Any) -> LeaderElectionCore:
    config = {"lease_duration": 15.0, "renew_deadline": 10.0, "retry_period": 2.0, **config}
    lock = LeaseLock(NS, NAME, identity, event_recorder=recorder)
    return LeaderElectionCore(lock, clock=clock, wall_clock=clock.wall, rng=random.Random(1), **config)


Sender = Callable[[Send], bytes]


def drive(steps: Generator[Any, Any, Any], clock: Clock, send: Sender, notes: list[str] | None = None,
          max_steps: int = 10_000) -> Any:
    """Performs ``steps`` to their end: a Send by ``send`` (which may move the clock or raise),
    a Wait by moving the clock. Returns what the generator returns."""
    reply: Any = None
    error: BaseException | None = None
    for _ in range(max_steps):
        try:
            step = steps.throw(error) if error is not None else steps.send(reply)
        except StopIteration as done:
            return done.value
        reply, error = None, None
        if isinstance(step, Wait):
            clock.now += step.seconds
        elif isinstance(step, NewLeader):
            if notes is not None:
                notes.append(step.identity)
        else:
            try:
                reply = send(step)
            except Exception as e:  # noqa: BLE001 - into the generator, as the drivers do
                error = e
    raise AssertionError("the steps did not end")


def hanging(clock: Clock) -> Sender:
    """A transport that never answers: each request ends at its deadline."""

    def send(step: Send) -> bytes:
        clock.now = max(clock.now, step.deadline)
        raise DeadlineExceeded("deadline exceeded")

    return send


# -- client-go's rules ------------------------------------------------------------------------


def test_new_lease_is_created_with_zero_transitions_and_a_became_leader_event() -> None:
    clock, lease, recorder, notes = Clock(), FakeLease(), Recorder(), list[str]()
    a = candidate("a", clock, recorder=recorder)
    assert drive(a.acquire_steps(), clock, lambda s: lease.handle(s.request), notes) is True
    assert lease.requests == ["GET", "POST"]
    assert lease.spec["holderIdentity"] == "a" and lease.spec["leaseTransitions"] == 0
    assert lease.spec["leaseDurationSeconds"] == 15 and lease.spec["acquireTime"] == lease.spec["renewTime"]
    assert recorder.events == [(NAME, "Normal", "LeaderElection", "a became leader")]
    assert notes == ["a"] and a.is_leader() and a.leader() == "a"


def test_a_renewal_is_one_put_of_the_cached_lease() -> None:
    """client-go's fast path: the leader writes from its last view, no GET."""
    clock, lease = Clock(), FakeLease()
    a = candidate("a", clock)
    drive(a.acquire_steps(), clock, lambda s: lease.handle(s.request))
    acquired = dict(lease.spec)
    for _ in range(5):
        clock.now += 2.0
        lease.requests.clear()
        assert drive(a._renew_within(clock.now + 10.0), clock, lambda s: lease.handle(s.request)) is True
        assert lease.requests == ["PUT"]
    assert lease.spec["acquireTime"] == acquired["acquireTime"] and lease.spec["renewTime"] != acquired["renewTime"]
    assert lease.spec["leaseTransitions"] == 0 and lease.spec["holderIdentity"] == "a"


def test_a_failed_optimistic_renewal_falls_back_to_get_and_put() -> None:
    clock, lease = Clock(), FakeLease()
    a = candidate("a", clock)
    drive(a.acquire_steps(), clock, lambda s: lease.handle(s.request))
    lease.touch()  # the cached resourceVersion is stale now
    lease.requests.clear()
    assert drive(a._renew_within(clock.now + 10.0), clock, lambda s: lease.handle(s.request)) is True
    assert lease.requests == ["PUT", "GET", "PUT"] and lease.spec["leaseTransitions"] == 0


def test_lease_transitions_follow_client_go() -> None:
    """0 on creation; +1 whenever a candidate that is not the recorded leader takes the lock —
    after a release too, even by the one who released it; kept by renewals and releases."""
    clock, lease = Clock(), FakeLease()
    a, b = candidate("a", clock), candidate("b", clock)
    server: Sender = lambda s: lease.handle(s.request)  # noqa: E731
    drive(a.acquire_steps(), clock, server)
    assert lease.spec["leaseTransitions"] == 0

    assert drive(a.release_steps(), clock, server) is True
    released = lease.spec
    assert released["holderIdentity"] == "" and released["leaseDurationSeconds"] == 1
    assert released["acquireTime"] == released["renewTime"] and released["leaseTransitions"] == 0
    assert not a.is_leader()

    started = clock.now
    drive(b.acquire_steps(), clock, server)  # a released lease is taken at once
    assert clock.now == started and lease.spec["holderIdentity"] == "b" and lease.spec["leaseTransitions"] == 1

    clock.now += 20.0  # b is gone; a waits a lease duration from its own observation of b's record
    drive(a.acquire_steps(), clock, server)
    assert lease.spec["holderIdentity"] == "a" and lease.spec["leaseTransitions"] == 2

    drive(a.release_steps(), clock, server)
    drive(a.acquire_steps(), clock, server)
    assert lease.spec["holderIdentity"] == "a" and lease.spec["leaseTransitions"] == 3


def test_a_candidate_waits_a_full_lease_duration_from_when_it_saw_the_record_change() -> None:
    clock, lease = Clock(), FakeLease()
    a, b = candidate("a", clock), candidate("b", clock)
    server: Sender = lambda s: lease.handle(s.request)  # noqa: E731
    drive(a.acquire_steps(), clock, server)
    clock.now += 100.0  # however old the record's own timestamps: b counts from its first look
    seen = clock.now
    drive(b.acquire_steps(), clock, server)
    assert lease.spec["holderIdentity"] == "b" and seen + 15.0 <= clock.now <= seen + 15.0 + 2.0 * 2.2


def test_release_retries_on_conflict() -> None:
    clock, lease = Clock(), FakeLease()
    a = candidate("a", clock)
    drive(a.acquire_steps(), clock, lambda s: lease.handle(s.request))
    lease.requests.clear()
    touched: list[int] = []

    def racing(step: Send) -> bytes:  # the Lease changes between the release's GET and PUT, once
        answer = lease.handle(step.request)
        if step.request.method == "GET" and not touched:
            touched.append(1)
            lease.touch()
        return answer

    assert drive(a.release_steps(), clock, racing) is True
    assert lease.requests == ["GET", "PUT", "GET", "PUT"] and lease.spec["holderIdentity"] == ""


def test_release_never_writes_over_a_lease_someone_else_took() -> None:
    clock, lease = Clock(), FakeLease()
    a, b = candidate("a", clock), candidate("b", clock)
    drive(a.acquire_steps(), clock, lambda s: lease.handle(s.request))
    clock.now += 20.0
    drive(b.acquire_steps(), clock, lambda s: lease.handle(s.request))
    lease.requests.clear()
    assert a.is_leader()  # a's last view; the Lease is b's
    assert drive(a.release_steps(), clock, lambda s: lease.handle(s.request)) is True
    assert lease.requests == ["GET"] and lease.spec["holderIdentity"] == "b"


def test_config_is_checked_as_client_go_does() -> None:
    clock = Clock()
    cases: list[dict[str, Any]] = [
        {"lease_duration": 10.0}, {"retry_period": 9.0}, {"retry_period": 0.0},
        {"lease_duration": 10.5, "renew_deadline": 10.2, "retry_period": 1.0},  # the Lease says 10 s
        {"clock_skew_margin": 6.0}, {"clock_skew_margin": -1.0},
    ]
    for bad in cases:
        with pytest.raises(ValueError):
            candidate("a", clock, **bad)
    with pytest.raises(ValueError):
        LeaderElectionCore(LeaseLock(NS, NAME, ""))
    assert candidate("a", clock).clock_skew_margin == 1.0
    assert candidate("a", clock, lease_duration=3.0, renew_deadline=2.5, retry_period=0.5).clock_skew_margin == 0.5


# -- deadlines and the fence --------------------------------------------------------------------


def test_hanging_renewals_lose_leadership_before_the_lease_can_be_taken() -> None:
    """The reproduced bug: lease 3 s, renew deadline 2 s, requests that never answer. Each
    attempt ends by its deadline, and leadership ends by the fence."""
    clock, lease = Clock(), FakeLease()
    a = candidate("a", clock, lease_duration=3.0, renew_deadline=2.0, retry_period=0.5)
    drive(a.acquire_steps(), clock, lambda s: lease.handle(s.request))
    written = clock.now
    drive(a.renew_steps(), clock, hanging(clock))
    assert clock.now <= written + 3.0 - a.clock_skew_margin
    assert clock.now >= written + 2.0  # no sooner than the renew deadline after the last write


def test_a_slow_successful_write_moves_the_fence_from_when_it_was_sent() -> None:
    clock, lease = Clock(), FakeLease()
    a = candidate("a", clock, lease_duration=3.0, renew_deadline=2.0, retry_period=0.5)
    drive(a.acquire_steps(), clock, lambda s: lease.handle(s.request))

    def slow(step: Send) -> bytes:
        sent = clock.now
        answer = lease.handle(step.request)
        clock.now = sent + 1.9  # the answer comes back 1.9 s later, within the deadline
        return answer

    clock.now += 0.5
    sent = clock.now
    assert drive(a._renew_within(clock.now + 2.0), clock, slow) is True
    assert a.fence == sent + 3 - a.clock_skew_margin
    # client-go would renew again for a full renew deadline from now (sent + 1.9 + 0.5 + 2 = sent + 4.4),
    # past the moment the others may take the lock (sent + 3).
    drive(a.renew_steps(), clock, hanging(clock))
    assert clock.now <= sent + 3.0 - a.clock_skew_margin


def test_a_renewal_that_finds_another_holder_ends_leadership_at_once() -> None:
    clock, lease = Clock(), FakeLease()
    a = candidate("a", clock)
    drive(a.acquire_steps(), clock, lambda s: lease.handle(s.request))
    spec = {**lease.spec, "holderIdentity": "intruder"}
    assert lease.lease is not None
    lease.lease["spec"] = spec
    lease.touch()
    started, notes = clock.now, list[str]()
    drive(a.renew_steps(), clock, lambda s: lease.handle(s.request), notes)
    assert clock.now == started and notes == ["intruder"] and not a.is_leader()


# -- three candidates, an unreliable network, simulated -------------------------------------------


def _unfenced(core: LeaderElectionCore) -> Callable[[float, LeaderElectionRecord], None]:
    def hold(sent: float, record: LeaderElectionRecord) -> None:
        core._fence = float("inf")

    return hold


@dataclass(order=True)
class _Event:
    at: float
    seq: int
    act: Callable[[], None] = field(compare=False)


class Simulation:
    """Candidates run their loops (acquire, lead, renew until lost, again) on one clock. A
    request reaches the server after a random delay and its answer comes back after another;
    some stall for longer than the lease, some are lost (before or after the server saw them).
    A candidate hears DeadlineExceeded at its deadline if the answer is not back by then; the
    server still applies what reached it — late writes from a candidate that gave up included."""

    def __init__(self, seed: int, identities: list[str], *, fenced: bool = True, **config: Any) -> None:
        self.rng = random.Random(seed)
        self.clock = Clock(0.0)
        self.lease = FakeLease()
        self.queue: list[_Event] = []
        self.seq = itertools.count()
        self.intervals: list[tuple[str, float, float]] = []
        self.spells: dict[str, list[tuple[float, float, float]]] = {}
        self.cores = {name: candidate(name, self.clock, **config) for name in identities}
        if not fenced:  # client-go: the leader's own view of its lease bounds nothing
            for core in self.cores.values():
                core._hold = _unfenced(core)  # type: ignore[method-assign,assignment]
        for name in identities:
            self._resume(name, self._life(name), None, None)

    def _life(self, name: str) -> Generator[Any, Any, None]:
        core = self.cores[name]
        while True:
            yield from core.acquire_steps()
            started = self.clock.now
            yield from core.renew_steps()
            self.intervals.append((name, started, self.clock.now))

    def _at(self, when: float, act: Callable[[], None]) -> None:
        heapq.heappush(self.queue, _Event(when, next(self.seq), act))

    def _link(self, name: str, at: float) -> str:
        """``name``'s link at ``at``: "ok", or now and then a bad spell: answers crawl back
        ("slow": the apiserver or a proxy holds them up after the write was done), then
        nothing gets through ("down")."""
        spells = self.spells.setdefault(name, [])
        while not spells or spells[-1][2] < at:
            start = (spells[-1][2] if spells else 0.0) + self.rng.expovariate(1 / 20.0)
            slow_until = start + self.rng.uniform(0.5, 3.0)
            spells.append((start, slow_until, slow_until + self.rng.uniform(0.0, 6.0)))
        for start, slow_until, end in spells:
            if start <= at < end:
                return "slow" if at < slow_until else "down"
        return "ok"

    def _delay(self) -> float:
        if self.rng.random() < 0.02:
            return self.rng.uniform(2.0, 6.0)  # a stall, longer than the renew deadline
        return self.rng.expovariate(1 / 0.05)

    def _resume(self, name: str, steps: Generator[Any, Any, None], reply: Any, error: BaseException | None) -> None:
        try:
            step = steps.throw(error) if error is not None else steps.send(reply)
        except StopIteration:
            return
        now = self.clock.now
        if isinstance(step, Wait):
            self._at(now + step.seconds, lambda: self._resume(name, steps, None, None))
        elif isinstance(step, NewLeader):
            self._at(now, lambda: self._resume(name, steps, None, None))
        else:
            self._send(name, steps, step)

    def _send(self, name: str, steps: Generator[Any, Any, None], step: Send) -> None:
        now = self.clock.now
        outcome: dict[str, Any] = {"reply": None, "error": None}
        reach = now + self._delay()
        lost_there = self._link(name, now) == "down" or self.rng.random() < 0.015
        lost_back = self._link(name, reach) == "down" or self.rng.random() < 0.015
        back = self.rng.uniform(0.2, 2.0) if self._link(name, reach) == "slow" else self._delay()

        def arrive() -> None:
            try:
                outcome["reply"] = self.lease.handle(step.request)
            except ApiError as e:
                outcome["error"] = e
            if not lost_back and reach + back <= step.deadline:
                self._at(reach + back, lambda: self._resume(name, steps, outcome["reply"], outcome["error"]))

        if not lost_there:
            self._at(reach, arrive)
        if lost_there or lost_back or reach + back > step.deadline:
            self._at(step.deadline, lambda: self._resume(name, steps, None, DeadlineExceeded("deadline exceeded")))

    def run(self, until: float) -> None:
        while self.queue and self.queue[0].at <= until:
            event = heapq.heappop(self.queue)
            self.clock.now = event.at
            event.act()

    def min_gap(self) -> float:
        """The smallest time between one candidate's leadership ending and another's starting
        (negative: they overlapped)."""
        return min(later[1] - earlier[2] for earlier, later in self._pairs())

    def overlaps(self) -> int:
        return sum(1 for earlier, later in self._pairs() if later[1] < earlier[2])

    def handovers(self) -> int:
        leaders = [name for name, _, _ in sorted(self.intervals, key=lambda i: i[1])]
        return sum(1 for x, y in zip(leaders, leaders[1:]) if x != y)

    def _pairs(self) -> list[tuple[tuple[str, float, float], tuple[str, float, float]]]:
        ordered = sorted(self.intervals, key=lambda i: i[1])
        return [(x, y) for x, y in itertools.combinations(ordered, 2) if x[0] != y[0]]


CONFIG: dict[str, Any] = {"lease_duration": 3.0, "renew_deadline": 2.0, "retry_period": 0.5}
SEEDS = range(10)


@pytest.fixture
def quiet() -> Iterator[None]:
    """The simulated failures would log thousands of errors."""
    logger = logging.getLogger("kgen.runtime.tools.leaderelection")
    level = logger.level
    logger.setLevel(logging.CRITICAL)
    yield
    logger.setLevel(level)


def test_simulated_unreliable_network_never_yields_two_leaders(quiet: None, figure: Figure) -> None:
    runs = [Simulation(seed, ["a", "b", "c"], **CONFIG) for seed in SEEDS]
    for sim in runs:
        sim.run(300.0)
    handovers, gap = sum(sim.handovers() for sim in runs), min(sim.min_gap() for sim in runs)
    figure(f"{len(runs)} runs of 300 simulated s: {handovers} handovers, min gap {gap:.3f}s")
    assert handovers >= 50
    assert sum(sim.overlaps() for sim in runs) == 0
    # One clock for all here, so every gap is at least the clock-skew margin.
    assert gap >= runs[0].cores["a"].clock_skew_margin - 1e-9


def test_simulation_self_test_without_the_fence_catches_overlaps(quiet: None, figure: Figure) -> None:
    """client-go's loop alone — a leader renews for a renew deadline after its last answer, however
    late that answer came — overlaps in the same simulations."""
    runs = [Simulation(seed, ["a", "b", "c"], fenced=False, **CONFIG) for seed in SEEDS]
    for sim in runs:
        sim.run(300.0)
    overlaps = sum(sim.overlaps() for sim in runs)
    figure(f"without the fence: {overlaps} overlapping leaderships in {len(runs)} runs")
    assert overlaps > 0
