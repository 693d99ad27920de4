"""controllerutil's ``CreateOrUpdate`` and ``CreateOrPatch``, with the mutate-function contract.

    deployment = Deployment(metadata=ObjectMeta(name="web", namespace=ns))

    def mutate(d: Deployment) -> None:          # the desired state, set on what the server holds
        d.spec = desired_spec
        set_controller_reference(owner, d)      # or return a changed copy instead

    result = create_or_update(manager.client, deployment, mutate)   # OperationResult.CREATED, ...

The contract is controllerutil's: the object is read by its name and namespace (through the
client: the manager's client reads its cache). If absent, ``mutate`` fills it in and it is created
(``CREATED``). If present, ``mutate`` is applied to what was read; when the result is
semantically equal to it nothing is written (``UNCHANGED``), else it is updated (``UPDATED``).
``mutate`` must not change the name or namespace: that raises ``MutateError`` with controllerutil's
message, before any write. ``create_or_patch`` writes a merge patch instead of the whole object
and handles status as ``CreateOrPatch`` does: the object without status and the status are
compared apart, the first is patched (``UPDATED``), the status is patched through the status
subresource (``UPDATED_STATUS`` when both were, ``UPDATED_STATUS_ONLY`` when only it was); a
status set on a new object is not written (create it, then requeue).

As in Go, ``obj`` is updated in place: it holds what the server answered after the call (or what
was read, when unchanged). ``mutate`` is called with ``obj`` itself (a private copy of the cached
object, never the cache's own); it may change it in place and return ``None``, or return a changed
object of the same class (the functional helpers: ``set_controller_reference(owner, d)``), whose
fields are then copied into ``obj``.

"Semantically equal" is apimachinery's ``equality.Semantic.DeepEqual`` on the typed objects: a
missing list or map equals an empty one. Quantities and times are strings in kgen's models, so
they compare as written; the apiserver stores quantities canonically (``1Gi``, not ``1024Mi``),
so a ``mutate`` that writes a non-canonical form sees a change on every call, which Go would not.
"""

from __future__ import annotations

import copy
import enum
from collections.abc import Awaitable, Callable, Generator
from typing import TYPE_CHECKING, Any, TypeVar

import msgspec

from kgen.runtime.apimachinery.errors import NotFound
from kgen.runtime.apimachinery.meta import name_of, namespace_of
from kgen.runtime.apimachinery.model import Model
from kgen.runtime.controller.cluster.patch import merge_from

if TYPE_CHECKING:
    from kgen.runtime.controller.cluster.async_client import AsyncClient
    from kgen.runtime.controller.cluster.client import Client

__all__ = [
    "MutateError", "MutateFn", "OperationResult", "async_create_or_patch", "async_create_or_update", "create_or_patch",
    "create_or_update", "semantic_equal",
]

T = TypeVar("T", bound=Model)

MutateFn = Callable[[T], "T | None"]
"""Sets the desired state on the object it is given: in place (returning None), or returning a
changed object of the same class."""


class OperationResult(str, enum.Enum):
    """What ``create_or_update``/``create_or_patch`` did (controllerutil.OperationResult; the values
    complete "Deployment default/foo has been ...")."""

    UNCHANGED = "unchanged"
    CREATED = "created"
    UPDATED = "updated"
    UPDATED_STATUS = "updatedStatus"
    UPDATED_STATUS_ONLY = "updatedStatusOnly"


class MutateError(ValueError):
    """The mutate function changed the object's name or namespace."""


