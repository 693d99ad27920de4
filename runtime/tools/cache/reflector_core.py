"""The reflector without I/O: client-go's reflector loops as generators of steps (reflector_steps.py)
that decide with ``ReflectorState`` (reflector_state.py) and never wait. ``Reflector`` and
``AsyncReflector`` (reflector.py, whose docstring lists the rules) perform the steps."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Generator
from typing import Any

from kgen.runtime.apimachinery.errors import ApiError
from kgen.runtime.apimachinery.meta import type_meta
from kgen.runtime.rest.watch import Bookmark, WatchEvent
from kgen.runtime.tools.pager import ListPager
from kgen.runtime.tools.cache.reflector_state import (
    BACKOFF,
    MIN_WATCH_TIMEOUT,
    RELIST,
    VERY_SHORT_WATCH,
    ListOptions,
    ReflectorState,
    ReflectorStore,
    VeryShortWatchError,
    WatchErrorHandler,
    WatchSession,
    default_watch_error_handler,
    reflector_backoff,
    watch_list_client_enabled,
)
from kgen.runtime.tools.cache.reflector_steps import (
    Consume,
    ListPage,
    OpenWatch,
    StartResync,
    Step,
    Steps,
    StopResync,
    Wait,
)
from kgen.runtime.tools.cache.store import Store, deletion_handling_key
from kgen.runtime.tools.cache.sync_gc import SyncGCHold

__all__ = ["ReflectorCore"]

log = logging.getLogger("kgen.runtime.tools.cache.reflector")


def _resource_name(client: Any) -> str:
    requests = getattr(client, "_req", None)
    return requests.resource.plural if requests is not None else type(client).__name__


def _resource_type(client: Any) -> tuple[str, str] | None:
    """(apiVersion, kind) of a resource client's objects, when its resource names its kind."""
    requests = getattr(client, "_req", None)
    resource = getattr(requests, "resource", None)
    return (resource.api_version, resource.kind) if resource is not None and resource.kind else None


