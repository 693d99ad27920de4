"""``create_patch`` (kgen.runtime.webhook.json_patch_diff): applying the diff of two documents to
the first gives the second, as the apiserver applies a mutating webhook's patch.

Oracle: ``kgen.runtime.apimachinery.json_patch``, the apiserver's own JSON patch library
(evanphx/json-patch v4) as kgen reproduces it, checked against Go elsewhere. Seeded random
documents (counts printed): objects with awkward keys (``~``, ``/``, ``~1``, empty), arrays that
grow and shrink, and scalars that Python's ``==`` confuses (``1``/``1.0``/``True``); a
self-test shows the property catches a planted bug.
"""

from __future__ import annotations

import random
from typing import Any

import msgspec
import pytest

from kgen.runtime.apimachinery.patch.jsonpatch import json_equal, json_patch
from kgen.runtime.webhook import json_patch_diff
from kgen.runtime.webhook.json_patch_diff import create_patch, escape_pointer_token

SEED = 20261203
PAIRS = 3000
KEYS = ["a", "b", "spec", "~", "/", "a/b", "~1", "~0", "", "x~y/z", "ü", "0", "-"]
SCALARS: list[Any] = [None, True, False, 0, 1, 1.0, -2.5, "", "s", "1", "true", "null"]


def random_value(rng: random.Random, depth: int) -> Any:
    kind = rng.random()
    if depth <= 0 or kind < 0.45:
        return rng.choice(SCALARS)
    if kind < 0.75:
        return {rng.choice(KEYS): random_value(rng, depth - 1) for _ in range(rng.randint(0, 4))}
    return [random_value(rng, depth - 1) for _ in range(rng.randint(0, 4))]


def mutated(rng: random.Random, value: Any, depth: int) -> Any:
    """A copy of ``value`` with a few random changes: the pairs a defaulter produces."""
    if isinstance(value, dict) and rng.random() < 0.8:
        out = {k: (mutated(rng, v, depth - 1) if rng.random() < 0.5 else v) for k, v in value.items()
               if rng.random() > 0.15}
        if rng.random() < 0.3:
            out[rng.choice(KEYS)] = random_value(rng, depth - 1)
        return out
    if isinstance(value, list) and rng.random() < 0.8:
        out_list = [mutated(rng, v, depth - 1) if rng.random() < 0.5 else v for v in value if rng.random() > 0.15]
        if rng.random() < 0.3:
            out_list.insert(rng.randint(0, len(out_list)), random_value(rng, depth - 1))
        return out_list
    return random_value(rng, depth) if rng.random() < 0.5 else value


def random_pairs(seed: int, count: int) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    rng = random.Random(seed)
    pairs = []
    for i in range(count):
        a = {rng.choice(KEYS): random_value(rng, 4) for _ in range(rng.randint(0, 5))}
        b = mutated(rng, a, 5) if i % 4 else {rng.choice(KEYS): random_value(rng, 4) for _ in range(rng.randint(0, 5))}
        if not isinstance(b, dict):
            b = {"replaced": b}
        pairs.append((a, b))
    return pairs


def mismatches(pairs: list[tuple[dict[str, Any], dict[str, Any]]]) -> list[tuple[Any, Any, Any]]:
    bad = []
    for a, b in pairs:
        ops = create_patch(a, b)
        try:
            result = json_patch(a, ops)
        except Exception as e:  # the apiserver would refuse the patch: as wrong as a bad result
            bad.append((a, b, e))
            continue
        if not json_equal(result, b):
            bad.append((a, b, result))
    return bad


def test_applying_the_diff_gives_the_modified_document() -> None:
    pairs = random_pairs(SEED, PAIRS)
    bad = mismatches(pairs)
    changed = sum(1 for a, b in pairs if not json_equal(a, b))
    print(f"json patch diff: seed {SEED}, {len(pairs)} pairs ({changed} differing), {len(bad)} mismatches")
    assert bad == []


def test_equal_documents_give_no_operations() -> None:
    rng = random.Random(SEED + 1)
    for _ in range(500):
        a = {rng.choice(KEYS): random_value(rng, 4) for _ in range(rng.randint(0, 5))}
        assert create_patch(a, json_copy(a)) == []


def json_copy(value: Any) -> Any:
    return msgspec.json.decode(msgspec.json.encode(value))


def test_the_property_sees_a_planted_bug(monkeypatch: pytest.MonkeyPatch) -> None:
    """Self-test: with the JSON-pointer escaping switched off, the same pairs mismatch."""
    monkeypatch.setattr(json_patch_diff, "escape_pointer_token", lambda token: token)
    assert len(mismatches(random_pairs(SEED, 300))) > 0


def test_pointer_tokens_escape_tilde_before_slash() -> None:
    assert escape_pointer_token("a/b~c") == "a~1b~0c"
    assert escape_pointer_token("~1") == "~01"  # not "/": the tilde is escaped first
    assert create_patch({"m": {"a/b": 1}}, {"m": {"a/b": 2}}) == [{"op": "replace", "path": "/m/a~1b", "value": 2}]


def test_values_python_calls_equal_are_different_json() -> None:
    assert create_patch({"x": 1}, {"x": True}) == [{"op": "replace", "path": "/x", "value": True}]
    assert create_patch({"x": 1}, {"x": 1.0}) == [{"op": "replace", "path": "/x", "value": 1.0}]
    assert create_patch({"x": 0}, {"x": False}) == [{"op": "replace", "path": "/x", "value": False}]


def test_arrays_shrink_from_the_end_and_grow_at_the_end() -> None:
    assert create_patch({"l": [1, 2, 3, 4]}, {"l": [1]}) == [
        {"op": "remove", "path": "/l/3"}, {"op": "remove", "path": "/l/2"}, {"op": "remove", "path": "/l/1"},
    ]
    assert create_patch({"l": []}, {"l": ["a", {"b": 1}]}) == [
        {"op": "add", "path": "/l/0", "value": "a"}, {"op": "add", "path": "/l/1", "value": {"b": 1}},
    ]


def test_a_changed_type_is_one_replace() -> None:
    assert create_patch({"x": {"a": 1}}, {"x": [1]}) == [{"op": "replace", "path": "/x", "value": [1]}]
    assert create_patch({"x": None}, {"x": {}}) == [{"op": "replace", "path": "/x", "value": {}}]


def test_inputs_are_not_modified() -> None:
    a = {"l": [1, {"k": "v"}], "m": {"n": 1}}
    b = {"l": [2], "m": {}}
    a_copy, b_copy = json_copy(a), json_copy(b)
    create_patch(a, b)
    assert a == a_copy and b == b_copy
