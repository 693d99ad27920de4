"""controller-runtime's pkg/controller/controllerutil: owner references and finalizers.

Owner references (``SetControllerReference``, ``SetOwnerReference``), with controllerutil's rules:

- an owner in a namespace may own only objects of that namespace (a cluster-scoped object can
  have no namespaced owner): the garbage collector would delete the dependent at once;
- an object has at most one *controller* reference: setting a second, to another owner, raises
  ``AlreadyOwnedError``; setting the same owner again (same API group, kind and name) replaces
  its reference, so the call is idempotent;
- the controller reference sets ``controller`` and ``blockOwnerDeletion`` (foreground deletion
  of the owner waits for the dependent).

Finalizers: ``add_finalizer``/``remove_finalizer`` change an object (all copies of the name are
removed, as controllerutil does) and say whether they did; ``*_and_update`` also write it, and on
a Conflict read the object again from the server and retry (client-go's retry.RetryOnConflict);
``async_*_and_update`` do the same with the asyncio manager's client.

Functional rather than in place (controllerutil mutates its argument): objects read from the
informer's cache are shared and must not change, so every helper returns a new object. The
``OwnerReference`` class is the one of the dependent's own generated package, so a CRD owner
from one package can own a Deployment of the stock one.
"""

from __future__ import annotations

import asyncio
import sys
from typing import TYPE_CHECKING, Any, TypeVar

import msgspec

from kgen.runtime.apimachinery.errors import Conflict
from kgen.runtime.apimachinery.meta import name_of, namespace_of, type_meta, uid_of
from kgen.runtime.apimachinery.model import Model
from kgen.runtime.util.retry import DEFAULT_RETRY, retry_on_conflict

if TYPE_CHECKING:
    from kgen.runtime.controller.cluster.async_client import AsyncClient
    from kgen.runtime.controller.cluster.client import Client

__all__ = [
    "AlreadyOwnedError", "add_finalizer", "async_add_finalizer_and_update", "async_remove_finalizer_and_update",
    "add_finalizer_and_update", "contains_finalizer", "get_controller_of",
    "has_controller_reference", "is_controlled_by", "remove_finalizer", "remove_finalizer_and_update",
    "remove_owner_reference", "set_controller_reference", "set_owner_reference",
]

T = TypeVar("T", bound=Model)


class AlreadyOwnedError(ValueError):
    """The object already has a controller reference to another owner."""


def _metadata(obj: Any, role: str) -> Any:
    metadata = getattr(obj, "metadata", None)
    if metadata is None:
        raise ValueError(f"the {role} {type(obj).__name__} has no metadata")
    return metadata


def _group(api_version: str) -> str:
    return api_version.rpartition("/")[0]


def _refer_same_object(a: Any, b: Any) -> bool:
    """controllerutil's referSameObject: same API group (any version), kind and name."""
    return bool(_group(a.api_version) == _group(b.api_version) and a.kind == b.kind and a.name == b.name)


def _owner_reference(owner: Any, obj: Any, controller: bool) -> Any:
    api_version, kind = type_meta(owner)
    if not api_version or not kind:
        raise ValueError(f"the owner {type(owner).__name__} has no apiVersion/kind: is it a top-level resource?")
    if not name_of(owner) or not uid_of(owner):
        raise ValueError(f"the owner {kind} has no name or uid: owners must be read from the server first")
    owner_ns, obj_ns = namespace_of(owner), namespace_of(obj)
    if owner_ns:
        if not obj_ns:
            raise ValueError(
                f"cluster-scoped resource must not have a namespace-scoped owner, owner's namespace {owner_ns}"
            )
        if owner_ns != obj_ns:
            raise ValueError(
                "cross-namespace owner references are disallowed, "
                f"owner's namespace {owner_ns}, obj's namespace {obj_ns}"
            )
    ref_class = getattr(sys.modules[type(_metadata(obj, "object")).__module__], "OwnerReference")
    extra = {"controller": True, "block_owner_deletion": True} if controller else {}
    return ref_class(api_version=api_version, kind=kind, name=name_of(owner), uid=uid_of(owner), **extra)


def _with_owner_references(obj: T, refs: list[Any]) -> T:
    metadata = msgspec.structs.replace(_metadata(obj, "object"), owner_references=refs or None)
    return msgspec.structs.replace(obj, metadata=metadata)


def _upsert(obj: T, ref: Any) -> T:
    refs = list(_metadata(obj, "object").owner_references or [])
    for index, existing in enumerate(refs):
        if _refer_same_object(existing, ref):
            refs[index] = ref
            break
    else:
        refs.append(ref)
    return _with_owner_references(obj, refs)


def get_controller_of(obj: Any) -> Any | None:
    """The owner reference with ``controller: true``, or None (metav1.GetControllerOf)."""
    metadata = getattr(obj, "metadata", None)
    for ref in (getattr(metadata, "owner_references", None) or []) if metadata is not None else []:
        if ref.controller:
            return ref
    return None


def has_controller_reference(obj: Any) -> bool:
    """Whether ``obj`` has an owner reference with ``controller: true``."""
    return get_controller_of(obj) is not None


