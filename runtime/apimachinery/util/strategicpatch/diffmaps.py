"""Computing a strategic merge patch, as k8s.io/apimachinery's ``strategicpatch`` does it
(patch.go: diffMaps, diffLists, diffListsOfScalars, diffListsOfMaps).

``diff_maps(original, modified, schema, options)`` is apimachinery's diffMaps: the patch that turns
``original`` into ``modified`` for a kind whose merge schema is ``schema``. Fields added or changed
are set, fields removed are set to null; a merge list (``patchStrategy: merge``) of maps gets its
changed and new items, a ``{"$patch": "delete", <key>: ...}`` item per removed one and a
``$setElementOrder/<list>`` of the modified order; a merge list of scalars gets its new items, a
``$deleteFromPrimitiveList/<list>`` of removed ones and ``$setElementOrder/<list>``; a struct whose
field is marked ``retainKeys`` gets ``$retainKeys``; any other list is atomic and set whole.

The patches are apimachinery's to the byte, because kubectl-style tools send them and users compare
them: list items are ordered as Go's ``sort.Sort`` (pdqsort, ``gosort.sort_unstable``) leaves them
with strategicpatch's non-strict ``less`` (``<=`` on ``%v`` strings), scalars compare with Go's
interface equality, and original lists of scalars are sorted in place as Go sorts them (the
three-way diff reads them again). ``DiffOptions`` are Go's: the three-way diff ignores deletions in
one pass and changes and additions in the other. The public entry points are in
``strategicpatch_diff``.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from kgen.runtime.apimachinery.golang.gofmt import go_equal, go_v
from kgen.runtime.apimachinery.golang.gofmt import go_type as _go_type
from kgen.runtime.apimachinery.golang.gosort import sort_unstable
from kgen.runtime.apimachinery.mergeschema import TypeSchema
from kgen.runtime.apimachinery.util.strategicpatch.patch import (
    DELETE_PREFIX,
    DIRECTIVE,
    ORDER_PREFIX,
    RETAIN_KEYS,
    Meta,
    _deduplicate_scalars,
    _element_kind,
    _lookup_slice,
    _lookup_struct,
)
from kgen.runtime.apimachinery.util.strategicpatch.order import (
    SMPInternal,
    _bad_arg_type,
    _no_merge_key,
    _normalize_slice_order,
)

__all__ = ["DiffOptions", "diff_maps", "go_deep_equal", "retain_keys_strategy", "sort_scalars"]


@dataclass(frozen=True)
class DiffOptions:
    """strategicpatch.DiffOptions: which parallel lists to build and what to leave out."""

    set_element_order: bool = False
    ignore_changes_and_additions: bool = False
    ignore_deletions: bool = False
    build_retain_keys_directive: bool = False


def go_deep_equal(a: Any, b: Any) -> bool:
    """``reflect.DeepEqual`` on decoded JSON (types must match: ``1`` and ``1.0`` differ)."""
    ta = _go_type(a)
    if ta != _go_type(b):
        return False
    if isinstance(a, dict):
        return len(a) == len(b) and all(k in b and go_deep_equal(v, b[k]) for k, v in a.items())
    if isinstance(a, list):
        return len(a) == len(b) and all(go_deep_equal(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


def sort_scalars(s: list[Any]) -> list[Any]:
    """strategicpatch's sortScalars: ``sort.Sort`` in place, ``less`` is ``%v`` <= ``%v``."""
    return sort_unstable(s, lambda a, b: go_v(a) <= go_v(b))


def _sort_maps_by_field(s: list[Any], field: str) -> list[Any]:
    """sortMapsBasedOnField: ``sort.Sort`` on a copy, ``less`` is ``%v`` <= ``%v`` of the field."""
    return sort_unstable(list(s), lambda a, b: go_v(a.get(field)) <= go_v(b.get(field)))


def retain_keys_strategy(meta: Meta, key: str, lookup_slice: bool) -> tuple[Meta, bool, str, str]:
    """(sub-schema, has retainKeys, the other strategy, merge key) of field ``key``
    (LookupPatchMetadataForStruct/ForSlice, then extractRetainKeysPatchStrategy)."""
    sub, strategy, merge_key = (_lookup_slice if lookup_slice else _lookup_struct)(meta, key)
    field = meta.field(key) if isinstance(meta, TypeSchema) else None
    retain = field is not None and "retainKeys" in (field.patch_strategy or "").split(",")
    return sub, retain, strategy, merge_key


