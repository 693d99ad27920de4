"""Go's JSON decode error for a built-in kind's wrongly typed field (``encoding/json``'s
``UnmarshalTypeError``, as the apiserver's codec quotes it in its 400).

The apiserver decodes a built-in object into Go structs before anything is validated: a string
where Go has an int32, an object where it has a string, fails the whole request with
``json: cannot unmarshal <JSON kind> into Go struct field <Struct>.<path> of type <Go type>``: the
first such field in the document's order, ``<Struct>`` the Go type holding the field, ``<path>``
the JSON names from the object's root without list indices, ``<Go type>`` the field's
(``string``, ``int32``, ``bool``, ``[]v1.Container``, ``map[string]string``, ``v1.PodSpec``).
Types with their own decoders (quantities, int-or-strings, times, raw extensions) word their
errors otherwise: ``go_decode_error`` leaves them (None) to the schema walk.

A ``null`` list item or map value is no error to Go: it decodes as the element type's zero value
(an empty struct, ``""``, ``0``, ``false``), which validation then judges (``nulls_decoded``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kgen.runtime.apimachinery.validation.structural import FieldError

__all__ = ["go_decode_error", "is_null_item_error", "nulls_decoded"]

Schema = dict[str, Any]
_CUSTOM = ("int-or-string", "date-time", "byte")
_INTS = {"int32": "int32", "int64": "int64"}


class _Custom(Exception):
    """A value of a type with its own UnmarshalJSON: not worded here."""


def _ref(node: Schema) -> str | None:
    if "$ref" in node:
        return str(node["$ref"])
    for part in node.get("allOf") or ():
        if isinstance(part, dict) and "$ref" in part:
            return str(part["$ref"])
    return None


def _go_type(node: Schema, resolve: Callable[[str], Schema]) -> str:
    """The Go type a schema node decodes into."""
    ref = _ref(node)
    if ref is not None:
        target = resolve(ref)
        if target.get("type") != "object" or "properties" not in target:
            raise _Custom(ref)
        package, _, name = ref.rpartition(".")
        return f"{package.rpartition('.')[2]}.{name}"
    kind = node.get("type")
    if node.get("format") in _CUSTOM or node.get("x-kubernetes-int-or-string"):
        raise _Custom(str(node.get("format")))
    if kind == "string":
        return "string"
    if kind == "boolean":
        return "bool"
    if kind == "integer":
        return _INTS.get(str(node.get("format")), "int64")
    if kind == "number":
        return "float64"
    if kind == "array":
        return "[]" + _go_type(node.get("items") or {}, resolve)
    if kind == "object" and isinstance(node.get("additionalProperties"), dict):
        return "map[string]" + _go_type(node["additionalProperties"], resolve)
    raise _Custom(str(kind))


def _json_kind(value: Any) -> str:
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    return "array" if isinstance(value, list) else "object" if isinstance(value, dict) else ""


def _fits(value: Any, go_type: str) -> bool:
    """Whether encoding/json decodes the JSON ``value`` into ``go_type`` without a type error
    (numbers into integers are left to the walk: their errors quote the literal)."""
    kind = _json_kind(value)
    if go_type.startswith("[]"):
        return kind == "array"
    if go_type.startswith("map[") or "." in go_type:
        return kind == "object"
    return {"string": "string", "bool": "bool"}.get(go_type, "number") == kind


def _first(value: Any, node: Schema, struct: str, path: str, resolve: Callable[[str], Schema]) -> str | None:
    if value is None:
        return None
    try:
        go_type = _go_type(node, resolve)
    except _Custom:  # its own decoder: a string or number it takes, anything else is the walk's to word
        if isinstance(value, (str, int, float)) and not isinstance(value, bool):
            return None
        raise
    if not _fits(value, go_type):
        return f"json: cannot unmarshal {_json_kind(value)} into Go struct field {struct}.{path} of type {go_type}"
    ref = _ref(node)
    if ref is not None:
        props = resolve(ref).get("properties") or {}
        for key, item in value.items():
            if key in props:
                found = _first(item, props[key], ref.rpartition(".")[2], f"{path}.{key}", resolve)
                if found:
                    return found
    elif isinstance(value, list):
        for item in value:
            found = _first(item, node.get("items") or {}, struct, path, resolve)
            if found:
                return found
    elif isinstance(value, dict) and isinstance(node.get("additionalProperties"), dict):
        for item in value.values():
            found = _first(item, node["additionalProperties"], struct, path, resolve)
            if found:
                return found
    return None


def go_decode_error(obj: dict[str, Any], definition: str, resolve: Callable[[str], Schema]) -> FieldError | None:
    """The 400 Go's decoder answers ``obj`` (of the built-in kind ``definition``) with, as a
    ``BadRequest`` FieldError carrying Go's message; None when every field decodes, or when the
    first bad one is of a type with its own decoder (the walk's errors stand)."""
    props = resolve(definition).get("properties") or {}
    name = definition.rpartition(".")[2]
    try:
        for key, value in obj.items():
            if key in props:
                found = _first(value, props[key], name, key, resolve)
                if found:
                    return FieldError("BadRequest", "", found)
    except _Custom:
        return None
    return None


_ZEROS = {"string": "", "integer": 0, "number": 0, "boolean": False, "array": [], "object": {}}


def _zero(node: Schema, resolve: Callable[[str], Schema]) -> Any:
    ref = _ref(node)
    target = resolve(ref) if ref is not None else node
    if target.get("x-kubernetes-int-or-string") or target.get("format") == "int-or-string":
        return 0
    if ref is not None and "properties" not in target:  # a quantity or time: its decoder's zero
        return None
    return _ZEROS.get(str(target.get("type")), {} if ref is not None else None)


def _decoded(value: Any, node: Schema, resolve: Callable[[str], Schema]) -> Any:
    ref = _ref(node)
    if ref is not None:
        node = resolve(ref)
    if isinstance(value, list):
        items = node.get("items") or {}
        return [_zero(items, resolve) if v is None else _decoded(v, items, resolve) for v in value]
    if isinstance(value, dict):
        props, extra = node.get("properties"), node.get("additionalProperties")
        if isinstance(props, dict):
            return {k: _decoded(v, props[k], resolve) if k in props else v for k, v in value.items()}
        if isinstance(extra, dict):
            return {k: _zero(extra, resolve) if v is None else _decoded(v, extra, resolve) for k, v in value.items()}
    return value


def nulls_decoded(obj: dict[str, Any], definition: str, resolve: Callable[[str], Schema]) -> dict[str, Any]:
    """``obj`` with each ``null`` list item and map value replaced by the zero value Go decodes it
    as (a ``null`` struct field stays: Go leaves the field at its zero, which validators read as absent)."""
    decoded = _decoded(obj, {"$ref": definition}, resolve)
    return decoded if isinstance(decoded, dict) else obj


def is_null_item_error(error: FieldError) -> bool:
    """Whether the schema walk's ``error`` is a ``null`` list item or map value of the wrong type,
    which Go decodes as a zero value instead."""
    return error.message.startswith('Invalid value: "null":') and error.message.endswith(': "null"')
