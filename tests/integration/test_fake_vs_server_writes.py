"""The fake's writes against the real apiserver (issue 35's items 3, 4, 6, 7, 8 and 9): the same
scripted requests to both, every status code, reason, body, ``Warning`` header and managedFields
entry compared (tests/support/fake_vs_server.py).

- ``resource-version``: a body's ``metadata.resourceVersion`` as the registry parses it (an
  unsigned integer: ``"abc"``, ``"-1"``, ``" 5"`` a plain 500; ``"0"`` an unconditional write on
  a ConfigMap, a 422 on a custom resource; ``"007"`` is 7) through update, merge and JSON patch,
  apply, /status and a Deployment's /scale, and delete preconditions (compared as strings);
- ``apply-conflict-order``: an apply with a stale resourceVersion and a field another manager owns
  is refused for the field (the managers are checked first), without one for the version;
- ``status-strategies``: a ``PUT``/merge ``PATCH`` of /status on each built-in kind the fake
  serves with a status keeps what its status strategy does not reset (metadata, annotations,
  finalizers; a Deployment's labels, a Pod's ownerReferences are reset) and owns it; zero
  ``metav1.Time`` values in conditions come back as ``null`` and are owned;
- ``custom-resource-status-types``: a wrongly typed status field of a custom resource, through
  /status and through the main resource of a kind without a status subresource;
- ``zero-values``: the same ``null`` for a zero ``metav1.Time`` outside status (an Event's
  timestamps), with encoding/json's other non-omitempty zeros;
- ``generation-json-types``: a custom resource's generation moves when a value changes between
  ``1`` and ``true``, ``0`` and ``false``, ``1`` and ``1.0``; so does the object (no no-op).

Built-in objects are sent as the server stores them after defaulting (a dry-run create on the
server gives them), so what is compared is the write, not the defaulting.
"""

from __future__ import annotations

import contextlib
import functools
import json
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from kgen.kubernetes.fake import FakeClientset
from kgen.runtime.gentype.resource import ResourceInfo
from tests.conftest import Figure
from tests.support.apiserver import CRDS, crd_manifest, install_crd, wait_for
from tests.support.fake_vs_server import Answers, Outcome, Step, run
from tests.support.packages import generate, import_all

GROUP = "fvsw.kgen.dev"
COUNTERS = ResourceInfo(GROUP, "v1", "counters", True, "Counter")  # with a status subresource
TALLIES = ResourceInfo(GROUP, "v1", "tallies", True, "Tally")  # without one
APPLY = "application/apply-patch+yaml"
MERGE = "application/merge-patch+json"
JSON_PATCH = "application/json-patch+json"

SPEC: dict[str, Any] = {
    "a": {"type": "string"},
    "n": {"type": "integer"},
    "o": {"type": "object", "properties": {"x": {"type": "string"}}},
    "free": {"type": "object", "x-kubernetes-preserve-unknown-fields": True},
}
STATUS: dict[str, Any] = {
    "type": "object",
    "properties": {
        "count": {"type": "integer"},
        "inner": {"type": "object", "properties": {"flag": {"type": "boolean"}}},
        "items": {"type": "array", "items": {"type": "object", "properties": {"n": {"type": "integer"}}}},
        "free": {"type": "object", "x-kubernetes-preserve-unknown-fields": True},
    },
}


def _crd(kind: str, plural: str, status_subresource: bool) -> dict[str, Any]:
    crd = crd_manifest(GROUP, kind, plural, SPEC)
    version = crd["spec"]["versions"][0]
    version["schema"]["openAPIV3Schema"]["properties"]["status"] = STATUS
    if status_subresource:
        version["subresources"] = {"status": {}}
    return crd


_KINDS = (("Counter", "counters", True), ("Tally", "tallies", False))
_MODELS_PACKAGE = "fvsw_custom_resources"


@functools.cache
def _custom_resource_models() -> None:
    """Generates (once) and imports a package from the CRDs, so the fake has their schemas."""
    out = Path(tempfile.mkdtemp(prefix="kgen-fvsw-"))
    crds = out / "crds.yaml"
    crds.write_text("\n---\n".join(json.dumps(_crd(*kind)) for kind in _KINDS))
    generate(out, _MODELS_PACKAGE, "--crd", str(crds))
    for _ in import_all(out, _MODELS_PACKAGE):
        pass


