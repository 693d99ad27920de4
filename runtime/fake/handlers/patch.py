"""JSON patch, JSON merge patch and strategic merge patch, by Content-Type, as the apiserver takes them.

The patch is applied to the stored object (or its Scale, on ``/scale``) with
``kgen.runtime.apimachinery.patch``, and the result is written as an update would be: the same
resourceVersion precondition, status isolation and managedFields. Strategic merge patch is for
built-in resources only (415 on custom resources, in the apiserver's words for each); an apply
patch goes to ``apply``. A strategic merge patch is applied by
``kgen.runtime.apimachinery.util.strategicpatch.patch`` with the merge schema of the route's kind (a Scale's
on ``/scale``), its errors answered as handlers/patch.go's interpretStrategicMergePatchError
answers them (400 with apimachinery's words, 422 generic, any other a plain 500 with apimachinery's words,
a panic a dropped connection). Under ``fieldValidation=Strict`` a patch whose result has fields
the Go type lacks (or a JSON patch with unknown members) is a 422 quoting the strategic merge
patch, or the patched object for the other types, and under Warn (the default) every
patch type's unknown fields are ``Warning`` headers (``kgen.runtime.fake.schema.field_validation``).

Refusals are the apiserver's (k8s.io/apiserver v0.37.2 ``handlers/patch.go``): a body that does
not decode is a 400 with the decoder's words; more than 10000 JSON patch operations a 413
(``NewRequestEntityTooLargeError``); a patch the library cannot apply a 422 built by
``NewGenericServerResponse``, which keeps only the generic message and empty details (the
library's own words never reach the client); and where json-patch v4 panics, the handler's panic
drops the connection, so the client sees ``httpx.RemoteProtocolError`` as it does from a real
server. ``tests/contract/test_patch_errors.py`` pins each against the real apiserver.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

import httpx

from kgen.runtime.apimachinery.util.strategicpatch import patch as strategicpatch
from kgen.runtime.apimachinery.patch.jsonpatch import (
    PatchBadRequest, PatchInternal, PatchPanic, PatchTooLarge, json_patch_strict_errors,
)
from kgen.runtime.apimachinery.mergeschema import TypeSchema, schema_for
from kgen.runtime.apimachinery.patch import PatchError, json_patch, merge_patch
from kgen.runtime.fake.handlers.apply import apply
from kgen.runtime.fake.errors import Failure, bad_request, unsupported_patch
from kgen.runtime.fake.request import Call, Reply, Route
from kgen.runtime.fake.handlers.scale import scale_of, write_scale
from kgen.runtime.apimachinery.golang.gofmt import go_v
from kgen.runtime.apimachinery.patch.jsonpatch_v4 import go_quote
from kgen.runtime.fake.schema.field_validation import check_strict, check_strict_json, consumed, unknown_field_warnings
from kgen.runtime.fake.store import Store, builtin, meta
from kgen.runtime.fake.schema.validation import check_valid
from kgen.runtime.fake.schema import versions
from kgen.runtime.fake.handlers.writes import check_version, next_version, record_update, save
from kgen.runtime.gentype.resource import PatchType

_PATCHERS: dict[str, Callable[..., Any]] = {
    PatchType.JSON.value: json_patch, PatchType.MERGE.value: merge_patch,
    PatchType.STRATEGIC.value: strategicpatch.strategic_merge_patch,  # with the route's schema: _strategic
}
_VALIDATING = {PatchType.JSON.value, PatchType.MERGE.value}
"""JSON patch and merge patch decode the body strictly first unless fieldValidation is Ignore."""
_REJECTED = "the server rejected our request due to an error in our request"


def patch(store: Store, route: Route, call: Call) -> Reply:
    """Patch the route's object with the request's patch type (JSON, merge, strategic merge for built-in
    kinds, or apply), as the apiserver does."""
    if call.content_type == PatchType.APPLY.value:
        return apply(store, route, call)
    if call.content_type == PatchType.STRATEGIC.value and not builtin(route.info.group):
        raise unsupported_patch(custom_resource=True)
    patcher = _PATCHERS.get(call.content_type)
    if patcher is None:
        raise unsupported_patch(custom_resource=False)
    body = call.json()
    if call.content_type in _VALIDATING:
        patcher = partial(patcher, field_validation=call.params.get("fieldValidation") or "Warn")
    elif not isinstance(body, dict):
        raise bad_request(f"error decoding patch: a {call.content_type} patch cannot be {type(body).__name__}")
    # Warned about once the patched object decodes (a patch that fails to apply warns of nothing);
    # a refusal after that (a stale resourceVersion) carries them.
    warnings: list[str] = []
    try:
        return _patch(store, route, call, body, patcher, warnings)
    except Failure as failure:
        failure.warnings = warnings + failure.warnings
        raise


def _patch(store: Store, route: Route, call: Call, body: Any, patcher: Callable[..., Any], warnings: list[str]) -> Reply:
    stored = versions.read(store, route.info, route.key)
    target = scale_of(route, stored) if route.subresource == "scale" else stored
    try:
        if call.content_type == PatchType.STRATEGIC.value:
            patched = _strategic(route, target, body)
            _check_converts(route, body, target, patched)
            check_strict(route, call, body, target, patched, _smp_schema(route))
        else:
            patched = patcher(target, body)
    except PatchError as e:
        raise _refusal(e) from None
    except strategicpatch.SMPError as e:
        raise _smp_refusal(e) from None
    if not isinstance(patched, dict):
        raise Failure(422, "Invalid", _REJECTED)
    own = json_patch_strict_errors(body) if call.content_type == PatchType.JSON.value else []
    if call.content_type in _VALIDATING:
        check_strict_json(route, call, own, patched)
    _check_name(route, patched)
    if route.subresource == "scale":
        return write_scale(store, route, call, stored, patched)
    warnings += unknown_field_warnings(route, call, patched, first=tuple(own))
    check_version(route, stored, patched)
    new = next_version(store, route, stored, patched)
    warnings += check_valid(route, new, stored)
    record_update(store, route, call, stored, new, patched)
    return Reply(200, save(store, route, stored, new, call.dry_run), list(warnings))


_STRING_MAPS = ("labels", "annotations")
"""ObjectMeta's map[string]string fields, the ones a strategic merge patch can leave holding a
non-string (the patch's value is taken whole where the object has no such map)."""


def _check_converts(route: Route, patch: Any, original: Any, patched: Any) -> None:
    """The apiserver converts a strategic merge patch's result into the kind's Go type
    (runtime.DefaultUnstructuredConverter): a value its field cannot hold is a 422 at ``patch``
    quoting the patch as mergeMap left it (``%+v``) with the converter's error. Checked where a
    patch meets it in practice: a label or annotation that is not a string (``$retainKeys`` in
    labels the object does not have yet, issue 35's item 11). Into a Go string, an integer is
    ``cannot convert int64 to string``; a list, map, bool or float ``unrecognized type: string``."""
    if route.subresource == "scale" or not isinstance(patched, dict):
        return
    for field in _STRING_MAPS:
        values = meta(patched).get(field)
        for value in values.values() if isinstance(values, dict) else ():
            if value is None or isinstance(value, str):
                continue
            is_int = isinstance(value, int) and not isinstance(value, bool)
            why = "cannot convert int64 to string" if is_int else "unrecognized type: string"
            message = f"Invalid value: {go_quote(go_v(consumed(patch, original, _smp_schema(route))))}: {why}"
            raise Failure(422, "Invalid", f' "" is invalid: patch: {message}', {"causes": [
                {"reason": "FieldValueInvalid", "message": message, "field": "patch"},
            ]})


def _check_name(route: Route, patched: dict[str, Any]) -> None:
    """The patcher's last checks of the patched object (handlers/patch.go applyPatch): its
    namespace, if any, the request's (EnsureObjectNamespaceMatchesRequestNamespace), and its name
    the URL's (checkName): a patch that drops or changes them (``$retainKeys`` on metadata or at
    the top, a merge patch's ``name: null``) is a 400."""
    patched_meta = meta(patched)
    namespace = patched_meta.get("namespace")
    if route.info.namespaced and namespace and namespace != route.namespace:
        raise bad_request("the namespace of the provided object does not match the namespace sent on the request")
    name = patched_meta.get("name")
    if not name:
        raise bad_request(f"the name of the object ({route.name} based on URL) was undeterminable: name must be provided")
    if name != route.name:
        raise bad_request(f"the name of the object ({name}) does not match the name on the URL ({route.name})")


def _refusal(error: PatchError) -> Exception:
    """What the apiserver answers when applying the patch fails (see the module docstring)."""
    if isinstance(error, PatchPanic):
        return httpx.RemoteProtocolError("Server disconnected without sending a response.")
    if isinstance(error, PatchBadRequest):
        return bad_request(str(error))
    if isinstance(error, PatchTooLarge):
        return Failure(413, "RequestEntityTooLarge", f"Request entity too large: {error}")
    if isinstance(error, PatchInternal):  # returned unwrapped: errors.NewInternalError's shape
        return Failure(500, "InternalError", f"Internal error occurred: {error}", {"causes": [{"message": str(error)}]})
    return Failure(422, "Invalid", _REJECTED, {})


def _smp_schema(route: Route) -> TypeSchema | None:
    """The merge schema of the route's kind (a Scale's on ``/scale``)."""
    api_version, kind = ("autoscaling/v1", "Scale") if route.subresource == "scale" else (
        route.info.api_version, route.info.kind)
    return schema_for(api_version, kind)


def _strategic(route: Route, target: Any, body: dict[str, Any]) -> Any:
    """The strategic merge patch of ``target`` with the merge schema of the route's kind. A kind
    the stock package has no schema for is served as the apiserver serves a resource it has no Go
    type for (a custom resource's): a strategic merge patch is refused."""
    schema = _smp_schema(route)
    if schema is None:
        raise unsupported_patch(custom_resource=True)
    return strategicpatch.strategic_merge_patch(target, body, schema)


def _smp_refusal(error: strategicpatch.SMPError) -> Exception:
    """handlers/patch.go interpretStrategicMergePatchError's answer (the module docstring)."""
    if isinstance(error, strategicpatch.SMPPanic):
        return httpx.RemoteProtocolError("Server disconnected without sending a response.")
    if isinstance(error, strategicpatch.SMPBadRequest):
        return bad_request(str(error))
    if isinstance(error, strategicpatch.SMPInvalid):
        return Failure(422, "Invalid", _REJECTED, {})
    # Not an API status: the handler answers it as any plain error, a 500 with the error's text and
    # no reason or details (responsewriters.ErrorToAPIStatus).
    failure = Failure(500, "", str(error))
    del failure.status["reason"]
    return failure
