"""A client for one resource (group, version, plural): every verb, sync and async.

client-go's gentype generic client in Python. A ``Codec`` turns bytes into objects and back:
typed models for generated clients, plain dicts for the dynamic client. Requests are built
once (``_Requests``); ``ResourceClient`` and ``AsyncResourceClient`` only send them.
"""

from __future__ import annotations

import enum
import socket
from collections.abc import AsyncIterator, Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

import httpx
import msgspec

from kgen.runtime.apimachinery.errors import Expired
from kgen.runtime.rest.client import AsyncRESTClient, Request, RESTClient
from kgen.runtime.rest.watch import WatchDecoder, WatchEvent

T = TypeVar("T")
L = TypeVar("L")


class PatchType(str, enum.Enum):
    """The patch formats the apiserver takes; a patch is always sent as the one asked for."""

    JSON = "application/json-patch+json"
    MERGE = "application/merge-patch+json"
    STRATEGIC = "application/strategic-merge-patch+json"
    APPLY = "application/apply-patch+yaml"


class PropagationPolicy(str, enum.Enum):
    ORPHAN = "Orphan"
    BACKGROUND = "Background"
    FOREGROUND = "Foreground"


@dataclass(frozen=True)
class ResourceInfo:
    group: str
    version: str
    plural: str
    namespaced: bool
    kind: str = ""

    @property
    def api_version(self) -> str:
        return f"{self.group}/{self.version}" if self.group else self.version

    def path(self, namespace: str | None = None, name: str | None = None, subresource: str | None = None) -> str:
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
    def decode(self, data: bytes) -> T: ...
    def decode_list(self, data: bytes) -> L: ...
    def encode(self, obj: T) -> bytes: ...
    def name(self, obj: T) -> str: ...
    def list_items(self, lst: L) -> list[T]: ...
    def list_continue(self, lst: L) -> str | None: ...
    def list_with_items(self, lst: L, items: list[T]) -> L: ...


class DictCodec:
    """Unstructured objects: plain dicts, exactly as the server sent them."""

    def __init__(self, api_version: str = "", kind: str = "") -> None:
        self._api_version, self._kind = api_version, kind

    def decode(self, data: bytes) -> dict[str, Any]:
        result: dict[str, Any] = msgspec.json.decode(data)
        return result

    decode_list = decode

    def encode(self, obj: Mapping[str, Any]) -> bytes:
        if self._kind and "kind" not in obj:
            obj = {"apiVersion": self._api_version, "kind": self._kind, **obj}
        return msgspec.json.encode(obj)

    def name(self, obj: Mapping[str, Any]) -> str:
        return str((obj.get("metadata") or {}).get("name") or "")

    def list_items(self, lst: Mapping[str, Any]) -> list[dict[str, Any]]:
        return list(lst.get("items") or [])

    def list_continue(self, lst: Mapping[str, Any]) -> str | None:
        return (lst.get("metadata") or {}).get("continue") or None

    def list_with_items(self, lst: dict[str, Any], items: list[dict[str, Any]]) -> dict[str, Any]:
        return {**lst, "items": items, "metadata": {**(lst.get("metadata") or {}), "continue": None}}


