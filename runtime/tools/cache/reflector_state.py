"""The reflector's decisions, without I/O: client-go's rules from reflector.go as plain functions
and one ``ReflectorState``; ``reflector.py`` drives them (see its docstring for the rules)."""

from __future__ import annotations

import errno
import logging
import os
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

import httpx

from kgen.runtime.apimachinery.errors import ApiError, Gone, ServerTimeout, TooManyRequests
from kgen.runtime.apimachinery.meta import resource_version_of
from kgen.runtime.rest.watch import ADDED, DELETED, INITIAL_EVENTS_END, MODIFIED, Bookmark, WatchEvent
from kgen.runtime.tools.pager import PAGE_SIZE, ListPager
from kgen.runtime.util.wait import Backoff, DelayWithReset

__all__ = [
    "BACKOFF", "INITIAL_EVENTS_END", "MIN_WATCH_TIMEOUT", "RELIST", "RETRY", "REWATCH", "VERY_SHORT_WATCH",
    "WATCH_LIST_CLIENT_ENV", "ListOptions", "ReflectorBackoff", "ReflectorState", "ReflectorStore",
    "VeryShortWatchError", "WatchErrorHandler", "WatchSession", "default_watch_error_handler",
    "is_connection_refused", "is_too_large_resource_version", "reflector_backoff", "watch_list_client_enabled",
]

log = logging.getLogger("kgen.runtime.tools.cache.reflector")

MIN_WATCH_TIMEOUT = 300.0
"""client-go's defaultMinWatchTimeout: each watch asks for a timeout in [min, 2*min) seconds."""
VERY_SHORT_WATCH = 1.0
"""A watch ending sooner than this (seconds) without an event is an error."""

REWATCH = "rewatch"
"""What a watch's end leads to: open a watch again from the last resourceVersion."""
BACKOFF = "backoff"
"""What a watch's end leads to: wait the backoff, then open the watch again."""
RELIST = "relist"
"""What a watch's end leads to: list again (the watch failed, or ended at once with no event)."""
RETRY = "retry"
"""What a failed watch-list leads to: open it again at once, from resourceVersion ""."""
WATCH_LIST_CLIENT_ENV = "KUBE_FEATURE_WatchListClient"
"""client-go's switch for WatchList in reflectors: the WatchListClient feature gate, read from
the environment as client-go reads it (on by default since client-go 1.35)."""
_TRUE, _FALSE = {"1", "t", "T", "TRUE", "true", "True"}, {"0", "f", "F", "FALSE", "false", "False"}

ListOptions = Callable[[dict[str, Any]], dict[str, Any]]
"""Changes the options of each list and watch."""
WatchErrorHandler = Callable[[BaseException], None]
"""Called with each list or watch failure."""


class ReflectorStore(Protocol):
    """What a reflector writes to: a DeltaFIFO, or a plain Store."""

    def add(self, obj: Any) -> None:
        """Add ``obj`` (a watch's ADDED event)."""
    def update(self, obj: Any) -> None:
        """Update ``obj`` (a watch's MODIFIED event)."""
    def delete(self, obj: Any) -> None:
        """Delete ``obj`` (a watch's DELETED event)."""
    def replace(self, objects: list[Any], resource_version: str) -> None:
        """Replace the contents with a list's objects, at ``resource_version``."""
    def resync(self) -> None:
        """Resync: hand the known objects out again."""


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
    """Whether ``error`` (or an error it was raised from) is a refused connection."""
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


ReflectorBackoff = DelayWithReset
"""The reflector's backoff between attempts (client-go's backoffManager)."""


def reflector_backoff(
    initial: float = 0.8, cap: float = 30.0, *, reset_after: float = 120.0,
    clock: Callable[[], float] = time.monotonic, rng: random.Random | None = None,
) -> ReflectorBackoff:
    """client-go's reflector backoff: 0.8 s doubling to 30 s, full jitter (each delay d becomes
    [d, 2d)), starting over every 2 minutes."""
    return ReflectorBackoff(
        Backoff(duration=initial, factor=2.0, jitter=1.0, cap=cap), reset_after=reset_after, clock=clock, rng=rng
    )


def watch_list_client_enabled() -> bool:
    """client-go's WatchListClient feature gate: ``KUBE_FEATURE_WatchListClient`` if it holds a
    boolean as Go's strconv.ParseBool reads one, else on (the default since client-go 1.35)."""
    value = os.environ.get(WATCH_LIST_CLIENT_ENV)
    if value is None or value in _TRUE:
        return True
    if value in _FALSE:
        return False
    log.error("could not set feature gate WatchListClient to %r: not a boolean; it stays on", value)
    return True


@dataclass
class WatchSession:
    """One reading of a watch stream (client-go's handleAnyWatch): the store its events go to,
    and what they said. A watch-list session fills a temporary store and ends at the bookmark
    annotated ``k8s.io/initial-events-end``, leaving the stream open for the watch that follows."""

    store: ReflectorStore
    propagate_resource_version: bool = True
    """Record every event's resourceVersion as the reflector's. False when the watch started at
    "" or "0": its synthetic ADDED events come in no resourceVersion order, so only an event
    after them (anything but ADDED) tells where the watch is."""
    watch_list: bool = False
    events: int = 0
    past_initial_adds: bool = False
    """An event other than ADDED came: the synthetic initial events are over."""
    initial_events_end: bool = False
    resource_version: str = ""
    """A watch-list's resourceVersion: the last one seen past the initial ADDED events."""

    @property
    def keeps_stream(self) -> bool:
        """The watch-list's initial events ended: the stream stays open for the watch."""
        return self.watch_list and self.initial_events_end


