"""Reflector: keeps a store in step with the server by list, then watch (client-go reflector.go).

The decisions are client-go's, made without I/O in ``ReflectorState`` and ``ListPager`` (testable
alone); the ``Reflector`` (a thread) and ``AsyncReflector`` (a task) only carry them out against
a lister-watcher — a ``ResourceClient``, or anything with ``list(**options)`` and
``open_watch(**options)``:

- The first list asks for resourceVersion "0" (any recent state, served from the apiserver's
  watch cache); later lists ask for the last resourceVersion seen; a list answered 410 Gone or
  "too large resource version" is retried at once with "" (a consistent read from etcd).
- Lists come in pages of 500 (tools/pager), except a list at a specific resourceVersion, sent
  unpaged so the watch cache can serve it — unless the first list came back paginated, which
  means there is no watch cache. If the snapshot behind a continue token expires, one unpaged
  list at the requested resourceVersion replaces the pages.
- Watch from the last resourceVersion with bookmarks, for a timeout drawn from [300, 600) s so
  that clients do not reconnect in lockstep. Every event moves lastSyncResourceVersion.
- A watch that merely ended (server timeout, dropped connection) is resumed from the last
  resourceVersion without a relist. One that ended within a second without an event (some
  proxy is closing it) and one that ended with an error — 410 Gone as an HTTP status, as an
  in-stream ERROR event or as a bare Status in a 200 — end the list-and-watch: the run loop
  backs off and relists. After a watch's 410 that relist still asks for the last
  resourceVersion: a list at a resourceVersion returns data at least that fresh.
- 429 Too Many Requests or connection refused when a watch starts, and 429 in the stream:
  back off and watch again, without relisting.
- Backoff between attempts: 0.8 s doubling to 30 s, with full jitter; after 2 minutes without
  a backoff it starts over.
"""

from __future__ import annotations

import asyncio
import errno
import logging
import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

import httpx

from kgen.runtime.apimachinery.errors import ApiError, Expired, Gone, ServerTimeout, TooManyRequests
from kgen.runtime.apimachinery.meta import list_meta, resource_version_of
from kgen.runtime.util.wait import Backoff, ExponentialBackoffManager
from kgen.runtime.rest.watch import ADDED, BOOKMARK, DELETED, MODIFIED, WatchEvent

log = logging.getLogger("kgen.runtime.tools.cache.reflector")

PAGE_SIZE = 500  # tools/pager's default page size
MIN_WATCH_TIMEOUT = 300.0  # defaultMinWatchTimeout: watches last [min, 2*min)
VERY_SHORT_WATCH = 1.0  # a watch ending sooner than this without an event is an error

#: What a watch's end leads to.
REWATCH, BACKOFF, RELIST = "rewatch", "backoff", "relist"

ListOptions = Callable[[dict[str, Any]], dict[str, Any]]
WatchErrorHandler = Callable[[BaseException], None]


class ReflectorStore(Protocol):
    """What a reflector writes to: a DeltaFIFO, or a plain Store."""

    def add(self, obj: Any) -> None: ...
    def update(self, obj: Any) -> None: ...
    def delete(self, obj: Any) -> None: ...
    def replace(self, objects: list[Any], resource_version: str) -> None: ...
    def resync(self) -> None: ...


class VeryShortWatchError(Exception):
    """The watch closed within a second without delivering one event (client-go's
    VeryShortWatchError): something between client and server is ending it, so relist."""




def is_too_large_resource_version(error: BaseException) -> bool:
    """client-go isTooLargeResourceVersionError: the cause the server sets today, or the
    messages of 1.17.0-1.18.5 and older servers on a Timeout."""
    if not isinstance(error, ApiError):
        return False
    if any(c.reason == "ResourceVersionTooLarge" for c in error.causes):
        return True
    if not isinstance(error, ServerTimeout):
        return False
    return any(c.message == "Too large resource version" for c in error.causes) or (
        "Too large resource version" in error.message
    )


