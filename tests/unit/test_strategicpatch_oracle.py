"""apimachinery's strategic merge patch, as hack/oracle/strategicpatch answers it (k8s.io/apimachinery
v0.37.2 ``strategicpatch`` with k8s.io/api's patch metadata, called as k8s.io/apiserver's
handlers/patch.go calls it, errors classed by its interpretStrategicMergePatchError).

The pinned tests fix what the oracle answers for each strategic-merge-patch divergence issue 12
lists, and that the public ``kgen.runtime.apimachinery.strategic_merge_patch`` gives those answers. The differential test runs the schema-driven engine
(``kgen.runtime.apimachinery.util.strategicpatch.patch``) and the oracle on seeded random cases
(tests/support/smp_cases.py: Pods, Deployments, Services, ConfigMaps, every directive in valid and
invalid forms): the same result, or the same error class and message (Go panics by class only).
Where Go's random map order gives a case several answers (the oracle is re-run 12 times on every
disagreement), kgen's must be one of them. ``KGEN_FUZZ_SMP_CASES`` (default 6000) and
``KGEN_FUZZ_SMP_SEED`` set the run; ``make fuzz-smp`` runs a long one.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

from kgen.runtime.apimachinery.util.strategicpatch import patch as strategicpatch
from kgen.runtime.apimachinery.mergeschema import schema_for
from kgen.runtime.apimachinery.patch import strategic_merge_patch
from tests.support.oracle import oracle_binary
from tests.support.smp_cases import KINDS, CaseMaker

CASES = int(os.environ.get("KGEN_FUZZ_SMP_CASES", "6000"))
SEED = int(os.environ.get("KGEN_FUZZ_SMP_SEED", "20261203"))
CLASSES = {strategicpatch.SMPBadRequest: "bad-request", strategicpatch.SMPInvalid: "invalid",
           strategicpatch.SMPInternal: "internal", strategicpatch.SMPPanic: "panic"}


def _oracle(cases: list[dict[str, Any]]) -> list[dict[str, Any]]:
    done = subprocess.run([str(oracle_binary("strategicpatch"))], input="".join(json.dumps(c) + "\n" for c in cases),
                          capture_output=True, text=True, check=True, timeout=600)
    outcomes = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(outcomes) == len(cases), done.stderr[-2000:]
    return outcomes


def _apply(kind: str, original: Any, patch: Any) -> dict[str, Any]:
    return {"kind": kind, "op": "apply", "original": original, "patch": patch}


POD, DEPLOYMENT = "v1 Pod", "apps/v1 Deployment"
ROLLING = {"spec": {"strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": 1}}}}

#: (name, case, apimachinery's answer)
PINNED: list[tuple[str, dict[str, Any], dict[str, Any]]] = [
    ("ports_merge_on_containerPort",
     _apply(POD, {"spec": {"containers": [{"name": "a", "ports": [{"containerPort": 80, "name": "x"}, {"containerPort": 81}]}]}},
            {"spec": {"containers": [{"name": "a", "ports": [{"containerPort": 80, "protocol": "UDP"}]}]}}),
     {"ok": {"spec": {"containers": [{"name": "a", "ports": [{"containerPort": 80, "name": "x", "protocol": "UDP"},
                                                             {"containerPort": 81}]}]}}}),
    ("empty_merge_list_leaves_the_list_alone",
     _apply(POD, {"spec": {"containers": [{"name": "a", "ports": [{"containerPort": 80}]}]}},
            {"spec": {"containers": [{"name": "a", "ports": []}]}}),
     {"ok": {"spec": {"containers": [{"name": "a", "ports": [{"containerPort": 80}]}]}}}),
    ("finalizers_merge_as_a_set_new_first",
     _apply(POD, {"metadata": {"finalizers": ["a", "b"]}}, {"metadata": {"finalizers": ["c"]}}),
     {"ok": {"metadata": {"finalizers": ["c", "a", "b"]}}}),
    ("patch_directive_in_atomic_list_is_data",
     _apply(POD, {"spec": {"tolerations": [{"key": "a"}]}}, {"spec": {"tolerations": [{"key": "b", "$patch": "delete"}]}}),
     {"ok": {"spec": {"tolerations": [{"$patch": "delete", "key": "b"}]}}}),
    ("delete_then_readd_recreates_the_item",
     _apply(POD, {"spec": {"containers": [{"name": "a", "image": "x", "tty": True}, {"name": "b"}]}},
            {"spec": {"containers": [{"name": "a", "$patch": "delete"}, {"name": "a", "image": "y"}]}}),
     {"ok": {"spec": {"containers": [{"image": "y", "name": "a"}, {"name": "b"}]}}}),
    ("set_element_order_reorders",
     _apply(POD, {"spec": {"containers": [{"name": "a"}, {"name": "b"}]}},
            {"spec": {"$setElementOrder/containers": [{"name": "b"}, {"name": "a"}]}}),
     {"ok": {"spec": {"containers": [{"name": "b"}, {"name": "a"}]}}}),
    ("new_merge_list_item_goes_first",
     _apply(POD, {"spec": {"containers": [{"name": "a"}, {"name": "b"}]}}, {"spec": {"containers": [{"name": "c"}]}}),
     {"ok": {"spec": {"containers": [{"name": "c"}, {"name": "a"}, {"name": "b"}]}}}),
    ("retain_keys_not_a_list_is_400",
     _apply(DEPLOYMENT, ROLLING, {"spec": {"strategy": {"$retainKeys": "type", "type": "Recreate"}}}),
     {"error": "bad-request", "message": "invalid patch format of retainKeys"}),
    ("retain_keys_drops_unlisted_fields",
     _apply(DEPLOYMENT, ROLLING, {"spec": {"strategy": {"$retainKeys": ["type"], "type": "Recreate", "rollingUpdate": None}}}),
     {"ok": {"spec": {"strategy": {"type": "Recreate"}}}}),
    ("retain_keys_missing_a_patched_field_is_400",
     _apply(DEPLOYMENT, ROLLING, {"spec": {"strategy": {"$retainKeys": ["type"], "rollingUpdate": {"maxSurge": 2}}}}),
     {"error": "bad-request", "message": "invalid patch format of retainKeys"}),
    ("patch_merge_in_a_map_is_refused",
     _apply(POD, {"spec": {"containers": [{"name": "a"}]}}, {"spec": {"$patch": "merge"}}),
     {"error": "internal", "message": "unknown patch type: merge in map: map[$patch:merge]"}),
    ("delete_from_primitive_list",
     _apply(POD, {"metadata": {"finalizers": ["a", "b"]}}, {"metadata": {"$deleteFromPrimitiveList/finalizers": ["a"]}}),
     {"ok": {"metadata": {"finalizers": ["b"]}}}),
    ("patch_replace_in_a_map_replaces_it",
     _apply(POD, {"spec": {"containers": [{"name": "a", "image": "x"}]}}, {"spec": {"$patch": "replace", "nodeName": "n"}}),
     {"ok": {"spec": {"nodeName": "n"}}}),
    ("two_way_patch_orders_and_deletes",
     {"kind": POD, "op": "two-way", "original": {"spec": {"containers": [{"name": "a", "image": "x"}, {"name": "b"}]}},
      "modified": {"spec": {"containers": [{"name": "b"}, {"name": "c"}]}}},
     {"ok": {"spec": {"$setElementOrder/containers": [{"name": "b"}, {"name": "c"}],
                      "containers": [{"name": "c"}, {"$patch": "delete", "name": "a"}]}}}),
    ("three_way_patch_keeps_others_changes",
     {"kind": POD, "op": "three-way", "original": {"metadata": {"labels": {"a": "1"}}},
      "modified": {"metadata": {"labels": {"b": "2"}}}, "current": {"metadata": {"labels": {"a": "1", "c": "3"}}}},
     {"ok": {"metadata": {"labels": {"a": None, "b": "2"}}}}),
]


@pytest.fixture(scope="module")
def answers() -> dict[str, dict[str, Any]]:
    return dict(zip((name for name, _, _ in PINNED), _oracle([case for _, case, _ in PINNED]), strict=True))


@pytest.mark.parametrize(("name", "case", "expected"), PINNED, ids=[name for name, _, _ in PINNED])
def test_the_oracle_answers_as_apimachinery_does(
    answers: dict[str, dict[str, Any]], name: str, case: dict[str, Any], expected: dict[str, Any]
) -> None:
    assert answers[name] == expected


def test_the_oracle_classes_errors_and_refuses_unknown_kinds() -> None:
    outcomes = _oracle([_apply("v1 NoSuchKind", {}, {}), {"kind": POD, "op": "sideways"}])
    assert [o["error"] for o in outcomes] == ["usage", "usage"]


def test_the_public_patch_gives_apimachinerys_answer_to_every_pinned_case(answers: dict[str, dict[str, Any]]) -> None:
    """kgen.runtime.apimachinery.strategic_merge_patch (schema from apiVersion/kind) on each
    divergence issue 12 lists: apimachinery's result or its error class and words."""
    misses = []
    for name, case, _ in PINNED:
        if case["op"] != "apply":
            continue
        api_version, kind = case["kind"].split(" ")
        original = {"apiVersion": api_version, "kind": kind, **case["original"]}
        try:
            out = strategic_merge_patch(original, case["patch"])
            got: dict[str, Any] = {"ok": {k: v for k, v in out.items() if k in case["original"] or k in case["patch"]
                                          or k not in ("apiVersion", "kind")}}
        except strategicpatch.SMPError as e:
            got = {"error": CLASSES[type(e)], "message": str(e)}
        if _canonical(got) != _canonical(answers[name]):
            misses.append(f"{name}: kgen {_canonical(got)} apimachinery {_canonical(answers[name])}")
    assert not misses, "\n".join(misses)


