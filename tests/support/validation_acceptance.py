"""Issue 35's validation acceptance run: kgen against the apiserver's dry-run on six new projects' CRDs.

For each project of tests/support/validation_projects.py: its CRDs are installed; its example
objects (up to ``per_kind`` of each kind, of the first ``3 * per_kind``) are dry-run created, and those the apiserver accepts are
the valid originals; a kind without an accepted example gets one synthesized from its schema
(required fields, enums, defaults, bounds) when the apiserver accepts it. The originals and
``per_object`` seeded mutations of each (tests/support/validation_oracle.py's ``mutated``) are
then sent both ways, under fieldValidation Warn and Strict: a server-side dry-run create, and
kgen as ``kgen validate --crd`` does (the CRDs loaded by the generator's CRD source,
``validate_against`` with its resolve). Counted: the verdict confusion matrix, crashes (kgen
raising), and whether the cause sets agree: for a 422 the set of (field, message) of its causes
(kube-openapi's ``<nil>`` read from the message), for a 400 the field paths its message names.

    results = run(admin, ["kuberay", "metallb"], per_kind=2, per_object=20, seed=35)
    print(report(results))
"""

from __future__ import annotations

import copy
import re
import functools
import random
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import httpx

from kgen.runtime.apimachinery.validation import FieldError, FieldValidation, validate_against
from kgen.runtime.apimachinery.validation.refusal import refusal
from tests.support import validation_projects
from tests.support.versions import behaves_older
from tests.support.validation_oracle import Answer, Served, confusion, dry_run, mutated, real_field, served_kinds

NAMESPACE = "validation-projects"
_MODES: tuple[FieldValidation, ...] = ("Warn", "Strict")


@dataclass
class Outcome:
    """One object under one fieldValidation: the labels, the two verdicts, and what differed."""

    project: str
    label: str
    mode: FieldValidation
    server: Answer
    kgen_accepts: bool
    same_causes: bool
    crash: str = ""
    detail: str = ""


@dataclass
class Results:
    outcomes: list[Outcome] = field(default_factory=list)
    originals: dict[str, int] = field(default_factory=dict)  # project -> valid originals
    synthesized: dict[str, int] = field(default_factory=dict)  # project -> of which synthesized
    kinds_without_original: dict[str, list[str]] = field(default_factory=dict)


def _kgen_checker(project: str) -> Callable[[dict[str, Any], FieldValidation], list[FieldError]]:
    """``kgen validate --crd``'s check for the project's CRDs (generator/cli.py's _validate): each CRD
    added by the generator's CRD source (``add_crd``, what ``crd.load`` does with each document of
    a file; the files read here with libyaml, in a second rather than ``crd.load``'s 40)."""
    from kgen.generator.sources import SourceSet, crd
    from kgen.runtime.apimachinery.validation.schemas import validation_schemas

    sources = SourceSet()
    for doc in validation_projects.crds(project):
        crd.add_crd(sources, doc, f"{project} {doc['metadata']['name']}")
    definitions = sources.definitions
    stock = validation_schemas("kgen.kubernetes")
    custom = {(f"{g['group']}/{g['version']}" if g["group"] else g["version"], g["kind"]): d.schema
              for d in definitions.values() for g in d.schema.get("x-kubernetes-group-version-kind") or []}

    def resolve(ref: str) -> dict[str, Any]:
        name = ref.rsplit("/", 1)[-1]
        return definitions[name].schema if name in definitions else stock.definition(name)

    def check(obj: dict[str, Any], mode: FieldValidation) -> list[FieldError]:
        return validate_against(custom[obj["apiVersion"], obj["kind"]], obj, field_validation=mode, resolve=resolve)

    return check


def _collection(obj: dict[str, Any], served: dict[tuple[str, str], Served]) -> str:
    where = served[obj["apiVersion"], obj["kind"]]
    return f"/apis/{obj['apiVersion']}/" + (f"namespaces/{NAMESPACE}/" if where.namespaced else "") + where.plural


def _place(obj: dict[str, Any], served: dict[tuple[str, str], Served]) -> dict[str, Any]:
    obj = copy.deepcopy(obj)
    obj["metadata"] = {k: v for k, v in obj["metadata"].items() if k in ("name", "labels", "annotations")}
    obj["metadata"].setdefault("name", "x")
    if served[obj["apiVersion"], obj["kind"]].namespaced:
        obj["metadata"]["namespace"] = NAMESPACE
    obj.pop("status", None)
    return obj


