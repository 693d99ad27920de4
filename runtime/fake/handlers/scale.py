"""The ``scale`` subresource: an ``autoscaling/v1`` Scale view of a workload's replicas.

What ``kubectl scale`` and the HorizontalPodAutoscaler use. Served for the built-in scalable
kinds and for custom resources with a ``spec.replicas`` (the fake's stand-in for a CRD's
``subresources.scale``); reading it builds the Scale from the object, writing it sets only
``spec.replicas`` (bumping the generation) under the object's resourceVersion.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kgen.runtime.fake.errors import bad_request, invalid, no_route
from kgen.runtime.fake.request import Call, Reply, Route
from kgen.runtime.fake.store import Obj, Store, as_dict, builtin, copy, meta
from kgen.runtime.fake.handlers.writes import check_version, record_update, save
from kgen.runtime.fake.schema import versions

_SCALABLE_KINDS = frozenset({"Deployment", "ReplicaSet", "StatefulSet", "ReplicationController"})


def scale_of(route: Route, obj: Obj) -> Obj:
    """The Scale of ``obj``; 404 for a resource without a scale subresource."""
    spec = as_dict(obj.get("spec"))
    if route.info.kind not in _SCALABLE_KINDS and (builtin(route.info.group) or "replicas" not in spec):
        raise no_route()
    status = as_dict(obj.get("status"))
    obj_meta = meta(obj)
    selector = status.get("selector") if isinstance(status.get("selector"), str) else _label_selector_string(spec.get("selector"))
    return {
        "kind": "Scale", "apiVersion": "autoscaling/v1",
        "metadata": {k: obj_meta[k] for k in ("name", "namespace", "uid", "resourceVersion", "creationTimestamp") if k in obj_meta},
        "spec": {"replicas": spec.get("replicas", 0)},
        "status": {"replicas": status.get("replicas", 0), **({"selector": selector} if selector else {})},
    }


def get_scale(store: Store, route: Route) -> Reply:
    """The scale subresource of the route's object."""
    return Reply(200, scale_of(route, versions.read(store, route.info, route.key)))


def update_scale(store: Store, route: Route, call: Call) -> Reply:
    """Write the scale subresource of the route's object from the request's Scale."""
    body = call.json()
    if not isinstance(body, dict):
        raise bad_request("the body of the request must be a Scale")
    return write_scale(store, route, call, versions.read(store, route.info, route.key), body)


def write_scale(store: Store, route: Route, call: Call, stored: Obj, scale: Obj) -> Reply:
    """Writes a Scale (a PUT's body or a patch's result) to ``stored``'s ``spec.replicas``."""
    scale_of(route, stored)  # 404 for resources without a scale subresource
    if meta(scale).get("resourceVersion"):  # none: the parent's own (the registries' scaleUpdatedObjectInfo)
        check_version(route, stored, scale)
    replicas = (scale.get("spec") or {}).get("replicas")
    if not isinstance(replicas, int) or replicas < 0:
        raise invalid("Scale", route.name, "spec.replicas", "FieldValueInvalid", f"Invalid value: {replicas!r}")
    new: Obj = copy(stored)
    new.setdefault("spec", {})["replicas"] = replicas
    new_meta = new["metadata"]
    if "generation" in new_meta and replicas != (stored.get("spec") or {}).get("replicas"):
        new_meta["generation"] = int(new_meta["generation"]) + 1
    record_update(store, route, call, stored, new)
    return Reply(200, scale_of(route, save(store, route, stored, new, call.dry_run)))


def _label_selector_string(selector: Any) -> str:
    """A LabelSelector (or an RC's plain map) in its string form, as Scale.status.selector has it."""
    if not isinstance(selector, Mapping):
        return ""
    if "matchLabels" not in selector and "matchExpressions" not in selector:
        return ",".join(f"{k}={v}" for k, v in sorted(selector.items()))
    terms = [f"{k}={v}" for k, v in sorted((selector.get("matchLabels") or {}).items())]
    for expr in selector.get("matchExpressions") or []:
        key, op, values = expr.get("key"), expr.get("operator"), sorted(expr.get("values") or [])
        terms.append({
            "In": f"{key} in ({','.join(values)})", "NotIn": f"{key} notin ({','.join(values)})",
            "Exists": f"{key}", "DoesNotExist": f"!{key}",
        }.get(op, ""))
    return ",".join(sorted(t for t in terms if t))
