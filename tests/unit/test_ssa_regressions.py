"""Inputs on which long random runs of tests/unit/test_ssa_oracle.py once found kgen's field
manager answering otherwise than apimachinery's (hack/oracle/fieldmanager), replayed as they
were logged: a change to the case generator moves the seeds, these stay.

tests/support/ssa_regressions.jsonl, one case a line, from ``make fuzz-ssa FUZZ_SSA_OPS=30000``:
- seed 1, apply/kubectl/after-client-side-apply/force (Gizmo) and seed 2, the same on a Service:
  kubectl's last-applied rewrite turned a live annotation ``"note": null`` into ``""``
  (``Unstructured.GetAnnotations`` reads null as "");
- seed 2, four updates of a Gizmo: a custom resource's FieldsV1 keys are written sorted as
  strings (``k:{"port":1002,...}`` before ``k:{"port":2,...}``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from kgen.runtime.apimachinery.mergeschema import TypeSchema
from tests.support.ssa_cases import canonical, normalize_times
from tests.support.ssa_oracle import GoFieldManager, crd_schemas, kgen_engine, oracle  # noqa: F401 (fixtures)

CASES = [json.loads(line) for line in
         (Path(__file__).resolve().parents[1] / "support" / "ssa_regressions.jsonl").read_text().splitlines() if line]


def _answer(outcome: dict[str, Any], live: dict[str, Any] | None) -> str:
    if "object" in outcome:
        return canonical({"object": normalize_times(outcome["object"], live)})
    return canonical(outcome)


@pytest.mark.parametrize("case", CASES, ids=[f"{i}-{c['op']}-{c['kind']}-{c['manager']}" for i, c in enumerate(CASES)])
def test_logged_mismatch_now_answers_as_apimachinery(
    case: dict[str, Any], oracle: GoFieldManager, crd_schemas: dict[str, TypeSchema],
) -> None:
    go = oracle.ask(case)
    assert "object" in go  # each was a success on both sides, with different objects
    assert _answer(kgen_engine(crd_schemas)(case), case["live"]) == _answer(go, case["live"])
