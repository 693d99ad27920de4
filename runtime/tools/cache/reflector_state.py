"""The reflector's decisions, without I/O: client-go's rules from reflector.go as plain functions
and one ``ReflectorState``; ``reflector.py`` drives them (see its docstring for the rules)."""

from __future__ import annotations

import errno
import logging
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

import httpx

from kgen.runtime.apimachinery.errors import ApiError, Gone, ServerTimeout, TooManyRequests
from kgen.runtime.apimachinery.meta import resource_version_of
from kgen.runtime.rest.watch import ADDED, BOOKMARK, DELETED, MODIFIED, WatchEvent
from kgen.runtime.tools.cache.pager import PAGE_SIZE, ListPager
from kgen.runtime.util.wait import Backoff, ExponentialBackoffManager

log = logging.getLogger("kgen.runtime.tools.cache.reflector")

MIN_WATCH_TIMEOUT = 300.0  # defaultMinWatchTimeout: watches last [min, 2*min)
VERY_SHORT_WATCH = 1.0  # a watch ending sooner than this without an event is an error

#: What a watch's end leads to.
REWATCH, BACKOFF, RELIST = "rewatch", "backoff", "relist"

ListOptions = Callable[[dict[str, Any]], dict[str, Any]]
WatchErrorHandler = Callable[[BaseException], None]


class ReflectorStore(Protocol):
    """What a reflector writes to: a DeltaFIFO, or a plain Store."""

    def add(self, obj: Any) -> None: ...
    def update(self, obj: Any) -> None: ...
    def delete(self, obj: Any) -> None: ...
    def replace(self, objects: list[Any], resource_version: str) -> None: ...
    def resync(self) -> None: ...


class VeryShortWatchError(Exception):
    """The watch closed within a second without delivering one event (client-go's
    VeryShortWatchError): something between client and server is ending it, so relist."""




def is_too_large_resource_version(error: BaseException) -> bool:
    """client-go isTooLargeResourceVersionError: the cause the server sets today, or the
    messages of 1.17.0-1.18.5 and older servers on a Timeout."""
    if not isinstance(error, ApiError):
        return False
    if any(c.reason == "ResourceVersionTooLarge" for c in error.causes):
        return True
    if not isinstance(error, ServerTimeout):
        return False
    return any(c.message == "Too large resource version" for c in error.causes) or (
        "Too large resource version" in error.message
    )


def is_connection_refused(error: BaseException) -> bool:
    seen: BaseException | None = error
    while seen is not None:
        if isinstance(seen, ConnectionRefusedError) or getattr(seen, "errno", None) == errno.ECONNREFUSED:
            return True
        if isinstance(seen, httpx.ConnectError) and "connection refused" in str(seen).lower():
            return True
        seen = seen.__cause__ or seen.__context__
    return False


def default_watch_error_handler(name: str, error: BaseException) -> None:
    """client-go DefaultWatchErrorHandler: expired and closed watches are routine."""
    if isinstance(error, Gone):
        log.debug("%s: watch closed with: %s", name, error)
    elif isinstance(error, httpx.TransportError):
        log.info("%s: connection failed: %r", name, error)
    else:
        log.warning("%s: failed to list or watch: %s", name, error)


def reflector_backoff(
    initial: float = 0.8, cap: float = 30.0, *, clock: Callable[[], float] = time.monotonic,
    rng: random.Random | None = None,
) -> ExponentialBackoffManager:
    """client-go's reflector backoff: 0.8 s doubling to 30 s, full jitter (each delay d becomes
    [d, 2d)), reset after 2 minutes without a backoff."""
    return ExponentialBackoffManager(
        Backoff(duration=initial, factor=2.0, jitter=1.0, cap=cap), reset_after=120.0, clock=clock, rng=rng
    )



@dataclass
class ReflectorState:
    """What to ask the server next, and what each answer means (client-go's rules)."""

    last_sync_resource_version: str = ""
    #: The last list or watch said the resourceVersion is gone (410) or not there yet (too large).
    resource_version_unavailable: bool = False
    #: The first list (resourceVersion "0") came back in pages: there is no watch cache to spare.
    paginated_result: bool = False
    #: client-go's WatchListPageSize: a page size to use for every list; 0 leaves it to the rules.
    page_size: int = 0
    min_watch_timeout: float = MIN_WATCH_TIMEOUT
    rng: random.Random = field(default_factory=random.Random)

    def list_resource_version(self) -> str:
        if self.resource_version_unavailable:
            return ""  # a consistent read re-establishes where the server is
        return self.last_sync_resource_version or "0"

    def page_limit(self, resource_version: str) -> int:
        if self.page_size:
            return self.page_size
        if self.paginated_result or resource_version in ("", "0"):
            return PAGE_SIZE
        return 0  # unpaged, so the watch cache can serve it

    def list_failed(self, error: BaseException) -> bool:
        """True when the list must be retried at once, at resourceVersion ""."""
        if isinstance(error, Gone) or is_too_large_resource_version(error):
            self.resource_version_unavailable = True
            return True
        return False

    def listed(self, requested: str, pager: ListPager) -> None:
        if requested == "0" and pager.paginated:
            self.paginated_result = True
        self.resource_version_unavailable = False
        self.last_sync_resource_version = pager.list_resource_version

    def watch_options(self) -> dict[str, Any]:
        return {
            "resource_version": self.last_sync_resource_version,
            "allow_watch_bookmarks": True,
            "timeout_seconds": int(self.min_watch_timeout * (1 + self.rng.random())),
        }

    @staticmethod
    def watch_start_retriable(error: BaseException) -> bool:
        """Watch again after a backoff, without relisting: the server is overloaded or down, and
        the watch will most likely resume where it ended."""
        return isinstance(error, TooManyRequests) or is_connection_refused(error)

    @staticmethod
    def watch_ended(error: BaseException | None, duration: float, events: int) -> tuple[str, BaseException | None]:
        """What to do after a watch ended (``error`` None: the server closed it): REWATCH,
        BACKOFF (then rewatch) or RELIST; and the error to report, if any."""
        if error is None or isinstance(error, httpx.TransportError):
            # A closed or dropped connection is the end of a watch, not an error.
            if duration < VERY_SHORT_WATCH and events == 0:
                return RELIST, VeryShortWatchError(f"very short watch: {error or 'closed'}")
            return REWATCH, None
        if isinstance(error, TooManyRequests):
            return BACKOFF, error
        return RELIST, error  # 410 Gone included: relist at the last resourceVersion

    def apply(self, event: WatchEvent[Any], store: ReflectorStore) -> None:
        obj = event.object
        try:
            if event.type == ADDED:
                store.add(obj)
            elif event.type == MODIFIED:
                store.update(obj)
            elif event.type == DELETED:
                store.delete(obj)
            elif event.type != BOOKMARK:
                log.warning("unexpected watch event type %r", event.type)
        except Exception:  # noqa: BLE001 - client-go logs a store error and goes on watching
            log.exception("unable to apply a %s watch event to the store", event.type)
        rv = resource_version_of(obj)
        if rv:
            self.last_sync_resource_version = rv
            update_resource_version = getattr(store, "update_resource_version", None)
            if callable(update_resource_version):
                update_resource_version(rv)
