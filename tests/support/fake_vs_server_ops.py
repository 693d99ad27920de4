"""Seeded random operation sequences for the fake-vs-server harness (tests/support/fake_vs_server.py).

One sequence is a list of ``Step``s on a few objects of three kinds (ConfigMaps, Deployments, a
custom resource with a status subresource; tests/support/fake_vs_server_kinds.py says what each
sends): creates (some clashing, some with ``generateName``), gets (some missing), lists with
label selectors of every operator and with ``limit`` pages followed to the end, updates from the
object as last read or from an older read (stale), status updates, finalizers added and removed,
every patch type (JSON patch with operations that fail, merge patch, strategic merge patch, which
a custom resource answers with 415, and status merge patches), server-side apply by two managers
(``fieldManager=m1``/``m2``, with and without ``force``, so conflicts happen) on the main resource
and on ``/status``, updates and patches by the same managers (an Update entry of an applying
manager), ``fieldValidation`` (Strict/Warn/Ignore) with unknown fields (in patches and in
applied configurations), deletes with (stale)
resourceVersion and uid preconditions, with grace periods, propagation policies and dry runs (the
deletion flow: an object held by finalizers gets its deletionTimestamp, a finalizer added to it
is refused, the last one removed deletes it), and deletecollection with selectors. Bodies are
functions of each side's own answers, so both sides are driven the same way while each carries
its own resourceVersions, uids and generated names.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from tests.support.fake_vs_server import Answers, Step
from tests.support.fake_vs_server_kinds import Kind, labels

__all__ = ["Kind", "sequence"]

Json = Any
NameOf = Callable[[Answers], str]
_NAMES = ("a", "b", "c", "d")
_UNSEEN_RV = "999999999"
_UNSEEN_UID = "00000000-0000-0000-0000-000000000000"
_SELECTORS = ("t=x", "t!=x", "t in (x,y)", "t notin (x)", "t", "!t", "t=x,u", "u!=1")
_MANAGERS = ("m1", "m2")
_VALIDATION = (None, None, "Strict", "Warn", "Ignore")
_JSON_PATCH, _MERGE_PATCH = "application/json-patch+json", "application/merge-patch+json"
_STRATEGIC, _APPLY = "application/strategic-merge-patch+json", "application/apply-patch+yaml"
_OPS = ("create", "create", "generate", "get", "list", "page", "update", "update", "stale", "status", "finalizer",
        "delete", "delete-rv", "delete-uid", "collection", "json-patch", "json-patch", "merge-patch", "strategic",
        "strategic", "status-patch", "apply", "apply", "apply", "apply-status", "delete-options", "finalizer-more")
#: A delete's options: graceful deletion (a grace period the kinds here ignore: none is a pod),
#: propagation policies (Foreground and Orphan add their finalizers and leave the object deleting,
#: as no garbage collector runs), the deprecated orphanDependents, and a dry run.
_DELETE_OPTIONS: tuple[tuple[Json, dict[str, str] | None], ...] = (  # (body, query)
    ({"gracePeriodSeconds": 0}, None), ({"gracePeriodSeconds": 30}, None), ({"propagationPolicy": "Foreground"}, None),
    ({"propagationPolicy": "Orphan"}, None), ({"propagationPolicy": "Background"}, None), ({"orphanDependents": True}, None),
    ({"propagationPolicy": "Foreground"}, {"dryRun": "All"}), ({"gracePeriodSeconds": 5, "propagationPolicy": "Orphan"}, None),
    ({"propagationPolicy": "Orphan", "dryRun": ["All"]}, None),
    # No body: the options are the query's (with a body, the query's are not read: the dry run above deletes).
    (None, {"propagationPolicy": "Foreground"}), (None, {"propagationPolicy": "Orphan", "dryRun": "All"}),
    (None, {"gracePeriodSeconds": "0", "orphanDependents": "true"}),
)


def sequence(seed: int, ns: str, kinds: list[Kind], length: int) -> list[Step]:
    rng = random.Random(seed)
    steps: list[Step] = []
    reads: dict[tuple[int, str], list[str]] = {}  # (kind, name) -> labels of the steps that answered the object
    generated: dict[int, list[str]] = {}  # kind -> the keys of objects created with generateName
    names: dict[str, NameOf] = {}  # a generated object's key -> its name on a side

    def add(step: Step, kind: int = -1, key: str = "", answers_object: bool = False) -> None:
        steps.append(step)
        if answers_object:
            reads.setdefault((kind, key), []).append(step.label)

    while len(steps) < length:
        k = rng.randrange(len(kinds))
        kind = kinds[k]
        base = kind.path.format(ns=ns)
        known = [name for name in _NAMES + tuple(generated.get(k, ())) if (k, name) in reads]
        # Mostly an object this sequence has touched, so patches and applies find something.
        key = rng.choice(known if known and rng.random() < 0.7 else _NAMES + tuple(generated.get(k, ())))
        name_of = names.get(key) or _fixed(key)
        path = _path(base, name_of)
        label = f"{len(steps)}"
        seen = reads.get((k, key), [])
        op = rng.choice(_OPS)
        if op == "generate":
            prefix = f"g{label}-"  # one prefix per object: list order does not hang on the random suffix
            key = f"<{prefix}>"
            add(Step(f"{label}:generate {prefix}", "POST", base, _generate(kind, prefix, labels(rng))), k, key, True)
            generated.setdefault(k, []).append(key)
            names[key] = _generated_name(f"{label}:generate {prefix}", prefix)
        elif op == "create" or (not seen and op in ("update", "stale", "status", "finalizer")):
            add(Step(f"{label}:create {key}", "POST", base, _new(kind, name_of, labels(rng))), k, key, True)
        elif op == "get":
            add(Step(f"{label}:get {key}", "GET", path), k, key, True)
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
            add(Step(f"{label}:{op} {key}", "PUT", path, _changed(source, kind, name_of, rng.random()),
                     params=_manager(rng)), k, key, True)
        elif op == "status" and kind.status is not None:
            add(Step(f"{label}:status {key}", "PUT", _path(base, name_of, "/status"),
                     _status(seen[-1], kind, name_of, rng.random()), params=_manager(rng)), k, key, True)
        elif op == "finalizer":
            add(Step(f"{label}:finalizer {key}", "PUT", path, _finalizer(seen[-1], kind, name_of)), k, key, True)
        elif op == "finalizer-more" and seen:  # refused once the object is deleting (no new finalizers)
            add(Step(f"{label}:finalizer-more {key}", "PUT", path, _finalizer(seen[-1], kind, name_of, add=True)), k, key, True)
        elif op == "delete-options":
            options, delete_params = rng.choice(_DELETE_OPTIONS)
            shown = ",".join(f"{name}={value}" for name, value in {**(options or {}), **(delete_params or {})}.items())
            add(Step(f"{label}:delete-options {key} {shown}", "DELETE", path, options, params=delete_params), k, key, True)
        elif op == "delete":
            add(Step(f"{label}:delete {key}", "DELETE", path), k, key, True)
        elif op == "delete-rv" and seen:
            add(Step(f"{label}:delete-rv {key}", "DELETE", path, _precondition(rng.choice(seen), "resourceVersion")), k, key, True)
        elif op == "delete-uid" and seen:
            add(Step(f"{label}:delete-uid {key}", "DELETE", path, _precondition(rng.choice(seen), "uid")), k, key, True)
        elif op == "collection":
            add(Step(f"{label}:deletecollection", "DELETE", base, params={"labelSelector": rng.choice(_SELECTORS)}))
        elif op in ("json-patch", "merge-patch", "strategic"):
            add(_patch(op, label, key, kind, path, rng), k, key, True)
        elif op == "status-patch" and kind.status is not None:
            body = kind.status({}, rng)
            add(Step(f"{label}:status-patch {key}", "PATCH", _path(base, name_of, "/status"), {"status": body["status"]},
                     params=_manager(rng), content_type=_MERGE_PATCH), k, key, True)
        elif op == "apply" or (op == "apply-status" and kind.apply_status is not None):
            params: dict[str, Any] = {"fieldManager": rng.choice(_MANAGERS)}
            if rng.random() < 0.3:
                params["force"] = "true"
            configure = kind.apply if op == "apply" else kind.apply_status
            assert configure is not None
            extras = " force" if "force" in params else ""
            # A field the schema lacks (the server's 500), drawn apart so the other draws stay as they were.
            if kind.unknown is not None and random.Random(f"{seed}/{label}").random() < 0.1:
                configure, extras = _with_unknown(configure), extras + " unknown"
            suffix = "" if op == "apply" else "/status"
            add(Step(f"{label}:{op} {key} {params['fieldManager']}{extras}", "PATCH",
                     _path(base, name_of, suffix), _configured(configure, name_of, rng.random()), params=params,
                     content_type=_APPLY), k, key, True)
    return steps[:length]


def _fixed(name: str) -> NameOf:
    return lambda answers: name


def _path(base: str, name_of: NameOf, suffix: str = "") -> str | Callable[[Answers], str]:
    return lambda answers: f"{base}/{name_of(answers)}{suffix}"


def _generated_name(create: str, prefix: str) -> NameOf:
    """The name the side's generateName create got (a name neither side has, if it failed)."""

    def name(answers: Answers) -> str:
        obj = _object(answers[create])
        return str(obj["metadata"]["name"]) if obj else f"{prefix}00000"

    return name