def _served(admin: httpx.Client, path: str) -> bool:
    return admin.get(path).status_code == 200


@contextlib.contextmanager
def _sides(admin: httpx.Client) -> Iterator[tuple[httpx.Client, httpx.Client]]:
    for kind, plural, status in _KINDS:
        if admin.get(f"{CRDS}/{plural}.{GROUP}").status_code == 404:
            install_crd(admin, _crd(kind, plural, status))
        # Established is not yet served: the first requests may get 429 "storage is (re)initializing".
        wait_for(functools.partial(_served, admin, f"/apis/{GROUP}/v1/{plural}"))
    _custom_resource_models()
    tracker = FakeClientset().tracker
    tracker.register(COUNTERS, status=True)
    tracker.register(TALLIES, status=False)
    with httpx.Client(base_url="https://fake.kgen.invalid", transport=tracker.transport()) as fake:
        yield admin, fake


def _report(outcome: Outcome, figure: Figure, scenario: str) -> None:
    figure(f"{scenario}: {outcome.compared} operations compared, {len(outcome.divergences)} divergences")
    assert not outcome.divergences, "\n".join(map(str, outcome.divergences))


def _edit(label: str, **changes: Any) -> Callable[[Answers], Any]:
    """A body: the object as this side last read it under ``label``, with top-level and metadata changes."""
    meta_changes = changes.pop("metadata", {})

    def body(answers: Answers) -> Any:
        obj = answers[label]
        return {**obj, **changes, "metadata": {**obj["metadata"], **meta_changes}}

    return body


def _apply(label: str, path: str, body: Any, manager: str, **params: str) -> Step:
    return Step(label, "PATCH", path, body, params={"fieldManager": manager, **params}, content_type=APPLY)


def _counter(name: str, **rest: Any) -> dict[str, Any]:
    return {"apiVersion": f"{GROUP}/v1", "kind": "Counter", "metadata": {"name": name}, **rest}


# -- the scenarios ---------------------------------------------------------------------------------

#: resourceVersions a body may carry: no version, unparsable ones, one with leading zeros.
ODD_VERSIONS = ("0", "", "00", "abc", "-1", " 5", "+5", "1e3", "18446744073709551616", "007")


