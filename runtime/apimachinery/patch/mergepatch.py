"""JSON merge patch exactly as the apiserver applies it, deviations from RFC 7386 included.

k8s.io/apiserver v0.37.2 (``pkg/endpoints/handlers/patch.go``, ``jsonPatcher.applyJSPatch``)
applies ``application/merge-patch+json`` with ``jsonpatch.MergePatch`` from
``gopkg.in/evanphx/json-patch.v4`` v4.13.0 (``merge.go``), and answers 400 for its
``ErrBadJSONPatch``, 500 for any other error. Where that differs from the RFC, so does this module:

- Nulls are pruned from a value that lands where the document had nothing (or a non-object),
  at every depth, including inside objects that are array items (``pruneNulls``); ``null``
  array items themselves stay. An array or scalar replacing an object is stored unpruned
  (``merge`` returns the patch as is when it is not an object).
- Under fieldValidation Strict or Warn (the apiserver's default), the body is first decoded with
  ``kjson.UnmarshalStrict`` into ``map[string]any``: an array or scalar patch is a 400
  ``error decoding patch``. Under Ignore, an array patch replaces the document (nulls pruned as
  above) and a scalar patch is ``Invalid JSON Patch`` (400); ``null`` is that 400 under all three.

The input is never modified: ``merge_patch`` works on a private copy and returns a new value.
"""

from __future__ import annotations

from typing import Any

import msgspec

from kgen.runtime.apimachinery.patch.jsonpatch import PatchBadRequest, PatchInternal
from kgen.runtime.apimachinery.patch.jsonpatch_v4 import json_kind

__all__ = ["merge_patch"]


def _fresh(value: Any) -> Any:
    return msgspec.json.decode(msgspec.json.encode(value))


def _pruned(value: Any) -> Any:
    """``pruneNulls``: drop null members of objects at every depth; null array items stay."""
    if isinstance(value, dict):
        return {k: _pruned(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [None if item is None else _pruned(item) for item in value]
    return value


def _merge(current: Any, patch: Any) -> Any:
    if not isinstance(current, dict):
        return _pruned(patch)
    if not isinstance(patch, dict):
        return patch  # unpruned: merge() returns a non-object patch as it is
    for key, value in patch.items():
        if value is None:
            current.pop(key, None)
        elif current.get(key) is None:
            current[key] = _pruned(value)
        else:
            current[key] = _merge(current[key], value)
    return current


def merge_patch(doc: Any, patch: Any, *, field_validation: str = "Warn") -> Any:
    """``doc`` with the JSON merge ``patch`` applied as the apiserver applies it (``MergePatch``;
    see the module docstring) for a request with that ``field_validation`` (the apiserver's
    default is Warn). Raises ``PatchBadRequest`` (400) for a patch that is not an object (under
    Ignore: a ``null`` or scalar one) and ``PatchInternal`` (500) for a ``null`` document."""
    if field_validation != "Ignore" and patch is not None and not isinstance(patch, dict):
        raise PatchBadRequest("error decoding patch: json: cannot unmarshal "
                              f"{json_kind(patch)} into Go value of type map[string]interface {{}}")
    if doc is None:
        raise PatchInternal("Invalid JSON Document")
    if patch is None:
        raise PatchBadRequest("Invalid JSON Patch")
    if isinstance(patch, list):
        return _pruned(_fresh(patch))
    if not isinstance(patch, dict):
        raise PatchBadRequest("Invalid JSON Patch")
    return _merge(_fresh(doc), _fresh(patch))
