"""Helpers for unstructured objects (plain dicts), like apimachinery's unstructured.Nested*."""

from __future__ import annotations

from collections.abc import MutableMapping
from typing import Any


def get_nested(obj: Any, *path: str, default: Any = None) -> Any:
    """``get_nested(pod, "spec", "nodeName")``: the value at ``path``, or ``default`` if any step is missing."""
    for key in path:
        if not isinstance(obj, dict) or key not in obj:
            return default
        obj = obj[key]
    return obj


def set_nested(obj: MutableMapping[str, Any], value: Any, *path: str) -> None:
    """Sets the value at ``path``, creating the maps on the way; refuses to overwrite a non-map."""
    if not path:
        raise ValueError("set_nested needs a path")
    for i, key in enumerate(path[:-1]):
        child = obj.setdefault(key, {})
        if not isinstance(child, dict):
            raise ValueError(f"{'.'.join(path[: i + 1])} is a {type(child).__name__}, not a map")
        obj = child
    obj[path[-1]] = value


def remove_nested(obj: MutableMapping[str, Any], *path: str) -> None:
    """Removes the value at ``path`` if it is there."""
    if not path:
        raise ValueError("remove_nested needs a path")
    parent = get_nested(obj, *path[:-1]) if len(path) > 1 else obj
    if isinstance(parent, dict):
        parent.pop(path[-1], None)
