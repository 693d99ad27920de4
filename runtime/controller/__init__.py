"""controller-runtime for kgen: a Manager, a builder, reconcilers, and their helpers (threads).

    from kgen.controller import Manager, Request, Result, controller_managed_by, webhook_managed_by

    class FooReconciler:
        def __init__(self, client: Client) -> None:
            self.client = client

        def reconcile(self, request: Request) -> Result | None:
            foo = self.client.get(Foo, request.name, request.namespace)   # from the cache
            ...                                                            # writes: the server
            return None                                                    # done (forget)

    manager = Manager(config, health_probe_address=":8081", metrics_address=":8080")
    controller_managed_by(manager).for_(Foo).owns(Deployment).complete(FooReconciler(manager.client))
    webhook_managed_by(manager).for_(Foo).with_validator(FooValidator()).complete()   # :9443
    manager.start()

One module per controller-runtime package: ``manager``, ``builder``, ``controller`` (the worker
loop) with ``outcome`` (reconcileHandler's rules, I/O-free), ``reconcile``, ``event``,
``handler``, ``predicate``, ``source``, ``cache``, ``client``, ``scheme`` (model class →
resource), ``controllerutil`` (owner references, finalizers), ``conditions``, ``metrics``,
``probes`` and ``server`` (their HTTP endpoints), ``webhook_builder`` (webhooks served by the
manager, controller-runtime's paths). The asyncio flavour has the same names with
``Async`` (``AsyncManager``, ``async_controller_managed_by``, ``AsyncController``, ``AsyncClient``,
``AsyncCache``), reconcile awaited; the logic both share is written once (``ControllerCore``,
``outcome``, ``ManagerCore``, ``_BuilderCore``, and the I/O-free modules).
"""

from kgen.runtime.controller.async_controller import AsyncController
from kgen.runtime.controller.builder import AsyncBuilder, Builder, async_controller_managed_by, controller_managed_by
from kgen.runtime.controller.cluster.async_cache import AsyncCache
from kgen.runtime.controller.cluster.async_client import AsyncAPIReader, AsyncClient
from kgen.runtime.controller.cluster.cache import Cache, CacheSyncTimeout, ResourceNotCachedError
from kgen.runtime.controller.cluster.client import APIReader, Client
from kgen.runtime.controller.cluster.field_index import IndexNotFoundError
from kgen.runtime.controller.cluster.informers import UnknownNamespaceError
from kgen.runtime.controller.cluster.options import ByObject, CacheOptions, strip_managed_fields
from kgen.runtime.controller.cluster.scheme import NotAResourceError, Resource, resource_for
from kgen.runtime.controller.conditions import (
    find_status_condition,
    is_status_condition_false,
    is_status_condition_true,
    remove_status_condition,
    set_status_condition,
)
from kgen.runtime.controller.controller import Controller
from kgen.runtime.controller.controllerutil import (
    AlreadyOwnedError,
    add_finalizer,
    add_finalizer_and_update,
    async_add_finalizer_and_update,
    async_remove_finalizer_and_update,
    contains_finalizer,
    get_controller_of,
    has_controller_reference,
    is_controlled_by,
    remove_finalizer,
    remove_finalizer_and_update,
    remove_owner_reference,
    set_controller_reference,
    set_owner_reference,
)
from kgen.runtime.controller.event import CreateEvent, DeleteEvent, GenericEvent, UpdateEvent
from kgen.runtime.controller.handler import (
    EnqueueRequestForObject,
    EnqueueRequestForOwner,
    EnqueueRequestsFromMapFunc,
    EventHandler,
)
from kgen.runtime.controller.manager.async_manager import AsyncManager
from kgen.runtime.controller.manager.manager import LeaderElectionLost, Manager
from kgen.runtime.controller.predicate import (
    AnnotationChangedPredicate,
    Funcs,
    GenerationChangedPredicate,
    LabelChangedPredicate,
    Predicate,
    ResourceVersionChangedPredicate,
    and_,
    new_predicate_funcs,
    not_,
    or_,
)
from kgen.runtime.controller.reconcile import AsyncReconciler, Reconciler, Request, Result, TerminalError
from kgen.runtime.controller.source import Channel, Kind
from kgen.runtime.controller.webhook_builder import WebhookBuilder, webhook_managed_by

__all__ = [
    "APIReader", "AlreadyOwnedError", "AsyncAPIReader", "AsyncBuilder", "AsyncCache", "AsyncClient",
    "AsyncController", "AsyncManager", "AsyncReconciler", "async_add_finalizer_and_update",
    "async_controller_managed_by", "async_remove_finalizer_and_update", "AnnotationChangedPredicate", "Builder", "Cache",
    "CacheSyncTimeout", "Channel",
    "Client", "Controller", "CreateEvent", "DeleteEvent", "EnqueueRequestForObject", "EnqueueRequestForOwner",
    "EnqueueRequestsFromMapFunc", "EventHandler", "Funcs", "GenerationChangedPredicate", "GenericEvent", "Kind",
    "LabelChangedPredicate", "LeaderElectionLost", "Manager", "NotAResourceError", "Predicate", "Reconciler",
    "Request", "Resource", "ResourceVersionChangedPredicate", "Result", "TerminalError", "UpdateEvent",
    "add_finalizer", "add_finalizer_and_update", "and_", "contains_finalizer", "controller_managed_by",
    "find_status_condition", "get_controller_of", "has_controller_reference", "is_controlled_by",
    "is_status_condition_false", "is_status_condition_true", "new_predicate_funcs", "not_", "or_",
    "remove_finalizer", "remove_finalizer_and_update", "remove_owner_reference", "remove_status_condition",
    "resource_for", "set_controller_reference", "set_owner_reference", "set_status_condition",
    "WebhookBuilder", "webhook_managed_by",
    "ByObject", "CacheOptions", "IndexNotFoundError", "ResourceNotCachedError", "UnknownNamespaceError", "strip_managed_fields",
]