class ReflectorCore:
    """The reflector without I/O: configuration, bookkeeping, and its loops written once as step
    generators (``run_steps``, ``list_and_watch_steps``, ``watch_list_steps``, ``list_steps``,
    ``watch_steps``, ``resync_steps``). The thread and asyncio drivers below only perform the
    steps. ``expected_type`` is (apiVersion, kind); by default a resource client's own."""

    def __init__(
        self,
        client: Any,
        store: ReflectorStore,
        *,
        resync_period: float = 0.0,
        should_resync: Callable[[], bool] | None = None,
        list_options: ListOptions | None = None,
        watch_error_handler: WatchErrorHandler | None = None,
        name: str = "",
        min_watch_timeout: float = 0.0,
        watch_list: bool | None = None,
        expected_type: tuple[str, str] | None = None,
    ) -> None:
        self.client = client
        self.store = store
        self.resync_period = resync_period
        self.should_resync = should_resync or (lambda: True)
        self.tweak: ListOptions = list_options or (lambda options: options)
        self.watch_error_handler = watch_error_handler
        self.name = name or _resource_name(client)
        self.expected_type = expected_type or _resource_type(client)
        # client-go honours a minimum watch timeout only above its default.
        self.state = ReflectorState(min_watch_timeout=max(MIN_WATCH_TIMEOUT, min_watch_timeout))
        self.backoff = reflector_backoff()
        self.clock: Callable[[], float] = time.monotonic
        self.use_watch_list = False
        self.set_watch_list(watch_list)
        # Off for a bare reflector: only an informer knows when its store's first state has
        # been consumed (sync_gc.py); it turns this on and closes the hold then.
        self.sync_gc = SyncGCHold(enabled=False)
        self._init_driver()

    def _init_driver(self) -> None:
        """The driver's own state (its stop signal)."""

    def set_watch_list(self, watch_list: bool | None) -> None:
        """WatchList on or off; None: as ``KUBE_FEATURE_WatchListClient`` says (on by default).
        Off whatever it says for a client that cannot (client-go's IsWatchListSemanticsUnSupported,
        which fake clientsets report)."""
        enabled = watch_list_client_enabled() if watch_list is None else watch_list
        unsupported = getattr(self.client, "is_watch_list_semantics_unsupported", None)
        if enabled and callable(unsupported) and unsupported():
            log.debug("%s: the client does not support WatchList semantics: list and watch instead", self.name)
            enabled = False
        self.use_watch_list = enabled

    @property
    def last_sync_resource_version(self) -> str:
        """The resourceVersion of the last list or watch event the store has."""
        return self.state.last_sync_resource_version

    def _report(self, error: BaseException) -> None:
        if self.watch_error_handler is not None:
            try:
                self.watch_error_handler(error)
            except Exception:  # noqa: BLE001
                log.exception("%s: the watch error handler failed", self.name)
        else:
            default_watch_error_handler(self.name, error)

    def handle(self, event: WatchEvent[Any] | Bookmark, session: WatchSession) -> bool:
        """One watch event into the session's store (the drivers call it for each event they
        read); True when it ended a watch-list's initial events. An object of another type
        than the resource's is logged and dropped, as client-go's watch handler drops it."""
        if (
            isinstance(event, WatchEvent)  # a Bookmark carries no object (nor its type) any more
            and self.expected_type is not None
            and (actual := type_meta(event.object)) != self.expected_type
        ):
            log.error("%s: unexpected watch event object type: expected %s, got %s; %s event dropped",
                      self.name, "/".join(self.expected_type), "/".join(actual), event.type)
            return False
        return self.state.handle(event, session)

    def apply(self, event: WatchEvent[Any] | Bookmark) -> None:
        """One event of a plain watch into the store."""
        self.handle(event, WatchSession(self.store))

    # -- the loops --------------------------------------------------------------------------

    def run_steps(self) -> Steps:
        """list_and_watch again and again, backing off after each return (client-go BackoffUntil)."""
        while True:
            try:
                yield from self.list_and_watch_steps()
            except Exception as e:  # noqa: BLE001 - a reflector never dies of one failure
                self._report(e)
            yield Wait(self.backoff.next_delay())

    def resync_steps(self) -> Steps:
        """The resync loop: every ``resync_period``, the store's ``resync`` when ``should_resync`` says
        so."""
        while True:
            yield Wait(self.resync_period)
            if self.should_resync():
                self.store.resync()

    def list_and_watch_steps(self) -> Steps:
        """The initial state — by watch-list, falling back to a list, or by a list — then the
        watch, until a relist is due (returns); a list or the start of a watch that fails raises.
        While the store has never synced, ``sync_gc`` is held from the start of the list until
        the store reports it synced (or the list fails, or the steps are abandoned: a stop)."""
        if not self._store_synced():
            self.sync_gc.open()
        try:
            stream: Any = None
            if self.use_watch_list:
                try:
                    stream = yield from self.watch_list_steps()
                except Exception as e:  # noqa: BLE001 - any failure means: list instead
                    log.debug("%s: no watch-list (%s); falling back to a list", self.name, e)
            if stream is None:
                yield from self.list_steps()
            if self._store_synced():  # else its consumer closes the hold once it has synced
                self.sync_gc.close()
            yield from self.watch_with_resync_steps(stream)
        finally:
            self.sync_gc.close()

    def _store_synced(self) -> bool:
        """Whether the store's first state has been consumed: a DeltaFIFO's ``has_synced``; a
        store without one, once the list has replaced its content."""
        has_synced = getattr(self.store, "has_synced", None)
        return bool(has_synced()) if callable(has_synced) else self.state.last_sync_resource_version != ""

    def watch_list_steps(self) -> Generator[Step, Any, Any]:
        """client-go's watchList: streams the initial state into a temporary store until the
        initial-events-end bookmark, replaces the store with it and returns the open stream."""
        while True:
            # client-go's TransformingStore: the store's transform runs as each object arrives,
            # so a cache that drops managedFields never holds all of them at once.
            temporary: Store[Any] = Store(deletion_handling_key, getattr(self.store, "transformer", None))
            session = WatchSession(temporary, watch_list=True)
            started = self.clock()
            error: BaseException | None = None
            try:
                stream = yield OpenWatch(self._with_idle_timeout(self.tweak(self.state.watch_list_options())))
            except Exception as e:  # noqa: BLE001 - judged below
                error = e
            else:
                events, error = yield Consume(stream, session)
                if error is None and session.keeps_stream:
                    break
                if error is None and events == 0 and self.clock() - started < VERY_SHORT_WATCH:
                    error = VeryShortWatchError(f"very short watch: {self.name}: closed without an event")
            if error is None:
                continue  # the stream ended before the initial events did: stream them again
            decision = self.state.watch_list_failed(error)
            if decision is None:
                raise error
            log.debug("%s: watch-list failed (%s); again", self.name, error)
            if decision == BACKOFF:
                yield Wait(self.backoff.next_delay())
        self.state.resource_version_unavailable = False
        self.store.replace(temporary.list(), session.resource_version)
        self.state.last_sync_resource_version = session.resource_version
        return stream

    def list_steps(self) -> Steps:
        """Lists everything and replaces the store's content with it."""
        requested = self.state.list_resource_version()
        try:
            pager = yield from self._pages(requested)
        except Exception as e:
            if not self.state.list_failed(e):
                raise
            pager = yield from self._pages(self.state.list_resource_version())
        self.store.replace(pager.items, pager.list_resource_version)
        self.state.listed(requested, pager)

    def _pages(self, resource_version: str) -> Generator[Step, Any, ListPager]:
        pager = ListPager(resource_version, self.state.page_limit(resource_version))
        options: dict[str, Any] | None = pager.first()
        while options is not None:
            try:
                options = pager.received((yield ListPage(self.tweak(dict(options)))))
            except ApiError as e:
                options = pager.failed(e)
        return pager

    def watch_with_resync_steps(self, stream: Any = None) -> Steps:
        """``watch_steps`` with the resync running beside it (client-go's watchWithResync)."""
        if self.resync_period <= 0:
            yield from self.watch_steps(stream)
            return
        yield StartResync()
        try:
            yield from self.watch_steps(stream)
        except Exception:
            yield StopResync()
            raise
        yield StopResync()

    def watch_steps(self, stream: Any = None) -> Steps:
        """Watches from the last resourceVersion — first on ``stream``, the one a watch-list left
        open, if given — again and again, until a relist is due."""
        while True:
            started = self.clock()
            propagate = True
            if stream is None:
                options = self._with_idle_timeout(self.tweak(self.state.watch_options()))
                propagate = options.get("resource_version") not in (None, "", "0")
                try:
                    stream = yield OpenWatch(options)
                except Exception as e:
                    if not self.state.watch_start_retriable(e):
                        raise
                    log.debug("%s: watch failed (%s); backing off", self.name, e)
                    yield Wait(self.backoff.next_delay())
                    continue
            events, error = yield Consume(stream, WatchSession(self.store, propagate_resource_version=propagate))
            stream = None
            decision, problem = self.state.watch_ended(error, self.clock() - started, events)
            if problem is not None:
                self._report(problem)
            if decision == RELIST:
                return
            if decision == BACKOFF:
                yield Wait(self.backoff.next_delay())

    @staticmethod
    def _with_idle_timeout(options: dict[str, Any]) -> dict[str, Any]:
        # Events or bookmarks arrive well within the server's timeout on a live connection.
        return {**options, "idle_timeout": float(options["timeout_seconds"]) + 60.0}