def resource_version_steps(ns: str, admin: httpx.Client) -> list[Step]:
    """Item 3: ``metadata.resourceVersion`` values the registry parses with ``strconv.ParseUint``."""
    configmaps = f"/api/v1/namespaces/{ns}/configmaps"
    counters = f"/apis/{GROUP}/v1/namespaces/{ns}/counters"
    steps = [
        Step("cm", "POST", configmaps, {"metadata": {"name": "cm"}, "data": {"a": "1"}}),
        Step("c", "POST", counters, _counter("c", spec={"a": "x"})),
    ]
    for kind, path, api_version, kind_name in (
        ("cm", f"{configmaps}/cm", "v1", "ConfigMap"), ("c", f"{counters}/c", f"{GROUP}/v1", "Counter"),
    ):
        for i, rv in enumerate(ODD_VERSIONS):
            value = f"v{i}"
            steps += [
                Step(f"{kind}-get-{rv}", "GET", path),
                Step(f"{kind}-put-{rv}", "PUT", path,
                     _edit(f"{kind}-get-{rv}", metadata={"resourceVersion": rv, "labels": {"put": value}})),
                Step(f"{kind}-merge-{rv}", "PATCH", path, {"metadata": {"resourceVersion": rv, "labels": {"merge": value}}},
                     content_type=MERGE),
                _apply(f"{kind}-apply-{rv}", path, {"apiVersion": api_version, "kind": kind_name,
                                                    "metadata": {"name": kind, "resourceVersion": rv, "labels": {"apply": value}}}, "ap"),
                Step(f"{kind}-delete-{rv}", "DELETE", path, {"preconditions": {"resourceVersion": rv}}, params={"dryRun": "All"}),
            ]
        steps += [
            Step(f"{kind}-json-patch-remove", "PATCH", path, [{"op": "remove", "path": "/metadata/resourceVersion"},
                                                            {"op": "add", "path": "/metadata/labels/jp", "value": "1"}],
                 content_type=JSON_PATCH),
            Step(f"{kind}-delete-empty-uid", "DELETE", path, {"preconditions": {"uid": ""}}, params={"dryRun": "All"}),
            Step(f"{kind}-get-last", "GET", path),
            Step(f"{kind}-put-padded", "PUT", path, _padded(f"{kind}-get-last")),
        ]
    deployments = f"/apis/apps/v1/namespaces/{ns}/deployments"
    spec = {"replicas": 1, "selector": {"matchLabels": {"app": "d"}}, "template": _template("d")}
    deployment = _defaulted(admin, deployments, {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "d"}, "spec": spec})
    steps.append(Step("d", "POST", deployments, deployment))
    for i, rv in enumerate(("0", "", "abc", "007", "1")):  # a Scale's version becomes the Deployment's
        steps += [
            Step(f"d-scale-get-{rv}", "GET", f"{deployments}/d/scale"),
            Step(f"d-scale-{rv}", "PUT", f"{deployments}/d/scale", _scale(f"d-scale-get-{rv}", rv, i + 2)),
        ]
    steps += [
        Step("c-status-get", "GET", f"{counters}/c"),
        Step("c-status-0", "PUT", f"{counters}/c/status", _edit("c-status-get", metadata={"resourceVersion": "0"}, status={"count": 1})),
        Step("c-status-abc", "PUT", f"{counters}/c/status",
             _edit("c-status-get", metadata={"resourceVersion": "abc"}, status={"count": 1})),
    ]
    return steps


def _scale(label: str, rv: str, replicas: int) -> Callable[[Answers], Any]:
    """The Scale as last read, asking for ``replicas`` with resourceVersion ``rv``."""

    def body(answers: Answers) -> Any:
        scale = answers[label]
        return {**scale, "metadata": {**scale["metadata"], "resourceVersion": rv}, "spec": {"replicas": replicas}}

    return body


def _padded(label: str) -> Callable[[Answers], Any]:
    """The object as last read, its resourceVersion with a leading zero: the same revision."""

    def body(answers: Answers) -> Any:
        obj = answers[label]
        metadata = {**obj["metadata"], "labels": {"padded": "1"}, "resourceVersion": "0" + obj["metadata"]["resourceVersion"]}
        return {**obj, "metadata": metadata}

    return body


def apply_conflict_order_steps(ns: str, admin: httpx.Client) -> list[Step]:
    """Item 4: an apply's field-manager conflict comes before its stale resourceVersion; forced or
    without a conflict the stale version is the 409; an unparsable version after the conflict too."""
    configmaps = f"/api/v1/namespaces/{ns}/configmaps"
    counters = f"/apis/{GROUP}/v1/namespaces/{ns}/counters"

    def cm(data: dict[str, Any], rv: str | None = None) -> dict[str, Any]:
        metadata = {"name": "cm", **({"resourceVersion": rv} if rv else {})}
        return {"apiVersion": "v1", "kind": "ConfigMap", "metadata": metadata, "data": data}

    def counter(spec: dict[str, Any], rv: str | None = None) -> dict[str, Any]:
        return {**_counter("c", spec=spec), "metadata": {"name": "c", **({"resourceVersion": rv} if rv else {})}}

    def first(label: str) -> Callable[[Answers], str]:
        return lambda a: str(a[label]["metadata"]["resourceVersion"])

    steps: list[Step] = []
    shapes: tuple[tuple[str, str, Callable[..., dict[str, Any]], dict[str, Any], dict[str, Any]], ...] = (
        ("cm", f"{configmaps}/cm", cm, {"k": "1"}, {"z": "2"}),
        ("c", f"{counters}/c", counter, {"a": "1"}, {"o": {"x": "2"}}),
    )
    for kind, path, make, owned, other in shapes:
        field = next(iter(owned))
        conflicting = {field: "2"}
        stale = first(f"{kind}-first")
        steps += [
            _apply(f"{kind}-first", path, make(owned), "a"),
            _apply(f"{kind}-second", path, make({**owned, "extra": "1"} if kind == "cm" else {**owned, "n": 1}), "a"),
            _apply(f"{kind}-stale-conflict", path, lambda a, m=make, s=stale, c=conflicting: m(c, s(a)), "b"),
            _apply(f"{kind}-stale-no-conflict", path, lambda a, m=make, s=stale, o=other: m(o, s(a)), "b"),
            _apply(f"{kind}-stale-forced", path, lambda a, m=make, s=stale, c=conflicting: m(c, s(a)), "b", force="true"),
            _apply(f"{kind}-abc-conflict", path, make(conflicting, "abc"), "b"),
            _apply(f"{kind}-abc-no-conflict", path, make(other, "abc"), "b"),
            _apply(f"{kind}-current-conflict", path, lambda a, m=make, k=kind, c=conflicting: m(
                c, str(a[f"{k}-second"]["metadata"]["resourceVersion"])), "b"),
            _apply(f"{kind}-current-forced", path, lambda a, m=make, k=kind, c=conflicting: m(
                c, str(a[f"{k}-second"]["metadata"]["resourceVersion"])), "b", force="true"),
        ]
    return steps


