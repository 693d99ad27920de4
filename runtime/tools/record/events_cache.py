"""client-go's tools/record/events_cache.go: the EventCorrelator, which keeps a controller's
events from flooding the apiserver.

Each event passes three stages, in client-go's order, and each stage keeps an LRU of 4096 keys:

- the **aggregator** groups events that differ only by message (same source, involved object,
  type, reason, reporting controller and instance). The group remembers its messages and when it
  last saw one; a gap of more than 600 s since that *last* event starts the group afresh, so a
  steady trickle keeps it alive. From the 10th distinct message on, the event becomes one
  "(combined from similar events): <message>" event, keyed by the group, and the group forgets
  one message so it never holds more than 9 — client-go forgets an arbitrary one (Go's map
  order); kgen forgets the oldest unless ``CorrelatorOptions.forget_local_key`` says otherwise.
- the **logger** de-duplicates: an event whose key (source, involved object *without* its
  resourceVersion, type, reason, message) was seen before becomes an update of that Event: its
  name, firstTimestamp and ``count + 1``, and a strategic merge patch of count, lastTimestamp
  and message. The count goes up even for events the spam filter then drops.
- the **spam filter** is a token bucket per source, involved object (again without its
  resourceVersion) and type: a burst of 25, then one event every 300 s (golang.org/x/time/rate
  arithmetic, with client-go's float32 rate).

The keys leave the resourceVersion out on purpose: an object that changes with every event is
still the same object, and must not get a fresh budget each time.

Times are integer nanoseconds since the epoch (``CorrelatorOptions.clock``), so the windows'
edges compare exactly as Go's ``time.Time`` do. Events are core/v1 ``Event`` dicts (wire JSON).
"""

from __future__ import annotations

import datetime as _dt
import math
import struct
import time
from collections import OrderedDict
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from kgen.runtime.apimachinery.types import format_time

Event = dict[str, Any]
"""An Event as a dict."""
Clock = Callable[[], int]
"""The time in nanoseconds."""
K = TypeVar("K")
"""The key type of the LRU cache."""
V = TypeVar("V")
"""The value type of the LRU cache."""

MAX_LRU_CACHE_ENTRIES = 4096
"""How many keys each cache of the correlator keeps (client-go's maxLruCacheEntries)."""
DEFAULT_AGGREGATE_MAX_EVENTS = 10
"""How many similar events in the interval start aggregation (client-go's defaultAggregateMaxEvents)."""
DEFAULT_AGGREGATE_INTERVAL_IN_SECONDS = 600
"""The aggregation interval in seconds (client-go's defaultAggregateIntervalInSeconds)."""
DEFAULT_SPAM_BURST = 25
"""The spam filter's burst per source and object (client-go's defaultSpamBurst)."""
DEFAULT_SPAM_QPS = 1.0 / 300.0
"""The spam filter's refill rate per source and object: one event per 5 minutes (client-go's
defaultSpamQPS)."""

_SECOND = 1_000_000_000
_MAX_DURATION = 2**63 - 1  # what Go's time.Time.Sub saturates at
_EPOCH_TIME = "1970-01-01T00:00:00Z"


