"""managedFields through the scale subresource, as apimachinery's ``ScaleHandler`` maps them.

A port of apimachinery v0.37.2 ``pkg/util/managedfields/scalehandler.go``. A write to
``/scale`` is tracked on an ``autoscaling/v1`` Scale: the parent's entries that own the
replicas path become Scale entries owning ``spec.replicas`` (``to_subresource``), the Scale's
field manager records the write, and the result is mapped back (``to_parent``): a parent entry
owning replicas keeps it only if the same manager identifier still owns it in the Scale's entries
(an Update entry's identifier names its apiVersion, so a parent Update manager always loses it);
a Scale manager owning ``spec.replicas`` becomes a parent entry owning the replicas path, with
the parent's time for that identifier, which a new manager does not have: the apiserver writes
that entry without a time (so it sorts first). A custom resource's registry stores the result on
its unstructured object (apiextensions-apiserver ``customresource/etcd.go``:
``cr.SetManagedFields(updatedEntries)``), so its FieldsV1 keys come out sorted as strings
(``to_parent(..., unstructured=True)``, as ``encode_managed_fields`` says).
"""

from __future__ import annotations

from typing import Any

from kgen.runtime.apimachinery.structured_merge_diff.fieldpath import Path, PathElement, Set
from kgen.runtime.apimachinery.util.managedfields.managedfields import Times, decode_managed_fields, encode_managed_fields
from kgen.runtime.apimachinery.structured_merge_diff.merge import Managers, VersionedSet

__all__ = ["SCALE_API_VERSION", "to_parent", "to_subresource"]

SCALE_API_VERSION = "autoscaling/v1"
"""The apiVersion of the scale subresource's Scale."""
_REPLICAS_IN_SCALE: Path = (PathElement.field("spec"), PathElement.field("replicas"))


def _path(mappings: dict[str, Path], api_version: str) -> Path | None:
    return mappings.get(api_version)


def to_subresource(parent_entries: Any, mappings: dict[str, Path]) -> list[dict[str, Any]] | None:
    """``ScaleHandler.ToSubresource``: the parent's owners of the replicas path, as Scale entries."""
    managed, times = decode_managed_fields(parent_entries)
    fields: Managers = {}
    out_times: Times = {}
    for manager, vs in managed.items():
        path = _path(mappings, vs.api_version)
        if path is not None and vs.set.has(path):
            fields[manager] = VersionedSet(Set([_REPLICAS_IN_SCALE]), SCALE_API_VERSION, vs.applied)
            out_times[manager] = times.get(manager)
    return encode_managed_fields(fields, out_times)


def to_parent(parent_entries: Any, scale_entries: Any, mappings: dict[str, Path],
              group_version: str, *, unstructured: bool = False) -> list[dict[str, Any]] | None:
    """``ScaleHandler.ToParent``: the parent's entries after a write through ``/scale``."""
    parent, parent_times = decode_managed_fields(parent_entries)
    scale, _ = decode_managed_fields(scale_entries)
    fields: Managers = {}
    times: Times = {}
    for manager, vs in parent.items():
        if vs.api_version not in mappings:
            continue
        path = _path(mappings, vs.api_version)
        if path is None or not vs.set.has(path):
            fields[manager], times[manager] = vs, parent_times.get(manager)
            continue
        if manager not in scale:
            rest = vs.set.difference(Set([path]))
            if not rest.empty():
                fields[manager] = VersionedSet(rest, vs.api_version, vs.applied)
                times[manager] = parent_times.get(manager)
        else:
            fields[manager], times[manager] = vs, parent_times.get(manager)
            del scale[manager]
    for manager, vs in scale.items():
        if not vs.set.has(_REPLICAS_IN_SCALE):
            continue
        target = mappings.get(group_version)
        fields[manager] = VersionedSet(Set([target] if target else []), group_version, vs.applied)
        times[manager] = parent_times.get(manager)
    return encode_managed_fields(fields, times, unstructured=unstructured)
