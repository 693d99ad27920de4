"""The informer's default transform: a lean cache without changing what a lister hands out.

A transform runs once per object as it enters the DeltaFIFO (client-go's TransformFunc), before
the indexer stores it. Informers apply ``default_transform`` unless told otherwise, which:

- drops ``metadata.managedFields``, as controller-runtime's ``cache.TransformStripManagedFields``
  does: server-side apply's field ownership is kilobytes per object that no controller reads
  from a cache (an apply computes it on the server). It is often the largest part of an object
  the apiserver sends.
- interns the strings that repeat across a cache's objects: the namespace, label values, owner
  references' apiVersion and kind (msgspec already shares the keys of the maps it decodes). ``sys.intern`` keeps one copy of each
  (Go shares nothing either, but a Go string header is 16 bytes where a Python ``str`` is 50 or
  more). An interned string is the same value (``==``, same hash): nothing a caller reads changes.

Interning every string of an object (``intern_strings``, opt-in: ``chain(default_transform,
intern_strings)``) shares what repeats across a whole spec as well (enum values, mount paths,
env names, image names): on bench/pods.py's realistic Pods it takes a cached pod from 20,114 to
12,486 bytes (sys.getsizeof, each object once), but walking the tree costs 1.6 to 5 times what
decoding the pod did (``python -m bench.retained_breakdown`` prints both), which would undo the
initial sync's speed; so it is not the default.

Opting out, as controller-runtime lets a cache keep managedFields: ``informer.set_transform(None)``
(or ``SharedIndexInformer(..., transform=None)``); a factory's ``transform=keep_objects`` keeps
every object as received. A transform given to an informer or a factory replaces the default;
``chain(default_transform, mine)`` keeps it as well.

Objects are generated models (msgspec Structs, mutable) or dicts (the dynamic client); a
transform is handed the freshly decoded object, which nothing else holds yet, so it changes it in
place rather than copying it. A transform never sees tombstones nor Sync deltas (see delta_fifo).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any, TypeVar

import msgspec

__all__ = [
    "Transform", "chain", "default_transform", "intern_metadata", "intern_strings", "keep_objects",
    "strip_managed_fields",
]

Transform = Callable[[Any], Any]
"""Changes each object before it is stored (returns the object to store)."""
O = TypeVar("O")

_intern = sys.intern


def strip_managed_fields(obj: O) -> O:
    """controller-runtime's TransformStripManagedFields: ``metadata.managedFields`` set to None
    (removed from a dict). Anything without metadata passes unchanged."""
    if isinstance(obj, dict):
        meta = obj.get("metadata")
        if isinstance(meta, dict):
            meta.pop("managedFields", None)
        return obj
    meta = getattr(obj, "metadata", None)
    if meta is not None and getattr(meta, "managed_fields", None) is not None:
        meta.managed_fields = None
    return obj


def _intern_values(mapping: dict[str, Any]) -> None:
    for key, value in mapping.items():
        if type(value) is str:
            mapping[key] = _intern(value)  # same keys: the dict is not resized


def intern_metadata(obj: O) -> O:
    """Interns, in place, the metadata strings that repeat across objects: the namespace, label
    values and owner references' apiVersion and kind. Label and annotation keys need nothing:
    msgspec's decoder already shares the (short) keys of the maps it decodes. Annotation values
    are mostly unique (checksums, JSON) and stay as they are."""
    if isinstance(obj, dict):
        meta = obj.get("metadata")
        if not isinstance(meta, dict):
            return obj
        if type(namespace := meta.get("namespace")) is str:
            meta["namespace"] = _intern(namespace)
        if isinstance(labels := meta.get("labels"), dict):
            _intern_values(labels)
        for ref in meta.get("ownerReferences") or ():
            if isinstance(ref, dict):
                for field in ("apiVersion", "kind"):
                    if type(value := ref.get(field)) is str:
                        ref[field] = _intern(value)
        return obj
    meta = getattr(obj, "metadata", None)
    if meta is None:
        return obj
    if type(namespace := getattr(meta, "namespace", None)) is str:
        meta.namespace = _intern(namespace)
    if type(labels := getattr(meta, "labels", None)) is dict:
        _intern_values(labels)
    for ref in getattr(meta, "owner_references", None) or ():
        if type(ref.api_version) is str and type(ref.kind) is str:
            ref.api_version, ref.kind = _intern(ref.api_version), _intern(ref.kind)
    return obj


def intern_strings(obj: O) -> O:
    """Interns, in place, every string value of a model (fields, list items, map values, all the
    way down) or of a dict; map keys are left to msgspec's key cache. Opt-in: see the module
    docstring for what it saves and costs."""
    _visit(obj)
    return obj


_SCALARS = (type(None), bool, int, float)
_IS_STRUCT: dict[type, bool] = {}
"""type -> whether it is a Struct: ``isinstance`` against Struct's metaclass costs more than
the rest of a field's visit."""


def _visit(value: Any) -> Any:
    """``value`` interned (a string) or with its contents interned (anything else)."""
    kind = type(value)
    if kind is str:
        return _intern(value)
    if kind in _SCALARS:
        return value
    if kind is list or kind is dict:
        _intern_container(value)
    elif (is_struct := _IS_STRUCT.get(kind)) is None:
        _IS_STRUCT[kind] = is_struct = issubclass(kind, msgspec.Struct)
        if is_struct:
            _intern_struct(value)
    elif is_struct:
        _intern_struct(value)
    return value


def _intern_struct(obj: msgspec.Struct) -> None:
    for name in obj.__struct_fields__:
        value = getattr(obj, name)
        if type(value) is str:
            setattr(obj, name, _intern(value))
        elif value is not None:
            _visit(value)


def _intern_container(container: list[Any] | dict[Any, Any]) -> None:
    pairs = enumerate(container) if isinstance(container, list) else container.items()
    for index, value in pairs:
        if type(value) is str:
            container[index] = _intern(value)  # same size: the container is not resized
        elif value is not None:
            _visit(value)


def default_transform(obj: O) -> O:
    """What informers apply unless told otherwise: ``strip_managed_fields``, then ``intern_metadata``.

    Written out for a model, the common case: every object of a sync passes here (twice with
    WatchList), and reading its metadata once, with no call per step, is a fifth of the cost."""
    if isinstance(obj, dict):
        return intern_metadata(strip_managed_fields(obj))
    meta = getattr(obj, "metadata", None)
    if meta is None:
        return obj
    if getattr(meta, "managed_fields", None) is not None:
        meta.managed_fields = None
    if type(namespace := getattr(meta, "namespace", None)) is str:
        meta.namespace = _intern(namespace)
    if type(labels := getattr(meta, "labels", None)) is dict:
        for key, value in labels.items():
            if type(value) is str:
                labels[key] = _intern(value)  # same keys: the dict is not resized
    for ref in getattr(meta, "owner_references", None) or ():
        if type(ref.api_version) is str and type(ref.kind) is str:
            ref.api_version, ref.kind = _intern(ref.api_version), _intern(ref.kind)
    return obj


def keep_objects(obj: O) -> O:
    """The transform that keeps every object as received: a factory's opt-out of the default."""
    return obj


def chain(*transforms: Transform) -> Transform:
    """One transform running ``transforms`` in order (each is handed what the previous returned)."""

    def chained(obj: Any) -> Any:
        for transform in transforms:
            obj = transform(obj)
        return obj

    return chained
