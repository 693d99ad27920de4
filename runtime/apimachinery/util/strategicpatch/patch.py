"""Strategic merge patch as k8s.io/apimachinery's ``strategicpatch`` applies it on the apiserver.

``strategic_merge_patch(doc, patch, schema)`` is ``StrategicMergeMapPatchUsingLookupPatchMeta``
(options MergeParallelList and IgnoreUnmatchedNulls, as handlers/patch.go calls it), driven only by
the merge schema of the kind (``kgen.runtime.apimachinery.mergeschema``: each field's
``patchStrategy`` and ``patchMergeKey``), never by a field's name. Every directive is understood:
``$patch`` (replace, delete; merge only in a merge list, where apimachinery refuses it too),
``$retainKeys``, ``$setElementOrder/<list>``, ``$deleteFromPrimitiveList/<list>``. Lists without the
merge strategy are atomic and taken whole, directives inside them kept as data.

apimachinery's answers are reproduced exactly, quirks included, because the fake clientset must
answer as the server does: new merge-list items go first, scalars are deduplicated by
strategicpatch's swap-with-last loop (which reorders), values compare with Go's interface equality
(``1``, ``1.0`` and ``true`` differ), and a deletion shifts the original's Go backing array, which a
``$setElementOrder`` of the same list then reads (``_GoSlice``). Errors carry apimachinery's text and
the apiserver's status class (``interpretStrategicMergePatchError``): ``SMPBadRequest`` (400),
``SMPInvalid`` (422), ``SMPInternal`` (500, any other error), ``SMPPanic`` (Go panics; a real
apiserver then drops the connection).

hack/oracle/strategicpatch runs apimachinery itself; tests/unit/test_strategicpatch_oracle.py
compares both on seeded random patches.
"""

from __future__ import annotations

import copy
from contextvars import ContextVar
from typing import Any

from kgen.runtime.apimachinery.golang.gofmt import GoPanic, go_equal, go_key, go_v
from kgen.runtime.apimachinery.golang.gofmt import go_type as _go_type
from kgen.runtime.apimachinery.mergeschema import FieldType, TypeSchema
from kgen.runtime.apimachinery.util.strategicpatch.order import (
    BAD_ORDER_LIST,
    BAD_PRIMITIVE_LIST,
    BAD_RETAIN_KEYS,
    NO_LIST_OF_LISTS,
    SMPBadRequest,
    SMPError,
    SMPInternal,
    SMPInvalid,
    SMPPanic,
    _bad_arg_type,
    _bad_patch_type,
    _find_by_key,
    _no_merge_key,
    _normalize_element_order,
    _partition_maps,
    _partition_primitives,
)

__all__ = ["SMPBadRequest", "SMPError", "SMPInternal", "SMPInvalid", "SMPPanic", "strategic_merge_patch"]

DIRECTIVE = "$patch"
RETAIN_KEYS = "$retainKeys"
DELETE_PREFIX = "$deleteFromPrimitiveList"
ORDER_PREFIX = "$setElementOrder"


# -- the schema, as strategicpatch's PatchMetaFromStruct walks the Go types --------------------------

Meta = TypeSchema | FieldType
_root: ContextVar[TypeSchema] = ContextVar("_root")  # the kind's schema, to resolve struct references


def _node(t: FieldType) -> Meta:
    if t.kind == "struct":
        found = _root.get().resolve(t)
        if found is None:
            raise SMPInternal(f"no schema for {t.ref}")
        return found
    return t


def _go_kind(meta: Meta) -> str:
    if isinstance(meta, TypeSchema):
        return "struct"
    return {"list": "slice", "map": "map", "scalar": "string"}.get(meta.kind, "struct")


def _lookup_struct(meta: Meta, key: str) -> tuple[Meta, str, str]:
    """(the field's type, its patch strategy without retainKeys, its merge key)."""
    if isinstance(meta, FieldType):
        if meta.kind == "map" and meta.element is not None:
            return _node(meta.element), "", ""
        raise SMPInternal(
            f"merging an object in json but data type is not map or struct, instead is: {_go_kind(meta)}")
    field = meta.field(key)
    if field is None:
        raise SMPInternal(f"unable to find api field in struct {meta.name} for the json field {key!r}".replace("'", '"'))
    strategies = [s for s in (field.patch_strategy or "").split(",")]
    rest = [s for s in strategies if s != "retainKeys"]
    if len(strategies) > 2 or (len(strategies) == 2 and len(rest) == 2):
        raise SMPInternal(f"unexpected patch strategy: [{' '.join(strategies)}]")
    strategy = rest[0] if rest else ""
    return _node(field.type), strategy, field.patch_merge_key or ""


