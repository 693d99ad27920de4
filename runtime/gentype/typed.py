"""Verb mixins that generated typed clients are assembled from, sync and async.

A generated client class lists exactly the verbs the server advertises for its resource, e.g.
``class DeploymentsClient(Get[T, L], List[T, L], ..., TypedClient[T, L])``; each mixin is one
verb with a fully typed signature over the generic ``ResourceClient``.
"""

from __future__ import annotations

import copy
from collections.abc import AsyncIterator, Iterator, Mapping
from typing import Any, Generic, Literal, Self, TypeVar, overload

from kgen.runtime.apimachinery.apply import ApplyConfiguration
from kgen.runtime.apimachinery.model import Model
from kgen.runtime.apimachinery.selectors import FieldSelector, LabelSelector
from kgen.runtime.gentype.client import AsyncResourceClient, ResourceClient
from kgen.runtime.gentype.resource import DEFAULT_PAGE_SIZE, WATCH_IDLE_TIMEOUT, PatchType, PropagationPolicy
from kgen.runtime.rest.watch import Bookmark, WatchEvent

T = TypeVar("T", bound=Model)
"""The kind's model."""
L = TypeVar("L", bound=Model)
"""The kind's list model."""
A = TypeVar("A", bound=ApplyConfiguration[Any])
"""The kind's apply configuration."""
Selector = str | LabelSelector | None
"""A label selector: a string (``app=web,tier!=db``), a ``LabelSelector``, or None for all."""
Fields = str | FieldSelector | None
"""A field selector: a string (``metadata.name=web``), a ``FieldSelector``, or None for all."""


class _Timeout:
    """``with_timeout``, for the typed clients of both flavours."""

    _client: Any

    def with_timeout(self, seconds: float | None) -> Self:
        """This client with each request but a watch bounded by ``seconds`` (per wait: dial,
        TLS handshake, each read), e.g. ``cs.core_v1.config_maps("ns").with_timeout(5).list()``;
        None restores the client's ``Config.timeout`` or defaults."""
        other = copy.copy(self)
        other._client = self._client.with_timeout(seconds)
        return other


class TypedClient(_Timeout, Generic[T, L]):
    """The base of a typed client's verb mixins: a ``ResourceClient`` of the kind, in a namespace or
    cluster-wide."""

    _client: ResourceClient[T, L]

    def __init__(self, client: ResourceClient[T, L]) -> None:
        self._client = client


class Get(TypedClient[T, L]):
    """The ``get`` verb of a typed client."""

    def get(self, name: str, *, resource_version: str | None = None) -> T:
        """The object ``name`` (``NotFound`` if it is not there); ``resource_version`` "0" allows the
        watch cache's."""
        return self._client.get(name, resource_version=resource_version)


class List(TypedClient[T, L]):
    """The ``list``, ``list_all`` and ``iter`` verbs of a typed client."""

    def list(
        self, *, label_selector: Selector = None, field_selector: Fields = None, limit: int | None = None,
        continue_: str | None = None, resource_version: str | None = None, resource_version_match: str | None = None,
        timeout_seconds: int | None = None,
    ) -> L:
        """One page of objects matching the selectors: ``limit`` and ``continue_`` page through a
        snapshot."""
        return self._client.list(
            label_selector=label_selector, field_selector=field_selector, limit=limit, continue_=continue_,
            resource_version=resource_version, resource_version_match=resource_version_match,
            timeout_seconds=timeout_seconds,
        )

    def list_all(self, *, label_selector: Selector = None, field_selector: Fields = None, page_size: int = DEFAULT_PAGE_SIZE) -> L:
        """Every object matching the selectors, fetched in pages of ``page_size``; one list."""
        return self._client.list_all(page_size=page_size, label_selector=label_selector, field_selector=field_selector)

    def iter(
        self, *, label_selector: Selector = None, field_selector: Fields = None, page_size: int = DEFAULT_PAGE_SIZE,
        allow_inconsistent: bool = False,
    ) -> Iterator[T]:
        """The objects matching the selectors, page by page. An expired continue token raises
        ``Expired`` unless ``allow_inconsistent`` (which continues in a newer snapshot)."""
        return self._client.iter(
            page_size=page_size, allow_inconsistent=allow_inconsistent, label_selector=label_selector,
            field_selector=field_selector,
        )


