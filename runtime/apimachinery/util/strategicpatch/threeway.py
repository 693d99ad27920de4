"""The two client-side halves of apimachinery's CreateThreeWayMergePatch (strategicpatch/patch.go):
merging the deletions patch with the changes patch (``merge_patches``: mergeMap with
``MergeOptions{}``) and the conflict check (``maps_have_conflicts``: MergingMapsHaveConflicts).

The merge is the apply-side engine (``strategicpatch``) with both options off, as kubectl's
client computes it: parallel lists (``$deleteFromPrimitiveList``, ``$setElementOrder``,
``$retainKeys``) are carried into the result instead of applied (two patches holding different
ones are an error), and nulls are kept, since they are the deletions the patch must send. The
conflict check is apimachinery's: a key both maps set differently conflicts, merge lists compare
item by merge key, other lists element by element (lists of scalars sorted first), a ``$patch``
in one map and not the other conflicts.
"""

from __future__ import annotations

from typing import Any

from kgen.runtime.apimachinery.golang.gofmt import go_equal, go_v
from kgen.runtime.apimachinery.golang.gofmt import go_type as _go_type
from kgen.runtime.apimachinery.util.strategicpatch.patch import (
    DELETE_PREFIX,
    DIRECTIVE,
    ORDER_PREFIX,
    RETAIN_KEYS,
    Meta,
    _deduplicate_scalars,
    _element_kind,
    _extract_key,
    _go_kind,
    _GoSlice,
    _map_directive,
    _ordered_lists,
    _put_in_order,
    _remove_directives,
    _special_elements,
    _validate_order,
)
from kgen.runtime.apimachinery.util.strategicpatch.diffmaps import go_deep_equal, retain_keys_strategy, sort_scalars
from kgen.runtime.apimachinery.util.strategicpatch.order import (
    BAD_ORDER_LIST,
    SMPBadRequest,
    SMPInternal,
    _bad_arg_type,
    _find_by_key,
    _no_merge_key,
    _normalize_element_order,
    _partition_maps,
    _partition_primitives,
)

__all__ = ["maps_have_conflicts", "merge_patches"]


def merge_patches(original: dict[str, Any], patch: dict[str, Any], meta: Meta) -> dict[str, Any]:
    """mergeMap(original, patch, schema, MergeOptions{}): ``patch`` merged into the patch
    ``original`` (both changed, as Go changes them)."""
    if DIRECTIVE in patch:
        return _map_directive(patch)
    if RETAIN_KEYS in patch:
        retain = patch.pop(RETAIN_KEYS)
        if RETAIN_KEYS in original:
            if not go_deep_equal(original[RETAIN_KEYS], retain):
                raise SMPInternal(f"{go_v(original[RETAIN_KEYS])} and {go_v(retain)} are not deep equal: "
                                  "this may happen when calculating the 3-way diff patch")
        else:
            original[RETAIN_KEYS] = retain
    _carry_element_orders(original, patch, meta)
    for key, patch_v in list(patch.items()):
        if key.startswith(DELETE_PREFIX):
            original[key] = patch_v
            continue
        if patch_v is None:
            original.pop(key, None)
        if key not in original or _go_type(original[key]) != _go_type(patch_v):
            _take(original, key, patch_v)
            continue
        orig_v = original[key]
        if isinstance(orig_v, dict):
            sub, _, strategy, _ = retain_keys_strategy(meta, key, lookup_slice=False)
            original[key] = patch_v if strategy == "replace" else merge_patches(orig_v, patch_v, sub)
        elif isinstance(orig_v, list):
            sub, _, strategy, merge_key = retain_keys_strategy(meta, key, lookup_slice=True)
            original[key] = _merge_slice(orig_v, patch_v, sub, merge_key) if strategy == "merge" else patch_v
        else:
            _take(original, key, patch_v)
    return original


def _take(original: dict[str, Any], key: str, patch_v: Any) -> None:
    value, keep = _remove_directives(patch_v)
    if keep:
        original[key] = value
    else:
        original.pop(key, None)


def _carry_element_orders(original: dict[str, Any], patch: dict[str, Any], meta: Meta) -> None:
    """mergePatchIntoOriginal without MergeParallelList: each ``$setElementOrder/<list>`` is
    carried into ``original`` (the same one in both, or an error) and orders the merged list."""
    for key in [k for k in patch if k.startswith(ORDER_PREFIX)]:
        order = patch.pop(key)
        if key in original:
            if not go_deep_equal(original[key], order):
                raise SMPBadRequest(BAD_ORDER_LIST)
        else:
            original[key] = order
        if not isinstance(order, list):
            raise _bad_arg_type("[]interface {}", order)
        list_key = _extract_key(key, ORDER_PREFIX)
        found_original, found_patch, original_list, patch_list = _ordered_lists(original, patch, list_key)
        sub, _, strategy, merge_key = retain_keys_strategy(meta, list_key, lookup_slice=True)
        _validate_order(patch_list, order, merge_key)
        if found_original and not found_patch:
            merged = original_list
        elif found_patch and not found_original:
            merged, _ = _remove_directives(patch_list)
        elif found_original and found_patch:
            merged = _merge_slice(original_list, patch_list, sub, merge_key) if strategy == "merge" else patch_list
        else:
            continue
        _put_in_order(original, patch, list_key, order, merged, original_list, patch_list, merge_key)


