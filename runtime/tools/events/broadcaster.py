"""client-go's tools/events (event_broadcaster.go, recorder.go): ``events.k8s.io/v1`` Events,
repeats folded into series.

    broadcaster = EventBroadcaster(rest)                 # NewBroadcaster + StartRecordingToSink
    recorder = broadcaster.new_recorder("foo-controller")
    recorder.eventf(foo, None, "Normal", "Synced", "Sync", "Foo %s synced", name)
    broadcaster.shutdown()                               # writes what is queued, then stops

``AsyncEventBroadcaster`` is the same on asyncio. ``eventf(regarding, related, type, reason,
action, note, *args)`` never blocks: it makes the Event (``core.make_event``) and queues it (1000
at most; when full the Event is dropped and logged). One worker takes them in order; the
``SeriesCache`` decides what each one writes (the first of a kind, the series it starts, or
nothing but a count), and ``record_steps`` writes it. The same worker finishes quiet series
every 6 minutes and writes the running ones every 30, as client-go's two timers do. The
reporting instance is ``<controller>-<hostname>``, as ``NewRecorder`` makes it. ``type`` must be
``Normal`` or ``Warning`` (a ``ValueError`` otherwise, where client-go logs and drops it).
"""

from __future__ import annotations

import asyncio
import queue
import socket
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

from kgen.runtime.gentype.resource import ResourceInfo
from kgen.runtime.rest.client import AsyncRESTClient, RESTClient
from kgen.runtime.tools.events.core import (FINISH_TIME, REFRESH_TIME, Event, SeriesCache, Steps, describe, log,
                                            make_event, record_steps)
from kgen.runtime.tools.record.event import (DEFAULT_SLEEP_DURATION, MAX_QUEUED_EVENTS, ObjectRef, adrive, aperform,
                                             drive, perform, stop_async_worker)
from kgen.runtime.tools.record.util import validate_event_type

__all__ = ["AsyncEventBroadcaster", "EventBroadcaster", "EventRecorder", "EVENTS"]

EVENTS = ResourceInfo("events.k8s.io", "v1", "events", True, "Event")
"""The events.k8s.io/v1 events resource."""
_TICK = object()


class EventRecorder:
    """recorder.go's recorder: makes Events as one reporting controller and queues them."""

    def __init__(self, offer: Callable[[Event, int], None], controller: str, instance: str,
                 clock: Callable[[], int]) -> None:
        self.reporting_controller, self.reporting_instance = controller, instance
        self._offer, self._clock = offer, clock

    def eventf(self, regarding: Any, related: Any, type_: str, reason: str, action: str, note: str,
               *args: Any) -> None:
        """An Event about ``regarding`` (a model, a dict or an ``ObjectRef``), ``related`` to
        another object or None; ``note`` formatted with ``args`` as ``%``. Never blocks."""
        if not validate_event_type(type_):
            raise ValueError(f"event type must be Normal or Warning, not {type_!r}")
        now = self._clock()
        event = make_event(ObjectRef.of(regarding).to_dict(),
                           None if related is None else ObjectRef.of(related).to_dict(), type_, reason, action,
                           note % args if args else note, controller=self.reporting_controller,
                           instance=self.reporting_instance, now=now)
        self._offer(event, now)


class _Broadcast:
    """What both flavours share: the cache, the timers, and the writes each arrival brings."""

    def __init__(self, sleep_duration: float, clock: Callable[[], int]) -> None:
        self.cache = SeriesCache()
        self.sleep_duration, self.clock = sleep_duration, clock
        now = clock()
        self.next_finish, self.next_refresh = now + FINISH_TIME, now + REFRESH_TIME

    def seconds_to_next_timer(self) -> float:
        return max(0.0, (min(self.next_finish, self.next_refresh) - self.clock()) / 1e9)

    def writes(self, arrived: Any) -> Iterator[Steps]:
        """The writes for an Event that arrived, ``(event, when it was made)``, or for a timer's
        tick, in order. A repeat counts as observed when it was made, not when the worker got to it."""
        now = self.clock()
        if arrived is not _TICK:
            event, made = arrived
            to_write = self.cache.observe(event, made)
            if to_write is not None:
                yield record_steps(to_write, self.sleep_duration)
        if now >= self.next_finish:
            self.next_finish = now + FINISH_TIME
            yield from (record_steps(e, self.sleep_duration, retry=False) for e in self.cache.finish(now))
        if now >= self.next_refresh:
            self.next_refresh = now + REFRESH_TIME
            yield from (record_steps(e, self.sleep_duration, retry=False) for e in self.cache.series_to_refresh())


