"""Which Python CEL library agrees with the kube-apiserver on CRD validation rules (issue 15)?

    KUBEBUILDER_ASSETS="$(hack/envtest/build.sh)" .venv/bin/python -m hack.validation_probe.cel_probe
    .venv/bin/python -m hack.validation_probe.cel_probe --oracle hack/validation_probe/oracle.json

The first form measures the oracle on a real kube-apiserver (corpus.py's rules as one CRD,
their samples sent with server-side dry-run) and writes it to --write-oracle (default
hack/validation_probe/oracle.json); the second reuses a recorded oracle. Then every candidate
library, stock and with kgen's supplied functions, evaluates the same rules on the same values,
and the table says per case group how many samples agree (same set of (path, verdict) findings,
same messageExpression text), disagree (a different verdict) or error (the library could not
compile or evaluate what the apiserver could), and how fast each library evaluates the corpus.

Install the candidates first: .venv/bin/pip install cel-python common-expression-language cel-expr-python
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter, defaultdict
from importlib import metadata
from pathlib import Path
from typing import Any

from kgen.runtime.apimachinery.validation.cel.library import to_cel

from hack.validation_probe.candidates import ADAPTERS, MISSING, Adapter, CompileError
from hack.validation_probe.corpus import CASES, Case
from hack.validation_probe.k8s_functions import Opt

HERE = Path(__file__).parent
Outcome = tuple[frozenset[tuple[str, str]], tuple[str, ...]]


def measure_oracle() -> dict[str, Any]:
    from kgen.runtime.testing import KubeAPIServer

    from hack.validation_probe.apiserver import measure

    with KubeAPIServer() as server:
        with server.admin_client() as admin:
            started = time.monotonic()
            m = measure(admin)
            seconds = time.monotonic() - started
    return {
        "version": m.version,
        "seconds": round(seconds, 2),
        "rules": [c.rule for c in CASES],
        "compile_error": {str(i): msg for i, msg in m.compile_error.items()},
        "findings": {
            f"{i}/{j}": [{"path": f.path, "kind": f.kind, "reason": f.reason, "message": f.message} for f in fs]
            for (i, j), fs in sorted(m.findings.items())
        },
    }


def oracle_outcome(oracle: dict[str, Any], i: int, j: int) -> Outcome | None:
    if str(i) in oracle["compile_error"]:
        return frozenset({("", "compile")}), ()
    findings = oracle["findings"].get(f"{i}/{j}")
    if findings is None:
        return None
    return frozenset((f["path"], f["kind"]) for f in findings), tuple(sorted(f["message"] for f in findings))


def _targets(case: Case, value: Any) -> list[tuple[str, Any, dict[str, Any]]]:
    schema = {**case.schema, **case.extra_schema}
    if case.at == "items":
        return [(f"[{n}]", to_cel(v, schema["items"]), schema["items"]) for n, v in enumerate(value)]
    if case.at == "values":
        return [(f"[{k}]", to_cel(v, schema["additionalProperties"]), schema["additionalProperties"]) for k, v in value.items()]
    return [("", to_cel(value, schema), schema)]


class Compiled:
    def __init__(self, adapter: Adapter, case: Case) -> None:
        schema = {**case.schema, **case.extra_schema}
        target = schema["items"] if case.at == "items" else schema.get("additionalProperties", schema) if case.at == "values" else schema
        old, optional_old = case.transition, bool(case.optional_old_self)
        self.rule: Any = None
        self.message: Any = None
        self.error = ""
        try:
            self.rule = adapter.compile(case.rule, target, old, optional_old)
        except CompileError as e:
            self.error = str(e)
        if case.message_expression:
            try:
                self.message = adapter.compile(case.message_expression, target, old, optional_old)
            except CompileError:
                self.message = None


def library_outcome(adapter: Adapter, case: Case, compiled: Compiled, j: int) -> tuple[Outcome, list[str]]:
    """The findings a library gives for sample j, as the apiserver would file them."""
    if compiled.rule is None:
        return (frozenset({("", "compile")}), ()), [compiled.error]
    sample = case.samples[j]
    old: Any = MISSING
    if case.transition:
        old_value, sample = sample
        if case.optional_old_self:
            old = Opt(to_cel(old_value, case.schema)) if old_value is not None else Opt.NONE
        elif old_value is None:
            return (frozenset(), ()), []  # a transition rule does not run without an old value
        else:
            old = to_cel(old_value, case.schema)
    found: set[tuple[str, str]] = set()
    messages: list[str] = []
    notes: list[str] = []
    for path, value, _ in _targets(case, sample):
        path = case.field_path or path
        try:
            result = adapter.evaluate(compiled.rule, value, old)
        except Exception as e:
            found.add((path, "error"))
            notes.append(f"{type(e).__name__}: {e}"[:300])
            continue
        if result is True:
            continue
        if result is not False:
            found.add((path, "error"))
            notes.append(f"not a bool: {result!r}"[:300])
            continue
        found.add((path, "fail"))
        if compiled.message is not None:
            try:
                text = adapter.evaluate(compiled.message, value, old)
                if isinstance(text, str) and text:
                    messages.append(text)
            except Exception as e:
                notes.append(f"messageExpression: {e}"[:300])
    return (frozenset(found), tuple(messages)), notes


def verdict(expected: Outcome, got: Outcome) -> str:
    (want, want_messages), (have, have_messages) = expected, got
    if want == have and all(any(m.endswith(h) for m in want_messages) for h in have_messages):
        return "agree"
    if {k for _, k in have} & {"error", "compile"} - {k for _, k in want}:
        return "error"
    return "disagree"


def run_library(adapter: Adapter, oracle: dict[str, Any], passes: int) -> dict[str, Any]:
    per_group: dict[str, Counter[str]] = defaultdict(Counter)
    accepted: Counter[str] = Counter()  # samples of the rules the apiserver accepted
    details = []
    started = time.perf_counter()
    compiled = {i: Compiled(adapter, c) for i, c in enumerate(CASES)}
    compile_seconds = time.perf_counter() - started
    for i, case in enumerate(CASES):
        for j in range(len(case.samples)):
            expected = oracle_outcome(oracle, i, j)
            if expected is None:
                continue
            if case.group == "cost":
                # None of the libraries has a cost limit: these rules (millions of iterations)
                # would run to completion, minutes in pure Python. Counted, not run.
                per_group[case.group]["no cost limit"] += 1
                continue
            got, notes = library_outcome(adapter, case, compiled[i], j)
            v = verdict(expected, got)
            per_group[case.group][v] += 1
            if str(i) not in oracle["compile_error"]:
                accepted[v] += 1
            if v != "agree":
                details.append({"case": i, "sample": j, "rule": case.rule, "verdict": v, "apiserver": sorted(expected[0]),
                                "library": sorted(got[0]), "notes": notes})
    # Speed: evaluate every compiled rule on every sample, `passes` times.
    work = []
    for i, case in enumerate(CASES):
        if compiled[i].rule is None or case.group == "cost":
            continue
        for sample in case.samples:
            if case.transition:
                old_value, sample = sample
                if old_value is None:
                    continue
                old = Opt(to_cel(old_value, case.schema)) if case.optional_old_self else to_cel(old_value, case.schema)
            else:
                old = MISSING
            for _, value, _ in _targets(case, sample):
                work.append((compiled[i].rule, value, old))
    started = time.perf_counter()
    for _ in range(passes):
        for program, value, old in work:
            try:
                adapter.evaluate(program, value, old)
            except Exception:
                pass
    seconds = time.perf_counter() - started
    return {
        "label": adapter.label,
        "groups": {g: dict(c) for g, c in per_group.items()},
        "accepted": dict(accepted),
        "details": details,
        "evaluations_per_second": round(len(work) * passes / seconds) if seconds else 0,
        "compiles_per_second": round(len(CASES) / compile_seconds) if compile_seconds else 0,
        "supplied": adapter.supplied,
    }


def _version(module: str) -> str:
    dist = {"celpy": "cel-python", "cel": "common-expression-language", "cel_expr_python": "cel-expr-python"}[module]
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return "not installed"


def table(oracle: dict[str, Any], results: list[dict[str, Any]]) -> str:
    groups = list(dict.fromkeys(c.group for c in CASES))
    samples = Counter(CASES[int(k.split("/")[0])].group for k in oracle["findings"])
    for i in oracle["compile_error"]:
        samples[CASES[int(i)].group] += len(CASES[int(i)].samples)
    rules = Counter(c.group for c in CASES)
    head = ["group", "rules", "samples"] + [r["label"] for r in results]
    rows = [head]
    totals: list[Counter[str]] = [Counter() for _ in results]
    for g in groups:
        row = [g, str(rules[g]), str(samples[g])]
        for n, r in enumerate(results):
            c = Counter(r["groups"].get(g, {}))
            if c["no cost limit"]:
                row.append(f"not run: no cost limit ({c['no cost limit']})")
                continue
            totals[n].update(c)
            row.append(f"{c['agree']}/{c['disagree']}/{c['error']}")
        rows.append(row)
    rows.append(["total", str(len(CASES) - rules["cost"]),
                 str(sum(samples.values()) - samples["cost"])] + [f"{t['agree']}/{t['disagree']}/{t['error']}" for t in totals])
    rejected = {int(i) for i in oracle["compile_error"]}
    n_accepted = sum(len(c.samples) for i, c in enumerate(CASES) if i not in rejected and c.group != "cost")
    rows.append(["accepted rules", str(sum(1 for i, c in enumerate(CASES) if i not in rejected and c.group != "cost")), str(n_accepted)]
                + [f"{r['accepted'].get('agree', 0)}/{r['accepted'].get('disagree', 0)}/{r['accepted'].get('error', 0)}" for r in results])
    rows.append(["evals/s", "", ""] + [f"{r['evaluations_per_second']:,}" for r in results])
    rows.append(["compiles/s", "", ""] + [f"{r['compiles_per_second']:,}" for r in results])
    widths = [max(len(row[k]) for row in rows) for k in range(len(head))]
    lines = ["| " + " | ".join(cell.ljust(w) for cell, w in zip(row, widths)) + " |" for row in rows]
    lines.insert(1, "|" + "|".join("-" * (w + 2) for w in widths) + "|")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--oracle", type=Path, help="a recorded oracle (skip the apiserver)")
    parser.add_argument("--write-oracle", type=Path, default=HERE / "oracle.json")
    parser.add_argument("--results", type=Path, default=None, help="write every disagreement as JSON")
    parser.add_argument("--passes", type=int, default=5, help="timed passes over the corpus per library")
    parser.add_argument("--verbose", action="store_true", help="print every disagreement")
    args = parser.parse_args(argv)

    if args.oracle:
        oracle = json.loads(args.oracle.read_text())
        if oracle["rules"] != [c.rule for c in CASES]:
            print("the recorded oracle is for another corpus: measure it again", file=sys.stderr)
            return 2
    else:
        oracle = measure_oracle()
        args.write_oracle.write_text(json.dumps(oracle, indent=1, ensure_ascii=False) + "\n")
    results = []
    for cls in ADAPTERS:
        for mode in ("stock", "kgen"):
            try:
                adapter = cls(mode)
            except ImportError as e:
                print(f"{cls.name}: not installed ({e})", file=sys.stderr)
                break
            results.append(run_library(adapter, oracle, args.passes))
    print(f"kube-apiserver {oracle['version']}: {len(CASES)} rules, {len(oracle['compile_error'])} rejected at CRD creation, "
          f"oracle measured in {oracle['seconds']} s")
    print("libraries: " + ", ".join(f"{c.name} {_version(c.module)}" for c in ADAPTERS))
    print("cells: agree/disagree/error samples (error: the library failed to compile or evaluate where the apiserver gave a verdict)\n")
    print(table(oracle, results))
    for r in results:
        if r["supplied"]:
            print(f"\n{r['label']} supplied by kgen ({len(r['supplied'])}): {', '.join(r['supplied'])}")
    if args.verbose:
        for r in results:
            print(f"\n== {r['label']}: {len(r['details'])} samples not agreeing")
            for d in r["details"]:
                print(f"  [{d['verdict']}] c{d['case']}/{d['sample']} {d['rule']}: "
                      f"apiserver {d['apiserver']} library {d['library']} {d['notes'][:1]}")
    if args.results:
        args.results.write_text(json.dumps(results, indent=1, ensure_ascii=False) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
