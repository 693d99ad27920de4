"""JSON patch, JSON merge patch and strategic merge patch, by Content-Type, as the apiserver takes them.

The patch is applied to the stored object (or its Scale, on ``/scale``) with
``kgen.runtime.apimachinery.patch``, and the result is written as an update would be: the same
resourceVersion precondition, status isolation and managedFields. Strategic merge patch is for
built-in resources only (415 on custom resources, in the apiserver's words for each); an apply
patch goes to ``apply``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kgen.runtime.apimachinery.patch import PatchError, json_patch, merge_patch, strategic_merge_patch
from kgen.runtime.fake.apply import apply
from kgen.runtime.fake.errors import Failure, bad_request, unsupported_patch
from kgen.runtime.fake.request import Call, Reply, Route
from kgen.runtime.fake.scale import scale_of, write_scale
from kgen.runtime.fake.store import Store, builtin
from kgen.runtime.fake.writes import check_version, next_version, record_update, save
from kgen.runtime.gentype.resource import PatchType

_PATCHERS: dict[str, Callable[[Any, Any], Any]] = {
    PatchType.JSON.value: json_patch, PatchType.MERGE.value: merge_patch,
    PatchType.STRATEGIC.value: strategic_merge_patch,
}


def patch(store: Store, route: Route, call: Call) -> Reply:
    if call.content_type == PatchType.APPLY.value:
        return apply(store, route, call)
    if call.content_type == PatchType.STRATEGIC.value and not builtin(route.info.group):
        raise unsupported_patch(custom_resource=True)
    patcher = _PATCHERS.get(call.content_type)
    if patcher is None:
        raise unsupported_patch(custom_resource=False)
    body = call.json()
    if not isinstance(body, list if call.content_type == PatchType.JSON.value else dict):
        raise bad_request(f"error decoding patch: a {call.content_type} patch cannot be {type(body).__name__}")
    stored = store.get(route.info, route.key)
    target = scale_of(route, stored) if route.subresource == "scale" else stored
    try:
        patched = patcher(target, body)
    except PatchError as e:
        raise Failure(
            422, "Invalid", "the server rejected our request due to an error in our request",
            {"causes": [{"reason": "FieldValueInvalid", "message": str(e), "field": "patch"}]},
        ) from None
    if not isinstance(patched, dict):
        raise Failure(422, "Invalid", "the server rejected our request due to an error in our request")
    if route.subresource == "scale":
        return write_scale(store, route, call, stored, patched)
    check_version(route, stored, patched)
    new = next_version(store, route, stored, patched)
    record_update(store, route, call, stored, new)
    return Reply(200, save(store, route, stored, new, call.dry_run))
