"""Leader election against the real apiserver, on both flavours (threads and asyncio): the fence
under stalled requests, handover on release, one PUT per renewal, release retried on Conflict,
and leaseTransitions, released records, callbacks and Events compared with client-go's own
elector (hack/oracle/leaderelection) on the same Lease. The long test at the end runs three
candidates through fault-injecting proxies for two minutes and checks that no two ever lead at
once."""

from __future__ import annotations

import json
import random
import subprocess
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest

from kgen.runtime.apimachinery.errors import Conflict, NotFound
from kgen.runtime.rest import Config
from kgen.runtime.rest.client import AsyncRESTClient, RESTClient
from kgen.runtime.testing import KubeAPIServer
from kgen.runtime.tools.leaderelection import AsyncLeaderElector, LeaderElector
from kgen.runtime.tools.record import EventRecorder
from kgen.runtime.util.retry import DEFAULT_RETRY, retry_on_conflict
from tests.conftest import Figure
from tests.support.apiserver import unthrottled_config, wait_for
from tests.support.faultproxy import Chaos, FaultProxy
from tests.support.flavours import Flavour, flavour_of
from tests.support.oracle import oracle_binary

LOCK = "my-lock"
#: Short timings, so that expiries and handovers happen within seconds.
FAST = {"lease_duration": 3.0, "renew_deadline": 2.0, "retry_period": 0.5}


