"""In-memory list/watch endpoints for informer unit tests (client-go's ``ListWatch`` +
``watch.NewFake()``, and ``tools/cache/testing`` FakeControllerSource).

Objects are unstructured dicts (``pod("a")``). ``ListWatch`` delegates to functions a test
writes; ``FakeWatch`` is a stream a test feeds by hand. ``FakeControllerSource`` behaves like a
small apiserver: every change gets the next resourceVersion; ``*_drop_watch`` changes reach
lists but no watch (an event lost with a dropped connection); ``reset_watch()`` ends every
watch and forgets the history, so a watch from an older resourceVersion answers 410, as after
an etcd compaction. ``AsyncListWatch`` puts any of them behind the asyncio interface.
"""

from __future__ import annotations

import asyncio
import copy
import queue
import threading
from collections.abc import AsyncIterator, Callable, Iterable, Iterator
from typing import Any

from kgen.runtime.tools.cache.store import meta_namespace_key
from kgen.runtime.apimachinery.errors import ApiError, error_from_status
from kgen.runtime.apimachinery.meta import annotations_of, resource_version_of
from kgen.runtime.rest.watch import ADDED, DELETED, MODIFIED, Bookmark, WatchEvent

_END = object()


def pod(name: str, rv: str = "", namespace: str = "", **labels: str) -> dict[str, Any]:
    meta: dict[str, Any] = {"name": name}
    if namespace:
        meta["namespace"] = namespace
    if rv:
        meta["resourceVersion"] = rv
    if labels:
        meta["labels"] = dict(labels)
    return {"apiVersion": "v1", "kind": "Pod", "metadata": meta}


def pod_list(rv: str, items: Iterable[dict[str, Any]] = (), continue_: str = "") -> dict[str, Any]:
    meta = {"resourceVersion": rv}
    if continue_:
        meta["continue"] = continue_
    return {"apiVersion": "v1", "kind": "PodList", "metadata": meta, "items": list(items)}


