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


class ListerWatcher(Protocol[T]):
    def list(self, **options: Any) -> Any: ...

    def open_watch(self, **options: Any) -> WatchStream[T]: ...


class AsyncListerWatcher(Protocol[T]):
    async def list(self, **options: Any) -> Any: ...

    async def open_watch(self, **options: Any) -> AsyncWatchStream[T]: ...
