"""A client for one resource (group, version, plural): every verb, sync and async.

client-go's gentype generic client in Python. ``ResourceClient`` and ``AsyncResourceClient``
send the requests ``_Requests`` builds (``kgen.runtime.gentype.resource``) and decode the
answers with the resource's codec; the list pager (``list_all``, ``iter``) follows client-go's
tools/pager, and ``open_watch`` returns a ``WatchStream`` (``kgen.runtime.gentype.watch``).
"""

from __future__ import annotations

import copy
from collections.abc import AsyncGenerator, AsyncIterator, Callable, Generator, Iterator, Mapping
from typing import Any, Generic, Literal, Self, TypeVar, overload

import httpx
import msgspec

from kgen.runtime.apimachinery.apply import ApplyConfiguration
from kgen.runtime.apimachinery.errors import Expired, NotFound, error_from_status
from kgen.runtime.apimachinery.model import Model
from kgen.runtime.apimachinery.validation.refusal import refusal
from kgen.runtime.apimachinery.validation.validation import errors_under, validate
from kgen.runtime.gentype.resource import (
    DEFAULT_PAGE_SIZE,
    WATCH_IDLE_TIMEOUT,
    Codec,
    PatchType,
    PropagationPolicy,
    ResourceInfo,
    _decoded_or_none,
    _Requests,
)
from kgen.runtime.gentype.lines import LineBuffer, decode_line
from kgen.runtime.gentype.skew import (
    answered_by_no_handler, async_check_server_version, async_version_skew, check_server_version, version_skew,
)
from kgen.runtime.gentype.watch import AsyncWatchStream, WatchStream
from kgen.runtime.rest.client import AsyncRESTClient, Request, RESTClient
from kgen.runtime.rest.content_encoding import decode_every_gzip_member
from kgen.runtime.rest.watch import Bookmark, WatchDecoder, WatchEvent

T = TypeVar("T")
"""The type of the resource's objects."""
L = TypeVar("L")
"""The type of the resource's lists."""


def _handed_on(event: WatchEvent[Any] | Bookmark, bookmarks: bool) -> bool:
    """Whether ``watch()`` hands ``event`` on: object events always, a bookmark only to a caller
    that asked for bookmarks (``bookmarks=True``)."""
    return bookmarks or not isinstance(event, Bookmark)


def _watch_options(options: dict[str, Any]) -> dict[str, Any]:
    """The server is asked for bookmarks unless told otherwise, as client-go's reflector asks:
    the apiserver sends one about every minute, which keeps a quiet watch within its idle
    timeout, and a watch-list (sendInitialEvents) is refused without them."""
    return {"allow_watch_bookmarks": True, **options}


def _check(
    req: Request, obj: Any, codec: Codec[Any, Any], options: Mapping[str, Any], *, apply: bool = False,
    status: bool = False,
) -> None:
    """``validate=True``: refuse what the apiserver would refuse, as it would, sending nothing.

    The body about to be sent is checked by ``kgen.runtime.apimachinery.validation.validate``
    under the request's ``field_validation`` (``Strict`` when none is given, as kubectl sends it)
    against the schemas of the package the model comes from; its errors raise the exception the
    apiserver's answer would (``Invalid``, a 422 with its causes, or ``BadRequest``), built from
    the ``Status`` it would send (``kgen.runtime.apimachinery.validation.refusal``). A kind without a schema in that package
    raises LookupError: asked to validate, the client does not send unchecked.

    Server-side apply validates the object *merged* with what the server holds, which the client
    does not know. A full model of the kind is checked whole. An apply configuration or mapping is
    partial: only what the merge cannot undo is checked, the errors at the scalar values it sets
    (a wrong type, format, pattern, enum, bound or length), with its unknown fields ignored and no
    CEL rule, required field, list size or duplicate judged (they depend on the merged object).
    Those errors' list indexes are the configuration's; in a list-map the merged item may sit
    at another index in the server's answer.

    A write to ``status`` keeps the stored object but its status (and metadata): only the errors
    there count (``status=True``); a rule on a node above ``status`` is not judged.
    """
    body = msgspec.json.decode(req.body or b"{}")
    model = getattr(codec, "cls", None) or type(obj)
    module = model.__module__
    package = module.split(".models.")[0] if ".models." in module else None
    partial = apply and not (isinstance(obj, Model) and not isinstance(obj, ApplyConfiguration))
    if partial:
        scalars = set(_scalar_paths(body, ""))
        errors = [e for e in validate(body, package=package, field_validation="Ignore", cel=False)
                  if e.type in _SCALAR_ERRORS and e.field in scalars]
    else:
        errors = validate(body, package=package, field_validation=options.get("field_validation") or "Strict")
    if status:
        errors = errors_under(errors, ("status", "metadata"))
    if errors:
        raise error_from_status(refusal(body, errors), 0, req.describe())


