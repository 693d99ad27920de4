"""get, list, create, update, delete and deletecollection, answered as the apiserver answers them.

- create: the server fills uid, creationTimestamp, generation and ``generateName``; a create
  cannot set the status of a resource with a status subresource; a namespace gets phase Active
  and its ``kubernetes.io/metadata.name`` label; a name still held by an object being deleted
  is 409 "object is being deleted: ...";
- list: from one consistent snapshot, like etcd's, in etcd's key order (``namespace/name``).
  ``limit`` pages carry a ``continue`` token that pins the snapshot's resourceVersion whenever
  objects remain after the page's last item, matching the selectors or not (the etcd3 store's
  ``GetList`` fills a page from a key range and reports whether keys remain, so a selective
  list may end with an empty page, as the real server's does); a token older than the history
  is 410 with a fresh, inconsistent token to go on from now (``remainingItemCount`` only
  without selectors); custom resource lists always carry ``continue`` (unstructured ListMeta);
- delete: uid and resourceVersion preconditions are 409; finalizers (and the
  ``foregroundDeletion``/``orphan`` ones a propagation policy adds) keep the object, with a
  ``deletionTimestamp``, until an update removes the last one; deletecollection answers the
  list as it was before the deletions (the registry's DeleteCollection returns what it listed);
- create and update: fields the Go type lacks are ``Warning`` headers, or a 400 under
  ``fieldValidation=Strict`` (``kgen.runtime.fake.schema.field_validation``);
- ``dryRun=All`` answers as if written and writes nothing;
- a multi-version custom resource's objects are read and written in the route's version from
  the one storage of its versions (``kgen.runtime.fake.schema.versions``).
"""

from __future__ import annotations

import base64
import uuid
from collections.abc import Mapping
from typing import Any

import msgspec

from kgen.runtime.fake.errors import Failure, already_exists, bad_request, details, expired, no_route
from kgen.runtime.fake.schema.field_validation import check_strict_body, unknown_field_warnings
from kgen.runtime.fake.request import Call, Reply, Route, parse_rv
from kgen.runtime.fake.selectors import selector
from kgen.runtime.fake.store import Key, Obj, Store, builtin, copy, meta, now
from kgen.runtime.fake.schema.decode import decoded
from kgen.runtime.fake.schema.validation import check_valid
from kgen.runtime.fake.schema import versions
from kgen.runtime.fake.handlers import strategy
from kgen.runtime.fake.handlers.writes import (
    check_identity, check_uid, check_version, next_version, record_update, save, stored_form, tracks_generation, typed,
)
from kgen.runtime.gentype.resource import ResourceInfo

_EXPIRED_CONTINUE = (
    "The provided continue parameter is too old to display a consistent list result. You can start a new list "
    "without the continue parameter, or use the continue token in this response to retrieve the remainder of the "
    "results. Continuing with the provided token results in an inconsistent list - objects that were created, "
    "modified, or deleted between the time the first chunk was returned and now may show up in the list."
)


def get(store: Store, route: Route) -> Reply:
    """The route's object (404 if it is not there), in the route's version."""
    return Reply(200, versions.read(store, route.info, route.key))


def create(store: Store, route: Route, call: Call) -> Reply:
    """Create the request's object as the apiserver does (defaults, generated names, validation, managed
    fields); 409 if it exists."""
    body = check_identity(route, call.json())
    check_strict_body(route, call, body)
    warnings = unknown_field_warnings(route, call, body, ordered=True)
    try:
        return _create(store, route, call, body, warnings)
    except Failure as failure:  # the warnings go with a refusal too
        failure.warnings = warnings
        raise


