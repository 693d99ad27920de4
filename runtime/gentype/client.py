"""A client for one resource (group, version, plural): every verb, sync and async.

client-go's gentype generic client in Python. ``ResourceClient`` and ``AsyncResourceClient``
send the requests ``_Requests`` builds (``kgen.runtime.gentype.resource``) and decode the
answers with the resource's codec; the list pager (``list_all``, ``iter``) follows client-go's
tools/pager, and ``open_watch`` returns a ``WatchStream`` (``kgen.runtime.gentype.watch``).
"""

from __future__ import annotations

import copy
from collections.abc import AsyncGenerator, AsyncIterator, Callable, Generator, Iterator, Mapping
from contextlib import aclosing, closing
from typing import Any, Generic, Self, TypeVar

import httpx
import msgspec

from kgen.runtime.apimachinery.errors import Expired, NotFound
from kgen.runtime.apimachinery.model import Model
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
from kgen.runtime.gentype.lines import async_split_lines, decode_line, split_lines
from kgen.runtime.gentype.skew import (
    answered_by_no_handler, async_check_server_version, async_version_skew, check_server_version, version_skew,
)
from kgen.runtime.gentype.validate import check_request
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
        refuses locally what the apiserver would refuse, sending nothing (``gentype.validate.check_request``)."""
        req = self._req.write("POST", obj, subresource, subresource_of, **options)
        if validate:
            check_request(req, obj, self._codec, options)
        return self._codec.decode(self._send(req).content)

    def update(self, obj: T, *, validate: bool = False, **options: Any) -> T:
        """Replace the object (a ``Conflict`` if its resourceVersion is stale): dry_run, field_manager,
        field_validation; ``validate=True`` refuses locally what the apiserver would refuse, sending
        nothing."""
        req = self._req.write("PUT", obj, None, None, **options)
        if validate:
            check_request(req, obj, self._codec, options)
        return self._codec.decode(self._send(req).content)

    def update_status(self, obj: T, *, validate: bool = False, **options: Any) -> T:
        """Replace the object's status subresource; the options and ``validate`` as ``update``'s."""
        req = self._req.write("PUT", obj, "status", None, **options)
        if validate:
            check_request(req, obj, self._codec, options, status=True)
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
            check_request(req, obj, self._codec, options, apply=True, status=subresource == "status")
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

    def stream_lines(self, name: str, subresource: str, **options: Any) -> Generator[str, None, None]:
        """A streaming subresource (pods/log with follow=True) line by line, as text without the
        ``\\n`` (``stream_raw_lines`` decoded); closing the iterator ends the request."""
        with closing(self.stream_raw_lines(name, subresource, **options)) as lines:
            for line in lines:
                yield decode_line(line)

    def stream_raw_lines(self, name: str, subresource: str, **options: Any) -> Generator[bytes, None, None]:
        """A streaming subresource line by line, the bytes as sent, ``\\n`` included: lines end at
        ``\\n`` only, and an unterminated last piece is a line (``split_lines``); the iterator ends
        when the server ends the body."""
        req = self._req.stream(name, subresource, **options)
        check_server_version(self._rest, self._req.resource, self._req.timeout)
        with self._rest.stream(req) as response:
            decode_every_gzip_member(response)
            yield from split_lines(response.iter_bytes())


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
            check_request(req, obj, self._codec, options)
        return self._codec.decode((await self._send(req)).content)

    async def update(self, obj: T, *, validate: bool = False, **options: Any) -> T:
        """Replace the object (a ``Conflict`` if its resourceVersion is stale): dry_run, field_manager,
        field_validation; ``validate=True`` refuses locally what the apiserver would refuse, sending
        nothing."""
        req = self._req.write("PUT", obj, None, None, **options)
        if validate:
            check_request(req, obj, self._codec, options)
        return self._codec.decode((await self._send(req)).content)

    async def update_status(self, obj: T, *, validate: bool = False, **options: Any) -> T:
        """Replace the object's status subresource; the options and ``validate`` as ``update``'s."""
        req = self._req.write("PUT", obj, "status", None, **options)
        if validate:
            check_request(req, obj, self._codec, options, status=True)
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
            check_request(req, obj, self._codec, options, apply=True, status=subresource == "status")
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

    async def stream_lines(self, name: str, subresource: str, **options: Any) -> AsyncGenerator[str, None]:
        """``ResourceClient.stream_lines``, asynchronously iterated."""
        async with aclosing(self.stream_raw_lines(name, subresource, **options)) as lines:
            async for line in lines:
                yield decode_line(line)

    async def stream_raw_lines(self, name: str, subresource: str, **options: Any) -> AsyncGenerator[bytes, None]:
        """``ResourceClient.stream_raw_lines``, asynchronously iterated."""
        req = self._req.stream(name, subresource, **options)
        await async_check_server_version(self._rest, self._req.resource, self._req.timeout)
        async with self._rest.stream(req) as response:
            decode_every_gzip_member(response)
            async for line in async_split_lines(response.aiter_bytes()):
                yield line