# -- the engine against the oracle, on seeded random cases -------------------------------------------

def _cases(rng: random.Random, count: int) -> list[tuple[dict[str, Any], str]]:
    out = []
    for _ in range(count):
        api_version, kind = rng.choice(KINDS)
        ts = schema_for(api_version, kind)
        assert ts is not None
        maker = CaseMaker(rng)
        original = maker.obj(ts, 0)
        patch = maker.patch(ts, original, 0)
        category = f"{kind}: " + (", ".join(sorted(maker.used)) or "plain")
        out.append((_apply(f"{api_version} {kind}", original, patch), category))
    return out


def _kgen(case: dict[str, Any], apply: Callable[..., Any] = strategicpatch.strategic_merge_patch) -> dict[str, Any]:
    api_version, kind = case["kind"].split(" ")
    try:
        return {"ok": apply(case["original"], case["patch"], schema_for(api_version, kind))}
    except strategicpatch.SMPError as e:
        return {"error": CLASSES[type(e)], "message": str(e)}


def _canonical(outcome: dict[str, Any]) -> str:
    """Go prints int64 and float64 alike when integral; panics compare by class only."""
    if outcome.get("error") == "panic":
        return "panic"
    return json.dumps(outcome, sort_keys=True, default=str)


def _differences(cases: list[tuple[dict[str, Any], str]], expected: list[dict[str, Any]],
                 apply: Callable[..., Any] = strategicpatch.strategic_merge_patch) -> tuple[list[str], Counter[str], int]:
    differences: list[str] = []
    counts: Counter[str] = Counter()
    again: list[int] = []
    for i, ((case, category), want) in enumerate(zip(cases, expected, strict=True)):
        got = _kgen(case, apply)
        counts[f"{category} -> {want.get('error', 'ok')}"] += 1
        if _canonical(got) != _canonical(want):
            again.append(i)
    varies = 0
    if again:  # Go walks a patch's keys in random order: some cases have several right answers
        reruns = [_oracle([cases[i][0] for i in again]) for _ in range(12)]
        for n, i in enumerate(again):
            answers = {_canonical(r[n]) for r in reruns} | {_canonical(expected[i])}
            got = _kgen(cases[i][0], apply)
            if len(answers) > 1 and _canonical(got) in answers:
                varies += 1
                continue
            differences.append(f"{json.dumps(cases[i][0])}\n  kgen:   {_canonical(got)}\n  oracle: {_canonical(expected[i])}")
    return differences, counts, varies


