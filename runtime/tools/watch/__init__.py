"""client-go's tools/watch for Python: ``RetryWatcher`` (an endless watch that resumes across
server timeouts, dropped connections, bookmarks and — beyond client-go — 410 Gone, by a relist
whose differences come as events) and ``until`` / ``until_with_sync`` (wait on list + watch until
a condition holds, or raise ``WaitTimeout``), each for threads and for asyncio, on any
lister-watcher: typed clients, async typed clients, the dynamic client's resource clients."""

from kgen.runtime.tools.watch.lister_watcher import AsyncWatchable, Watchable, async_lister_watcher, lister_watcher
from kgen.runtime.tools.watch.retry_watcher import AsyncRetryWatcher, RetryWatcher
from kgen.runtime.tools.watch.retry_watcher_core import RetryWatcherCore, object_key
from kgen.runtime.tools.watch.until import (
    Condition,
    Precondition,
    WaitTimeout,
    async_until,
    async_until_with_sync,
    describe_object,
    until,
    until_with_sync,
)

__all__ = [
    "AsyncRetryWatcher", "AsyncWatchable", "Condition", "Precondition", "RetryWatcher", "RetryWatcherCore", "WaitTimeout",
    "Watchable", "async_lister_watcher", "async_until", "async_until_with_sync", "describe_object", "lister_watcher",
    "object_key", "until", "until_with_sync",
]
