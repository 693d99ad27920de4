"""Event recording (client-go tools/record/event.go): Events about objects, without flooding the
server.

    recorder = EventRecorder(rest, component="my-controller")
    recorder.event(foo, "Normal", "Synced", "Foo synced successfully")
    recorder.shutdown()   # writes what is queued, then stops

``AsyncEventRecorder`` is the same on asyncio (``await recorder.shutdown()``).

``event()`` never blocks: it stamps the event (name ``<object>.<nanoseconds in hex>``, first and
last timestamp, count 1, source and reporting controller) and queues it (1000 at most; when full,
the event is dropped and logged, as client-go's broadcaster does). One worker takes the events in
order and, for each, runs ``record_to_sink``, client-go's recordToSink:

- the event passes the ``EventCorrelator`` (events_cache.py) **once**: it may be dropped by the
  spam filter, combined with similar ones, or turned into an update of an earlier Event;
- then the write: a strategic merge patch of count, lastTimestamp and message when the count is
  over 1 (a create if that Event is gone), else a create. A success tells the correlator the
  server's copy. An error answer from the server abandons the event (client-go: "will not
  retry"; the REST client has already retried 429s and 5xx with Retry-After); a connection error
  is retried, up to 12 tries, 10 s apart, the first wait a random part of that. Retries never
  correlate again, so they spend no spam-filter tokens and count nothing twice.

After ``shutdown()`` starts, the queued events are still written, each tried once.

The decisions are made once, in ``record_to_sink`` (a generator of steps: patch, create, sleep);
``EventRecorder`` and ``AsyncEventRecorder`` only perform the steps, on a thread or a task.
"""

from __future__ import annotations

import asyncio
import logging
import queue
import random
import threading
from collections.abc import Awaitable, Callable, Generator, Mapping
from dataclasses import dataclass
from typing import Any

import httpx

from kgen.runtime.apimachinery.errors import ApiError
from kgen.runtime.apimachinery.meta import namespace_and_name, resource_version_of, type_meta, uid_of
from kgen.runtime.gentype.client import AsyncResourceClient, ResourceClient
from kgen.runtime.gentype.resource import DictCodec, PatchType, ResourceInfo
from kgen.runtime.rest.client import AsyncRESTClient, RESTClient
from kgen.runtime.tools.record.events_cache import (
    CorrelatorOptions,
    Event,
    EventCorrelateResult,
    EventCorrelator,
    format_nanos,
)
from kgen.runtime.tools.record.util import generate_event_name, is_key_not_found_error, validate_event_type

log = logging.getLogger("kgen.runtime.tools.record.event")
"""The logger of events dropped or failing to be written."""

EVENTS = ResourceInfo("", "v1", "events", True, "Event")
"""The core/v1 events resource."""
MAX_QUEUED_EVENTS = 1000
"""How many events a recorder queues before dropping new ones (client-go's maxQueuedEvents)."""
MAX_TRIES_PER_EVENT = 12
"""How many times an event's write is tried (client-go's maxTriesPerEvent)."""
DEFAULT_SLEEP_DURATION = 10.0
"""Seconds between tries of an event's write (client-go's defaultSleepDuration)."""
NAMESPACE_DEFAULT = "default"
"""The namespace of events about cluster-scoped objects."""
NAMESPACE_TERMINATING_CAUSE = "NamespaceTerminating"
"""The cause of a Forbidden answer for a terminating namespace: the event is dropped, not retried."""


@dataclass(frozen=True)
class ObjectRef:
    """The involved object (core/v1 ObjectReference); ``of()`` makes one from any object."""

    api_version: str
    kind: str
    namespace: str
    name: str
    uid: str
    resource_version: str
    field_path: str = ""

    @classmethod
    def of(cls, obj: Any) -> "ObjectRef":
        """The reference of ``obj`` (``obj`` itself if it is one)."""
        if isinstance(obj, ObjectRef):
            return obj
        api_version, kind = type_meta(obj)
        namespace, name = namespace_and_name(obj)
        return cls(api_version, kind, namespace, name, uid_of(obj), resource_version_of(obj))

    def to_dict(self) -> dict[str, str]:
        """The reference as core/v1 ObjectReference fields, empty ones left out."""
        fields = {"kind": self.kind, "namespace": self.namespace, "name": self.name, "uid": self.uid,
                  "apiVersion": self.api_version, "resourceVersion": self.resource_version,
                  "fieldPath": self.field_path}
        return {key: value for key, value in fields.items() if value}  # Go's omitempty


