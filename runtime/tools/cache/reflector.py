"""Reflector: keeps a store in step with the server by list, then watch (client-go reflector.go).

The reflector is written once, without I/O: client-go's decisions live in ``ReflectorState`` and
``ListPager`` (reflector_state.py, pager.py), and its loops in ``ReflectorCore`` as generators of
steps — list a page, open a watch, consume it, wait — that receive each step's outcome (as in
kube-rs's ``watcher`` state machine). ``Reflector`` (a thread) and ``AsyncReflector`` (an asyncio
task) only perform the steps against a lister-watcher — a ``ResourceClient``, or anything with
``list(**options)`` and ``open_watch(**options)`` — and stop between any two. The rules:

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
import logging
import threading
import time
from collections.abc import Callable, Generator
from dataclasses import dataclass
from typing import Any

from kgen.runtime.apimachinery.errors import ApiError
from kgen.runtime.rest.watch import WatchEvent
from kgen.runtime.tools.cache.pager import ListPager
from kgen.runtime.tools.cache.reflector_state import (
    BACKOFF,
    MIN_WATCH_TIMEOUT,
    RELIST,
    ListOptions,
    ReflectorState,
    ReflectorStore,
    VeryShortWatchError,
    WatchErrorHandler,
    default_watch_error_handler,
    reflector_backoff,
)

__all__ = [
    "AsyncReflector", "Consume", "ListPage", "OpenWatch", "Reflector", "ReflectorCore", "ReflectorStore",
    "Stepper", "VeryShortWatchError", "Wait", "WatchErrorHandler", "reflector_backoff",
]

log = logging.getLogger("kgen.runtime.tools.cache.reflector")


def _resource_name(client: Any) -> str:
    requests = getattr(client, "_req", None)
    return requests.resource.plural if requests is not None else type(client).__name__


# -- the steps: what a reflector does, as a generator of I/O requests -------------------------


@dataclass(frozen=True)
class ListPage:
    """List one page with these options; the reply is the page."""

    options: dict[str, Any]


@dataclass(frozen=True)
class OpenWatch:
    """Open a watch with these options; the reply is the stream."""

    options: dict[str, Any]


@dataclass(frozen=True)
class Consume:
    """Apply the stream's events (``ReflectorCore.apply``) until it ends or the reflector stops;
    the reply is (events applied, the error the stream ended with, or None)."""

    stream: Any


@dataclass(frozen=True)
class Wait:
    """Wait this long, or until the reflector stops."""

    seconds: float


Step = ListPage | OpenWatch | Consume | Wait
Steps = Generator[Step, Any, None]


class Stepper:
    """Hands a driver the steps of a generator one at a time, and the outcome of each back to it.

    A driver asks ``next()`` for a step, performs it and reports ``done(reply)`` or
    ``failed(error)``; the error is raised inside the generator where the step was asked for, so
    the core handles failures with ordinary ``try``/``except``. ``close()`` abandons the rest:
    what the generator would have done after a stop (replace the store with a partial list, judge
    a watch that was cut short) never happens.
    """

    def __init__(self, steps: Steps) -> None:
        self._steps = steps
        self._reply: Any = None
        self._error: BaseException | None = None

    def next(self) -> Step | None:
        try:
            if self._error is not None:
                error, self._error = self._error, None
                return self._steps.throw(error)
            reply, self._reply = self._reply, None
            return self._steps.send(reply)
        except StopIteration:
            return None

    def done(self, reply: Any) -> None:
        self._reply = reply

    def failed(self, error: BaseException) -> None:
        self._error = error

    def close(self) -> None:
        self._steps.close()


class ReflectorCore:
    """The reflector without I/O: configuration, bookkeeping, and its loops written once as step
    generators (``run_steps``, ``list_and_watch_steps``, ``list_steps``, ``watch_steps``,
    ``resync_steps``). The thread and asyncio drivers below only perform the steps."""

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
        self._init_driver()

    def _init_driver(self) -> None:
        """The driver's own state (its stop signal)."""

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

    def apply(self, event: WatchEvent[Any]) -> None:
        """One watch event into the store (the drivers call it for each event they read)."""
        self.state.apply(event, self.store)

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
        while True:
            yield Wait(self.resync_period)
            if self.should_resync():
                self.store.resync()

    def list_and_watch_steps(self) -> Steps:
        """Lists, then watches until a relist is due (returns); a list or the start of a watch
        that fails raises."""
        yield from self.list_steps()
        yield from self.watch_steps()

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

    def watch_steps(self) -> Steps:
        """Watches from the last resourceVersion, again and again, until a relist is due."""
        while True:
            started = self.clock()
            try:
                stream = yield OpenWatch(self._watch_options())
            except Exception as e:
                if not self.state.watch_start_retriable(e):
                    raise
                log.debug("%s: watch failed (%s); backing off", self.name, e)
                yield Wait(self.backoff.next_delay())
                continue
            events, error = yield Consume(stream)
            decision, problem = self.state.watch_ended(error, self.clock() - started, events)
            if problem is not None:
                self._report(problem)
            if decision == RELIST:
                return
            if decision == BACKOFF:
                yield Wait(self.backoff.next_delay())

    def _watch_options(self) -> dict[str, Any]:
        options = self.tweak(self.state.watch_options())
        # Events or bookmarks arrive well within the server's timeout on a live connection.
        return {**options, "idle_timeout": float(options["timeout_seconds"]) + 60.0}


