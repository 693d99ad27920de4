"""The event correlator against client-go's (hack/oracle/correlator), and the recording core.

The differential test feeds the same seeded random scripts (several objects whose
resourceVersion keeps changing, sources, types, reasons, messages; time steps that land just
before, on and after the 300 s and 600 s edges; writes that succeed or fail) to client-go's
EventCorrelator on a fake clock and to kgen's, and compares every outcome: skipped or not, the
event to write (name, count, message, timestamps, ...), update or create, the patch, and the
messages the aggregator remembers. Once a group is full, client-go forgets an arbitrary message
(Go's map order): the oracle prints what it kept and kgen's ``forget_local_key`` replays that
choice, so the states stay equal and every later outcome is comparable.
"""

from __future__ import annotations

import json
import random
import re
import struct
import subprocess
from collections import Counter
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

import httpx
import pytest

from kgen.runtime.apimachinery.errors import error_from_status
from kgen.runtime.tools.record import CorrelatorOptions, EventCorrelator, ObjectRef, make_event, record_to_sink
from kgen.runtime.tools.record.event import MAX_TRIES_PER_EVENT, CreateEvent, PatchEvent, Sleep
from kgen.runtime.tools.record.events_cache import get_spam_key
from tests.conftest import Figure
from tests.support.oracle import oracle_binary

T0 = 1_767_225_600 * 10**9  # 2026-01-01T00:00:00Z
SECOND = 10**9
UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")

OBJECTS = [
    ObjectRef("v1", "ConfigMap", "ns1", "config", "uid-config", "1"),
    ObjectRef("v1", "Pod", "ns1", "web-0", "uid-pod", "7", "spec.containers{app}"),
    ObjectRef("v1", "Node", "", "node-a", "uid-node", "3"),  # cluster-scoped: its events go to "default"
    ObjectRef("example.com/v1", "Widget", "ns2", "w" * 240, "uid-widget", "1"),  # no valid event name
]
SOURCES = [("ctrl", ""), ("ctrl", "host-1"), ("other", "")]
REASONS = ["Failed", "Synced", "Scaled"]


@dataclass(frozen=True)
class Step:
    at: int
    event: dict[str, Any]
    written_resource_version: str


def random_script(seed: int, length: int) -> list[Step]:
    """Events as busy controllers send them: bursts about one object from one source (a few
    reasons, many messages), with pauses that land just before, on and just after the 300 s and
    600 s edges, or far beyond them."""
    rnd = random.Random(seed)
    now, rv = T0, {o.name: int(o.resource_version) for o in OBJECTS}
    steps: list[Step] = []
    while len(steps) < length:
        now += rnd.choice([
            rnd.randrange(0, 5 * SECOND),
            rnd.choice([-1, 0, 1]) * 1_000_000 + 300 * SECOND,
            rnd.choice([-1, 0, 1]) * 1_000_000 + 600 * SECOND,
            rnd.randrange(60, 3_000) * SECOND,
        ])
        if not steps or rnd.random() < 0.5:  # else the same controller carries on after the pause
            obj = rnd.choices(OBJECTS, weights=[6, 3, 2, 1])[0]
            component, host = rnd.choices(SOURCES, weights=[6, 2, 1])[0]
            type_ = rnd.choices(["Warning", "Normal"], weights=[3, 1])[0]
            reasons = rnd.sample(REASONS, rnd.randrange(1, 3))
        for n in range(rnd.randrange(3, 40)):
            if n:
                now += rnd.choice([0, rnd.randrange(0, 2 * SECOND)])
            if rnd.random() < 0.5:
                rv[obj.name] += 1  # the object changed meanwhile
            ref = replace(obj, resource_version=str(rv[obj.name]))
            reason = rnd.choice(reasons)
            message = f"{reason.lower()} #{min(rnd.randrange(16), rnd.randrange(16))}"  # some far more often
            event = make_event(ref, None, type_, reason, message, component=component, host=host, now=now)
            steps.append(Step(now, event, f"{1000 + len(steps)}" if rnd.random() < 0.85 else ""))
    return steps[:length]


def run_oracle(steps: list[Step], flags: list[str]) -> list[dict[str, Any]]:
    script = "".join(
        json.dumps({"at": s.at, "event": s.event, "writtenResourceVersion": s.written_resource_version}) + "\n"
        for s in steps)
    done = subprocess.run([str(oracle_binary("correlator")), "correlate", *flags], input=script,
                          capture_output=True, text=True, timeout=120, check=True)
    return [json.loads(line) for line in done.stdout.splitlines()]


EVENT_FIELDS = ("count", "message", "reason", "type", "firstTimestamp", "lastTimestamp", "involvedObject",
                "source", "reportingComponent", "reportingInstance")


