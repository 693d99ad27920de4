"""The apiserver as the oracle for client-side validation (issue 15): a corpus mutated from valid
objects by their CRD's schema, each answer from a server-side dry-run create.

The mutator knows nothing of verdicts: it writes, at each value an object holds, what the schema
there invites getting wrong (another JSON type, a number past a bound, a string past a length, a
format or pattern miss, a value outside an enum, a duplicate in a set or a list-map, a missing
required field, a dropped key that a CEL rule may need) and the apiserver says which of them are
invalid and where. A test then sends every object through kgen's ``validate`` and compares.

    corpus = mutated(originals, schema_of, random.Random(15), per_object=40)
    answers = [dry_run(admin, collection_of(sample.obj), sample.obj) for sample in corpus]
"""

from __future__ import annotations

import copy
import json
import random
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import httpx

Schema = dict[str, Any]
Path_ = tuple[str | int, ...]
_DELETE = object()


#: kube-openapi reports some errors at the field ``<nil>`` with the path in the message; a 400
#: (a decode error, Strict's unknown fields) has no causes, its paths are in the Status message.
_NIL_PATH = re.compile(r'(?: in (\S+)$|"(\S+)" must (?:not )?validate)')
_DECODE_PATH = re.compile(r"cannot be handled as a \w+: ([\w.\[\]]+): ")


def real_field(field: str, message: str) -> str:
    """A cause's field, kube-openapi's ``<nil>`` read from the message where the path is."""
    if field != "<nil>":
        return field
    found = _NIL_PATH.search(message)
    return (found.group(1) or found.group(2)) if found else field


def answer_paths(code: int, message: str, causes: list[dict[str, Any]]) -> set[str]:
    """Every field path an apiserver answer names: its causes', or a 400's from its message."""
    paths = {real_field(str(c.get("field", "")), str(c.get("message", ""))) for c in causes}
    if code == 400:
        paths |= set(re.findall(r'unknown field "([^"]+)"', message))
        found = _DECODE_PATH.search(message)
        if found:
            paths.add(found.group(1))
    return paths


@dataclass(frozen=True)
class Answer:
    """The apiserver's verdict on one object: its status code, the field paths it names
    (``answer_paths``) and its causes' messages."""

    code: int
    fields: frozenset[str]
    messages: tuple[str, ...]

    @property
    def accepted(self) -> bool:
        return self.code < 400


@dataclass(frozen=True)
class Sample:
    label: str  # what was done: "valid", "type:spec.port", "enum:spec.protocol"...
    obj: dict[str, Any]


def dry_run(client: httpx.Client, path: str, obj: dict[str, Any], strict: bool = False,
            method: str = "POST") -> Answer:
    """A server-side dry-run create of ``obj`` at the collection ``path`` (fieldValidation Strict
    when asked); with ``method="PUT"`` and the object's ``path``, a dry-run update."""
    params = {"dryRun": "All", **({"fieldValidation": "Strict"} if strict else {})}
    resp = client.request(method, path, params=params, content=json.dumps(obj),
                          headers={"Content-Type": "application/json"})
    if resp.status_code < 400:
        return Answer(resp.status_code, frozenset(), ())
    body = resp.json()
    causes = (body.get("details") or {}).get("causes") or []
    return Answer(resp.status_code, frozenset(answer_paths(resp.status_code, str(body.get("message", "")), causes)),
                  tuple(sorted(str(c.get("message", "")) for c in causes)))


def _resolve(schema: Schema | None) -> Schema:
    if not isinstance(schema, dict):
        return {}
    all_of = schema.get("allOf")
    if isinstance(all_of, list) and len(all_of) == 1 and isinstance(all_of[0], dict):
        return {**schema, **all_of[0]}
    return schema


