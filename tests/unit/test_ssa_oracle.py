"""Server-side apply as apimachinery's field manager does it: kgen's engine
(``kgen.runtime.apimachinery.util.managedfields.fieldmanager.FieldManager``) against hack/oracle/fieldmanager
(k8s.io/apimachinery v0.37.2 ``managedfields.NewDefaultFieldManager`` over the snapshot's OpenAPI,
and for the CRDs the models apiextensions-apiserver builds).

Seeded random operation sequences (tests/support/ssa_cases.py) on Deployments, ConfigMaps,
Services, Pods and two CRDs with a status subresource (Gizmo, and the sample controller's Foo): each operation's result, as Go gives it, is the
next operation's live object. Both sides must answer alike: the same object with the same
managedFields (times normalized only to "kept from live" or "now"), or the same status code,
reason and message. Per-category counts and the first mismatches (input, Go, kgen) are printed.
``KGEN_FUZZ_SSA_OPS`` (default 5000) and ``KGEN_FUZZ_SSA_SEED`` set the run; ``make fuzz-ssa``
runs a long one.
"""

from __future__ import annotations

import copy
import json
import os
import random
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

from kgen.runtime.apimachinery.mergeschema import TypeSchema
from tests.support.ssa_cases import KINDS, SequenceMaker, canonical, normalize_times, with_live_times
from tests.support.ssa_oracle import SSA_CRD, Engine, GoFieldManager, crd_schemas, kgen_engine, oracle  # noqa: F401 (fixtures)

OPS = int(os.environ.get("KGEN_FUZZ_SSA_OPS", "5000"))
SEED = int(os.environ.get("KGEN_FUZZ_SSA_SEED", "20261203"))
SEQUENCE_LENGTH = (6, 18)
BUSY_SEQUENCE_LENGTH = (25, 40)  # a new Update manager at most steps: past the cap of 10


def run_sequences(oracle: GoFieldManager, engine: Engine, ops: int, seed: int,
                  ) -> tuple[Counter[str], list[str], Counter[str]]:
    """Runs ``ops`` operations in sequences from ``seed``: (per-category counts, mismatches
    explained, per-category mismatch counts). A sequence continues from Go's answers."""
    rng = random.Random(seed)
    counts: Counter[str] = Counter()
    bad: Counter[str] = Counter()
    mismatches: list[str] = []
    done = 0
    while done < ops:
        maker = SequenceMaker(random.Random(rng.getrandbits(64)), rng.choice(KINDS),
                              fresh_updaters=rng.random() < 0.1)
        length = rng.randint(*(BUSY_SEQUENCE_LENGTH if maker.fresh_updaters else SEQUENCE_LENGTH))
        live: dict[str, Any] | None = None
        for _ in range(min(length, ops - done)):
            step = maker.next(live)
            go = oracle.ask(step.case)
            got = engine(step.case)
            category = f"{step.category} -> {go['error']['code'] if 'error' in go else 'ok'}"
            counts[category] += 1
            done += 1
            want_text = canonical(normalize_times(go, step.case["live"]) if "object" not in go
                                  else {"object": normalize_times(go["object"], step.case["live"])})
            got_text = canonical({"object": normalize_times(got["object"], step.case["live"])} if "object" in got
                                 else got)
            if want_text != got_text:
                bad[category] += 1
                mismatches.append(f"[{step.category}] {step.case['apiVersion']} {step.case['kind']}"
                                  f"{'/' + step.case['subresource'] if step.case['subresource'] else ''}\n"
                                  f"  input:  {json.dumps(step.case)}\n  go:     {want_text}\n  kgen:   {got_text}")
            if "object" in go:
                live = with_live_times(go["object"])
                if any(e.get("manager") == "ancient-changes" for e in live.get("metadata", {}).get("managedFields") or []):
                    counts["result/ancient-changes -> ok"] += 1  # capManagersManager folded some
    return counts, mismatches, bad


def _by_family(counts: Counter[str]) -> Counter[str]:
    """Category counts folded to their first two levels ("apply/create", "update/removal", ...)."""
    out: Counter[str] = Counter()
    for category, n in counts.items():
        name, _, outcome = category.partition(" -> ")
        parts = name.split("/")
        out["/".join(parts[:2])] += n
        for extra in parts[2:]:
            out[f"{parts[0]}/*/{extra}"] += n
        out[f"outcome {outcome}"] += n
    return out