def _lookup_slice(meta: Meta, key: str) -> tuple[Meta, str, str]:
    sub, strategy, merge_key = _lookup_struct(meta, key)
    if isinstance(sub, FieldType) and sub.kind == "list" and sub.element is not None:
        if sub.element.kind == "list":
            raise SMPInternal("unexpected slice of slice")
        return _node(sub.element), strategy, merge_key
    raise SMPInternal(f"expected slice or array type, but got: {_go_kind(meta)}")


# -- Go slices: a deletion or an append may write into the array another slice still shows ----------

class _GoSlice:
    """A Go slice from index 0 of ``buf``: ``n`` items visible, ``len(buf)`` the capacity."""

    def __init__(self, buf: list[Any], n: int | None = None) -> None:
        self.buf, self.n = buf, len(buf) if n is None else n

    def items(self) -> list[Any]:
        return self.buf[: self.n]

    def delete(self, i: int) -> None:  # original = append(original[:i], original[i+1:]...)
        self.buf[i : self.n - 1] = self.buf[i + 1 : self.n]
        self.n -= 1

    def append(self, v: Any) -> None:
        if self.n < len(self.buf):
            self.buf[self.n] = v
        else:  # a new array: the old one is no longer written
            self.buf = self.buf[: self.n] + [v]
        self.n += 1


# -- merging ---------------------------------------------------------------------------------------

def strategic_merge_patch(doc: dict[str, Any], patch: dict[str, Any], schema: TypeSchema) -> dict[str, Any]:
    """``doc`` with ``patch`` applied as the apiserver applies a strategic merge patch to a kind
    whose merge schema is ``schema``. Neither argument is changed."""
    token = _root.set(schema)
    try:
        return _merge_map(copy.deepcopy(doc), copy.deepcopy(patch), schema)
    except GoPanic as e:
        raise SMPPanic(str(e)) from None
    finally:
        _root.reset(token)


def _map_directive(patch: dict[str, Any]) -> dict[str, Any]:
    """mergeMap's ``$patch`` in a map: ``replace`` gives the patch without it, ``delete`` an
    empty map, anything else an error."""
    directive = patch[DIRECTIVE]
    if directive == "replace":
        del patch[DIRECTIVE]
        return patch
    if directive == "delete":
        return {}
    raise _bad_patch_type(directive, patch)


def _merge_map(original: dict[str, Any] | None, patch: dict[str, Any], meta: Meta) -> dict[str, Any]:
    if DIRECTIVE in patch:
        return _map_directive(patch)
    if original is None:
        original = {}
    _apply_retain_keys(original, patch)
    _merge_element_orders(original, patch, meta)
    for key, patch_v in list(patch.items()):
        is_delete_list = key.startswith(DELETE_PREFIX)
        if is_delete_list:
            key = _extract_key(key, DELETE_PREFIX)
        if patch_v is None:
            original.pop(key, None)
            continue
        if key not in original or _go_type(original[key]) != _go_type(patch_v):
            if not is_delete_list:
                _take(original, key, patch_v)
            continue
        orig_v = original[key]
        if isinstance(orig_v, dict):
            sub, strategy, _ = _lookup_struct(meta, key)
            original[key] = patch_v if strategy == "replace" else _merge_map(orig_v, patch_v, sub)
        elif isinstance(orig_v, list):
            sub, strategy, merge_key = _lookup_slice(meta, key)
            original[key] = _merge_slice_handler(orig_v, patch_v, sub, strategy, merge_key, is_delete_list)
        else:
            _take(original, key, patch_v)
    return original


def _take(original: dict[str, Any], key: str, patch_v: Any) -> None:
    _discard_nulls(patch_v)
    value, keep = _remove_directives(patch_v)
    if keep:
        original[key] = value
    else:
        original.pop(key, None)


def _discard_nulls(v: Any) -> None:
    if isinstance(v, dict):
        for k in list(v):
            if v[k] is None:
                del v[k]
            else:
                _discard_nulls(v[k])
    elif isinstance(v, list):
        for e in v:
            _discard_nulls(e)