class Timeline:
    """What the candidates' callbacks report, with the time (time.monotonic) of each call."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, str, float]] = []
        self._changed = threading.Condition()

    def note(self, identity: str, what: str) -> None:
        with self._changed:
            self.calls.append((identity, what, time.monotonic()))
            self._changed.notify_all()

    def when(self, identity: str, what: str, after: float = float("-inf")) -> float | None:
        with self._changed:
            return next((t for i, w, t in self.calls if i == identity and w == what and t > after), None)

    def wait(self, identity: str, what: str, timeout: float, after: float = float("-inf")) -> float:
        with self._changed:
            if not self._changed.wait_for(lambda: self.when(identity, what, after) is not None, timeout):
                raise AssertionError(f"{identity} did not report {what} within {timeout}s: {self.calls}")
        found = self.when(identity, what, after)
        assert found is not None
        return found

    def leader(self) -> str | None:
        """Who reported on_started_leading last and has not reported on_stopped_leading since."""
        state: dict[str, str] = {}
        with self._changed:
            for identity, what, _ in self.calls:
                if what in ("started_leading", "stopped_leading"):
                    state[identity] = what
        return next((identity for identity, what in state.items() if what == "started_leading"), None)

    def intervals(self) -> list[tuple[str, float, float]]:
        """Each leadership, from on_started_leading to on_stopped_leading."""
        out, open_ = [], {}
        with self._changed:
            for identity, what, at in self.calls:
                if what == "started_leading":
                    open_[identity] = at
                elif what == "stopped_leading" and identity in open_:
                    out.append((identity, open_.pop(identity), at))
        return out


class Candidate:
    """A LeaderElector or an AsyncLeaderElector, running in the background, reporting to a Timeline."""

    def __init__(self, flavour: Flavour, rest: Any, namespace: str, identity: str, timeline: Timeline,
                 **config: Any) -> None:
        self.flavour, self.identity, self.timeline = flavour, identity, timeline
        self.elector = flavour.pick(LeaderElector, AsyncLeaderElector)(
            rest, namespace, LOCK, identity,
            on_started_leading=lambda leading: timeline.note(identity, "started_leading"),
            on_stopped_leading=lambda: timeline.note(identity, "stopped_leading"),
            on_new_leader=lambda leader: timeline.note(identity, f"new_leader {leader}"),
            **config,
        )
        self.stop_event = flavour.event()
        self._handle: Any = None

    def start(self) -> "Candidate":
        self._handle = self.flavour.start(self.elector.run, self.stop_event)
        return self

    def stop(self, timeout: float = 30.0) -> None:
        self.flavour.set_event(self.stop_event)
        self._handle.join(timeout)
        assert not self._handle.is_alive(), f"{self.identity} did not stop within {timeout}s"


class Clients:
    """REST clients of one flavour, closed at the end."""

    def __init__(self, flavour: Flavour) -> None:
        self.flavour = flavour
        self._made: list[Any] = []

    def __call__(self, config: Config, **hooks: list[Callable[..., Any]]) -> Any:
        client = self.flavour.pick(RESTClient, AsyncRESTClient)(config)
        for kind, functions in hooks.items():
            client.http.event_hooks[kind].extend(functions)
        self._made.append(client)
        return client

    def close(self) -> None:
        for client in self._made:
            self.flavour.call(client.close)


@pytest.fixture
def clients(flavour: Flavour) -> Iterator[Clients]:
    made = Clients(flavour)
    yield made
    made.close()


def lease(admin: httpx.Client, namespace: str) -> dict[str, Any]:
    answer = admin.get(f"/apis/coordination.k8s.io/v1/namespaces/{namespace}/leases/{LOCK}")
    answer.raise_for_status()
    result: dict[str, Any] = answer.json()
    return result


# -- the fence ------------------------------------------------------------------------------------


def test_renewals_stalled_past_the_lease_lose_leadership_before_another_can_acquire(
    flavour: Flavour, clients: Clients, kube_apiserver: KubeAPIServer, namespace: str
) -> None:
    """The reproduced bug: lease 3 s, renew deadline 2 s, every request of the leader stalled 6 s.
    It stops leading within the renew deadline (+ retry period), before the other takes over."""
    timeline = Timeline()
    with FaultProxy(kube_apiserver) as proxy:
        a = Candidate(flavour, clients(proxy.config()), namespace, "a", timeline, **FAST).start()
        timeline.wait("a", "started_leading", 20)
        b = Candidate(flavour, clients(unthrottled_config(kube_apiserver)), namespace, "b", timeline, **FAST).start()
        timeline.wait("b", "new_leader a", 20)

        proxy.set_chaos(Chaos(stall=1.0, stall_seconds=6.0))
        stalled = time.monotonic()
        a_stopped = timeline.wait("a", "stopped_leading", 20)
        b_started = timeline.wait("b", "started_leading", 20)
        proxy.set_chaos(None)
        print(f"a stopped {a_stopped - stalled:.2f}s after the stall began, b started {b_started - a_stopped:.2f}s later")
        assert a_stopped - stalled <= FAST["renew_deadline"] + FAST["retry_period"] + 1.0
        assert b_started > a_stopped
        b.stop()
        a.stop()


# -- release, renewals, conflicts -------------------------------------------------------------------


def test_release_hands_the_lease_over_at_once(
    flavour: Flavour, clients: Clients, kube_apiserver: KubeAPIServer, admin: httpx.Client, namespace: str
) -> None:
    """With a 30 s lease, the waiting candidate takes over within seconds of the release (were the
    release a no-op, it would wait the 30 s); leaseTransitions goes 0 (created) → 1."""
    timeline = Timeline()
    config = {"lease_duration": 30.0, "renew_deadline": 10.0, "retry_period": 0.5, "release_on_cancel": True}
    a = Candidate(flavour, clients(unthrottled_config(kube_apiserver)), namespace, "a", timeline, **config).start()
    timeline.wait("a", "started_leading", 20)
    assert lease(admin, namespace)["spec"]["leaseTransitions"] == 0
    b = Candidate(flavour, clients(unthrottled_config(kube_apiserver)), namespace, "b", timeline, **config).start()
    timeline.wait("b", "new_leader a", 20)

    released = time.monotonic()
    a.stop()
    b_started = timeline.wait("b", "started_leading", 10)
    print(f"b took over {b_started - released:.2f}s after a was stopped (lease 30 s)")
    assert b_started - released < 5.0
    assert timeline.when("a", "stopped_leading") is not None
    spec = lease(admin, namespace)["spec"]
    assert spec["holderIdentity"] == "b" and spec["leaseTransitions"] == 1 and spec["leaseDurationSeconds"] == 30
    b.stop()
    spec = lease(admin, namespace)["spec"]
    assert spec["holderIdentity"] == "" and spec["leaseDurationSeconds"] == 1 and spec["leaseTransitions"] == 1


def test_a_renewal_is_one_put_and_no_get(
    flavour: Flavour, clients: Clients, kube_apiserver: KubeAPIServer, namespace: str
) -> None:
    timeline = Timeline()
    with FaultProxy(kube_apiserver) as proxy:
        a = Candidate(flavour, clients(proxy.config()), namespace, "a", timeline, **FAST).start()
        timeline.wait("a", "started_leading", 20)
        leading_from = len(proxy.requests)
        wait_for(lambda: len(proxy.requests) >= leading_from + 8, timeout=20, interval=0.1)
        renewals = [r.split(" ")[0] for r in proxy.requests[leading_from:]]
        a.stop()
    print(f"requests while leading: {renewals}")
    assert set(renewals) == {"PUT"}


def test_release_is_retried_on_conflict(
    flavour: Flavour, clients: Clients, kube_apiserver: KubeAPIServer, admin: httpx.Client, namespace: str
) -> None:
    """The Lease changes between the release's GET and its PUT: the PUT is a Conflict, and the
    release reads the Lease again and writes the released record."""
    timeline = Timeline()
    stopping = threading.Event()
    statuses: list[tuple[str, int]] = []

    def on_response(response: httpx.Response) -> None:
        statuses.append((response.request.method, response.status_code))
        if stopping.is_set() and response.request.method == "GET" and not any(m == "touched" for m, _ in statuses):
            statuses.append(("touched", 0))
            path = f"/apis/coordination.k8s.io/v1/namespaces/{namespace}/leases/{LOCK}"
            admin.patch(path, json={"metadata": {"annotations": {"touched": "yes"}}},
                        headers={"Content-Type": "application/merge-patch+json"}).raise_for_status()

    async def on_response_async(response: httpx.Response) -> None:
        on_response(response)

    hook = on_response_async if flavour.is_async else on_response
    rest = clients(unthrottled_config(kube_apiserver), response=[hook])
    a = Candidate(flavour, rest, namespace, "a", timeline, release_on_cancel=True,
                  lease_duration=30.0, renew_deadline=10.0, retry_period=5.0).start()
    timeline.wait("a", "started_leading", 20)
    # The renew loop renews (a PUT) at once after acquiring: stopping while that PUT is in flight
    # races it with the release (its 200 arriving after the touch, as on a loaded machine). A
    # renewal answered after leading started leaves retry_period (5 s) before the next.
    led = len(statuses)
    wait_for(lambda: ("PUT", 200) in statuses[led:], timeout=20, interval=0.05)
    stopping.set()
    a.stop()
    after = statuses[next(i for i, (m, _) in enumerate(statuses) if m == "touched") - 1:]
    print(f"release: {after}")
    assert after == [("GET", 200), ("touched", 0), ("PUT", 409), ("GET", 200), ("PUT", 200)]
    stored = lease(admin, namespace)
    assert stored["metadata"]["annotations"]["touched"] == "yes"
    assert stored["spec"]["holderIdentity"] == "" and stored["spec"]["leaseDurationSeconds"] == 1


# -- client-go as the oracle -----------------------------------------------------------------------


class GoCandidate:
    """client-go's elector (hack/oracle/leaderelection) as a subprocess: its callbacks, line by line."""

    def __init__(self, server: KubeAPIServer, namespace: str, identity: str, **flags: str) -> None:
        args = [str(oracle_binary("leaderelection")), "-kubeconfig", server.kubeconfig, "-namespace", namespace,
                "-name", LOCK, "-identity", identity]
        for flag, value in flags.items():
            args.append(f"-{flag.replace('_', '-')}={value}")
        self.identity = identity
        self.proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.lines: list[dict[str, Any]] = []
        self._changed = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            with self._changed:
                self.lines.append(json.loads(line))
                self._changed.notify_all()

    def wait(self, predicate: Callable[[dict[str, Any]], bool], timeout: float = 60.0) -> None:
        with self._changed:
            if not self._changed.wait_for(lambda: any(predicate(line) for line in self.lines), timeout):
                raise AssertionError(f"client-go's elector {self.identity}: {self.lines}")

    def callbacks(self) -> list[str]:
        return sorted(f"{line['callback']} {line.get('identity', '')}".strip() for line in self.lines if "callback" in line)

    def stop(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write("stop\n")
        self.proc.stdin.flush()
        self.wait(lambda line: line.get("done") is True)

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        self.proc.wait(30)


def test_lease_records_callbacks_and_events_match_client_go(
    flavour: Flavour, clients: Clients, kube_apiserver: KubeAPIServer, admin: httpx.Client, namespace: str
) -> None:
    """client-go and kgen take turns on one Lease, each releasing it: the records each writes,
    leaseTransitions along the way, the callbacks and the Events are client-go's."""
    timings = {"lease_duration": "4s", "renew_deadline": "3s", "retry_period": "500ms"}
    config = {"lease_duration": 4.0, "renew_deadline": 3.0, "retry_period": 0.5, "release_on_cancel": True}
    events_rest = RESTClient(unthrottled_config(kube_apiserver))
    recorder = EventRecorder(events_rest, "kgen-leaderelection-test")
    rest = clients(unthrottled_config(kube_apiserver))
    seen: dict[str, dict[str, Any]] = {}
    callbacks: dict[str, list[str]] = {}

    def go_turn(identity: str) -> None:
        go = GoCandidate(kube_apiserver, namespace, identity, release_on_cancel="true", **timings)
        try:
            go.wait(lambda line: line.get("callback") == "started_leading")
            seen[f"{identity} leading"] = lease(admin, namespace)["spec"]
            go.stop()
            seen[f"{identity} released"] = lease(admin, namespace)["spec"]
            callbacks[identity] = go.callbacks()
        finally:
            go.close()

    def kgen_turn(identity: str) -> None:
        timeline = Timeline()
        candidate = Candidate(flavour, rest, namespace, identity, timeline, event_recorder=recorder, **config).start()
        timeline.wait(identity, "started_leading", 30)
        seen[f"{identity} leading"] = lease(admin, namespace)["spec"]
        candidate.stop()
        seen[f"{identity} released"] = lease(admin, namespace)["spec"]
        wait_for(lambda: len(timeline.calls) >= 3, timeout=10, interval=0.05)  # on_new_leader runs apart
        callbacks[identity] = sorted(what for _, what, _ in timeline.calls)

    go_turn("go-a")
    kgen_turn("py-b")
    go_turn("go-c")
    kgen_turn("py-d")
    recorder.shutdown()
    events_rest.close()

    transitions = {key: spec["leaseTransitions"] for key, spec in seen.items()}
    print(f"leaseTransitions: {transitions}")
    assert [transitions[f"{who} leading"] for who in ("go-a", "py-b", "go-c", "py-d")] == [0, 1, 2, 3]
    for who in ("go-a", "py-b", "go-c", "py-d"):
        leading, released = seen[f"{who} leading"], seen[f"{who} released"]
        assert leading["holderIdentity"] == who and leading["leaseDurationSeconds"] == 4
        assert released.keys() == seen["go-a released"].keys()
        assert released["holderIdentity"] == "" and released["leaseDurationSeconds"] == 1
        assert released["acquireTime"] == released["renewTime"]
        assert released["leaseTransitions"] == leading["leaseTransitions"]
    for go, py in (("go-a", "py-b"), ("go-c", "py-d")):
        assert callbacks[py] == [c.replace(go, py) for c in callbacks[go]]

    def events() -> list[tuple[str, ...]]:
        items = admin.get(f"/api/v1/namespaces/{namespace}/events").json()["items"]
        return sorted((e["involvedObject"]["apiVersion"], e["involvedObject"]["kind"], e["involvedObject"]["name"],
                       e["type"], e["reason"], e["message"]) for e in items)

    try:
        wait_for(lambda: len(events()) >= 8, timeout=30)
    except AssertionError:
        raise AssertionError(f"8 Events expected, the server has {events()}") from None
    by_whom = {who: [e[:5] + (e[5].replace(who, "<id>"),) for e in events() if e[5].startswith(f"{who} ")]
               for who in ("go-a", "py-b", "go-c", "py-d")}
    print(f"client-go's events: {by_whom['go-a']}")
    assert by_whom["go-a"] == [
        ("coordination.k8s.io/v1", "Lease", LOCK, "Normal", "LeaderElection", "<id> became leader"),
        ("coordination.k8s.io/v1", "Lease", LOCK, "Normal", "LeaderElection", "<id> stopped leading"),
    ]
    assert by_whom["py-b"] == by_whom["go-a"] == by_whom["go-c"] == by_whom["py-d"]


# -- three candidates, faulty links, two minutes ------------------------------------------------------


@pytest.mark.long
def test_three_candidates_through_faulty_proxies_never_lead_at_once(
    kube_apiserver: KubeAPIServer, namespace: str, figure: Figure
) -> None:
    """Three candidates (two on threads, one on asyncio), each through its own fault-injecting
    proxy: background cuts and stalls on every link, and every few seconds a bad spell on the
    leader's link (all its requests stalled past the lease, or all cut). Each candidate runs
    again whenever it loses, as a restarted process would. For two minutes the leaderships, from
    on_started_leading to on_stopped_leading, must never overlap: the candidates share one
    clock, so the whole clock-skew margin (1 s) is left for scheduling."""
    rng = random.Random(7)
    timeline = Timeline()
    background = {"cut": 0.02, "stall": 0.02, "stall_seconds": 2.5}
    identities = ("a", "b", "c")
    with FaultProxy(kube_apiserver) as pa, FaultProxy(kube_apiserver) as pb, FaultProxy(kube_apiserver) as pc, \
            flavour_of("sync") as threads, flavour_of("async") as loop:
        proxies = dict(zip(identities, (pa, pb, pc)))
        flavours = dict(zip(identities, (threads, loop, threads)))
        candidates, runs = {}, {}
        for seed, identity in enumerate(identities):
            flavour = flavours[identity]
            proxies[identity].set_chaos(Chaos(seed=seed, **background))
            rest = flavour.pick(RESTClient, AsyncRESTClient)(proxies[identity].config())
            candidates[identity] = Candidate(flavour, rest, namespace, identity, timeline, **FAST)
            runs[identity] = flavour.start(_again(candidates[identity]))

        spells = 0
        end = time.monotonic() + 120.0
        while time.monotonic() < end:
            time.sleep(rng.uniform(3.0, 7.0))  # the fault schedule, not synchronisation
            victim = timeline.leader() or rng.choice(identities)
            if rng.random() < 0.5:
                proxies[victim].set_chaos(Chaos(seed=spells, stall=1.0, stall_seconds=rng.uniform(3.5, 6.0)))
            else:
                proxies[victim].set_chaos(Chaos(seed=spells, cut=1.0))
            time.sleep(rng.uniform(2.0, 5.0))
            proxies[victim].set_chaos(Chaos(seed=spells, **background))
            spells += 1

        for identity in identities:
            flavours[identity].set_event(candidates[identity].stop_event)
        for identity in identities:
            runs[identity].join(30)
            assert not runs[identity].is_alive(), f"{identity} did not stop"
            flavours[identity].call(candidates[identity].elector._rest.close)
        faults = sum((p.faults for p in proxies.values()), start=Counter[str]())

    intervals = sorted(timeline.intervals(), key=lambda i: i[1])
    leaders = [identity for identity, _, _ in intervals]
    handovers = sum(1 for x, y in zip(leaders, leaders[1:]) if x != y)
    gaps = [later[1] - earlier[2] for i, earlier in enumerate(intervals) for later in intervals[i + 1:]
            if later[0] != earlier[0]]
    figure(f"{spells} bad spells, faults {dict(faults)}; {len(intervals)} leaderships, {handovers} handovers "
          f"between candidates, min gap {min(gaps):.3f}s")
    assert handovers >= 5
    assert min(gaps) > 0, "two candidates led at once"


def _again(candidate: Candidate) -> Callable[[], Any]:
    """The candidate's elector, run again each time it loses, until stopped."""
    elector, stop = candidate.elector, candidate.stop_event
    if candidate.flavour.is_async:

        async def again_async() -> None:
            while not stop.is_set():
                await elector.run(stop)

        return again_async

    def again() -> None:
        while not stop.is_set():
            elector.run(stop)

    return again


# -- util.retry, used by read-modify-write loops around the Lease too --------------------------------


def test_retry_on_conflict_retries_only_conflicts() -> None:
    calls = []

    def flaky() -> str:
        calls.append(1)
        if len(calls) < 3:
            raise Conflict({"code": 409, "reason": "Conflict"}, 409)
        return "done"

    assert retry_on_conflict(flaky, sleep=lambda s: None) == "done" and len(calls) == 3
    with pytest.raises(NotFound):
        retry_on_conflict(lambda: (_ for _ in ()).throw(NotFound({}, 404)), sleep=lambda s: None)
    always: list[int] = []

    def conflict() -> None:
        always.append(1)
        raise Conflict({}, 409)

    with pytest.raises(Conflict):
        retry_on_conflict(conflict, sleep=lambda s: None)
    assert len(always) == DEFAULT_RETRY.steps