def is_controlled_by(obj: Any, owner: Any) -> bool:
    """Whether ``owner`` (by uid) is ``obj``'s controller (metav1.IsControlledBy)."""
    ref = get_controller_of(obj)
    return ref is not None and bool(ref.uid) and ref.uid == uid_of(owner)


def set_controller_reference(owner: Any, obj: T) -> T:
    """``obj`` with ``owner`` as its controller; ``AlreadyOwnedError`` if another owner controls it."""
    ref = _owner_reference(owner, obj, controller=True)
    existing = get_controller_of(obj)
    if existing is not None and not _refer_same_object(existing, ref):
        raise AlreadyOwnedError(
            f"Object {namespace_of(obj)}/{name_of(obj)} is already owned by another {existing.kind} "
            f"controller {existing.name}"
        )
    return _upsert(obj, ref)


def set_owner_reference(owner: Any, obj: T) -> T:
    """``obj`` with ``owner`` among its (non-controller) owners, replacing an older reference to it."""
    return _upsert(obj, _owner_reference(owner, obj, controller=False))


def remove_owner_reference(owner: Any, obj: T) -> T:
    """``obj`` without its reference to ``owner``; ValueError if it has none."""
    ref = _owner_reference(owner, obj, controller=False)
    refs = list(_metadata(obj, "object").owner_references or [])
    kept = [r for r in refs if not _refer_same_object(r, ref)]
    if len(kept) == len(refs):
        raise ValueError(f"{type(obj).__name__} {name_of(obj)} is not owned by {ref.kind} {ref.name}")
    return _with_owner_references(obj, kept)


def contains_finalizer(obj: Any, finalizer: str) -> bool:
    """Whether ``obj``'s metadata.finalizers holds ``finalizer``."""
    metadata = getattr(obj, "metadata", None)
    return finalizer in ((getattr(metadata, "finalizers", None) or []) if metadata is not None else [])


def _with_finalizers(obj: T, finalizers: list[str]) -> T:
    metadata = msgspec.structs.replace(_metadata(obj, "object"), finalizers=finalizers or None)
    return msgspec.structs.replace(obj, metadata=metadata)


def add_finalizer(obj: T, finalizer: str) -> tuple[T, bool]:
    """``obj`` with ``finalizer`` (appended if missing), and whether it was added."""
    if contains_finalizer(obj, finalizer):
        return obj, False
    return _with_finalizers(obj, [*(_metadata(obj, "object").finalizers or []), finalizer]), True


def remove_finalizer(obj: T, finalizer: str) -> tuple[T, bool]:
    """``obj`` without any copy of ``finalizer``, and whether there was one."""
    if not contains_finalizer(obj, finalizer):
        return obj, False
    return _with_finalizers(obj, [f for f in _metadata(obj, "object").finalizers if f != finalizer]), True


def _change_and_update(client: Client, obj: T, change: Any) -> T:
    current = obj

    def attempt() -> T:
        nonlocal current
        changed_obj, changed = change(current)
        if not changed:
            return current
        try:
            updated: T = client.update(changed_obj)
            return updated
        except Conflict:
            # Someone wrote first: start again from what the server holds now, not the cache.
            current = client.api_reader.get(type(obj), name_of(obj), namespace_of(obj) or None)
            raise

    return retry_on_conflict(attempt)


def add_finalizer_and_update(client: Client, obj: T, finalizer: str) -> T:
    """Adds ``finalizer`` and writes the object, retried on Conflict; returns what the server
    answered (or ``obj`` if it already had the finalizer)."""
    return _change_and_update(client, obj, lambda o: add_finalizer(o, finalizer))


def remove_finalizer_and_update(client: Client, obj: T, finalizer: str) -> T:
    """Removes ``finalizer`` and writes the object, retried on Conflict."""
    return _change_and_update(client, obj, lambda o: remove_finalizer(o, finalizer))


async def _async_change_and_update(client: AsyncClient, obj: T, change: Any) -> T:
    """``_change_and_update`` on asyncio: client-go's DefaultRetry steps, slept with asyncio."""
    current = obj
    delays = DEFAULT_RETRY.delays()
    for attempt in range(DEFAULT_RETRY.steps):
        changed_obj, changed = change(current)
        if not changed:
            return current
        try:
            updated: T = await client.update(changed_obj)
            return updated
        except Conflict:
            if attempt == DEFAULT_RETRY.steps - 1:
                raise
            await asyncio.sleep(delays[attempt])
            current = await client.api_reader.get(type(obj), name_of(obj), namespace_of(obj) or None)
    raise AssertionError("unreachable")


async def async_add_finalizer_and_update(client: AsyncClient, obj: T, finalizer: str) -> T:
    """``add_finalizer_and_update`` for the asyncio manager's client."""
    return await _async_change_and_update(client, obj, lambda o: add_finalizer(o, finalizer))


async def async_remove_finalizer_and_update(client: AsyncClient, obj: T, finalizer: str) -> T:
    """``remove_finalizer_and_update`` for the asyncio manager's client."""
    return await _async_change_and_update(client, obj, lambda o: remove_finalizer(o, finalizer))