def _remove_directives(v: Any) -> tuple[Any, bool]:
    if isinstance(v, dict):
        if DIRECTIVE in v:
            return None, False
        for k in list(v):
            value, keep = _remove_directives(v[k])
            if keep:
                v[k] = value
            else:
                del v[k]
        return v, True
    if isinstance(v, list):
        kept = []
        for e in v:
            value, keep = _remove_directives(e)
            if keep:
                kept.append(value)
        return kept, True
    return v, True


def _extract_key(key: str, prefix: str) -> str:
    head, sep, rest = key.partition("/")
    if not sep or head != prefix:
        raise SMPBadRequest(BAD_PRIMITIVE_LIST if prefix == DELETE_PREFIX else BAD_ORDER_LIST)
    return rest


def _apply_retain_keys(original: dict[str, Any], patch: dict[str, Any]) -> None:
    if RETAIN_KEYS not in patch:
        return
    retain = patch.pop(RETAIN_KEYS)
    if not isinstance(retain, list):
        raise SMPBadRequest(BAD_RETAIN_KEYS)
    keys = {go_key(v) for v in retain}
    for k, v in patch.items():
        if v is None or k.startswith(DELETE_PREFIX) or k.startswith(ORDER_PREFIX):
            continue
        if go_key(k) not in keys:
            raise SMPBadRequest(BAD_RETAIN_KEYS)
    for k in list(original):
        if go_key(k) not in keys:
            del original[k]


def _merge_slice_handler(original: list[Any], patch: Any, meta: Meta, strategy: str, merge_key: str,
                         is_delete_list: bool) -> list[Any]:
    if not isinstance(patch, list):
        raise _bad_arg_type("[]interface {}", patch)
    if strategy == "merge" or is_delete_list:
        return _merge_slice(_GoSlice(original), patch, meta, merge_key, is_delete_list)
    return patch


def _element_kind(*lists: list[Any]) -> str:
    """strategicpatch's sliceElementType: every item of the same Go type, not a list."""
    first: str | None = None
    for items in lists:
        for v in items:
            if first is None:
                if v is None:
                    raise SMPPanic("runtime error: invalid memory address or nil pointer dereference")
                first = _go_type(v)
                if first == "[]interface {}":
                    raise SMPInvalid(NO_LIST_OF_LISTS)
            elif first != _go_type(v):
                raise SMPInternal(f"list element types are not identical: {go_v(list(lists))}")
    if first is None:
        raise SMPInternal("no elements in any of the given slices")
    return "map" if first == "map[string]interface {}" else "scalar"


def _merge_slice(original: _GoSlice, patch: list[Any], meta: Meta, merge_key: str, is_delete_list: bool) -> list[Any]:
    items = original.items()
    if not items and not patch:
        return items
    kind = _element_kind(items, patch)
    if kind != "map":
        if is_delete_list:
            gone = {go_key(v) for v in patch}
            return [v for v in items if go_key(v) not in gone]
        merged = _deduplicate_scalars(items + patch)
    else:
        if not merge_key:
            raise SMPInternal(f"cannot merge lists without merge key for {_go_kind(meta)}")
        original, patch = _special_elements(original, patch, merge_key)
        before = _GoSlice(original.buf, original.n)  # mergeSlice's own slice keeps its length
        merged = _merge_by_key(original, patch, merge_key, meta)
        original = before
    if not merge_key:
        patch_items, server_only = _partition_primitives(merged, patch)
    else:
        patch_items, server_only = _partition_maps(merged, patch, merge_key)
    return _normalize_element_order(patch_items, server_only, patch, original.items(), merge_key, kind)


def _deduplicate_scalars(s: list[Any]) -> list[Any]:
    """strategicpatch's deduplicateScalars, which moves the last item into a duplicate's place."""
    length = len(s) - 1
    i = 0
    while i < length:
        j = i + 1
        while j <= length:
            if go_equal(s[i], s[j]):
                s[j] = s[length]
                s = s[:length]
                length -= 1
                j -= 1
            j += 1
        i += 1
    return s


def _special_elements(original: _GoSlice, patch: list[Any], merge_key: str) -> tuple[_GoSlice, list[Any]]:
    rest: list[Any] = []
    replace = False
    for v in patch:
        if DIRECTIVE not in v:
            rest.append(v)
            continue
        directive = v[DIRECTIVE]
        if directive == "delete":
            if merge_key not in v:
                raise _no_merge_key(v, merge_key)
            while (found := _find_by_key(original.items(), merge_key, v[merge_key])) is not None:
                original.delete(found)
        elif directive == "replace":
            replace = True
        elif directive == "merge":
            raise SMPInternal("merging lists cannot yet be specified in the patch")
        else:
            raise _bad_patch_type(directive, v)
    if replace:
        return _GoSlice(rest), []
    return original, rest


