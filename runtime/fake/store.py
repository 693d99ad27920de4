"""The fake apiserver's storage, standing in for etcd: objects, the resourceVersion, history.

The apiserver's resourceVersion is etcd's revision: one counter for the whole cluster, bumped by
every write, so an object's version orders it against every other write. Watches and
consistent paged lists are answered from the revisions in between, until etcd compacts them
away (then 410 Expired). ``Store`` keeps the same: one global counter, every write recorded as
an ``Event`` in a bounded history, a list at an older version rebuilt by undoing later events.
Every write goes through ``Store.commit``, which also wakes the watches waiting for it, in
threads (a condition) or on event loops (``call_soon_threadsafe``).

The versions of a multi-version custom resource share one storage, as on the apiserver: each
version's ``ResourceInfo`` maps to the storage version's (``storage``, set by
``kgen.runtime.fake.schema.versions.link``), whose objects, events and extras they are; what is
stored is in the storage version, and the handlers read and write it in the request's version.
"""

from __future__ import annotations

import asyncio
import collections
import secrets
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

import msgspec

from kgen.runtime.fake.errors import already_exists, expired, not_found
from kgen.runtime.gentype.resource import ResourceInfo

Obj = dict[str, Any]
"""A stored object: JSON as a dict."""
Key = tuple[str, str]
"""An object's key: (namespace, name); namespace is "" for cluster-scoped objects."""

ADDED, MODIFIED, DELETED = "ADDED", "MODIFIED", "DELETED"
_NAME_ALPHABET = "bcdfghjklmnpqrstvwxz2456789"
"""The apiserver's alphabet for generated names: no vowels, no look-alike digits."""
_MAX_GENERATED_PREFIX = 63 - 5


def copy(value: Any) -> Any:
    """A deep copy through JSON: what goes in or out of the store shares nothing with the caller."""
    return msgspec.json.decode(msgspec.json.encode(value))


def now() -> str:
    """Now, as an RFC 3339 timestamp in seconds (the apiserver's metav1.Time)."""
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def as_dict(value: Any) -> Obj:
    """``value`` if it is a dict, else an empty one."""
    return value if isinstance(value, dict) else {}


def meta(obj: Mapping[str, Any]) -> Obj:
    # The metadata dict itself, to write to; apimachinery.meta reads fields but never hands it out.
    """The object's metadata dict itself, to write to (empty if it has none)."""
    return as_dict(obj.get("metadata"))


def builtin(group: str) -> bool:
    """Whether a group is Kubernetes' own (CRD groups have a dot and are not *.k8s.io)."""
    return group == "" or "." not in group or group.endswith(".k8s.io")


@dataclass(frozen=True)
class Event:
    """One change in the store's history: its resourceVersion, type, resource, key, the object after it
    (for DELETED, its last state) and before it (None for ADDED)."""

    rv: int
    type: str
    info: ResourceInfo
    key: Key
    obj: Obj  # the object after the event; for DELETED its last state at the deletion's resourceVersion
    prev: Obj | None  # the object before it (None for ADDED)


