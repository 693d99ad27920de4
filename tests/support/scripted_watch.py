"""Scripted lister-watchers for reflector tests: client-go's ``fakeListWatcher``
(reflector_watchlist_test.go) and a watch that plays a fixed script.

A ``ScriptedWatch`` yields its events in order; ``END`` in the script is the server closing the
stream, ``STOP`` calls ``on_stop`` (the test's stop signal: client-go's ``cancel`` after N
events) and ends the stream, and an exception is raised where it stands (an ERROR event). The
script is read once across iterations: a reflector that stops reading at a watch-list's bookmark
and reads on later gets the next event. It serves both flavours: ``for`` and ``async for``,
``with`` and ``async with``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterable, Iterator
from typing import Any

from kgen.runtime.rest.watch import ADDED, DELETED, INITIAL_EVENTS_END, MODIFIED, Bookmark, WatchEvent

END, STOP = object(), object()


def added(obj: Any) -> WatchEvent[Any]:
    return WatchEvent(ADDED, obj)


def modified(obj: Any) -> WatchEvent[Any]:
    return WatchEvent(MODIFIED, obj)


def deleted(obj: Any) -> WatchEvent[Any]:
    return WatchEvent(DELETED, obj)


def bookmark(rv: str, initial_events_end: str | None = None) -> Bookmark:
    """A BOOKMARK as the watch decoder yields it (its object's kind is not kept)."""
    return Bookmark(rv, {} if initial_events_end is None else {INITIAL_EVENTS_END: initial_events_end})


class ScriptedWatch:
    def __init__(self, script: Iterable[Any], on_stop: Callable[[], None] | None = None) -> None:
        self.script = list(script)
        self.on_stop = on_stop
        self.closed = False
        self.stopped = False
        self._position = 0

    def _play(self) -> Iterator[WatchEvent[Any]]:
        while self._position < len(self.script) and not self.stopped:
            item = self.script[self._position]
            self._position += 1
            if item is END:
                return
            if item is STOP:
                assert self.on_stop is not None, "STOP in a script without on_stop"
                self.on_stop()
                return
            if isinstance(item, BaseException):
                raise item
            yield item

    def __iter__(self) -> Iterator[WatchEvent[Any]]:
        return self._play()

    async def __aiter__(self) -> AsyncIterator[WatchEvent[Any]]:
        for event in self._play():
            yield event

    def stop(self) -> None:
        self.stopped = True

    def close(self) -> None:
        self.closed = True

    def __enter__(self) -> "ScriptedWatch":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    async def __aenter__(self) -> "ScriptedWatch":
        return self

    async def __aexit__(self, *exc: object) -> None:
        self.close()


class ScriptedListWatch:
    """Records every request in order (``requests``: ("list" | "watch", options)). A list
    answers ``list_result`` (an exception is raised; None: "not implemented", as client-go's);
    the n-th watch request is answered by ``watches[n]`` (a ScriptedWatch, or an exception to
    raise), or by calling ``watches`` with the options when it is a function."""

    def __init__(self, watches: list[Any] | Callable[[dict[str, Any]], Any], list_result: Any = None) -> None:
        self.watches = watches
        self.list_result = list_result
        self.requests: list[tuple[str, dict[str, Any]]] = []

    def list(self, **options: Any) -> Any:
        self.requests.append(("list", options))
        if self.list_result is None:
            raise NotImplementedError("not implemented")
        if isinstance(self.list_result, BaseException):
            raise self.list_result
        return self.list_result

    def open_watch(self, **options: Any) -> Any:
        self.requests.append(("watch", options))
        if callable(self.watches):
            answer = self.watches(options)
        else:
            assert self.watches, f"an unexpected watch request: {options}"
            answer = self.watches.pop(0)
        if isinstance(answer, BaseException):
            raise answer
        return answer

    def counts(self) -> tuple[int, int]:
        """(list requests, watch requests)."""
        return (sum(1 for kind, _ in self.requests if kind == "list"),
                sum(1 for kind, _ in self.requests if kind == "watch"))


class AsyncScriptedListWatch:
    """A ScriptedListWatch behind the asyncio interface (its watches serve ``async for`` too)."""

    def __init__(self, source: ScriptedListWatch) -> None:
        self.source = source

    async def list(self, **options: Any) -> Any:
        return self.source.list(**options)

    async def open_watch(self, **options: Any) -> Any:
        return self.source.open_watch(**options)