#: (field of ``spec.free``, value) in turn: each differs from the last as JSON, not always as Python's ==.
JSON_TYPE_CHANGES: tuple[tuple[str, Any], ...] = (
    ("v", True), ("v", 1), ("v", 1.0), ("v", 1.0), ("v", 0), ("v", False), ("v", 0), ("v", 1.5), ("v", 1.5),
    ("v", 1e3), ("l", [False]), ("l", [0]), ("l", [0.0]),
)


def _spec_change(label: str, field: str, value: Any) -> Callable[[Answers], Any]:
    def body(answers: Answers) -> Any:
        obj = answers[label]
        return {**obj, "spec": {**obj["spec"], "free": {**obj["spec"]["free"], field: value}}}

    return body


def generation_json_types_steps(ns: str, admin: httpx.Client) -> list[Step]:
    """Item 9: a custom resource's generation moves when a spec value changes between ``1`` and
    ``true`` (``0`` and ``false``); the request's ``1.0`` is a float the stored ``1`` is not, so
    an update sending ``1.0`` moves it every time (and is written), while the answer and what is
    stored say ``1``; ``1.5`` twice is no change. Through /status (no generation) ``1.0`` after
    ``1`` is no write at all; without a status subresource the status counts. Merge patches and
    applies alike (an apply's YAML body makes ``3.0`` a ``3``)."""
    counters = f"/apis/{GROUP}/v1/namespaces/{ns}/counters"
    tallies = f"/apis/{GROUP}/v1/namespaces/{ns}/tallies"
    steps = [Step("create", "POST", counters, _counter("c", spec={"n": 1, "free": {"v": 1, "l": [0]}}))]
    previous = "create"
    for i, (field, value) in enumerate(JSON_TYPE_CHANGES):
        label = f"put{i}-{field}-{json.dumps(value)}"
        steps.append(Step(label, "PUT", f"{counters}/c", _spec_change(previous, field, value)))
        previous = label
    applied = {**_counter("c"), "spec": {"free": {"w": 3.0}}}
    steps += [
        Step("typed-float", "PUT", f"{counters}/c", _edit(previous, spec={"n": 1.0, "free": {"v": 1000}})),
        Step("merge-float", "PATCH", f"{counters}/c", {"spec": {"free": {"v": 2.0}}}, content_type=MERGE),
        Step("merge-float-again", "PATCH", f"{counters}/c", {"spec": {"free": {"v": 2.0}}}, content_type=MERGE),
        Step("status-1", "PATCH", f"{counters}/c/status", {"status": {"free": {"v": 1}}}, content_type=MERGE),
        Step("status-1.0", "PATCH", f"{counters}/c/status", {"status": {"free": {"v": 1.0}}}, content_type=MERGE),
        Step("status-true", "PATCH", f"{counters}/c/status", {"status": {"free": {"v": True}}}, content_type=MERGE),
        Step("tally", "POST", tallies, {"apiVersion": f"{GROUP}/v1", "kind": "Tally", "metadata": {"name": "t"}, "spec": {},
                                        "status": {"free": {"v": 1}}}),
        Step("tally-true", "PATCH", f"{tallies}/t", {"status": {"free": {"v": True}}}, content_type=MERGE),
        Step("tally-1.0", "PATCH", f"{tallies}/t", {"status": {"free": {"v": 1.0}}}, content_type=MERGE),
        Step("tally-1", "PATCH", f"{tallies}/t", {"status": {"free": {"v": 1}}}, content_type=MERGE),
        _apply("apply-3.0", f"{counters}/c", applied, "x"),
        _apply("apply-3.0-again", f"{counters}/c", applied, "x"),
    ]
    return steps


