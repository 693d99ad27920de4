"""The apiserver's patch formats, applied to plain JSON values (apimachinery's jsonpatch and strategicpatch).

    json_patch(doc, ops)                 JSON patch, as the apiserver applies it (re-exported from
                                         ``jsonpatch``, which lists its deviations from RFC 6902)
    merge_patch(doc, patch)              JSON merge patch, likewise (from ``mergepatch``, RFC 7386's deviations)
    strategic_merge_patch(doc, patch)    Kubernetes' strategic merge patch, approximated without schemas

The strategic merge patch knows no Go struct tags here, so one rule stands in for the
``patchMergeKey`` markers: a list whose items are all objects carrying ``name`` merges item by
item on ``name`` (containers, env, volumes, ports with names...), a list of ``conditions`` merges
on ``type``; every other list is replaced whole. The ``$patch`` (``delete``, ``replace``, ``merge``),
``$deleteFromPrimitiveList/<field>`` and ``$setElementOrder/<field>`` directives are understood.
Inputs are never modified: every function returns a new value.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import msgspec

from kgen.runtime.apimachinery.jsonpatch import PatchError, json_patch
from kgen.runtime.apimachinery.mergepatch import merge_patch

__all__ = ["PatchError", "json_patch", "list_merge_key", "merge_patch", "strategic_merge_patch"]


def _copy(value: Any) -> Any:
    return msgspec.json.decode(msgspec.json.encode(value))


# -- strategic merge patch ----------------------------------------------------------------------

_DIRECTIVE = "$patch"
_DELETE_FROM = "$deleteFromPrimitiveList/"
_ELEMENT_ORDER = "$setElementOrder/"
_RETAIN_KEYS = "$retainKeys"


def list_merge_key(field: str, items: Sequence[Any]) -> str | None:
    """The key a list's items merge on, or None for a list that is replaced (atomic).

    A stand-in for the schema's ``patchMergeKey``/``x-kubernetes-list-map-keys``, shared by
    strategic merge patch and server-side apply so both treat a list alike."""
    if not items or not all(isinstance(item, Mapping) for item in items):
        return None
    if all(isinstance(item.get("name"), str) for item in items):
        return "name"
    if field == "conditions" and all(isinstance(item.get("type"), str) for item in items):
        return "type"
    return None


def strategic_merge_patch(doc: Any, patch: Any) -> Any:
    """``doc`` with the strategic merge ``patch`` applied (see the module docstring for the rules)."""
    if not isinstance(patch, dict):
        return _copy(patch)
    return _merge_map(doc if isinstance(doc, dict) else {}, patch)


def _merge_map(original: Mapping[str, Any], patch: Mapping[str, Any]) -> Any:
    directive = patch.get(_DIRECTIVE)
    if directive == "replace":
        return {k: _strip(v) for k, v in patch.items() if k != _DIRECTIVE}
    if directive == "delete":
        return None
    result: dict[str, Any] = _copy(original)
    retain = patch.get(_RETAIN_KEYS)
    for key, value in patch.items():
        if key in (_DIRECTIVE, _RETAIN_KEYS) or key.startswith(_ELEMENT_ORDER):
            continue
        if key.startswith(_DELETE_FROM):
            field = key[len(_DELETE_FROM):]
            if isinstance(result.get(field), list) and isinstance(value, list):
                result[field] = [item for item in result[field] if item not in value]
            continue
        if value is None:
            result.pop(key, None)
        elif isinstance(value, dict):
            merged = _merge_map(result[key] if isinstance(result.get(key), dict) else {}, value)
            if merged is None:
                result.pop(key, None)
            else:
                result[key] = merged
        elif isinstance(value, list):
            result[key] = _merge_list(key, result.get(key), value)
        else:
            result[key] = value
    if isinstance(retain, list):
        result = {k: v for k, v in result.items() if k in retain}
    return result


def _merge_list(field: str, original: Any, patch: list[Any]) -> list[Any]:
    current: list[Any] = _copy(original) if isinstance(original, list) else []
    plain = [item for item in patch if not (isinstance(item, dict) and item.get(_DIRECTIVE))]
    if any(isinstance(item, dict) and item.get(_DIRECTIVE) == "replace" for item in patch):
        return [_strip(item) for item in plain]
    key = list_merge_key(field, [*current, *[item for item in patch if isinstance(item, dict)]])
    if key is None:
        return [_strip(item) for item in plain]
    live_order = [item.get(key) for item in current]
    deleted = {item.get(key) for item in patch if item.get(_DIRECTIVE) == "delete"}
    patched: list[Any] = []
    for item in plain:
        have = next((h for h in current if h.get(key) == item.get(key)), None)
        patched.append(_strip(item) if have is None else _merge_map(have, item))
    in_patch = {item.get(key) for item in plain} | deleted
    server_only = [item for item in current if item.get(key) not in in_patch]
    return _interleave(server_only, patched, live_order, key)


def _interleave(server_only: list[Any], patched: list[Any], live_order: list[Any], key: str) -> list[Any]:
    """The apiserver's order for a merged list (strategicpatch's mergeSortedSlice): both lists
    keep their own order and meet by position in the live list, where new items count as first."""

    def rank(item: Any) -> int:
        value = item.get(key)
        return live_order.index(value) if value in live_order else -1

    merged: list[Any] = []
    i = j = 0
    while i < len(server_only) and j < len(patched):
        if rank(server_only[i]) < rank(patched[j]):
            merged.append(server_only[i])
            i += 1
        else:
            merged.append(patched[j])
            j += 1
    return merged + server_only[i:] + patched[j:]


def _strip(value: Any) -> Any:
    """``value`` without patch directives, as it is stored."""
    if isinstance(value, dict):
        return {
            k: _strip(v) for k, v in value.items()
            if not (k.startswith("$") and (k in (_DIRECTIVE, _RETAIN_KEYS) or "/" in k))
        }
    if isinstance(value, list):
        return [_strip(item) for item in value]
    return value
