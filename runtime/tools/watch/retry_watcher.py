"""RetryWatcher: an endless watch that resumes where it left off (client-go tools/watch's
retrywatcher.go), for threads and for asyncio.

Both flavours perform the steps of one ``RetryWatcherCore`` (retry_watcher_core.py, whose
docstring lists the rules): list if there is no resourceVersion to start from, watch from the last
resourceVersion across server timeouts, dropped connections and bookmarks, and bridge a 410 Gone
with a relist whose differences with the state known are handed on as events, so the consumer
loses no change. What they add is only the I/O: ``list`` and ``open_watch`` on any lister-watcher
(a typed client such as ``cs.apps_v1.deployments(ns)``, the dynamic client's resource clients,
their async twins: lister_watcher.py), reading the stream, sleeping, and stopping.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import AsyncGenerator, AsyncIterator, Generator, Iterable, Iterator, Mapping
from typing import Any, Generic, TypeVar

from kgen.runtime.rest.watch import WatchEvent
from kgen.runtime.tools.watch.lister_watcher import AsyncWatchable, Watchable, async_lister_watcher, lister_watcher
from kgen.runtime.tools.watch.retry_watcher_core import (
    END,
    Close,
    Emit,
    ListAll,
    Next,
    OpenWatch,
    RetryWatcherCore,
    Sleep,
)

__all__ = ["AsyncRetryWatcher", "RetryWatcher"]

log = logging.getLogger("kgen.runtime.tools.watch")

T = TypeVar("T")
"""The type of the watched objects."""


def _closed(close: Any) -> None:
    """Close a stream the watcher is done with; a failure to close it changes nothing."""
    try:
        close()
    except Exception as e:  # noqa: BLE001 - the watch is over either way
        log.debug("closing a watch stream: %s", e)


def _selectors(label_selector: str | None, field_selector: str | None) -> dict[str, Any]:
    return {"label_selector": label_selector, "field_selector": field_selector}


class _Watcher(Generic[T]):
    """What both flavours show of the core's state."""

    _core: RetryWatcherCore[T]

    @property
    def resource_version(self) -> str:
        """The last resourceVersion seen (of an event, a bookmark or a list)."""
        return self._core.resource_version

    @property
    def objects(self) -> Mapping[str, T]:
        """The state known, by ``namespace/name``: the start's plus every event since."""
        return dict(self._core.known)

    @property
    def relists(self) -> int:
        """How many times a 410 Gone was bridged by a relist."""
        return self._core.relists


class RetryWatcher(_Watcher[T]):
    """``for event in RetryWatcher(cs.core_v1.config_maps(ns)):`` — every ADDED, MODIFIED and
    DELETED event from ``resource_version`` on (from now, after a list, if it is ""), forever, with
    no event lost to a timeout, a dropped connection or a compaction. ``known``: the objects as
    they were at ``resource_version``, which a 410's relist compares with (without them, objects
    the watcher never saw come as ADDED then). ``stop()``, from any thread, ends the iteration;
    ``with`` stops it on leaving. Errors no retry cures (403, 404, ...) are raised."""

    def __init__(
        self, client: Watchable[T], resource_version: str | None = "", *, known: Iterable[T] = (),
        label_selector: str | None = None, field_selector: str | None = None,
    ) -> None:
        self._client = lister_watcher(client)
        self._core = RetryWatcherCore(resource_version, known, options=_selectors(label_selector, field_selector))
        self._stopped = threading.Event()
        self._stream: Any = None
        self._events: Generator[WatchEvent[T], None, None] | None = None

    def __iter__(self) -> Iterator[WatchEvent[T]]:
        """The events; iterating again goes on where the last iteration left off."""
        if self._events is None:
            self._events = self._run()
        return self._events

    def stop(self) -> None:
        """End the iteration, even one blocked reading the stream on another thread."""
        self._stopped.set()
        stream = self._stream
        if stream is not None:
            stream.stop()

    def __enter__(self) -> RetryWatcher[T]:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
        if self._events is not None:
            self._events.close()  # release the stream now

    def _run(self) -> Generator[WatchEvent[T], None, None]:
        steps = self._core.steps()
        reply: Any = None
        error: BaseException | None = None
        try:
            while not self._stopped.is_set():
                try:
                    step = steps.throw(error) if error is not None else steps.send(reply)
                except StopIteration:
                    return
                reply, error = None, None
                try:
                    if isinstance(step, Emit):
                        yield step.event
                    elif isinstance(step, Next):
                        reply = next(iter(step.stream), END)
                    elif isinstance(step, OpenWatch):
                        reply = self._stream = self._client.open_watch(**step.options)
                        if self._stopped.is_set():  # stopped while it opened
                            reply.stop()
                    elif isinstance(step, Close):
                        self._stream = None
                        _closed(step.stream.close)
                    elif isinstance(step, ListAll):
                        reply = self._client.list(**step.options)
                    elif isinstance(step, Sleep):
                        self._stopped.wait(step.seconds)
                except Exception as e:  # noqa: BLE001 - thrown into the core, which judges it
                    error = e
        finally:
            steps.close()
            stream, self._stream = self._stream, None
            if stream is not None:
                stream.close()


