"""What the server-side apply cases set: "knobs", each one field (or one list) of a kind, drawn
at random from small pools of values, so managers share fields, collide and conflict
(tests/support/ssa_cases.py combines them into configurations and updates).

Every list type and map type is covered: list-maps with one key (containers, env, workers,
conditions) and two keys (container ports containerPort+protocol, Service ports port+protocol,
Gizmo endpoints), sets (finalizers, Gizmo tags), atomic lists (args, command, tolerations,
externalIPs), granular maps (labels, annotations, data), atomic maps and structs (Deployment
spec.selector, Service spec.selector, nodeSelector, Gizmo selector/target), nested structs.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Sequence
from typing import Any

Knob = Callable[[random.Random], dict[str, Any]]


def subset(rng: random.Random, items: Sequence[Any], low: int = 0) -> list[Any]:
    chosen = [item for item in items if rng.random() < 0.5]
    while len(chosen) < low:
        chosen.append(rng.choice([i for i in items if i not in chosen]))
    if rng.random() < 0.3:
        rng.shuffle(chosen)
    return chosen


def _string_map(rng: random.Random, keys: Sequence[str], values: Sequence[str] = ("x", "y")) -> dict[str, str]:
    return {k: rng.choice(values) for k in subset(rng, keys)}


def at(path: str, value: Any) -> dict[str, Any]:
    out: Any = value
    for part in reversed(path.split(".")):
        out = {part: out}
    result: dict[str, Any] = out
    return result


# -- knobs: one field (or one list) of a kind each -------------------------------------------------

def _labels(path: str) -> Knob:
    return lambda rng: at(path, _string_map(rng, ("app", "tier", "team")))


def _annotations(rng: random.Random) -> dict[str, Any]:
    return at("metadata.annotations", _string_map(rng, ("note", "owner"), ("1", "2")))


def _finalizers(rng: random.Random) -> dict[str, Any]:
    return at("metadata.finalizers", subset(rng, ("f.kgen.dev/a", "f.kgen.dev/b", "f.kgen.dev/c")))


def _port(rng: random.Random, key: str, numbers: Sequence[int]) -> dict[str, Any]:
    item: dict[str, Any] = {key: rng.choice(numbers)}
    if rng.random() < 0.8:  # protocol has a schema default (TCP): without it the key takes it
        item["protocol"] = rng.choice(("TCP", "UDP"))
    if rng.random() < 0.4:
        item["name"] = rng.choice(("web", "alt"))
    return item


def _unique(items: list[dict[str, Any]], keys: Sequence[str], defaults: dict[str, Any]) -> list[dict[str, Any]]:
    seen, out = set(), []
    for item in items:
        k = tuple(item.get(key, defaults.get(key)) for key in keys)
        if k not in seen:
            seen.add(k)
            out.append(item)
    return out


def _ports(rng: random.Random, key: str, numbers: Sequence[int]) -> list[dict[str, Any]]:
    return _unique([_port(rng, key, numbers) for _ in range(rng.randint(0, 3))], (key, "protocol"), {"protocol": "TCP"})


def _container(rng: random.Random, name: str) -> dict[str, Any]:
    c: dict[str, Any] = {"name": name}
    if rng.random() < 0.6:
        c["image"] = rng.choice(("img:1", "img:2"))
    if rng.random() < 0.3:
        c["args"] = [rng.choice(("-v", "-q", "--x")) for _ in range(rng.randint(0, 2))]
    if rng.random() < 0.2:
        c["command"] = ["run"]
    if rng.random() < 0.4:
        c["ports"] = _ports(rng, "containerPort", (80, 443, 8080))
    if rng.random() < 0.3:
        c["env"] = [{"name": n, "value": rng.choice(("1", "2"))} for n in subset(rng, ("A", "B"))]
    if rng.random() < 0.2:
        c["resources"] = {"limits": _string_map(rng, ("cpu", "memory"), ("1", "2"))}
    return c


def _containers(path: str) -> Knob:
    return lambda rng: at(path, [_container(rng, n) for n in subset(rng, ("main", "side", "init"), low=1)])


def _tolerations(path: str) -> Knob:
    return lambda rng: at(path, [{"key": k, "operator": "Exists"} for k in subset(rng, ("t1", "t2"))])


def _node_selector(path: str) -> Knob:
    return lambda rng: at(path, _string_map(rng, ("zone", "disk")))


def _conditions(rng: random.Random) -> dict[str, Any]:
    return at("status.conditions", [{"type": t, "status": rng.choice(("True", "False"))}
                                     for t in subset(rng, ("Ready", "Progressing", "Available"))])


KNOBS: dict[str, dict[str, Knob]] = {
    "apps/v1 Deployment": {
        "labels": _labels("metadata.labels"),
        "annotations": _annotations,
        "finalizers": _finalizers,
        "replicas": lambda rng: at("spec.replicas", rng.choice((1, 2, 3))),
        "selector": lambda rng: at("spec.selector", {"matchLabels": _string_map(rng, ("app", "tier"))}),
        "strategy": lambda rng: at("spec.strategy", rng.choice(
            ({"type": "Recreate"}, {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": rng.choice((1, 2))}}))),
        "template-labels": _labels("spec.template.metadata.labels"),
        "containers": _containers("spec.template.spec.containers"),
        "tolerations": _tolerations("spec.template.spec.tolerations"),
        "nodeSelector": _node_selector("spec.template.spec.nodeSelector"),
    },
    "v1 ConfigMap": {
        "labels": _labels("metadata.labels"),
        "annotations": _annotations,
        "finalizers": _finalizers,
        "data": lambda rng: at("data", _string_map(rng, ("k1", "k2", "k3", "k4"), ("a", "b"))),
        "binaryData": lambda rng: at("binaryData", _string_map(rng, ("b1", "b2"), ("AA==", "AQ=="))),
        "immutable": lambda rng: at("immutable", rng.choice((True, False))),
    },
    "v1 Service": {
        "labels": _labels("metadata.labels"),
        "finalizers": _finalizers,
        "ports": lambda rng: at("spec.ports", _ports(rng, "port", (80, 443))),
        "selector": lambda rng: at("spec.selector", _string_map(rng, ("app", "tier"))),
        # ClusterIP only: other types make the apiserver allocate node ports after its field
        # manager ran, which tests/integration/test_ssa_oracle_vs_server.py cannot tell apart
        "type": lambda rng: at("spec.type", "ClusterIP"),
        "externalIPs": lambda rng: at("spec.externalIPs", subset(rng, ("10.0.0.1", "10.0.0.2"))),
    },
    "v1 Pod": {
        "labels": _labels("metadata.labels"),
        "annotations": _annotations,
        "containers": _containers("spec.containers"),
        "tolerations": _tolerations("spec.tolerations"),
        "nodeSelector": _node_selector("spec.nodeSelector"),
        "restartPolicy": lambda rng: at("spec.restartPolicy", rng.choice(("Always", "Never"))),
    },
    "ssa.kgen.dev/v1 Gizmo": {
        "labels": _labels("metadata.labels"),
        "finalizers": _finalizers,
        "replicas": lambda rng: at("spec.replicas", rng.choice((1, 2))),
        "mode": lambda rng: at("spec.mode", rng.choice(("fast", "slow"))),
        "tags": lambda rng: at("spec.tags", subset(rng, ("red", "green", "blue"))),
        "args": lambda rng: at("spec.args", [rng.choice(("-a", "-b")) for _ in range(rng.randint(0, 2))]),
        "plain": lambda rng: at("spec.plain", [rng.randint(1, 3) for _ in range(rng.randint(0, 2))]),
        "workers": lambda rng: at("spec.workers", [
            {"name": n, **({"image": rng.choice(("i1", "i2"))} if rng.random() < 0.6 else {}),
             **({"size": rng.choice((1, 2))} if rng.random() < 0.5 else {}),
             **({"env": [{"key": k, "value": rng.choice(("1", "2"))} for k in subset(rng, ("K", "L"))]}
                if rng.random() < 0.4 else {})}
            for n in subset(rng, ("w1", "w2", "w3"))]),
        "endpoints": lambda rng: at("spec.endpoints", _unique(
            [{"port": rng.choice((1, 2)), "protocol": rng.choice(("TCP", "UDP")),
              **({"name": rng.choice(("e", "f"))} if rng.random() < 0.5 else {})} for _ in range(rng.randint(0, 3))],
            ("port", "protocol"), {})),
        "spec-labels": lambda rng: at("spec.labels", _string_map(rng, ("p", "q", "r"))),
        "selector": lambda rng: at("spec.selector", _string_map(rng, ("s", "t"))),
        "target": lambda rng: at("spec.target", {k: rng.choice(("x", "y")) for k in subset(rng, ("kind", "name"))}),
        "template": lambda rng: at("spec.template", {
            **({"color": rng.choice(("c1", "c2"))} if rng.random() < 0.5 else {}),
            **({"size": rng.choice((1, 2))} if rng.random() < 0.5 else {}),
            **({"inner": _string_map(rng, ("a", "b"))} if rng.random() < 0.6 else {})}),
    },
    # examples/sample_controller/crd.yaml: the custom resource the other tests use
    "samplecontroller.kgen.dev/v1alpha1 Foo": {
        "labels": _labels("metadata.labels"),
        "annotations": _annotations,
        "deploymentName": lambda rng: at("spec.deploymentName", rng.choice(("d1", "d2"))),
        "replicas": lambda rng: at("spec.replicas", rng.choice((0, 1, 2))),
    },
}

STATUS_KNOBS: dict[str, dict[str, Knob]] = {
    "apps/v1 Deployment": {
        "replicas": lambda rng: at("status.replicas", rng.choice((0, 1, 2))),
        "conditions": _conditions,
    },
    "v1 Service": {
        "ingress": lambda rng: at("status.loadBalancer.ingress", [{"ip": ip} for ip in subset(rng, ("1.1.1.1", "2.2.2.2"))]),
        "conditions": lambda rng: at("status.conditions", [
            {"type": t, "status": "True", "reason": "R", "message": "", "lastTransitionTime": "2020-01-01T00:00:00Z"}
            for t in subset(rng, ("A", "B"))]),
    },
    "v1 Pod": {
        "phase": lambda rng: at("status.phase", rng.choice(("Pending", "Running"))),
        "conditions": _conditions,
    },
    "ssa.kgen.dev/v1 Gizmo": {
        "phase": lambda rng: at("status.phase", rng.choice(("on", "off"))),
        "ready": lambda rng: at("status.ready", rng.choice((0, 1))),
        "conditions": lambda rng: at("status.conditions", [
            {"type": t, **({"status": rng.choice(("True", "False"))} if rng.random() < 0.7 else {})}
            for t in subset(rng, ("Ready", "Synced"))]),
    },
}

STATUS_KNOBS["samplecontroller.kgen.dev/v1alpha1 Foo"] = {
    "availableReplicas": lambda rng: at("status.availableReplicas", rng.choice((0, 1))),
    "observedGeneration": lambda rng: at("status.observedGeneration", rng.choice((1, 2))),
}

KINDS = tuple(KNOBS)


def deep_merge(base: dict[str, Any], extra: dict[str, Any]) -> dict[str, Any]:
    """``extra`` merged into a copy of ``base``: maps recursively, anything else replaced."""
    out = copy.deepcopy(base)
    for k, v in extra.items():
        if isinstance(v, dict) and isinstance(out.get(k), dict):
            out[k] = deep_merge(out[k], v)
        else:
            out[k] = copy.deepcopy(v)
    return out
