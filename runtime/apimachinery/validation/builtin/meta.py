"""What the built-in kinds' validators share: their ObjectMeta (``objectmeta.validate_object_meta``
as the apiserver calls it, after the request filled in what the URL and generateName give) and
label selectors as Go reads them (``metav1.LabelSelectorAsSelector`` and ``Matches``), with the
selector printed as the causes print a ``metav1.LabelSelector``."""

from __future__ import annotations

import json
from typing import Any

from kgen.runtime.apimachinery.validation.builtin import field
from kgen.runtime.apimachinery.validation.metav1 import validate_label_selector
from kgen.runtime.apimachinery.validation.objectmeta import (
    NameRule, kube_finalizers_for, name_is_dns_subdomain, validate_object_meta,
)
from kgen.runtime.apimachinery.validation.structural import FieldError

__all__ = ["go_struct", "object_meta", "selector_errors", "selector_json", "selector_matches", "spec_kept"]


def object_meta(obj: dict[str, Any], old: dict[str, Any] | None, group: str,
                name_rule: NameRule = name_is_dns_subdomain) -> list[FieldError]:
    """ValidateObjectMeta (ValidateObjectMetaUpdate with ``old``) of a namespaced built-in object as
    the apiserver sees it: a missing namespace is the request's (the URL's), a missing name the
    one generateName gives."""
    meta = dict(obj.get("metadata") or {}) if isinstance(obj.get("metadata"), dict) else {}
    if not meta.get("name") and isinstance(meta.get("generateName"), str) and meta["generateName"]:
        meta["name"] = meta["generateName"] + "x7k2q"
    namespaced = bool(meta.get("namespace"))
    old_meta = old.get("metadata") if old is not None else None
    return validate_object_meta(meta, namespaced=namespaced, name_rule=name_rule,
                                old=old_meta if isinstance(old_meta, dict) else None,
                                kube_finalizers=kube_finalizers_for(group))


def spec_kept(obj: dict[str, Any], old: dict[str, Any]) -> dict[str, Any]:
    """What a status strategy's PrepareForUpdate does first for a ``/status`` write: ``obj`` with the
    stored object's spec (none if ``old`` has none)."""
    out = {k: v for k, v in obj.items() if k != "spec"}
    return {**out, "spec": old["spec"]} if "spec" in old else out


def _go_json(value: Any) -> str:
    text = json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def go_struct(*fields: tuple[str, Any]) -> field.Shown:
    """A Go struct as encoding/json prints it: fields in declaration order (internal types have no
    json tags: their Go names)."""
    return field.Shown("{" + ",".join(f"{_go_json(k)}:{_go_json(v)}" for k, v in fields) + "}")


def selector_json(selector: Any) -> field.Shown:
    """A metav1.LabelSelector as json.Marshal prints it (omitempty; maps sorted)."""
    if not isinstance(selector, dict):
        return field.Shown("null")
    parts: list[tuple[str, Any]] = []
    labels = selector.get("matchLabels")
    if isinstance(labels, dict) and labels:
        parts.append(("matchLabels", dict(sorted(labels.items()))))
    exprs = selector.get("matchExpressions")
    if isinstance(exprs, list) and exprs:
        shown = []
        for req in exprs:
            req = req if isinstance(req, dict) else {}
            item: dict[str, Any] = {"key": req.get("key", ""), "operator": req.get("operator", "")}
            if req.get("values"):
                item["values"] = req["values"]
            shown.append(item)
        parts.append(("matchExpressions", shown))
    return go_struct(*parts)


def selector_errors(selector: Any) -> bool:
    """Whether LabelSelectorAsSelector fails on ``selector`` (a bad operator, key, value or value count)."""
    return bool(validate_label_selector(selector, "selector"))


def selector_matches(selector: Any, labels: Any) -> bool:
    """labels.Selector.Matches of LabelSelectorAsSelector(selector): nil matches nothing, ``{}`` everything."""
    if not isinstance(selector, dict):
        return False
    have = labels if isinstance(labels, dict) else {}
    for key, value in (selector.get("matchLabels") or {}).items():
        if have.get(key) != value:
            return False
    for req in selector.get("matchExpressions") or ():
        key, op, values = req.get("key"), req.get("operator"), req.get("values") or []
        if op == "In" and (key not in have or have[key] not in values):
            return False
        if op == "NotIn" and key in have and have[key] in values:
            return False
        if op == "Exists" and key not in have:
            return False
        if op == "DoesNotExist" and key in have:
            return False
    return True


def selector_empty(selector: Any) -> bool:
    """labels.Selector.Empty of LabelSelectorAsSelector(selector): only ``{}`` (nil is Nothing, not empty)."""
    return isinstance(selector, dict) and not selector.get("matchLabels") and not selector.get("matchExpressions")
