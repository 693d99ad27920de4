"""apimachinery's strategic merge patch, as hack/oracle/strategicpatch answers it (k8s.io/apimachinery
v0.37.2 ``strategicpatch`` with k8s.io/api's patch metadata, called as k8s.io/apiserver's
handlers/patch.go calls it, errors classed by its interpretStrategicMergePatchError).

These tests pin what the oracle answers for each strategic-merge-patch divergence issue 12 lists,
so the Python engine that replaces ``kgen.runtime.apimachinery.patch.strategic_merge_patch`` has a
fixed, checked target; the seeded differential run against that engine belongs beside them once the
engine exists. ``figure`` records how many of these cases today's schema-less implementation gets
wrong (a measurement, not an assertion: it is the gap the engine closes).
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from typing import Any

import pytest

from kgen.runtime.apimachinery.patch import PatchError, strategic_merge_patch
from tests.support.oracle import oracle_binary


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


def test_todays_schemaless_patch_misses(answers: dict[str, dict[str, Any]], figure: Callable[[str], None]) -> None:
    misses = []
    for name, case, _ in PINNED:
        if case["op"] != "apply":
            continue
        try:
            got: dict[str, Any] = {"ok": strategic_merge_patch(case["original"], case["patch"])}
        except PatchError as e:
            got = {"error": str(e)}
        if json.dumps(got, sort_keys=True) != json.dumps(answers[name], sort_keys=True):
            misses.append(name)
    figure(f"schema-less strategic_merge_patch vs apimachinery: {len(misses)} of "
           f"{sum(c['op'] == 'apply' for _, c, _ in PINNED)} pinned cases differ: {', '.join(misses)}")
    assert misses, "the engine now matches every pinned case: switch this test to the new engine's differential run"