def semantic_equal(a: Any, b: Any) -> bool:
    """apimachinery's equality.Semantic.DeepEqual on kgen's models: structs field by field, lists
    and maps item by item, and a missing (None) list or map equal to an empty one."""
    if isinstance(a, msgspec.Struct) and isinstance(b, msgspec.Struct):
        if type(a) is not type(b):
            return False
        return all(semantic_equal(getattr(a, f), getattr(b, f)) for f in a.__struct_fields__)
    if a is None or b is None:
        other = b if a is None else a
        return other is None or (isinstance(other, (list, dict)) and not other)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(semantic_equal(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(semantic_equal(a[k], b[k]) for k in a)
    if _number(a) and _number(b):
        return bool(a == b)
    return type(a) is type(b) and bool(a == b)


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _fill(target: T, source: Model) -> None:
    """Copies every field of ``source`` into ``target`` (Go's ``*obj = *fetched``)."""
    if not isinstance(source, type(target)._BOOKKEEPING_OF or type(target)):
        raise TypeError(f"mutate must return a {type(target).__name__} (or None), not {type(source).__name__}")
    for field in type(target).__struct_fields__:
        setattr(target, field, getattr(source, field))


def _key(obj: Model) -> tuple[str, str]:
    return namespace_of(obj), name_of(obj)


def _check_mutated(returned: Model | None, key: tuple[str, str], obj: T) -> None:
    """controllerutil's mutate, after the mutate function ran on ``obj``: take a returned changed
    copy into ``obj``, then refuse a changed name or namespace."""
    if returned is not None and returned is not obj:
        _fill(obj, returned)
    if _key(obj) != key:
        raise MutateError("MutateFn cannot mutate object name and/or object namespace")


def _read_key(obj: Model) -> tuple[str, str | None]:
    namespace, name = _key(obj)
    if not name:
        raise ValueError(f"create_or_update/create_or_patch need the {type(obj).__name__}'s metadata.name")
    return name, namespace or None


def _without_status(obj: Model) -> tuple[dict[str, Any], Any, bool]:
    """The object as JSON without its status, the status, and whether it had one (CreateOrPatch's
    NestedFieldCopy + RemoveNestedField)."""
    data = obj.to_dict()
    has_status = "status" in data
    return data, data.pop("status", None), has_status


_Step = tuple[str, Any]
"""One I/O step of the shared core, answered by the sync or asyncio shell: ``("get", (model, name,
namespace))`` with the object or None when not found, ``("mutate", obj)`` with what the mutate
function returned (after it ran on ``obj``), ``("create", obj)`` / ``("update", obj)`` with the
server's answer, ``("patch", (obj, patch, subresource))`` with the server's answer."""

_Steps = Generator[_Step, Any, OperationResult]


def _steps(obj: T, patching: bool) -> _Steps:
    """CreateOrUpdate (``patching`` False) or CreateOrPatch: every decision, the I/O left to the shell."""
    name, namespace = _read_key(obj)
    key = _key(obj)
    current = yield "get", (type(obj), name, namespace)
    if current is None:
        _check_mutated((yield "mutate", obj), key, obj)
        _fill(obj, (yield "create", obj))
        return OperationResult.CREATED
    _fill(obj, copy.deepcopy(current))
    if not patching:
        existing = copy.deepcopy(obj)
        _check_mutated((yield "mutate", obj), key, obj)
        if semantic_equal(existing, obj):
            return OperationResult.UNCHANGED
        _fill(obj, (yield "update", obj))
        return OperationResult.UPDATED
    obj_patch, status_patch = merge_from(obj), merge_from(obj)
    before, before_status, had_status = _without_status(obj)
    _check_mutated((yield "mutate", obj), key, obj)
    after, after_status, has_status = _without_status(obj)
    desired_status = getattr(obj, "status", None)
    result = OperationResult.UNCHANGED
    if before != after:
        _fill(obj, (yield "patch", (obj, obj_patch, None)))
        result = OperationResult.UPDATED
    if (had_status or has_status) and before_status != after_status:
        if result is OperationResult.UPDATED:
            obj.status = desired_status  # type: ignore[attr-defined]  # the patch answered the stored status
        _fill(obj, (yield "patch", (obj, status_patch, "status")))
        result = OperationResult.UPDATED_STATUS if result is OperationResult.UPDATED else OperationResult.UPDATED_STATUS_ONLY
    return result


def _drive(client: Client, mutate: MutateFn[T] | None, steps: _Steps) -> OperationResult:
    """The sync shell: each step of ``steps`` done with ``client`` (or ``mutate``), its answer sent back."""
    answer = None
    try:
        while True:
            what, arg = steps.send(answer)
            if what == "get":
                try:
                    answer = client.get(*arg)
                except NotFound:
                    answer = None
            elif what == "mutate":
                answer = None if mutate is None else mutate(arg)
            elif what == "create":
                answer = client.create(arg)
            elif what == "update":
                answer = client.update(arg)
            else:
                target, patch, subresource = arg
                answer = client.patch(target, patch, subresource=subresource) if subresource else client.patch(target, patch)
    except StopIteration as done:
        result: OperationResult = done.value
        return result


def create_or_update(client: Client, obj: T, mutate: MutateFn[T] | None) -> OperationResult:
    """controllerutil.CreateOrUpdate (module docstring); ``obj`` holds the server's answer after."""
    return _drive(client, mutate, _steps(obj, patching=False))


def create_or_patch(client: Client, obj: T, mutate: MutateFn[T] | None) -> OperationResult:
    """controllerutil.CreateOrPatch (module docstring): merge patches for the object and, apart,
    for its status subresource; ``obj`` holds the server's answer after."""
    return _drive(client, mutate, _steps(obj, patching=True))


async def _async_drive(
    client: AsyncClient, mutate: MutateFn[T] | Callable[[T], Awaitable[T | None]] | None, steps: _Steps,
) -> OperationResult:
    """The asyncio shell: ``_drive`` awaiting the client, and ``mutate`` when it is a coroutine function."""
    answer = None
    try:
        while True:
            what, arg = steps.send(answer)
            if what == "get":
                try:
                    answer = await client.get(*arg)
                except NotFound:
                    answer = None
            elif what == "mutate":
                answer = None if mutate is None else mutate(arg)
                if isinstance(answer, Awaitable):
                    answer = await answer
            elif what == "create":
                answer = await client.create(arg)
            elif what == "update":
                answer = await client.update(arg)
            else:
                target, patch, subresource = arg
                answer = await (client.patch(target, patch, subresource=subresource) if subresource
                                else client.patch(target, patch))
    except StopIteration as done:
        result: OperationResult = done.value
        return result


async def async_create_or_update(
    client: AsyncClient, obj: T, mutate: MutateFn[T] | Callable[[T], Awaitable[T | None]] | None,
) -> OperationResult:
    """``create_or_update`` for the asyncio manager's client; ``mutate`` may be a coroutine function."""
    return await _async_drive(client, mutate, _steps(obj, patching=False))


async def async_create_or_patch(
    client: AsyncClient, obj: T, mutate: MutateFn[T] | Callable[[T], Awaitable[T | None]] | None,
) -> OperationResult:
    """``create_or_patch`` for the asyncio manager's client; ``mutate`` may be a coroutine function."""
    return await _async_drive(client, mutate, _steps(obj, patching=True))