def projected(event: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """What the correlator decides about an event; absent and empty are the same to Go's JSON."""
    if event is None:
        return None
    metadata = event.get("metadata") or {}
    out = {f: event.get(f) or None for f in EVENT_FIELDS}
    out.update({f: metadata.get(f) or None for f in ("name", "namespace", "resourceVersion", "annotations")})
    return out


@dataclass
class Tally:
    events: int = 0
    mismatches: list[str] = field(default_factory=list)
    counts: Counter[str] = field(default_factory=Counter)


def compare(steps: list[Step], options: CorrelatorOptions, flags: list[str], tally: Tally) -> None:
    """Runs ``steps`` through client-go (with ``flags``) and through kgen (with ``options``)."""
    expected = run_oracle(steps, flags)
    assert len(expected) == len(steps)
    current: dict[str, Any] = {}

    def replay_forget(local_keys: Collection[str]) -> str:
        forgotten = sorted(set(local_keys) - set(current["localKeys"] or []))
        if len(forgotten) != 1:
            tally.mismatches.append(f"event {current['i']}: client-go kept {current['localKeys']}, kgen had {sorted(local_keys)}")
            return next(iter(local_keys))
        tally.counts["forgotten message replayed"] += 1
        return forgotten[0]

    correlator = EventCorrelator(replace(options, clock=lambda: current["at"], forget_local_key=replay_forget))
    for i, (step, go) in enumerate(zip(steps, expected)):
        current.update(i=i, at=step.at, localKeys=go["localKeys"])
        result = correlator.event_correlate(step.event)
        ours = {
            "skip": result.skip,
            "event": projected(result.event),
            "update": bool(result.event and result.event["count"] > 1),
            "patch": result.patch,
            "localKeys": correlator.aggregator.local_keys(step.event) or None,
        }
        theirs = {k: projected(go[k]) if k == "event" else go[k] for k in ours}
        if ours["event"] and theirs["event"] and UUID.fullmatch(ours["event"]["name"] or "") \
                and UUID.fullmatch(theirs["event"]["name"] or ""):
            theirs["event"]["name"] = ours["event"]["name"]  # both random, as they must be
        if ours != theirs:
            tally.mismatches.append(f"event {i} at +{(step.at - T0) / SECOND}s: kgen {ours} != client-go {theirs}")
        name, go_name = step.event["metadata"]["name"], go["generatedName"]
        if name != go_name and not (UUID.fullmatch(name) and UUID.fullmatch(go_name)):
            tally.mismatches.append(f"event {i}: kgen names it {name}, client-go {go_name}")
        if not result.skip and step.written_resource_version:
            assert result.event is not None
            written = {**result.event, "metadata": {**result.event["metadata"],
                                                    "resourceVersion": step.written_resource_version}}
            correlator.update_state(written)
        tally.events += 1
        tally.counts["skipped" if result.skip else "update" if ours["update"] else "create"] += 1
        if result.event and result.event["message"].startswith("(combined from similar events): "):
            tally.counts["combined"] += 1


#: (client-go flags, the same options for kgen): the defaults, and small ones that make the LRU
#: evict and the windows close within a short script.
CONFIGS = {
    "defaults": ([], CorrelatorOptions()),
    "small": (["-lru", "5", "-burst", "4", "-qps", "0.02", "-max-events", "3", "-interval", "45"],
              CorrelatorOptions(lru_cache_size=5, burst_size=4, qps=0.02, max_events=3, max_interval_in_seconds=45)),
}


@pytest.mark.parametrize("config", CONFIGS)
def test_correlator_matches_client_go_on_random_scripts(config: str, figure: Figure) -> None:
    flags, options = CONFIGS[config]
    tally = Tally()
    for seed in range(6):
        compare(random_script(seed, 500), options, flags, tally)
    figure(f"{config}: {tally.events} events, {dict(tally.counts)}, {len(tally.mismatches)} mismatches")
    assert tally.mismatches == []
    # The scripts reach every outcome the comparison is about.
    assert all(tally.counts[k] > 20 for k in ("skipped", "update", "create", "combined", "forgotten message replayed"))


def refill_edge_script() -> tuple[list[Step], list[int]]:
    """One object per offset: 25 events empty its bucket at T0, one more comes ``offset`` ns later.
    The offsets straddle where one token is back: 300 s at client-go's rate of float32(1/300)
    per second, which is 7.26 µs sooner than 1/300 would make it; the nanoseconds around it
    decide by rate.Limiter's rounding of the wait."""
    refill = round(SECOND / struct.unpack("f", struct.pack("f", 1 / 300))[0])
    offsets = [refill + d for d in range(-4, 5)] + [300 * SECOND - 10_000, 300 * SECOND - 1, 300 * SECOND,
                                                     refill - 1_000_000, 600 * SECOND]
    steps = []
    for k, offset in enumerate(offsets):
        ref = ObjectRef("v1", "ConfigMap", "ns", f"cm-{k}", f"uid-{k}", "1")
        for i in range(26):
            at = T0 + (offset if i == 25 else 0)
            steps.append(Step(at, make_event(ref, None, "Normal", "Synced", "synced", component="c", host="", now=at), ""))
    return sorted(steps, key=lambda s: s.at), offsets


def test_the_spam_filter_refills_to_the_nanosecond_as_client_go(figure: Figure) -> None:
    steps, offsets = refill_edge_script()
    tally = Tally()
    compare(steps, CorrelatorOptions(), [], tally)
    figure(f"refill edges: {tally.events} events, {dict(tally.counts)}, {len(tally.mismatches)} mismatches")
    assert tally.mismatches == []
    # 25 per object pass at once; of the late ones, some are in time and some are not.
    assert 25 * len(offsets) < tally.counts["update"] + tally.counts["create"] < 26 * len(offsets)


def _rv_in_spam_key(event: Mapping[str, Any]) -> str:
    return get_spam_key(event) + str((event.get("involvedObject") or {}).get("resourceVersion"))


#: Correlators that differ from client-go in one rule each: the comparison must see every one.
PLANTED = {
    "combined at the 11th message": CorrelatorOptions(max_events=11),
    "the resourceVersion in the spam key": CorrelatorOptions(spam_key_func=_rv_in_spam_key),
    "an aggregation window 1 s short": CorrelatorOptions(max_interval_in_seconds=599),
    "a spam burst of 24": CorrelatorOptions(burst_size=24),
}


@pytest.mark.parametrize("planted", PLANTED)
def test_the_comparison_sees_a_planted_difference(planted: str, figure: Figure) -> None:
    tally = Tally()
    for seed in range(6):
        compare(random_script(seed, 500), PLANTED[planted], [], tally)
    figure(f"{planted}: {len(tally.mismatches)} mismatches in {tally.events} events")
    assert tally.mismatches


# -- the recording core: correlate once, then retry the write ---------------------------------------


def _event(message: str, rv: str = "1", now: int = T0) -> dict[str, Any]:
    ref = ObjectRef("v1", "ConfigMap", "ns", "cm", "uid", rv)
    return make_event(ref, None, "Warning", "Failed", message, component="c", host="", now=now)


def _drive(steps: Any, answer: Callable[[Any], Any]) -> list[Any]:
    """Runs the core's steps, answering each with ``answer(step)``; returns the steps."""
    seen: list[Any] = []
    try:
        step = next(steps)
        while True:
            seen.append(step)
            step = steps.send(answer(step))
    except StopIteration:
        return seen


def _server_copy(step: Any) -> dict[str, Any]:
    return {**step.event, "metadata": {**step.event["metadata"], "resourceVersion": "42"}}


def test_a_failing_write_is_retried_without_correlating_again() -> None:
    correlator = EventCorrelator(CorrelatorOptions(burst_size=2, clock=lambda: T0))
    failures = iter([httpx.ConnectError("refused")] * 3)
    steps = _drive(record_to_sink(_event("a"), correlator, 10.0, rand=lambda: 0.25),
                   lambda step: False if isinstance(step, Sleep) else next(failures, None) or _server_copy(step))
    writes = [s for s in steps if not isinstance(s, Sleep)]
    assert [type(s) for s in writes] == [CreateEvent] * 4 and writes[-1].event["count"] == 1
    assert [s.seconds for s in steps if isinstance(s, Sleep)] == [2.5, 10.0, 10.0]  # the first one random
    # One token of the burst of two was spent: the next event about the object still goes out.
    assert not correlator.event_correlate(_event("b")).skip
    assert correlator.event_correlate(_event("c")).skip


def test_a_write_is_given_up_after_12_tries() -> None:
    correlator = EventCorrelator(CorrelatorOptions(clock=lambda: T0))
    steps = _drive(record_to_sink(_event("a"), correlator, 10.0),
                   lambda step: False if isinstance(step, Sleep) else httpx.ReadTimeout("slow"))
    assert sum(not isinstance(s, Sleep) for s in steps) == MAX_TRIES_PER_EVENT


def test_an_error_answer_is_not_retried_and_a_shutdown_ends_the_waits() -> None:
    correlator = EventCorrelator(CorrelatorOptions(clock=lambda: T0))
    rejected = error_from_status({"code": 422, "reason": "Invalid", "message": "no"}, 422)
    assert len(_drive(record_to_sink(_event("a"), correlator), lambda step: rejected)) == 1
    steps = _drive(record_to_sink(_event("b"), correlator),
                   lambda step: True if isinstance(step, Sleep) else httpx.ConnectError("refused"))
    assert [type(s) for s in steps] == [CreateEvent, Sleep]


def test_an_update_of_an_expired_event_creates_it_again() -> None:
    correlator = EventCorrelator(CorrelatorOptions(clock=lambda: T0))
    _drive(record_to_sink(_event("a"), correlator), _server_copy)
    gone = error_from_status({"code": 404, "reason": "NotFound", "message": "gone"}, 404)
    steps = _drive(record_to_sink(_event("a", rv="2"), correlator),
                   lambda step: gone if isinstance(step, PatchEvent) else _server_copy(step))
    assert [type(s) for s in steps] == [PatchEvent, CreateEvent]
    assert steps[0].patch.keys() == {"count", "lastTimestamp", "message"} and steps[0].patch["count"] == 2
    assert steps[1].event["count"] == 2 and "resourceVersion" not in steps[1].event["metadata"]