def test_server_side_apply_matches_apimachinery(
    oracle: GoFieldManager, crd_schemas: dict[str, TypeSchema], figure: Callable[[str], None],
) -> None:
    counts, mismatches, bad = run_sequences(oracle, kgen_engine(crd_schemas), OPS, SEED)
    total = sum(n for k, n in counts.items() if not k.startswith("result/"))
    figure(f"server-side apply vs apimachinery's field manager (seed {SEED}): {total} operations, "
           f"{len(mismatches)} mismatches")
    families = _by_family(counts)
    figure("per category: " + ", ".join(f"{k} {v}" for k, v in sorted(families.items())))
    if bad:
        figure("mismatches per category: " + ", ".join(f"{k} {v}" for k, v in sorted(bad.items())))
    shown: set[str] = set()
    for line in mismatches:  # the first mismatch of up to 5 categories
        category = line[1:line.index("]")]
        if category not in shown and len(shown) < 5:
            shown.add(category)
            figure("mismatch " + line)
    assert total >= OPS
    assert not mismatches, f"{len(mismatches)} mismatches of {total}, first:\n" + "\n".join(mismatches[:5])


def test_the_cases_cover_every_category(oracle: GoFieldManager) -> None:
    """The generator reaches what the issue asks for, and the oracle answers each as the server
    does: conflicts (409), refused applies (400/500), forced applies, removal, status."""
    counts, _, _ = run_sequences(oracle, lambda case: {"object": {}}, 1500, SEED)
    families = _by_family(counts)
    for needed in ("apply/create", "update/create", "apply/reapply-removal", "update/same-name-as-applier",
                   "status/apply", "status/update", "apply/error", "apply/empty-config", "apply/explicit-null",
                   "apply/empty-collections", "update/removal", "apply/*/force", "apply/*/with-status",
                   "status/*/with-spec", "update/*/reset-managed-fields", "update/*/no-managed-fields",
                   "update/*/empty-managed-fields", "update/client-side-apply", "apply/kubectl",
                   "apply/*/after-client-side-apply", "update/fresh-manager"):
        assert families[needed] > 0, needed
    outcomes = {k for k in families if k.startswith("outcome ")}
    assert {"outcome ok", "outcome 409", "outcome 400", "outcome 500"} <= outcomes, outcomes
    assert any(k.startswith("apply/error/") and k.endswith("-> 500") for k in counts)
    assert families["apply/*/missing-key"] > 0
    assert families["result/ancient-changes"] > 0, "no object went past 10 Update managers"


def _ask(oracle: GoFieldManager, op: str, kind: str, obj: dict[str, Any], live: dict[str, Any] | None = None,
         manager: str = "m") -> dict[str, Any]:
    api_version, k = kind.split(" ")
    return oracle.ask({"op": op, "apiVersion": api_version, "kind": k, "subresource": "", "live": live,
                       "obj": {"apiVersion": api_version, "kind": k, **obj}, "manager": manager, "force": False})


def _fields(answer: dict[str, Any]) -> list[Any]:
    return [e["fieldsV1"] for e in answer["object"]["metadata"]["managedFields"]]


def test_the_oracle_marks_a_custom_resources_structs_on_create_and_not_a_built_ins(oracle: GoFieldManager) -> None:
    """A create compares with the kind's empty object: a custom resource's has no spec (so the
    creator owns spec itself, "."), a built-in kind's Go zero value has one."""
    gizmo = _ask(oracle, "update", "ssa.kgen.dev/v1 Gizmo", {"metadata": {"name": "g"}, "spec": {"mode": "x"}})
    deployment = _ask(oracle, "update", "apps/v1 Deployment", {"metadata": {"name": "d"}, "spec": {"replicas": 1}})
    assert _fields(gizmo) == [{"f:spec": {".": {}, "f:mode": {}}}]
    assert _fields(deployment) == [{"f:spec": {"f:replicas": {}}}]


def test_the_oracle_owns_an_atomic_selector_whole(oracle: GoFieldManager) -> None:
    answer = _ask(oracle, "apply", "apps/v1 Deployment",
                  {"metadata": {"name": "d"}, "spec": {"selector": {"matchLabels": {"a": "b"}}}})
    assert _fields(answer) == [{"f:spec": {"f:selector": {}}}]


