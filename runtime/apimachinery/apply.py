"""Apply configurations: partial objects for server-side apply, and ``extract``.

A generated model sends only the fields that were set (``None`` ones stay off the wire), and a
schema-required field missing from ``from_dict``'s input stays off the wire too (it reads as its
zero value and is remembered as absent), so a model read from just the fields you own *is* an
apply configuration::

    cs.apps_v1.deployments("ns").apply(
        Deployment.from_dict({"apiVersion": "apps/v1", "kind": "Deployment",
                              "metadata": {"name": "web"}, "spec": {"replicas": 3}}),
        field_manager="my-controller")

``extract(live, "my-controller")`` is client-go's ``ExtractX``: from a live object, the fields
that manager owns (per ``metadata.managedFields``), ready to modify and apply again — without
accidentally claiming fields other managers own.
"""

from __future__ import annotations

import json
from typing import Any, TypeVar

from kgen.runtime.apimachinery.model import Model

M = TypeVar("M", bound=Model)


def _prune(value: Any, fields: dict[str, Any]) -> Any:
    """The part of ``value`` that a FieldsV1 set covers."""
    if isinstance(value, dict):
        out: dict[str, Any] = {}
        for key, sub in fields.items():
            if key.startswith("f:") and key[2:] in value:
                name = key[2:]
                out[name] = value[name] if _is_leaf(sub) else _prune(value[name], sub)
        return out
    if isinstance(value, list):
        items: list[Any] = []
        for key, sub in fields.items():
            if key.startswith("k:"):
                wanted = json.loads(key[2:])
                for item in value:
                    if isinstance(item, dict) and all(item.get(k) == v for k, v in wanted.items()):
                        kept = item if _is_leaf(sub) else {**wanted, **_prune(item, sub)}
                        items.append(kept)
            elif key.startswith("v:"):
                wanted_value = json.loads(key[2:])
                items += [item for item in value if item == wanted_value]
            elif key.startswith("i:"):
                index = int(key[2:])
                if index < len(value):
                    items.append(value[index] if _is_leaf(sub) else _prune(value[index], sub))
        return items
    return value


def _is_leaf(fields: Any) -> bool:
    return not isinstance(fields, dict) or not [k for k in fields if k != "."]


def extract(obj: M, field_manager: str, subresource: str = "") -> M:
    """The fields of ``obj`` that ``field_manager`` owns through apply, as an object of its type."""
    live = obj.to_dict()
    entries = (live.get("metadata") or {}).get("managedFields") or []
    owned: dict[str, Any] = {}
    for entry in entries:
        if (
            entry.get("manager") == field_manager
            and entry.get("operation") == "Apply"
            and (entry.get("subresource") or "") == subresource
        ):
            owned = entry.get("fieldsV1") or {}
    result = _prune(live, owned)
    meta = live.get("metadata") or {}
    result.setdefault("metadata", {})
    for key in ("name", "namespace"):
        if key in meta:
            result["metadata"][key] = meta[key]
    for key in ("apiVersion", "kind"):
        if key in live:
            result[key] = live[key]
    return type(obj).from_dict(result)
