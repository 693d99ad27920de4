"""watch() hands bookmarks on only to a caller that asked for them (client-go's opt-in
AllowWatchBookmarks); the lower-level open_watch stream, which the reflector reads, keeps them."""

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


def _sync(options: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> list[WatchEvent[Any] | Bookmark]:
    client = ResourceClient(None, CONFIGMAPS, "ns", DictCodec())  # type: ignore[arg-type]
    monkeypatch.setattr(client, "open_watch", lambda **_: _Stream())
    return list(client.watch(**options))


def _async(options: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> list[WatchEvent[Any] | Bookmark]:
    client = AsyncResourceClient(None, CONFIGMAPS, "ns", DictCodec())  # type: ignore[arg-type]

    async def open_watch(**_: Any) -> _Stream:
        return _Stream()

    monkeypatch.setattr(client, "open_watch", open_watch)

    async def collect() -> list[WatchEvent[Any] | Bookmark]:
        return [event async for event in client.watch(**options)]

    return asyncio.run(collect())


@pytest.mark.parametrize("run", [_sync, _async], ids=["sync", "async"])
def test_watch_leaves_bookmarks_out_unless_asked_for(run: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    assert run({}, monkeypatch) == [WIRE[0], WIRE[2]]
    assert run({"allow_watch_bookmarks": False}, monkeypatch) == [WIRE[0], WIRE[2]]
    assert run({"allow_watch_bookmarks": True}, monkeypatch) == WIRE


def test_the_typed_watch_asks_for_bookmarks_only_when_told() -> None:
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
    client.watch(resource_version="7", allow_watch_bookmarks=True)
    assert [o["allow_watch_bookmarks"] for o in recorder.options] == [False, True]