class WatchStream(Generic[T]):
    """An open watch (client-go's ``watch.Interface``): iterate it for events; ``stop()``, from
    any thread, ends the iteration. Use it as a context manager so the connection is released.

    ``open_watch`` raises what the server answers at connect time (410, 429...); an ``ERROR``
    event raises its ``ApiError`` from the iteration; a dropped connection raises httpx's error,
    unless the stream was stopped, which ends the iteration quietly.
    """

    def __init__(self, response: httpx.Response, decoder: WatchDecoder[T]) -> None:
        self._response = response
        self._decoder = decoder
        self._stopped = False

    def __iter__(self) -> Iterator[WatchEvent[T]]:
        if self._stopped:
            return
        try:
            for chunk in self._response.iter_bytes():
                yield from self._decoder.feed(chunk)
            yield from self._decoder.finish()
        except Exception:
            if not self._stopped:
                raise

    def stop(self) -> None:
        """Ends the iteration, even one blocked in a read on another thread."""
        self._stopped = True
        # Closing a response from another thread does not wake a blocked read; shutting the
        # socket down does (the reader then sees EOF and closes the response itself).
        stream = self._response.extensions.get("network_stream")
        sock = stream.get_extra_info("socket") if stream is not None else None
        if isinstance(sock, socket.socket):
            try:
                socket.socket.shutdown(sock, socket.SHUT_RDWR)  # the plain socket's, also under TLS
            except OSError:
                pass

    def close(self) -> None:
        self._response.close()

    def __enter__(self) -> "WatchStream[T]":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class AsyncWatchStream(Generic[T]):
    """``WatchStream`` on asyncio: ``async for event in stream``; cancel the iterating task (or
    call ``stop()`` between events) to end it; ``async with`` releases the connection."""

    def __init__(self, response: httpx.Response, decoder: WatchDecoder[T]) -> None:
        self._response = response
        self._decoder = decoder
        self._stopped = False

    async def __aiter__(self) -> AsyncIterator[WatchEvent[T]]:
        if self._stopped:
            return
        try:
            async for chunk in self._response.aiter_bytes():
                for event in self._decoder.feed(chunk):
                    yield event
            for event in self._decoder.finish():
                yield event
        except Exception:
            if not self._stopped:
                raise

    def stop(self) -> None:
        self._stopped = True

    async def aclose(self) -> None:
        await self._response.aclose()

    async def __aenter__(self) -> "AsyncWatchStream[T]":
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()


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

    def _path(self, name: str | None = None, subresource: str | None = None) -> str:
        return self.resource.path(self.namespace, name, subresource)

    def _body(self, obj: T) -> bytes:
        return self.codec.encode(obj)

    def get(self, name: str, resource_version: str | None = None, subresource: str | None = None) -> Request:
        return Request("GET", self._path(name, subresource), _query(resource_version=resource_version))

    def list(self, **options: Any) -> Request:
        for key in ("label_selector", "field_selector"):
            options[key] = _selector(options.get(key))
        return Request("GET", self._path(), _query(**options))

    def watch(self, idle_timeout: float, **options: Any) -> Request:
        for key in ("label_selector", "field_selector"):
            options[key] = _selector(options.get(key))
        req = Request("GET", self._path(), _query(watch=True, **options))
        # Events (or bookmarks) arrive at least this often on a live connection; silence any
        # longer means a dead one, which must not hang the watcher forever.
        req.timeout = httpx.Timeout(None, connect=30.0, read=idle_timeout)
        return req

    def write(self, method: str, obj: T, subresource: str | None, name: str | None, **options: Any) -> Request:
        path = self._path(name if name is not None else self.codec.name(obj), subresource) if method != "POST" else (
            self._path(name, subresource) if subresource else self._path()
        )
        return Request(method, path, _query(**options), self._body(obj), "application/json")

    def patch(self, name: str, patch: Any, patch_type: PatchType, subresource: str | None, **options: Any) -> Request:
        body = patch if isinstance(patch, bytes) else msgspec.json.encode(patch)
        return Request("PATCH", self._path(name, subresource), _query(**options), body, PatchType(patch_type).value)

    def apply(self, obj: T | Mapping[str, Any], field_manager: str, force: bool, subresource: str | None, **options: Any) -> Request:
        if not field_manager:
            raise ValueError("server-side apply needs a field_manager")
        body = msgspec.json.encode(obj) if isinstance(obj, Mapping) else self._body(obj)
        name = (obj.get("metadata") or {}).get("name") if isinstance(obj, Mapping) else self.codec.name(obj)
        if not name:
            raise ValueError("server-side apply needs metadata.name")
        return Request(
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
        return Request("DELETE", path, _query(**list_options), msgspec.json.encode(body), "application/json")


def _decoded_or_none(codec: Codec[T, Any], kind: str, data: bytes) -> T | None:
    """Delete answers with the object (while finalizers run) or with a Status."""
    head = msgspec.json.decode(data, type=dict[str, Any])
    return None if head.get("kind") == "Status" or (kind and head.get("kind") != kind) else codec.decode(data)


class ResourceClient(Generic[T, L]):
    """Every verb on one resource, in one namespace (or cluster-wide)."""

    def __init__(self, rest: RESTClient, resource: ResourceInfo, namespace: str | None, codec: Codec[T, L]) -> None:
        self._rest = rest
        self._req = _Requests(resource, namespace, codec)
        self._codec = codec

    def get(self, name: str, *, resource_version: str | None = None) -> T:
        return self._codec.decode(self._rest.send(self._req.get(name, resource_version)).content)

    def list(self, **options: Any) -> L:
        """One page: label_selector, field_selector, limit, continue_, resource_version, resource_version_match, timeout_seconds."""
        return self._codec.decode_list(self._rest.send(self._req.list(**options)).content)

    def list_all(self, *, page_size: int = 500, **options: Any) -> L:
        """Every item, fetched in pages; if the snapshot expires midway, one unpaged list (client-go's pager)."""
        pages: list[L] = []
        token: str | None = None
        try:
            while True:
                page = self.list(limit=page_size, continue_=token, **options)
                pages.append(page)
                token = self._codec.list_continue(page)
                if not token:
                    break
        except Expired:
            if not pages:
                raise
            return self.list(**options)
        items = [item for page in pages for item in self._codec.list_items(page)]
        return self._codec.list_with_items(pages[-1], items)

    def iter(self, *, page_size: int = 500, allow_inconsistent: bool = False, **options: Any) -> Iterator[T]:
        """Items page by page. An expired continue token raises ``Expired`` unless
        ``allow_inconsistent``, which continues with the token the server offers (from a newer snapshot)."""
        token: str | None = None
        while True:
            try:
                page = self.list(limit=page_size, continue_=token, **options)
            except Expired as e:
                if not (allow_inconsistent and token and e.continue_token):
                    raise
                token = e.continue_token
                continue
            yield from self._codec.list_items(page)
            token = self._codec.list_continue(page)
            if not token:
                return

    def watch(self, *, idle_timeout: float = 330.0, **options: Any) -> Iterator[WatchEvent[T]]:
        """Events from resource_version on (allow_watch_bookmarks, timeout_seconds, selectors...)."""
        with self.open_watch(idle_timeout=idle_timeout, **options) as stream:
            yield from stream

    def open_watch(self, *, idle_timeout: float = 330.0, **options: Any) -> WatchStream[T]:
        """The same watch as a ``WatchStream``, which another thread can ``stop()``."""
        req = self._req.watch(idle_timeout, **options)
        req.stream = True
        return WatchStream(self._rest.send(req), WatchDecoder(self._codec.decode, req.describe()))

    def create(self, obj: T, *, subresource_of: str | None = None, subresource: str | None = None, **options: Any) -> T:
        """dry_run, field_manager, field_validation ("Strict", "Warn", "Ignore")."""
        req = self._req.write("POST", obj, subresource, subresource_of, **options)
        return self._codec.decode(self._rest.send(req).content)

    def update(self, obj: T, **options: Any) -> T:
        return self._codec.decode(self._rest.send(self._req.write("PUT", obj, None, None, **options)).content)

    def update_status(self, obj: T, **options: Any) -> T:
        return self._codec.decode(self._rest.send(self._req.write("PUT", obj, "status", None, **options)).content)

    def patch(self, name: str, patch: Any, patch_type: PatchType = PatchType.MERGE, *, subresource: str | None = None, **options: Any) -> T:
        return self._codec.decode(self._rest.send(self._req.patch(name, patch, patch_type, subresource, **options)).content)

    def apply(self, obj: T | Mapping[str, Any], *, field_manager: str, force: bool = False, subresource: str | None = None, **options: Any) -> T:
        req = self._req.apply(obj, field_manager, force, subresource, **options)
        return self._codec.decode(self._rest.send(req).content)

    def apply_status(self, obj: T | Mapping[str, Any], *, field_manager: str, force: bool = False, **options: Any) -> T:
        return self.apply(obj, field_manager=field_manager, force=force, subresource="status", **options)

    def delete(
        self, name: str, *, propagation_policy: PropagationPolicy | str | None = None,
        grace_period_seconds: int | None = None, preconditions: Mapping[str, str] | None = None, dry_run: bool = False,
    ) -> T | None:
        """The object while finalizers or grace keep it, else None. preconditions: {"uid": ..., "resourceVersion": ...}."""
        req = self._req.delete(name, propagation_policy, grace_period_seconds, preconditions, dry_run)
        return _decoded_or_none(self._codec, self._req.resource.kind, self._rest.send(req).content)

    def delete_collection(
        self, *, propagation_policy: PropagationPolicy | str | None = None, grace_period_seconds: int | None = None,
        dry_run: bool = False, **list_options: Any,
    ) -> None:
        self._rest.send(self._req.delete(None, propagation_policy, grace_period_seconds, None, dry_run, **list_options))

    def get_subresource(self, name: str, subresource: str, decode: Callable[[bytes], Any] | None = None) -> Any:
        data = self._rest.send(self._req.get(name, None, subresource)).content
        return (decode or msgspec.json.decode)(data)

    def update_subresource(self, name: str, subresource: str, body: bytes, decode: Callable[[bytes], Any] | None = None, **options: Any) -> Any:
        req = Request("PUT", self._req._path(name, subresource), _query(**options), body, "application/json")
        return (decode or msgspec.json.decode)(self._rest.send(req).content)

    def create_subresource(self, name: str, subresource: str, body: bytes, decode: Callable[[bytes], Any] | None = None, **options: Any) -> Any:
        req = Request("POST", self._req._path(name, subresource), _query(**options), body, "application/json")
        return (decode or msgspec.json.decode)(self._rest.send(req).content)

    def stream_lines(self, name: str, subresource: str, **options: Any) -> Iterator[str]:
        """A streaming subresource (pods/log with follow=True) line by line, as text."""
        req = Request("GET", self._req._path(name, subresource), _query(**options), accept="*/*")
        with self._rest.stream(req) as response:
            yield from response.iter_lines()


class AsyncResourceClient(Generic[T, L]):
    """``ResourceClient`` on asyncio: the same verbs, awaited."""

    def __init__(self, rest: AsyncRESTClient, resource: ResourceInfo, namespace: str | None, codec: Codec[T, L]) -> None:
        self._rest = rest
        self._req = _Requests(resource, namespace, codec)
        self._codec = codec

    async def get(self, name: str, *, resource_version: str | None = None) -> T:
        return self._codec.decode((await self._rest.send(self._req.get(name, resource_version))).content)

    async def list(self, **options: Any) -> L:
        return self._codec.decode_list((await self._rest.send(self._req.list(**options))).content)

    async def list_all(self, *, page_size: int = 500, **options: Any) -> L:
        pages: list[L] = []
        token: str | None = None
        try:
            while True:
                page = await self.list(limit=page_size, continue_=token, **options)
                pages.append(page)
                token = self._codec.list_continue(page)
                if not token:
                    break
        except Expired:
            if not pages:
                raise
            return await self.list(**options)
        items = [item for page in pages for item in self._codec.list_items(page)]
        return self._codec.list_with_items(pages[-1], items)

    async def iter(self, *, page_size: int = 500, allow_inconsistent: bool = False, **options: Any) -> AsyncIterator[T]:
        token: str | None = None
        while True:
            try:
                page = await self.list(limit=page_size, continue_=token, **options)
            except Expired as e:
                if not (allow_inconsistent and token and e.continue_token):
                    raise
                token = e.continue_token
                continue
            for item in self._codec.list_items(page):
                yield item
            token = self._codec.list_continue(page)
            if not token:
                return

    async def watch(self, *, idle_timeout: float = 330.0, **options: Any) -> AsyncIterator[WatchEvent[T]]:
        async with await self.open_watch(idle_timeout=idle_timeout, **options) as stream:
            async for event in stream:
                yield event

    async def open_watch(self, *, idle_timeout: float = 330.0, **options: Any) -> AsyncWatchStream[T]:
        req = self._req.watch(idle_timeout, **options)
        req.stream = True
        return AsyncWatchStream(await self._rest.send(req), WatchDecoder(self._codec.decode, req.describe()))

    async def create(self, obj: T, *, subresource_of: str | None = None, subresource: str | None = None, **options: Any) -> T:
        req = self._req.write("POST", obj, subresource, subresource_of, **options)
        return self._codec.decode((await self._rest.send(req)).content)

    async def update(self, obj: T, **options: Any) -> T:
        return self._codec.decode((await self._rest.send(self._req.write("PUT", obj, None, None, **options))).content)

    async def update_status(self, obj: T, **options: Any) -> T:
        return self._codec.decode((await self._rest.send(self._req.write("PUT", obj, "status", None, **options))).content)

    async def patch(self, name: str, patch: Any, patch_type: PatchType = PatchType.MERGE, *, subresource: str | None = None, **options: Any) -> T:
        req = self._req.patch(name, patch, patch_type, subresource, **options)
        return self._codec.decode((await self._rest.send(req)).content)

    async def apply(self, obj: T | Mapping[str, Any], *, field_manager: str, force: bool = False, subresource: str | None = None, **options: Any) -> T:
        req = self._req.apply(obj, field_manager, force, subresource, **options)
        return self._codec.decode((await self._rest.send(req)).content)

    async def apply_status(self, obj: T | Mapping[str, Any], *, field_manager: str, force: bool = False, **options: Any) -> T:
        return await self.apply(obj, field_manager=field_manager, force=force, subresource="status", **options)

    async def delete(
        self, name: str, *, propagation_policy: PropagationPolicy | str | None = None,
        grace_period_seconds: int | None = None, preconditions: Mapping[str, str] | None = None, dry_run: bool = False,
    ) -> T | None:
        req = self._req.delete(name, propagation_policy, grace_period_seconds, preconditions, dry_run)
        return _decoded_or_none(self._codec, self._req.resource.kind, (await self._rest.send(req)).content)

    async def delete_collection(
        self, *, propagation_policy: PropagationPolicy | str | None = None, grace_period_seconds: int | None = None,
        dry_run: bool = False, **list_options: Any,
    ) -> None:
        await self._rest.send(self._req.delete(None, propagation_policy, grace_period_seconds, None, dry_run, **list_options))

    async def get_subresource(self, name: str, subresource: str, decode: Callable[[bytes], Any] | None = None) -> Any:
        data = (await self._rest.send(self._req.get(name, None, subresource))).content
        return (decode or msgspec.json.decode)(data)

    async def update_subresource(self, name: str, subresource: str, body: bytes, decode: Callable[[bytes], Any] | None = None, **options: Any) -> Any:
        req = Request("PUT", self._req._path(name, subresource), _query(**options), body, "application/json")
        return (decode or msgspec.json.decode)((await self._rest.send(req)).content)

    async def create_subresource(self, name: str, subresource: str, body: bytes, decode: Callable[[bytes], Any] | None = None, **options: Any) -> Any:
        req = Request("POST", self._req._path(name, subresource), _query(**options), body, "application/json")
        return (decode or msgspec.json.decode)((await self._rest.send(req)).content)

    async def stream_lines(self, name: str, subresource: str, **options: Any) -> AsyncIterator[str]:
        req = Request("GET", self._req._path(name, subresource), _query(**options), accept="*/*")
        async with self._rest.stream(req) as response:
            async for line in response.aiter_lines():
                yield line
