"""The three kinds the fake-vs-server random sequences drive, and what each op sends for them.

Every body here is one the real apiserver accepts or refuses for reasons the fake models too
(preconditions, patch failures, strict decoding, conflicts): never one that only its Go validation
would refuse, as the fake does not do it (runtime/fake/__init__.py); so a Deployment's
``containers`` never lose ``c``. Bodies carry no defaults: a Deployment is sent without its
strategy, revisionHistoryLimit, progressDeadlineSeconds or the pod template's and containers'
defaults, so every answer compares the fake's defaulting (kgen.runtime.fake.schema.defaulting)
with the server's.

Unknown fields go to every kind: a built-in's Go type drops them, a custom resource's structural
schema prunes them (the Widget's, from the generated package's merge schema: nested, in list
items, kept under ``spec.free``, which preserves unknown fields), and its ``metadata`` is ObjectMeta.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

Json = Any
GROUP = "fvs.kgen.dev"
Rng = random.Random


@dataclass(frozen=True)
class Kind:
    path: str  # the collection's path, with {ns}
    new: Callable[[str, dict[str, str]], Json]  # a body from a name and labels
    change: Callable[[Json, Rng], Json]  # a spec (or data) change to an object
    status: Callable[[Json, Rng], Json] | None  # a status change, if it has a status subresource
    json_patch: Callable[[Rng], list[Json]]  # JSON patch operations (some failing)
    merge_patch: Callable[[Rng], Json]
    strategic: Callable[[Rng], Json] | None  # None: a custom resource (the server answers 415)
    apply: Callable[[str, Rng], Json]  # an apply configuration for a name
    apply_status: Callable[[str, Rng], Json] | None
    unknown: Callable[[Rng], tuple[Json, Json]] | None  # (JSON patch op, merge patch) adding unknown fields


def container(name: str, image: str, **extra: Any) -> Json:
    """A container without any of the defaults the server fills in."""
    return {"name": name, "image": image, **extra}


def deployment(name: str, app: str | None = None) -> dict[str, Any]:
    """A Deployment without the defaults the server fills in (the fake fills in the same);
    ``app``: its selector's label (the name by default)."""
    labels = {"app": app or name}
    return {
        "apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": name},
        "spec": {
            "replicas": 0, "selector": {"matchLabels": labels},
            "template": {"metadata": {"labels": labels}, "spec": {"containers": [container("c", "registry.invalid/c:1")]}},
            "paused": False, "minReadySeconds": 0,  # zero values the server drops (Go value fields)
        },
    }


def labels(rng: Rng) -> dict[str, str]:
    out: dict[str, str] = {}
    if rng.random() < 0.7:
        out["t"] = rng.choice("xyz")
    if rng.random() < 0.4:
        out["u"] = rng.choice("12")
    return out


def _some(rng: Rng, choices: list[Callable[[], Json]], most: int = 3) -> list[Json]:
    return [rng.choice(choices)() for _ in range(rng.randint(1, most))]


# -- ConfigMaps -------------------------------------------------------------------------------------


