"""apimachinery's ``meta.Accessor`` and ``meta.ListAccessor``: the metadata of any object.

Every layer meets objects in two shapes: generated models (``obj.metadata.name``) and
unstructured dicts (``obj["metadata"]["name"]``), as the dynamic client and the fake hand them
out. These functions read both the same way, so no other module has to. A field that is absent,
``None`` or unset reads as ``""`` (or an empty mapping): the apiserver treats them alike, and a
key function or a resourceVersion comparison must not fail on a partial object.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kgen.runtime.apimachinery.errors import error_from_status

__all__ = [
    "annotations_of", "labels_of", "list_meta", "name_of", "namespace_and_name", "namespace_of",
    "resource_version_of", "type_meta", "uid_of",
]


def _get(obj: Any, wire: str, attr: str) -> Any:
    if isinstance(obj, dict):
        meta = obj.get("metadata")
        return meta.get(wire) if isinstance(meta, dict) else None
    meta = getattr(obj, "metadata", None)
    return getattr(meta, attr, None) if meta is not None else None


def _str(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _mapping(value: Any) -> Mapping[str, str]:
    return value if isinstance(value, dict) else {}


def name_of(obj: Any) -> str:
    """The object's metadata.name ("" without one), of a model or a dict."""
    return _str(_get(obj, "name", "name"))


def namespace_of(obj: Any) -> str:
    """The object's metadata.namespace ("" without one), of a model or a dict."""
    return _str(_get(obj, "namespace", "namespace"))


def namespace_and_name(obj: Any) -> tuple[str, str]:
    """(namespace, name) in one look-up: the cache's key functions call this for every object."""
    if isinstance(obj, dict):
        meta = obj.get("metadata")
        if not isinstance(meta, dict):
            return "", ""
        return _str(meta.get("namespace")), _str(meta.get("name"))
    meta = getattr(obj, "metadata", None)
    if meta is None:
        return "", ""
    return _str(getattr(meta, "namespace", None)), _str(getattr(meta, "name", None))


def resource_version_of(obj: Any) -> str:
    """The object's metadata.resourceVersion ("" without one), of a model or a dict."""
    return _str(_get(obj, "resourceVersion", "resource_version"))


def uid_of(obj: Any) -> str:
    """The object's metadata.uid ("" without one), of a model or a dict."""
    return _str(_get(obj, "uid", "uid"))


def labels_of(obj: Any) -> Mapping[str, str]:
    """The object's metadata.labels (empty without them), of a model or a dict."""
    return _mapping(_get(obj, "labels", "labels"))


def annotations_of(obj: Any) -> Mapping[str, str]:
    # Generated models call the field ``annotations``; packages generated before kgen kept
    # builtin-like names call it ``annotations_``.
    """The object's metadata.annotations (empty without them), of a model or a dict."""
    value = _get(obj, "annotations", "annotations")
    return _mapping(value if value is not None or isinstance(obj, dict) else _get(obj, "annotations", "annotations_"))


def type_meta(obj: Any) -> tuple[str, str]:
    """(apiVersion, kind): the object's own, else its model class's."""
    if isinstance(obj, dict):
        api_version, kind = obj.get("apiVersion"), obj.get("kind")
    else:
        api_version, kind = getattr(obj, "api_version", None), getattr(obj, "kind", None)
    return (
        _str(api_version) or _str(getattr(type(obj), "API_VERSION", None)),
        _str(kind) or _str(getattr(type(obj), "KIND", None)),
    )


def list_meta(lst: Any) -> tuple[list[Any], str, str]:
    """(items, resourceVersion, continue) of a typed or unstructured list.

    A ``Status`` where the list should be (a 410 inside a 200) raises its error.
    """
    if isinstance(lst, dict):
        if lst.get("kind") == "Status":
            raise error_from_status(lst)
        meta = lst.get("metadata")
        meta = meta if isinstance(meta, dict) else {}
        return list(lst.get("items") or []), _str(meta.get("resourceVersion")), _str(meta.get("continue"))
    if getattr(lst, "kind", None) == "Status":
        raise error_from_status(lst.to_dict())
    meta = getattr(lst, "metadata", None)
    rv = getattr(meta, "resource_version", None) if meta is not None else None
    token = getattr(meta, "continue_", None) if meta is not None else None
    return list(getattr(lst, "items", None) or []), _str(rv), _str(token)
