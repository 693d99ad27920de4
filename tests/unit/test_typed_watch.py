"""watch() always asks the server for bookmarks (they keep a quiet watch inside its idle timeout;
a watch-list needs them) and hands them on only with bookmarks=True; the lower-level open_watch
stream, which the reflector reads, keeps them."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest

from kgen.runtime.gentype import AsyncResourceClient, DictCodec, ResourceClient, ResourceInfo
from kgen.runtime.rest.watch import Bookmark, WatchEvent

CONFIGMAPS = ResourceInfo("", "v1", "configmaps", True, "ConfigMap")
WIRE: list[WatchEvent[Any] | Bookmark] = [
    WatchEvent("ADDED", {"metadata": {"name": "a"}}), Bookmark("5"), WatchEvent("DELETED", {"metadata": {"name": "a"}}),
    Bookmark("6", {"k8s.io/initial-events-end": "true"}),
]


class _Stream:
    """What open_watch returns, with the events a server that sends bookmarks regardless would send."""

    def __init__(self) -> None:
        self.options: dict[str, Any] = {}

    def __enter__(self) -> _Stream:
        return self

    def __exit__(self, *exc: object) -> None:
        pass

    async def __aenter__(self) -> _Stream:
        return self

    async def __aexit__(self, *exc: object) -> None:
        pass

    def __iter__(self) -> Iterator[WatchEvent[Any] | Bookmark]:
        return iter(WIRE)

    async def _events(self) -> AsyncIterator[WatchEvent[Any] | Bookmark]:
        for event in WIRE:
            yield event

    def __aiter__(self) -> AsyncIterator[WatchEvent[Any] | Bookmark]:
        return self._events()


def _sync(options: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> tuple[list[Any], dict[str, Any]]:
    client = ResourceClient(None, CONFIGMAPS, "ns", DictCodec())  # type: ignore[arg-type]
    asked: dict[str, Any] = {}
    monkeypatch.setattr(client, "open_watch", lambda **o: (asked.update(o), _Stream())[1])
    return list(client.watch(**options)), asked


def _async(options: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> tuple[list[Any], dict[str, Any]]:
    client = AsyncResourceClient(None, CONFIGMAPS, "ns", DictCodec())  # type: ignore[arg-type]
    asked: dict[str, Any] = {}

    async def open_watch(**o: Any) -> _Stream:
        asked.update(o)
        return _Stream()

    monkeypatch.setattr(client, "open_watch", open_watch)

    async def collect() -> list[Any]:
        return [event async for event in client.watch(**options)]

    return asyncio.run(collect()), asked


@pytest.mark.parametrize("run", [_sync, _async], ids=["sync", "async"])
def test_watch_asks_for_bookmarks_and_hands_them_on_only_when_told(run: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    events, asked = run({"resource_version": "4"}, monkeypatch)
    assert events == [WIRE[0], WIRE[2]] and asked["allow_watch_bookmarks"] is True and asked["resource_version"] == "4"
    events, asked = run({"bookmarks": False}, monkeypatch)
    assert events == [WIRE[0], WIRE[2]] and asked["allow_watch_bookmarks"] is True and "bookmarks" not in asked
    events, asked = run({"bookmarks": True}, monkeypatch)
    assert events == WIRE and asked["allow_watch_bookmarks"] is True
    events, asked = run({"allow_watch_bookmarks": False}, monkeypatch)  # the low-level client still lets you refuse
    assert events == [WIRE[0], WIRE[2]] and asked["allow_watch_bookmarks"] is False


def test_the_typed_watch_passes_bookmarks_through() -> None:
    from kgen.runtime.gentype import typed

    class Recorder:
        def __init__(self) -> None:
            self.options: list[dict[str, Any]] = []

        def watch(self, **options: Any) -> Iterator[Any]:
            self.options.append(options)
            return iter(())

    recorder = Recorder()
    client: typed.Watch[Any, Any] = typed.Watch(recorder)  # type: ignore[arg-type]
    client.watch(resource_version="7")
    client.watch(resource_version="7", bookmarks=True)
    assert [o["bookmarks"] for o in recorder.options] == [False, True]
    assert all("allow_watch_bookmarks" not in o for o in recorder.options)