def _create(store: Store, route: Route, call: Call, body: Obj, warnings: list[str]) -> Reply:
    info = route.info
    new = typed(info, copy(body))
    new_meta = new.setdefault("metadata", {})
    if info.namespaced:
        if not route.namespace:
            raise no_route()
        new_meta["namespace"] = route.namespace
    else:
        new_meta.pop("namespace", None)
    if not new_meta.get("name") and new_meta.get("generateName"):
        new_meta["name"] = store.generate_name(info, route.namespace, str(new_meta["generateName"]))
    # neither: check_valid refuses it (metadata.name: Required value), with the other errors
    if (info.group, info.plural) == ("", "namespaces"):  # the strategy's PrepareForCreate, before validation
        new_meta["labels"] = {**(new_meta.get("labels") or {}), "kubernetes.io/metadata.name": new_meta.get("name", "")}
    warnings += check_valid(route, new if info in store.without_status else {k: v for k, v in new.items() if k != "status"})
    key = (route.namespace if info.namespaced else "", str(new_meta["name"]))
    existing = store.objects[info].get(key)
    if existing is not None:
        failure = already_exists(info, key[1])
        if meta(existing).get("deletionTimestamp"):  # the registry's Create says why it still exists
            failure.status["message"] = f"object is being deleted: {failure.status['message']}"
        raise failure
    for server_owned in ("resourceVersion", "deletionTimestamp", "deletionGracePeriodSeconds", "managedFields", "generation"):
        new_meta.pop(server_owned, None)
    new_meta["uid"] = str(uuid.uuid4())
    new_meta["creationTimestamp"] = now()
    if info not in store.without_status:
        new.pop("status", None)  # the status subresource's: a create cannot set it
    if (info.group, info.plural) == ("", "namespaces"):
        new["status"] = {"phase": "Active"}
    if tracks_generation(info, new):
        new_meta["generation"] = 1
    new = decoded(info, new)
    strategy.prepare_for_create(info, new)
    record_update(store, route, call, None, new, body)
    new = versions.as_stored(store, info, stored_form(info, new))
    if not call.dry_run:
        store.commit(info, key, new, None)
    return Reply(201, versions.as_read(store, info, new), warnings)


def update(store: Store, route: Route, call: Call) -> Reply:
    """Replace the route's object as the apiserver does: 404 if it is not there, 409 on a stale
    resourceVersion, then validation and managed fields."""
    body = check_identity(route, call.json())
    check_strict_body(route, call, body)
    warnings = unknown_field_warnings(route, call, body, ordered=True)
    try:
        return _update(store, route, call, body, warnings)
    except Failure as failure:  # the warnings go with a refusal too
        failure.warnings = warnings
        raise


def _update(store: Store, route: Route, call: Call, body: Obj, warnings: list[str]) -> Reply:
    stored = versions.read(store, route.info, route.key)
    check_uid(route, stored, body)
    check_version(route, stored, body)
    new = next_version(store, route, stored, body)
    warnings = warnings + check_valid(route, new, stored)
    record_update(store, route, call, stored, new, body)
    return Reply(200, save(store, route, stored, new, call.dry_run), warnings)


def delete(store: Store, route: Route, call: Call) -> Reply:
    """Delete the route's object with the request's DeleteOptions (preconditions, dry run, finalizers
    keep it with a deletionTimestamp)."""
    options, dry_run = _delete_options(call)
    stored = versions.read(store, route.info, route.key)
    preconditions = options.get("preconditions") or {}
    stored_meta = meta(stored)
    # The storage's precondition error names the kind with its group (GroupResource{Group,
    # Resource: Kind}.String()): ConfigMap, Deployment.apps, Widget.<group>.
    kind = route.info.kind or route.info.plural
    qualified_kind = f"{kind}.{route.info.group}" if route.info.group else kind
    for field_name, label, hint in (("uid", "UID", "deleted and then recreated"), ("resourceVersion", "ResourceVersion", "modified")):
        wanted = preconditions.get(field_name)
        if wanted is not None and wanted != stored_meta.get(field_name):  # "" is a precondition too
            raise Failure(
                409, "Conflict",
                f'Operation cannot be fulfilled on {qualified_kind} "{route.name}": the {label} in the precondition '
                f"({wanted}) does not match the {label} in record ({stored_meta.get(field_name)}). The object might have been {hint}",
                {"name": route.name, **({"group": route.info.group} if route.info.group else {}), "kind": kind},
            )
    return _delete_one(store, route, stored, options, dry_run)