def _generate(kind: Kind, prefix: str, object_labels: dict[str, str]) -> Json:
    body = kind.new("x", object_labels)
    return {**body, "metadata": {"generateName": prefix, "labels": object_labels}}


def _new(kind: Kind, name_of: NameOf, object_labels: dict[str, str]) -> Callable[[Answers], Json]:
    return lambda answers: kind.new(name_of(answers), object_labels)


def _manager(rng: random.Random) -> dict[str, Any] | None:
    """A write's fieldManager: none (the user agent's), or one of the applying managers."""
    manager = rng.choice((None,) + _MANAGERS)
    return {"fieldManager": manager} if manager else None


def _patch(op: str, label: str, key: str, kind: Kind, path: Any, rng: random.Random) -> Step:
    params = dict(_manager(rng) or {})
    validation = rng.choice(_VALIDATION)
    if validation:
        params["fieldValidation"] = validation
    # Under Strict, a JSON patch's or merge patch's unknown field is a 422 quoting the whole
    # patched object as json-patch and MergePatch re-encode it (keys sorted in the containers they
    # touched, Go struct order elsewhere): the fake does not know Go's struct order, so only a
    # strategic merge patch (whose 422 quotes the patch) brings unknown fields under Strict. A
    # custom resource has no struct order (the server holds it unstructured, every key sorted):
    # its patches bring them under Strict too.
    strict_quotes_object = validation == "Strict" and op != "strategic" and kind.strategic is not None
    unknown = kind.unknown(rng) if kind.unknown is not None and rng.random() < 0.25 and not strict_quotes_object else None
    body: Json
    if op == "json-patch":
        body, content_type = kind.json_patch(rng), _JSON_PATCH
        if unknown:
            body.append(unknown[0])
        if rng.random() < 0.1 and not strict_quotes_object:  # an unknown member of an operation: a warning
            body[0] = {**body[0], "extra": 1}
    elif op == "merge-patch":
        body, content_type = kind.merge_patch(rng), _MERGE_PATCH
        if unknown:
            body = {**body, **unknown[1]}
    else:
        body = kind.strategic(rng) if kind.strategic is not None else {"metadata": {"labels": {"t": "x"}}}
        content_type = _STRATEGIC
        if unknown:
            body = {**body, **unknown[1]}
    extras = "".join(f" {v}" for v in (params.get("fieldManager"), validation, "unknown" if unknown else None) if v)
    return Step(f"{label}:{op} {key}{extras}", "PATCH", path, body, params=params or None, content_type=content_type)


