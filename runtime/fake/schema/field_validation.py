"""``fieldValidation``: what the apiserver says about fields a kind's Go type or CRD lacks.

Decoding a built-in object drops them (``kgen.runtime.fake.schema.decode``); what the client hears
depends on the request's ``fieldValidation``: ``Ignore`` nothing, ``Warn`` (the default) one
``Warning: 299 - "unknown field \"<path>\""`` header per field, ``Strict`` a refusal:

- create and update decode the body strictly: a 400, ``<Kind> in version "<v>" cannot be handled
  as a <Kind>: strict decoding error: unknown field "<path>", ...`` (fields in body order);
- a JSON patch's own unknown members (``json patch unknown field "[0].x"``) come first, then the
  patched object's fields (sorted: json-patch and MergePatch re-encode what they touch with sorted
  keys); under Strict both are a 422 quoting the whole patched object as JSON. The server's text
  keeps Go's struct field order in the parts the patch did not touch, which the fake does not
  know: its text sorts every key (the same JSON, other key order);
- a strategic merge patch's are the patched object's, sorted; under Strict see below.

A custom resource's unknown fields are its ``metadata``'s, then those its CRD's structural schema
prunes (``kgen.runtime.fake.schema.pruning``), each list sorted, then an embedded resource's
``metadata``'s, for creates, updates and patches alike; the same 400 and 422 texts (the 422 quotes the patched object with every key sorted,
exactly the server's: it holds a custom resource as unstructured JSON). An apply with fields the
schema lacks is the field manager's 500 before any of this.

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

from collections.abc import Callable
from typing import Any

from kgen.runtime.apimachinery.golang.gofmt import go_json
from kgen.runtime.apimachinery.golang.gofmt import go_v
from kgen.runtime.apimachinery.patch.jsonpatch_v4 import go_quote
from kgen.runtime.apimachinery.mergeschema import TypeSchema
from kgen.runtime.fake.errors import Failure, bad_request
from kgen.runtime.fake.request import Call, Route
from kgen.runtime.fake.schema.decode import unknown_fields

_SET_ELEMENT_ORDER = "$setElementOrder/"


def validation(call: Call) -> str:
    """The request's fieldValidation (the apiserver's default is Warn)."""
    return call.params.get("fieldValidation") or "Warn"


def header(message: str) -> str:
    """A ``Warning`` header's value, as the apiserver's warning recorder writes it."""
    return f"299 - {go_quote(message)}"


def unknown_field_warnings(route: Route, call: Call, obj: Any, ordered: bool = False, first: tuple[str, ...] = ()) -> list[str]:
    """The ``Warning`` headers for ``obj``'s unknown fields under Warn (``first``: the request's
    own complaints, a JSON patch's unknown members); none under Strict or Ignore."""
    if validation(call) != "Warn" or route.subresource == "scale" or not isinstance(obj, dict):
        return []
    fields = unknown_fields(route.info, obj, ordered=ordered)
    return [header(m) for m in (*first, *(f'unknown field "{path}"' for path in fields))]


def check_strict_body(route: Route, call: Call, body: Any) -> None:
    """Strict create or update: a 400 naming the body's unknown fields in body order."""
    if validation(call) != "Strict" or not isinstance(body, dict):
        return
    fields = unknown_fields(route.info, body, ordered=True)
    if fields:
        info = route.info
        version = info.api_version.rpartition("/")[2]
        reasons = ", ".join(f'unknown field "{path}"' for path in fields)
        raise bad_request(f'{info.kind} in version "{version}" cannot be handled as a {info.kind}: '
                          f"strict decoding error: {reasons}")


def check_strict(route: Route, call: Call, patch: Any, original: Any, patched: Any, schema: TypeSchema | None) -> None:
    """A strategic merge patch under Strict: the 422 above, if ``patched`` has unknown fields."""
    if validation(call) != "Strict" or route.subresource == "scale" or not isinstance(patched, dict):
        return
    _refuse_patch(lambda: go_v(consumed(patch, original, schema)), _unknown(route, patched))


def check_strict_json(route: Route, call: Call, own: list[str], patched: Any) -> None:
    """A JSON patch or merge patch under Strict: a 422 if the JSON patch has unknown members
    (``own``, first) or ``patched`` unknown fields, quoting ``patched`` as JSON. The apiserver
    quotes the bytes json-patch produced, whose keys are sorted where the patch touched the
    object and in Go's struct order elsewhere; the fake knows no struct order and sorts all."""
    if validation(call) != "Strict" or route.subresource == "scale" or not isinstance(patched, dict):
        return
    _refuse_patch(lambda: go_json(patched), [*own, *_unknown(route, patched)])


def _unknown(route: Route, obj: dict[str, Any]) -> list[str]:
    return [f'unknown field "{path}"' for path in unknown_fields(route.info, obj)]


def _refuse_patch(quoted: Callable[[], str], reasons: list[str]) -> None:
    """handlers/patch.go's ``field.Invalid(patch, <the patched object>, "strict decoding error: ...")``."""
    if not reasons:
        return
    message = f"Invalid value: {go_quote(quoted())}: strict decoding error: {', '.join(reasons)}"
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
        if key.startswith("$"):
            continue
        if key not in original or (isinstance(value, (dict, list)) and type(original[key]) is not type(value)):
            # mergeMap takes the patch's value itself, discarding its nulls (discardNullValuesFromPatch)
            out[key] = _without_nulls(value)
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


def _without_nulls(value: Any) -> Any:
    """``value`` without the null members of its maps, at any depth (lists' items included)."""
    if isinstance(value, dict):
        return {k: _without_nulls(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [_without_nulls(v) for v in value]
    return value


def _consumed_item(item: Any, original: list[Any], merge_key: str, schema: TypeSchema | None) -> Any:
    """A merge list's patch item, consumed where it merged into the original's item with its key."""
    if not isinstance(item, dict) or merge_key not in item:
        return item
    for candidate in original:
        if isinstance(candidate, dict) and candidate.get(merge_key) == item[merge_key]:
            return consumed(item, candidate, schema)
    return item