def status(code: int, reason: str, message: str = "", causes: list[dict[str, str]] | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {"kind": "Status", "apiVersion": "v1", "status": "Failure", "code": code,
                            "reason": reason, "message": message or reason}
    if causes is not None:
        body["details"] = {"causes": causes}
    return body


def api_error(code: int, reason: str, message: str = "", causes: list[dict[str, str]] | None = None) -> ApiError:
    return error_from_status(status(code, reason, message, causes), code)


def name_of(obj: Any) -> str:
    if isinstance(obj, dict):
        return str(obj["metadata"]["name"])
    return str(obj.metadata.name)


def rv_of(obj: Any) -> str:
    if isinstance(obj, dict):
        return str(obj["metadata"].get("resourceVersion", ""))
    return str(obj.metadata.resource_version)


class FakeWatch:
    """client-go's watch.FakeWatcher: events a test pushes, read by one consumer."""

    def __init__(self, events: Iterable[WatchEvent[Any]] = ()) -> None:
        self._queue: queue.Queue[Any] = queue.Queue()
        for event in events:
            self._queue.put(event)
        self.stopped = threading.Event()
        self.closed = False

    def add(self, obj: Any) -> None:
        self._queue.put(WatchEvent(ADDED, obj))

    def modify(self, obj: Any) -> None:
        self._queue.put(WatchEvent(MODIFIED, obj))

    def delete(self, obj: Any) -> None:
        self._queue.put(WatchEvent(DELETED, obj))

    def bookmark(self, obj: Any) -> None:
        self._queue.put(Bookmark(resource_version_of(obj), annotations_of(obj)))

    def error(self, error: BaseException) -> None:
        """An ERROR event: the stream raises it (as the watch decoder does)."""
        self._queue.put(error)

    def end(self) -> None:
        """The server closes the stream."""
        self._queue.put(_END)

    def stop(self) -> None:
        self.stopped.set()
        self._queue.put(_END)

    def close(self) -> None:
        self.closed = True
        self.stop()

    def next_item(self, timeout: float | None = None) -> Any:
        return self._queue.get(timeout=timeout)

    def __iter__(self) -> Iterator[WatchEvent[Any]]:
        while not self.stopped.is_set():
            item = self._queue.get()
            if item is _END:
                return
            if isinstance(item, BaseException):
                raise item
            yield item

    def __enter__(self) -> "FakeWatch":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class ListWatch:
    """client-go's ListWatch: ``list`` and ``open_watch`` call the test's functions, which get
    the options with client-go's meaning (resourceVersion "" for None, limit 0 for None)."""

    def __init__(
        self,
        list_func: Callable[[dict[str, Any]], Any],
        watch_func: Callable[[dict[str, Any]], Any] | None = None,
    ) -> None:
        self.list_func = list_func
        self.watch_func = watch_func or (lambda options: FakeWatch())
        self.list_options: list[dict[str, Any]] = []
        self.watch_options: list[dict[str, Any]] = []

    @staticmethod
    def _normalized(options: dict[str, Any]) -> dict[str, Any]:
        return {
            **options,
            "resource_version": options.get("resource_version") or "",
            "limit": options.get("limit") or 0,
            "continue_": options.get("continue_") or "",
        }

    def list(self, **options: Any) -> Any:
        options = self._normalized(options)
        self.list_options.append(options)
        result = self.list_func(options)
        if isinstance(result, BaseException):
            raise result
        return result

    def open_watch(self, **options: Any) -> Any:
        options = self._normalized(options)
        self.watch_options.append(options)
        result = self.watch_func(options)
        if isinstance(result, BaseException):
            raise result
        return result


class FakeControllerSource:
    """client-go's FakeControllerSource (see the module docstring)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.items: dict[str, dict[str, Any]] = {}
        self.last_rv = 0
        self._history: list[tuple[int, WatchEvent[Any]]] = []
        self._history_start = 0  # changes after this resourceVersion are in the history
        self._watches: list[FakeWatch] = []
        self.list_error: BaseException | None = None
        self.list_calls: list[dict[str, Any]] = []
        self.watch_calls: list[dict[str, Any]] = []

    def add(self, obj: dict[str, Any]) -> dict[str, Any]:
        return self.change(ADDED, obj)

    def modify(self, obj: dict[str, Any]) -> dict[str, Any]:
        return self.change(MODIFIED, obj)

    def delete(self, obj: dict[str, Any]) -> dict[str, Any]:
        return self.change(DELETED, obj)

    def add_drop_watch(self, obj: dict[str, Any]) -> dict[str, Any]:
        return self.change(ADDED, obj, broadcast=False)

    def modify_drop_watch(self, obj: dict[str, Any]) -> dict[str, Any]:
        return self.change(MODIFIED, obj, broadcast=False)

    def delete_drop_watch(self, obj: dict[str, Any]) -> dict[str, Any]:
        return self.change(DELETED, obj, broadcast=False)

    def change(self, type_: str, obj: dict[str, Any], broadcast: bool = True) -> dict[str, Any]:
        """Records a change under the next resourceVersion; returns the stored object."""
        with self._lock:
            obj = copy.deepcopy(obj)
            self.last_rv += 1
            obj.setdefault("metadata", {})["resourceVersion"] = str(self.last_rv)
            key = meta_namespace_key(obj)
            if type_ == DELETED:
                self.items.pop(key, None)
            else:
                self.items[key] = obj
            if broadcast:
                event = WatchEvent(type_, obj)
                self._history.append((self.last_rv, event))
                for watch in self._watches:
                    watch._queue.put(WatchEvent(type_, copy.deepcopy(obj)))
            return copy.deepcopy(obj)

    def reset_watch(self) -> None:
        """A connection loss that outlived the history: every watch ends, and resuming one from
        an older resourceVersion answers 410."""
        with self._lock:
            for watch in self._watches:
                watch.end()
            self._watches = []
            self._history = []
            self._history_start = self.last_rv

    def list(self, **options: Any) -> dict[str, Any]:
        self.list_calls.append(options)
        if self.list_error is not None:
            raise self.list_error
        with self._lock:
            return pod_list(str(self.last_rv), [copy.deepcopy(o) for o in self.items.values()])

    def open_watch(self, **options: Any) -> FakeWatch:
        self.watch_calls.append(options)
        if options.get("send_initial_events"):
            # It cannot stream the list (client-go's fails such a watch too, on resourceVersion
            # ""): a reflector's watch-list fails, and the reflector lists instead.
            raise api_error(400, "BadRequest", "sendInitialEvents is not supported by this fake")
        rv = int(options.get("resource_version") or 0)
        with self._lock:
            if rv < self._history_start:
                raise api_error(410, "Expired", "too old resource version")
            watch = FakeWatch([WatchEvent(e.type, copy.deepcopy(e.object)) for r, e in self._history if r > rv])
            self._watches.append(watch)
            return watch


class AsyncFakeWatch:
    """A FakeWatch read from asyncio."""

    def __init__(self, watch: FakeWatch) -> None:
        self.watch = watch

    async def __aiter__(self) -> AsyncIterator[WatchEvent[Any]]:
        while not self.watch.stopped.is_set():
            try:
                item = self.watch._queue.get_nowait()
            except queue.Empty:
                await asyncio.sleep(0.002)
                continue
            if item is _END:
                return
            if isinstance(item, BaseException):
                raise item
            yield item

    def stop(self) -> None:
        self.watch.stop()

    async def __aenter__(self) -> "AsyncFakeWatch":
        return self

    async def __aexit__(self, *exc: object) -> None:
        self.watch.close()


class AsyncListWatch:
    """Any of the lister-watchers above behind the asyncio interface."""

    def __init__(self, source: Any) -> None:
        self.source = source

    async def list(self, **options: Any) -> Any:
        return self.source.list(**options)

    async def open_watch(self, **options: Any) -> AsyncFakeWatch:
        return AsyncFakeWatch(self.source.open_watch(**options))
