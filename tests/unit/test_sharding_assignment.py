"""Rendezvous assignment (kgen.runtime.tools.sharding.assignment): stable, balanced, and a
leaving member moves only its own keys; a joining member takes only the keys it wins."""

from __future__ import annotations

import subprocess
import sys
from collections import Counter

import pytest

from kgen.runtime.tools.sharding import assignment
from kgen.runtime.tools.sharding.assignment import owner, weight

KEYS = [f"ns-{i % 7}/cm-{i}" for i in range(3000)]
MEMBERS = ["replica-0", "replica-1", "replica-2"]


def test_owner_is_stable_across_member_order_and_processes() -> None:
    here = [owner(k, MEMBERS) for k in KEYS[:200]]
    assert here == [owner(k, list(reversed(MEMBERS))) for k in KEYS[:200]]
    # Another interpreter (another PYTHONHASHSEED) computes the same owners: no salted hash().
    code = ("from kgen.runtime.tools.sharding.assignment import owner\n"
            f"print(','.join(owner(k, {MEMBERS!r}) or '' for k in {KEYS[:200]!r}))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={"PYTHONHASHSEED": "12345", "PATH": ""}).stdout.strip()
    assert out.split(",") == here


def test_weights_are_pinned() -> None:
    """A change of hash would reshuffle every running deployment's shards: pin two values."""
    assert weight("replica-0", "default/a") == int.from_bytes(
        __import__("hashlib").blake2b(b"replica-0\x00default/a", digest_size=8).digest(), "big")
    assert owner("default/a", []) is None


def test_3000_keys_over_3_members_are_balanced_within_10_percent() -> None:
    counts = Counter(owner(k, MEMBERS) for k in KEYS)
    assert set(counts) == set(MEMBERS)
    # Binomial(3000, 1/3): sd ~ 25.8; 10 % of the mean (100) is ~3.9 sd.
    for member, n in counts.items():
        assert abs(n - 1000) <= 100, counts


def test_a_leaving_member_moves_only_its_own_keys_and_they_spread() -> None:
    before = {k: owner(k, MEMBERS) for k in KEYS}
    after = {k: owner(k, ["replica-0", "replica-2"]) for k in KEYS}
    moved = {k for k in KEYS if before[k] != after[k]}
    assert moved == {k for k in KEYS if before[k] == "replica-1"}
    spread = Counter(after[k] for k in moved)
    assert min(spread.values()) >= 0.4 * len(moved), spread


def test_a_joining_member_takes_only_keys_it_wins_about_a_quarter() -> None:
    before = {k: owner(k, MEMBERS) for k in KEYS}
    after = {k: owner(k, [*MEMBERS, "replica-3"]) for k in KEYS}
    moved = [k for k in KEYS if before[k] != after[k]]
    assert all(after[k] == "replica-3" for k in moved)
    assert abs(len(moved) - 750) <= 100, len(moved)


def test_ties_go_to_the_smaller_identity(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(assignment, "weight", lambda member, key: 7)
    assert assignment.owner("k", ["c", "b", "d"]) == "b"