#: One wrongly typed status value per request (with several, the server orders the errors by Go's
#: map iteration, which varies): the status itself, a field, a nested one, a list and its items;
#: the unknown fields pruning finds in them are warnings (the fake's ``schema.pruning``).
WRONG_STATUSES: tuple[tuple[str, Any], ...] = (
    ("root-string", "x"), ("root-int", 5), ("root-list", [1]), ("count", {"count": "x"}), ("flag", {"inner": {"flag": 1}}),
    ("inner", {"inner": "s"}), ("items", {"items": {"a": 1}}), ("item", {"items": [{"n": True}]}), ("item-null", {"items": [None]}),
    # pruned before validation: an object where a scalar or a list belongs keeps no field, a list's objects where an object belongs neither
    ("count-object", {"count": {"a": 1}}), ("inner-list", {"inner": [{"flag": True}, [{"b": 1}], 2]}),
)


def custom_resource_status_types_steps(ns: str, admin: httpx.Client) -> list[Step]:
    """Item 8: a custom resource's /status write validates the status alone (apiextensions'
    ValidateStatusUpdate), so its messages name the path below ``status`` (``count in body``)
    while the cause's field is ``status.count``; through the main resource of a kind without a
    status subresource, and for a spec field, the message names the whole path."""
    counters = f"/apis/{GROUP}/v1/namespaces/{ns}/counters"
    tallies = f"/apis/{GROUP}/v1/namespaces/{ns}/tallies"
    steps = [
        Step("create", "POST", counters, _counter("c", spec={"n": 1})),
        Step("tally", "POST", tallies, {"apiVersion": f"{GROUP}/v1", "kind": "Tally", "metadata": {"name": "t"}, "spec": {}}),
        Step("spec", "PATCH", f"{counters}/c", {"spec": {"n": "x"}}, content_type=MERGE),
        _apply("status-apply", f"{counters}/c/status", {**_counter("c"), "status": {"count": "x"}}, "m"),
    ]
    for label, status in WRONG_STATUSES:
        steps += [
            Step(f"merge-{label}", "PATCH", f"{counters}/c/status", {"status": status}, content_type=MERGE),
            Step(f"put-{label}", "PUT", f"{counters}/c/status", _edit("create", status=status)),
            Step(f"tally-merge-{label}", "PATCH", f"{tallies}/t", {"status": status}, content_type=MERGE),
        ]
    return steps


def _containers() -> list[dict[str, Any]]:
    return [{"name": "c", "image": "registry.invalid/c:1"}]


def _template(app: str, restart: str = "Always") -> dict[str, Any]:
    return {"metadata": {"labels": {"app": app}}, "spec": {"containers": _containers(), "restartPolicy": restart}}


_OWNER = {"apiVersion": "v1", "kind": "ConfigMap", "name": "owner", "uid": "6a1b2c3d-0000-4000-8000-000000000001"}
_CONDITION = {"type": "Ready", "status": "True", "reason": "Because", "message": "m"}