_SCALAR_ERRORS = frozenset({"FieldValueInvalid", "FieldValueNotSupported", "FieldValueTypeInvalid", "FieldValueTooLong"})
"""The errors about one scalar value, which an apply's merge keeps wherever the value lands."""


def _scalar_paths(value: Any, path: str) -> Iterator[str]:
    """The field paths (as the apiserver writes them) of every scalar ``value`` holds."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _scalar_paths(item, f"{path}.{key}" if path else str(key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _scalar_paths(item, f"{path}[{i}]")
    else:
        yield path


class _Timeout:
    """``with_timeout``, for the clients of both flavours."""

    _req: _Requests[Any, Any]

    def with_timeout(self, seconds: float | None) -> Self:
        """This client with every request but a watch bounded by ``seconds`` (each wait: the
        dial, the TLS handshake, each read) instead of the client's ``Config.timeout`` or
        defaults; a watch stays bounded by its idle timeout."""
        other = copy.copy(self)
        other._req = self._req.with_timeout(seconds)
        return other


class ResourceClient(_Timeout, Generic[T, L]):
    """Every verb on one resource, in one namespace (or cluster-wide)."""

    def __init__(self, rest: RESTClient, resource: ResourceInfo, namespace: str | None, codec: Codec[T, L]) -> None:
        self._rest = rest
        self._req = _Requests(resource, namespace, codec)
        self._codec = codec

    def _send(self, req: Request) -> httpx.Response:
        """``rest.send``, the server's version checked on the first call through ``rest``, and a 404 of
        no handler turned into the ``VersionSkewError`` it stands for (``kgen.runtime.gentype.skew``)."""
        check_server_version(self._rest, self._req.resource, self._req.timeout)
        try:
            return self._rest.send(req)
        except NotFound as e:
            if not answered_by_no_handler(e):
                raise
            skew = version_skew(self._rest, self._req.resource, e)
            if skew is None:
                raise
            raise skew from None  # the bare "404 page not found" adds nothing to it

    def get(self, name: str, *, resource_version: str | None = None) -> T:
        """The object ``name`` (``NotFound`` if it is not there); ``resource_version`` "0" allows the
        watch cache's."""
        return self._codec.decode(self._send(self._req.get(name, resource_version)).content)

    def list(self, **options: Any) -> L:
        """One page: label_selector, field_selector, limit, continue_, resource_version, resource_version_match, timeout_seconds."""
        return self._codec.decode_list(self._send(self._req.list(**options)).content)

    def list_all(self, *, page_size: int = DEFAULT_PAGE_SIZE, **options: Any) -> L:
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

    def iter(self, *, page_size: int = DEFAULT_PAGE_SIZE, allow_inconsistent: bool = False, **options: Any) -> Iterator[T]:
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

    def watch(
        self, *, idle_timeout: float = WATCH_IDLE_TIMEOUT, bookmarks: bool = False, **options: Any
    ) -> Iterator[WatchEvent[T] | Bookmark]:
        """Events from resource_version on (timeout_seconds, selectors...); ``Bookmark`` events
        too with ``bookmarks=True`` (the server is asked for them either way: ``_watch_options``)."""
        with self.open_watch(idle_timeout=idle_timeout, **_watch_options(options)) as stream:
            for event in stream:
                if _handed_on(event, bookmarks):
                    yield event

    def open_watch(self, *, idle_timeout: float = WATCH_IDLE_TIMEOUT, **options: Any) -> WatchStream[T]:
        """The same watch as a ``WatchStream``, which another thread can ``stop()``."""
        req = self._req.watch(idle_timeout, **options)
        req.stream = True
        return WatchStream(self._send(req), WatchDecoder(self._codec.decode, req.describe()))

    def is_watch_list_semantics_unsupported(self) -> bool:
        """client-go's IsWatchListSemanticsUnSupported: True behind a fake clientset, whose
        reflectors then list and watch (``RESTClient.watch_list_semantics_unsupported``)."""
        return self._rest.watch_list_semantics_unsupported

    def create(
        self, obj: T, *, subresource_of: str | None = None, subresource: str | None = None, validate: bool = False,
        **options: Any,
    ) -> T:
        """dry_run, field_manager, field_validation ("Strict", "Warn", "Ignore"); ``validate=True``
        refuses locally what the apiserver would refuse, sending nothing (``_check``)."""
        req = self._req.write("POST", obj, subresource, subresource_of, **options)
        if validate:
            _check(req, obj, self._codec, options)
        return self._codec.decode(self._send(req).content)

    def update(self, obj: T, *, validate: bool = False, **options: Any) -> T:
        """Replace the object (a ``Conflict`` if its resourceVersion is stale): dry_run, field_manager,
        field_validation; ``validate=True`` refuses locally what the apiserver would refuse, sending
        nothing."""
        req = self._req.write("PUT", obj, None, None, **options)
        if validate:
            _check(req, obj, self._codec, options)
        return self._codec.decode(self._send(req).content)

    def update_status(self, obj: T, *, validate: bool = False, **options: Any) -> T:
        """Replace the object's status subresource; the options and ``validate`` as ``update``'s."""
        req = self._req.write("PUT", obj, "status", None, **options)
        if validate:
            _check(req, obj, self._codec, options, status=True)
        return self._codec.decode(self._send(req).content)

    def patch(self, name: str, patch: Any, patch_type: PatchType = PatchType.MERGE, *, subresource: str | None = None, **options: Any) -> T:
        """Patch the object ``name`` (or its ``subresource``) with ``patch`` (a dict/list encoded as
        JSON, or bytes), sent as exactly ``patch_type``."""
        return self._codec.decode(self._send(self._req.patch(name, patch, patch_type, subresource, **options)).content)

    def apply(
        self, obj: T | Model | Mapping[str, Any], *, field_manager: str, force: bool = False,
        subresource: str | None = None, validate: bool = False, **options: Any,
    ) -> T:
        """Server-side apply: ``field_manager`` comes to own exactly the fields ``obj`` sets; ``force``
        takes fields other managers own. ``validate`` as ``create``'s."""
        req = self._req.apply(obj, field_manager, force, subresource, **options)
        if validate:
            _check(req, obj, self._codec, options, apply=True, status=subresource == "status")
        return self._codec.decode(self._send(req).content)

    def apply_status(
        self, obj: T | Model | Mapping[str, Any], *, field_manager: str, force: bool = False, validate: bool = False,
        **options: Any,
    ) -> T:
        """``apply`` on the status subresource."""
        return self.apply(obj, field_manager=field_manager, force=force, subresource="status", validate=validate, **options)

    def delete(
        self, name: str, *, propagation_policy: PropagationPolicy | str | None = None,
        grace_period_seconds: int | None = None, preconditions: Mapping[str, str] | None = None, dry_run: bool = False,
    ) -> T | None:
        """The object while finalizers or grace keep it, else None. preconditions: {"uid": ..., "resourceVersion": ...}."""
        req = self._req.delete(name, propagation_policy, grace_period_seconds, preconditions, dry_run)
        return _decoded_or_none(self._codec, self._req.resource.kind, self._send(req).content)

    def delete_collection(
        self, *, propagation_policy: PropagationPolicy | str | None = None, grace_period_seconds: int | None = None,
        dry_run: bool = False, **list_options: Any,
    ) -> None:
        """Delete every object matching ``list_options`` (selectors), in the namespace or cluster-wide."""
        self._send(self._req.delete(None, propagation_policy, grace_period_seconds, None, dry_run, **list_options))

    def get_subresource(self, name: str, subresource: str, decode: Callable[[bytes], Any] | None = None) -> Any:
        """GET subresource ``subresource`` of ``name``, decoded by ``decode`` (JSON by default)."""
        data = self._send(self._req.get(name, None, subresource)).content
        return (decode or msgspec.json.decode)(data)

    def update_subresource(self, name: str, subresource: str, body: bytes, decode: Callable[[bytes], Any] | None = None,
                           **options: Any) -> Any:
        """PUT ``body`` to subresource ``subresource`` of ``name``; the answer decoded by ``decode``
        (JSON by default)."""
        req = self._req.subresource("PUT", name, subresource, body, **options)
        return (decode or msgspec.json.decode)(self._send(req).content)

    def create_subresource(self, name: str, subresource: str, body: bytes, decode: Callable[[bytes], Any] | None = None,
                           **options: Any) -> Any:
        """POST ``body`` to subresource ``subresource`` of ``name`` (pods/eviction); the answer decoded
        by ``decode`` (JSON by default)."""
        req = self._req.subresource("POST", name, subresource, body, **options)
        return (decode or msgspec.json.decode)(self._send(req).content)

    @overload
    def stream_lines(
        self, name: str, subresource: str, *, raw: Literal[False] = False, **options: Any
    ) -> Generator[str, None, None]: ...

    @overload
    def stream_lines(
        self, name: str, subresource: str, *, raw: Literal[True], **options: Any
    ) -> Generator[bytes, None, None]: ...

    def stream_lines(
        self, name: str, subresource: str, *, raw: bool = False, **options: Any
    ) -> Generator[str | bytes, None, None]:
        """A streaming subresource (pods/log with follow=True) line by line: text without the
        ``\\n``, or with ``raw`` the bytes as sent, ``\\n`` included. Lines end at ``\\n`` only, and
        an unterminated last piece is a line (``LineBuffer``); the iterator ends when the server
        ends the body."""
        req = self._req.stream(name, subresource, **options)
        check_server_version(self._rest, self._req.resource, self._req.timeout)
        lines = LineBuffer()
        with self._rest.stream(req) as response:
            decode_every_gzip_member(response)
            for chunk in response.iter_bytes():
                for line in lines.feed(chunk):
                    yield line if raw else decode_line(line)
            if (rest := lines.flush()) is not None:
                yield rest if raw else decode_line(rest)


