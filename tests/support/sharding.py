"""What the sharding tests check reconcile records with (tests/integration/test_sharding_*.py)."""

from __future__ import annotations

from collections import defaultdict

Interval = tuple[str, str, int, int]  # replica, key, start, end (ns, CLOCK_MONOTONIC)


def overlaps(intervals: list[Interval]) -> list[tuple[Interval, Interval]]:
    """Pairs of reconciles of one key by two replicas that intersect in time."""
    by_key: dict[str, list[Interval]] = defaultdict(list)
    for interval in intervals:
        by_key[interval[1]].append(interval)
    found = []
    for runs in by_key.values():
        runs.sort(key=lambda r: r[2])
        latest: Interval | None = None  # the run ending last so far
        for run in runs:
            if latest is not None and run[2] < latest[3] and run[0] != latest[0]:
                found.append((latest, run))
            if latest is None or run[3] > latest[3]:
                latest = run
    return found