#: (kind, collection path under the namespace or None if cluster-scoped, body, a valid status with
#: conditions lacking their times, a status merge patch) for each built-in kind the fake serves
#: with a status subresource.
STATUS_KINDS: tuple[tuple[str, str, Callable[[str], dict[str, Any]], dict[str, Any], dict[str, Any]], ...] = (
    ("Deployment", "/apis/apps/v1/namespaces/{ns}/deployments", lambda n: {
        "spec": {"replicas": 1, "selector": {"matchLabels": {"app": n}}, "template": _template(n)},
    }, {"replicas": 1, "conditions": [{**_CONDITION, "type": "Available"}]}, {"status": {"observedGeneration": 1}}),
    ("StatefulSet", "/apis/apps/v1/namespaces/{ns}/statefulsets", lambda n: {
        # OnDelete: a RollingUpdate's maxUnavailable default is 1.37's (MaxUnavailableStatefulSet), not 1.34's
        "spec": {"serviceName": n, "selector": {"matchLabels": {"app": n}}, "template": _template(n),
                 "updateStrategy": {"type": "OnDelete"}},
    }, {"replicas": 1, "conditions": [_CONDITION]}, {"status": {"currentRevision": "r1"}}),
    ("DaemonSet", "/apis/apps/v1/namespaces/{ns}/daemonsets", lambda n: {
        "spec": {"selector": {"matchLabels": {"app": n}}, "template": _template(n)},
    }, {"currentNumberScheduled": 1, "numberMisscheduled": 0, "desiredNumberScheduled": 1, "numberReady": 0,
        "conditions": [_CONDITION]}, {"status": {"numberUnavailable": 1}}),
    ("ReplicaSet", "/apis/apps/v1/namespaces/{ns}/replicasets", lambda n: {
        "spec": {"selector": {"matchLabels": {"app": n}}, "template": _template(n)},
    }, {"replicas": 1, "conditions": [{**_CONDITION, "type": "ReplicaFailure"}]}, {"status": {"fullyLabeledReplicas": 1}}),
    ("Job", "/apis/batch/v1/namespaces/{ns}/jobs", lambda n: {
        "spec": {"manualSelector": True, "selector": {"matchLabels": {"app": n}}, "template": _template(n, "Never")},
    }, {"active": 1, "startTime": "2026-01-02T03:04:05Z"}, {"status": {"ready": 0}}),
    ("CronJob", "/apis/batch/v1/namespaces/{ns}/cronjobs", lambda n: {
        "spec": {"schedule": "0 0 * * *", "jobTemplate": {"spec": {"template": _template(n, "Never")}}},
    }, {"lastScheduleTime": "2026-01-02T03:04:05Z"}, {"status": {"lastSuccessfulTime": "2026-01-02T03:04:05Z"}}),
    ("Pod", "/api/v1/namespaces/{ns}/pods", lambda n: {"spec": {"containers": _containers()}},
     {"phase": "Pending", "conditions": [{"type": "PodScheduled", "status": "False"}]}, {"status": {"message": "m"}}),
    ("Service", "/api/v1/namespaces/{ns}/services", lambda n: {"spec": {"clusterIP": "None", "ports": [{"port": 80}]}},
     {"conditions": [{**_CONDITION, "lastTransitionTime": "2026-01-02T03:04:05Z"}]}, {"status": {"loadBalancer": {}}}),
    ("Node", "/api/v1/nodes", lambda n: {"spec": {"podCIDR": "10.0.0.0/24"}},
     {"conditions": [{"type": "Ready", "status": "True"}], "capacity": {"cpu": "1"}}, {"status": {"phase": "Running"}}),
    ("Namespace", "/api/v1/namespaces", lambda n: {},
     {"phase": "Active", "conditions": [{"type": "NamespaceDeletionDiscoveryFailure", "status": "False"}]},
     {"status": {"phase": "Active"}}),
    ("PersistentVolumeClaim", "/api/v1/namespaces/{ns}/persistentvolumeclaims", lambda n: {
        "spec": {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "1Gi"}}},
    }, {"phase": "Pending", "conditions": [{"type": "Resizing", "status": "True"}]}, {"status": {"phase": "Bound"}}),
)