def diff_maps(original: dict[str, Any], modified: dict[str, Any], meta: Meta, options: DiffOptions) -> dict[str, Any]:
    """apimachinery's diffMaps: the patch from ``original`` to ``modified``."""
    patch: dict[str, Any] = {}
    retain_keys: list[Any] = []
    for key, modified_v in modified.items():
        if options.build_retain_keys_directive and modified_v is not None:
            retain_keys.append(key)
        if key not in original:
            if not options.ignore_changes_and_additions:
                patch[key] = modified_v
            continue
        original_v = original[key]
        if key == DIRECTIVE:
            if not isinstance(original_v, str) or not isinstance(modified_v, str):
                raise SMPInternal(f"invalid value for special key: {DIRECTIVE}")
            if modified_v != original_v:
                patch[DIRECTIVE] = modified_v
            continue
        if _go_type(original_v) != _go_type(modified_v):
            if not options.ignore_changes_and_additions:
                patch[key] = modified_v
            continue
        if isinstance(original_v, dict):
            _map_diff(key, original_v, modified_v, patch, meta, options)
        elif isinstance(original_v, list):
            _slice_diff(key, original_v, modified_v, patch, meta, options)
        else:
            _replace_if_not_equal(key, original_v, modified_v, patch, options)
    if not options.ignore_deletions:
        for key in original:
            if key not in modified:
                patch[key] = None
    if retain_keys and (patch or any(v is not None and k not in modified for k, v in original.items())):
        patch[RETAIN_KEYS] = sort_scalars(retain_keys)
    return patch


def _lookup_or_equal(original: Any, modified: Any, meta: Meta, key: str,
                     lookup_slice: bool) -> tuple[Meta, bool, str, str] | None:
    """The field's metadata; None when it has none but the values are equal (no patch needed)."""
    try:
        return retain_keys_strategy(meta, key, lookup_slice)
    except SMPInternal:
        if go_deep_equal(original, modified):
            return None
        raise


def _map_diff(key: str, original: dict[str, Any], modified: dict[str, Any], patch: dict[str, Any], meta: Meta,
              options: DiffOptions) -> None:
    found = _lookup_or_equal(original, modified, meta, key, lookup_slice=False)
    if found is None:
        return
    sub, retain, strategy, _ = found
    options = dataclasses.replace(options, build_retain_keys_directive=retain)
    if strategy == "replace":
        if not options.ignore_changes_and_additions:
            patch[key] = modified
        return
    value = diff_maps(original, modified, sub, options)
    if value:
        patch[key] = value


def _slice_diff(key: str, original: list[Any], modified: list[Any], patch: dict[str, Any], meta: Meta,
                options: DiffOptions) -> None:
    found = _lookup_or_equal(original, modified, meta, key, lookup_slice=True)
    if found is None:
        return
    sub, retain, strategy, merge_key = found
    if strategy != "merge":
        _replace_if_not_equal(key, original, modified, patch, options)
        return
    options = dataclasses.replace(options, build_retain_keys_directive=retain)
    add, deletions, order = _diff_lists(original, modified, sub, merge_key, options)
    if add:
        patch[key] = add
    if deletions:
        patch[f"{DELETE_PREFIX}/{key}"] = deletions
    if order:
        patch[f"{ORDER_PREFIX}/{key}"] = order


def _replace_if_not_equal(key: str, original: Any, modified: Any, patch: dict[str, Any], options: DiffOptions) -> None:
    if not options.ignore_changes_and_additions and not go_deep_equal(original, modified):
        patch[key] = modified


