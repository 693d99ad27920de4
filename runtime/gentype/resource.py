"""What a resource client is built from: the resource, its codec, and the request for each verb.

client-go's gentype generic client in Python, the part without I/O. ``ResourceInfo`` names one
resource (group, version, plural) and builds its paths; a ``Codec`` turns bytes into objects
and back: typed models for generated clients, plain dicts (``DictCodec``) for the dynamic
client. ``_Requests`` builds the ``Request`` of each verb once, for ``ResourceClient`` and
``AsyncResourceClient`` (``kgen.runtime.gentype.client``), which only send them.
"""

from __future__ import annotations

import copy
import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

import httpx
import msgspec

from kgen.runtime.apimachinery.model import Model
from kgen.runtime.rest.client import CONNECT_TIMEOUT, Request

T = TypeVar("T")
"""The type of the decoded objects."""
L = TypeVar("L")
"""The type of the decoded lists."""

DEFAULT_PAGE_SIZE = 500
"""client-go's tools/pager default page size (pager.defaultPageSize)."""
WATCH_IDLE_TIMEOUT = 330.0
"""kgen's default read timeout of a watch: events (or bookmarks) arrive at least this often on a
live connection; silence any longer means a dead one, which must not hang the watcher."""


class PatchType(str, enum.Enum):
    """The patch formats the apiserver takes; a patch is always sent as the one asked for."""

    JSON = "application/json-patch+json"
    MERGE = "application/merge-patch+json"
    STRATEGIC = "application/strategic-merge-patch+json"
    APPLY = "application/apply-patch+yaml"


class PropagationPolicy(str, enum.Enum):
    """How a delete treats the object's dependents: orphan them, or delete them in the background or
    before the owner (foreground)."""

    ORPHAN = "Orphan"
    BACKGROUND = "Background"
    FOREGROUND = "Foreground"


@dataclass(frozen=True)
class ResourceInfo:
    """Where a resource is served: its group, version, plural name, whether it is namespaced, and its
    kind."""

    group: str
    version: str
    plural: str
    namespaced: bool
    kind: str = ""
    #: The Kubernetes version the generated package describing the resource was generated from
    #: ("1.37.2"; "" for the dynamic client's): named by ``VersionSkewError``. Not part of the
    #: resource's identity.
    generated_from: str = field(default="", compare=False)

    @property
    def api_version(self) -> str:
        """``group/version``, or ``version`` for the core group."""
        return f"{self.group}/{self.version}" if self.group else self.version

    def path(self, namespace: str | None = None, name: str | None = None, subresource: str | None = None) -> str:
        """The URL path of the collection, or of object ``name`` (and its ``subresource``), in
        ``namespace`` when the resource is namespaced."""
        base = f"/apis/{self.group}/{self.version}" if self.group else f"/api/{self.version}"
        if self.namespaced and namespace:
            base += f"/namespaces/{namespace}"
        base += f"/{self.plural}"
        if name is not None:
            if not name or "/" in name:
                raise ValueError(f"invalid resource name {name!r}")
            base += f"/{name}"
            if subresource:
                base += f"/{subresource}"
        return base


class Codec(Protocol[T, L]):
    """How a client turns bytes into objects and lists, and back: a typed model's codec or
    ``DictCodec``."""

    def decode(self, data: bytes) -> T:
        """An object from JSON."""
    def decode_list(self, data: bytes) -> L:
        """A list from JSON."""
    def encode(self, obj: T) -> bytes:
        """An object as JSON."""
    def name(self, obj: T) -> str:
        """The object's metadata.name."""
    def list_items(self, lst: L) -> list[T]:
        """A list's items."""
    def list_continue(self, lst: L) -> str | None:
        """A list's continue token, None on its last page."""
    def list_with_items(self, lst: L, items: list[T]) -> L:
        """The list with ``items`` instead of its own and no continue token (pages joined into one)."""


class DictCodec:
    """Unstructured objects: plain dicts, exactly as the server sent them."""

    def __init__(self, api_version: str = "", kind: str = "") -> None:
        self._api_version, self._kind = api_version, kind

    def decode(self, data: bytes) -> dict[str, Any]:
        """The JSON as a dict."""
        result: dict[str, Any] = msgspec.json.decode(data)
        return result

    decode_list = decode

    def encode(self, obj: Mapping[str, Any]) -> bytes:
        """The object as JSON, apiVersion and kind added when it has no kind."""
        if self._kind and "kind" not in obj:
            obj = {"apiVersion": self._api_version, "kind": self._kind, **obj}
        return msgspec.json.encode(obj)

    def name(self, obj: Mapping[str, Any]) -> str:
        """metadata.name ("" without one)."""
        return str((obj.get("metadata") or {}).get("name") or "")

    def list_items(self, lst: Mapping[str, Any]) -> list[dict[str, Any]]:
        """The list's items."""
        return list(lst.get("items") or [])

    def list_continue(self, lst: Mapping[str, Any]) -> str | None:
        """The list's continue token, None on its last page."""
        return (lst.get("metadata") or {}).get("continue") or None

    def list_with_items(self, lst: dict[str, Any], items: list[dict[str, Any]]) -> dict[str, Any]:
        """The list with ``items`` instead of its own and no continue token."""
        return {**lst, "items": items, "metadata": {**(lst.get("metadata") or {}), "continue": None}}


def _selector(value: object) -> str | None:
    return None if value is None else str(value)


