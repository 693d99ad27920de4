"""What tools/watch watches through: any lister-watcher (``kgen.runtime.tools.cache.listwatch``) —
a ``ResourceClient``, the dynamic client's resource clients — or a generated typed client
(``cs.apps_v1.deployments(ns)``), whose ``ResourceClient`` does the listing and watching.

``Watchable[T]`` and ``AsyncWatchable[T]`` name both, so that a wait on a typed client is typed in
its model without an annotation; ``lister_watcher`` resolves one to what the watcher calls.
"""

from __future__ import annotations

from typing import Any, Protocol, TypeVar

from kgen.runtime.gentype.client import AsyncResourceClient, ResourceClient
from kgen.runtime.tools.cache.listwatch import AsyncListerWatcher, ListerWatcher

__all__ = ["AsyncWatchable", "Watchable", "async_lister_watcher", "lister_watcher"]

T = TypeVar("T")
"""The type of the watched objects."""


class TypedResourceClient(Protocol[T]):
    """A generated typed client (``gentype.typed.TypedClient``): it wraps a ``ResourceClient``."""

    @property
    def _client(self) -> ResourceClient[T, Any]: ...


class AsyncTypedResourceClient(Protocol[T]):
    """A generated async typed client (``gentype.typed.AsyncTypedClient``)."""

    @property
    def _client(self) -> AsyncResourceClient[T, Any]: ...


Watchable = ListerWatcher[T] | TypedResourceClient[T]
"""What the thread flavour watches: a lister-watcher or a typed client."""
AsyncWatchable = AsyncListerWatcher[T] | AsyncTypedResourceClient[T]
"""What the asyncio flavour watches: an async lister-watcher or an async typed client."""


def lister_watcher(client: Watchable[T]) -> ListerWatcher[T]:
    """The lister-watcher behind ``client``; a clear error for anything else."""
    if callable(getattr(client, "open_watch", None)) and callable(getattr(client, "list", None)):
        return client  # type: ignore[return-value]  # a lister-watcher already
    inner = getattr(client, "_client", None)
    if inner is not None and callable(getattr(inner, "open_watch", None)):
        return inner  # type: ignore[no-any-return]
    raise TypeError(
        "expected a resource client to watch (a typed client such as cs.apps_v1.deployments(ns), a dynamic "
        f"resource client, or anything with list(**options) and open_watch(**options)), not {type(client).__name__}"
    )


def async_lister_watcher(client: AsyncWatchable[T]) -> AsyncListerWatcher[T]:
    """The async lister-watcher behind ``client``; a clear error for anything else."""
    return lister_watcher(client)  # type: ignore[arg-type,return-value]  # the same look-up