def make_event(
    ref: ObjectRef,
    annotations: Mapping[str, str] | None,
    type_: str,
    reason: str,
    message: str,
    *,
    component: str,
    host: str,
    now: int,
) -> Event:
    """client-go's makeEvent with the recorder's source: a new Event about ``ref`` at ``now``
    (nanoseconds since the epoch), in the object's namespace (or "default")."""
    stamp = format_nanos(now)
    metadata: dict[str, Any] = {"name": generate_event_name(ref.name, now),
                                "namespace": ref.namespace or NAMESPACE_DEFAULT}
    if annotations:
        metadata["annotations"] = dict(annotations)
    source = {key: value for key, value in (("component", component), ("host", host)) if value}
    return {
        "metadata": metadata,
        "involvedObject": ref.to_dict(),
        "reason": reason,
        "message": message,
        "firstTimestamp": stamp,
        "lastTimestamp": stamp,
        "count": 1,
        "type": type_,
        "source": source,
        "reportingComponent": component,
        "reportingInstance": host,
    }


# -- the shared core: one event's way to the server -----------------------------------------------


@dataclass(frozen=True)
class PatchEvent:
    """Step: patch the earlier Event (a repeat) with ``patch``."""

    event: Event
    patch: dict[str, Any]


@dataclass(frozen=True)
class CreateEvent:
    """Step: create the Event."""

    event: Event


@dataclass(frozen=True)
class Sleep:
    """Wait before the next try; the driver answers True if the recorder is shutting down."""

    seconds: float


Step = PatchEvent | CreateEvent | Sleep
"""One thing an event's write asks its driver to do."""
RecordSteps = Generator[Step, Any, None]
"""A write step is answered with the server's Event or the exception the write raised."""


def record_to_sink(
    event: Event,
    correlator: EventCorrelator,
    sleep_duration: float = DEFAULT_SLEEP_DURATION,
    rand: Callable[[], float] = random.random,
) -> RecordSteps:
    """client-go's recordToSink: correlate once, then try to write up to 12 times."""
    result = correlator.event_correlate(event)
    if result.skip:
        return
    yield from write_with_retries(lambda: _record_event(result, correlator), _describe(event), sleep_duration, rand)


def write_with_retries(
    attempt: Callable[[], Generator[Step, Any, tuple[bool, Any]]],
    what: str,
    sleep_duration: float = DEFAULT_SLEEP_DURATION,
    rand: Callable[[], float] = random.random,
) -> Generator[Step, Any, Any]:
    """Runs ``attempt`` (one write: ``(done, result)``, done when written or abandoned) until
    done, up to ``MAX_TRIES_PER_EVENT`` times, ``sleep_duration`` apart (the first wait a random
    part of it, so that clients do not all retry together when the apiserver comes back), and
    returns its result (None when it gave up). client-go's retry loop, in tools/record and
    tools/events alike."""
    tries = 0
    while True:
        done, result = yield from attempt()
        if done:
            return result
        tries += 1
        if tries >= MAX_TRIES_PER_EVENT:
            log.error("Unable to write event %s (retry limit exceeded!)", what)
            return None
        delay = sleep_duration * rand() if tries == 1 else sleep_duration
        if (yield Sleep(delay)):
            log.error("Unable to write event %s (the recorder is shut down)", what)
            return None


def _record_event(result: EventCorrelateResult, correlator: EventCorrelator) -> Generator[Step, Any, tuple[bool, Any]]:
    """client-go's recordEvent: (True, _) when the event is written or abandoned, (False, _) to retry."""
    event = result.event
    assert event is not None
    update = int(event.get("count") or 0) > 1
    outcome: Any = None
    if update:
        outcome = yield PatchEvent(event, result.patch or {})
    # The update fails if the Event has expired on the server meanwhile: create it again.
    if not update or is_key_not_found_error(outcome):
        event["metadata"].pop("resourceVersion", None)
        outcome = yield CreateEvent(event)
    written = settled(outcome, _describe(event))
    if written and not isinstance(outcome, BaseException):
        correlator.update_state(outcome)
    return written, None