class Watch(TypedClient[T, L]):
    """``watch()``: ``WatchEvent[T]`` (``type`` ADDED, MODIFIED or DELETED, ``object`` a ``T``);
    with ``bookmarks=True`` ``Bookmark`` events as well, a type of their own (kube-rs's
    ``WatchEvent::Bookmark``): a watch-list's end (``send_initial_events``) is one. The server is
    always asked for bookmarks, as client-go's reflector asks: they keep a quiet watch inside its
    idle timeout and a watch-list needs them; only their delivery is the caller's choice.
    ``resource_version`` takes a list's ``metadata.resource_version`` as it comes (``str | None``).
    An ``ERROR`` event raises its ``ApiError`` (410: list again)."""

    @overload
    def watch(
        self, *, resource_version: str | None = None, label_selector: Selector = None, field_selector: Fields = None,
        bookmarks: Literal[False] = False, timeout_seconds: int | None = None,
        idle_timeout: float = WATCH_IDLE_TIMEOUT, send_initial_events: bool | None = None,
        resource_version_match: str | None = None,
    ) -> Iterator[WatchEvent[T]]: ...

    @overload
    def watch(
        self, *, resource_version: str | None = None, label_selector: Selector = None, field_selector: Fields = None,
        bookmarks: bool, timeout_seconds: int | None = None, idle_timeout: float = WATCH_IDLE_TIMEOUT,
        send_initial_events: bool | None = None, resource_version_match: str | None = None,
    ) -> Iterator[WatchEvent[T] | Bookmark]: ...

    def watch(
        self, *, resource_version: str | None = None, label_selector: Selector = None, field_selector: Fields = None,
        bookmarks: bool = False, timeout_seconds: int | None = None, idle_timeout: float = WATCH_IDLE_TIMEOUT,
        send_initial_events: bool | None = None, resource_version_match: str | None = None,
    ) -> Iterator[WatchEvent[T]] | Iterator[WatchEvent[T] | Bookmark]:
        """Events from ``resource_version`` on; with ``bookmarks=True``, ``Bookmark`` events too. The
        iteration ends with the server's ``timeout_seconds``, or raises after ``idle_timeout`` of
        silence."""
        return self._client.watch(
            idle_timeout=idle_timeout, resource_version=resource_version, label_selector=label_selector,
            field_selector=field_selector, bookmarks=bookmarks,
            timeout_seconds=timeout_seconds, send_initial_events=send_initial_events,
            resource_version_match=resource_version_match,
        )


class Create(TypedClient[T, L]):
    """The ``create`` verb of a typed client."""

    def create(
        self, obj: T, *, dry_run: bool = False, field_manager: str | None = None, field_validation: str | None = None,
        validate: bool = False,
    ) -> T:
        """Create ``obj``; returns what the server stored. ``validate=True`` refuses locally what the
        apiserver would refuse, sending nothing."""
        return self._client.create(
            obj, dry_run=dry_run, field_manager=field_manager, field_validation=field_validation, validate=validate
        )


class Update(TypedClient[T, L]):
    """The ``update`` verb of a typed client."""

    def update(
        self, obj: T, *, dry_run: bool = False, field_manager: str | None = None, field_validation: str | None = None,
        validate: bool = False,
    ) -> T:
        """Replace ``obj`` (a ``Conflict`` if its resourceVersion is stale); returns what the server
        stored. ``validate=True`` refuses locally what the apiserver would refuse."""
        return self._client.update(
            obj, dry_run=dry_run, field_manager=field_manager, field_validation=field_validation, validate=validate
        )