def _str(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _source_and_object(event: Mapping[str, Any], *, field_path: bool) -> list[str]:
    source, ref = event.get("source") or {}, event.get("involvedObject") or {}
    parts = [_str(source.get("component")), _str(source.get("host")), _str(ref.get("kind")),
             _str(ref.get("namespace")), _str(ref.get("name"))]
    if field_path:
        parts.append(_str(ref.get("fieldPath")))
    return [*parts, _str(ref.get("uid")), _str(ref.get("apiVersion"))]


def get_event_key(event: Mapping[str, Any]) -> str:
    """The de-duplication key: source, involved object (with fieldPath), type, reason, message."""
    return "".join([*_source_and_object(event, field_path=True), _str(event.get("type")),
                    _str(event.get("reason")), _str(event.get("message"))])


def get_spam_key(event: Mapping[str, Any]) -> str:
    """The spam filter's key: source, involved object (without fieldPath), type."""
    return "".join([*_source_and_object(event, field_path=False), _str(event.get("type"))])


def event_aggregator_by_reason(event: Mapping[str, Any]) -> tuple[str, str]:
    """(aggregate key, local key): the group of similar events, and the message within it."""
    aggregate = "".join([*_source_and_object(event, field_path=False), _str(event.get("type")),
                         _str(event.get("reason")), _str(event.get("reportingComponent")),
                         _str(event.get("reportingInstance"))])
    return aggregate, _str(event.get("message"))


def event_aggregator_by_reason_message(event: Mapping[str, Any]) -> str:
    """The aggregate event's message: "(combined from similar events): " and the event's message."""
    return "(combined from similar events): " + _str(event.get("message"))


def forget_oldest(local_keys: Collection[str]) -> str:
    """The local key to forget when an aggregate record is full: the oldest."""
    return next(iter(local_keys))


def format_nanos(unix_nano: int) -> str:
    """A metav1.Time of ``unix_nano``: whole seconds, UTC."""
    seconds = unix_nano // _SECOND
    return format_time(_dt.datetime(1970, 1, 1, tzinfo=_dt.timezone.utc) + _dt.timedelta(seconds=seconds))


def _float32(value: float) -> float:
    return float(struct.unpack("f", struct.pack("f", value))[0])


@dataclass(frozen=True)
class CorrelatorOptions:
    """client-go's CorrelatorOptions, with its defaults filled in (no zero-means-default)."""

    lru_cache_size: int = MAX_LRU_CACHE_ENTRIES
    burst_size: int = DEFAULT_SPAM_BURST
    qps: float = DEFAULT_SPAM_QPS
    key_func: Callable[[Mapping[str, Any]], tuple[str, str]] = event_aggregator_by_reason
    message_func: Callable[[Mapping[str, Any]], str] = event_aggregator_by_reason_message
    max_events: int = DEFAULT_AGGREGATE_MAX_EVENTS
    max_interval_in_seconds: int = DEFAULT_AGGREGATE_INTERVAL_IN_SECONDS
    clock: Clock = time.time_ns
    spam_key_func: Callable[[Mapping[str, Any]], str] = get_spam_key
    forget_local_key: Callable[[Collection[str]], str] = forget_oldest
    """Which message a full aggregate group forgets (insertion-ordered; client-go: any)."""


class _LRU(Generic[K, V]):
    """k8s.io/utils/lru: ``get`` and ``add`` both make the key the most recent; 0 = unbounded."""

    def __init__(self, size: int) -> None:
        self._size = size
        self._entries: OrderedDict[K, V] = OrderedDict()

    def get(self, key: K) -> V | None:
        value = self._entries.get(key)
        if value is not None:
            self._entries.move_to_end(key)
        return value

    def add(self, key: K, value: V) -> None:
        self._entries[key] = value
        self._entries.move_to_end(key)
        if self._size and len(self._entries) > self._size:
            self._entries.popitem(last=False)

    def peek(self, key: K) -> V | None:
        """The value, leaving the order alone."""
        return self._entries.get(key)

    def __len__(self) -> int:
        return len(self._entries)


class _PassiveTokenBucket:
    """golang.org/x/time/rate's Limiter as client-go's passive token bucket uses it:
    ``AllowN(now, 1)``, float64 tokens, refilled by elapsed ``Duration.Seconds() * limit``."""

    def __init__(self, limit: float, burst: int) -> None:
        self._limit, self._burst = limit, burst
        self._tokens = float(burst)
        self._last: int | None = None  # Go's zero time: far enough back to fill the bucket

    def try_accept(self, now: int) -> bool:
        if math.isinf(self._limit):
            return True
        last = self._last
        elapsed = _MAX_DURATION if last is None else now - min(last, now)
        tokens = min(self._tokens + self._tokens_from_duration(elapsed), float(self._burst))
        tokens -= 1.0
        wait = self._duration_from_tokens(-tokens) if tokens < 0 else 0
        if 1 <= self._burst and wait <= 0:
            self._last, self._tokens = now, tokens
            return True
        return False

    def _tokens_from_duration(self, nanos: int) -> float:
        if self._limit <= 0:
            return 0.0
        return (float(nanos // _SECOND) + float(nanos % _SECOND) / 1e9) * self._limit

    def _duration_from_tokens(self, tokens: float) -> int | float:
        if self._limit <= 0:
            return math.inf
        nanos = (tokens / self._limit) * float(_SECOND)
        return math.inf if nanos > float(_MAX_DURATION) else int(nanos)


class EventSourceObjectSpamFilter:
    """client-go's EventSourceObjectSpamFilter: a token bucket per source and involved object drops
    events beyond its burst."""

    def __init__(self, options: CorrelatorOptions) -> None:
        self._cache: _LRU[str, _PassiveTokenBucket] = _LRU(options.lru_cache_size)
        self._limit, self._burst = _float32(options.qps), options.burst_size
        self._clock, self._key_func = options.clock, options.spam_key_func

    def filter(self, event: Mapping[str, Any]) -> bool:
        """True if ``event`` is over its source and object's budget and must be dropped."""
        key = self._key_func(event)
        bucket = self._cache.get(key) or _PassiveTokenBucket(self._limit, self._burst)
        skip = not bucket.try_accept(self._clock())
        self._cache.add(key, bucket)
        return skip


@dataclass
class _AggregateRecord:
    local_keys: dict[str, None] = field(default_factory=dict)  # an insertion-ordered set
    last_timestamp: int = 0


class EventAggregator:
    """client-go's EventAggregator: similar events (same source, object, type and reason) past
    ``max_events`` in the interval become one aggregate event."""

    def __init__(self, options: CorrelatorOptions) -> None:
        self._cache: _LRU[str, _AggregateRecord] = _LRU(options.lru_cache_size)
        self._key_func, self._message_func = options.key_func, options.message_func
        self._max_events = options.max_events
        self._max_interval = options.max_interval_in_seconds * _SECOND
        self._clock, self._forget = options.clock, options.forget_local_key

    def event_aggregate(self, new_event: Event) -> tuple[Event, str]:
        """The event to record (``new_event`` or a combined one) and its de-duplication key."""
        now = self._clock()
        event_key = get_event_key(new_event)
        aggregate_key, local_key = self._key_func(new_event)
        record = self._cache.get(aggregate_key)
        if record is None or now - record.last_timestamp > self._max_interval:
            record = _AggregateRecord()
        record.local_keys[local_key] = None
        record.last_timestamp = now
        self._cache.add(aggregate_key, record)
        if len(record.local_keys) < self._max_events:
            return new_event, event_key
        del record.local_keys[self._forget(record.local_keys)]
        metadata = new_event.get("metadata") or {}
        involved = new_event.get("involvedObject") or {}
        stamp = format_nanos(now)
        combined: Event = {
            "metadata": {"name": f"{_str(involved.get('name'))}.{now:x}", "namespace": _str(metadata.get("namespace"))},
            "count": 1,
            "firstTimestamp": stamp,
            "involvedObject": involved,
            "lastTimestamp": stamp,
            "message": self._message_func(new_event),
            "type": _str(new_event.get("type")),
            "reason": _str(new_event.get("reason")),
            "source": new_event.get("source") or {},
        }
        return combined, aggregate_key

    def local_keys(self, event: Mapping[str, Any]) -> list[str]:
        """The messages remembered for ``event``'s group (sorted; for tests and debugging)."""
        record = self._cache.peek(self._key_func(event)[0])
        return sorted(record.local_keys) if record is not None else []


@dataclass(frozen=True)
class _EventLog:
    count: int
    first_timestamp: Any
    name: str
    resource_version: str


class _EventLogger:
    def __init__(self, options: CorrelatorOptions) -> None:
        self._cache: _LRU[str, _EventLog] = _LRU(options.lru_cache_size)

    def event_observe(self, new_event: Event, key: str) -> tuple[Event, dict[str, Any] | None]:
        event = {**new_event, "metadata": dict(new_event.get("metadata") or {})}
        patch: dict[str, Any] | None = None
        last = self._cache.get(key)
        if last is not None and last.count > 0:
            event["metadata"]["name"] = last.name
            _set_resource_version(event, last.resource_version)
            event["firstTimestamp"] = last.first_timestamp
            event["count"] = last.count + 1
            patch = _two_way_patch(event)
        self._remember(key, event)
        return event, patch

    def update_state(self, event: Event) -> None:
        self._remember(get_event_key(event), event)

    def _remember(self, key: str, event: Event) -> None:
        metadata = event.get("metadata") or {}
        self._cache.add(key, _EventLog(int(event.get("count") or 0), event.get("firstTimestamp"),
                                       _str(metadata.get("name")), _str(metadata.get("resourceVersion"))))


def _set_resource_version(event: Event, resource_version: str) -> None:
    if resource_version:
        event["metadata"]["resourceVersion"] = resource_version
    else:
        event["metadata"].pop("resourceVersion", None)


def _two_way_patch(event: Mapping[str, Any]) -> dict[str, Any]:
    """client-go's patch from the event with count 0, lastTimestamp at the epoch and no message
    to ``event``: exactly the fields that differ (Go's ``omitempty`` drops 0 and "")."""
    patch: dict[str, Any] = {}
    if event.get("count"):
        patch["count"] = event["count"]
    if event.get("lastTimestamp") != _EPOCH_TIME:
        patch["lastTimestamp"] = event.get("lastTimestamp")
    if event.get("message"):
        patch["message"] = event["message"]
    return patch


@dataclass(frozen=True)
class EventCorrelateResult:
    """What the correlator makes of an event: the event to write (with ``patch`` when it repeats an
    earlier one), or ``skip``."""

    event: Event | None = None
    patch: dict[str, Any] | None = None
    """The strategic merge patch that updates the earlier Event (when ``event["count"] > 1``)."""
    skip: bool = False


class EventCorrelator:
    """Filters, aggregates, counts and de-duplicates events before they are written."""

    def __init__(self, options: CorrelatorOptions | None = None) -> None:
        self.options = options or CorrelatorOptions()
        self._spam_filter = EventSourceObjectSpamFilter(self.options)
        self.aggregator = EventAggregator(self.options)
        self._logger = _EventLogger(self.options)

    def event_correlate(self, new_event: Event) -> EventCorrelateResult:
        """Aggregate, count and spam-filter ``new_event``: what to write."""
        aggregate_event, key = self.aggregator.event_aggregate(new_event)
        observed, patch = self._logger.event_observe(aggregate_event, key)
        if self._spam_filter.filter(observed):
            return EventCorrelateResult(skip=True)
        return EventCorrelateResult(observed, patch)

    def update_state(self, event: Event) -> None:
        """Remembers the server's copy of a written event (its name, resourceVersion, count)."""
        self._logger.update_state(event)