def settled(outcome: Any, what: str) -> bool:
    """Whether a write's ``outcome`` (the server's Event, or what the write raised) ends it:
    written, or abandoned on an error answer or a request that cannot be made (logged); False
    for a connection error, to retry (client-go's recordEvent, tools/record and tools/events)."""
    if not isinstance(outcome, BaseException):
        return True
    if isinstance(outcome, ApiError):
        quiet = outcome.code == 409 and outcome.reason == "AlreadyExists" or any(
            cause.reason == NAMESPACE_TERMINATING_CAUSE for cause in outcome.causes)
        log.log(logging.DEBUG if quiet else logging.ERROR, "Server rejected event %s (will not retry!): %s", what, outcome)
        return True
    if not isinstance(outcome, (httpx.TransportError, OSError)):
        # client-go's RequestConstructionError: the same request would fail again.
        log.error("Unable to construct event %s (will not retry!): %r", what, outcome)
        return True
    log.error("Unable to write event %s (may retry after sleeping): %s", what, outcome)
    return False


def _describe(event: Mapping[str, Any]) -> str:
    ref = event.get("involvedObject") or {}
    return f"{event.get('type')} {event.get('reason')} about {ref.get('kind')} {ref.get('namespace')}/{ref.get('name')}"


# -- the drivers ------------------------------------------------------------------------------------


class _Recorder:
    """What both flavours share: stamping events and queueing them without blocking."""

    def __init__(self, component: str, host: str, options: CorrelatorOptions | None, sleep_duration: float) -> None:
        self.component, self.host = component, host
        self._correlator = EventCorrelator(options)
        self._clock = self._correlator.options.clock
        self._sleep_duration = sleep_duration

    def event(self, obj: Any, type_: str, reason: str, message: str) -> None:
        """Records an event about ``obj`` (a model, a dict or an ``ObjectRef``); type "Normal"
        or "Warning". Never blocks."""
        self._generate_event(obj, None, type_, reason, message)

    def eventf(self, obj: Any, type_: str, reason: str, fmt: str, *args: Any) -> None:
        self.event(obj, type_, reason, fmt % args if args else fmt)

    def annotated_eventf(self, obj: Any, annotations: Mapping[str, str], type_: str, reason: str,
                         fmt: str, *args: Any) -> None:
        self._generate_event(obj, annotations, type_, reason, fmt % args if args else fmt)

    def _generate_event(self, obj: Any, annotations: Mapping[str, str] | None, type_: str, reason: str,
                        message: str) -> None:
        if not validate_event_type(type_):
            raise ValueError(f"event type must be Normal or Warning, not {type_!r}")
        event = make_event(ObjectRef.of(obj), annotations, type_, reason, message,
                           component=self.component, host=self.host, now=self._clock())
        if not self._offer(event):
            log.error("Unable to record event: too many queued events, dropped event %s", _describe(event))

    def _offer(self, event: Event) -> bool:
        raise NotImplementedError

    def _steps(self, event: Event) -> RecordSteps:
        return record_to_sink(event, self._correlator, self._sleep_duration)


class EventRecorder(_Recorder):
    """Records events about objects into the apiserver, from a background thread."""

    def __init__(
        self,
        rest: RESTClient,
        component: str,
        host: str = "",
        *,
        options: CorrelatorOptions | None = None,
        sleep_duration: float = DEFAULT_SLEEP_DURATION,
    ) -> None:
        super().__init__(component, host, options, sleep_duration)
        self._rest = rest
        self._queue: queue.Queue[Event | None] = queue.Queue(MAX_QUEUED_EVENTS)
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True, name=f"events-{component}")
        self._thread.start()

    def shutdown(self, timeout: float = 30.0) -> None:
        """Writes what is queued (each event tried once), then stops."""
        self._stopping.set()
        self._queue.put(None)
        self._thread.join(timeout)

    def _offer(self, event: Event) -> bool:
        try:
            self._queue.put_nowait(event)
            return True
        except queue.Full:
            return False

    def _run(self) -> None:
        while (event := self._queue.get()) is not None:
            drive(self._steps(event), lambda step: perform(self._rest, EVENTS, step, self._stopping))


