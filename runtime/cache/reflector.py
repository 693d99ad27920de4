"""Reflector: keeps a store in step with the server by list, then watch (client-go reflector.go).

The decisions are client-go's, made in ``ReflectorState`` (no I/O, testable alone); the
``Reflector`` (a thread) and ``AsyncReflector`` (a task) only carry them out:

- List in pages of 500. The first list asks for resourceVersion "0" (any recent state, served
  from the apiserver's watch cache); later lists ask for the last resourceVersion seen; after a
  410 Gone / "too large resource version", the next list asks for "" (a consistent read).
- Watch from the list's resourceVersion with bookmarks, for a timeout drawn from [300, 600) s,
  so that many clients do not reconnect in lockstep. Each event moves lastSyncResourceVersion.
- A 410 (as an HTTP status, as an in-stream ERROR event, or as a Status where a list was
  expected) means the resourceVersion left the server's window: relist. A watch that merely
  ended (timeout, dropped connection) is resumed from the last resourceVersion without a relist.
- Failures back off 0.8 s -> 30 s, doubling with jitter; after 2 minutes without trouble the
  backoff starts over.
"""

from __future__ import annotations

import asyncio
import logging
import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import httpx

from ..errors import ApiError, Expired, Gone, TooManyRequests, error_from_status
from ..resource import AsyncResourceClient, ResourceClient
from ..watch import BOOKMARK, WatchDecoder, WatchEvent
from .delta_fifo import DeltaFIFO

log = logging.getLogger("kgen.runtime.cache.reflector")

PAGE_SIZE = 500
MIN_WATCH_TIMEOUT = 300.0


def resource_version_of(obj: Any) -> str:
    if isinstance(obj, dict):
        return str((obj.get("metadata") or {}).get("resourceVersion") or "")
    meta = getattr(obj, "metadata", None)
    rv = getattr(meta, "resource_version", None) if meta is not None else None
    return rv if isinstance(rv, str) else ""


def _list_meta(lst: Any) -> tuple[list[Any], str, str]:
    """(items, resourceVersion, continue) of a typed or unstructured list.

    A ``Status`` where the list should be (a 410 inside a 200) raises its error.
    """
    kind = lst.get("kind") if isinstance(lst, dict) else getattr(lst, "kind", None)
    if kind == "Status":
        raise error_from_status(lst if isinstance(lst, dict) else lst.to_dict())
    if isinstance(lst, dict):
        meta = lst.get("metadata") or {}
        return list(lst.get("items") or []), str(meta.get("resourceVersion") or ""), str(meta.get("continue") or "")
    meta = getattr(lst, "metadata", None)
    rv = getattr(meta, "resource_version", None) if meta is not None else None
    token = getattr(meta, "continue_", None) if meta is not None else None
    return list(getattr(lst, "items", None) or []), rv if isinstance(rv, str) else "", token if isinstance(token, str) else ""


def _too_large_rv(error: ApiError) -> bool:
    return error.code == 504 and "Too large resource version" in error.message or (
        bool(error.details.get("causes")) and any(c.reason == "ResourceVersionTooLarge" for c in error.causes)
    )


@dataclass
class Backoff:
    """client-go's reflector backoff: 0.8 s doubling to 30 s, full jitter, reset after 2 min."""

    initial: float = 0.8
    cap: float = 30.0
    factor: float = 2.0
    jitter: float = 1.0
    reset_after: float = 120.0
    clock: Callable[[], float] = time.monotonic
    rng: random.Random = field(default_factory=random.Random)
    _current: float = 0.0
    _last: float | None = None

    def next_delay(self) -> float:
        now = self.clock()
        if self._last is None or now - self._last > self.reset_after:
            self._current = self.initial
        else:
            self._current = min(self.cap, self._current * self.factor)
        self._last = now
        return self._current * (1 + self.jitter * self.rng.random()) if self.jitter else self._current


