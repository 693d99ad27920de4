"""controller-runtime's merge-from patch (pkg/client/patch.go): ``merge_from(original)`` is
``client.MergeFrom``, ``merge_from(original, optimistic_lock=True)`` is
``client.MergeFromWithOptions(original, client.MergeFromWithOptimisticLock{})``.

    patch = merge_from(foo, optimistic_lock=True)      # a snapshot of foo as read
    foo.spec.replicas = 3                               # (or a changed copy of it)
    foo = client.patch(foo, patch)                      # 409 Conflict if foo changed meanwhile

The patch sent is the JSON merge patch from the original to the object patched, computed as
evanphx/json-patch's ``CreateMergePatch`` does (``create_merge_patch``): changed and added
members, ``null`` for removed ones, nested objects diffed member by member, arrays and scalars
replaced whole. With the optimistic lock the patch also carries the original's
``metadata.resourceVersion``, so the apiserver refuses it with a Conflict when the stored object
has moved on, as an update would, without sending the whole object (fields this client's model
does not know are not dropped).

``merge_from`` takes a deep copy of ``original``: Go's callers write ``MergeFrom(obj.DeepCopy())``
and then change ``obj`` in place; here ``obj`` may be changed in place or replaced by a copy.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

from kgen.runtime.apimachinery.meta import resource_version_of, type_meta
from kgen.runtime.apimachinery.model import Model
from kgen.runtime.gentype.resource import PatchType

__all__ = ["MergeFrom", "create_merge_patch", "merge_from"]


def _kind(value: Any) -> str:
    """The JSON type Go's decoder gives ``value`` (ints and floats are both float64)."""
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, (int, float)):
        return "number"
    return type(value).__name__


def _diff(original: dict[str, Any], modified: dict[str, Any]) -> dict[str, Any]:
    """evanphx/json-patch's getDiff: what turns ``original`` into ``modified``."""
    into: dict[str, Any] = {}
    for key, new in modified.items():
        if key not in original:
            into[key] = new
            continue
        old = original[key]
        if _kind(old) != _kind(new):
            into[key] = new
        elif isinstance(old, dict):
            nested = _diff(old, new)
            if nested:
                into[key] = nested
        elif old != new:
            into[key] = new
    for key in original:
        if key not in modified:
            into[key] = None
    return into


def create_merge_patch(original: dict[str, Any], modified: dict[str, Any]) -> dict[str, Any]:
    """The JSON merge patch (RFC 7386) that turns ``original`` into ``modified``, as
    ``jsonpatch.CreateMergePatch`` builds it for two JSON objects; ``{}`` when they are equal."""
    return _diff(original, modified)


def _with_type_meta(obj: Model) -> dict[str, Any]:
    """``obj`` as JSON with its apiVersion and kind (the model class's when the object has none):
    an object built in code and one read from the server then differ only where their content does,
    never by a ``"kind": null`` the apiserver could not decode."""
    data = obj.to_dict()
    api_version, kind = type_meta(obj)
    if api_version and kind:
        data.setdefault("apiVersion", api_version)
        data.setdefault("kind", kind)
    return data


@dataclass(frozen=True)
class MergeFrom:
    """A merge patch from ``original`` (controller-runtime's mergeFromPatch): ``data(obj)`` is the
    patch from ``original`` to ``obj``; ``optimistic_lock`` adds the original's resourceVersion."""

    original: Model
    optimistic_lock: bool = False

    @property
    def patch_type(self) -> PatchType:
        """Always a JSON merge patch (``application/merge-patch+json``)."""
        return PatchType.MERGE

    def data(self, obj: Model) -> dict[str, Any]:
        """The patch turning the original into ``obj`` (mergeFromPatch.Data)."""
        original, modified = _with_type_meta(self.original), _with_type_meta(obj)
        if self.optimistic_lock:
            version = resource_version_of(self.original)
            if not version:
                raise ValueError(
                    f"cannot use OptimisticLock, object {type(self.original).__name__} does not have any resource "
                    "version we can use"
                )
            original.setdefault("metadata", {}).pop("resourceVersion", None)
            modified.setdefault("metadata", {})["resourceVersion"] = version
        return create_merge_patch(original, modified)


def merge_from(original: Model, *, optimistic_lock: bool = False) -> MergeFrom:
    """``client.MergeFrom(original)`` (a snapshot of it is kept), with
    ``MergeFromWithOptimisticLock`` when ``optimistic_lock``; give it to ``client.patch(obj, patch)``."""
    return MergeFrom(copy.deepcopy(original), optimistic_lock)
