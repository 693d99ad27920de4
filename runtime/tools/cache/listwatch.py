"""What an informer lists and watches through: client-go's ListerWatcher (listwatch.go).

Protocols generic in the object type, so that an informer made from a typed client is typed in
its model: ``SharedIndexInformer(ResourceClient[ConfigMap, ConfigMapList](...))`` is a
``SharedIndexInformer[ConfigMap]`` without an annotation. The reflector needs these two calls and
nothing else; a ``ResourceClient`` is a ``ListerWatcher``, an ``AsyncResourceClient`` an
``AsyncListerWatcher``. Watch options arrive as keywords (``resource_version``,
``allow_watch_bookmarks``, ``timeout_seconds``, ...), the stream is the wire's: bookmarks included.
"""

from __future__ import annotations

from typing import Any, Protocol, TypeVar

from kgen.runtime.gentype.watch import AsyncWatchStream, WatchStream

T = TypeVar("T")
"""The type of the watched objects."""


class ListerWatcher(Protocol[T]):
    """What a reflector lists and watches: a resource client, for threads."""

    def list(self, **options: Any) -> Any:
        """One list (page) with these options."""

    def open_watch(self, **options: Any) -> WatchStream[T]:
        """Open a watch with these options."""


class AsyncListerWatcher(Protocol[T]):
    """What an async reflector lists and watches: a resource client, for asyncio."""

    async def list(self, **options: Any) -> Any:
        """One list (page) with these options."""

    async def open_watch(self, **options: Any) -> AsyncWatchStream[T]:
        """Open a watch with these options."""