class UpdateStatus(TypedClient[T, L]):
    """The ``update_status`` verb of a typed client."""

    def update_status(
        self, obj: T, *, dry_run: bool = False, field_manager: str | None = None, field_validation: str | None = None,
        validate: bool = False,
    ) -> T:
        """Replace ``obj``'s status (the status subresource); returns what the server stored."""
        return self._client.update_status(
            obj, dry_run=dry_run, field_manager=field_manager, field_validation=field_validation, validate=validate
        )


class Patch(TypedClient[T, L]):
    """The ``patch`` verb of a typed client."""

    def patch(
        self, name: str, patch: Any, patch_type: PatchType = PatchType.MERGE, *, subresource: str | None = None,
        dry_run: bool = False, field_manager: str | None = None, field_validation: str | None = None,
    ) -> T:
        """``patch`` is a dict/list (encoded as JSON) or bytes; sent as exactly ``patch_type``."""
        return self._client.patch(
            name, patch, patch_type, subresource=subresource, dry_run=dry_run, field_manager=field_manager,
            field_validation=field_validation,
        )


class Apply(TypedClient[T, L], Generic[T, L, A]):
    """Server-side apply takes the kind's apply configuration ``A``, as client-go's
    ``Apply(ctx, *DeploymentApplyConfiguration, ...)`` does, or a mapping (the dynamic style).
    Not the model: a model built for it needs every schema-required field (all of them would
    be owned), and one read from the server claims every field every manager set. The types
    refuse it; at runtime a model is still sent as it is, for code that is not type-checked."""

    def apply(
        self, obj: A | Mapping[str, Any], *, field_manager: str, force: bool = False, dry_run: bool = False,
        validate: bool = False,
    ) -> T:
        """Server-side apply: ``field_manager`` comes to own exactly the fields ``obj`` sets."""
        return self._client.apply(obj, field_manager=field_manager, force=force, dry_run=dry_run, validate=validate)


class ApplyStatus(TypedClient[T, L], Generic[T, L, A]):
    """The ``apply_status`` verb of a typed client."""

    def apply_status(
        self, obj: A | Mapping[str, Any], *, field_manager: str, force: bool = False, dry_run: bool = False,
        validate: bool = False,
    ) -> T:
        """``apply`` on the status subresource (client-go's ``ApplyStatus``)."""
        return self._client.apply_status(obj, field_manager=field_manager, force=force, dry_run=dry_run, validate=validate)


class Delete(TypedClient[T, L]):
    """The ``delete`` verb of a typed client."""

    def delete(
        self, name: str, *, propagation_policy: PropagationPolicy | str | None = None,
        grace_period_seconds: int | None = None, preconditions: Mapping[str, str] | None = None, dry_run: bool = False,
    ) -> T | None:
        """Delete object ``name``: the object while finalizers or grace keep it, else None.
        preconditions: {"uid": ..., "resourceVersion": ...}."""
        return self._client.delete(
            name, propagation_policy=propagation_policy, grace_period_seconds=grace_period_seconds,
            preconditions=preconditions, dry_run=dry_run,
        )


class DeleteCollection(TypedClient[T, L]):
    """The ``delete_collection`` verb of a typed client."""

    def delete_collection(
        self, *, label_selector: Selector = None, field_selector: Fields = None,
        propagation_policy: PropagationPolicy | str | None = None, grace_period_seconds: int | None = None,
        dry_run: bool = False,
    ) -> None:
        """Delete every object matching the selectors."""
        self._client.delete_collection(
            propagation_policy=propagation_policy, grace_period_seconds=grace_period_seconds, dry_run=dry_run,
            label_selector=label_selector, field_selector=field_selector,
        )


# -- asyncio ------------------------------------------------------------------------------


class AsyncTypedClient(_Timeout, Generic[T, L]):
    """``TypedClient`` on asyncio: an ``AsyncResourceClient`` of the kind."""

    _client: AsyncResourceClient[T, L]

    def __init__(self, client: AsyncResourceClient[T, L]) -> None:
        self._client = client


class AsyncGet(AsyncTypedClient[T, L]):
    """The ``get`` verb of an async typed client."""

    async def get(self, name: str, *, resource_version: str | None = None) -> T:
        """The object ``name`` (``NotFound`` if it is not there); ``resource_version`` "0" allows the
        watch cache's."""
        return await self._client.get(name, resource_version=resource_version)


