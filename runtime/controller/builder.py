"""controller-runtime's pkg/builder: one controller, declared by what it watches.

    controller_managed_by(manager) \\
        .for_(Foo, predicates=[GenerationChangedPredicate()]) \\
        .owns(Deployment) \\
        .watches(ConfigMap, lambda cm: [Request(cm_ns, foo_name)]) \\
        .with_options(max_concurrent_reconciles=2) \\
        .complete(FooReconciler(manager.client))

- ``for_(Model)``: the reconciled type; its events enqueue the object itself. Exactly one.
- ``owns(Model)``: events of objects whose *controller* owner is a ``for_`` object enqueue that
  owner (``only_controller=False``: every owner of that kind).
- ``watches(Model | Channel, mapper)``: any other events, mapped to requests by ``mapper`` (or
  given an ``EventHandler``).
- ``only_metadata=True`` (``for_``, ``owns``, ``watches``): controller-runtime's ``builder.OnlyMetadata``:
  the kind is watched and cached as PartialObjectMetadata (its handlers, predicates and mapper
  get those; ``client.get_metadata``/``list_metadata`` read them), a fraction of the full
  objects' memory. A full read of the kind (``client.get``) starts a second, full informer.
- ``with_event_filter(p)``: a predicate for every watch; each watch also takes its own.
- ``named(name)``: the controller's name (metrics, queue, logs); default the lowercased kind of
  the ``for_`` type, as controller-runtime names it. Names are unique per manager.

``Builder`` builds thread controllers for a ``Manager``, ``AsyncBuilder``
(``async_controller_managed_by``) asyncio ones for an ``AsyncManager``, with the same calls.
The informers are asked for at ``complete``, so the manager's cache starts them (and syncs them
before leader election); their event handlers are added when the controller starts.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, Self, TypeVar

from kgen.runtime.apimachinery.model import Model
from kgen.runtime.controller.async_controller import AsyncController
from kgen.runtime.controller.controller import Controller, GiveUpHook, ReconcileFn
from kgen.runtime.controller.handler import (
    EnqueueRequestForObject,
    EnqueueRequestForOwner,
    EnqueueRequestsFromMapFunc,
    EventHandler,
)
from kgen.runtime.controller.predicate import Predicate
from kgen.runtime.controller.reconcile import AsyncReconciler, AsyncReconcilerFunc, Reconciler, Request
from kgen.runtime.controller.cluster.scheme import resource_for
from kgen.runtime.controller.source import Channel, Informer, Kind, Source
from kgen.runtime.util.workqueue import RateLimiter

if TYPE_CHECKING:
    from kgen.runtime.controller.manager.async_manager import AsyncManager
    from kgen.runtime.controller.manager.manager import Manager

__all__ = ["AsyncBuilder", "Builder", "async_controller_managed_by", "controller_managed_by"]

T = TypeVar("T", bound=Model)


class _BuilderCore:
    """The declarations, written once; a flavour says where informers come from and which
    controller it builds."""

    def __init__(self, manager: Manager | AsyncManager) -> None:
        self._manager = manager
        self._for: tuple[type[Any], tuple[Predicate[Any], ...]] | None = None
        self._watches: list[Callable[[tuple[Predicate[Any], ...]], Source]] = []
        self._global: list[Predicate[Any]] = []
        self._name: str | None = None
        self._max_concurrent_reconciles = 1
        self._rate_limiter: RateLimiter[Request] | None = None
        self._for_only_metadata = False
        self._options: dict[str, Any] = {}

    def _informer(self, model: type[T], only_metadata: bool = False) -> Informer[Any]:
        informer: Informer[Any] = self._manager.cache.informer_for(model, only_metadata=only_metadata)
        return informer

    def for_(self, model: type[T], *, predicates: Sequence[Predicate[Any]] = (), only_metadata: bool = False) -> Self:
        if self._for is not None:
            raise ValueError(f"for_() was already called with {self._for[0].__name__}: a controller reconciles one type")
        resource_for(model)  # a clear error now, not at start
        self._for = (model, tuple(predicates))
        self._for_only_metadata = only_metadata
        return self

    def owns(
        self, model: type[T], *, predicates: Sequence[Predicate[Any]] = (), only_controller: bool = True,
        only_metadata: bool = False,
    ) -> Self:
        resource_for(model)

        def source(global_predicates: tuple[Predicate[Any], ...]) -> Source:
            assert self._for is not None
            handler = EnqueueRequestForOwner(self._for[0], only_controller=only_controller)
            return Kind(self._informer(model, only_metadata), handler, (*global_predicates, *predicates))

        self._watches.append(source)
        return self

    def watches(
        self,
        source: type[T] | Channel[T],
        mapper: Callable[[T], Iterable[Request]] | EventHandler[T],
        *,
        predicates: Sequence[Predicate[T]] = (),
        only_metadata: bool = False,
    ) -> Self:
        handler: EventHandler[T] = mapper if isinstance(mapper, EventHandler) else EnqueueRequestsFromMapFunc(mapper)
        if isinstance(source, Channel):
            channel = source

            def bound(global_predicates: tuple[Predicate[Any], ...]) -> Source:
                channel.bind(handler, (*global_predicates, *predicates))
                return channel

            self._watches.append(bound)
            return self
        model = source
        resource_for(model)

        def kind(global_predicates: tuple[Predicate[Any], ...]) -> Source:
            return Kind(self._informer(model, only_metadata), handler, (*global_predicates, *predicates))

        self._watches.append(kind)
        return self

    def with_event_filter(self, predicate: Predicate[Any]) -> Self:
        self._global.append(predicate)
        return self

    def with_options(
        self, *, max_concurrent_reconciles: int | None = None, rate_limiter: RateLimiter[Request] | None = None,
        reconcile_timeout: float | None = None, recover_panic: bool | None = None, max_retries: int | None = None,
        on_give_up: GiveUpHook | None = None,
    ) -> Self:
        """controller.Options: workers, rate limiter, ``reconcile_timeout`` (seconds),
        ``recover_panic`` (default True), ``max_retries`` and ``on_give_up`` (see controller.py)."""
        for key, value in (("reconcile_timeout", reconcile_timeout), ("recover_panic", recover_panic),
                           ("max_retries", max_retries), ("on_give_up", on_give_up)):
            if value is not None:
                self._options[key] = value
        if max_concurrent_reconciles is not None:
            self._max_concurrent_reconciles = max_concurrent_reconciles
        if rate_limiter is not None:
            self._rate_limiter = rate_limiter
        return self

    def named(self, name: str) -> Self:
        self._name = name
        return self

    def _name_and_model(self) -> tuple[str, type[Any], tuple[Predicate[Any], ...]]:
        if self._for is None:
            raise ValueError("a controller needs for_(Model): the type it reconciles")
        model, for_predicates = self._for
        return self._name or resource_for(model).info.kind.lower(), model, for_predicates

    def _wire(self, controller: Controller | AsyncController) -> None:
        """Adds the watches to ``controller`` and the controller to the manager."""
        _, model, for_predicates = self._name_and_model()
        global_predicates = tuple(self._global)
        informer = self._informer(model, self._for_only_metadata)
        controller.watch(Kind(informer, EnqueueRequestForObject(), (*global_predicates, *for_predicates)))
        for make in self._watches:
            controller.watch(make(global_predicates))


class Builder(_BuilderCore):
    """The builder of a thread ``Manager``'s controllers."""

    _manager: Manager

    def __init__(self, manager: Manager) -> None:
        super().__init__(manager)

    def complete(self, reconciler: Reconciler | ReconcileFn) -> Controller:
        """Builds the controller and adds it to the manager."""
        name, _, _ = self._name_and_model()
        controller = Controller(
            name, reconciler, max_concurrent_reconciles=self._max_concurrent_reconciles,
            rate_limiter=self._rate_limiter, registry=self._manager.registry,
            cache_sync_timeout=self._manager.cache.sync_timeout, **self._options,
        )
        self._wire(controller)
        self._manager.add(controller)
        return controller


class AsyncBuilder(_BuilderCore):
    """The builder of an ``AsyncManager``'s controllers: ``complete`` takes an async reconciler."""

    _manager: AsyncManager

    def __init__(self, manager: AsyncManager) -> None:
        super().__init__(manager)

    def complete(self, reconciler: AsyncReconciler | AsyncReconcilerFunc) -> AsyncController:
        """Make the ``AsyncController`` for ``reconciler``, wire its sources and add it to the manager."""
        name, _, _ = self._name_and_model()
        controller = AsyncController(
            name, reconciler, max_concurrent_reconciles=self._max_concurrent_reconciles,
            rate_limiter=self._rate_limiter, registry=self._manager.registry,
            cache_sync_timeout=self._manager.cache.sync_timeout, **self._options,
        )
        self._wire(controller)
        self._manager.add(controller)
        return controller


def controller_managed_by(manager: Manager) -> Builder:
    """controller-runtime's ``ctrl.NewControllerManagedBy(mgr)``."""
    return Builder(manager)


def async_controller_managed_by(manager: AsyncManager) -> AsyncBuilder:
    """``controller_managed_by`` for an ``AsyncManager``."""
    return AsyncBuilder(manager)
