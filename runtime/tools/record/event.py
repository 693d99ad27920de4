"""Event recording (client-go tools/record): Events about objects, without flooding the server.

    recorder = EventRecorder(rest, component="my-controller")
    recorder.event(foo, "Normal", "Synced", "Foo synced successfully")
    recorder.shutdown()   # waits for queued events to be written

Events are written by a background thread from a bounded queue (1000; when full, new events
are dropped rather than blocking the controller). client-go's correlator rules apply: an event
identical to a recent one is not created again — its ``count`` and ``lastTimestamp`` are
patched; more than 10 similar events (same object, type and reason, different messages) within
10 minutes collapse into one "(combined from similar events): ..." event; and a token bucket
per object (burst 25, one more every 5 minutes) drops the rest. Writes are retried up to 12
times, 10 s apart.
"""

from __future__ import annotations

import datetime as _dt
import logging
import queue
import random
import string
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from kgen.runtime.apimachinery.errors import ApiError, NotFound
from kgen.runtime.apimachinery.meta import namespace_and_name, resource_version_of, type_meta, uid_of
from kgen.runtime.gentype.client import ResourceClient
from kgen.runtime.gentype.resource import DictCodec, PatchType, ResourceInfo
from kgen.runtime.rest.client import RESTClient
from kgen.runtime.apimachinery.types import format_time

log = logging.getLogger("kgen.runtime.tools.record.event")

EVENTS = ResourceInfo("", "v1", "events", True, "Event")
MAX_QUEUED_EVENTS = 1000
MAX_TRIES = 12
RETRY_SLEEP = 10.0
AGGREGATE_MAX_EVENTS = 10
AGGREGATE_WINDOW = 600.0
SPAM_BURST = 25
SPAM_REFILL_SECONDS = 300.0
LRU_SIZE = 4096


@dataclass(frozen=True)
class ObjectRef:
    api_version: str
    kind: str
    namespace: str
    name: str
    uid: str
    resource_version: str

    @classmethod
    def of(cls, obj: Any) -> "ObjectRef":
        api_version, kind = type_meta(obj)
        namespace, name = namespace_and_name(obj)
        return cls(api_version, kind, namespace, name, uid_of(obj), resource_version_of(obj))

    def to_dict(self) -> dict[str, str]:
        out = {"apiVersion": self.api_version, "kind": self.kind, "name": self.name, "uid": self.uid,
               "resourceVersion": self.resource_version}
        if self.namespace:
            out["namespace"] = self.namespace
        return out


@dataclass
class _Seen:
    name: str  # the Event object's name on the server
    count: int
    first: str


