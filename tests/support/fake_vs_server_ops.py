"""Seeded random operation sequences for the fake-vs-server harness (tests/support/fake_vs_server.py).

One sequence is a list of ``Step``s on a few objects of three kinds (ConfigMaps, Deployments, a
custom resource with a status subresource): creates (some clashing), gets (some missing),
lists with label selectors of every operator and with ``limit`` pages followed to the end,
updates from the object as last read or from an older read (stale), status updates, finalizers
added and removed, deletes with and without (stale) preconditions, and deletecollection. Bodies
are functions of each side's own answers, so both sides are driven the same way while each
carries its own resourceVersions.

Not covered here (other parts of issue 12): patches, server-side apply, managedFields.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tests.support.fake_vs_server import Answers, Step

Json = Any
_NAMES = ("a", "b", "c", "d")
_UNSEEN_RV = "999999999"
_SELECTORS = ("t=x", "t!=x", "t in (x,y)", "t notin (x)", "t", "!t", "t=x,u", "u!=1")


@dataclass(frozen=True)
class Kind:
    path: str  # the collection's path, with {ns}
    new: Callable[[str, dict[str, str]], Json]  # a body from a name and labels
    change: Callable[[Json, random.Random], Json]  # a spec (or data) change to an object
    status: Callable[[Json, random.Random], Json] | None  # a status change, if it has a status subresource


def sequence(seed: int, ns: str, kinds: list[Kind], length: int) -> list[Step]:
    rng = random.Random(seed)
    steps: list[Step] = []
    reads: dict[tuple[int, str], list[str]] = {}  # (kind, name) -> labels of the steps that answered the object

    def add(step: Step, kind: int = -1, name: str = "", answers_object: bool = False) -> None:
        steps.append(step)
        if answers_object:
            reads.setdefault((kind, name), []).append(step.label)

    while len(steps) < length:
        k = rng.randrange(len(kinds))
        kind = kinds[k]
        base = kind.path.format(ns=ns)
        name = rng.choice(_NAMES)
        label = f"{len(steps)}"
        seen = reads.get((k, name), [])
        op = rng.choice(("create", "create", "get", "list", "page", "update", "update", "stale", "status",
                         "finalizer", "delete", "delete-rv", "collection"))
        if op == "create" or (not seen and op in ("update", "stale", "status", "finalizer")):
            add(Step(f"{label}:create {name}", "POST", base, kind.new(name, _labels(rng))), k, name, True)
        elif op == "get":
            add(Step(f"{label}:get {name}", "GET", f"{base}/{name}"), k, name, True)
        elif op == "list":
            add(Step(f"{label}:list", "GET", base, params={"labelSelector": rng.choice(_SELECTORS)}))
        elif op == "page":
            selector, limit = rng.choice(_SELECTORS + ("",)), rng.randint(1, 3)
            first = f"{label}:page 0"
            add(Step(first, "GET", base, params={"labelSelector": selector, "limit": limit}))
            previous = first
            for page in range(1, 4):
                current = f"{label}:page {page}"
                add(Step(current, "GET", base, params=_next_page(selector, limit, previous)))
                previous = current
        elif op in ("update", "stale"):
            source = seen[-1] if op == "update" else rng.choice(seen)
            add(Step(f"{label}:{op} {name}", "PUT", f"{base}/{name}", _changed(source, kind, name, rng.random())), k, name, True)
        elif op == "status" and kind.status is not None:
            add(Step(f"{label}:status {name}", "PUT", f"{base}/{name}/status", _status(seen[-1], kind, name, rng.random())), k, name, True)
        elif op == "finalizer":
            add(Step(f"{label}:finalizer {name}", "PUT", f"{base}/{name}", _finalizer(seen[-1], kind, name)), k, name, True)
        elif op == "delete":
            add(Step(f"{label}:delete {name}", "DELETE", f"{base}/{name}"), k, name, True)
        elif op == "delete-rv" and seen:
            add(Step(f"{label}:delete-rv {name}", "DELETE", f"{base}/{name}", _precondition(rng.choice(seen))), k, name, True)
        elif op == "collection":
            add(Step(f"{label}:deletecollection", "DELETE", base, params={"labelSelector": rng.choice(_SELECTORS)}))
    return steps[:length]


def _labels(rng: random.Random) -> dict[str, str]:
    labels: dict[str, str] = {}
    if rng.random() < 0.7:
        labels["t"] = rng.choice("xyz")
    if rng.random() < 0.4:
        labels["u"] = rng.choice("12")
    return labels


def _object(answer: Json) -> Json:
    """The object an answer holds (a DELETE may answer with a Status: then there is none)."""
    return answer if isinstance(answer, dict) and answer.get("kind") not in (None, "Status") else None


def _changed(source: str, kind: Kind, name: str, draw: float) -> Callable[[Answers], Json]:
    def body(answers: Answers) -> Json:
        obj = _object(answers[source]) or _gone(kind, name)
        rng = random.Random(draw)
        obj = kind.change(obj, rng)
        if rng.random() < 0.5:
            obj = {**obj, "metadata": {**obj["metadata"], "labels": _labels(rng)}}
        if rng.random() < 0.2:
            obj = {**obj, "metadata": {**obj["metadata"], "annotations": {"n": str(rng.randint(0, 2))}}}
        return obj

    return body


def _status(source: str, kind: Kind, name: str, draw: float) -> Callable[[Answers], Json]:
    assert kind.status is not None
    status = kind.status

    def body(answers: Answers) -> Json:
        return status(_object(answers[source]) or _gone(kind, name), random.Random(draw))

    return body


def _finalizer(source: str, kind: Kind, name: str) -> Callable[[Answers], Json]:
    def body(answers: Answers) -> Json:
        obj = _object(answers[source]) or _gone(kind, name)
        finalizers = obj["metadata"].get("finalizers") or []
        toggled = [] if finalizers else ["kgen.dev/hold"]
        return {**obj, "metadata": {**obj["metadata"], "finalizers": toggled}}

    return body


def _gone(kind: Kind, name: str) -> Json:
    """The body sent for an object last seen deleted: a fresh one, at a resourceVersion neither
    side has reached (a small one could be the fake's current one: it counts from 0)."""
    obj = kind.new(name, {})
    return {**obj, "metadata": {**obj["metadata"], "resourceVersion": _UNSEEN_RV}}


def _precondition(source: str) -> Callable[[Answers], Json]:
    def body(answers: Answers) -> Json:
        obj = _object(answers[source])
        rv = obj["metadata"].get("resourceVersion") if obj else _UNSEEN_RV
        return {"preconditions": {"resourceVersion": rv}}

    return body


def _next_page(selector: str, limit: int, previous: str) -> Callable[[Answers], dict[str, Any]]:
    def params(answers: Answers) -> dict[str, Any]:
        answer = answers[previous]
        token = (answer.get("metadata") or {}).get("continue") if isinstance(answer, dict) else None
        return {"labelSelector": selector, "limit": limit, **({"continue": token} if token else {})}

    return params