def _values(obj: Any, schema: Schema, path: Path_) -> Iterator[tuple[Path_, Any, Schema]]:
    """Every value of ``obj`` with its path and schema, parents before children."""
    schema = _resolve(schema)
    yield path, obj, schema
    if isinstance(obj, dict):
        props = schema.get("properties") or {}
        extra = schema.get("additionalProperties")
        for key, value in obj.items():
            sub = props.get(key, extra if isinstance(extra, dict) else None)
            if sub is not None:
                yield from _values(value, sub, (*path, key))
    elif isinstance(obj, list) and isinstance(schema.get("items"), dict):
        for i, value in enumerate(obj):
            yield from _values(value, schema["items"], (*path, i))


def _wrong_type(value: Any, schema: Schema) -> Any:
    kind = schema.get("type")
    if schema.get("x-kubernetes-int-or-string"):
        return True
    return {"string": 12, "integer": "12", "number": "1.5", "boolean": "true", "array": {"a": 1},
            "object": ["a"]}.get(str(kind), 12 if isinstance(value, str) else "x")


def _mutations(value: Any, schema: Schema) -> Iterator[tuple[str, Any]]:
    """(label, new value) pairs a schema invites at one value; ``_DELETE`` removes it."""
    yield "type", _wrong_type(value, schema)
    if "enum" in schema:
        yield "enum", "NotOneOfThem"
    if isinstance(value, str):
        if "maxLength" in schema:
            yield "maxLength", "a" * (int(schema["maxLength"]) + 1)
        if "minLength" in schema and int(schema["minLength"]) > 0:
            yield "minLength", ""
        if "pattern" in schema or "format" in schema:
            yield "pattern-or-format", "not valid!"
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if "maximum" in schema:
            yield "maximum", schema["maximum"] + 1
        if "minimum" in schema:
            yield "minimum", schema["minimum"] - 1
    if isinstance(value, list):
        if value:
            yield "duplicate", [*value, copy.deepcopy(value[0])]
        if "maxItems" in schema and value:
            yield "maxItems", value + [copy.deepcopy(value[-1])] * (int(schema["maxItems"]) + 1 - len(value))
        if "minItems" in schema and int(schema["minItems"]) > 0:
            yield "minItems", []
    if isinstance(value, dict):
        for key in schema.get("required") or []:
            if key in value:
                yield f"required:{key}", {k: v for k, v in value.items() if k != key}
        optional = [k for k in value if k not in (schema.get("required") or [])]
        if optional:
            yield "drop-optional", {k: v for k, v in value.items() if k != optional[0]}
    yield "null", None


def _changes(value: Any, schema: Schema) -> Iterator[tuple[str, Any]]:
    """(label, new value) pairs an update makes while keeping the type: what transition rules and
    ratcheting judge (a value changed, grown, shrunk, reordered; an entry added or dropped)."""
    if isinstance(value, bool):
        yield "flip", not value
    elif isinstance(value, int):
        yield "increment", value + 1
        yield "decrement", value - 1
    elif isinstance(value, str):
        yield "append", value + "z"
        if value:
            yield "shorten", value[:-1]
        others = [e for e in schema.get("enum") or [] if e != value]
        if others:
            yield "other-enum", others[0]
    elif isinstance(value, list) and value:
        if len(value) > 1:
            yield "reverse", value[::-1]
        yield "drop-first", value[1:]
        keys = schema.get("x-kubernetes-list-map-keys") or []
        if isinstance(value[0], dict) and keys and all(isinstance(value[0].get(k), str) for k in keys):
            yield "add-item", [*value, {**copy.deepcopy(value[0]), **{k: value[0][k] + "n" for k in keys}}]
        elif isinstance(value[0], str):
            yield "add-item", [*value, value[0] + "n"]
    elif isinstance(value, dict):
        extra = schema.get("additionalProperties")
        if isinstance(extra, dict) and extra.get("type") == "string":
            yield "add-entry", {**value, "zz": "v"}
        changeable = [k for k in value if k not in (schema.get("required") or [])]
        if changeable:
            yield f"drop:{changeable[-1]}", {k: v for k, v in value.items() if k != changeable[-1]}


@dataclass(frozen=True)
class Update:
    label: str  # "labels-only", "fix", or what was done: "increment:spec.count", "type:spec.port"...
    old: dict[str, Any]  # the stored object
    new: dict[str, Any]


