"""Wait on a watch until a condition holds: client-go tools/watch's ``Until`` and
``UntilWithSync`` (until.go), for threads and for asyncio.

``until`` watches from a resourceVersion the caller has; ``until_with_sync`` first lists (the state
now, in which a ``precondition`` may already find the answer, and whose objects the condition sees
as ADDED events, as an informer hands them to its handlers), then watches from that list. Both
watch through a ``RetryWatcher``: no polling loop, nothing lost to a server timeout or a 410. A
condition is a function of a ``WatchEvent`` (its ``type`` and ``object``); for one object, pass
``field_selector="metadata.name=NAME"`` (``name=`` does it). When ``timeout`` seconds pass first,
``WaitTimeout`` — a ``TimeoutError`` — names what was waited for and the last state seen.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Generic, TypeVar

import msgspec

from kgen.runtime.apimachinery.meta import list_meta, namespace_and_name, resource_version_of, type_meta
from kgen.runtime.rest.watch import WatchEvent
from kgen.runtime.tools.watch.lister_watcher import AsyncWatchable, Watchable, async_lister_watcher, lister_watcher
from kgen.runtime.tools.watch.retry_watcher import AsyncRetryWatcher, RetryWatcher
from kgen.runtime.tools.watch.retry_watcher_core import object_key

__all__ = [
    "Condition", "Precondition", "WaitTimeout", "async_until", "async_until_with_sync", "describe_object", "until",
    "until_with_sync",
]

T = TypeVar("T")
"""The type of the watched objects."""

Condition = Callable[[WatchEvent[T]], bool]
"""True when the event is the one waited for (client-go's ConditionFunc, errors raised instead)."""
Precondition = Callable[[Mapping[str, T]], bool]
"""True when the listed state (objects by ``namespace/name``) already answers (client-go's PreconditionFunc)."""

_STATUS_CHARS = 400


def describe_object(obj: Any) -> str:
    """``Kind namespace/name (resourceVersion N)`` and its status in short JSON: what a timeout shows
    of the last state seen. Only the status: a Secret's data has no place in an exception."""
    if obj is None:
        return "nothing (no object matched)"
    kind = type_meta(obj)[1] or type(obj).__name__
    namespace, name = namespace_and_name(obj)
    text = f"{kind} {namespace + '/' if namespace else ''}{name} (resourceVersion {resource_version_of(obj)})"
    status = obj.get("status") if isinstance(obj, dict) else getattr(obj, "status", None)
    if status is None:
        return text
    to_builtins = getattr(status, "to_dict", None)
    try:
        raw = msgspec.json.encode(to_builtins() if callable(to_builtins) else status).decode()
    except (TypeError, msgspec.MsgspecError):
        raw = repr(status)
    if len(raw) > _STATUS_CHARS:
        raw = raw[:_STATUS_CHARS] + "..."
    return f"{text}, status {raw}"


class WaitTimeout(TimeoutError):
    """A wait that ran out of time: ``waiting_for`` says for what, ``last`` is the last event seen
    (None if none matched at all), ``timeout`` how long it waited."""

    def __init__(self, waiting_for: str, timeout: float, last: WatchEvent[Any] | None) -> None:
        self.waiting_for = waiting_for
        self.timeout = timeout
        self.last = last
        if last is None:
            seen = "nothing (no object matched)"
        elif last.type == "DELETED":
            seen = f"{describe_object(last.object)}, deleted"
        else:
            seen = describe_object(last.object)
        super().__init__(f"timed out after {round(timeout, 1):g}s waiting for {waiting_for}; last seen: {seen}")


class _UntilCore(Generic[T]):
    """What both flavours decide: the selectors, the deadline, the conditions, the last event."""

    def __init__(
        self, condition: Condition[T], precondition: Precondition[T] | None, *, name: str | None,
        label_selector: str | None, field_selector: str | None, timeout: float | None, waiting_for: str,
    ) -> None:
        if name is not None:
            if not name:
                raise ValueError("name must be an object's name, not empty")
            by_name = f"metadata.name={name}"
            field_selector = f"{field_selector},{by_name}" if field_selector else by_name
        if timeout is not None and timeout < 0:
            raise ValueError(f"timeout must be a number of seconds >= 0 (or None), not {timeout!r}")
        self.condition = condition
        self.precondition = precondition
        self.label_selector = label_selector
        self.field_selector = field_selector
        self.timeout = timeout
        self.deadline = None if timeout is None else time.monotonic() + timeout
        self.waiting_for = waiting_for or self._default_description(name)
        self.last: WatchEvent[T] | None = None

    def _default_description(self, name: str | None) -> str:
        what = [f"name {name!r}"] if name else []
        if self.label_selector:
            what.append(f"labels {self.label_selector!r}")
        if self.field_selector and not name:
            what.append(f"fields {self.field_selector!r}")
        return "the condition on " + (", ".join(what) if what else "the watched objects")

    def list_options(self) -> dict[str, Any]:
        return {k: v for k, v in (("label_selector", self.label_selector), ("field_selector", self.field_selector)) if v}

    def remaining(self) -> float | None:
        return None if self.deadline is None else max(0.0, self.deadline - time.monotonic())

    def synced(self, listed: Any) -> tuple[bool, list[Any], str]:
        """(done by the precondition, the items, the list's resourceVersion)."""
        items, resource_version, _ = list_meta(listed)
        done = self.precondition is not None and self.precondition({object_key(obj): obj for obj in items})
        return done, items, resource_version

    def check(self, event: WatchEvent[T]) -> bool:
        self.last = event
        return bool(self.condition(event))

    def timed_out(self) -> WaitTimeout:
        return WaitTimeout(self.waiting_for, self.timeout or 0.0, self.last)


def _watch_sync(core: _UntilCore[T], watcher: RetryWatcher[T]) -> WatchEvent[T]:
    remaining = core.remaining()
    if remaining is not None and remaining <= 0:
        raise core.timed_out()
    timer = threading.Timer(remaining, watcher.stop) if remaining is not None else None
    if timer is not None:
        timer.daemon = True
        timer.start()
    try:
        with watcher:
            for event in watcher:
                if core.check(event):
                    return event
    finally:
        if timer is not None:
            timer.cancel()
    raise core.timed_out()  # the watcher ends only when stopped: the timer did it


def until(
    client: Watchable[T], resource_version: str | None, condition: Condition[T], *, name: str | None = None,
    label_selector: str | None = None, field_selector: str | None = None, timeout: float | None = None,
    waiting_for: str = "",
) -> WatchEvent[T]:
    """The first event from ``resource_version`` on for which ``condition`` is true (client-go's
    ``Until``). ``resource_version`` "" starts from now; ``timeout`` (seconds, None: forever) raises
    ``WaitTimeout`` saying ``waiting_for`` (by default, the selectors)."""
    core = _UntilCore(condition, None, name=name, label_selector=label_selector, field_selector=field_selector,
                      timeout=timeout, waiting_for=waiting_for)
    watcher = RetryWatcher(client, resource_version, label_selector=core.label_selector,
                           field_selector=core.field_selector)
    return _watch_sync(core, watcher)


def until_with_sync(
    client: Watchable[T], condition: Condition[T], *, precondition: Precondition[T] | None = None,
    name: str | None = None, label_selector: str | None = None, field_selector: str | None = None,
    timeout: float | None = None, waiting_for: str = "",
) -> WatchEvent[T] | None:
    """List, then watch, until ``condition`` is true of an event (client-go's ``UntilWithSync``):
    the listed objects come first as ADDED events. None if ``precondition`` is true of the listed
    state (the wait was over before it began: an object already gone, say). ``timeout`` covers
    the list and the watch; it raises ``WaitTimeout`` naming ``waiting_for`` and the last state."""
    core = _UntilCore(condition, precondition, name=name, label_selector=label_selector,
                      field_selector=field_selector, timeout=timeout, waiting_for=waiting_for)
    client = lister_watcher(client)
    done, items, resource_version = core.synced(client.list(**core.list_options()))
    if done:
        return None
    found = _first_added(core, items)
    if found is not None:
        return found
    watcher = RetryWatcher(client, resource_version, known=items, label_selector=core.label_selector,
                           field_selector=core.field_selector)
    return _watch_sync(core, watcher)


def _first_added(core: _UntilCore[T], items: Iterable[T]) -> WatchEvent[T] | None:
    for obj in items:
        event: WatchEvent[T] = WatchEvent("ADDED", obj)
        if core.check(event):
            return event
    return None


async def _watch_async(core: _UntilCore[T], watcher: AsyncRetryWatcher[T]) -> WatchEvent[T]:
    async def first() -> WatchEvent[T]:
        async with watcher:
            async for event in watcher:
                if core.check(event):
                    return event
        raise core.timed_out()

    remaining = core.remaining()
    if remaining is not None and remaining <= 0:
        raise core.timed_out()
    try:
        return await asyncio.wait_for(first(), remaining)
    except asyncio.TimeoutError as e:
        if isinstance(e, WaitTimeout):
            raise
        raise core.timed_out() from None


async def async_until(
    client: AsyncWatchable[T], resource_version: str | None, condition: Condition[T], *, name: str | None = None,
    label_selector: str | None = None, field_selector: str | None = None, timeout: float | None = None,
    waiting_for: str = "",
) -> WatchEvent[T]:
    """``until`` with an async lister-watcher."""
    core = _UntilCore(condition, None, name=name, label_selector=label_selector, field_selector=field_selector,
                      timeout=timeout, waiting_for=waiting_for)
    watcher = AsyncRetryWatcher(client, resource_version, label_selector=core.label_selector,
                                field_selector=core.field_selector)
    return await _watch_async(core, watcher)


async def async_until_with_sync(
    client: AsyncWatchable[T], condition: Condition[T], *, precondition: Precondition[T] | None = None,
    name: str | None = None, label_selector: str | None = None, field_selector: str | None = None,
    timeout: float | None = None, waiting_for: str = "",
) -> WatchEvent[T] | None:
    """``until_with_sync`` with an async lister-watcher."""
    core = _UntilCore(condition, precondition, name=name, label_selector=label_selector,
                      field_selector=field_selector, timeout=timeout, waiting_for=waiting_for)
    client = async_lister_watcher(client)
    try:
        listed = await asyncio.wait_for(client.list(**core.list_options()), core.remaining())
    except asyncio.TimeoutError:
        raise core.timed_out() from None
    done, items, resource_version = core.synced(listed)
    if done:
        return None
    found = _first_added(core, items)
    if found is not None:
        return found
    watcher = AsyncRetryWatcher(client, resource_version, known=items, label_selector=core.label_selector,
                                field_selector=core.field_selector)
    return await _watch_async(core, watcher)
