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
``probes`` and ``server`` (their HTTP endpoints, ``debug`` stacks), ``runnable`` (``manager.add``),
``webhook_builder`` (webhooks served by the manager, controller-runtime's paths); the cache's
``options``, ``informers`` and ``field_index`` (``CacheOptions``, ``manager.index_field``) and
``patch`` (``merge_from``). ``patterns`` holds what controller-runtime users write by hand and
kopf users look for: ``create_or_update``, ``diff``, ``every`` and ``Daemon``, ``retry``'s
terminal condition. The asyncio flavour has the same names with
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
    LabelSelectorPredicate,
    GenerationChangedPredicate,
    LabelChangedPredicate,
    Predicate,
    ResourceVersionChangedPredicate,
    and_,
    new_predicate_funcs,
    not_,
    or_,
)
from kgen.runtime.controller.cluster.patch import MergeFrom, merge_from
from kgen.runtime.controller.manager.runnable import AsyncRunnable, LeaderElectionRunnable, Runnable
from kgen.runtime.controller.patterns.create_or_update import (
    MutateError,
    OperationResult,
    async_create_or_patch,
    async_create_or_update,
    create_or_patch,
    create_or_update,
)
from kgen.runtime.controller.patterns.daemon import AsyncDaemon, AsyncDaemonBody, Daemon, DaemonBody
from kgen.runtime.controller.patterns.diff import Change, diff
from kgen.runtime.controller.patterns.retry import (
    REASON_RETRY_LIMIT_EXCEEDED,
    async_give_up_with_condition,
    give_up_with_condition,
    with_terminal_condition,
)
from kgen.runtime.controller.patterns.timers import every
from kgen.runtime.controller.reconcile import (
    AsyncReconciler,
    ReconcileError,
    Reconciler,
    ReconcileTimeout,
    Request,
    Result,
    TerminalError,
    time_left,
)
from kgen.runtime.controller.source import Channel, Kind
from kgen.runtime.controller.webhook_builder import WebhookBuilder, webhook_managed_by

__all__ = [
    "add_finalizer", "add_finalizer_and_update", "AlreadyOwnedError", "and_", "AnnotationChangedPredicate",
    "APIReader", "async_add_finalizer_and_update", "async_controller_managed_by", "async_create_or_patch",
    "async_create_or_update", "async_give_up_with_condition", "async_remove_finalizer_and_update", "AsyncAPIReader",
    "AsyncBuilder", "AsyncCache", "AsyncClient", "AsyncController", "AsyncDaemon", "AsyncDaemonBody", "AsyncManager", "AsyncReconciler",
    "AsyncRunnable", "Builder", "ByObject", "Cache", "CacheOptions", "CacheSyncTimeout", "Change", "Channel",
    "Client", "contains_finalizer", "Controller", "controller_managed_by", "create_or_patch", "create_or_update",
    "CreateEvent", "Daemon", "DaemonBody", "DeleteEvent", "diff", "EnqueueRequestForObject", "EnqueueRequestForOwner",
    "EnqueueRequestsFromMapFunc", "EventHandler", "every", "find_status_condition", "Funcs",
    "GenerationChangedPredicate", "GenericEvent", "get_controller_of", "give_up_with_condition",
    "has_controller_reference", "IndexNotFoundError", "is_controlled_by", "is_status_condition_false",
    "is_status_condition_true", "Kind", "LabelChangedPredicate", "LabelSelectorPredicate", "LeaderElectionLost",
    "LeaderElectionRunnable", "Manager", "merge_from", "MergeFrom", "MutateError", "new_predicate_funcs", "not_",
    "NotAResourceError", "OperationResult", "or_", "Predicate", "REASON_RETRY_LIMIT_EXCEEDED", "ReconcileError",
    "Reconciler", "ReconcileTimeout", "remove_finalizer", "remove_finalizer_and_update", "remove_owner_reference",
    "remove_status_condition", "Request", "Resource", "resource_for", "ResourceNotCachedError",
    "ResourceVersionChangedPredicate", "Result", "Runnable", "set_controller_reference", "set_owner_reference",
    "set_status_condition", "strip_managed_fields", "TerminalError", "time_left", "UnknownNamespaceError",
    "UpdateEvent", "webhook_managed_by", "WebhookBuilder", "with_terminal_condition",
]