class AsyncList(AsyncTypedClient[T, L]):
    """The ``list``, ``list_all`` and ``iter`` verbs of an async typed client."""

    async def list(
        self, *, label_selector: Selector = None, field_selector: Fields = None, limit: int | None = None,
        continue_: str | None = None, resource_version: str | None = None, resource_version_match: str | None = None,
        timeout_seconds: int | None = None,
    ) -> L:
        """One page of objects matching the selectors: ``limit`` and ``continue_`` page through a
        snapshot."""
        return await self._client.list(
            label_selector=label_selector, field_selector=field_selector, limit=limit, continue_=continue_,
            resource_version=resource_version, resource_version_match=resource_version_match,
            timeout_seconds=timeout_seconds,
        )

    async def list_all(self, *, label_selector: Selector = None, field_selector: Fields = None, page_size: int = DEFAULT_PAGE_SIZE) -> L:
        """Every object matching the selectors, fetched in pages of ``page_size``; one list."""
        return await self._client.list_all(page_size=page_size, label_selector=label_selector, field_selector=field_selector)

    def iter(
        self, *, label_selector: Selector = None, field_selector: Fields = None, page_size: int = DEFAULT_PAGE_SIZE,
        allow_inconsistent: bool = False,
    ) -> AsyncIterator[T]:
        """The objects matching the selectors, page by page (``async for``). An expired continue token
        raises ``Expired`` unless ``allow_inconsistent``."""
        return self._client.iter(
            page_size=page_size, allow_inconsistent=allow_inconsistent, label_selector=label_selector,
            field_selector=field_selector,
        )


class AsyncWatch(AsyncTypedClient[T, L]):
    """``Watch`` on asyncio: ``async for event in client.watch(...)``, the same event types."""

    @overload
    def watch(
        self, *, resource_version: str | None = None, label_selector: Selector = None, field_selector: Fields = None,
        bookmarks: Literal[False] = False, timeout_seconds: int | None = None,
        idle_timeout: float = WATCH_IDLE_TIMEOUT, send_initial_events: bool | None = None,
        resource_version_match: str | None = None,
    ) -> AsyncIterator[WatchEvent[T]]: ...

    @overload
    def watch(
        self, *, resource_version: str | None = None, label_selector: Selector = None, field_selector: Fields = None,
        bookmarks: bool, timeout_seconds: int | None = None, idle_timeout: float = WATCH_IDLE_TIMEOUT,
        send_initial_events: bool | None = None, resource_version_match: str | None = None,
    ) -> AsyncIterator[WatchEvent[T] | Bookmark]: ...

    def watch(
        self, *, resource_version: str | None = None, label_selector: Selector = None, field_selector: Fields = None,
        bookmarks: bool = False, timeout_seconds: int | None = None, idle_timeout: float = WATCH_IDLE_TIMEOUT,
        send_initial_events: bool | None = None, resource_version_match: str | None = None,
    ) -> AsyncIterator[WatchEvent[T]] | AsyncIterator[WatchEvent[T] | Bookmark]:
        """Events from ``resource_version`` on (``async for``); with ``bookmarks=True``, ``Bookmark``
        events too."""
        return self._client.watch(
            idle_timeout=idle_timeout, resource_version=resource_version, label_selector=label_selector,
            field_selector=field_selector, bookmarks=bookmarks,
            timeout_seconds=timeout_seconds, send_initial_events=send_initial_events,
            resource_version_match=resource_version_match,
        )


class AsyncCreate(AsyncTypedClient[T, L]):
    """The ``create`` verb of an async typed client."""

    async def create(
        self, obj: T, *, dry_run: bool = False, field_manager: str | None = None, field_validation: str | None = None,
        validate: bool = False,
    ) -> T:
        """Create ``obj``; returns what the server stored. ``validate=True`` refuses locally what the
        apiserver would refuse, sending nothing."""
        return await self._client.create(
            obj, dry_run=dry_run, field_manager=field_manager, field_validation=field_validation, validate=validate
        )