def test_strategic_merge_patch_matches_apimachinery(figure: Callable[[str], None]) -> None:
    cases = _cases(random.Random(SEED), CASES)
    expected = _oracle([c for c, _ in cases])
    differences, counts, varies = _differences(cases, expected)
    outcomes = Counter(e.get("error", "ok") for e in expected)
    figure(f"strategic merge patch vs apimachinery (seed {SEED}): {len(cases)} cases, {len(differences)} mismatches, "
           f"{varies} where Go's map order gives several answers (kgen gave one of them); outcomes "
           + ", ".join(f"{k} {v}" for k, v in sorted(outcomes.items())))
    directives = Counter()
    for (_, category), n in ((k.split(" -> ")[0].split(": ", 1), v) for k, v in counts.items()):
        for d in category.split(", "):
            directives[d] += n
    figure("per directive: " + ", ".join(f"{k} {v}" for k, v in sorted(directives.items())))
    assert not differences, f"{len(differences)} mismatches, first:\n" + "\n".join(differences[:5])


def _without_element_order(doc: Any, patch: Any, schema: Any) -> Any:
    """A planted difference: the engine, blind to ``$setElementOrder`` (as today's code is)."""
    def strip(v: Any) -> Any:
        if isinstance(v, dict):
            return {k: strip(e) for k, e in v.items() if not k.startswith("$setElementOrder/")}
        return [strip(e) for e in v] if isinstance(v, list) else v
    return strategicpatch.strategic_merge_patch(doc, strip(patch), schema)


def test_the_harness_sees_a_planted_difference() -> None:
    cases = _cases(random.Random(SEED), 600)
    differences, _, _ = _differences(cases, _oracle([c for c, _ in cases]), apply=_without_element_order)
    assert len(differences) >= 5
