"""The apiserver's patch formats, applied to plain JSON values (apimachinery's jsonpatch and strategicpatch).

    json_patch(doc, ops)                 RFC 6902: add, remove, replace, move, copy, test
    merge_patch(doc, patch)              RFC 7386: maps merge, ``null`` deletes, everything else replaces
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

__all__ = ["PatchError", "json_patch", "list_merge_key", "merge_patch", "strategic_merge_patch"]


class PatchError(ValueError):
    """A patch that cannot be applied (bad operation, missing path, failed ``test``)."""


def _copy(value: Any) -> Any:
    return msgspec.json.decode(msgspec.json.encode(value))


# -- RFC 6902 JSON patch ----------------------------------------------------------------------


def _pointer(path: str) -> list[str]:
    if path == "":
        return []
    if not path.startswith("/"):
        raise PatchError(f"invalid JSON pointer {path!r}: must start with '/'")
    return [part.replace("~1", "/").replace("~0", "~") for part in path[1:].split("/")]


def _index(container: list[Any], token: str, *, adding: bool) -> int:
    if adding and token == "-":
        return len(container)
    if not token.isdigit() or (len(token) > 1 and token.startswith("0")):
        raise PatchError(f"invalid array index {token!r}")
    index = int(token)
    if index > len(container) or (not adding and index == len(container)):
        raise PatchError(f"array index {index} out of bounds")
    return index


def _parent(doc: Any, tokens: list[str]) -> Any:
    node = doc
    for token in tokens[:-1]:
        if isinstance(node, dict):
            if token not in node:
                raise PatchError(f"path /{'/'.join(tokens)}: no member {token!r}")
            node = node[token]
        elif isinstance(node, list):
            node = node[_index(node, token, adding=False)]
        else:
            raise PatchError(f"path /{'/'.join(tokens)}: {token!r} is inside a scalar")
    return node


def _get(doc: Any, tokens: list[str]) -> Any:
    if not tokens:
        return doc
    parent = _parent(doc, tokens)
    last = tokens[-1]
    if isinstance(parent, dict):
        if last not in parent:
            raise PatchError(f"path /{'/'.join(tokens)} does not exist")
        return parent[last]
    if isinstance(parent, list):
        return parent[_index(parent, last, adding=False)]
    raise PatchError(f"path /{'/'.join(tokens)} does not exist")


def _add(doc: Any, tokens: list[str], value: Any) -> Any:
    if not tokens:
        return value
    parent = _parent(doc, tokens)
    last = tokens[-1]
    if isinstance(parent, dict):
        parent[last] = value
    elif isinstance(parent, list):
        parent.insert(_index(parent, last, adding=True), value)
    else:
        raise PatchError(f"path /{'/'.join(tokens)}: cannot add to a scalar")
    return doc


def _remove(doc: Any, tokens: list[str]) -> Any:
    if not tokens:
        raise PatchError("cannot remove the whole document")
    parent = _parent(doc, tokens)
    last = tokens[-1]
    if isinstance(parent, dict):
        if last not in parent:
            raise PatchError(f"path /{'/'.join(tokens)} does not exist")
        del parent[last]
    elif isinstance(parent, list):
        del parent[_index(parent, last, adding=False)]
    else:
        raise PatchError(f"path /{'/'.join(tokens)} does not exist")
    return doc


def json_patch(doc: Any, operations: Any) -> Any:
    """``doc`` with the RFC 6902 ``operations`` applied, all or nothing."""
    if not isinstance(operations, list):
        raise PatchError("a JSON patch is a list of operations")
    result = _copy(doc)
    for op in operations:
        if not isinstance(op, dict) or not isinstance(op.get("path"), str):
            raise PatchError(f"invalid JSON patch operation {op!r}")
        kind, tokens = op.get("op"), _pointer(op["path"])
        if kind in ("add", "replace", "test") and "value" not in op:
            raise PatchError(f"{kind} operation without a value")
        if kind == "add":
            result = _add(result, tokens, _copy(op["value"]))
        elif kind == "remove":
            result = _remove(result, tokens)
        elif kind == "replace":
            _get(result, tokens)  # must exist
            result = _add(_remove(result, tokens) if tokens else result, tokens, _copy(op["value"]))
        elif kind in ("move", "copy"):
            if not isinstance(op.get("from"), str):
                raise PatchError(f"{kind} operation without 'from'")
            source = _pointer(op["from"])
            value = _copy(_get(result, source))
            if kind == "move":
                if tokens[: len(source)] == source and tokens != source:
                    raise PatchError("cannot move a value into one of its children")
                result = _remove(result, source)
            result = _add(result, tokens, value)
        elif kind == "test":
            if _get(result, tokens) != op["value"]:
                raise PatchError(f"testing value {op['path']} failed")
        else:
            raise PatchError(f"unknown JSON patch operation {kind!r}")
    return result


# -- RFC 7386 JSON merge patch ------------------------------------------------------------------


def merge_patch(doc: Any, patch: Any) -> Any:
    """``doc`` with the RFC 7386 merge ``patch`` applied."""
    if not isinstance(patch, dict):
        return _copy(patch)
    result: dict[str, Any] = _copy(doc) if isinstance(doc, dict) else {}
    for key, value in patch.items():
        if value is None:
            result.pop(key, None)
        else:
            result[key] = merge_patch(result.get(key), value)
    return result


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