def _configmap(name: str, labels: dict[str, str]) -> Json:
    return {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": name, "labels": labels}, "data": {}}


def _configmap_json_patch(rng: Rng) -> list[Json]:
    v = rng.choice("vw")
    return _some(rng, [
        lambda: {"op": "add", "path": "/data/k", "value": v},
        lambda: {"op": "add", "path": "/data", "value": {"k": v}},
        lambda: {"op": "remove", "path": rng.choice(["/data/k", "/data/m"])},
        lambda: {"op": "replace", "path": "/data/m", "value": v},  # a missing member: v4 adds it
        lambda: {"op": "move", "from": "/data/k", "path": "/data/m"},
        lambda: {"op": "copy", "from": "/metadata/labels/t", "path": "/data/c"},
        lambda: {"op": "test", "path": "/data/k", "value": v},
        lambda: {"op": "add", "path": "/metadata/labels/t", "value": rng.choice("xy")},
    ])


def _configmap_merge(rng: Rng) -> Json:
    return {
        "data": {"k": rng.choice([None, "v", "w"])},
        "metadata": {"labels": {"t": rng.choice([None, "x", "y"]), **({"u": None} if rng.random() < 0.3 else {})}},
    }


def _configmap_strategic(rng: Rng) -> Json:
    return rng.choice([
        lambda: {"data": {"k": rng.choice([None, "v"]), "m": "1"}, "metadata": {"labels": {"t": rng.choice([None, "x"])}}},
        lambda: {"data": {"$patch": "replace", "m": rng.choice("12")}},
        lambda: {"metadata": {"finalizers": ["kgen.dev/hold"]}},
        lambda: {"metadata": {"$deleteFromPrimitiveList/finalizers": ["kgen.dev/hold"]}},
        lambda: {"metadata": {"labels": {"$patch": "delete"}}},
    ])()


def _configmap_apply(name: str, rng: Rng) -> Json:
    data = {key: rng.choice("vw") for key in rng.sample(["k", "m"], rng.randint(0, 2))}
    return {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": name, "labels": labels(rng)}, "data": data}


def _builtin_unknown(rng: Rng) -> tuple[Json, Json]:
    return {"op": "add", "path": "/bogus", "value": 1}, {"bogus": 1, "metadata": {"labels": {"t": "x"}}}


# -- Deployments ------------------------------------------------------------------------------------

_CONTAINERS = "/spec/template/spec/containers"


#: The random sequences' Deployments all select app=fvs: a generateName create cannot know its
#: name, and an apply must not change the (immutable) selector.
_APP = "fvs"


def _deployment(name: str, labels: dict[str, str]) -> Json:
    body = deployment(name, _APP)
    return {**body, "metadata": {**body["metadata"], "labels": labels}}


def _deployment_json_patch(rng: Rng) -> list[Json]:
    env = {"name": rng.choice("EF"), "value": rng.choice("12")}
    return _some(rng, [
        lambda: {"op": "replace", "path": "/spec/replicas", "value": rng.randint(0, 3)},
        lambda: {"op": "test", "path": "/spec/replicas", "value": rng.randint(0, 2)},
        lambda: {"op": "add", "path": "/spec/paused", "value": rng.random() < 0.5},
        lambda: {"op": "remove", "path": "/spec/paused"},
        lambda: {"op": "replace", "path": f"{_CONTAINERS}/0/image", "value": f"registry.invalid/c:{rng.randint(1, 3)}"},
        lambda: {"op": "add", "path": f"{_CONTAINERS}/0/env", "value": [env]},
        # appended under a name of its own: a duplicate env name draws the apiserver's pod-template
        # warning ("hides previous definition"), validation the fake does not do
        lambda: {"op": "add", "path": f"{_CONTAINERS}/0/env/-", "value": {"name": f"A{rng.randrange(10**9)}", "value": "1"}},
        lambda: {"op": "remove", "path": f"{_CONTAINERS}/0/env"},
        lambda: {"op": "add", "path": "/spec/template/metadata/annotations/x", "value": "1"},
        lambda: {"op": "copy", "from": "/spec/replicas", "path": "/spec/minReadySeconds"},
        lambda: {"op": "move", "from": "/metadata/annotations/a", "path": "/metadata/annotations/b"},
        lambda: {"op": "add", "path": "/metadata/annotations", "value": {"a": "1"}},
    ])


def _deployment_merge(rng: Rng) -> Json:
    spec: Json = {"template": {"metadata": {"annotations": {"x": rng.choice([None, "1", "2"])}}}}
    if rng.random() < 0.5:
        spec["replicas"] = rng.randint(0, 3)
    if rng.random() < 0.4:
        spec["paused"] = rng.choice([None, True])
    if rng.random() < 0.3:  # a list is replaced whole
        spec["template"]["spec"] = {"containers": [container("c", "registry.invalid/c:2", env=[{"name": "E", "value": "m"}])]}
    return {"spec": spec, "metadata": {"labels": {"t": rng.choice([None, "x"])}}}


def _deployment_strategic(rng: Rng) -> Json:
    port = {"containerPort": rng.choice([80, 81])}
    env = {"name": rng.choice("EF"), "value": rng.choice("12")}
    c: Json = {"name": "c"}
    for key, value in (("image", f"registry.invalid/c:{rng.randint(1, 3)}"), ("env", [env]), ("ports", [port])):
        if rng.random() < 0.5:
            c[key] = value
    if rng.random() < 0.3:
        c["env"] = [{"name": rng.choice("EF"), "$patch": "delete"}]
    if rng.random() < 0.2:
        c["$setElementOrder/env"] = [{"name": "F"}, {"name": "E"}]
    containers: list[Json] = [c]
    draw = rng.random()
    if draw < 0.2:
        containers.append(container("d", "registry.invalid/d:1"))
    elif draw < 0.35:
        containers.append({"name": "d", "$patch": "delete"})
    template: Json = {"spec": {"containers": containers}}
    if rng.random() < 0.2:
        template["spec"]["$setElementOrder/containers"] = [{"name": "d"}, {"name": "c"}]
    patch: Json = {"spec": {"template": template}}
    finalizers = rng.random()
    if finalizers < 0.15:
        patch["metadata"] = {"finalizers": ["kgen.dev/hold"]}
    elif finalizers < 0.3:
        patch["metadata"] = {"$deleteFromPrimitiveList/finalizers": ["kgen.dev/hold"]}
    return patch


def _deployment_apply(name: str, rng: Rng) -> Json:
    body = deployment(name, _APP)
    spec = {k: v for k, v in body["spec"].items() if k not in ("paused", "minReadySeconds")}
    extra: Json = {}
    if rng.random() < 0.5:
        extra["env"] = [{"name": rng.choice("EF"), "value": rng.choice("12")}]
    spec["template"]["spec"]["containers"] = [container("c", f"registry.invalid/c:{rng.randint(1, 2)}", **extra)]
    spec["replicas"] = rng.randint(0, 2)
    return {**body, "metadata": {"name": name, "labels": labels(rng)}, "spec": spec}


def _deployment_status(o: Json, rng: Rng) -> Json:
    return {**o, "status": {"replicas": rng.randint(0, 1), "observedGeneration": rng.randint(0, 2), "conditions": []}}


def _deployment_apply_status(name: str, rng: Rng) -> Json:
    return {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": name},
            "status": {"observedGeneration": rng.randint(0, 2)}}


# -- the custom resource (a status subresource, no strategic merge patch) ---------------------------


def _widget(name: str, labels: dict[str, str]) -> Json:
    return {"apiVersion": f"{GROUP}/v1", "kind": "Widget", "metadata": {"name": name, "labels": labels}, "spec": {"a": "x"}}


def _widget_change(o: Json, rng: Rng) -> Json:
    """A spec change; sometimes with a wrongly typed status (``status.s`` is an integer), which the
    main resource drops (the status subresource's) and its field manager cannot type."""
    changed = {**o, "spec": {"a": rng.choice("xyz")}}
    return {**changed, "status": {"s": "x"}} if rng.random() < 0.15 else changed


def _widget_status(o: Json, rng: Rng) -> Json:
    """A status change; sometimes with a wrongly typed spec (``spec.a`` is a string), which
    ``/status`` drops and its field manager cannot type."""
    changed = {**o, "status": {"s": rng.randint(0, 2)}}
    return {**changed, "spec": {"a": 1}} if rng.random() < 0.15 else changed


def _widget_json_patch(rng: Rng) -> list[Json]:
    return _some(rng, [
        lambda: {"op": "replace", "path": "/spec/a", "value": rng.choice("xyz")},
        lambda: {"op": "test", "path": "/spec/a", "value": rng.choice("xy")},
        lambda: {"op": "remove", "path": "/spec/a"},
        lambda: {"op": "add", "path": "/metadata/labels/t", "value": rng.choice("xy")},
        lambda: {"op": "copy", "from": "/spec/a", "path": "/metadata/annotations/x"},
    ])


def _widget_apply(name: str, rng: Rng) -> Json:
    return {"apiVersion": f"{GROUP}/v1", "kind": "Widget", "metadata": {"name": name, "labels": labels(rng)},
            "spec": {"a": rng.choice("xyz")}}


def _widget_apply_status(name: str, rng: Rng) -> Json:
    return {"apiVersion": f"{GROUP}/v1", "kind": "Widget", "metadata": {"name": name}, "status": {"s": rng.randint(0, 2)}}


def _widget_unknown(rng: Rng) -> tuple[Json, Json]:
    return rng.choice([
        ({"op": "add", "path": "/spec/bogus", "value": 1}, {"spec": {"bogus": 1, "free": {"kept": {"x": 1}}}}),
        ({"op": "add", "path": "/spec/items", "value": [{"ib": 1, "name": "n"}]},  # json-patch keeps a value's key order
         {"spec": {"o": {"x": "1", "ob": 1}, "free": {"k": {"z": "1", "kb": 1}}}, "metadata": {"bogusm": 1}}),
    ])


def random_kinds() -> list[Kind]:
    return [
        Kind("/api/v1/namespaces/{ns}/configmaps", _configmap,
             lambda o, r: {**o, "data": r.choice([{}, {"k": r.choice("vw")}])}, None,
             _configmap_json_patch, _configmap_merge, _configmap_strategic, _configmap_apply, None, _builtin_unknown),
        Kind("/apis/apps/v1/namespaces/{ns}/deployments", _deployment,
             lambda o, r: {**o, "spec": {**o["spec"], "replicas": r.randint(0, 2), "paused": r.random() < 0.3}},
             _deployment_status, _deployment_json_patch, _deployment_merge, _deployment_strategic,
             _deployment_apply, _deployment_apply_status, _builtin_unknown),
        Kind(f"/apis/{GROUP}/v1/namespaces/{{ns}}/widgets", _widget, _widget_change, _widget_status,
             _widget_json_patch, lambda r: {"spec": {"a": r.choice([None, "y"])}, "metadata": {"labels": {"t": r.choice([None, "x"])}}},
             None, _widget_apply, _widget_apply_status, _widget_unknown),
    ]
