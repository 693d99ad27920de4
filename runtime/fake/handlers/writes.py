"""What every write shares (update, patch, apply, scale, and the finalizer path of delete).

The apiserver's registry strategy, reduced to what clients can observe:

- the body must name the resource it is sent to (apiVersion, kind, namespace, name), else 400;
- a ``metadata.resourceVersion`` in the body is a precondition: stale is 409 Conflict
  (optimistic concurrency, which client-go's ``retry.RetryOnConflict`` exists for), one that is
  no unsigned integer a plain 500, ``"0"`` none at all (``check_version``); so is an update's
  ``metadata.uid`` (an object deleted and recreated since the body was read);
- the server owns uid, creationTimestamp, generation, resourceVersion, deletion fields and
  managedFields: a write cannot change them;
- status isolation: with a ``status`` subresource, main-resource writes keep the stored status;
  a custom resource's ``/status`` writes change only the status, a built-in's everything but
  what its status strategy resets (the spec, a Deployment's labels, a Pod's owner references:
  ``fieldmanagers.status_reset_fields``), so annotations and finalizers go through;
- ``generation`` counts changes to anything but metadata and status (``PrepareForUpdate`` of
  the registry strategies); a Deployment's annotations count too (apps' deployment strategy:
  they are copied to its ReplicaSets), and a custom resource without a status subresource
  counts its status (apiextensions' customResourceStrategy compares all but metadata); values
  compare as JSON (``1``, ``1.0`` and ``true`` differ, as Go's int64, float64 and bool do), and a
  custom resource's ``1.0`` is then written back as ``1`` (``decode.go_numbers``);
- what is stored is what the Go types make of the body: unknown fields pruned, empty
  ``omitempty`` maps and slices dropped (``kgen.runtime.fake.schema.decode``), and once validated
  the zeros encoding/json writes for what a built-in object lacks, ``null`` for a zero
  ``metav1.Time`` (``stored_form``);
- a custom resource's update must carry a resourceVersion (its strategy's
  ``AllowUnconditionalUpdate`` is false): 422 without one (or with ``"0"``);
- a write that changes nothing (managedFields timestamps aside) is no write: no new
  resourceVersion, no watch event; a custom resource whose stored JSON holds (or held) the empty
  or null metadata collections a server-side apply left is written anyway (``stored_extras``);
- managedFields record who wrote which fields (``kgen.runtime.apimachinery.util.managedfields.fieldmanager``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from kgen.runtime.apimachinery.patch.jsonpatch import json_equal
from kgen.runtime.apimachinery.meta import resource_version_of
from kgen.runtime.fake.errors import Failure, bad_request, conflict, details, qualified
from kgen.runtime.fake.schema.fieldmanagers import field_manager, record_scale_update, status_reset_fields
from kgen.runtime.fake.request import Call, Route
from kgen.runtime.fake.handlers import strategy
from kgen.runtime.fake.schema import versions
from kgen.runtime.fake.schema.decode import decoded, go_numbers
from kgen.runtime.fake.schema.defaulting import data_version, with_zeros
from kgen.runtime.fake.store import Obj, Store, builtin, copy, meta, now
from kgen.runtime.gentype.resource import ResourceInfo

_NO_GENERATION = frozenset({
    ("", "services"), ("", "namespaces"), ("", "nodes"), ("", "persistentvolumes"),
    ("", "persistentvolumeclaims"), ("", "resourcequotas"), ("", "limitranges"), ("coordination.k8s.io", "leases"),
})
"""Built-in resources that have a spec but no metadata.generation."""
_ANNOTATIONS_IN_GENERATION = frozenset({("apps", "deployments")})
"""Built-in resources whose annotations count for the generation (apps' deployment strategy)."""
_SERVER_OWNED = (
    "name", "namespace", "uid", "creationTimestamp", "deletionTimestamp",
    "deletionGracePeriodSeconds", "generation", "resourceVersion", "managedFields",
)
_SET_ON_DELETE = ("deletionTimestamp", "deletionGracePeriodSeconds")
"""Kept from the stored object when it has them (rest.BeforeUpdate: an update can never remove or
change them), else left as the request sends them: ValidateObjectMetaUpdate refuses a request that
sets them on an object not being deleted (``field is immutable``)."""


def check_identity(route: Route, body: Any) -> Obj:
    """``body`` if it is an object for this route's resource, namespace and name; else 400."""
    if not isinstance(body, dict):
        raise bad_request("the body of the request must be a JSON object")
    body_meta = meta(body)
    api_version, kind = body.get("apiVersion"), body.get("kind")
    if api_version and api_version != route.info.api_version:
        raise bad_request(
            f"the API version in the data ({api_version}) does not match the expected API version ({route.info.api_version})"
        )
    if kind and route.info.kind and kind != route.info.kind:
        raise bad_request(f"the kind in the data ({kind}) does not match the expected kind ({route.info.kind})")
    if route.info.namespaced and body_meta.get("namespace") and route.namespace and body_meta["namespace"] != route.namespace:
        raise bad_request("the namespace of the provided object does not match the namespace sent on the request")
    if route.name and body_meta.get("name") and body_meta["name"] != route.name:
        raise bad_request(f"the name of the object ({body_meta['name']}) does not match the name on the URL ({route.name})")
    return body


def typed(info: ResourceInfo, obj: Obj) -> Obj:
    """``obj`` with apiVersion and kind first, as the apiserver writes objects."""
    rest = {k: v for k, v in obj.items() if k not in ("apiVersion", "kind")}
    return {"kind": info.kind or obj.get("kind"), "apiVersion": info.api_version, **rest}


def tracks_generation(info: ResourceInfo, obj: Mapping[str, Any]) -> bool:
    """Whether objects of the resource get a metadata.generation (custom resources always; built-in
    kinds with a spec, except the few the apiserver does not track, and those that track it from a
    later release than the fake's: ``_GENERATION_SINCE``)."""
    if not builtin(info.group):
        return True  # custom resources always carry a generation
    since = _GENERATION_SINCE.get((info.group, info.plural))
    if since is not None and _minor(info.generated_from or data_version()) < since:
        return False
    return "spec" in obj and (info.group, info.plural) not in _NO_GENERATION


_GENERATION_SINCE: dict[tuple[str, str], tuple[int, int]] = {("autoscaling", "horizontalpodautoscalers"): (1, 37)}
"""Built-in resources whose strategy sets a metadata.generation from a release on (an HPA's from
1.37, HPAGeneration; 1.34 to 1.36 give it none): the fake follows its generated package's release
(``ResourceInfo.generated_from``; the defaults' release when the package does not say)."""


_KEEPS_ENTRIES_SINCE = (1, 37)
"""The release from which a write whose request does not type keeps the old managedFields
(measured: 1.34.4, 1.35.4 and 1.36.3 remove them all, 1.37.2 keeps them)."""


def _minor(release: str) -> tuple[int, int]:
    """``(1, 37)`` of ``1.37.2`` or ``v1.37.2``; an unreadable release counts as the newest."""
    try:
        major, minor = release.removeprefix("v").split(".")[:2]
        return int(major), int(minor)
    except ValueError:
        return (1 << 30, 0)


def _spec_of(store: Store, info: ResourceInfo, obj: Mapping[str, Any]) -> Obj:
    """What a generation counts: everything but metadata and status, with the exceptions above."""
    counted: tuple[str, ...] = ("apiVersion", "kind", "metadata")
    if builtin(info.group) or info not in store.without_status:
        counted += ("status",)
    spec = {k: v for k, v in obj.items() if k not in counted}
    if (info.group, info.plural) in _ANNOTATIONS_IN_GENERATION:
        spec["metadata.annotations"] = meta(obj).get("annotations") or {}
    return spec


def next_version(store: Store, route: Route, stored: Obj, incoming: Obj) -> Obj:
    """What an update (or a patch's result) makes of ``stored``: the server's own metadata
    kept, the status kept by main-resource writes, only the status taken by status writes."""
    if route.subresource == "status" and not builtin(route.info.group):
        new: Obj = copy(stored)
        if "status" in incoming:
            new["status"] = copy(incoming["status"])
        else:
            new.pop("status", None)
        return decoded(route.info, new)
    new = typed(route.info, copy(incoming))
    new_meta = new.setdefault("metadata", {})
    old_meta = meta(stored)
    for key in _SERVER_OWNED:
        if key in old_meta:
            new_meta[key] = old_meta[key]
        elif key not in _SET_ON_DELETE:
            new_meta.pop(key, None)
    if route.subresource == "status":  # a built-in's: what its status strategy resets is kept
        for path in status_reset_fields(route.info):
            source, target = (old_meta, new_meta) if path[0] == "metadata" else (stored, new)
            if path[-1] in source:
                target[path[-1]] = copy(source[path[-1]])
            else:
                target.pop(path[-1], None)
        return decoded(route.info, new)
    if route.info not in store.without_status:
        if "status" in stored:
            new["status"] = copy(stored["status"])
        else:
            new.pop("status", None)
    # The generation compares the decoded request with the stored object as Go values: JSON's
    # equality (1, 1.0 and true are three values), before Go writes 1.0 back as 1.
    new = decoded(route.info, new, numbers=False)
    if "generation" in old_meta and not json_equal(_spec_of(store, route.info, stored), _spec_of(store, route.info, new)):
        new["metadata"]["generation"] = int(old_meta["generation"]) + 1
    return go_numbers(new) if not builtin(route.info.group) else new


_ETCD_PREFIXES = {("", "nodes"): "minions", ("", "services"): "services/specs"}
"""Built-in resources whose etcd key is not /registry/<resource> (the apiserver's storage config)."""


def check_uid(route: Route, stored: Obj, incoming: Mapping[str, Any]) -> None:
    """An update's ``metadata.uid`` is a precondition (rest.DefaultUpdatedObjectInfo's
    Preconditions), checked before the resourceVersion: a stale body from before the object was
    deleted and recreated is 409, in the storage's words (etcd key included)."""
    wanted, actual = meta(incoming).get("uid"), meta(stored).get("uid")
    if not wanted or wanted == actual:
        return
    info = route.info
    prefix = _ETCD_PREFIXES.get((info.group, info.plural)) or (info.plural if builtin(info.group) else f"{info.group}/{info.plural}")
    key = "/".join(part for part in ("/registry", prefix, route.namespace if info.namespaced else "", route.name) if part)
    raise Failure(
        409, "Conflict",
        f'Operation cannot be fulfilled on {qualified(info)} "{route.name}": StorageError: invalid object, Code: 4, '
        f"Key: {key}, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: {wanted}, "
        f"UID in object meta: {actual}",
        details(info, route.name),
    )


def check_version(route: Route, stored: Obj, incoming: Mapping[str, Any]) -> None:
    """The resourceVersion precondition of a write, as the registry's ``Store.Update`` checks the
    object the update, patch or apply made: the version is parsed as etcd's revision (Go's
    ``strconv.ParseUint``: ``"abc"``, ``"-1"`` or ``" 5"`` are a plain 500 in its words, ``"007"``
    is 7); 0 (absent, ``""`` or ``"0"``) is an unconditional write where the strategy allows one
    (built-in kinds) and a 422 for a custom resource (customResourceStrategy's
    ``AllowUnconditionalUpdate`` is false); any other version not the stored one is 409 Conflict."""
    wanted = meta(incoming).get("resourceVersion")
    if not isinstance(wanted, str):
        if wanted is not None and builtin(route.info.group):
            raise conflict(route.info, route.name)  # a built-in's typed metadata would not take it
        wanted = ""  # unstructured metadata reads a non-string as no version
    version = parse_resource_version(wanted)
    if version == 0:
        if builtin(route.info.group):
            return
        message = "Invalid value: 0: must be specified for an update"
        raise Failure(
            422, "Invalid", f'{qualified(route.info)} "{route.name}" is invalid: metadata.resourceVersion: {message}',
            {"name": route.name, "group": route.info.group, "kind": route.info.plural, "causes": [
                {"reason": "FieldValueInvalid", "message": message, "field": "metadata.resourceVersion"},
            ]},
        )
    if str(version) != resource_version_of(stored):
        raise conflict(route.info, route.name)


def parse_resource_version(value: str) -> int:
    """An object's resourceVersion as the storage's ``APIObjectVersioner.ObjectResourceVersion``
    reads it: "" is 0, else ``strconv.ParseUint(value, 10, 64)``, whose error is answered as a
    plain 500 (no reason, no details: the handler's answer to an error that is no API status)."""
    if not value:
        return 0
    error = "invalid syntax"
    if value.isascii() and value.isdigit():
        if int(value) < 1 << 64:
            return int(value)
        error = "value out of range"
    failure = Failure(500, "", f"strconv.ParseUint: parsing {json.dumps(value, ensure_ascii=False)}: {error}")
    del failure.status["reason"]
    raise failure


_OMITTED_META = ("labels", "annotations", "finalizers", "ownerReferences")
"""ObjectMeta collections a custom resource's stored JSON may hold empty or null (Go's omitempty
drops them from every answer, as the apiextensions apiserver reads metadata through ObjectMeta)."""


def stored_extras(route: Route, applied: Mapping[str, Any]) -> Obj:
    """What the apiserver keeps in a custom resource's stored JSON beyond its answer after a
    server-side apply to the main resource: the empty or null metadata collections of the
    merged object (``labels: {}`` a manager applies, ``labels: null`` once the last label a
    manager owned is gone). A custom resource is stored as the merge left it, not decoded into
    Go types, while the live object it is compared with is read back decoded (without them): so
    such an apply is always a write (a new resourceVersion, the manager's time moved), and so is
    the next write that stores none (envtest's etcd holds ``null``, then ``{}``, then nothing).
    Every other write decodes the metadata first and keeps none. Built-in objects are always
    stored decoded: none."""
    if builtin(route.info.group) or route.subresource:
        return {}
    applied_meta = meta(applied)
    return {k: copy(applied_meta[k]) for k in _OMITTED_META if k in applied_meta and applied_meta[k] in (None, {}, [])}


def save(store: Store, route: Route, stored: Obj, new: Obj, dry_run: bool, extras: Obj | None = None) -> Obj:
    """Writes ``new`` over ``stored`` unless nothing changed (neither holding ``stored_extras``:
    ``extras`` are the new object's); finishes a deletion whose last finalizer is gone. Both are
    in the route's version, and so is the answer; what is compared and written is the object in
    its storage version (``versions.as_stored``: a multi-version custom resource's)."""
    key = (store.storage_of(route.info), route.key)
    extras = extras or {}
    # The strategy's own changes come after the field manager saw the request's object.
    strategy.prepare_for_update(route.info, route.subresource, stored, new)
    new = versions.as_stored(store, route.info, stored_form(route.info, new))
    raw = store.objects[route.info].get(route.key, stored)  # as stored (``stored`` itself for one version)
    unchanged = json_equal(_without_times(new), _without_times(raw))  # JSON's equality: 1 is not true
    if unchanged and not extras and not store.extras.get(key):
        return stored
    if dry_run:
        return versions.as_read(store, route.info, new)
    new_meta = meta(new)
    if new_meta.get("deletionTimestamp") and not new_meta.get("finalizers"):
        # The registry's Update deletes instead of writing (shouldDeleteDuringUpdate): one
        # DELETED event, and the answer carries the resourceVersion the object had.
        new_meta["resourceVersion"] = resource_version_of(raw)
        store.commit(route.info, route.key, None, raw)
        return versions.as_read(store, route.info, new)
    store.commit(route.info, route.key, new, raw)
    if extras:
        store.extras[key] = extras
    return versions.as_read(store, route.info, new)


def stored_form(info: ResourceInfo, obj: Obj) -> Obj:
    """A built-in object as the apiserver stores and answers it once validated: with the zero
    value encoding/json writes for every non-``omitempty`` field it lacks (``null`` for a zero
    ``metav1.Time``, a struct Go writes as null: an Event's ``firstTimestamp``), beside the
    status's, which decoding already added (``defaulting.with_zeros``). A custom resource is stored
    as sent."""
    if not builtin(info.group) or not info.kind:
        return obj
    return with_zeros(info.api_version, info.kind, obj)


def record_update(store: Store, route: Route, call: Call, old: Obj | None, new: Obj, request: Obj | None = None) -> None:
    """Sets ``new``'s managedFields for a non-apply write (``old`` None: a create) by the call's
    field manager, as the apiserver's ``FieldManager.UpdateNoErrors`` does; through ``/scale``,
    on the Scale, mapped by ``ScaleHandler`` (``record_scale_update``). ``request``: a custom
    resource's object as the request made it, before the strategy dropped a part: the apiserver's
    field manager types that one, and where it does not type (``status: {count: "x"}`` on the main
    resource, a wrongly typed spec through ``/status``) the old entries stay from 1.37 (none on a
    create); before 1.37 every entry goes (the fake's release: ``ResourceInfo.generated_from``).
    So too when the object does not convert to the apiVersion of an entry (a multi-version custom
    resource's write in a version with a field the entry's version lacks: ``conversion_error``)."""
    if route.subresource == "scale" and old is not None:
        entries = record_scale_update(route.info.api_version, old, new, call.manager, now())
    else:
        fm = field_manager(store, route.info, route.subresource)
        untyped = request is not None and not builtin(route.info.group) and not fm.converts(decoded(route.info, request))
        if untyped or fm.conversion_error(old, new) is not None:
            kept = old is not None and _minor(route.info.generated_from or data_version()) >= _KEEPS_ENTRIES_SINCE
            entries = meta(old).get("managedFields") if kept and old is not None else None
        else:
            entries = meta(fm.update(old, new, call.manager, now=now())).get("managedFields")
    if entries:
        new.setdefault("metadata", {})["managedFields"] = entries
    else:
        meta(new).pop("managedFields", None)


def _without_times(obj: Mapping[str, Any]) -> Any:
    """``obj`` for comparing: managedFields timestamps do not make a write."""
    copied = copy(obj)
    for entry in meta(copied).get("managedFields") or []:
        if isinstance(entry, dict):
            entry.pop("time", None)
    return copied
