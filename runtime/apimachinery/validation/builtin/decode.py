"""What Go's JSON decoding of a built-in kind refuses beyond the schema's types: quantities.

The published OpenAPI types a ``resource.Quantity`` as a string or a number, but decoding one
runs Go's ParseQuantity: ``1GB`` fails the whole request with a 400 (``<Kind> in version "v1"
cannot be handled as a <Kind>: quantities must match the regular expression ...``) before any
validation. The decoder stops at the first failure, in the order the object's keys were sent.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kgen.runtime.apimachinery.validation.builtin.quantity import QuantityError, parse
from kgen.runtime.apimachinery.validation.structural import FieldError, child

__all__ = ["first_decode_error"]

_QUANTITY = "io.k8s.apimachinery.pkg.api.resource.Quantity"
Schema = dict[str, Any]


def _ref(node: Schema) -> str | None:
    ref = node.get("$ref")
    if ref is None and isinstance(node.get("allOf"), list) and len(node["allOf"]) == 1:
        ref = node["allOf"][0].get("$ref")
    return ref.rsplit("/", 1)[-1] if isinstance(ref, str) else None


def first_decode_error(obj: Any, definition: str, resolve: Callable[[str], Schema]) -> FieldError | None:
    """The 400 Go's decoder answers ``obj`` (of the definition named ``definition``) with, when a
    quantity in it does not parse; else None."""
    return _walk(obj, {"$ref": definition}, "", resolve)


def _walk(value: Any, node: Schema, path: str, resolve: Callable[[str], Schema]) -> FieldError | None:
    ref = _ref(node)
    if ref == _QUANTITY:
        if value is None or isinstance(value, bool) or not isinstance(value, (str, int, float)):
            return None  # the schema walk reports wrong types
        try:
            parse(value)
        except QuantityError as e:
            return FieldError("BadRequest", path, str(e))
        return None
    if ref is not None:
        node = resolve(ref)
    if isinstance(value, dict):
        props = node.get("properties") or {}
        extra = node.get("additionalProperties")
        for key, item in value.items():
            sub = props.get(key, extra if isinstance(extra, dict) else None)
            if sub is not None:
                found = _walk(item, sub, child(path, key), resolve)
                if found is not None:
                    return found
    elif isinstance(value, list) and isinstance(node.get("items"), dict):
        for i, item in enumerate(value):
            found = _walk(item, node["items"], child(path, i), resolve)
            if found is not None:
                return found
    return None
