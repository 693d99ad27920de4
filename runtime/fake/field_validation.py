"""``fieldValidation=Strict`` on a strategic merge patch, as the apiserver answers it.

handlers/patch.go ``applyPatchToObject`` merges the patch, then converts the result to the Go
type with ``FromUnstructuredWithValidation``: under Strict, fields the type lacks are one 422,
``field.Invalid(patch, fmt.Sprintf("%+v", patchMap), "strict decoding error: unknown field ...")``
(each field named by its path, ``spec.template.spec.containers[0].bogus``, sorted). Under Warn
(the default) they are warnings, under Ignore nothing; either way decoding prunes them.

The quoted ``patchMap`` is the patch *after* ``StrategicMergeMapPatch`` ran, which edits it in
place where it merged into something the original has: ``$retainKeys`` is deleted, a
``$patch: replace`` directive is deleted (and nothing under it is visited), and a
``$setElementOrder/<list>`` is deleted together with ``<list>`` itself. Inside a map or list
item the original lacks, the patch is copied as it is, directives included (the converter then
reports them as unknown fields). Checked against the real apiserver by
tests/integration/test_fake_vs_server.py (the strategic merge patches under Strict).
"""

from __future__ import annotations

from typing import Any

from kgen.runtime.apimachinery.gofmt import go_v
from kgen.runtime.apimachinery.jsonpatch_v4 import go_quote
from kgen.runtime.apimachinery.mergeschema import TypeSchema
from kgen.runtime.fake.errors import Failure
from kgen.runtime.fake.request import Call, Route
from kgen.runtime.fake.schema import unknown_fields

_SET_ELEMENT_ORDER = "$setElementOrder/"


def check_strict(route: Route, call: Call, patch: Any, original: Any, patched: Any, schema: TypeSchema | None) -> None:
    """The 422 above, if the request asks for Strict and ``patched`` has unknown fields."""
    if call.params.get("fieldValidation") != "Strict" or route.subresource == "scale" or not isinstance(patched, dict):
        return
    unknown = unknown_fields(route.info, patched)
    if not unknown:
        return
    reasons = ", ".join(f'unknown field "{path}"' for path in unknown)
    message = f"Invalid value: {go_quote(go_v(consumed(patch, original, schema)))}: strict decoding error: {reasons}"
    raise Failure(422, "Invalid", f' "" is invalid: patch: {message}', {"causes": [
        {"reason": "FieldValueInvalid", "message": message, "field": "patch"},
    ]})


def consumed(patch: Any, original: Any, schema: TypeSchema | None) -> Any:
    """``patch`` as strategicpatch's mergeMap leaves it after merging into ``original``."""
    if not isinstance(patch, dict) or not isinstance(original, dict):
        return patch
    out = dict(patch)
    if out.get("$patch") == "replace":
        del out["$patch"]
        return out
    out.pop("$retainKeys", None)
    for key in [k for k in out if k.startswith(_SET_ELEMENT_ORDER)]:
        del out[key]
        out.pop(key[len(_SET_ELEMENT_ORDER):], None)
    for key, value in out.items():
        if key.startswith("$") or key not in original:
            continue
        child = schema.child(key) if schema is not None else None
        if isinstance(value, dict):
            out[key] = consumed(value, original[key], child)
        elif isinstance(value, list) and isinstance(original[key], list):
            field = schema.field(key) if schema is not None else None
            merge_key = field.patch_merge_key if field is not None and "merge" in field.patch_strategies else None
            if merge_key:
                out[key] = [_consumed_item(item, original[key], merge_key, child) for item in value]
    return out


def _consumed_item(item: Any, original: list[Any], merge_key: str, schema: TypeSchema | None) -> Any:
    """A merge list's patch item, consumed where it merged into the original's item with its key."""
    if not isinstance(item, dict) or merge_key not in item:
        return item
    for candidate in original:
        if isinstance(candidate, dict) and candidate.get(merge_key) == item[merge_key]:
            return consumed(item, candidate, schema)
    return item