def _delete_options(call: Call) -> tuple[Obj, bool]:
    """A delete's DeleteOptions and whether it is a dry run: the body's when it has one, else the
    query's. The apiserver's delete handler decodes one or the other, so a query's ``dryRun`` (or
    propagationPolicy) beside a body is not read: the object is deleted."""
    options = call.json()
    if options is None:
        params = call.params
        query: Obj = {}
        if params.get("propagationPolicy"):
            query["propagationPolicy"] = params["propagationPolicy"]
        if params.get("orphanDependents") in ("true", "false"):
            query["orphanDependents"] = params["orphanDependents"] == "true"
        return query, call.dry_run
    if not isinstance(options, dict):
        raise bad_request("the body of the request must be DeleteOptions")
    return options, "All" in (options.get("dryRun") or [])


def delete_collection(store: Store, route: Route, call: Call) -> Reply:
    """Delete every object the request's selectors match, with its DeleteOptions."""
    options = call.json() or {}
    if not isinstance(options, dict):
        raise bad_request("the body of the request must be DeleteOptions")
    dry_run = call.dry_run or "All" in (options.get("dryRun") or [])
    selected = selector(call.params)
    deleted = []
    for key, raw in sorted(store.objects[route.info].items()):
        if (route.namespace and key[0] != route.namespace) or not selected(raw):
            continue
        obj = versions.as_read(store, route.info, raw)
        _delete_one(store, Route(route.info, key[0], key[1], ""), obj, options, dry_run)
        deleted.append(obj)  # the registry's DeleteCollection answers the list as it was before
    return Reply(200, _list_body(route.info, [_untyped(route.info, o) for o in deleted], {"resourceVersion": str(store.rv)}))


_GC_FINALIZERS = ("orphan", "foregroundDeletion")


def _gc_finalizers(finalizers: list[str], options: Mapping[str, Any]) -> list[str]:
    """The finalizers a delete leaves (the registry's deletionFinalizersForGarbageCollection): the
    options' policy (orphanDependents first, then propagationPolicy, else the object's own
    ``orphan``/``foregroundDeletion`` finalizer) decides which of the two the object keeps, others
    first; Background takes both away, so a deleting object held only by them is deleted. An
    unchanged set keeps its order."""
    orphan_dependents, policy = options.get("orphanDependents"), options.get("propagationPolicy")
    if orphan_dependents is not None:
        orphan, foreground = bool(orphan_dependents), False
    elif policy in ("Orphan", "Background", "Foreground"):
        orphan, foreground = policy == "Orphan", policy == "Foreground"
    else:
        held = [f for f in finalizers if f in _GC_FINALIZERS]
        orphan, foreground = bool(held) and held[0] == "orphan", bool(held) and held[0] == "foregroundDeletion"
    new = [f for f in finalizers if f not in _GC_FINALIZERS] + ["orphan"] * orphan + ["foregroundDeletion"] * foreground
    return finalizers if set(new) == set(finalizers) else new


def _delete_one(store: Store, route: Route, stored: Obj, options: Mapping[str, Any], dry_run: bool) -> Reply:
    stored_meta = meta(stored)
    finalizers = _gc_finalizers(list(stored_meta.get("finalizers") or []), options)
    if finalizers:
        new: Obj = copy(stored)
        new_meta = new["metadata"]
        new_meta["finalizers"] = finalizers
        if not new_meta.get("deletionTimestamp") and int(new_meta.get("generation") or 0) > 0:
            # The registry's markAsDeleting: the first deletion moves the generation, since
            # controllers must now behave differently.
            new_meta["generation"] = int(new_meta["generation"]) + 1
        new_meta.setdefault("deletionTimestamp", now())
        new_meta.setdefault("deletionGracePeriodSeconds", 0)
        return Reply(200, save(store, route, stored, new, dry_run))
    if not dry_run:
        store.commit(route.info, route.key, None, store.get(route.info, route.key))  # as stored
    status_details = {**details(route.info, route.name), "uid": stored_meta.get("uid")}
    return Reply(200, {"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Success", "details": status_details})