@dataclass
class ReflectorState:
    """What to ask the server next, and what each answer means."""

    last_sync_resource_version: str = ""
    resource_version_unavailable: bool = False
    rng: random.Random = field(default_factory=random.Random)

    def list_resource_version(self) -> str:
        if self.resource_version_unavailable:
            return ""
        return self.last_sync_resource_version or "0"

    def listed(self, resource_version: str) -> None:
        self.last_sync_resource_version = resource_version
        self.resource_version_unavailable = False

    def list_failed(self, error: BaseException) -> None:
        if isinstance(error, Gone) or (isinstance(error, ApiError) and _too_large_rv(error)):
            self.resource_version_unavailable = True

    def watch_options(self) -> dict[str, Any]:
        return {
            "resource_version": self.last_sync_resource_version,
            "allow_watch_bookmarks": True,
            "timeout_seconds": int(MIN_WATCH_TIMEOUT * (1 + self.rng.random())),
        }

    def watch_failed(self, error: BaseException) -> str:
        """'relist' after a 410, 'backoff' when the server pushes back, else 'rewatch'."""
        if isinstance(error, (Expired, Gone)):
            self.resource_version_unavailable = True
            return "relist"
        if isinstance(error, TooManyRequests) or isinstance(error, ApiError) and error.code >= 500:
            return "backoff"
        if isinstance(error, ApiError):
            return "relist"
        return "rewatch"  # the connection ended: resume from the last resourceVersion

    def apply(self, event: WatchEvent[Any], store: DeltaFIFO) -> None:
        rv = resource_version_of(event.object)
        if event.type == "ADDED":
            store.add(event.object)
        elif event.type == "MODIFIED":
            store.update(event.object)
        elif event.type == "DELETED":
            store.delete(event.object)
        elif event.type != BOOKMARK:
            log.warning("unexpected watch event type %r", event.type)
        if rv:
            self.last_sync_resource_version = rv


class _WatchEnded(Exception):
    pass


class Reflector:
    """Runs list+watch on a thread until ``stop()``; feeds ``store`` (a DeltaFIFO)."""

    def __init__(
        self,
        client: ResourceClient[Any, Any],
        store: DeltaFIFO,
        *,
        resync_period: float = 0.0,
        should_resync: Callable[[], bool] = lambda: True,
        list_options: Callable[[dict[str, Any]], dict[str, Any]] = lambda o: o,
        watch_error_handler: Callable[[BaseException], None] | None = None,
        name: str = "",
    ) -> None:
        self.client = client
        self.store = store
        self.resync_period = resync_period
        self.should_resync = should_resync
        self.tweak = list_options
        self.watch_error_handler = watch_error_handler
        self.name = name or client._req.resource.plural
        self.state = ReflectorState()
        self.backoff = Backoff()
        self._stop = threading.Event()
        self._response: httpx.Response | None = None
        self._lock = threading.Lock()

    @property
    def last_sync_resource_version(self) -> str:
        return self.state.last_sync_resource_version

    def stop(self) -> None:
        self._stop.set()
        with self._lock:
            if self._response is not None:
                self._response.close()  # unblocks the watch read

    def run(self) -> None:
        """list_and_watch until stopped, backing off between failures."""
        resync = threading.Thread(target=self._resync_loop, daemon=True, name=f"resync-{self.name}")
        if self.resync_period > 0:
            resync.start()
        while not self._stop.is_set():
            try:
                self.list_and_watch()
            except Exception as e:  # noqa: BLE001 - a reflector never dies of one failure
                self._report(e)
            if not self._stop.is_set():
                self._stop.wait(self.backoff.next_delay())

    def _report(self, error: BaseException) -> None:
        if self.watch_error_handler is not None:
            self.watch_error_handler(error)
        else:
            log.warning("%s: %s", self.name, error)

    def _resync_loop(self) -> None:
        while not self._stop.wait(self.resync_period):
            if self.should_resync():
                self.store.resync()

    def list(self) -> None:
        rv = self.state.list_resource_version()
        options = self.tweak({"limit": PAGE_SIZE, "resource_version": rv or None})
        items: list[Any] = []
        try:
            page = self.client.list(**options)
            page_items, list_rv, token = _list_meta(page)
            items += page_items
            while token and not self._stop.is_set():
                page = self.client.list(**{**self.tweak({"limit": PAGE_SIZE}), "continue_": token})
                page_items, list_rv, token = _list_meta(page)
                items += page_items
        except Expired as e:
            if not items:
                self.state.list_failed(e)
                raise
            # The snapshot expired between pages: one full list instead (client-go's pager).
            items, list_rv, _ = _list_meta(self.client.list(**self.tweak({})))
        except ApiError as e:
            self.state.list_failed(e)
            raise
        self.store.replace(items, list_rv)
        self.state.listed(list_rv)

    def list_and_watch(self) -> None:
        self.list()
        while not self._stop.is_set():
            try:
                self._watch_once()
            except (ApiError, httpx.HTTPError) as e:
                decision = self.state.watch_failed(e)
                if decision == "relist":
                    log.info("%s: %s; relisting", self.name, e)
                    return
                if decision == "backoff":
                    self._report(e)
                    self._stop.wait(self.backoff.next_delay())
                elif not self._stop.is_set():
                    log.debug("%s: watch ended (%s); resuming from %s", self.name, type(e).__name__,
                              self.state.last_sync_resource_version)

    def _watch_once(self) -> None:
        options = self.tweak(self.state.watch_options())
        req = self.client._req.watch(idle_timeout=options["timeout_seconds"] + 60, **options)
        decoder = WatchDecoder(self.client._codec.decode, req.describe())
        with self.client._rest.stream(req) as response:
            with self._lock:
                self._response = response
            try:
                if self._stop.is_set():
                    return
                for chunk in response.iter_bytes():
                    for event in decoder.feed(chunk):
                        self.state.apply(event, self.store)
                for event in decoder.finish():
                    self.state.apply(event, self.store)
            finally:
                with self._lock:
                    self._response = None