def _with_unknown(configure: Callable[[str, random.Random], Json]) -> Callable[[str, random.Random], Json]:
    return lambda name, rng: {**configure(name, rng), "bogus": 1}


def _configured(configure: Callable[[str, random.Random], Json], name_of: NameOf, draw: float) -> Callable[[Answers], Json]:
    return lambda answers: configure(name_of(answers), random.Random(draw))


def _object(answer: Json) -> Json:
    """The object an answer holds (a DELETE may answer with a Status: then there is none)."""
    return answer if isinstance(answer, dict) and answer.get("kind") not in (None, "Status") else None


def _changed(source: str, kind: Kind, name_of: NameOf, draw: float) -> Callable[[Answers], Json]:
    def body(answers: Answers) -> Json:
        obj = _object(answers[source]) or _gone(kind, name_of(answers))
        rng = random.Random(draw)
        obj = kind.change(obj, rng)
        if rng.random() < 0.5:
            obj = {**obj, "metadata": {**obj["metadata"], "labels": labels(rng)}}
        if rng.random() < 0.2:
            obj = {**obj, "metadata": {**obj["metadata"], "annotations": {"n": str(rng.randint(0, 2))}}}
        return obj

    return body


def _status(source: str, kind: Kind, name_of: NameOf, draw: float) -> Callable[[Answers], Json]:
    assert kind.status is not None
    status = kind.status

    def body(answers: Answers) -> Json:
        return status(_object(answers[source]) or _gone(kind, name_of(answers)), random.Random(draw))

    return body


def _finalizer(source: str, kind: Kind, name_of: NameOf, add: bool = False) -> Callable[[Answers], Json]:
    """Toggles the object's finalizers (all removed, or one added); ``add``: one more added."""

    def body(answers: Answers) -> Json:
        obj = _object(answers[source]) or _gone(kind, name_of(answers))
        finalizers = obj["metadata"].get("finalizers") or []
        if add:
            toggled = [*finalizers, f"kgen.dev/more{len(finalizers)}"]
        else:
            toggled = [] if finalizers else ["kgen.dev/hold"]
        return {**obj, "metadata": {**obj["metadata"], "finalizers": toggled}}

    return body


def _gone(kind: Kind, name: str) -> Json:
    """The body sent for an object last seen deleted: a fresh one, at a resourceVersion neither
    side has reached (a small one could be the fake's current one: it counts from 0)."""
    obj = kind.new(name, {})
    return {**obj, "metadata": {**obj["metadata"], "resourceVersion": _UNSEEN_RV}}


def _precondition(source: str, field: str) -> Callable[[Answers], Json]:
    """A delete precondition on ``field`` (resourceVersion or uid) as ``source`` read it."""

    def body(answers: Answers) -> Json:
        obj = _object(answers[source])
        value = obj["metadata"].get(field) if obj else None
        return {"preconditions": {field: value or (_UNSEEN_RV if field == "resourceVersion" else _UNSEEN_UID)}}

    return body


def _next_page(selector: str, limit: int, previous: str) -> Callable[[Answers], dict[str, Any]]:
    def params(answers: Answers) -> dict[str, Any]:
        answer = answers[previous]
        token = (answer.get("metadata") or {}).get("continue") if isinstance(answer, dict) else None
        return {"labelSelector": selector, "limit": limit, **({"continue": token} if token else {})}

    return params
