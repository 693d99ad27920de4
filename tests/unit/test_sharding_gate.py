"""The shard's I/O-free parts on a fake clock: who is live (membership), what a replica may start
(gate), and which label moves the leader plans (labeller.plan_moves)."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from kgen.runtime.tools.sharding import assignment
from kgen.runtime.tools.sharding.gate import Decision, ListedObject, ShardGate
from kgen.runtime.tools.sharding.labeller import Move, plan_moves
from kgen.runtime.tools.sharding.membership import Members, validate_name

C = "ctl"
LABEL = f"shard.kgen.io/{C}"
FROM, EPOCH = f"shard.kgen.io/{C}-from", f"shard.kgen.io/{C}-epoch"
LEASE = 6


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def lease(identity: str, rv: str, *, holder: str | None = None, released: int | None = None,
          controller: str = C) -> dict[str, Any]:
    annotations = {"shard.kgen.io/released-epoch": str(released)} if released is not None else {}
    return {"metadata": {"name": f"{controller}-shard-{identity}", "resourceVersion": rv, "annotations": annotations,
                         "labels": {"shard.kgen.io/controller": controller, "shard.kgen.io/role": "member"}},
            "spec": {"holderIdentity": identity if holder is None else holder, "leaseDurationSeconds": LEASE}}


def leader(epoch: int) -> dict[str, Any]:
    return {"metadata": {"name": f"{C}-shard-leader", "resourceVersion": "9",
                         "annotations": {"shard.kgen.io/epoch": str(epoch)},
                         "labels": {"shard.kgen.io/controller": C, "shard.kgen.io/role": "leader"}},
            "spec": {"holderIdentity": "a", "leaseDurationSeconds": LEASE}}


def obj(name: str, rv: str, owner: str | None = None, **annotations: str) -> dict[str, Any]:
    labels = {LABEL: owner} if owner else {}
    return {"metadata": {"name": name, "namespace": "ns", "resourceVersion": rv, "labels": labels,
                         "annotations": annotations}}


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def members(clock: Clock) -> Members:
    return Members(C, clock=clock)


# -- membership ---------------------------------------------------------------------------------


def test_a_member_is_live_while_its_lease_changes_within_its_duration_on_the_readers_clock(
        clock: Clock, members: Members) -> None:
    members.refresh([lease("a", "1"), lease("b", "1")])
    clock.now += LEASE - 0.1
    members.refresh([lease("a", "2"), lease("b", "1")])  # a renewed, b did not
    assert members.live() == ["a", "b"]
    clock.now += 0.2
    assert members.live() == ["a"]
    assert members.is_dead("b", LEASE) and not members.is_dead("a", LEASE)


def test_a_released_lease_is_dead_at_once_and_foreign_leases_are_ignored(clock: Clock, members: Members) -> None:
    members.refresh([lease("a", "1", holder=""), lease("x", "1", controller="other")])
    assert members.live() == [] and members.is_dead("a", LEASE)
    assert not members.is_live("x")


def test_a_member_without_a_lease_is_dead_only_after_a_lease_duration_of_watching(
        clock: Clock, members: Members) -> None:
    members.refresh([])
    assert not members.is_dead("ghost", LEASE) and not members.is_live("ghost")
    clock.now += LEASE
    assert members.is_dead("ghost", LEASE)
    # A lease that disappears: absent from then on, dead a lease duration later.
    members.refresh([lease("a", "1")])
    members.refresh([])
    assert not members.is_dead("a", LEASE)
    clock.now += LEASE
    assert members.is_dead("a", LEASE)


def test_epochs_are_read_from_the_leader_and_member_leases(members: Members) -> None:
    members.refresh([leader(4), lease("a", "1", released=3), lease("b", "1")])
    assert members.requested_epoch() == 4
    assert members.released_epoch("a") == 3 and members.released_epoch("b") == 0
    assert members.max_released_epoch() == 3
    assert members.live() == ["a", "b"]


@pytest.mark.parametrize("bad", ["", "A", "-a", "a-", "a/b", "x" * 64])
def test_names_that_cannot_name_leases_and_labels_are_refused(bad: str) -> None:
    with pytest.raises(ValueError, match="lowercase alphanumerics"):
        validate_name("identity", bad)


# -- the gate -----------------------------------------------------------------------------------


def gate_for(identity: str, members: Members) -> ShardGate:
    return ShardGate(C, identity, LABEL, members, LEASE)


def test_a_replica_starts_its_own_keys_only_and_nothing_once_fenced(members: Members) -> None:
    gate = gate_for("a", members)
    assert gate.begin("ns/x", obj("x", "5", "a")) is Decision.START
    assert gate.begin("ns/y", obj("y", "5", "b")) is Decision.SKIP
    assert gate.begin("ns/z", None) is Decision.SKIP
    gate.end("ns/x")
    gate.fence()
    assert gate.begin("ns/x", obj("x", "6", "a")) is Decision.SKIP


def test_after_a_consistent_list_a_cached_version_it_superseded_is_stale(members: Members) -> None:
    gate = gate_for("a", members)
    gate.install({"ns/kept": ListedObject("40", {LABEL: "a"}, {})}, "100")
    assert gate.begin("ns/moved", obj("moved", "90", "a")) is Decision.SKIP  # moved away before the list
    assert gate.begin("ns/back", obj("back", "110", "a")) is Decision.START  # labelled ours after it
    assert gate.begin("ns/kept", obj("kept", "40", "a")) is Decision.START


def test_the_listed_version_wins_over_an_older_cached_one(members: Members) -> None:
    members.refresh([lease("b", "1", released=1)])
    gate = gate_for("a", members)
    gate.install({"ns/k": ListedObject("50", {LABEL: "a"}, {FROM: "b", EPOCH: "2"})}, "100")
    assert gate.begin("ns/k", obj("k", "30", "a")) is Decision.HOLD  # the cache has not seen the handoff yet


def test_a_handed_over_key_waits_for_the_previous_owners_acknowledgement_or_death(
        clock: Clock, members: Members) -> None:
    members.refresh([lease("b", "1", released=1)])
    gate = gate_for("a", members)
    moved = obj("k", "7", "a", **{FROM: "b", EPOCH: "2"})
    assert gate.begin("ns/k", moved) is Decision.HOLD
    assert gate.held() == ["ns/k"] and gate.held() == []
    members.refresh([lease("b", "2", released=2)])
    assert gate.begin("ns/k", moved) is Decision.START
    gate.end("ns/k")
    # Another handoff from b, not acknowledged: held until b's Lease expires.
    later = obj("k", "8", "a", **{FROM: "b", EPOCH: "3"})
    assert gate.begin("ns/k", later) is Decision.HOLD
    clock.now += LEASE
    assert gate.begin("ns/k", later) is Decision.START


def test_wait_drained_waits_for_reconciles_begun_before_the_install(members: Members) -> None:
    gate = gate_for("a", members)
    assert gate.begin("ns/x", obj("x", "5", "a")) is Decision.START
    generation = gate.install({}, "1")
    assert gate.begin("ns/y", obj("y", "6", "a")) is Decision.START  # after the install: not waited for
    assert not gate.wait_drained(generation, 0.05)
    threading.Timer(0.05, gate.end, args=("ns/x",)).start()
    assert gate.wait_drained(generation, 5)
    assert gate.in_flight() == ["ns/y"]


# -- planning moves -----------------------------------------------------------------------------


def plan(objects: list[dict[str, Any]], members: Members) -> list[Move]:
    return plan_moves(objects, C, LABEL, members, LEASE)


def test_new_objects_go_to_their_owner_without_a_handoff(members: Members) -> None:
    members.refresh([lease("a", "1"), lease("b", "1")])
    moves = plan([obj(f"o{i}", "3") for i in range(20)], members)
    assert [m.to for m in moves] == [assignment.owner(f"ns/o{i}", ["a", "b"]) for i in range(20)]
    assert all(m.handoff_from is None and m.resource_version == "3" for m in moves)


def test_moves_away_from_a_member_record_it_and_unknown_members_keep_their_objects(
        clock: Clock, members: Members) -> None:
    members.refresh([lease("a", "1"), lease("b", "1")])
    names = [f"o{i}" for i in range(40)]
    to_b = [n for n in names if assignment.owner(f"ns/{n}", ["a", "b"]) == "b"]
    moves = plan([obj(n, "3", "a") for n in names], members)
    assert {(m.name, m.to, m.handoff_from) for m in moves} == {(n, "b", "a") for n in to_b}
    # Labelled for a member this reader has never seen: kept until it is surely dead.
    assert plan([obj("g", "3", "ghost")], members) == []
    clock.now += LEASE
    members.refresh([lease("a", "2"), lease("b", "2")])
    assert [(m.handoff_from, m.to) for m in plan([obj("g", "3", "ghost")], members)] == [
        ("ghost", assignment.owner("ns/g", ["a", "b"]))]


def test_an_object_whose_handoff_is_pending_is_not_moved_again(members: Members) -> None:
    members.refresh([lease("a", "1"), lease("b", "1", released=1), lease("c", "1")])
    name = next(f"o{i}" for i in range(100) if assignment.owner(f"ns/o{i}", ["a", "b", "c"]) == "c")
    pending = obj(name, "3", "a", **{FROM: "b", EPOCH: "2"})
    assert plan([pending], members) == []
    members.refresh([lease("a", "1"), lease("b", "2", released=2), lease("c", "1")])
    assert [(m.to, m.handoff_from) for m in plan([pending], members)] == [("c", "a")]


def test_no_live_member_no_moves(clock: Clock, members: Members) -> None:
    members.refresh([lease("a", "1")])
    clock.now += LEASE
    assert plan([obj("x", "1")], members) == []


def test_nothing_starts_past_the_membership_fence_even_before_the_elector_notices(
        clock: Clock, members: Members) -> None:
    """A paused process wakes with its workers running: the gate reads the fence on the clock."""
    fence = clock.now + 4
    gate = ShardGate(C, "a", LABEL, members, LEASE, fence=lambda: fence, clock=clock)
    assert gate.begin("ns/x", obj("x", "5", "a")) is Decision.START
    gate.end("ns/x")
    clock.now = fence
    assert gate.begin("ns/x", obj("x", "5", "a")) is Decision.SKIP


def test_the_previous_owner_is_judged_on_a_fresh_view_of_the_leases(clock: Clock, members: Members) -> None:
    """b renewed just before its old record would expire: a gate that judged on its last
    refresh would call b dead; it refreshes first and holds the key."""
    store = [lease("b", "1", released=0)]
    gate = ShardGate(C, "a", LABEL, members, LEASE, refresh=lambda: members.refresh(store), clock=clock)
    members.refresh(store)
    clock.now += LEASE - 0.5
    store[:] = [lease("b", "2", released=0)]  # b renews; no one has refreshed yet
    clock.now += 0.6
    assert gate.begin("ns/k", obj("k", "7", "a", **{FROM: "b", EPOCH: "1"})) is Decision.HOLD