@dataclass
class ReflectorState:
    """What to ask the server next, and what each answer means (client-go's rules)."""

    last_sync_resource_version: str = ""
    resource_version_unavailable: bool = False
    """The last list or watch said the resourceVersion is gone (410) or not there yet (too large)."""
    paginated_result: bool = False
    """The first list (resourceVersion "0") came back in pages: there is no watch cache to spare."""
    page_size: int = 0
    """client-go's WatchListPageSize: a page size to use for every list; 0 leaves it to the rules."""
    min_watch_timeout: float = MIN_WATCH_TIMEOUT
    rng: random.Random = field(default_factory=random.Random)

    def list_resource_version(self) -> str:
        """The resourceVersion of the next list: "" (a consistent read) after an unavailable one, else
        the last synced one, or "0" (from the watch cache) at first."""
        if self.resource_version_unavailable:
            return ""  # a consistent read re-establishes where the server is
        return self.last_sync_resource_version or "0"

    def page_limit(self, resource_version: str) -> int:
        """The page size of a list at ``resource_version``: ``page_size`` if set, else the default size
        when the list is paged (results came paged, or a "" or "0" read), else 0 (unpaged)."""
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
        """Record a finished list: its resourceVersion, and whether a "0" list came back in pages."""
        if requested == "0" and pager.paginated:
            self.paginated_result = True
        self.resource_version_unavailable = False
        self.last_sync_resource_version = pager.list_resource_version

    def rewatch_resource_version(self) -> str:
        """Where a watch-list starts: the last resourceVersion seen, or "" (the newest, a
        consistent read) when that one is gone or not there yet."""
        return "" if self.resource_version_unavailable else self.last_sync_resource_version

    def _timeout_seconds(self) -> int:
        return int(self.min_watch_timeout * (1 + self.rng.random()))

    def watch_options(self) -> dict[str, Any]:
        """The options of a watch from the last synced resourceVersion, with bookmarks and a random
        timeout."""
        return {
            "resource_version": self.last_sync_resource_version,
            "allow_watch_bookmarks": True,
            "timeout_seconds": self._timeout_seconds(),
        }

    def watch_list_options(self) -> dict[str, Any]:
        """client-go's watchList request: the initial state as ADDED events, ended by a bookmark."""
        return {
            "resource_version": self.rewatch_resource_version(),
            "allow_watch_bookmarks": True,
            "send_initial_events": True,
            "resource_version_match": "NotOlderThan",
            "timeout_seconds": self._timeout_seconds(),
        }

    def watch_list_failed(self, error: BaseException) -> str | None:
        """What a failed watch-list leads to: BACKOFF (then open it again), RETRY at once from
        resourceVersion "" (the one asked for expired, or is not there yet), or None: give up
        and fall back to a list."""
        if self.watch_start_retriable(error):
            return BACKOFF
        if isinstance(error, Gone) or is_too_large_resource_version(error):
            self.resource_version_unavailable = True
            return RETRY
        return None

    def watch_listed(self, resource_version: str) -> None:
        """Record a finished watch-list at ``resource_version``."""
        self.resource_version_unavailable = False
        self.last_sync_resource_version = resource_version

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

    def apply(self, event: WatchEvent[Any] | Bookmark, store: ReflectorStore) -> None:
        """One event of a plain watch into ``store``."""
        self.handle(event, WatchSession(store))

    def handle(self, event: WatchEvent[Any] | Bookmark, session: WatchSession) -> bool:
        """One event into the session's store, as client-go's handleAnyWatch applies it; True
        when it ended a watch-list's initial events. A store that fails is logged, and the
        watch goes on; so does an event of a type no watch sends."""
        store = session.store
        if isinstance(event, Bookmark):
            session.past_initial_adds = True
            session.initial_events_end = session.initial_events_end or event.initial_events_end
            return self._seen(event.resource_version, store, session)
        obj = event.object
        try:
            if event.type == ADDED:
                store.add(obj)
            elif event.type == MODIFIED:
                session.past_initial_adds = True
                store.update(obj)
            elif event.type == DELETED:
                session.past_initial_adds = True
                store.delete(obj)
            else:
                log.error("unknown watch event type %r", event.type)
        except Exception:  # noqa: BLE001 - client-go logs a store error and goes on watching
            log.exception("unable to apply a %s watch event to the store", event.type)
        return self._seen(resource_version_of(obj), store, session)

    def _seen(self, rv: str, store: ReflectorStore, session: WatchSession) -> bool:
        """After an event of resourceVersion ``rv``: where the watch has got to."""
        session.events += 1
        if session.watch_list:
            if session.past_initial_adds:
                session.resource_version = rv
            return session.initial_events_end
        if rv and (session.propagate_resource_version or session.past_initial_adds):
            self.last_sync_resource_version = rv
            update_resource_version = getattr(store, "update_resource_version", None)
            if callable(update_resource_version):
                update_resource_version(rv)
        return False