def list_(store: Store, route: Route, call: Call) -> Reply:
    """List the route's objects: selectors, limit/continue paging, resourceVersion semantics."""
    params = call.params
    selected = selector(params)
    try:
        limit = int(params.get("limit") or 0)
    except ValueError:
        raise bad_request(f'strconv.ParseInt: parsing "{params.get("limit")}": invalid syntax') from None
    start: Key | None = None
    token = params.get("continue")
    if token:
        snapshot_rv, start = _decode_continue(token)
        if snapshot_rv and snapshot_rv < store.floor:  # 0: an inconsistent token, served from now
            fresh = _encode_continue(0, start)
            raise expired(_EXPIRED_CONTINUE, metadata={"continue": fresh})
        snapshot_rv = snapshot_rv or store.rv
    else:
        requested = params.get("resourceVersion") or ""
        snapshot_rv = store.rv
        if requested and parse_rv(requested) and params.get("resourceVersionMatch") == "Exact":
            snapshot_rv = min(parse_rv(requested), store.rv)
    objects = store.snapshot(route.info, snapshot_rv)
    items: list[Obj] = []
    remaining = 0  # objects after a full page, whether or not they match: etcd's "more"
    more: Key | None = None
    for key in sorted(objects, key=_etcd_key):
        if (route.namespace and key[0] != route.namespace) or (start is not None and _etcd_key(key) <= _etcd_key(start)):
            continue
        if limit and len(items) >= limit:
            remaining += 1
            continue
        obj = objects[key]
        if not selected(obj):
            continue
        items.append(_untyped(route.info, versions.as_read(store, route.info, obj)))
        more = key
    metadata: Obj = {"resourceVersion": str(snapshot_rv)}
    if remaining and more is not None:
        metadata["continue"] = _encode_continue(snapshot_rv, more)
        if not params.get("labelSelector") and not params.get("fieldSelector"):
            metadata["remainingItemCount"] = remaining
    return Reply(200, _list_body(route.info, items, metadata))


def _etcd_key(key: Key) -> str:
    """Where an object sorts: by its etcd key (``namespace/name``), byte order, as lists come."""
    return f"{key[0]}/{key[1]}" if key[0] else key[1]


def _list_body(info: ResourceInfo, items: list[Obj], metadata: Obj) -> Obj:
    if not builtin(info.group):
        # Custom resource lists are unstructured: their ListMeta always carries "continue".
        metadata = {"continue": "", **metadata}
    return {"kind": f"{info.kind}List", "apiVersion": info.api_version, "metadata": metadata, "items": items}


def _untyped(info: ResourceInfo, obj: Obj) -> Obj:
    """A list item: built-in lists carry no apiVersion/kind on their items, custom resources do."""
    if not builtin(info.group):
        return obj
    return {k: v for k, v in obj.items() if k not in ("apiVersion", "kind")}


def _encode_continue(rv: int, last: Key) -> str:
    """The apiserver's continue token: base64 JSON of the snapshot's revision and the last key."""
    token = msgspec.json.encode({"v": "meta.k8s.io/v1", "rv": rv, "start": f"{last[0]}/{last[1]}\u0000"})
    return base64.urlsafe_b64encode(token).decode().rstrip("=")


def _decode_continue(token: str) -> tuple[int, Key]:
    try:
        raw = msgspec.json.decode(base64.urlsafe_b64decode(token + "=" * (-len(token) % 4)))
        rv, start = int(raw["rv"]), str(raw["start"]).rstrip("\u0000")
        namespace, _, name = start.partition("/")
    except (ValueError, KeyError, TypeError, msgspec.DecodeError):
        raise bad_request(f"invalid continue token: continue key is not valid: {token!r}") from None
    return rv, (namespace, name)
