"""The end of a controller's retry limit: a terminal condition on the object's status.

    controller_managed_by(manager).for_(Foo).with_options(
        max_retries=5, on_give_up=give_up_with_condition(manager.client, Foo),
    ).complete(FooReconciler(manager.client))

When a request has failed ``max_retries`` times in a row the controller stops requeuing it
(controller.py) and calls ``on_give_up(request, error)``. ``give_up_with_condition`` makes that
hook: it reads the object from the server and sets one metav1 condition, by default
``Ready=False`` with reason ``RetryLimitExceeded`` and the last error as message (observedGeneration
the object's generation), through ``conditions.set_status_condition`` (so ``lastTransitionTime``
moves only when the status does), then writes the status subresource, retried on Conflict. Users
and other controllers then see why the object is stuck; a change to it (a new event) starts a
fresh count. An object already deleted is left alone.

The condition class is the one the model's ``status.conditions`` is declared with (metav1's
``Condition`` of the model's own generated package, or a CRD's own), so any model with a
``status.conditions`` list of conditions works.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, TypeVar

import msgspec

from kgen.runtime.apimachinery.errors import Conflict, NotFound
from kgen.runtime.apimachinery.model import Model
from kgen.runtime.controller.conditions import set_status_condition
from kgen.runtime.controller.reconcile import Request
from kgen.runtime.util.retry import DEFAULT_RETRY, retry_on_conflict

if TYPE_CHECKING:
    from kgen.runtime.controller.cluster.async_client import AsyncClient
    from kgen.runtime.controller.cluster.client import Client

__all__ = ["REASON_RETRY_LIMIT_EXCEEDED", "async_give_up_with_condition", "give_up_with_condition", "with_terminal_condition"]

T = TypeVar("T", bound=Model)

REASON_RETRY_LIMIT_EXCEEDED = "RetryLimitExceeded"
"""The condition reason ``give_up_with_condition`` writes by default."""


def _struct_class(annotation: Any) -> type[msgspec.Struct] | None:
    """The Struct class a field's type names (``X | None``, ``list[X] | None``: X)."""
    info = msgspec.inspect.type_info(annotation) if not isinstance(annotation, msgspec.inspect.Type) else annotation
    if isinstance(info, msgspec.inspect.StructType):
        return info.cls
    if isinstance(info, msgspec.inspect.UnionType):
        for member in info.types:
            found = _struct_class(member)
            if found is not None:
                return found
    if isinstance(info, msgspec.inspect.ListType):
        return _struct_class(info.item_type)
    return None


def _field_class(cls: type[Any], field: str) -> type[msgspec.Struct]:
    info = msgspec.inspect.type_info(cls)
    assert isinstance(info, msgspec.inspect.StructType)
    for f in info.fields:
        if f.name == field:
            found = _struct_class(f.type)
            if found is not None:
                return found
    raise TypeError(f"{cls.__name__} has no {field} of a struct type: cannot write a terminal condition on it")


def with_terminal_condition(
    obj: T, message: str, *, condition_type: str = "Ready", status: str = "False", reason: str = REASON_RETRY_LIMIT_EXCEEDED,
) -> tuple[T, bool]:
    """``obj`` with the condition set on ``status.conditions`` (apimachinery's rules), and whether
    anything changed."""
    status_class = _field_class(type(obj), "status")
    current_status = getattr(obj, "status", None) or status_class()
    condition_class = _field_class(status_class, "conditions")
    generation = getattr(getattr(obj, "metadata", None), "generation", None)
    condition = condition_class(
        type=condition_type, status=status, reason=reason, message=message, observed_generation=generation,
        last_transition_time="",
    )
    conditions, changed = set_status_condition(getattr(current_status, "conditions", None), condition)
    if not changed:
        return obj, False
    new_status = msgspec.structs.replace(current_status, conditions=conditions)
    return msgspec.structs.replace(obj, status=new_status), True


def _message(request: Request, error: BaseException, attempts: int | None) -> str:
    tried = f" after {attempts} failed attempts" if attempts else ""
    return f"gave up reconciling {request}{tried}: {error}"


def give_up_with_condition(
    client: Client, model: type[T], *, condition_type: str = "Ready", reason: str = REASON_RETRY_LIMIT_EXCEEDED,
    attempts: int | None = None,
) -> Callable[[Request, BaseException], None]:
    """An ``on_give_up`` hook writing the terminal condition (module docstring) with ``client``;
    ``attempts`` (the controller's ``max_retries``) is quoted in the message."""

    def on_give_up(request: Request, error: BaseException) -> None:
        def attempt() -> None:
            try:
                obj = client.api_reader.get(model, request.name, request.namespace or None)
            except NotFound:
                return
            changed_obj, changed = with_terminal_condition(
                obj, _message(request, error, attempts), condition_type=condition_type, reason=reason,
            )
            if changed:
                client.update_status(changed_obj)

        retry_on_conflict(attempt)

    return on_give_up


def async_give_up_with_condition(
    client: AsyncClient, model: type[T], *, condition_type: str = "Ready", reason: str = REASON_RETRY_LIMIT_EXCEEDED,
    attempts: int | None = None,
) -> Callable[[Request, BaseException], Awaitable[None]]:
    """``give_up_with_condition`` for the asyncio manager's client (a coroutine-function hook)."""

    async def on_give_up(request: Request, error: BaseException) -> None:
        delays = DEFAULT_RETRY.delays()
        for step in range(DEFAULT_RETRY.steps):
            try:
                obj = await client.api_reader.get(model, request.name, request.namespace or None)
            except NotFound:
                return
            changed_obj, changed = with_terminal_condition(
                obj, _message(request, error, attempts), condition_type=condition_type, reason=reason,
            )
            if not changed:
                return
            try:
                await client.update_status(changed_obj)
                return
            except Conflict:
                if step == DEFAULT_RETRY.steps - 1:
                    raise
                await asyncio.sleep(delays[step])  # read again and retry, as retry.RetryOnConflict does

    return on_give_up