def is_connection_refused(error: BaseException) -> bool:
    seen: BaseException | None = error
    while seen is not None:
        if isinstance(seen, ConnectionRefusedError) or getattr(seen, "errno", None) == errno.ECONNREFUSED:
            return True
        if isinstance(seen, httpx.ConnectError) and "connection refused" in str(seen).lower():
            return True
        seen = seen.__cause__ or seen.__context__
    return False


def default_watch_error_handler(name: str, error: BaseException) -> None:
    """client-go DefaultWatchErrorHandler: expired and closed watches are routine."""
    if isinstance(error, Gone):
        log.debug("%s: watch closed with: %s", name, error)
    elif isinstance(error, httpx.TransportError):
        log.info("%s: connection failed: %r", name, error)
    else:
        log.warning("%s: failed to list or watch: %s", name, error)


def reflector_backoff(
    initial: float = 0.8, cap: float = 30.0, *, clock: Callable[[], float] = time.monotonic,
    rng: random.Random | None = None,
) -> ExponentialBackoffManager:
    """client-go's reflector backoff: 0.8 s doubling to 30 s, full jitter (each delay d becomes
    [d, 2d)), reset after 2 minutes without a backoff."""
    return ExponentialBackoffManager(
        Backoff(duration=initial, factor=2.0, jitter=1.0, cap=cap), reset_after=120.0, clock=clock, rng=rng
    )



class ListPager:
    """client-go's tools/pager, without the I/O: the options of each page to ask for, and what
    the pages add up to.

    Continue pages drop the resourceVersion (the server refuses both at once). If the snapshot
    behind a continue token expires (410 on page 2 or later), one unpaged list at the requested
    resourceVersion replaces the pages gathered so far (FullListIfExpired).
    """

    def __init__(self, resource_version: str, limit: int) -> None:
        self.resource_version = resource_version
        self.limit = limit
        self.items: list[Any] = []
        self.list_resource_version = ""
        self.paginated = False
        self._token = ""
        self._full_list = False

    @staticmethod
    def _options(resource_version: str, limit: int, token: str) -> dict[str, Any]:
        return {"resource_version": resource_version or None, "limit": limit or None, "continue_": token or None}

    def first(self) -> dict[str, Any]:
        return self._options(self.resource_version, self.limit, "")

    def received(self, page: Any) -> dict[str, Any] | None:
        """Takes a page; returns the options of the next one, or None when the list is complete."""
        items, self.list_resource_version, token = list_meta(page)
        self.items += items
        if not token or self._full_list:
            return None
        self.paginated = True
        self._token = token
        return self._options("", self.limit, token)

    def failed(self, error: BaseException) -> dict[str, Any]:
        """The options of the unpaged list that replaces expired pages; else raises ``error``."""
        if not isinstance(error, Expired) or not self._token or self._full_list:
            raise error
        self._full_list = True
        self.items = []
        return self._options(self.resource_version, 0, "")


