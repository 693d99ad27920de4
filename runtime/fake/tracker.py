"""An in-memory apiserver for unit tests: ``ObjectTracker``, served through httpx transports.

client-go's fake clientset short-circuits the HTTP layer with reactors; this one does not. The
generated ``FakeClientset`` keeps the real ``RESTClient`` and hands it ``tracker.transport()``
(or ``async_transport()``), so every request is built, sent, answered with a real status code and
a ``Status`` body, and decoded exactly as against a cluster. What the tracker answers follows the
apiserver (checked by ``tests/contract``, which runs one suite against both):

- every verb on every registered resource, namespaced or cluster-scoped, CRDs alike; ``status``
  and ``scale`` subresources; other paths are 404;
- ``resourceVersion`` is one global counter, bumped by every write and never by a no-op write;
  a stale ``metadata.resourceVersion`` is a 409 Conflict, as are failed delete preconditions;
- ``uid``, ``creationTimestamp``, ``generateName`` (five random characters from the apiserver's
  alphabet), ``generation`` (bumped when anything but metadata and status changes);
- status isolation: writes to the main resource keep the stored status, writes to ``/status``
  change only the status;
- label selectors, and field selectors on any dotted path (the apiserver allows only a few);
- lists with ``limit``/``continue`` paging, served from a consistent snapshot like etcd's;
- watches replaying history after a resourceVersion (``""``/``"0"``: the current objects as
  ADDED first), BOOKMARKs, ``timeoutSeconds``, and 410 Expired once history was dropped;
- JSON patch, JSON merge patch, strategic merge patch (``kgen.runtime.apimachinery.patch``) and server-side
  apply with field ownership and conflicts (``kgen.runtime.apimachinery.managedfields``);
- deletion with preconditions, finalizers (the object stays, with ``deletionTimestamp``, until
  an update removes the last one) and the ``foregroundDeletion``/``orphan`` finalizers;
- ``dryRun=All`` everywhere.

What it does not do: defaulting, validation, admission, conversion between versions (each
version is its own store), garbage collection, namespace lifecycle (objects may live in
namespaces that do not exist), graceful pod deletion, and schema-aware merging (see
``kgen.runtime.apimachinery.patch`` for the list-merge rule).

The tracker is thread-safe: informers may watch it from their own threads.
"""

from __future__ import annotations

import asyncio
import base64
import collections
import secrets
import threading
import time
import uuid
from collections.abc import AsyncIterator, Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

import httpx
import msgspec

from kgen.runtime.apimachinery import managedfields
from kgen.runtime.apimachinery.labels import SelectorError, parse
from kgen.runtime.apimachinery.meta import labels_of
from kgen.runtime.apimachinery.managedfields import ApplyConflict
from kgen.runtime.apimachinery.patch import PatchError, json_patch, merge_patch, strategic_merge_patch
from kgen.runtime.gentype.resource import PatchType, ResourceInfo

__all__ = ["ObjectTracker"]

Obj = dict[str, Any]
Key = tuple[str, str]  # (namespace, name); namespace is "" for cluster-scoped objects
Predicate = Callable[[Mapping[str, Any]], bool]

ADDED, MODIFIED, DELETED, BOOKMARK, ERROR = "ADDED", "MODIFIED", "DELETED", "BOOKMARK", "ERROR"
INITIAL_EVENTS_END = "k8s.io/initial-events-end"
#: The apiserver's alphabet for generated names: no vowels, no look-alike digits.
_NAME_ALPHABET = "bcdfghjklmnpqrstvwxz2456789"
_MAX_GENERATED_PREFIX = 63 - 5
DEFAULT_MANAGER = "kgen-fake"
#: Built-in resources that have a spec but no metadata.generation.
_NO_GENERATION = frozenset({
    ("", "services"), ("", "namespaces"), ("", "nodes"), ("", "persistentvolumes"),
    ("", "persistentvolumeclaims"), ("", "resourcequotas"), ("", "limitranges"), ("coordination.k8s.io", "leases"),
})
_SCALABLE_KINDS = frozenset({"Deployment", "ReplicaSet", "StatefulSet", "ReplicationController"})
_SUBRESOURCES = frozenset({"status", "scale"})
_CONFLICT = "the object has been modified; please apply your changes to the latest version and try again"
_EXPIRED_CONTINUE = (
    "The provided continue parameter is too old to display a consistent list result. You can start a new list "
    "without the continue parameter, or use the continue token in this response to retrieve the remainder of the "
    "results. Continuing with the provided token results in an inconsistent list - objects that were created, "
    "modified, or deleted between the time the first chunk was returned and now may show up in the list."
)


def _copy(value: Any) -> Any:
    return msgspec.json.decode(msgspec.json.encode(value))


def _now() -> str:
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def _builtin(group: str) -> bool:
    """Whether a group is Kubernetes' own (CRD groups have a dot and are not *.k8s.io)."""
    return group == "" or "." not in group or group.endswith(".k8s.io")


def _qualified(info: ResourceInfo) -> str:
    return f"{info.plural}.{info.group}" if info.group else info.plural


def _dict(value: Any) -> Obj:
    return value if isinstance(value, dict) else {}


def _meta(obj: Mapping[str, Any]) -> Obj:
    return _dict(obj.get("metadata"))


# -- errors: a Status body with the apiserver's wording ------------------------------------------


