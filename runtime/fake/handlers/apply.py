"""Server-side apply (``PATCH`` with ``application/apply-patch+yaml``), as the apiserver does it.

The applied configuration is merged by the route's field manager
(``kgen.runtime.apimachinery.util.managedfields.fieldmanager``, structured-merge-diff's semantics over the kind's
schema; see ``kgen.runtime.fake.schema.fieldmanagers``): a field another manager owns that the apply
would change is a 409 Conflict listing the owners, unless ``force=true`` takes it over; fields
the manager stops applying are removed unless someone else owns them. The configuration's
resourceVersion is checked on what the merge made, as the registry checks it, so a conflict
with another manager is reported before a stale version. Apply needs a
``fieldManager`` (422 without one), a body naming the resource's apiVersion and kind and a
name, and creates the object when it does not exist yet (not through a subresource). Errors the
field manager raises are answered as the apiserver answers them: 400 for a bad request, a plain
500 (no reason) for the rest (``responsewriters.ErrorToAPIStatus``).
"""

from __future__ import annotations

import uuid

from typing import Any

from kgen.runtime.apimachinery.util.managedfields.fieldmanager import ApplyConflict, FieldManagerError
from kgen.runtime.apimachinery.meta import name_of
from kgen.runtime.fake.errors import Failure, bad_request, not_found
from kgen.runtime.fake.schema.fieldmanagers import field_manager
from kgen.runtime.fake.request import Call, Reply, Route
from kgen.runtime.fake.schema.decode import decoded, go_numbers
from kgen.runtime.fake.store import Store, meta, now
from kgen.runtime.fake.schema.validation import check_valid
from kgen.runtime.fake.handlers import strategy
from kgen.runtime.fake.schema import versions
from kgen.runtime.fake.handlers.writes import (
    check_identity, check_version, next_version, save, stored_extras, stored_form, tracks_generation, typed,
)


def apply(store: Store, route: Route, call: Call) -> Reply:
    """Server-side apply (an apply patch) of the route's object, as the apiserver does: fieldManager
    required, a 409 on conflicts with other managers unless forced; creates the object if it does not
    exist (not through a subresource)."""
    info = route.info
    if not call.params.get("fieldManager"):
        raise Failure(
            422, "Invalid",
            'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch',
            {"group": "meta.k8s.io", "kind": "PatchOptions", "causes": [{
                "reason": "FieldValueRequired", "message": "Required value: is required for apply patch",
                "field": "fieldManager",
            }]},
        )
    applied = go_numbers(call.json())  # the YAML body's 1.0 is 1 (sigs.k8s.io/yaml writes it so)
    if not isinstance(applied, dict) or applied.get("apiVersion") != info.api_version or (
        info.kind and applied.get("kind") != info.kind
    ):
        version = str(applied.get("apiVersion") or "") if isinstance(applied, dict) else ""
        group, _, ver = version.rpartition("/")
        kind = applied.get("kind") if isinstance(applied, dict) else ""
        raise bad_request(f"invalid object type: {group}/{ver}, Kind={kind or ''}")
    check_identity(route, applied)  # a name that is not the URL's (a non-string, say) stops here
    if not name_of(applied):
        raise bad_request(f"the name of the object ({route.name} based on URL) was undeterminable: name must be provided")
    raw = store.objects[info].get(route.key)
    stored = None if raw is None else versions.as_read(store, info, raw)  # in the route's version
    if stored is None and route.subresource:
        raise not_found(info, route.name)
    try:
        merged = field_manager(store, info, route.subresource).apply(
            stored, applied, call.manager, call.params.get("force") == "true", now=now(),
        )
    except ApplyConflict as conflict:
        raise Failure(409, "Conflict", conflict.message, {"causes": conflict.causes()}) from None
    except FieldManagerError as error:
        raise _refusal(error) from None
    if stored is not None and meta(applied).get("resourceVersion") is not None:
        # After the merge: the registry checks the version of the object the apply made, so a
        # conflict with another manager is reported first.
        check_version(route, stored, applied)
    entries = merged.get("metadata", {}).pop("managedFields", None)
    if stored is None:
        merged.setdefault("metadata", {})["name"] = route.name
        new = typed(info, merged)
        new_meta = new["metadata"]
        if info.namespaced:
            new_meta["namespace"] = route.namespace
        new_meta["uid"] = str(uuid.uuid4())
        new_meta["creationTimestamp"] = now()
        if tracks_generation(info, new):
            new_meta["generation"] = 1
        new = decoded(info, new)
        strategy.prepare_for_create(info, new)
        warnings = check_valid(route, new)
        _set_entries(new, entries)
        new = versions.as_stored(store, info, stored_form(info, new))
        if not call.dry_run:
            store.commit(info, route.key, new, None)
            if extras := stored_extras(route, merged):
                store.extras[(store.storage_of(info), route.key)] = extras
        return Reply(201, versions.as_read(store, info, new), warnings)
    new = next_version(store, route, stored, merged)
    warnings = check_valid(route, new, stored)
    _set_entries(new, entries)
    return Reply(200, save(store, route, stored, new, call.dry_run, stored_extras(route, merged)), warnings)


def _set_entries(obj: dict[str, Any], entries: Any) -> None:
    if entries:
        obj.setdefault("metadata", {})["managedFields"] = entries
    else:
        obj.get("metadata", {}).pop("managedFields", None)


def _refusal(error: FieldManagerError) -> Failure:
    if error.code == 400:
        return bad_request(str(error))
    failure = Failure(error.code, "", str(error))
    del failure.status["reason"]
    return failure