def _merge_by_key(original: _GoSlice, patch: list[Any], merge_key: str, meta: Meta) -> list[Any]:
    for v in patch:
        if merge_key not in v:
            raise _no_merge_key(v, merge_key)
        found = _find_by_key(original.items(), merge_key, v[merge_key])
        if found is not None:
            original.buf[found] = _merge_map(original.buf[found], v, meta)
        else:
            original.append(v)
    return original.items()


def _merge_element_orders(original: dict[str, Any], patch: dict[str, Any], meta: Meta) -> None:
    """strategicpatch's mergePatchIntoOriginal: each ``$setElementOrder/<list>`` with its list."""
    for key in [k for k in patch if k.startswith(ORDER_PREFIX)]:
        order = patch.pop(key)
        if not isinstance(order, list):
            raise _bad_arg_type("[]interface {}", order)
        list_key = _extract_key(key, ORDER_PREFIX)
        found_original, found_patch, original_list, patch_list = _ordered_lists(original, patch, list_key)
        sub, strategy, merge_key = _lookup_slice(meta, list_key)
        _validate_order(patch_list, order, merge_key)
        if found_original and not found_patch:
            merged = original_list
        elif found_patch and not found_original:
            merged, _ = _remove_directives(patch_list)
        elif found_original and found_patch:
            merged = _merge_slice_handler(original_list, patch_list, sub, strategy, merge_key, False)
        else:
            continue
        _put_in_order(original, patch, list_key, order, merged, original_list, patch_list, merge_key)


def _ordered_lists(original: dict[str, Any], patch: dict[str, Any], list_key: str) -> tuple[bool, bool, list[Any], list[Any]]:
    """mergePatchIntoOriginal's reading of the list a ``$setElementOrder`` orders: whether the
    original and the patch hold it, and both lists (Go's type assertions, with their error)."""
    found_original, found_patch = list_key in original, list_key in patch
    original_list: list[Any] = []
    patch_list: list[Any] = []
    if found_original:
        if not isinstance(original[list_key], list):
            raise _bad_arg_type("[]interface {}", original[list_key])
        original_list = original[list_key]
    if found_patch:
        if not isinstance(patch[list_key], list):
            raise _bad_arg_type("[]interface {}", patch[list_key])
        patch_list = patch[list_key]
    return found_original, found_patch, original_list, patch_list


def _put_in_order(original: dict[str, Any], patch: dict[str, Any], list_key: str, order: list[Any], merged: list[Any],
                  original_list: list[Any], patch_list: list[Any], merge_key: str) -> None:
    """mergePatchIntoOriginal's last step: the merged list in the ``$setElementOrder``'s order
    goes into ``original``, and the patch's copy of the list is consumed."""
    if not merge_key:
        patch_items, server_only = _partition_primitives(merged, order)
    else:
        patch_items, server_only = _partition_maps(merged, order, merge_key)
    kind = _element_kind(original_list, patch_list)
    original[list_key] = _normalize_element_order(patch_items, server_only, order, original_list, merge_key, kind)
    patch.pop(list_key, None)


def _validate_order(patch_list: list[Any], order: list[Any], merge_key: str) -> None:
    if not order or not patch_list:
        return
    if merge_key:
        for v in patch_list:
            if not isinstance(v, dict):
                raise _bad_arg_type("map[string]interface {}", v)
        non_delete = [v for v in patch_list if v.get(DIRECTIVE) != "delete"]
    else:
        non_delete = patch_list
    p = s = 0
    while p < len(non_delete) and s < len(order):
        if isinstance(non_delete[p], dict) and DIRECTIVE in non_delete[p]:
            p += 1
            continue
        if _merge_key_equal(non_delete[p], order[s], merge_key):
            p += 1
        s += 1
    if p < len(non_delete) and s >= len(order):
        raise SMPInternal(f"The order in patch list:\n{go_v(patch_list)}\n doesn't match {ORDER_PREFIX} list:\n"
                          f"{go_v(order)}\n")


def _merge_key_equal(left: Any, right: Any, merge_key: str) -> bool:
    if not merge_key:
        return go_equal(left, right)
    for side in (left, right):
        if not isinstance(side, dict):
            raise _bad_arg_type("map[string]interface {}", side)
        if merge_key not in side:
            raise _no_merge_key(side, merge_key)
    return go_equal(left[merge_key], right[merge_key])