class AsyncRetryWatcher(_Watcher[T]):
    """``RetryWatcher`` on asyncio: ``async for event in AsyncRetryWatcher(client):`` with an
    async lister-watcher. Cancel the iterating task to end it at once; ``stop()`` (on the loop's
    thread) ends it after the event being read or the sleep under way."""

    def __init__(
        self, client: AsyncWatchable[T], resource_version: str | None = "", *, known: Iterable[T] = (),
        label_selector: str | None = None, field_selector: str | None = None,
    ) -> None:
        self._client = async_lister_watcher(client)
        self._core = RetryWatcherCore(resource_version, known, options=_selectors(label_selector, field_selector))
        self._stopped = False
        self._wake: asyncio.Event | None = None
        self._stream: Any = None
        self._events: AsyncGenerator[WatchEvent[T], None] | None = None

    def __aiter__(self) -> AsyncIterator[WatchEvent[T]]:
        """The events; iterating again goes on where the last iteration left off."""
        if self._events is None:
            self._events = self._run()
        return self._events

    def stop(self) -> None:
        """End the iteration after the event being read (or at once, if it sleeps)."""
        self._stopped = True
        if self._wake is not None:
            self._wake.set()
        if self._stream is not None:
            self._stream.stop()

    async def __aenter__(self) -> AsyncRetryWatcher[T]:
        return self

    async def __aexit__(self, *exc: object) -> None:
        self.stop()
        if self._events is not None:
            await self._events.aclose()  # release the stream now

    async def _sleep(self, seconds: float) -> None:
        if self._wake is None:
            self._wake = asyncio.Event()
        try:
            await asyncio.wait_for(self._wake.wait(), seconds)
        except asyncio.TimeoutError:
            pass

    async def _run(self) -> AsyncGenerator[WatchEvent[T], None]:
        steps = self._core.steps()
        reply: Any = None
        error: BaseException | None = None
        try:
            while not self._stopped:
                try:
                    step = steps.throw(error) if error is not None else steps.send(reply)
                except StopIteration:
                    return
                reply, error = None, None
                try:
                    if isinstance(step, Emit):
                        yield step.event
                    elif isinstance(step, Next):
                        reply = await anext(aiter(step.stream), END)
                    elif isinstance(step, OpenWatch):
                        reply = self._stream = await self._client.open_watch(**step.options)
                    elif isinstance(step, Close):
                        self._stream = None
                        try:
                            await step.stream.aclose()
                        except Exception as e:  # noqa: BLE001 - the watch is over either way
                            log.debug("closing a watch stream: %s", e)
                    elif isinstance(step, ListAll):
                        reply = await self._client.list(**step.options)
                    elif isinstance(step, Sleep):
                        await self._sleep(step.seconds)
                except Exception as e:  # noqa: BLE001 - thrown into the core, which judges it
                    error = e
        finally:
            steps.close()
            stream, self._stream = self._stream, None
            if stream is not None:
                await stream.aclose()