def _diff_lists(original: list[Any], modified: list[Any], meta: Meta, merge_key: str,
                options: DiffOptions) -> tuple[list[Any], list[Any], list[Any]]:
    """diffLists: (the patch list, the deletion list of scalars, the $setElementOrder list)."""
    if not original:
        if not modified or options.ignore_changes_and_additions:
            return [], [], []
        return modified, [], []
    kind = _element_kind(original, modified)
    order: list[Any] = []
    if kind == "map":
        add, deletions = _diff_lists_of_maps(original, modified, meta, merge_key, options)
        add = _normalize_slice_order(add, modified, merge_key, kind)
        same = _is_order_same(original, modified, merge_key)
        add = add + deletions
        deletions = []
        if options.set_element_order and (
                (not options.ignore_changes_and_additions and (add or not same))
                or (not options.ignore_deletions and add)):
            order = [{merge_key: v.get(merge_key)} for v in modified]
        return add, deletions, order
    add, deletions = _diff_lists_of_scalars(original, modified, options)
    add = _normalize_slice_order(add, modified, merge_key, kind)
    if options.set_element_order and ((not options.ignore_deletions and deletions) or (
            not options.ignore_changes_and_additions and not go_deep_equal(original, modified))):
        order = modified
    return add, deletions, order


def _is_order_same(original: list[Any], modified: list[Any], merge_key: str) -> bool:
    if len(original) != len(modified):
        return False
    for left, right in zip(original, modified, strict=True):
        for side in (left, right):
            if not isinstance(side, dict):
                raise _bad_arg_type("map[string]interface {}", side)
            if merge_key not in side:
                raise _no_merge_key(side, merge_key)
        if not go_equal(left[merge_key], right[merge_key]):
            return False
    return True


def _diff_lists_of_scalars(original: list[Any], modified: list[Any], options: DiffOptions) -> tuple[list[Any], list[Any]]:
    """diffListsOfScalars: both sorted as strings, then walked together. ``original`` is sorted
    in place, as Go sorts the caller's slice."""
    original_sorted = sort_scalars(original)
    modified_sorted = sort_scalars(list(modified))
    add: list[Any] = []
    deletions: list[Any] = []
    i = j = 0
    while i < len(original_sorted) or j < len(modified_sorted):
        o = go_v(original_sorted[i]) if i < len(original_sorted) else None
        m = go_v(modified_sorted[j]) if j < len(modified_sorted) else None
        if o is not None and m is not None and o == m:
            i, j = i + 1, j + 1
        elif o is None or (m is not None and o > m):
            if not options.ignore_changes_and_additions:
                add.append(modified_sorted[j])
            j += 1
        else:
            if not options.ignore_deletions:
                deletions.append(original_sorted[i])
            i += 1
    return add, _deduplicate_scalars(deletions)


def _sorted_by_merge_key(s: list[Any], merge_key: str) -> list[Any]:
    """sortMergeListsByNameArray without recursion, on a list already known to hold maps."""
    if not s:
        return s
    _element_kind(s)
    return _sort_maps_by_field(s, merge_key)


def _diff_lists_of_maps(original: list[Any], modified: list[Any], meta: Meta, merge_key: str,
                        options: DiffOptions) -> tuple[list[Any], list[Any]]:
    """diffListsOfMaps: both sorted by the merge key's ``%v``, then walked together."""
    patch: list[Any] = []
    deletions: list[Any] = []
    original_sorted = _sorted_by_merge_key(original, merge_key)
    modified_sorted = _sorted_by_merge_key(modified, merge_key)
    i = j = 0
    while i < len(original_sorted) or j < len(modified_sorted):
        o_item = o_key = m_item = m_key = None
        if i < len(original_sorted):
            o_item, o_key = _map_and_key(original_sorted[i], merge_key)
        if j < len(modified_sorted):
            m_item, m_key = _map_and_key(modified_sorted[j], merge_key)
        o = go_v(o_key) if o_item is not None else None
        m = go_v(m_key) if m_item is not None else None
        if o is not None and m is not None and o == m:
            assert o_item is not None and m_item is not None
            value = diff_maps(o_item, m_item, meta, options)
            if value:
                value[merge_key] = m_key
                patch.append(value)
            i, j = i + 1, j + 1
        elif o is None or (m is not None and o > m):
            if not options.ignore_changes_and_additions:
                patch.append(m_item)
            j += 1
        else:
            if not options.ignore_deletions:
                deletions.append({merge_key: o_key, DIRECTIVE: "delete"})
            i += 1
    return patch, deletions


def _map_and_key(item: Any, merge_key: str) -> tuple[dict[str, Any], Any]:
    if not isinstance(item, dict):
        raise _bad_arg_type("map[string]interface {}", item)
    if merge_key not in item:
        raise _no_merge_key(item, merge_key)
    return item, item[merge_key]