class _Failure(Exception):
    def __init__(
        self, code: int, reason: str, message: str, details: Mapping[str, Any] | None = None,
        metadata: Mapping[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.status: Obj = {
            "kind": "Status", "apiVersion": "v1", "metadata": dict(metadata or {}), "status": "Failure",
            "message": message, "reason": reason, **({} if details is None else {"details": dict(details)}), "code": code,
        }
        self.code = code


def _details(info: ResourceInfo, name: str) -> Obj:
    return {"name": name, **({"group": info.group} if info.group else {}), "kind": info.plural}


def _not_found(info: ResourceInfo, name: str) -> _Failure:
    return _Failure(404, "NotFound", f'{_qualified(info)} "{name}" not found', _details(info, name))


def _conflict(info: ResourceInfo, name: str) -> _Failure:
    message = f'Operation cannot be fulfilled on {_qualified(info)} "{name}": {_CONFLICT}'
    return _Failure(409, "Conflict", message, _details(info, name))


def _bad_request(message: str) -> _Failure:
    return _Failure(400, "BadRequest", message)


def _no_route() -> _Failure:
    return _Failure(404, "NotFound", "the server could not find the requested resource", {})


def _invalid(kind: str, name: str, field_path: str, reason: str, message: str) -> _Failure:
    return _Failure(
        422, "Invalid", f'{kind} "{name}" is invalid: {field_path}: {message}',
        {"name": name, "kind": kind, "causes": [{"reason": reason, "message": message, "field": field_path}]},
    )


# -- selectors ----------------------------------------------------------------------------------


def _split_unescaped(text: str, sep: str) -> list[str]:
    parts, current, escaped = [], "", False
    for char in text:
        if escaped:
            current += "\\" + char
            escaped = False
        elif char == "\\":
            escaped = True
        elif char == sep:
            parts.append(current)
            current = ""
        else:
            current += char
    parts.append(current + ("\\" if escaped else ""))
    return parts


def _unescape(value: str) -> str:
    out, escaped = "", False
    for char in value:
        if escaped:
            out += char
            escaped = False
        elif char == "\\":
            escaped = True
        else:
            out += char
    return out


def _field_value(obj: Mapping[str, Any], path: str) -> str:
    node: Any = obj
    for part in path.split("."):
        node = node.get(part) if isinstance(node, Mapping) else None
    if node is None:
        return ""
    if isinstance(node, bool):
        return "true" if node else "false"
    return str(node)


def _field_selector(text: str | None) -> Predicate:
    """A predicate from a field selector: ``a.b=v``, ``a.b==v``, ``a.b!=v``, comma-separated,
    values escaped as fields.EscapeValue does (``\\,``, ``\\=``, ``\\\\``)."""
    terms: list[tuple[str, bool, str]] = []
    for term in _split_unescaped((text or "").strip(), ",") if (text or "").strip() else []:
        for op in ("!=", "==", "="):
            at = term.find(op)
            if at > 0:
                terms.append((term[:at].strip(), op != "!=", _unescape(term[at + len(op):])))
                break
        else:
            raise SelectorError(f"invalid selector: '{text}'; can't understand '{term}'")
    return lambda obj: all((_field_value(obj, path) == value) == equal for path, equal, value in terms)


def _selector(params: httpx.QueryParams) -> Predicate:
    try:
        by_labels = parse(params.get("labelSelector"))
        by_fields = _field_selector(params.get("fieldSelector"))
    except SelectorError as e:
        raise _bad_request(str(e)) from None
    return lambda obj: by_labels(labels_of(obj)) and by_fields(obj)


def _label_selector_string(selector: Any) -> str:
    """A LabelSelector (or an RC's plain map) in its string form, as Scale.status.selector has it."""
    if not isinstance(selector, Mapping):
        return ""
    if "matchLabels" not in selector and "matchExpressions" not in selector:
        return ",".join(f"{k}={v}" for k, v in sorted(selector.items()))
    terms = [f"{k}={v}" for k, v in sorted((selector.get("matchLabels") or {}).items())]
    for expr in selector.get("matchExpressions") or []:
        key, op, values = expr.get("key"), expr.get("operator"), sorted(expr.get("values") or [])
        terms.append({
            "In": f"{key} in ({','.join(values)})", "NotIn": f"{key} notin ({','.join(values)})",
            "Exists": f"{key}", "DoesNotExist": f"!{key}",
        }.get(op, ""))
    return ",".join(sorted(t for t in terms if t))


# -- requests and answers -----------------------------------------------------------------------


@dataclass
class _Call:
    """One HTTP request, as the tracker sees it (the same for both transports)."""

    method: str
    path: str
    params: httpx.QueryParams
    body: bytes
    content_type: str
    user_agent: str
    read_timeout: float | None

    @classmethod
    def of(cls, request: httpx.Request, body: bytes) -> "_Call":
        timeout = request.extensions.get("timeout") or {}
        read = timeout.get("read") if isinstance(timeout, Mapping) else None
        return cls(
            request.method, request.url.path, request.url.params, body,
            request.headers.get("Content-Type", "").split(";")[0].strip(), request.headers.get("User-Agent", ""),
            float(read) if isinstance(read, (int, float)) else None,
        )

    @property
    def dry_run(self) -> bool:
        return bool(self.params.get("dryRun"))

    @property
    def manager(self) -> str:
        """The field manager: the query's, else the apiserver's default (the user agent's first word)."""
        return self.params.get("fieldManager") or self.user_agent.split("/")[0].strip() or DEFAULT_MANAGER

    def json(self) -> Any:
        try:
            return msgspec.json.decode(self.body) if self.body else None
        except msgspec.DecodeError as e:
            raise _bad_request(f"the body of the request could not be decoded: {e}") from None


@dataclass(frozen=True)
class _Route:
    info: ResourceInfo
    namespace: str
    name: str
    subresource: str

    @property
    def key(self) -> Key:
        return (self.namespace if self.info.namespaced else "", self.name)


@dataclass(frozen=True)
class _Event:
    rv: int
    type: str
    info: ResourceInfo
    key: Key
    obj: Obj  # the object after the event; for DELETED its last state at the deletion's resourceVersion
    prev: Obj | None  # the object before it (None for ADDED)


@dataclass
class _Reply:
    code: int
    body: Obj | None = None
    watch: "_Watch | None" = None


# -- the tracker --------------------------------------------------------------------------------


class ObjectTracker:
    """Objects by resource, a global resourceVersion and the event history watches replay.

    ``status_subresources`` lists the resources with a ``status`` subresource; None (the
    default) means all of them, which is right for the built-in resources that have a status. A
    resource without one serves no ``/status`` and lets main-resource writes set the status (a
    CRD without ``subresources.status``). ``history`` events are kept; a watch or a paged list
    from before the oldest one gets 410 Expired (``compact()`` drops them all, to test that
    path). ``bookmark_interval`` is how often watches that allow bookmarks get one (the
    apiserver: about a minute)."""

    def __init__(
        self, resources: Iterable[ResourceInfo] = (), *, status_subresources: Iterable[ResourceInfo] | None = None,
        history: int = 10_000, bookmark_interval: float = 1.0,
    ) -> None:
        self._resources: dict[tuple[str, str, str], ResourceInfo] = {}
        self._without_status: set[ResourceInfo] = set()
        self._by_kind: dict[tuple[str, str], ResourceInfo] = {}
        self._objects: dict[ResourceInfo, dict[Key, Obj]] = {}
        self._lock = threading.RLock()
        self._changed = threading.Condition(self._lock)
        self._wakers: set[Callable[[], None]] = set()
        self._seq = 0  # bumped on every write and watch close: what waiting watches wait for
        self._rv = 0
        self._floor = 0  # every event with rv > floor is still in history
        self._history: collections.deque[_Event] = collections.deque()
        self._history_size = history
        self.bookmark_interval = bookmark_interval
        with_status = None if status_subresources is None else set(status_subresources)
        for info in resources:
            self.register(info, status=with_status is None or info in with_status)

    # -- the Python API ------------------------------------------------------------------------

    def register(self, info: ResourceInfo, *, status: bool = True) -> None:
        """Serves one more resource (a CRD's, say); ``status``: whether it has a status subresource."""
        with self._lock:
            self._resources[(info.group, info.version, info.plural)] = info
            if status:
                self._without_status.discard(info)
            else:
                self._without_status.add(info)
            if info.kind:
                self._by_kind.setdefault((info.api_version, info.kind), info)
            self._objects.setdefault(info, {})

    @property
    def resource_version(self) -> str:
        with self._lock:
            return str(self._rv)

    def add(self, obj: Mapping[str, Any]) -> Obj:
        """Stores ``obj`` as it is (status included), creating or replacing it: test fixtures.

        The resource comes from ``apiVersion`` and ``kind``; a namespaced object without a
        namespace goes to ``default``. Returns the stored object."""
        info = self._by_kind.get((str(obj.get("apiVersion") or ""), str(obj.get("kind") or "")))
        if info is None:
            raise ValueError(f"no resource registered for apiVersion={obj.get('apiVersion')!r} kind={obj.get('kind')!r}")
        new: Obj = _copy(obj)
        meta = new.setdefault("metadata", {})
        if info.namespaced:
            meta["namespace"] = meta.get("namespace") or "default"
        else:
            meta.pop("namespace", None)
        if not meta.get("name") and not meta.get("generateName"):
            raise ValueError("the object needs metadata.name or metadata.generateName")
        meta.setdefault("uid", str(uuid.uuid4()))
        meta.setdefault("creationTimestamp", _now())
        with self._lock:
            if not meta.get("name"):
                meta["name"] = self._generate_name(info, meta.get("namespace") or "", str(meta["generateName"]))
            key = (meta.get("namespace") or "", meta["name"])
            self._commit(info, key, new, self._objects[info].get(key))
            stored: Obj = _copy(new)
            return stored

    def compact(self) -> None:
        """Forgets the event history: older watches and continue tokens now get 410 Expired."""
        with self._lock:
            self._history.clear()
            self._floor = self._rv

    def transport(self) -> httpx.BaseTransport:
        return _Transport(self)

    def async_transport(self) -> httpx.AsyncBaseTransport:
        return _AsyncTransport(self)

    # -- serving -------------------------------------------------------------------------------

    def _serve(self, call: _Call) -> _Reply:
        try:
            with self._lock:
                return self._dispatch(call)
        except _Failure as failure:
            return _Reply(failure.code, failure.status)

    def _route(self, path: str) -> _Route:
        parts = path.strip("/").split("/")
        if len(parts) >= 2 and parts[0] == "api":
            group, version, rest = "", parts[1], parts[2:]
        elif len(parts) >= 3 and parts[0] == "apis":
            group, version, rest = parts[1], parts[2], parts[3:]
        else:
            raise _no_route()
        namespace = ""
        # apiserver's RequestInfo rule: namespaces/{ns}/{resource}... unless it is a namespace subresource
        if len(rest) >= 3 and rest[0] == "namespaces" and rest[2] not in ("status", "finalize"):
            namespace, rest = rest[1], rest[2:]
        info = self._resources.get((group, version, rest[0])) if 1 <= len(rest) <= 3 else None
        if info is None or any(not part for part in rest):
            raise _no_route()
        name = rest[1] if len(rest) > 1 else ""
        subresource = rest[2] if len(rest) > 2 else ""
        if (info.namespaced and name and not namespace) or (namespace and not info.namespaced):
            raise _no_route()
        if subresource and (subresource not in _SUBRESOURCES or (subresource == "status" and info in self._without_status)):
            raise _no_route()
        return _Route(info, namespace, name, subresource)

    def _dispatch(self, call: _Call) -> _Reply:
        route = self._route(call.path)
        method, named, sub = call.method, bool(route.name), route.subresource
        if method == "GET" and named:
            return self._get_scale(route) if sub == "scale" else _Reply(200, self._stored(route))
        if method == "GET":
            return self._watch(route, call) if call.params.get("watch") in ("true", "1") else self._list(route, call)
        if method == "POST" and not named:
            return self._create(route, call)
        if method == "PUT" and named:
            return self._update_scale(route, call) if sub == "scale" else self._update(route, call)
        if method == "PATCH" and named:
            return self._patch(route, call)
        if method == "DELETE" and named and not sub:
            return self._delete(route, call)
        if method == "DELETE" and not named:
            return self._delete_collection(route, call)
        raise _Failure(405, "MethodNotAllowed", "the server does not allow this method on the requested resource", {})

    # -- storage -------------------------------------------------------------------------------

    def _stored(self, route: _Route) -> Obj:
        obj = self._objects[route.info].get(route.key)
        if obj is None:
            raise _not_found(route.info, route.name)
        return obj

    def _commit(self, info: ResourceInfo, key: Key, obj: Obj | None, prev: Obj | None) -> None:
        """The one place that writes: bumps the resourceVersion, records the event, wakes watches."""
        self._rv += 1
        if obj is not None:
            obj["metadata"]["resourceVersion"] = str(self._rv)
            self._objects[info][key] = obj
            event = _Event(self._rv, ADDED if prev is None else MODIFIED, info, key, obj, prev)
        else:
            assert prev is not None
            self._objects[info].pop(key, None)
            gone: Obj = _copy(prev)
            gone["metadata"]["resourceVersion"] = str(self._rv)
            event = _Event(self._rv, DELETED, info, key, gone, prev)
        self._history.append(event)
        while len(self._history) > self._history_size:
            self._floor = self._history.popleft().rv
        self._wake()

    def _wake(self) -> None:
        self._seq += 1
        self._changed.notify_all()
        for wake in list(self._wakers):
            wake()

    def _snapshot(self, info: ResourceInfo, rv: int) -> dict[Key, Obj]:
        """The objects as they were at ``rv``: today's, with the later events undone."""
        if rv < self._floor:
            raise _Failure(410, "Expired", "The resourceVersion for the provided list is too old.")
        objects = dict(self._objects[info])
        for event in reversed(self._history):
            if event.rv <= rv:
                break
            if event.info != info:
                continue
            if event.prev is None:
                objects.pop(event.key, None)
            else:
                objects[event.key] = event.prev
        return objects

    def _generate_name(self, info: ResourceInfo, namespace: str, prefix: str) -> str:
        for _ in range(8):
            name = prefix[:_MAX_GENERATED_PREFIX] + "".join(secrets.choice(_NAME_ALPHABET) for _ in range(5))
            if (namespace if info.namespaced else "", name) not in self._objects[info]:
                return name
        raise _Failure(409, "AlreadyExists", f'{_qualified(info)} "{prefix}" already exists', _details(info, prefix))

    # -- what every write shares ---------------------------------------------------------------

    def _check_identity(self, route: _Route, body: Any) -> Obj:
        if not isinstance(body, dict):
            raise _bad_request("the body of the request must be a JSON object")
        meta = _meta(body)
        api_version, kind = body.get("apiVersion"), body.get("kind")
        if api_version and api_version != route.info.api_version:
            raise _bad_request(
                f"the API version in the data ({api_version}) does not match the expected API version ({route.info.api_version})"
            )
        if kind and route.info.kind and kind != route.info.kind:
            raise _bad_request(f"the kind in the data ({kind}) does not match the expected kind ({route.info.kind})")
        if route.info.namespaced and meta.get("namespace") and route.namespace and meta["namespace"] != route.namespace:
            raise _bad_request("the namespace of the provided object does not match the namespace sent on the request")
        if route.name and meta.get("name") and meta["name"] != route.name:
            raise _bad_request(f"the name of the object ({meta['name']}) does not match the name on the URL ({route.name})")
        return body

    def _typed(self, info: ResourceInfo, obj: Obj) -> Obj:
        """``obj`` with apiVersion and kind first, as the apiserver writes objects."""
        rest = {k: v for k, v in obj.items() if k not in ("apiVersion", "kind")}
        return {"kind": info.kind or obj.get("kind"), "apiVersion": info.api_version, **rest}

    def _tracks_generation(self, info: ResourceInfo, obj: Mapping[str, Any]) -> bool:
        if not _builtin(info.group):
            return True  # custom resources always carry a generation
        return "spec" in obj and (info.group, info.plural) not in _NO_GENERATION

    @staticmethod
    def _spec_of(obj: Mapping[str, Any]) -> Obj:
        """What a generation counts: everything but metadata and status."""
        return {k: v for k, v in obj.items() if k not in ("apiVersion", "kind", "metadata", "status")}

    def _next_version(self, route: _Route, stored: Obj, incoming: Obj) -> Obj:
        """What an update (or a patch's result) makes of ``stored``: the server's own metadata
        kept, the status kept by main-resource writes, only the status taken by status writes."""
        if route.subresource == "status":
            new: Obj = _copy(stored)
            if "status" in incoming:
                new["status"] = _copy(incoming["status"])
            else:
                new.pop("status", None)
            return new
        new = self._typed(route.info, _copy(incoming))
        meta = new.setdefault("metadata", {})
        old_meta = _meta(stored)
        for key in ("name", "namespace", "uid", "creationTimestamp", "deletionTimestamp",
                    "deletionGracePeriodSeconds", "generation", "resourceVersion", "managedFields"):
            if key in old_meta:
                meta[key] = old_meta[key]
            else:
                meta.pop(key, None)
        if route.info not in self._without_status:
            if "status" in stored:
                new["status"] = _copy(stored["status"])
            else:
                new.pop("status", None)
        if "generation" in old_meta and self._spec_of(stored) != self._spec_of(new):
            meta["generation"] = int(old_meta["generation"]) + 1
        return new

    def _check_version(self, route: _Route, stored: Obj, incoming: Mapping[str, Any]) -> None:
        wanted = _meta(incoming).get("resourceVersion")
        if wanted and wanted != _meta(stored).get("resourceVersion"):
            raise _conflict(route.info, route.name)

    def _save(self, route: _Route, stored: Obj, new: Obj, dry_run: bool) -> Obj:
        """Writes ``new`` over ``stored`` unless nothing changed; finishes a deletion whose
        last finalizer is gone."""
        if _without_times(new) == _without_times(stored):
            return stored
        if dry_run:
            return new
        self._commit(route.info, route.key, new, stored)
        meta = _meta(new)
        if meta.get("deletionTimestamp") and not meta.get("finalizers"):
            self._commit(route.info, route.key, None, new)
        return new

    def _record_update(self, route: _Route, call: _Call, old: Obj | None, new: Obj) -> None:
        entries = managedfields.read_entries(old) if old else []
        entries = managedfields.record_update(
            entries, call.manager, route.subresource, route.info.api_version, _now(), old, new,
            status_apart=route.info not in self._without_status,
        )
        managedfields.write_entries(new, entries)

    # -- verbs ---------------------------------------------------------------------------------

    def _create(self, route: _Route, call: _Call) -> _Reply:
        info = route.info
        body = self._check_identity(route, call.json())
        new = self._typed(info, _copy(body))
        meta = new.setdefault("metadata", {})
        if info.namespaced:
            if not route.namespace:
                raise _no_route()
            meta["namespace"] = route.namespace
        else:
            meta.pop("namespace", None)
        if not meta.get("name"):
            if not meta.get("generateName"):
                raise _invalid(
                    info.kind, "", "metadata.name", "FieldValueRequired", "Required value: name or generateName is required"
                )
            meta["name"] = self._generate_name(info, route.namespace, str(meta["generateName"]))
        key = (route.namespace if info.namespaced else "", str(meta["name"]))
        if key in self._objects[info]:
            raise _Failure(409, "AlreadyExists", f'{_qualified(info)} "{key[1]}" already exists', _details(info, key[1]))
        for server_owned in ("resourceVersion", "deletionTimestamp", "deletionGracePeriodSeconds", "managedFields", "generation"):
            meta.pop(server_owned, None)
        meta["uid"] = str(uuid.uuid4())
        meta["creationTimestamp"] = _now()
        if info not in self._without_status:
            new.pop("status", None)  # the status subresource's: a create cannot set it
        if (info.group, info.plural) == ("", "namespaces"):
            new["status"] = {"phase": "Active"}
            meta["labels"] = {**(meta.get("labels") or {}), "kubernetes.io/metadata.name": meta["name"]}
        if self._tracks_generation(info, new):
            meta["generation"] = 1
        self._record_update(route, call, None, new)
        if not call.dry_run:
            self._commit(info, key, new, None)
        return _Reply(201, new)

    def _update(self, route: _Route, call: _Call) -> _Reply:
        body = self._check_identity(route, call.json())
        stored = self._stored(route)
        self._check_version(route, stored, body)
        new = self._next_version(route, stored, body)
        self._record_update(route, call, stored, new)
        return _Reply(200, self._save(route, stored, new, call.dry_run))

    def _patch(self, route: _Route, call: _Call) -> _Reply:
        if call.content_type == PatchType.APPLY.value:
            return self._apply(route, call)
        if call.content_type == PatchType.STRATEGIC.value and not _builtin(route.info.group):
            raise _unsupported_patch(custom_resource=True)
        patchers: dict[str, Callable[[Any, Any], Any]] = {
            PatchType.JSON.value: json_patch, PatchType.MERGE.value: merge_patch,
            PatchType.STRATEGIC.value: strategic_merge_patch,
        }
        patcher = patchers.get(call.content_type)
        if patcher is None:
            raise _unsupported_patch(custom_resource=False)
        patch = call.json()
        if not isinstance(patch, list if call.content_type == PatchType.JSON.value else dict):
            raise _bad_request(f"error decoding patch: a {call.content_type} patch cannot be {type(patch).__name__}")
        stored = self._stored(route)
        target = self._scale_of(route, stored) if route.subresource == "scale" else stored
        try:
            patched = patcher(target, patch)
        except PatchError as e:
            raise _Failure(
                422, "Invalid", "the server rejected our request due to an error in our request",
                {"causes": [{"reason": "FieldValueInvalid", "message": str(e), "field": "patch"}]},
            ) from None
        if not isinstance(patched, dict):
            raise _Failure(422, "Invalid", "the server rejected our request due to an error in our request")
        if route.subresource == "scale":
            return self._write_scale(route, call, stored, patched)
        self._check_version(route, stored, patched)
        new = self._next_version(route, stored, patched)
        self._record_update(route, call, stored, new)
        return _Reply(200, self._save(route, stored, new, call.dry_run))

    def _apply(self, route: _Route, call: _Call) -> _Reply:
        info = route.info
        if not call.params.get("fieldManager"):
            raise _Failure(
                422, "Invalid",
                'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch',
                {"group": "meta.k8s.io", "kind": "PatchOptions", "causes": [{
                    "reason": "FieldValueRequired", "message": "Required value: is required for apply patch",
                    "field": "fieldManager",
                }]},
            )
        applied = call.json()
        if not isinstance(applied, dict) or applied.get("apiVersion") != info.api_version or (
            info.kind and applied.get("kind") != info.kind
        ):
            version = str(applied.get("apiVersion") or "") if isinstance(applied, dict) else ""
            group, _, ver = version.rpartition("/")
            kind = applied.get("kind") if isinstance(applied, dict) else ""
            raise _bad_request(f"invalid object type: {group}/{ver}, Kind={kind or ''}")
        self._check_identity(route, applied)
        if not _meta(applied).get("name"):
            raise _bad_request(f"the name of the object ({route.name} based on URL) was undeterminable: name must be provided")
        stored = self._objects[info].get(route.key)
        if stored is None and route.subresource:
            raise _not_found(info, route.name)
        if stored is not None:
            self._check_version(route, stored, applied)
        try:
            merged, entries = managedfields.apply(
                managedfields.read_entries(stored) if stored else [], call.manager, route.subresource,
                info.api_version, _now(), stored or {}, applied, call.params.get("force") == "true",
                status_apart=info not in self._without_status,
            )
        except ApplyConflict as conflict:
            raise _Failure(409, "Conflict", conflict.message, {"causes": conflict.causes()}) from None
        if stored is None:
            merged.setdefault("metadata", {})["name"] = route.name
            new = self._typed(info, merged)
            meta = new["metadata"]
            if info.namespaced:
                meta["namespace"] = route.namespace
            meta["uid"] = str(uuid.uuid4())
            meta["creationTimestamp"] = _now()
            if self._tracks_generation(info, new):
                meta["generation"] = 1
            managedfields.write_entries(new, entries)
            if not call.dry_run:
                self._commit(info, route.key, new, None)
            return _Reply(201, new)
        new = self._next_version(route, stored, merged)
        managedfields.write_entries(new, entries)
        return _Reply(200, self._save(route, stored, new, call.dry_run))

    def _delete(self, route: _Route, call: _Call) -> _Reply:
        options = call.json() or {}
        if not isinstance(options, dict):
            raise _bad_request("the body of the request must be DeleteOptions")
        stored = self._stored(route)
        preconditions = options.get("preconditions") or {}
        meta = _meta(stored)
        kind = route.info.kind or route.info.plural
        for field_name, label, hint in (("uid", "UID", "deleted and then recreated"), ("resourceVersion", "ResourceVersion", "modified")):
            wanted = preconditions.get(field_name)
            if wanted and wanted != meta.get(field_name):
                raise _Failure(
                    409, "Conflict",
                    f'Operation cannot be fulfilled on {kind} "{route.name}": the {label} in the precondition '
                    f"({wanted}) does not match the {label} in record ({meta.get(field_name)}). The object might have been {hint}",
                    {"name": route.name, **({"group": route.info.group} if route.info.group else {}), "kind": kind},
                )
        dry_run = call.dry_run or "All" in (options.get("dryRun") or [])
        return self._delete_one(route, stored, options, dry_run)

    def _delete_one(self, route: _Route, stored: Obj, options: Mapping[str, Any], dry_run: bool) -> _Reply:
        meta = _meta(stored)
        finalizers = list(meta.get("finalizers") or [])
        policy = options.get("propagationPolicy") or ("Orphan" if options.get("orphanDependents") else None)
        extra = {"Foreground": "foregroundDeletion", "Orphan": "orphan"}.get(str(policy))
        if extra and extra not in finalizers:
            finalizers.append(extra)
        if finalizers:
            new: Obj = _copy(stored)
            new_meta = new["metadata"]
            new_meta["finalizers"] = finalizers
            new_meta.setdefault("deletionTimestamp", _now())
            new_meta.setdefault("deletionGracePeriodSeconds", 0)
            return _Reply(200, self._save(route, stored, new, dry_run))
        if not dry_run:
            self._commit(route.info, route.key, None, stored)
        details = {**_details(route.info, route.name), "uid": meta.get("uid")}
        return _Reply(200, {"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Success", "details": details})

    def _delete_collection(self, route: _Route, call: _Call) -> _Reply:
        options = call.json() or {}
        if not isinstance(options, dict):
            raise _bad_request("the body of the request must be DeleteOptions")
        dry_run = call.dry_run or "All" in (options.get("dryRun") or [])
        selected = _selector(call.params)
        deleted = []
        for key, obj in sorted(self._objects[route.info].items()):
            if (route.namespace and key[0] != route.namespace) or not selected(obj):
                continue
            reply = self._delete_one(_Route(route.info, key[0], key[1], ""), obj, options, dry_run)
            deleted.append(obj if reply.body is None or reply.body.get("kind") == "Status" else reply.body)
        return _Reply(200, self._list_body(route.info, [_untyped(route.info, o) for o in deleted], {"resourceVersion": str(self._rv)}))

    def _list_body(self, info: ResourceInfo, items: list[Obj], metadata: Obj) -> Obj:
        return {"kind": f"{info.kind}List", "apiVersion": info.api_version, "metadata": metadata, "items": items}

    def _list(self, route: _Route, call: _Call) -> _Reply:
        params = call.params
        selected = _selector(params)
        try:
            limit = int(params.get("limit") or 0)
        except ValueError:
            raise _bad_request(f'strconv.ParseInt: parsing "{params.get("limit")}": invalid syntax') from None
        start: Key | None = None
        token = params.get("continue")
        if token:
            snapshot_rv, start = _decode_continue(token)
            if snapshot_rv and snapshot_rv < self._floor:  # 0: an inconsistent token, served from now
                fresh = _encode_continue(0, start)
                raise _Failure(410, "Expired", _EXPIRED_CONTINUE, metadata={"continue": fresh})
            snapshot_rv = snapshot_rv or self._rv
        else:
            requested = params.get("resourceVersion") or ""
            snapshot_rv = self._rv
            if requested and _parse_rv(requested) and params.get("resourceVersionMatch") == "Exact":
                snapshot_rv = min(_parse_rv(requested), self._rv)
        objects = self._snapshot(route.info, snapshot_rv)
        items: list[Obj] = []
        remaining = 0
        more: Key | None = None
        for key in sorted(objects):
            if (route.namespace and key[0] != route.namespace) or (start is not None and key <= start):
                continue
            obj = objects[key]
            if not selected(obj):
                continue
            if limit and len(items) >= limit:
                remaining += 1
                continue
            items.append(_untyped(route.info, obj))
            more = key
        metadata: Obj = {"resourceVersion": str(snapshot_rv)}
        if remaining and more is not None:
            metadata["continue"] = _encode_continue(snapshot_rv, more)
            if not params.get("labelSelector") and not params.get("fieldSelector"):
                metadata["remainingItemCount"] = remaining
        return _Reply(200, self._list_body(route.info, items, metadata))

    # -- scale ---------------------------------------------------------------------------------

    def _scale_of(self, route: _Route, obj: Obj) -> Obj:
        spec = _dict(obj.get("spec"))
        if route.info.kind not in _SCALABLE_KINDS and (_builtin(route.info.group) or "replicas" not in spec):
            raise _no_route()
        status = _dict(obj.get("status"))
        meta = _meta(obj)
        selector = status.get("selector") if isinstance(status.get("selector"), str) else _label_selector_string(spec.get("selector"))
        return {
            "kind": "Scale", "apiVersion": "autoscaling/v1",
            "metadata": {k: meta[k] for k in ("name", "namespace", "uid", "resourceVersion", "creationTimestamp") if k in meta},
            "spec": {"replicas": spec.get("replicas", 0)},
            "status": {"replicas": status.get("replicas", 0), **({"selector": selector} if selector else {})},
        }

    def _get_scale(self, route: _Route) -> _Reply:
        return _Reply(200, self._scale_of(route, self._stored(route)))

    def _update_scale(self, route: _Route, call: _Call) -> _Reply:
        body = call.json()
        if not isinstance(body, dict):
            raise _bad_request("the body of the request must be a Scale")
        return self._write_scale(route, call, self._stored(route), body)

    def _write_scale(self, route: _Route, call: _Call, stored: Obj, scale: Obj) -> _Reply:
        self._scale_of(route, stored)  # 404 for resources without a scale subresource
        self._check_version(route, stored, scale)
        replicas = (scale.get("spec") or {}).get("replicas")
        if not isinstance(replicas, int) or replicas < 0:
            raise _invalid("Scale", route.name, "spec.replicas", "FieldValueInvalid", f"Invalid value: {replicas!r}")
        new: Obj = _copy(stored)
        new.setdefault("spec", {})["replicas"] = replicas
        meta = new["metadata"]
        if "generation" in meta and replicas != (stored.get("spec") or {}).get("replicas"):
            meta["generation"] = int(meta["generation"]) + 1
        self._record_update(route, call, stored, new)
        return _Reply(200, self._scale_of(route, self._save(route, stored, new, call.dry_run)))

    # -- watch ---------------------------------------------------------------------------------

    def _watch(self, route: _Route, call: _Call) -> _Reply:
        params = call.params
        selected = _selector(params)
        requested = params.get("resourceVersion") or ""
        send_initial = params.get("sendInitialEvents")
        bookmarks = params.get("allowWatchBookmarks") == "true"
        try:
            timeout = float(params["timeoutSeconds"]) if params.get("timeoutSeconds") else None
        except ValueError:
            raise _bad_request(f"invalid timeoutSeconds {params.get('timeoutSeconds')!r}") from None
        watch = _Watch(self, route, selected, bookmarks, timeout, call.read_timeout)
        if send_initial == "true" or (send_initial is None and requested in ("", "0")):
            for key, obj in sorted(self._objects[route.info].items()):
                if (not route.namespace or key[0] == route.namespace) and selected(obj):
                    watch.pending.append(_line(ADDED, obj))
            watch.cursor = self._rv
            if bookmarks:
                watch.pending.append(watch.bookmark({INITIAL_EVENTS_END: "true"}))
        else:
            watch.cursor = _parse_rv(requested) if requested else self._rv
            if watch.cursor < self._floor:
                watch.expire(f"too old resource version: {watch.cursor} ({self._floor})")
        return _Reply(200, watch=watch)

    def _events_after(self, rv: int) -> list[_Event]:
        events: list[_Event] = []
        for event in reversed(self._history):
            if event.rv <= rv:
                break
            events.append(event)
        events.reverse()
        return events

    async def _wait_async(self, seen: int, timeout: float | None) -> None:
        loop = asyncio.get_running_loop()
        woken = asyncio.Event()

        def wake() -> None:
            try:
                loop.call_soon_threadsafe(woken.set)
            except RuntimeError:  # the loop is closed: nobody is waiting any more
                pass

        with self._lock:
            if self._seq != seen:
                return
            self._wakers.add(wake)
        try:
            await asyncio.wait_for(woken.wait(), timeout)
        except asyncio.TimeoutError:
            pass
        finally:
            with self._lock:
                self._wakers.discard(wake)

    def _wait(self, seen: int, timeout: float | None) -> None:
        with self._changed:
            if self._seq == seen:
                self._changed.wait(timeout)


def _without_times(obj: Mapping[str, Any]) -> Any:
    """``obj`` for comparing: managedFields timestamps do not make a write."""
    copied = _copy(obj)
    for entry in _meta(copied).get("managedFields") or []:
        if isinstance(entry, dict):
            entry.pop("time", None)
    return copied


def _untyped(info: ResourceInfo, obj: Obj) -> Obj:
    """A list item: built-in lists carry no apiVersion/kind on their items, custom resources do."""
    if not _builtin(info.group):
        return obj
    return {k: v for k, v in obj.items() if k not in ("apiVersion", "kind")}


def _unsupported_patch(custom_resource: bool) -> _Failure:
    if not custom_resource:
        return _Failure(415, "UnsupportedMediaType", "415: Unsupported Media Type", {})
    return _Failure(
        415, "UnsupportedMediaType",
        "the body of the request was in an unknown format - accepted media types include: "
        "application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml",
        {},
    )


def _parse_rv(value: str) -> int:
    try:
        rv = int(value)
    except ValueError:
        rv = -1
    if rv < 0:
        raise _bad_request(f'invalid resource version: resourceVersion: Invalid value: "{value}"')
    return rv


def _encode_continue(rv: int, last: Key) -> str:
    token = msgspec.json.encode({"v": "meta.k8s.io/v1", "rv": rv, "start": f"{last[0]}/{last[1]}\u0000"})
    return base64.urlsafe_b64encode(token).decode().rstrip("=")


def _decode_continue(token: str) -> tuple[int, Key]:
    try:
        raw = msgspec.json.decode(base64.urlsafe_b64decode(token + "=" * (-len(token) % 4)))
        rv, start = int(raw["rv"]), str(raw["start"]).rstrip("\u0000")
        namespace, _, name = start.partition("/")
    except (ValueError, KeyError, TypeError, msgspec.DecodeError):
        raise _bad_request(f"invalid continue token: continue key is not valid: {token!r}") from None
    return rv, (namespace, name)


def _line(event_type: str, obj: Mapping[str, Any]) -> bytes:
    return msgspec.json.encode({"type": event_type, "object": obj}) + b"\n"


# -- watches ------------------------------------------------------------------------------------


@dataclass
class _Watch:
    """One watch's state. ``poll`` (shared by both transports) says what to send now and how
    long nothing new can be due; only the waiting differs between sync and async."""

    tracker: ObjectTracker
    route: _Route
    selected: Predicate
    bookmarks: bool
    timeout: float | None
    read_timeout: float | None
    cursor: int = 0
    pending: list[bytes] = field(default_factory=list)
    closed: bool = False
    started: float = field(default_factory=time.monotonic)
    last_sent: float = field(default_factory=time.monotonic)
    next_bookmark: float = 0.0

    def __post_init__(self) -> None:
        self.next_bookmark = self.started + self.tracker.bookmark_interval

    def bookmark(self, annotations: Mapping[str, str] | None = None) -> bytes:
        meta: Obj = {"resourceVersion": str(self.tracker._rv)}
        if annotations:
            meta["annotations"] = dict(annotations)
        info = self.route.info
        return _line(BOOKMARK, {"kind": info.kind, "apiVersion": info.api_version, "metadata": meta})

    def expire(self, message: str) -> None:
        status = _Failure(410, "Expired", message).status
        self.pending.append(_line(ERROR, status))
        self.closed = True

    def close(self) -> None:
        with self.tracker._lock:
            self.closed = True
            self.tracker._wake()

    def _event_line(self, event: _Event) -> bytes | None:
        if event.info != self.route.info or (self.route.namespace and event.key[0] != self.route.namespace):
            return None
        now_passes = event.type != DELETED and self.selected(event.obj)
        if event.type == DELETED:
            return _line(DELETED, event.obj) if self.selected(event.obj) else None
        was_passing = event.prev is not None and self.selected(event.prev)
        if now_passes:
            return _line(MODIFIED if was_passing else ADDED, event.obj)
        if was_passing and event.prev is not None:
            # left the selection: the previous state, at this event's resourceVersion
            gone: Obj = _copy(event.prev)
            gone["metadata"]["resourceVersion"] = str(event.rv)
            return _line(DELETED, gone)
        return None

    def poll(self) -> tuple[bytes, float | None, bool, int]:
        """(bytes to send, seconds until a bookmark or the deadline is due, done, write sequence seen)."""
        tracker = self.tracker
        with tracker._lock:
            now = time.monotonic()
            out = b"".join(self.pending)
            self.pending.clear()
            if self.closed:
                return out, None, True, tracker._seq
            if self.cursor < tracker._floor:
                self.expire(f"too old resource version: {self.cursor} ({tracker._floor})")
                return out + b"".join(self.pending), None, True, tracker._seq
            lines = [line for e in tracker._events_after(self.cursor) if (line := self._event_line(e)) is not None]
            out += b"".join(lines)
            self.cursor = max(self.cursor, tracker._rv)
            deadline = self.started + self.timeout if self.timeout is not None else None
            done = deadline is not None and now >= deadline
            if self.bookmarks and (now >= self.next_bookmark or done):
                out += self.bookmark()
                self.next_bookmark = now + tracker.bookmark_interval
            if out:
                self.last_sent = now
            elif self.read_timeout is not None and now - self.last_sent >= self.read_timeout:
                raise httpx.ReadTimeout(f"no watch event for {self.read_timeout}s")
            due = [t for t in (deadline, self.next_bookmark if self.bookmarks else None) if t is not None]
            if self.read_timeout is not None:
                due.append(self.last_sent + self.read_timeout)
            wait = max(0.0, min(due) - now) if due else None
            return out, wait, done, tracker._seq


class _WatchStream(httpx.SyncByteStream):
    def __init__(self, watch: _Watch) -> None:
        self._watch = watch

    def __iter__(self) -> Iterator[bytes]:
        while True:
            data, wait, done, seen = self._watch.poll()
            if data:
                yield data
            if done:
                return
            if not data:
                self._watch.tracker._wait(seen, wait)

    def close(self) -> None:
        self._watch.close()


class _AsyncWatchStream(httpx.AsyncByteStream):
    def __init__(self, watch: _Watch) -> None:
        self._watch = watch

    async def __aiter__(self) -> AsyncIterator[bytes]:
        while True:
            data, wait, done, seen = self._watch.poll()
            if data:
                yield data
            if done:
                return
            if not data:
                await self._watch.tracker._wait_async(seen, wait)

    async def aclose(self) -> None:
        self._watch.close()


# -- transports ---------------------------------------------------------------------------------


def _json_response(reply: _Reply) -> httpx.Response:
    return httpx.Response(
        reply.code, headers={"Content-Type": "application/json"}, content=msgspec.json.encode(reply.body)
    )


class _Transport(httpx.BaseTransport):
    def __init__(self, tracker: ObjectTracker) -> None:
        self._tracker = tracker

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        reply = self._tracker._serve(_Call.of(request, request.read()))
        if reply.watch is not None:
            return httpx.Response(200, headers={"Content-Type": "application/json"}, stream=_WatchStream(reply.watch))
        return _json_response(reply)


class _AsyncTransport(httpx.AsyncBaseTransport):
    def __init__(self, tracker: ObjectTracker) -> None:
        self._tracker = tracker

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        reply = self._tracker._serve(_Call.of(request, await request.aread()))
        if reply.watch is not None:
            return httpx.Response(200, headers={"Content-Type": "application/json"}, stream=_AsyncWatchStream(reply.watch))
        return _json_response(reply)