def synthesize(schema: dict[str, Any], depth: int = 0) -> Any:
    """A value the schema is likely to accept: defaults, first enum values, required fields, bounds."""
    if "default" in schema:
        return copy.deepcopy(schema["default"])
    if schema.get("enum"):
        return copy.deepcopy(schema["enum"][0])
    typ = schema.get("type")
    if schema.get("x-kubernetes-int-or-string"):
        return 1
    if typ == "string":
        fmt = schema.get("format")
        text = {"date-time": "2024-01-02T03:04:05Z", "duration": "1s", "uri": "https://example.com"}.get(str(fmt), "a")
        return text * max(1, int(schema.get("minLength", 1))) if text == "a" else text
    if typ in ("integer", "number"):
        return max(1, int(schema.get("minimum", 1))) if "maximum" not in schema or schema["maximum"] >= 1 else int(
            schema.get("minimum", 0))
    if typ == "boolean":
        return False
    if typ == "array":
        items: dict[str, Any] = schema["items"] if isinstance(schema.get("items"), dict) else {}
        return [synthesize(items, depth + 1) for _ in range(int(schema.get("minItems", 0)))]
    if typ == "object" or "properties" in schema:
        props = schema.get("properties") or {}
        return {k: synthesize(props[k], depth + 1) for k in schema.get("required") or [] if k in props and depth < 30}
    return {}


def _originals(admin: httpx.Client, project: str, served: dict[tuple[str, str], Served], per_kind: int,
               results: Results) -> list[dict[str, Any]]:
    by_kind: dict[tuple[str, str], list[dict[str, Any]]] = {}
    tried: dict[tuple[str, str], int] = {}
    for _, doc in validation_projects.examples(project, set(served)):
        key = (doc["apiVersion"], doc["kind"])
        tried[key] = tried.get(key, 0) + 1
        if len(by_kind.setdefault(key, [])) >= per_kind or tried[key] > 3 * per_kind:
            continue
        obj = _place(doc, served)
        obj["metadata"]["name"] = f"o{len(by_kind[key])}"
        if dry_run(admin, _collection(obj, served), obj).accepted:
            by_kind[key].append(obj)
    synthesized = 0
    missing = []
    for key, where in served.items():
        if by_kind.get(key):
            continue
        obj = {"apiVersion": key[0], "kind": key[1], "metadata": {"name": "s0"}}
        props = where.schema.get("properties") or {}
        for part in ("spec", "data"):
            if part in props:
                obj[part] = synthesize(props[part])
        for req in where.schema.get("required") or []:
            if req not in obj and req in props:
                obj[req] = synthesize(props[req])
        obj = _place(obj, served)
        if dry_run(admin, _collection(obj, served), obj).accepted:
            by_kind[key] = [obj]
            synthesized += 1
        else:
            missing.append(f"{key[0]} {key[1]}")
    results.synthesized[project] = synthesized
    results.kinds_without_original[project] = missing
    originals = [o for objs in by_kind.values() for o in objs]
    results.originals[project] = len(originals)
    return originals


def _cause_set(code: int, answer: Answer, raw_causes: list[dict[str, Any]]) -> frozenset[tuple[str, str]]:
    if code == 400:
        return frozenset((f, "") for f in answer.fields)
    return frozenset((real_field(str(c.get("field", "")), str(c.get("message", ""))), str(c.get("message", "")))
                     for c in raw_causes)


def _kgen_cause_set(obj: dict[str, Any], errors: list[FieldError]) -> frozenset[tuple[str, str]]:
    status = refusal(obj, errors)
    if status["code"] == 400:
        return frozenset((e.field, "") for e in errors)
    return frozenset((real_field(c["field"], c["message"]), c["message"]) for c in status["details"]["causes"])


def install(admin: httpx.Client, projects: list[str], crds_per_project: int | None = None,
            ) -> dict[str, dict[tuple[str, str], Served]]:
    """Installs the projects' CRDs (the first ``crds_per_project`` by name, or all) and the
    namespace; returns each project's served kinds, once served."""
    out = {}
    for project in projects:
        docs = sorted(validation_projects.crds(project), key=lambda d: str(d["metadata"]["name"]))[:crds_per_project]
        for crd in docs:
            resp = admin.post("/apis/apiextensions.k8s.io/v1/customresourcedefinitions", json=crd)
            assert resp.status_code in (201, 409), f"{project} {crd['metadata']['name']}: {resp.text[:400]}"
        out[project] = served_kinds(docs)
    admin.post("/api/v1/namespaces", json={"metadata": {"name": NAMESPACE}})
    deadline = time.monotonic() + 90
    for served in out.values():
        for (api_version, _kind), where in served.items():
            path = f"/apis/{api_version}/" + (f"namespaces/{NAMESPACE}/" if where.namespaced else "") + where.plural
            while admin.get(path).status_code != 200:
                assert time.monotonic() < deadline, f"{path} never served"
                time.sleep(0.2)
    return out


