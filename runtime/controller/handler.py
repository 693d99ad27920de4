"""controller-runtime's pkg/handler: from an event to the requests it enqueues.

- ``EnqueueRequestForObject``: the object's own namespace/name (``for_`` watches).
- ``EnqueueRequestForOwner(owner_model, only_controller=True)``: the owners of the object that are
  of ``owner_model``'s API group and kind (any version), read from its ownerReferences; with
  ``only_controller`` (``owns``' default, controller-runtime's OnlyControllerOwner) only the one
  with ``controller: true``. An update enqueues the owners of both the old and the new object, so
  an object handed from one owner to another wakes both. A cluster-scoped owner's request has
  no namespace; a namespaced owner's is the object's namespace (owners share it).
- ``EnqueueRequestsFromMapFunc(mapper)``: whatever ``mapper(obj)`` returns (``watches``); an
  update maps both objects.

Requests are added with the queue's ``add``: a burst of events for one object is one reconcile.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Generic, Protocol, TypeVar

from kgen.runtime.apimachinery.meta import name_of, namespace_of
from kgen.runtime.controller.event import CreateEvent, DeleteEvent, GenericEvent, UpdateEvent
from kgen.runtime.controller.reconcile import Request
from kgen.runtime.controller.cluster.scheme import resource_for

__all__ = [
    "EnqueueRequestForObject", "EnqueueRequestForOwner", "EnqueueRequestsFromMapFunc", "EventHandler", "Queue",
]

T = TypeVar("T")


class Queue(Protocol):
    """Where an event handler adds requests: the controller's workqueue."""

    def add(self, item: Request) -> None:
        """Queue ``item`` (once, if it is already waiting)."""


class EventHandler(Generic[T]):
    """Turns each kind of event into requests; subclasses say which (``requests_for``)."""

    def requests_for(self, obj: T) -> Iterable[Request]:
        """The requests an event on ``obj`` makes; subclasses say which."""
        raise NotImplementedError

    def create(self, event: CreateEvent[T], queue: Queue) -> None:
        """Queue the created object's requests."""
        self._add(queue, self.requests_for(event.object))

    def update(self, event: UpdateEvent[T], queue: Queue) -> None:
        """Queue the requests of both the old and the new object."""
        self._add(queue, [*self.requests_for(event.object_old), *self.requests_for(event.object_new)])

    def delete(self, event: DeleteEvent[T], queue: Queue) -> None:
        """Queue the deleted object's requests."""
        self._add(queue, self.requests_for(event.object))

    def generic(self, event: GenericEvent[T], queue: Queue) -> None:
        """Queue the requests of a generic event's object."""
        self._add(queue, self.requests_for(event.object))

    @staticmethod
    def _add(queue: Queue, requests: Iterable[Request]) -> None:
        for request in dict.fromkeys(requests):  # each once, in order
            queue.add(request)


class EnqueueRequestForObject(EventHandler[Any]):
    """Queues a request for the object of each event (handler.EnqueueRequestForObject)."""

    def requests_for(self, obj: Any) -> Iterable[Request]:
        """The object's own namespace/name (nothing for an object without a name)."""
        name = name_of(obj)
        return [Request(namespace_of(obj), name)] if name else []

    def update(self, event: UpdateEvent[Any], queue: Queue) -> None:
        # controller-runtime enqueues the new object (the old one if there is no new one).
        """Queue the new object's request (the old one's when there is no new one), as
        controller-runtime does."""
        self._add(queue, self.requests_for(event.object_new if event.object_new is not None else event.object_old))


class EnqueueRequestForOwner(EventHandler[Any]):
    """Queues a request for the owner of each event's object, of ``owner_model``'s kind
    (handler.EnqueueRequestForOwner); with ``only_controller``, only the controlling owner."""

    def __init__(self, owner_model: type[Any], *, only_controller: bool = True) -> None:
        resource = resource_for(owner_model)
        self.group, self.kind = resource.info.group, resource.info.kind
        self.owner_namespaced = resource.info.namespaced
        self.only_controller = only_controller

    def requests_for(self, obj: Any) -> Iterable[Request]:
        """A request for each owner reference of the owner's group and kind (the first with
        ``controller: true`` only, if ``only_controller``), in the object's namespace for a namespaced
        owner."""
        metadata = getattr(obj, "metadata", None)
        refs = (getattr(metadata, "owner_references", None) or []) if metadata is not None else []
        if self.only_controller:
            refs = [ref for ref in refs if ref.controller][:1]  # metav1.GetControllerOf: the first
        namespace = namespace_of(obj) if self.owner_namespaced else ""
        return [
            Request(namespace, ref.name) for ref in refs
            if ref.kind == self.kind and ref.api_version.rpartition("/")[0] == self.group
        ]


class EnqueueRequestsFromMapFunc(EventHandler[T]):
    """Queues the requests ``mapper`` makes of each event's object (handler.EnqueueRequestsFromMapFunc)."""

    def __init__(self, mapper: Callable[[T], Iterable[Request]]) -> None:
        self.mapper = mapper

    def requests_for(self, obj: T) -> Iterable[Request]:
        """What ``mapper`` returns for ``obj``."""
        return self.mapper(obj)