def _query(**options: Any) -> list[tuple[str, str]]:
    """Query parameters from snake_case options; None is left out, dry_run=True is ``dryRun=All``."""
    params: list[tuple[str, str]] = []
    for key, value in options.items():
        if value is None or value is False and key != "allow_watch_bookmarks":
            continue
        wire = {"continue_": "continue"}.get(key) or key.split("_")[0] + "".join(w.title() for w in key.split("_")[1:])
        if key == "dry_run":
            params.append(("dryRun", "All"))
        elif isinstance(value, bool):
            params.append((wire, "true" if value else "false"))
        elif isinstance(value, enum.Enum):
            params.append((wire, str(value.value)))
        else:
            params.append((wire, str(value)))
    return params


class _Requests(Generic[T, L]):
    """Builds the Request for each verb; shared by the sync and async clients."""

    def __init__(self, resource: ResourceInfo, namespace: str | None, codec: Codec[T, L]) -> None:
        if resource.namespaced is False and namespace:
            raise ValueError(f"{resource.plural} is cluster-scoped: no namespace")
        self.resource = resource
        self.namespace = namespace
        self.codec = codec
        self.timeout: float | None = None
        """seconds that bound each wait of every request but a watch (whose bound is its idle
        timeout); None: the client's (``Config.timeout``, else the transport's defaults)."""

    def with_timeout(self, timeout: float | None) -> _Requests[T, L]:
        other = copy.copy(self)
        other.timeout = timeout
        return other

    def _request(
        self, method: str, path: str, params: list[tuple[str, str]], body: bytes | None = None,
        content_type: str | None = None, accept: str = "application/json",
    ) -> Request:
        return Request(method, path, params, body, content_type, accept, timeout=self.timeout)

    def _path(self, name: str | None = None, subresource: str | None = None) -> str:
        return self.resource.path(self.namespace, name, subresource)

    def _body(self, obj: T) -> bytes:
        return self.codec.encode(obj)

    def get(self, name: str, resource_version: str | None = None, subresource: str | None = None) -> Request:
        return self._request("GET", self._path(name, subresource), _query(resource_version=resource_version))

    def list(self, **options: Any) -> Request:
        for key in ("label_selector", "field_selector"):
            options[key] = _selector(options.get(key))
        return self._request("GET", self._path(), _query(**options))

    def watch(self, idle_timeout: float, **options: Any) -> Request:
        for key in ("label_selector", "field_selector"):
            options[key] = _selector(options.get(key))
        req = Request("GET", self._path(), _query(watch=True, **options))  # bounded by idle_timeout
        # Events (or bookmarks) arrive at least every idle_timeout on a live connection; silence
        # any longer means a dead one, which must not hang the watcher forever.
        req.timeout = httpx.Timeout(None, connect=CONNECT_TIMEOUT, read=idle_timeout)
        return req

    def write(self, method: str, obj: T, subresource: str | None, name: str | None, **options: Any) -> Request:
        path = self._path(name if name is not None else self.codec.name(obj), subresource) if method != "POST" else (
            self._path(name, subresource) if subresource else self._path()
        )
        return self._request(method, path, _query(**options), self._body(obj), "application/json")

    def patch(self, name: str, patch: Any, patch_type: PatchType, subresource: str | None, **options: Any) -> Request:
        body = patch if isinstance(patch, bytes) else msgspec.json.encode(patch)
        return self._request("PATCH", self._path(name, subresource), _query(**options), body, PatchType(patch_type).value)

    def apply(self, obj: T | Model | Mapping[str, Any], field_manager: str, force: bool, subresource: str | None,
              **options: Any) -> Request:
        if not field_manager:
            raise ValueError("server-side apply needs a field_manager")
        # An apply configuration (or any model) is sent as it is: TypeMeta is its own.
        typed: Any = obj
        body = msgspec.json.encode(obj) if isinstance(obj, Mapping) else self._body(typed)
        name = (obj.get("metadata") or {}).get("name") if isinstance(obj, Mapping) else self.codec.name(typed)
        if not name:
            raise ValueError("server-side apply needs metadata.name")
        return self._request(
            "PATCH", self._path(name, subresource), _query(field_manager=field_manager, force=force or None, **options),
            body, PatchType.APPLY.value,
        )

    def delete(
        self, name: str | None, propagation_policy: PropagationPolicy | str | None, grace_period_seconds: int | None,
        preconditions: Mapping[str, str] | None, dry_run: bool, **list_options: Any,
    ) -> Request:
        body: dict[str, Any] = {"apiVersion": "v1", "kind": "DeleteOptions"}
        if propagation_policy is not None:
            body["propagationPolicy"] = PropagationPolicy(propagation_policy).value
        if grace_period_seconds is not None:
            body["gracePeriodSeconds"] = grace_period_seconds
        if preconditions:
            body["preconditions"] = dict(preconditions)
        if dry_run:
            body["dryRun"] = ["All"]
        for key in ("label_selector", "field_selector"):
            if key in list_options:
                list_options[key] = _selector(list_options[key])
        path = self._path(name) if name is not None else self._path()
        return self._request("DELETE", path, _query(**list_options), msgspec.json.encode(body), "application/json")

    def subresource(self, method: str, name: str, subresource: str, body: bytes, **options: Any) -> Request:
        """A subresource whose body the caller encodes (scale, eviction, binding)."""
        return self._request(method, self._path(name, subresource), _query(**options), body, "application/json")

    def stream(self, name: str, subresource: str, **options: Any) -> Request:
        """A streaming subresource (pods/log), read as text."""
        return self._request("GET", self._path(name, subresource), _query(**options), accept="*/*")


def _decoded_or_none(codec: Codec[T, Any], kind: str, data: bytes) -> T | None:
    """Delete answers with the object (while finalizers run) or with a Status."""
    head = msgspec.json.decode(data, type=dict[str, Any])
    return None if head.get("kind") == "Status" or (kind and head.get("kind") != kind) else codec.decode(data)