class AsyncUpdate(AsyncTypedClient[T, L]):
    """The ``update`` verb of an async typed client."""

    async def update(
        self, obj: T, *, dry_run: bool = False, field_manager: str | None = None, field_validation: str | None = None,
        validate: bool = False,
    ) -> T:
        """Replace ``obj`` (a ``Conflict`` if its resourceVersion is stale); returns what the server
        stored."""
        return await self._client.update(
            obj, dry_run=dry_run, field_manager=field_manager, field_validation=field_validation, validate=validate
        )


class AsyncUpdateStatus(AsyncTypedClient[T, L]):
    """The ``update_status`` verb of an async typed client."""

    async def update_status(
        self, obj: T, *, dry_run: bool = False, field_manager: str | None = None, field_validation: str | None = None,
        validate: bool = False,
    ) -> T:
        """Replace ``obj``'s status (the status subresource); returns what the server stored."""
        return await self._client.update_status(
            obj, dry_run=dry_run, field_manager=field_manager, field_validation=field_validation, validate=validate
        )


class AsyncPatch(AsyncTypedClient[T, L]):
    """The ``patch`` verb of an async typed client."""

    async def patch(
        self, name: str, patch: Any, patch_type: PatchType = PatchType.MERGE, *, subresource: str | None = None,
        dry_run: bool = False, field_manager: str | None = None, field_validation: str | None = None,
    ) -> T:
        """``patch`` is a dict/list (encoded as JSON) or bytes; sent as exactly ``patch_type``."""
        return await self._client.patch(
            name, patch, patch_type, subresource=subresource, dry_run=dry_run, field_manager=field_manager,
            field_validation=field_validation,
        )


class AsyncApply(AsyncTypedClient[T, L], Generic[T, L, A]):
    """``Apply`` on asyncio: the same argument types."""

    async def apply(
        self, obj: A | Mapping[str, Any], *, field_manager: str, force: bool = False, dry_run: bool = False,
        validate: bool = False,
    ) -> T:
        """Server-side apply: ``field_manager`` comes to own exactly the fields ``obj`` sets."""
        return await self._client.apply(obj, field_manager=field_manager, force=force, dry_run=dry_run, validate=validate)


class AsyncApplyStatus(AsyncTypedClient[T, L], Generic[T, L, A]):
    """The ``apply_status`` verb of an async typed client."""

    async def apply_status(
        self, obj: A | Mapping[str, Any], *, field_manager: str, force: bool = False, dry_run: bool = False,
        validate: bool = False,
    ) -> T:
        """``apply`` on the status subresource (client-go's ``ApplyStatus``)."""
        return await self._client.apply_status(obj, field_manager=field_manager, force=force, dry_run=dry_run, validate=validate)


class AsyncDelete(AsyncTypedClient[T, L]):
    """The ``delete`` verb of an async typed client."""

    async def delete(
        self, name: str, *, propagation_policy: PropagationPolicy | str | None = None,
        grace_period_seconds: int | None = None, preconditions: Mapping[str, str] | None = None, dry_run: bool = False,
    ) -> T | None:
        """Delete object ``name``: the object while finalizers or grace keep it, else None."""
        return await self._client.delete(
            name, propagation_policy=propagation_policy, grace_period_seconds=grace_period_seconds,
            preconditions=preconditions, dry_run=dry_run,
        )


class AsyncDeleteCollection(AsyncTypedClient[T, L]):
    """The ``delete_collection`` verb of an async typed client."""

    async def delete_collection(
        self, *, label_selector: Selector = None, field_selector: Fields = None,
        propagation_policy: PropagationPolicy | str | None = None, grace_period_seconds: int | None = None,
        dry_run: bool = False,
    ) -> None:
        """Delete every object matching the selectors."""
        await self._client.delete_collection(
            propagation_policy=propagation_policy, grace_period_seconds=grace_period_seconds, dry_run=dry_run,
            label_selector=label_selector, field_selector=field_selector,
        )