class AsyncReflector:
    """The Reflector as an asyncio task: ``await run()`` until ``stop()`` or cancellation."""

    def __init__(
        self,
        client: AsyncResourceClient[Any, Any],
        store: DeltaFIFO,
        *,
        resync_period: float = 0.0,
        should_resync: Callable[[], bool] = lambda: True,
        list_options: Callable[[dict[str, Any]], dict[str, Any]] = lambda o: o,
        watch_error_handler: Callable[[BaseException], None] | None = None,
        name: str = "",
    ) -> None:
        self.client = client
        self.store = store
        self.resync_period = resync_period
        self.should_resync = should_resync
        self.tweak = list_options
        self.watch_error_handler = watch_error_handler
        self.name = name or client._req.resource.plural
        self.state = ReflectorState()
        self.backoff = Backoff()
        self._stopped = asyncio.Event()

    def stop(self) -> None:
        self._stopped.set()

    async def _sleep(self, seconds: float) -> None:
        try:
            await asyncio.wait_for(self._stopped.wait(), seconds)
        except asyncio.TimeoutError:
            pass

    async def run(self) -> None:
        resync = asyncio.create_task(self._resync_loop()) if self.resync_period > 0 else None
        try:
            while not self._stopped.is_set():
                try:
                    await self.list_and_watch()
                except asyncio.CancelledError:
                    raise
                except Exception as e:  # noqa: BLE001
                    if self.watch_error_handler is not None:
                        self.watch_error_handler(e)
                    else:
                        log.warning("%s: %s", self.name, e)
                if not self._stopped.is_set():
                    await self._sleep(self.backoff.next_delay())
        finally:
            if resync is not None:
                resync.cancel()

    async def _resync_loop(self) -> None:
        while not self._stopped.is_set():
            await self._sleep(self.resync_period)
            if not self._stopped.is_set() and self.should_resync():
                self.store.resync()

    async def list(self) -> None:
        rv = self.state.list_resource_version()
        items: list[Any] = []
        try:
            page = await self.client.list(**self.tweak({"limit": PAGE_SIZE, "resource_version": rv or None}))
            page_items, list_rv, token = _list_meta(page)
            items += page_items
            while token:
                page = await self.client.list(**{**self.tweak({"limit": PAGE_SIZE}), "continue_": token})
                page_items, list_rv, token = _list_meta(page)
                items += page_items
        except Expired as e:
            if not items:
                self.state.list_failed(e)
                raise
            items, list_rv, _ = _list_meta(await self.client.list(**self.tweak({})))
        except ApiError as e:
            self.state.list_failed(e)
            raise
        self.store.replace(items, list_rv)
        self.state.listed(list_rv)

    async def list_and_watch(self) -> None:
        await self.list()
        while not self._stopped.is_set():
            try:
                await self._watch_once()
            except (ApiError, httpx.HTTPError) as e:
                decision = self.state.watch_failed(e)
                if decision == "relist":
                    log.info("%s: %s; relisting", self.name, e)
                    return
                if decision == "backoff":
                    await self._sleep(self.backoff.next_delay())

    async def _watch_once(self) -> None:
        options = self.tweak(self.state.watch_options())
        req = self.client._req.watch(idle_timeout=options["timeout_seconds"] + 60, **options)
        decoder = WatchDecoder(self.client._codec.decode, req.describe())
        stop = asyncio.create_task(self._stopped.wait())
        try:
            async with self.client._rest.stream(req) as response:
                chunks = response.aiter_bytes().__aiter__()
                while True:
                    next_chunk = asyncio.ensure_future(chunks.__anext__())
                    done, _ = await asyncio.wait({next_chunk, stop}, return_when=asyncio.FIRST_COMPLETED)
                    if next_chunk not in done:
                        next_chunk.cancel()
                        return
                    try:
                        chunk = next_chunk.result()
                    except StopAsyncIteration:
                        break
                    for event in decoder.feed(chunk):
                        self.state.apply(event, self.store)
                for event in decoder.finish():
                    self.state.apply(event, self.store)
        finally:
            stop.cancel()