def _defaulted(admin: httpx.Client, path: str, body: dict[str, Any]) -> dict[str, Any]:
    """``body`` as the server stores it after defaulting (a dry-run create), without what the
    server sets on a create: what both sides are sent, so the defaulting is not what is compared."""
    answer = admin.post(path, json=body, params={"dryRun": "All"})
    assert answer.status_code == 201, answer.text
    created = answer.json()
    metadata = {k: v for k, v in created["metadata"].items()
                if k not in ("uid", "creationTimestamp", "resourceVersion", "managedFields", "generation")}
    return {**{k: v for k, v in created.items() if k != "status"}, "metadata": metadata}


def status_strategy_steps(ns: str, admin: httpx.Client) -> list[Step]:
    """Items 6 and 7: a /status write of each built-in kind keeps the metadata it sends but what
    its status strategy resets (``PrepareForUpdate``: the spec always, a Deployment's labels, a
    Pod's ownerReferences) and its field manager owns them (``GetResetFields``); a condition's
    absent ``metav1.Time`` fields come back ``null`` (a zero Time is a struct Go writes as null) and
    are owned. Then a merge patch of /status, a main-resource update changing the labels, and a read."""
    steps: list[Step] = []
    for kind, collection, make, status, patch in STATUS_KINDS:
        name = f"{ns}-{kind.lower()}" if "{ns}" not in collection else kind.lower()
        base = collection.format(ns=ns)
        api_version = "apps/v1" if "/apps/" in base else "batch/v1" if "/batch/" in base else "v1"
        body = _defaulted(admin, base, {"apiVersion": api_version, "kind": kind, "metadata": {"name": name}, **make(name)})
        path = f"{base}/{name}"
        steps += [
            Step(f"{kind}-create", "POST", base, body),
            Step(f"{kind}-status", "PUT", f"{path}/status", _status_body(f"{kind}-create", status)),
            Step(f"{kind}-status-patch", "PATCH", f"{path}/status",
                 {**patch, "metadata": {"annotations": {"b": "2"}, "labels": {"p": "1"}}}, content_type=MERGE),
            Step(f"{kind}-get", "GET", path),
        ]
    deployment = f"/apis/apps/v1/namespaces/{ns}/deployments/deployment"
    steps += [  # the issue's case: a merge patch of conditions without their times
        Step("Deployment-conditions", "PATCH", f"{deployment}/status", {"status": {"conditions": [
            {"type": "Progressing", "status": "True", "reason": "NewReplicaSetAvailable", "message": "m"},
        ]}}, content_type=MERGE),
        Step("Deployment-relabel", "PUT", deployment, _edit("Deployment-conditions", metadata={"labels": {"m": "1"}})),
    ]
    return steps


def _status_body(label: str, status: dict[str, Any]) -> Callable[[Answers], Any]:
    """The object as created with a status, new labels, annotations, a finalizer and an owner, and
    a changed spec (which no status strategy takes)."""

    def body(answers: Answers) -> Any:
        obj = answers[label]
        metadata = {**obj["metadata"], "labels": {"l": "1"}, "annotations": {"a": "1"}, "finalizers": ["kgen.dev/f"],
                    "ownerReferences": [_OWNER]}
        return {**obj, "metadata": metadata, "spec": {**obj.get("spec", {}), "bogusChange": None}, "status": status}

    return body