@dataclass
class ReflectorState:
    """What to ask the server next, and what each answer means (client-go's rules)."""

    last_sync_resource_version: str = ""
    #: The last list or watch said the resourceVersion is gone (410) or not there yet (too large).
    resource_version_unavailable: bool = False
    #: The first list (resourceVersion "0") came back in pages: there is no watch cache to spare.
    paginated_result: bool = False
    #: client-go's WatchListPageSize: a page size to use for every list; 0 leaves it to the rules.
    page_size: int = 0
    min_watch_timeout: float = MIN_WATCH_TIMEOUT
    rng: random.Random = field(default_factory=random.Random)

    def list_resource_version(self) -> str:
        if self.resource_version_unavailable:
            return ""  # a consistent read re-establishes where the server is
        return self.last_sync_resource_version or "0"

    def page_limit(self, resource_version: str) -> int:
        if self.page_size:
            return self.page_size
        if self.paginated_result or resource_version in ("", "0"):
            return PAGE_SIZE
        return 0  # unpaged, so the watch cache can serve it

    def list_failed(self, error: BaseException) -> bool:
        """True when the list must be retried at once, at resourceVersion ""."""
        if isinstance(error, Gone) or is_too_large_resource_version(error):
            self.resource_version_unavailable = True
            return True
        return False

    def listed(self, requested: str, pager: ListPager) -> None:
        if requested == "0" and pager.paginated:
            self.paginated_result = True
        self.resource_version_unavailable = False
        self.last_sync_resource_version = pager.list_resource_version

    def watch_options(self) -> dict[str, Any]:
        return {
            "resource_version": self.last_sync_resource_version,
            "allow_watch_bookmarks": True,
            "timeout_seconds": int(self.min_watch_timeout * (1 + self.rng.random())),
        }

    @staticmethod
    def watch_start_retriable(error: BaseException) -> bool:
        """Watch again after a backoff, without relisting: the server is overloaded or down, and
        the watch will most likely resume where it ended."""
        return isinstance(error, TooManyRequests) or is_connection_refused(error)

    @staticmethod
    def watch_ended(error: BaseException | None, duration: float, events: int) -> tuple[str, BaseException | None]:
        """What to do after a watch ended (``error`` None: the server closed it): REWATCH,
        BACKOFF (then rewatch) or RELIST; and the error to report, if any."""
        if error is None or isinstance(error, httpx.TransportError):
            # A closed or dropped connection is the end of a watch, not an error.
            if duration < VERY_SHORT_WATCH and events == 0:
                return RELIST, VeryShortWatchError(f"very short watch: {error or 'closed'}")
            return REWATCH, None
        if isinstance(error, TooManyRequests):
            return BACKOFF, error
        return RELIST, error  # 410 Gone included: relist at the last resourceVersion

    def apply(self, event: WatchEvent[Any], store: ReflectorStore) -> None:
        obj = event.object
        try:
            if event.type == ADDED:
                store.add(obj)
            elif event.type == MODIFIED:
                store.update(obj)
            elif event.type == DELETED:
                store.delete(obj)
            elif event.type != BOOKMARK:
                log.warning("unexpected watch event type %r", event.type)
        except Exception:  # noqa: BLE001 - client-go logs a store error and goes on watching
            log.exception("unable to apply a %s watch event to the store", event.type)
        rv = resource_version_of(obj)
        if rv:
            self.last_sync_resource_version = rv
            update_resource_version = getattr(store, "update_resource_version", None)
            if callable(update_resource_version):
                update_resource_version(rv)


def _resource_name(client: Any) -> str:
    requests = getattr(client, "_req", None)
    return requests.resource.plural if requests is not None else type(client).__name__


class _ReflectorBase:
    """Configuration and bookkeeping both flavours share."""

    def __init__(
        self,
        client: Any,
        store: ReflectorStore,
        *,
        resync_period: float,
        should_resync: Callable[[], bool] | None,
        list_options: ListOptions | None,
        watch_error_handler: WatchErrorHandler | None,
        name: str,
        min_watch_timeout: float,
    ) -> None:
        self.client = client
        self.store = store
        self.resync_period = resync_period
        self.should_resync = should_resync or (lambda: True)
        self.tweak: ListOptions = list_options or (lambda options: options)
        self.watch_error_handler = watch_error_handler
        self.name = name or _resource_name(client)
        # client-go honours a minimum watch timeout only above its default.
        self.state = ReflectorState(min_watch_timeout=max(MIN_WATCH_TIMEOUT, min_watch_timeout))
        self.backoff = reflector_backoff()
        self.clock: Callable[[], float] = time.monotonic

    @property
    def last_sync_resource_version(self) -> str:
        return self.state.last_sync_resource_version

    def _report(self, error: BaseException) -> None:
        if self.watch_error_handler is not None:
            try:
                self.watch_error_handler(error)
            except Exception:  # noqa: BLE001
                log.exception("%s: the watch error handler failed", self.name)
        else:
            default_watch_error_handler(self.name, error)

    def _list_options(self, options: dict[str, Any]) -> dict[str, Any]:
        return self.tweak(dict(options))

    def _watch_options(self) -> dict[str, Any]:
        options = self.tweak(self.state.watch_options())
        # Events or bookmarks arrive well within the server's timeout on a live connection.
        return {**options, "idle_timeout": float(options["timeout_seconds"]) + 60.0}

    def _stored(self, requested: str, pager: ListPager) -> None:
        self.store.replace(pager.items, pager.list_resource_version)
        self.state.listed(requested, pager)


