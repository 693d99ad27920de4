"""controller-runtime's pkg/source: where a controller's events come from.

- ``Kind``: a shared informer's events (controller-runtime's source.Kind). Its event handler is
  added when the controller starts, which on a manager with leader election is when this replica
  leads; the informer then replays what its cache holds as creates (client-go's late handler),
  so a new leader reconciles every object once, as controller-runtime's does. A delete seen only
  as a relist's tombstone is unwrapped into a ``DeleteEvent`` with ``delete_state_unknown``.
- ``Channel``: events from outside the cluster (``send(obj)``), as ``GenericEvent``s; what is
  sent before the controller starts waits for it. ``send`` may come from any thread for a thread
  controller; for an ``AsyncController`` it must come from the event loop's thread (its queue is
  asyncio's).

Every event passes the source's predicates (all must agree) before its handler enqueues requests.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Generic, Protocol, TypeVar

from kgen.runtime.controller.event import CreateEvent, DeleteEvent, GenericEvent, UpdateEvent
from kgen.runtime.controller.handler import EventHandler, Queue
from kgen.runtime.controller.predicate import Predicate
from kgen.runtime.tools.cache.delta_fifo import DeletedFinalStateUnknown
from kgen.runtime.tools.cache.shared_informer import HandlerRegistration

__all__ = ["Channel", "Informer", "Kind", "Source"]

T = TypeVar("T")


class Source(Protocol):
    """Where a controller's events come from: started with the controller's queue, stopped with it."""

    def start(self, queue: Queue) -> None:
        """Begin adding requests to ``queue``."""

    def has_synced(self) -> bool:
        """Whether the source has delivered its initial events (the controller starts its workers
        after)."""

    def stop(self) -> None:
        """Stop adding requests."""


T_co = TypeVar("T_co", covariant=True)


class Informer(Protocol[T_co]):
    """What a Kind source needs of a shared informer, either flavour's."""

    def add_event_handler(
        self,
        on_add: Callable[[T_co], object] | None = None,
        on_update: Callable[[T_co, T_co], object] | None = None,
        on_delete: Callable[[T_co | DeletedFinalStateUnknown[T_co]], object] | None = None,
        *,
        resync_period: float | None = None,
    ) -> HandlerRegistration:
        """Register handlers for the informer's events; returns their registration."""


class Kind(Generic[T]):
    """The events of a shared informer: threads' ``SharedIndexInformer`` or asyncio's
    ``AsyncSharedIndexInformer`` (its handlers then run on the informer's loop)."""

    def __init__(self, informer: Informer[T], handler: EventHandler[T], predicates: Sequence[Predicate[T]] = ()) -> None:
        self.informer, self.handler, self.predicates = informer, handler, tuple(predicates)
        self._registration: HandlerRegistration | None = None

    def start(self, queue: Queue) -> None:
        """Register the handler (filtered by the predicates) with the informer; a source starts once."""
        if self._registration is not None:
            raise RuntimeError("the source was already started")
        handler, predicates = self.handler, self.predicates

        def on_add(obj: T) -> None:
            event = CreateEvent(obj)
            if all(p.create(event) for p in predicates):
                handler.create(event, queue)

        def on_update(old: T, new: T) -> None:
            event = UpdateEvent(old, new)
            if all(p.update(event) for p in predicates):
                handler.update(event, queue)

        def on_delete(obj: T | DeletedFinalStateUnknown[T]) -> None:
            event = (DeleteEvent(obj.obj, delete_state_unknown=True) if isinstance(obj, DeletedFinalStateUnknown)
                     else DeleteEvent(obj))
            if all(p.delete(event) for p in predicates):
                handler.delete(event, queue)

        self._registration = self.informer.add_event_handler(on_add=on_add, on_update=on_update, on_delete=on_delete)

    def has_synced(self) -> bool:
        # The handler has seen the whole initial list (not only the informer's cache filled).
        """Whether the handler has seen the informer's whole initial list."""
        return self._registration is not None and self._registration.has_synced()

    def stop(self) -> None:
        """Remove the handler from the informer."""
        if self._registration is not None:
            self._registration.remove()


class Channel(Generic[T]):
    """Made by the user, then given to ``Builder.watches(channel, mapper)``, which binds its
    handler and predicates."""

    def __init__(self) -> None:
        self.handler: EventHandler[T] | None = None
        self.predicates: tuple[Predicate[T], ...] = ()
        self._lock = threading.Lock()
        self._queue: Queue | None = None
        self._pending: list[T] = []

    def bind(self, handler: EventHandler[T], predicates: Sequence[Predicate[T]] = ()) -> None:
        """Set the handler and predicates (``Builder.watches`` does); a channel is watched by one
        controller."""
        if self.handler is not None:
            raise RuntimeError("the channel source is already watched by a controller")
        self.handler, self.predicates = handler, tuple(predicates)

    def send(self, obj: T) -> None:
        """Hands ``obj`` on as a GenericEvent (now, or when the controller starts)."""
        with self._lock:
            if self._queue is None:
                self._pending.append(obj)
                return
            queue = self._queue
        self._dispatch(obj, queue)

    def _dispatch(self, obj: T, queue: Queue) -> None:
        event: GenericEvent[T] = GenericEvent(obj)
        if self.handler is not None and all(p.generic(event) for p in self.predicates):
            self.handler.generic(event, queue)

    def start(self, queue: Queue) -> None:
        """Dispatch objects sent before the start, then each one sent as it comes."""
        if self.handler is None:
            raise RuntimeError("the channel source was never bound to a controller (Builder.watches)")
        with self._lock:
            self._queue, pending, self._pending = queue, self._pending, []
        for obj in pending:
            self._dispatch(obj, queue)

    def has_synced(self) -> bool:
        """Always True: a channel has no initial list."""
        return True

    def stop(self) -> None:
        """Stop dispatching: objects sent later wait, as before a start."""
        with self._lock:
            self._queue = None
