"""``kgen.runtime.apimachinery.golang.gosort`` against Go's own sort package (hack/oracle/gosort).

strategicpatch sorts with ``sort.Sort`` (pdqsort, unstable) and ``sort.SliceStable``, and its
``less`` for scalars and merge keys is ``<=`` on ``%v`` strings, not a strict order; equal keys
also stand for different items. So the permutation itself must be Go's, not just a sorted result:
each case compares the permutation Go leaves with the port's, on random keys from few distinct
values (many ties), lengths 0 to 300 (past pdqsort's insertion-sort cutoff of 12, its ninther
pivot from 50 and its heapsort fallback), sorted, reversed and random inputs, both ``less``.
"""

from __future__ import annotations

import json
import random
import subprocess
from collections import Counter
from collections.abc import Callable

from kgen.runtime.apimachinery.golang.gosort import slice_stable, sort_unstable
from tests.support.oracle import oracle_binary

CASES = 3000


def _go(cases: list[dict[str, object]]) -> list[list[int]]:
    done = subprocess.run([str(oracle_binary("gosort"))], input="".join(json.dumps(c) + "\n" for c in cases),
                          capture_output=True, text=True, check=True, timeout=600)
    return [json.loads(line) for line in done.stdout.splitlines()]


def _ours(case: dict[str, object]) -> list[int]:
    keys = case["keys"]
    assert isinstance(keys, list)

    def lt(a: int, b: int) -> bool:
        return bool(keys[a] < keys[b])

    def le(a: int, b: int) -> bool:
        return bool(keys[a] <= keys[b])

    less: Callable[[int, int], bool] = le if case["less"] == "le" else lt
    algorithm = slice_stable if case["sort"] == "stable" else sort_unstable
    return algorithm(list(range(len(keys))), less)


def _cases(rng: random.Random, count: int) -> list[tuple[dict[str, object], str]]:
    out = []
    for _ in range(count):
        n = rng.choice([rng.randint(0, 14), rng.randint(0, 60), rng.randint(40, 300)])
        alphabet = [str(i) for i in range(rng.choice([1, 2, 3, 10, 1000]))] + ["", "a", "b10", "b9"]
        keys = [rng.choice(alphabet) for _ in range(n)]
        shape = rng.choice(["random", "sorted", "reversed", "almost sorted"])
        if shape == "sorted":
            keys.sort()
        elif shape == "reversed":
            keys.sort(reverse=True)
        elif shape == "almost sorted" and n > 1:
            keys.sort()
            for _ in range(rng.randint(1, 3)):
                i, j = rng.randrange(n), rng.randrange(n)
                keys[i], keys[j] = keys[j], keys[i]
        case = {"sort": rng.choice(["sort", "stable"]), "less": rng.choice(["lt", "le"]), "keys": keys}
        out.append((case, f"{case['sort']} {case['less']} {shape} n{'>50' if n > 50 else '>12' if n > 12 else '<=12'}"))
    return out


def test_sort_and_slice_stable_leave_gos_permutation(figure: Callable[[str], None]) -> None:
    cases = _cases(random.Random(20261203), CASES)
    expected = _go([c for c, _ in cases])
    mismatches = [c for (c, _), want in zip(cases, expected, strict=True) if _ours(c) != want]
    counts = Counter(category for _, category in cases)
    figure(f"gosort vs Go's sort package: {len(cases)} cases, {len(mismatches)} mismatches; "
           + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    assert not mismatches, json.dumps(mismatches[0])


def test_the_harness_sees_a_planted_difference() -> None:
    """Python's own (stable, Timsort) sort is not Go's pdqsort: on ties the permutation differs."""
    cases = [c for c, _ in _cases(random.Random(7), 300) if c["sort"] == "sort"]
    expected = _go(cases)
    timsort = [sorted(range(len(c["keys"])), key=lambda i, k=c["keys"]: k[i]) for c in cases]  # type: ignore[index]
    assert sum(t != e for t, e in zip(timsort, expected, strict=True)) >= 10
