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
from kgen.runtime.controller.scheme import resource_for

__all__ = [
    "EnqueueRequestForObject", "EnqueueRequestForOwner", "EnqueueRequestsFromMapFunc", "EventHandler", "Queue",
]

T = TypeVar("T")


class Queue(Protocol):
    def add(self, item: Request) -> None: ...


class EventHandler(Generic[T]):
    """Turns each kind of event into requests; subclasses say which (``requests_for``)."""

    def requests_for(self, obj: T) -> Iterable[Request]:
        raise NotImplementedError

    def create(self, event: CreateEvent[T], queue: Queue) -> None:
        self._add(queue, self.requests_for(event.object))

    def update(self, event: UpdateEvent[T], queue: Queue) -> None:
        self._add(queue, [*self.requests_for(event.object_old), *self.requests_for(event.object_new)])

    def delete(self, event: DeleteEvent[T], queue: Queue) -> None:
        self._add(queue, self.requests_for(event.object))

    def generic(self, event: GenericEvent[T], queue: Queue) -> None:
        self._add(queue, self.requests_for(event.object))

    @staticmethod
    def _add(queue: Queue, requests: Iterable[Request]) -> None:
        for request in dict.fromkeys(requests):  # each once, in order
            queue.add(request)


class EnqueueRequestForObject(EventHandler[Any]):
    def requests_for(self, obj: Any) -> Iterable[Request]:
        name = name_of(obj)
        return [Request(namespace_of(obj), name)] if name else []

    def update(self, event: UpdateEvent[Any], queue: Queue) -> None:
        # controller-runtime enqueues the new object (the old one if there is no new one).
        self._add(queue, self.requests_for(event.object_new if event.object_new is not None else event.object_old))


class EnqueueRequestForOwner(EventHandler[Any]):
    def __init__(self, owner_model: type[Any], *, only_controller: bool = True) -> None:
        resource = resource_for(owner_model)
        self.group, self.kind = resource.info.group, resource.info.kind
        self.owner_namespaced = resource.info.namespaced
        self.only_controller = only_controller

    def requests_for(self, obj: Any) -> Iterable[Request]:
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
    def __init__(self, mapper: Callable[[T], Iterable[Request]]) -> None:
        self.mapper = mapper

    def requests_for(self, obj: T) -> Iterable[Request]:
        return self.mapper(obj)