class Store:
    """The registered resources, their objects, the global resourceVersion and the history.

    Callers hold ``lock`` around every read and write (it is reentrant). ``seq`` counts writes
    and watch closes: a waiting watch sleeps until it moves."""

    def __init__(self, history: int, bookmark_interval: float) -> None:
        self.resources: dict[tuple[str, str, str], ResourceInfo] = {}
        self.without_status: set[ResourceInfo] = set()
        self.by_kind: dict[tuple[str, str], ResourceInfo] = {}
        self.objects: dict[ResourceInfo, dict[Key, Obj]] = {}
        self.lock = threading.RLock()
        self._changed = threading.Condition(self.lock)
        self._wakers: set[Callable[[], None]] = set()
        self.seq = 0  # bumped on every write and watch close: what waiting watches wait for
        self.rv = 0
        self.floor = 0  # every event with rv > floor is still in history
        self._history: collections.deque[Event] = collections.deque()
        self._history_size = history
        self.bookmark_interval = bookmark_interval
        self.storage: dict[ResourceInfo, ResourceInfo] = {}
        """Each version of a multi-version custom resource to its storage version (absent: itself)."""
        self.extras: dict[tuple[ResourceInfo, Key], Obj] = {}
        """What a custom resource's stored JSON holds beyond its answer: the empty or null
        metadata collections a server-side apply left (``kgen.runtime.fake.handlers.writes.stored_extras``)."""

    def register(self, info: ResourceInfo, *, status: bool) -> None:
        """Serve resource ``info``; ``status``: whether it has a status subresource."""
        with self.lock:
            self.resources[(info.group, info.version, info.plural)] = info
            if status:
                self.without_status.discard(info)
            else:
                self.without_status.add(info)
            if info.kind:
                self.by_kind.setdefault((info.api_version, info.kind), info)
            self.objects.setdefault(info, {})

    def storage_of(self, info: ResourceInfo) -> ResourceInfo:
        """The resource whose storage ``info``'s objects are in: its storage version's, or itself."""
        return self.storage.get(info, info)

    def get(self, info: ResourceInfo, key: Key) -> Obj:
        """The stored object (not a copy), or 404."""
        obj = self.objects[info].get(key)
        if obj is None:
            raise not_found(info, key[1])
        return obj

    def commit(self, info: ResourceInfo, key: Key, obj: Obj | None, prev: Obj | None) -> None:
        """The one place that writes: bumps the resourceVersion, records the event, wakes watches.
        A write drops the object's stored extras; ``writes.save`` records the new ones. ``obj`` and
        ``prev`` are in the storage version; the event is the storage's."""
        info = self.storage_of(info)
        self.rv += 1
        self.extras.pop((info, key), None)
        if obj is not None:
            obj["metadata"]["resourceVersion"] = str(self.rv)
            self.objects[info][key] = obj
            event = Event(self.rv, ADDED if prev is None else MODIFIED, info, key, obj, prev)
        else:
            assert prev is not None
            self.objects[info].pop(key, None)
            gone: Obj = copy(prev)
            gone["metadata"]["resourceVersion"] = str(self.rv)
            event = Event(self.rv, DELETED, info, key, gone, prev)
        self._history.append(event)
        while len(self._history) > self._history_size:
            self.floor = self._history.popleft().rv
        self.wake()

    def compact(self) -> None:
        """Drop the history: watches from a resourceVersion before now get 410 Gone."""
        with self.lock:
            self._history.clear()
            self.floor = self.rv

    def snapshot(self, info: ResourceInfo, rv: int) -> dict[Key, Obj]:
        """The objects as they were at ``rv``: today's, with the later events undone."""
        if rv < self.floor:
            raise expired("The resourceVersion for the provided list is too old.")
        info = self.storage_of(info)
        objects = dict(self.objects[info])
        for event in reversed(self._history):
            if event.rv <= rv:
                break
            if event.info != info:
                continue
            if event.prev is None:
                objects.pop(event.key, None)
            else:
                objects[event.key] = event.prev
        return objects

    def events_after(self, rv: int) -> list[Event]:
        """The events after resourceVersion ``rv``, oldest first."""
        events: list[Event] = []
        for event in reversed(self._history):
            if event.rv <= rv:
                break
            events.append(event)
        events.reverse()
        return events

    def generate_name(self, info: ResourceInfo, namespace: str, prefix: str) -> str:
        """``generateName``: the prefix and five random characters, retried on a clash."""
        for _ in range(8):
            name = prefix[:_MAX_GENERATED_PREFIX] + "".join(secrets.choice(_NAME_ALPHABET) for _ in range(5))
            if (namespace if info.namespaced else "", name) not in self.objects[info]:
                return name
        raise already_exists(info, prefix)

    # -- change notification: what watches wait on -------------------------------------------

    def wake(self) -> None:
        """Wake every watch waiting for a change."""
        self.seq += 1
        self._changed.notify_all()
        for wake in list(self._wakers):
            wake()

    def wait(self, seen: int, timeout: float | None) -> None:
        """Wait up to ``timeout`` seconds for a change after ``seen`` (the change count a watch last
        saw)."""
        with self._changed:
            if self.seq == seen:
                self._changed.wait(timeout)

    async def wait_async(self, seen: int, timeout: float | None) -> None:
        """``wait`` on asyncio."""
        loop = asyncio.get_running_loop()
        woken = asyncio.Event()

        def wake() -> None:
            try:
                loop.call_soon_threadsafe(woken.set)
            except RuntimeError:  # the loop is closed: nobody is waiting any more
                pass

        with self.lock:
            if self.seq != seen:
                return
            self._wakers.add(wake)
        try:
            await asyncio.wait_for(woken.wait(), timeout)
        except asyncio.TimeoutError:
            pass
        finally:
            with self.lock:
                self._wakers.discard(wake)