class AsyncResourceClient(_Timeout, Generic[T, L]):
    """``ResourceClient`` on asyncio: the same verbs, awaited."""

    def __init__(self, rest: AsyncRESTClient, resource: ResourceInfo, namespace: str | None, codec: Codec[T, L]) -> None:
        self._rest = rest
        self._req = _Requests(resource, namespace, codec)
        self._codec = codec

    async def _send(self, req: Request) -> httpx.Response:
        """``ResourceClient._send``, awaited."""
        await async_check_server_version(self._rest, self._req.resource, self._req.timeout)
        try:
            return await self._rest.send(req)
        except NotFound as e:
            if not answered_by_no_handler(e):
                raise
            skew = await async_version_skew(self._rest, self._req.resource, e)
            if skew is None:
                raise
            raise skew from None

    async def get(self, name: str, *, resource_version: str | None = None) -> T:
        """The object ``name`` (``NotFound`` if it is not there); ``resource_version`` "0" allows the
        watch cache's."""
        return self._codec.decode((await self._send(self._req.get(name, resource_version))).content)

    async def list(self, **options: Any) -> L:
        """One page: label_selector, field_selector, limit, continue_, resource_version,
        resource_version_match, timeout_seconds."""
        return self._codec.decode_list((await self._send(self._req.list(**options))).content)

    async def list_all(self, *, page_size: int = DEFAULT_PAGE_SIZE, **options: Any) -> L:
        """Every item, fetched in pages; if the snapshot expires midway, one unpaged list (client-go's
        pager)."""
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

    async def iter(self, *, page_size: int = DEFAULT_PAGE_SIZE, allow_inconsistent: bool = False, **options: Any) -> AsyncIterator[T]:
        """Items page by page. An expired continue token raises ``Expired`` unless
        ``allow_inconsistent``, which continues with the token the server offers (from a newer
        snapshot)."""
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

    async def watch(
        self, *, idle_timeout: float = WATCH_IDLE_TIMEOUT, bookmarks: bool = False, **options: Any
    ) -> AsyncIterator[WatchEvent[T] | Bookmark]:
        """Events from resource_version on (timeout_seconds, selectors...); ``Bookmark`` events too with
        ``bookmarks=True``."""
        async with await self.open_watch(idle_timeout=idle_timeout, **_watch_options(options)) as stream:
            async for event in stream:
                if _handed_on(event, bookmarks):
                    yield event

    async def open_watch(self, *, idle_timeout: float = WATCH_IDLE_TIMEOUT, **options: Any) -> AsyncWatchStream[T]:
        """The same watch as an ``AsyncWatchStream``, which another task can ``stop()``."""
        req = self._req.watch(idle_timeout, **options)
        req.stream = True
        return AsyncWatchStream(await self._send(req), WatchDecoder(self._codec.decode, req.describe()))

    def is_watch_list_semantics_unsupported(self) -> bool:
        """client-go's IsWatchListSemanticsUnSupported: True behind a fake clientset, whose reflectors
        then list and watch."""
        return self._rest.watch_list_semantics_unsupported

    async def create(
        self, obj: T, *, subresource_of: str | None = None, subresource: str | None = None, validate: bool = False,
        **options: Any,
    ) -> T:
        """Create ``obj`` (or, with ``subresource_of``, POST it to that object's ``subresource``):
        dry_run, field_manager, field_validation; ``validate=True`` refuses locally what the apiserver
        would refuse."""
        req = self._req.write("POST", obj, subresource, subresource_of, **options)
        if validate:
            _check(req, obj, self._codec, options)
        return self._codec.decode((await self._send(req)).content)

    async def update(self, obj: T, *, validate: bool = False, **options: Any) -> T:
        """Replace the object (a ``Conflict`` if its resourceVersion is stale): dry_run, field_manager,
        field_validation; ``validate=True`` refuses locally what the apiserver would refuse, sending
        nothing."""
        req = self._req.write("PUT", obj, None, None, **options)
        if validate:
            _check(req, obj, self._codec, options)
        return self._codec.decode((await self._send(req)).content)

    async def update_status(self, obj: T, *, validate: bool = False, **options: Any) -> T:
        """Replace the object's status subresource; the options and ``validate`` as ``update``'s."""
        req = self._req.write("PUT", obj, "status", None, **options)
        if validate:
            _check(req, obj, self._codec, options, status=True)
        return self._codec.decode((await self._send(req)).content)

    async def patch(self, name: str, patch: Any, patch_type: PatchType = PatchType.MERGE, *, subresource: str | None = None,
                    **options: Any) -> T:
        """Patch the object ``name`` (or its ``subresource``) with ``patch`` (a dict/list encoded as
        JSON, or bytes), sent as exactly ``patch_type``."""
        req = self._req.patch(name, patch, patch_type, subresource, **options)
        return self._codec.decode((await self._send(req)).content)

    async def apply(
        self, obj: T | Model | Mapping[str, Any], *, field_manager: str, force: bool = False,
        subresource: str | None = None, validate: bool = False, **options: Any,
    ) -> T:
        """Server-side apply: ``field_manager`` comes to own exactly the fields ``obj`` sets; ``force``
        takes fields other managers own."""
        req = self._req.apply(obj, field_manager, force, subresource, **options)
        if validate:
            _check(req, obj, self._codec, options, apply=True, status=subresource == "status")
        return self._codec.decode((await self._send(req)).content)

    async def apply_status(
        self, obj: T | Model | Mapping[str, Any], *, field_manager: str, force: bool = False, validate: bool = False,
        **options: Any,
    ) -> T:
        """``apply`` on the status subresource."""
        return await self.apply(
            obj, field_manager=field_manager, force=force, subresource="status", validate=validate, **options
        )

    async def delete(
        self, name: str, *, propagation_policy: PropagationPolicy | str | None = None,
        grace_period_seconds: int | None = None, preconditions: Mapping[str, str] | None = None, dry_run: bool = False,
    ) -> T | None:
        """The object while finalizers or grace keep it, else None. preconditions: {"uid": ...,
        "resourceVersion": ...}."""
        req = self._req.delete(name, propagation_policy, grace_period_seconds, preconditions, dry_run)
        return _decoded_or_none(self._codec, self._req.resource.kind, (await self._send(req)).content)

    async def delete_collection(
        self, *, propagation_policy: PropagationPolicy | str | None = None, grace_period_seconds: int | None = None,
        dry_run: bool = False, **list_options: Any,
    ) -> None:
        """Delete every object matching ``list_options`` (selectors), in the namespace or cluster-wide."""
        await self._send(self._req.delete(None, propagation_policy, grace_period_seconds, None, dry_run, **list_options))

    async def get_subresource(self, name: str, subresource: str, decode: Callable[[bytes], Any] | None = None) -> Any:
        """GET subresource ``subresource`` of ``name``, decoded by ``decode`` (JSON by default)."""
        data = (await self._send(self._req.get(name, None, subresource))).content
        return (decode or msgspec.json.decode)(data)

    async def update_subresource(self, name: str, subresource: str, body: bytes, decode: Callable[[bytes], Any] | None = None,
                                 **options: Any) -> Any:
        """PUT ``body`` to subresource ``subresource`` of ``name``; the answer decoded by ``decode``
        (JSON by default)."""
        req = self._req.subresource("PUT", name, subresource, body, **options)
        return (decode or msgspec.json.decode)((await self._send(req)).content)

    async def create_subresource(self, name: str, subresource: str, body: bytes, decode: Callable[[bytes], Any] | None = None,
                                 **options: Any) -> Any:
        """POST ``body`` to subresource ``subresource`` of ``name``; the answer decoded by ``decode``
        (JSON by default)."""
        req = self._req.subresource("POST", name, subresource, body, **options)
        return (decode or msgspec.json.decode)((await self._send(req)).content)

    @overload
    def stream_lines(
        self, name: str, subresource: str, *, raw: Literal[False] = False, **options: Any
    ) -> AsyncGenerator[str, None]: ...

    @overload
    def stream_lines(
        self, name: str, subresource: str, *, raw: Literal[True], **options: Any
    ) -> AsyncGenerator[bytes, None]: ...

    async def stream_lines(
        self, name: str, subresource: str, *, raw: bool = False, **options: Any
    ) -> AsyncGenerator[str | bytes, None]:
        """``ResourceClient.stream_lines``, asynchronously iterated."""
        req = self._req.stream(name, subresource, **options)
        await async_check_server_version(self._rest, self._req.resource, self._req.timeout)
        lines = LineBuffer()
        async with self._rest.stream(req) as response:
            decode_every_gzip_member(response)
            async for chunk in response.aiter_bytes():
                for line in lines.feed(chunk):
                    yield line if raw else decode_line(line)
            if (rest := lines.flush()) is not None:
                yield rest if raw else decode_line(rest)
