"""What a few built-in kinds' registry strategies do beyond the generic write (``writes``).

Each is a kind's ``PrepareForCreate`` or ``PrepareForUpdate`` in k8s.io/kubernetes
pkg/registry/<group>/<kind>/strategy.go (the same on 1.34 and 1.37), as clients can see it:

- a Pod is created ``Pending`` with its QoS class (``podStrategy.PrepareForCreate``:
  ``qos.ComputePodQOS`` of the defaulted pod), and a ``/status`` write without a QoS class keeps
  the stored one (``podStatusStrategy``: old kubelets dropped it);
- a DaemonSet's ``deprecated.daemonset.template.generation`` annotation is apps/v1's copy of the
  internal ``spec.templateGeneration``, which no write can set: every write keeps the stored
  value, and a main-resource write that changes the pod template moves it by one
  (``daemonSetStrategy.PrepareForUpdate``).
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from kgen.runtime.apimachinery.validation.builtin.quantity import QuantityError, parse
from kgen.runtime.apimachinery.patch.jsonpatch import json_equal
from kgen.runtime.fake.store import Obj, as_dict, meta
from kgen.runtime.gentype.resource import ResourceInfo

__all__ = ["prepare_for_create", "prepare_for_update"]

_TEMPLATE_GENERATION = "deprecated.daemonset.template.generation"
_QOS_RESOURCES = ("cpu", "memory")


def prepare_for_create(info: ResourceInfo, obj: Obj) -> None:
    """What the kind's strategy sets on a create, in place (after defaulting)."""
    if (info.group, info.plural) == ("", "pods"):
        obj["status"] = {"phase": "Pending", "qosClass": pod_qos_class(obj)}


def prepare_for_update(info: ResourceInfo, subresource: str, stored: Obj, new: Obj) -> None:
    """What the kind's strategy does to an update's result, in place (``subresource``: "" or "status")."""
    kind = (info.group, info.plural)
    if kind == ("", "pods") and subresource == "status":
        status, old_status = as_dict(new.get("status")), as_dict(stored.get("status"))
        if not status.get("qosClass") and old_status.get("qosClass"):
            new["status"] = {**status, "qosClass": old_status["qosClass"]}
    elif kind == ("apps", "daemonsets"):
        value = (meta(stored).get("annotations") or {}).get(_TEMPLATE_GENERATION)
        if value is None:
            return
        generation = int(value)
        old_template = as_dict(stored.get("spec")).get("template")
        if not subresource and not json_equal(old_template, as_dict(new.get("spec")).get("template")):
            generation += 1
        annotations = meta(new).setdefault("annotations", {})
        annotations[_TEMPLATE_GENERATION] = str(generation)


def pod_qos_class(pod: Obj) -> str:
    """``qos.ComputePodQOS``: BestEffort without a positive cpu or memory request or limit,
    Guaranteed when every container (or the pod-level resources, when set) limits both and the
    summed requests equal the summed limits, Burstable otherwise. Ephemeral containers do not count."""
    spec = as_dict(pod.get("spec"))
    requests: dict[str, Decimal] = {}
    limits: dict[str, Decimal] = {}
    guaranteed = True
    pod_level = spec.get("resources")  # a pointer in Go: present, even empty, it is what counts
    if isinstance(pod_level, dict):
        sources = [pod_level]
    else:
        sources = [as_dict(as_dict(c).get("resources")) for c in [*(spec.get("containers") or []), *(spec.get("initContainers") or [])]]
    for resources in sources:
        _add(requests, resources.get("requests"))
        found = _add(limits, resources.get("limits"))
        if isinstance(pod_level, dict) and not resources.get("limits"):
            continue  # pod-level resources without limits: Go checks the limits only when some are given
        if not all(name in found for name in _QOS_RESOURCES):
            guaranteed = False
    if not requests and not limits:
        return "BestEffort"
    if guaranteed and all(name in limits and limits[name] == amount for name, amount in requests.items()) and len(requests) == len(limits):
        return "Guaranteed"
    return "Burstable"


def _add(total: dict[str, Decimal], resources: Any) -> set[str]:
    """Adds the positive cpu and memory quantities of ``resources`` to ``total``; their names."""
    found: set[str] = set()
    for name, quantity in as_dict(resources).items():
        if name not in _QOS_RESOURCES:
            continue
        try:
            amount = parse(quantity)[0]
        except QuantityError:
            continue
        if amount > 0:
            found.add(name)
            total[name] = total.get(name, Decimal(0)) + amount
    return found