def _merge_slice(original: list[Any], patch: list[Any], meta: Meta, merge_key: str) -> list[Any]:
    if not original and not patch:
        return original
    kind = _element_kind(original, patch)
    slice_ = _GoSlice(original)
    if kind != "map":
        merged = _deduplicate_scalars(original + patch)
    else:
        if not merge_key:
            raise SMPInternal(f"cannot merge lists without merge key for {_go_kind(meta)}")
        slice_, patch = _special_elements(slice_, patch, merge_key)
        before = _GoSlice(slice_.buf, slice_.n)
        for v in patch:
            if merge_key not in v:
                raise _no_merge_key(v, merge_key)
            found = _find_by_key(slice_.items(), merge_key, v[merge_key])
            if found is not None:
                slice_.buf[found] = merge_patches(slice_.buf[found], v, meta)
            else:
                slice_.append(v)
        merged = slice_.items()
        slice_ = before
    if not merge_key:
        patch_items, server_only = _partition_primitives(merged, patch)
    else:
        patch_items, server_only = _partition_maps(merged, patch, merge_key)
    return _normalize_element_order(patch_items, server_only, patch, slice_.items(), merge_key, kind)


# -- MergingMapsHaveConflicts ------------------------------------------------------------------------

def maps_have_conflicts(left: dict[str, Any], right: dict[str, Any], meta: Meta) -> bool:
    """MergingMapsHaveConflicts: whether the two patches set some key differently."""
    return _field_conflicts(left, right, meta, "", "")


def _field_conflicts(left: Any, right: Any, meta: Meta, strategy: str, merge_key: str) -> bool:
    if isinstance(left, dict):
        if not isinstance(right, dict):
            return True
        if DIRECTIVE in left or DIRECTIVE in right:
            if (DIRECTIVE in left) != (DIRECTIVE in right):
                return True
            if not go_equal(left[DIRECTIVE], right[DIRECTIVE]):
                return True
        if strategy == "replace":
            return False
        return _maps_conflict(left, right, meta)
    if isinstance(left, list):
        if not isinstance(right, list):
            return True
        return _slices_conflict(left, right, meta, strategy, merge_key)
    return not go_deep_equal(left, right)


def _maps_conflict(left: dict[str, Any], right: dict[str, Any], meta: Meta) -> bool:
    for key, left_v in left.items():
        if key in (DIRECTIVE, RETAIN_KEYS) or key not in right:
            continue
        sub, strategy, merge_key = meta, "", ""
        if isinstance(left_v, list):
            sub, _, strategy, merge_key = retain_keys_strategy(meta, key, lookup_slice=True)
        elif isinstance(left_v, dict):
            sub, _, strategy, merge_key = retain_keys_strategy(meta, key, lookup_slice=False)
        if _field_conflicts(left_v, right[key], sub, strategy, merge_key):
            return True
    return False


def _slices_conflict(left: list[Any], right: list[Any], meta: Meta, strategy: str, merge_key: str) -> bool:
    kind = _element_kind(left, right)
    if strategy == "merge":
        if kind != "map":
            return False
        left_by_key, right_by_key = _by_merge_key(left, merge_key), _by_merge_key(right, merge_key)
        return any(k in right_by_key and _field_conflicts(v, right_by_key[k], meta, "", "")
                   for k, v in left_by_key.items())
    if len(left) != len(right):
        return True
    if kind != "map":
        left, right = _deduplicate_and_sort_in_place(left), _deduplicate_and_sort_in_place(right)
    return any(_field_conflicts(a, b, meta, "", "") for a, b in zip(left, right))


def _deduplicate_and_sort_in_place(s: list[Any]) -> list[Any]:
    """deduplicateAndSortScalars on a Go slice: the deduplication writes into the caller's array
    and the sort sorts that array's first part, so the patch being checked changes too (and Go
    returns it so changed)."""
    length = len(s) - 1
    i = 0
    while i < length:
        j = i + 1
        while j <= length:
            if go_equal(s[i], s[j]):
                s[j] = s[length]
                length -= 1
                j -= 1
            j += 1
        i += 1
    head = sort_scalars(s[: length + 1])
    s[: length + 1] = head
    return head


def _by_merge_key(items: list[Any], merge_key: str) -> dict[str, Any]:
    """sliceOfMapsToMapOfMaps: items by ``%s`` of their merge key (later ones win)."""
    out: dict[str, Any] = {}
    for item in items:
        if not isinstance(item, dict):
            raise SMPInternal(f"invalid element type in merging list:{go_v(items)}")
        if merge_key not in item:
            raise SMPInternal(f"cannot find merge key `{merge_key}` in merging list element:{go_v(item)}")
        out[_go_s(item[merge_key])] = item
    return out


def _go_s(v: Any) -> str:
    """fmt's ``%s`` of a decoded JSON value (only strings print as themselves)."""
    if isinstance(v, str):
        return v
    if v is None:
        return "%!s(<nil>)"
    if isinstance(v, (dict, list)):
        return go_v(v)  # %s of a map or slice formats its elements with %s; strings alike
    return f"%!s({_go_type(v)}={go_v(v)})"