# -- the drivers: the same steps on a thread and on asyncio -----------------------------------


class Reflector(ReflectorCore):
    """Runs list+watch on a thread until ``stop()``; feeds ``store`` (a DeltaFIFO)."""

    def _init_driver(self) -> None:
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
        resync = threading.Thread(target=self._drive, args=(self.resync_steps(), self._stop), daemon=True,
                                  name=f"resync-{self.name}")
        if self.resync_period > 0:
            resync.start()
        self._drive(self.run_steps(), self._stop)
        if resync.is_alive():
            resync.join()

    def list_and_watch(self, stop: threading.Event | None = None) -> None:
        self._drive(self.list_and_watch_steps(), stop or self._stop)

    def list(self, stop: threading.Event | None = None) -> None:
        self._drive(self.list_steps(), stop or self._stop)

    def watch(self, stop: threading.Event | None = None) -> None:
        self._drive(self.watch_steps(), stop or self._stop)

    def _drive(self, steps: Steps, stop: threading.Event) -> None:
        stepper = Stepper(steps)
        try:
            while not stop.is_set() and (step := stepper.next()) is not None:
                try:
                    stepper.done(self._perform(step, stop))
                except Exception as e:  # noqa: BLE001 - raised in the core, at the step
                    stepper.failed(e)
        finally:
            stepper.close()

    def _perform(self, step: Step, stop: threading.Event) -> Any:
        if isinstance(step, ListPage):
            return self.client.list(**step.options)
        if isinstance(step, OpenWatch):
            return self.client.open_watch(**step.options)
        if isinstance(step, Consume):
            return self._consume(step.stream, stop)
        stop.wait(step.seconds)
        return None

    def _consume(self, stream: Any, stop: threading.Event) -> tuple[int, BaseException | None]:
        events = 0
        with self._lock:
            self._watch = stream
        try:
            with stream:
                if stop.is_set():  # stop() came before the stream was registered
                    return events, None
                for event in stream:
                    self.apply(event)
                    events += 1
                    if stop.is_set():
                        break
        except Exception as e:  # noqa: BLE001 - judged by watch_ended
            return events, e
        finally:
            with self._lock:
                self._watch = None
        return events, None


class AsyncReflector(ReflectorCore):
    """The Reflector as an asyncio task: ``await run()`` until ``stop()`` or cancellation."""

    def _init_driver(self) -> None:
        self._stop = asyncio.Event()

    def stop(self) -> None:
        self._stop.set()

    async def run(self) -> None:
        resync = asyncio.ensure_future(self._drive(self.resync_steps(), self._stop)) if self.resync_period > 0 else None
        try:
            await self._drive(self.run_steps(), self._stop)
        finally:
            if resync is not None:
                resync.cancel()

    async def list_and_watch(self, stop: asyncio.Event | None = None) -> None:
        await self._drive(self.list_and_watch_steps(), stop or self._stop)

    async def list(self, stop: asyncio.Event | None = None) -> None:
        await self._drive(self.list_steps(), stop or self._stop)

    async def watch(self, stop: asyncio.Event | None = None) -> None:
        await self._drive(self.watch_steps(), stop or self._stop)

    async def _drive(self, steps: Steps, stop: asyncio.Event) -> None:
        stepper = Stepper(steps)
        try:
            while not stop.is_set() and (step := stepper.next()) is not None:
                try:
                    stepper.done(await self._perform(step, stop))
                except Exception as e:  # noqa: BLE001 - raised in the core, at the step
                    stepper.failed(e)
        finally:
            stepper.close()

    async def _perform(self, step: Step, stop: asyncio.Event) -> Any:
        if isinstance(step, ListPage):
            return await self.client.list(**step.options)
        if isinstance(step, OpenWatch):
            return await self.client.open_watch(**step.options)
        if isinstance(step, Consume):
            return await self._consume(step.stream, stop)
        try:
            await asyncio.wait_for(stop.wait(), step.seconds)
        except asyncio.TimeoutError:
            pass
        return None

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
                        self.apply(event)
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