def updates(stored: list[tuple[dict[str, Any], dict[str, Any]]], schema_of: Callable[[dict[str, Any]], Schema],
            rng: random.Random, per_object: int) -> list[Update]:
    """Updates of stored objects, each given with the valid original it was made from: one that
    changes labels only, one back to the original's spec, and up to ``per_object`` seeded changes
    (one each, below ``spec``): the create mutations and the type-keeping ``_changes``."""
    out: list[Update] = []
    for old, original in stored:
        touched = copy.deepcopy(old)
        touched["metadata"].setdefault("labels", {})["touched"] = "yes"
        out.append(Update("labels-only", old, touched))
        if "spec" in original:
            fixed = copy.deepcopy(old)
            fixed["spec"] = copy.deepcopy(original["spec"])
            out.append(Update("fix", old, fixed))
        candidates = [
            (path, label, new)
            for path, value, schema in _values(old, schema_of(old), ())
            if path and path[0] == "spec"
            for label, new in (*_mutations(value, schema), *_changes(value, schema))
        ]
        for path, label, new in rng.sample(candidates, min(per_object, len(candidates))):
            obj = copy.deepcopy(old)
            _set(obj, path, copy.deepcopy(new))
            out.append(Update(f"{label}:{'.'.join(map(str, path))}", old, obj))
    return out


def _set(obj: Any, path: Path_, value: Any) -> None:
    for key in path[:-1]:
        obj = obj[key]
    obj[path[-1]] = value


def mutated(originals: list[dict[str, Any]], schema_of: Callable[[dict[str, Any]], Schema],
            rng: random.Random, per_object: int) -> list[Sample]:
    """The originals, then up to ``per_object`` seeded mutations of each (one change each, below
    ``metadata``, ``apiVersion`` and ``kind``), every object named uniquely."""
    samples: list[Sample] = []

    def add(label: str, obj: dict[str, Any]) -> None:
        obj["metadata"]["name"] = f"v{len(samples)}"
        samples.append(Sample(label, obj))

    for original in originals:
        add("valid", copy.deepcopy(original))
        candidates = [
            (path, label, new)
            for path, value, schema in _values(original, schema_of(original), ())
            if path and path[0] not in ("metadata", "apiVersion", "kind")
            for label, new in _mutations(value, schema)
        ]
        for path, label, new in rng.sample(candidates, min(per_object, len(candidates))):
            obj = copy.deepcopy(original)
            _set(obj, path, copy.deepcopy(new))
            add(f"{label}:{'.'.join(map(str, path))}", obj)
    return samples


@dataclass(frozen=True)
class Served:
    """How the apiserver serves one kind of a CRD version."""

    plural: str
    namespaced: bool
    status: bool  # has the status subresource: an update keeps the stored status
    schema: Schema


def served_kinds(crd_docs: list[dict[str, Any]]) -> dict[tuple[str, str], Served]:
    """(apiVersion, kind) -> how it is served, for every served version of the CRDs."""
    served = {}
    for crd in crd_docs:
        spec = crd["spec"]
        for version in spec["versions"]:
            if version.get("served"):
                served[(f"{spec['group']}/{version['name']}", spec["names"]["kind"])] = Served(
                    spec["names"]["plural"], spec["scope"] == "Namespaced",
                    "status" in (version.get("subresources") or {}), version["schema"]["openAPIV3Schema"])
    return served


def confusion(pairs: list[tuple[bool, bool]]) -> str:
    """The verdict confusion matrix of (apiserver accepted, kgen accepted) pairs, printed."""
    both_reject = sum(1 for server, kgen in pairs if not server and not kgen)
    both_accept = sum(1 for server, kgen in pairs if server and kgen)
    only_kgen_rejects = sum(1 for server, kgen in pairs if server and not kgen)
    only_server_rejects = sum(1 for server, kgen in pairs if not server and kgen)
    return (
        "                     kgen rejects  kgen accepts\n"
        f"apiserver rejects    {both_reject:>12}  {only_server_rejects:>12}\n"
        f"apiserver accepts    {only_kgen_rejects:>12}  {both_accept:>12}"
    )