class Reflector(_ReflectorBase):
    """Runs list+watch on a thread until ``stop()``; feeds ``store`` (a DeltaFIFO)."""

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
    ) -> None:
        super().__init__(
            client, store, resync_period=resync_period, should_resync=should_resync, list_options=list_options,
            watch_error_handler=watch_error_handler, name=name, min_watch_timeout=min_watch_timeout,
        )
        self._stop = threading.Event()
        self._watch: Any = None
        self._lock = threading.Lock()

    def stop(self) -> None:
        """Ends ``run``: the open watch is closed at once, a list in flight is discarded."""
        self._stop.set()
        with self._lock:
            watch = self._watch
        if watch is not None:
            watch.stop()

    def run(self) -> None:
        """list_and_watch until stopped, backing off after each return (client-go BackoffUntil)."""
        resync = threading.Thread(target=self._resync_loop, daemon=True, name=f"resync-{self.name}")
        if self.resync_period > 0:
            resync.start()
        while not self._stop.is_set():
            try:
                self.list_and_watch(self._stop)
            except Exception as e:  # noqa: BLE001 - a reflector never dies of one failure
                self._report(e)
            if not self._stop.is_set():
                self._stop.wait(self.backoff.next_delay())
        if resync.is_alive():
            resync.join()

    def _resync_loop(self) -> None:
        while not self._stop.wait(self.resync_period):
            if self.should_resync():
                self.store.resync()

    def list_and_watch(self, stop: threading.Event | None = None) -> None:
        """Lists, then watches until a relist is due or ``stop`` is set (returns), or a list or
        the start of a watch fails (raises)."""
        stop = stop or self._stop
        self.list(stop)
        if not stop.is_set():
            self.watch(stop)

    def list(self, stop: threading.Event | None = None) -> None:
        """Lists everything and replaces the store's content with it."""
        stop = stop or self._stop
        requested = self.state.list_resource_version()
        try:
            pager = self._list_pages(requested, stop)
        except Exception as e:
            if not self.state.list_failed(e):
                raise
            pager = self._list_pages(self.state.list_resource_version(), stop)
        if pager is not None:
            self._stored(requested, pager)

    def _list_pages(self, resource_version: str, stop: threading.Event) -> ListPager | None:
        pager = ListPager(resource_version, self.state.page_limit(resource_version))
        options: dict[str, Any] | None = pager.first()
        while options is not None:
            if stop.is_set():
                return None  # a partial list must never replace the store
            try:
                options = pager.received(self.client.list(**self._list_options(options)))
            except ApiError as e:
                options = pager.failed(e)
        return pager

    def watch(self, stop: threading.Event | None = None) -> None:
        """Watches from the last resourceVersion, again and again, until a relist is due."""
        stop = stop or self._stop
        while not stop.is_set():
            started = self.clock()
            try:
                stream = self.client.open_watch(**self._watch_options())
            except Exception as e:
                if not self.state.watch_start_retriable(e):
                    raise
                log.debug("%s: watch failed (%s); backing off", self.name, e)
                stop.wait(self.backoff.next_delay())
                continue
            events, error = self._consume(stream, stop)
            if stop.is_set():
                return
            decision, problem = self.state.watch_ended(error, self.clock() - started, events)
            if problem is not None:
                self._report(problem)
            if decision == RELIST:
                return
            if decision == BACKOFF:
                stop.wait(self.backoff.next_delay())

    def _consume(self, stream: Any, stop: threading.Event) -> tuple[int, BaseException | None]:
        """Applies the stream's events until it ends; (events applied, the error it ended with)."""
        events = 0
        with self._lock:
            self._watch = stream
        try:
            with stream:
                if stop.is_set():  # stop() came before the stream was registered
                    return events, None
                for event in stream:
                    self.state.apply(event, self.store)
                    events += 1
                    if stop.is_set():
                        break
        except Exception as e:  # noqa: BLE001 - judged by watch_ended
            return events, e
        finally:
            with self._lock:
                self._watch = None
        return events, None