def zero_values_steps(ns: str, admin: httpx.Client) -> list[Step]:
    """Item 7's rule beyond status: a zero ``metav1.Time`` (or ``MicroTime``) a built-in object
    lacks is written ``null`` wherever its Go field is a struct value (encoding/json's omitempty
    never omits a struct), with the other non-omitempty zeros: a core Event's ``firstTimestamp``,
    ``lastTimestamp``, ``eventTime`` and ``reportingComponent: ""``, an events.k8s.io Event's
    deprecated timestamps; a PodDisruptionBudget's and an HPA's status conditions."""
    core = f"/api/v1/namespaces/{ns}/events"
    events = f"/apis/events.k8s.io/v1/namespaces/{ns}/events"
    pdbs = f"/apis/policy/v1/namespaces/{ns}/poddisruptionbudgets"
    hpas = f"/apis/autoscaling/v2/namespaces/{ns}/horizontalpodautoscalers"
    regarding = {"kind": "Pod", "namespace": ns, "name": "p", "apiVersion": "v1"}
    event = {"metadata": {"name": "e1"}, "involvedObject": regarding, "reason": "R", "message": "m", "type": "Normal"}
    steps = [
        Step("core-event", "POST", core, event),
        Step("core-event-update", "PUT", f"{core}/e1", _edit("core-event", message="n")),
        Step("event", "POST", events, {
            "apiVersion": "events.k8s.io/v1", "kind": "Event", "metadata": {"name": "e2"}, "regarding": regarding, "reason": "R",
            "note": "m", "type": "Normal", "eventTime": "2026-01-02T03:04:05.000000Z", "reportingController": "a/b",
            "reportingInstance": "i", "action": "A",
        }),
        Step("pdb", "POST", pdbs, {"metadata": {"name": "pdb"}, "spec": {"minAvailable": 1, "selector": {"matchLabels": {"a": "b"}}}}),
        Step("pdb-status", "PATCH", f"{pdbs}/pdb/status", {"status": {"conditions": [
            {"type": "DisruptionAllowed", "status": "False", "reason": "R", "message": "m", "lastTransitionTime": "2026-01-02T03:04:05Z"},
        ], "disruptedPods": {"x": "2026-01-02T03:04:05Z"}}}, content_type=MERGE),
    ]
    if _server_minor(admin) >= 37:  # an HPA has a metadata.generation since 1.37 (HPAGeneration), as the fake serves it
        steps += [
            Step("hpa", "POST", hpas, {"metadata": {"name": "h"}, "spec": {
                "scaleTargetRef": {"kind": "Deployment", "name": "d", "apiVersion": "apps/v1"}, "maxReplicas": 2}}),
            Step("hpa-status", "PATCH", f"{hpas}/h/status", {"status": {
                "conditions": [{"type": "AbleToScale", "status": "True"}], "desiredReplicas": 1, "currentReplicas": 1,
            }}, content_type=MERGE),
        ]
    return steps


def _server_minor(admin: httpx.Client) -> int:
    return int(str(admin.get("/version").json()["minor"]).rstrip("+"))


SCENARIOS: dict[str, Callable[[str, httpx.Client], list[Step]]] = {
    "resource-version": resource_version_steps,
    "apply-conflict-order": apply_conflict_order_steps,
    "generation-json-types": generation_json_types_steps,
    "custom-resource-status-types": custom_resource_status_types_steps,
    "status-strategies": status_strategy_steps,
    "zero-values": zero_values_steps,
}


@pytest.mark.integration
@pytest.mark.parametrize("scenario", sorted(SCENARIOS))
def test_fake_writes_like_the_server(admin: httpx.Client, namespace: str, scenario: str, figure: Figure) -> None:
    try:
        with _sides(admin) as (server, fake):
            outcome = run(server, fake, SCENARIOS[scenario](namespace, admin), managed_fields=True)
    finally:
        for path in (f"/api/v1/nodes/{namespace}-node", f"/api/v1/namespaces/{namespace}-namespace"):  # cluster-scoped leftovers
            admin.patch(path, json={"metadata": {"finalizers": None}}, headers={"Content-Type": MERGE})
            admin.delete(path)
    _report(outcome, figure, scenario)
    if scenario == "status-strategies":  # the scenario reached what it is about
        conditions = outcome.server["Deployment-conditions"]["status"]["conditions"]
        assert [(c["lastUpdateTime"], c["lastTransitionTime"]) for c in conditions] == [(None, None)]
        assert outcome.server["Deployment-get"]["metadata"]["annotations"] == {"a": "1", "b": "2"}
    if scenario == "zero-values":
        assert [outcome.server["core-event"][k] for k in ("firstTimestamp", "lastTimestamp", "eventTime")] == [None] * 3
    if scenario == "generation-json-types":  # the scenario reached what it is about
        labels = [f"put{i}-{f}-{json.dumps(v)}" for i, (f, v) in enumerate(JSON_TYPE_CHANGES)]
        generations = [outcome.server[label]["metadata"]["generation"] for label in labels]
        assert generations[:3] == [2, 3, 4] and generations[3] == 5 and generations[8] == generations[7]