@pytest.mark.parametrize(("kind", "obj", "error"), [
    ("apps/v1 Deployment", {"apiVersion": "apps/v9", "metadata": {"name": "d"}},
     {"code": 400, "reason": "BadRequest", "message": "invalid object type: apps/v9, Kind=Deployment"}),
    ("v1 ConfigMap", {"metadata": {"name": "c", "managedFields": [{"manager": "x"}]}},
     {"code": 400, "reason": "BadRequest", "message": "metadata.managedFields must be nil"}),
    ("ssa.kgen.dev/v1 Gizmo", {"metadata": {"name": "g"}, "spec": {"workers": [{"size": 1}]}},
     {"code": 500, "reason": "", "message": "failed to create typed patch object (/g; ssa.kgen.dev/v1, Kind=Gizmo): "
      ".spec.workers: element 0: associative list with keys has an element that omits all key fields [\"name\"] "
      "(and doesn't have default values for any key fields)"}),
], ids=["wrong-version", "managed-fields-in-config", "missing-key"])
def test_the_oracle_refuses_applies_as_the_apiserver_does(
    oracle: GoFieldManager, kind: str, obj: dict[str, Any], error: dict[str, Any],
) -> None:
    assert _ask(oracle, "apply", kind, obj) == {"error": error}


def test_the_oracle_conflicts_with_the_same_managers_update() -> None:
    """An Update and an Apply by the same manager name are two owners (the server answers 409)."""
    with GoFieldManager() as go:
        base = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c", "namespace": "default"}}
        created = go.ask({"op": "apply", "apiVersion": "v1", "kind": "ConfigMap", "subresource": "", "live": None,
                          "obj": {**base, "data": {"k": "1"}}, "manager": "m", "force": False})["object"]
        updated = go.ask({"op": "update", "apiVersion": "v1", "kind": "ConfigMap", "subresource": "", "live": created,
                          "obj": {**created, "data": {"k": "2"}}, "manager": "m", "force": False})["object"]
        answer = go.ask({"op": "apply", "apiVersion": "v1", "kind": "ConfigMap", "subresource": "", "live": updated,
                         "obj": {**base, "data": {"k": "3"}}, "manager": "m", "force": False})
    assert answer == {"error": {"code": 409, "reason": "Conflict", "message":
                                'Apply failed with 1 conflict: conflict with "m" using v1: .data.k'}}


def _forgets_removal(engine: Engine) -> Engine:
    """A planted difference: an engine that keeps fields an applier stopped applying."""
    def answer(case: dict[str, Any]) -> dict[str, Any]:
        got = engine(case)
        live = case["live"]
        if case["op"] == "apply" and "object" in got and live is not None:
            merged = copy.deepcopy(live)
            for k, v in got["object"].items():
                if k != "metadata":
                    merged[k] = v
            for k, v in live.items():
                if k not in ("metadata", "apiVersion", "kind"):
                    merged.setdefault(k, v)
            merged["metadata"] = got["object"]["metadata"]
            got = {"object": merged}
        return got
    return answer


def test_the_harness_sees_a_planted_difference(oracle: GoFieldManager) -> None:
    """The comparison catches an engine that differs: here one that keeps whole top-level fields
    an apply removed. Against Go's own answers replayed, it finds nothing."""
    replay: dict[str, dict[str, Any]] = {}

    def go_itself(case: dict[str, Any]) -> dict[str, Any]:
        return replay.setdefault(json.dumps(case, sort_keys=True), oracle.ask(case))

    _, none, _ = run_sequences(oracle, go_itself, 300, SEED + 1)
    assert none == []
    _, found, _ = run_sequences(oracle, _forgets_removal(go_itself), 1500, SEED + 1)
    assert len(found) >= 3


def test_the_gizmo_crd_declares_every_list_and_map_type() -> None:
    text = SSA_CRD.read_text()
    for needle in ("x-kubernetes-list-type: set", "x-kubernetes-list-type: atomic", "x-kubernetes-list-map-keys: [name]",
                   "x-kubernetes-list-map-keys: [port, protocol]", "x-kubernetes-map-type: atomic", "status: {}"):
        assert needle in text, needle


def test_the_comparison_sees_fieldsv1_key_order() -> None:
    """Equal JSON values whose FieldsV1 keys are written in another order are a mismatch: the
    apiserver's bytes are part of what the engine must reproduce."""
    def outcome(fields: dict[str, Any]) -> dict[str, Any]:
        return {"object": {"metadata": {"managedFields": [{"manager": "m", "fieldsV1": fields}]}}}

    nine_first: dict[str, Any] = {"f:spec": {"f:ports": {'k:{"port":9}': {}, 'k:{"port":80}': {}}}}
    eighty_first: dict[str, Any] = {"f:spec": {"f:ports": {'k:{"port":80}': {}, 'k:{"port":9}': {}}}}
    assert nine_first == eighty_first
    assert canonical(outcome(nine_first)) != canonical(outcome(eighty_first))
    assert canonical(outcome(nine_first)) == canonical(outcome(json.loads(json.dumps(nine_first))))