class AsyncEventRecorder(_Recorder):
    """``EventRecorder`` on asyncio: made inside a running loop, writes from a task there.
    ``event()`` must be called on that loop."""

    def __init__(
        self,
        rest: AsyncRESTClient,
        component: str,
        host: str = "",
        *,
        options: CorrelatorOptions | None = None,
        sleep_duration: float = DEFAULT_SLEEP_DURATION,
    ) -> None:
        super().__init__(component, host, options, sleep_duration)
        self._rest = rest
        self._queue: asyncio.Queue[Event | None] = asyncio.Queue(MAX_QUEUED_EVENTS)
        self._stopping = asyncio.Event()
        self._task = asyncio.get_running_loop().create_task(self._run(), name=f"events-{component}")

    async def shutdown(self, timeout: float = 30.0) -> None:
        """Writes what is queued (each event tried once), then stops."""
        await stop_async_worker(self._stopping, self._queue, self._task, timeout)

    def _offer(self, event: Event) -> bool:
        try:
            self._queue.put_nowait(event)
            return True
        except asyncio.QueueFull:
            return False

    async def _run(self) -> None:
        while (event := await self._queue.get()) is not None:
            await adrive(self._steps(event), lambda step: aperform(self._rest, EVENTS, step, self._stopping))


# -- performing the steps, for both recorders (and tools/events) ----------------------------------


def drive(steps: Generator[Step, Any, Any], perform: Callable[[Step], Any]) -> Any:
    """Runs an event's steps, each answered by ``perform``; returns what the steps return."""
    try:
        step = next(steps)
        while True:
            step = steps.send(perform(step))
    except StopIteration as done:
        return done.value
    except Exception:  # noqa: BLE001 - one bad event must not stop the recorder
        log.exception("recording an event")
    return None


async def adrive(steps: Generator[Step, Any, Any], perform: Callable[[Step], Awaitable[Any]]) -> Any:
    """``drive`` on asyncio."""
    try:
        step = next(steps)
        while True:
            step = steps.send(await perform(step))
    except StopIteration as done:
        return done.value
    except Exception:  # noqa: BLE001 - one bad event must not stop the recorder
        log.exception("recording an event")
    return None


async def stop_async_worker(stopping: asyncio.Event, queue: asyncio.Queue[Any], task: asyncio.Task[None],
                            timeout: float) -> None:
    """Ends an asyncio worker: ``stopping`` set, the end marker (None) queued after what is
    waiting, then ``task`` awaited at most ``timeout`` seconds (after that its writes go on in
    the background, as a thread's ``join(timeout)`` leaves them)."""
    stopping.set()
    await queue.put(None)
    try:
        await asyncio.wait_for(asyncio.shield(task), timeout)
    except asyncio.TimeoutError:
        pass


def perform(rest: RESTClient, info: ResourceInfo, step: Step, stopping: threading.Event) -> Any:
    """One step against ``info``'s events: a sleep (True if ``stopping`` was set meanwhile), or
    the write's answer, or what it raised."""
    if isinstance(step, Sleep):
        return stopping.wait(step.seconds)
    metadata = step.event["metadata"]
    events = ResourceClient(rest, info, metadata["namespace"], DictCodec(info.api_version, info.kind))
    try:
        if isinstance(step, PatchEvent):
            return events.patch(metadata["name"], step.patch, PatchType.STRATEGIC)
        return events.create(step.event)
    except Exception as e:  # noqa: BLE001 - the core decides: abandon or retry
        return e


async def aperform(rest: AsyncRESTClient, info: ResourceInfo, step: Step, stopping: asyncio.Event) -> Any:
    """``perform`` on asyncio."""
    if isinstance(step, Sleep):
        try:
            await asyncio.wait_for(stopping.wait(), step.seconds)
        except asyncio.TimeoutError:
            pass
        return stopping.is_set()
    metadata = step.event["metadata"]
    events = AsyncResourceClient(rest, info, metadata["namespace"], DictCodec(info.api_version, info.kind))
    try:
        if isinstance(step, PatchEvent):
            return await events.patch(metadata["name"], step.patch, PatchType.STRATEGIC)
        return await events.create(step.event)
    except Exception as e:  # noqa: BLE001 - the core decides: abandon or retry
        return e