def run(admin: httpx.Client, projects: list[str], *, per_kind: int, per_object: int, seed: int,
        crds_per_project: int | None = None) -> Results:
    """The run: ``per_kind`` examples of each kind, ``per_object`` mutations of each original, the
    projects' CRDs (the first ``crds_per_project`` by name, or all)."""
    results = Results()
    # 1.34 shows a failed CEL rule's node type where later releases show the value (tests/support/
    # versions.py): on such a server messages compare without the value they show
    older = behaves_older(str(admin.get("/version").json()["gitVersion"]), "cel-message-shows-type")
    for project, served in install(admin, projects, crds_per_project).items():
        check = _kgen_checker(project)
        originals = _originals(admin, project, served, per_kind, results)
        corpus = mutated(originals, functools.partial(_schema_of, served), random.Random(seed), per_object)
        for sample in corpus:
            for mode in _MODES:
                params = {"dryRun": "All", **({"fieldValidation": "Strict"} if mode == "Strict" else {})}
                resp = admin.post(_collection(sample.obj, served), params=params, json=sample.obj)
                body = resp.json() if resp.status_code >= 400 else {}
                raw = (body.get("details") or {}).get("causes") or []
                answer = _answer(resp.status_code, body, raw)
                try:
                    errors = check(copy.deepcopy(sample.obj), mode)
                except Exception:  # a crash is counted, never hidden
                    results.outcomes.append(Outcome(project, sample.label, mode, answer, False, False,
                                                    crash=traceback.format_exc(limit=3)))
                    continue
                server_set = _cause_set(resp.status_code, answer, raw) if not answer.accepted else frozenset()
                kgen_set = _kgen_cause_set(sample.obj, errors) if errors else frozenset()
                if older:
                    server_set, kgen_set = _without_values(server_set), _without_values(kgen_set)
                same = (answer.accepted == (not errors)) and server_set == kgen_set
                results.outcomes.append(Outcome(
                    project, sample.label, mode, answer, not errors, same,
                    detail="" if same else f"server {resp.status_code} {sorted(server_set)} kgen {sorted(kgen_set)}"))
    return results


def _schema_of(served: dict[tuple[str, str], Served], obj: dict[str, Any]) -> dict[str, Any]:
    return served[obj["apiVersion"], obj["kind"]].schema


_SHOWN_VALUE = re.compile(r'^Invalid value: (?:"(?:[^"\\]|\\.)*"|-?[0-9][0-9.e+-]*|true|false|null): ')


def _without_values(causes: frozenset[tuple[str, str]]) -> frozenset[tuple[str, str]]:
    """Causes with the value an ``Invalid value`` message shows left out (1.34's CEL wording)."""
    return frozenset((f, _SHOWN_VALUE.sub("Invalid value: ", m)) for f, m in causes)


def _answer(code: int, body: dict[str, Any], raw: list[dict[str, Any]]) -> Answer:
    from tests.support.validation_oracle import answer_paths

    if code < 400:
        return Answer(code, frozenset(), ())
    return Answer(code, frozenset(answer_paths(code, str(body.get("message", "")), raw)),
                  tuple(sorted(str(c.get("message", "")) for c in raw)))


def report(results: Results) -> str:
    """The confusion matrix, crashes, cause-set agreement, per project, and the first differences."""
    outs = results.outcomes
    lines = []
    for project in dict.fromkeys(o.project for o in outs):
        mine = [o for o in outs if o.project == project]
        lines.append(f"{project}: {results.originals.get(project, 0)} valid originals "
                     f"({results.synthesized.get(project, 0)} synthesized), {len(mine) // 2} objects x Warn/Strict; "
                     f"cause sets agree on {sum(o.same_causes for o in mine)}/{len(mine)}"
                     + (f"; kinds without a valid original: {', '.join(results.kinds_without_original[project])}"
                        if results.kinds_without_original.get(project) else ""))
    agree = sum(o.same_causes for o in outs)
    crashes = [o for o in outs if o.crash]
    lines.append(f"all: {len(outs)} answers ({len(outs) // 2} objects x Warn/Strict), {len(crashes)} crashes, "
                 f"cause sets agree on {agree}/{len(outs)} = {100 * agree / max(1, len(outs)):.2f} %")
    lines.append(confusion([(o.server.accepted, o.kgen_accepts) for o in outs if not o.crash]))
    for o in [o for o in outs if not o.same_causes][:30]:
        lines.append(f"  {o.project} {o.mode} {o.label}: {o.crash or o.detail}"[:1200])
    return "\n".join(lines)


def false_accepts(results: Results) -> list[Outcome]:
    return [o for o in results.outcomes if not o.crash and not o.server.accepted and o.kgen_accepts]


def false_rejects(results: Results) -> list[Outcome]:
    return [o for o in results.outcomes if not o.crash and o.server.accepted and not o.kgen_accepts]