class AsyncReflector(_ReflectorBase):
    """The Reflector as an asyncio task: ``await run()`` until ``stop()`` or cancellation."""

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
    ) -> None:
        super().__init__(
            client, store, resync_period=resync_period, should_resync=should_resync, list_options=list_options,
            watch_error_handler=watch_error_handler, name=name, min_watch_timeout=min_watch_timeout,
        )
        self._stop = asyncio.Event()

    def stop(self) -> None:
        self._stop.set()

    @staticmethod
    async def _sleep(seconds: float, stop: asyncio.Event) -> None:
        try:
            await asyncio.wait_for(stop.wait(), seconds)
        except asyncio.TimeoutError:
            pass

    async def run(self) -> None:
        resync = asyncio.create_task(self._resync_loop()) if self.resync_period > 0 else None
        try:
            while not self._stop.is_set():
                try:
                    await self.list_and_watch(self._stop)
                except asyncio.CancelledError:
                    raise
                except Exception as e:  # noqa: BLE001
                    self._report(e)
                if not self._stop.is_set():
                    await self._sleep(self.backoff.next_delay(), self._stop)
        finally:
            if resync is not None:
                resync.cancel()

    async def _resync_loop(self) -> None:
        while not self._stop.is_set():
            await self._sleep(self.resync_period, self._stop)
            if not self._stop.is_set() and self.should_resync():
                self.store.resync()

    async def list_and_watch(self, stop: asyncio.Event | None = None) -> None:
        stop = stop or self._stop
        await self.list(stop)
        if not stop.is_set():
            await self.watch(stop)

    async def list(self, stop: asyncio.Event | None = None) -> None:
        stop = stop or self._stop
        requested = self.state.list_resource_version()
        try:
            pager = await self._list_pages(requested, stop)
        except Exception as e:
            if not self.state.list_failed(e):
                raise
            pager = await self._list_pages(self.state.list_resource_version(), stop)
        if pager is not None:
            self._stored(requested, pager)

    async def _list_pages(self, resource_version: str, stop: asyncio.Event) -> ListPager | None:
        pager = ListPager(resource_version, self.state.page_limit(resource_version))
        options: dict[str, Any] | None = pager.first()
        while options is not None:
            if stop.is_set():
                return None
            try:
                options = pager.received(await self.client.list(**self._list_options(options)))
            except ApiError as e:
                options = pager.failed(e)
        return pager

    async def watch(self, stop: asyncio.Event | None = None) -> None:
        stop = stop or self._stop
        while not stop.is_set():
            started = self.clock()
            try:
                stream = await self.client.open_watch(**self._watch_options())
            except Exception as e:
                if not self.state.watch_start_retriable(e):
                    raise
                log.debug("%s: watch failed (%s); backing off", self.name, e)
                await self._sleep(self.backoff.next_delay(), stop)
                continue
            events, error = await self._consume(stream, stop)
            if stop.is_set():
                return
            decision, problem = self.state.watch_ended(error, self.clock() - started, events)
            if problem is not None:
                self._report(problem)
            if decision == RELIST:
                return
            if decision == BACKOFF:
                await self._sleep(self.backoff.next_delay(), stop)

    async def _consume(self, stream: Any, stop: asyncio.Event) -> tuple[int, BaseException | None]:
        events = 0
        stopped = asyncio.ensure_future(stop.wait())
        next_event: asyncio.Future[Any] | None = None
        try:
            async with stream:
                try:
                    iterator = stream.__aiter__()
                    while True:
                        next_event = asyncio.ensure_future(iterator.__anext__())
                        await asyncio.wait({next_event, stopped}, return_when=asyncio.FIRST_COMPLETED)
                        if not next_event.done():
                            return events, None  # stopped: the read is cancelled below
                        try:
                            event = next_event.result()
                        except StopAsyncIteration:
                            return events, None
                        next_event = None
                        self.state.apply(event, self.store)
                        events += 1
                finally:
                    # Also on cancellation: no read may outlive the stream it reads.
                    if next_event is not None and not next_event.done():
                        stream.stop()
                        next_event.cancel()
                        await asyncio.gather(next_event, return_exceptions=True)
        except Exception as e:  # noqa: BLE001 - judged by watch_ended
            return events, e
        finally:
            stopped.cancel()