class _Recorders:
    """The recorders' side, the same in both flavours."""

    _core: _Broadcast

    def new_recorder(self, reporting_controller: str, reporting_instance: str | None = None) -> EventRecorder:
        """A recorder reporting as ``reporting_controller`` (instance: ``<controller>-<hostname>``,
        as client-go's ``NewRecorder`` names it)."""
        instance = reporting_instance if reporting_instance is not None else f"{reporting_controller}-{socket.gethostname()}"
        return EventRecorder(self._offer, reporting_controller, instance, self._core.clock)

    def _offer(self, event: Event, made: int) -> None:
        raise NotImplementedError


class EventBroadcaster(_Recorders):
    """Writes the Events of its recorders from a background thread (client-go's
    ``NewBroadcaster`` started with ``StartRecordingToSink``)."""

    def __init__(self, rest: RESTClient, *, sleep_duration: float = DEFAULT_SLEEP_DURATION,
                 clock: Callable[[], int] = time.time_ns) -> None:
        self._rest = rest
        self._core = _Broadcast(sleep_duration, clock)
        self._queue: queue.Queue[Any] = queue.Queue(MAX_QUEUED_EVENTS)
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True, name="events-broadcaster")
        self._thread.start()

    def shutdown(self, timeout: float = 30.0) -> None:
        """Writes what is queued (each Event tried once), then stops."""
        self._stopping.set()
        self._queue.put(None)
        self._thread.join(timeout)

    def _offer(self, event: Event, made: int) -> None:
        try:
            self._queue.put_nowait((event, made))
        except queue.Full:
            log.error("Unable to record event: too many queued events, dropped event %s", describe(event))

    def _run(self) -> None:
        while True:
            try:
                arrived = self._queue.get(timeout=self._core.seconds_to_next_timer())
            except queue.Empty:
                arrived = _TICK
            if arrived is None:
                return
            for steps in self._core.writes(arrived):
                self._drive(steps)

    def _drive(self, steps: Steps) -> None:
        written = drive(steps, lambda step: perform(self._rest, EVENTS, step, self._stopping))
        if written is not None:
            self._core.cache.recorded(written)


class AsyncEventBroadcaster(_Recorders):
    """``EventBroadcaster`` on asyncio: made inside a running loop, writes from a task there;
    its recorders' ``eventf`` must be called on that loop."""

    def __init__(self, rest: AsyncRESTClient, *, sleep_duration: float = DEFAULT_SLEEP_DURATION,
                 clock: Callable[[], int] = time.time_ns) -> None:
        self._rest = rest
        self._core = _Broadcast(sleep_duration, clock)
        self._queue: asyncio.Queue[Any] = asyncio.Queue(MAX_QUEUED_EVENTS)
        self._stopping = asyncio.Event()
        self._task = asyncio.get_running_loop().create_task(self._run(), name="events-broadcaster")

    async def shutdown(self, timeout: float = 30.0) -> None:
        """Writes what is queued (each Event tried once), then stops."""
        await stop_async_worker(self._stopping, self._queue, self._task, timeout)

    def _offer(self, event: Event, made: int) -> None:
        try:
            self._queue.put_nowait((event, made))
        except asyncio.QueueFull:
            log.error("Unable to record event: too many queued events, dropped event %s", describe(event))

    async def _run(self) -> None:
        while True:
            try:
                arrived = await asyncio.wait_for(self._queue.get(), self._core.seconds_to_next_timer())
            except asyncio.TimeoutError:
                arrived = _TICK
            if arrived is None:
                return
            for steps in self._core.writes(arrived):
                await self._drive(steps)

    async def _drive(self, steps: Steps) -> None:
        written = await adrive(steps, lambda step: aperform(self._rest, EVENTS, step, self._stopping))
        if written is not None:
            self._core.cache.recorded(written)