class EventCorrelator:
    """client-go's EventCorrelator: de-duplication, aggregation and the per-object spam filter."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._seen: OrderedDict[tuple[Any, ...], _Seen] = OrderedDict()
        self._similar: OrderedDict[tuple[Any, ...], tuple[float, set[str]]] = OrderedDict()
        self._buckets: OrderedDict[tuple[Any, ...], tuple[float, float]] = OrderedDict()

    @staticmethod
    def _bounded(cache: OrderedDict[Any, Any], key: Any) -> None:
        cache.move_to_end(key)
        while len(cache) > LRU_SIZE:
            cache.popitem(last=False)

    def allow(self, ref: ObjectRef, source: str) -> bool:
        """The spam filter: a token bucket per source and object."""
        key = (source, ref)
        now = self._clock()
        tokens, last = self._buckets.get(key, (float(SPAM_BURST), now))
        tokens = min(SPAM_BURST, tokens + (now - last) / SPAM_REFILL_SECONDS)
        allowed = tokens >= 1.0
        self._buckets[key] = (tokens - 1.0 if allowed else tokens, now)
        self._bounded(self._buckets, key)
        return allowed

    def aggregate(self, ref: ObjectRef, source: str, type_: str, reason: str, message: str) -> tuple[str, bool]:
        """The message to record, and whether it is the combined event (past 10 similar ones)."""
        key = (source, ref, type_, reason)
        now = self._clock()
        started, messages = self._similar.get(key, (now, set()))
        if now - started > AGGREGATE_WINDOW:
            started, messages = now, set()
        messages.add(message)
        self._similar[key] = (started, messages)
        self._bounded(self._similar, key)
        if len(messages) > AGGREGATE_MAX_EVENTS:
            return f"(combined from similar events): {message}", True
        return message, False

    def seen(self, key: tuple[Any, ...]) -> _Seen | None:
        return self._seen.get(key)

    def remember(self, key: tuple[Any, ...], seen: _Seen) -> None:
        self._seen[key] = seen
        self._bounded(self._seen, key)


class EventRecorder:
    def __init__(
        self,
        rest: RESTClient,
        component: str,
        host: str = "",
        *,
        correlator: EventCorrelator | None = None,
        retry_sleep: float = RETRY_SLEEP,
    ) -> None:
        self._rest = rest
        self.component = component
        self.host = host
        self._correlator = correlator or EventCorrelator()
        self._retry_sleep = retry_sleep
        self._queue: queue.Queue[tuple[ObjectRef, str, str, str] | None] = queue.Queue(MAX_QUEUED_EVENTS)
        self._thread = threading.Thread(target=self._run, daemon=True, name=f"events-{component}")
        self._thread.start()

    def event(self, obj: Any, type_: str, reason: str, message: str) -> None:
        """Records an event about ``obj`` (type "Normal" or "Warning"); never blocks."""
        if type_ not in ("Normal", "Warning"):
            raise ValueError(f"event type must be Normal or Warning, not {type_!r}")
        try:
            self._queue.put_nowait((ObjectRef.of(obj), type_, reason, message))
        except queue.Full:
            log.warning("event queue full: dropping %s event %s on %s", type_, reason, ObjectRef.of(obj).name)

    def eventf(self, obj: Any, type_: str, reason: str, fmt: str, *args: Any) -> None:
        self.event(obj, type_, reason, fmt % args if args else fmt)

    def shutdown(self, timeout: float = 30.0) -> None:
        """Writes what is queued, then stops."""
        self._queue.put(None)
        self._thread.join(timeout)

    def _run(self) -> None:
        while True:
            item = self._queue.get()
            if item is None:
                return
            ref, type_, reason, message = item
            for attempt in range(MAX_TRIES):
                try:
                    self._write(ref, type_, reason, message)
                    break
                except ApiError as e:
                    if e.code < 500 and e.code != 429:
                        log.warning("event %s on %s rejected: %s", reason, ref.name, e)
                        break
                except Exception as e:  # noqa: BLE001 - the connection: try again later
                    log.debug("writing event %s: %s", reason, e)
                if attempt < MAX_TRIES - 1:
                    time.sleep(self._retry_sleep)

    def _write(self, ref: ObjectRef, type_: str, reason: str, message: str) -> None:
        source = f"{self.component}/{self.host}"
        if not self._correlator.allow(ref, source):
            log.debug("event %s on %s dropped by the spam filter", reason, ref.name)
            return
        message, combined = self._correlator.aggregate(ref, source, type_, reason, message)
        namespace = ref.namespace or "default"
        events = ResourceClient(self._rest, EVENTS, namespace, DictCodec(EVENTS.api_version, EVENTS.kind))
        now = format_time(_dt.datetime.now(_dt.timezone.utc))
        # The combined event is one record whatever the latest message: it is keyed without it.
        key = (source, ref, type_, reason, None if combined else message)
        seen = self._correlator.seen(key)
        if seen is not None:
            patch: dict[str, Any] = {"count": seen.count + 1, "lastTimestamp": now}
            if combined:
                patch["message"] = message
            try:
                events.patch(seen.name, patch, PatchType.MERGE)
                seen.count += 1
                return
            except NotFound:
                pass  # the event expired on the server: create it again
        suffix = "".join(random.choices(string.ascii_lowercase + string.digits, k=10))
        created = events.create(
            {
                "metadata": {"name": f"{ref.name}.{suffix}", "namespace": namespace},
                "involvedObject": ref.to_dict(),
                "reason": reason,
                "message": message,
                "type": type_,
                "source": {"component": self.component, **({"host": self.host} if self.host else {})},
                "firstTimestamp": now,
                "lastTimestamp": now,
                "count": 1,
                "reportingComponent": self.component,
                "reportingInstance": self.host,
            }
        )
        self._correlator.remember(key, _Seen(created["metadata"]["name"], 1, now))
