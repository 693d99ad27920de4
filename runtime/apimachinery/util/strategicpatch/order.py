"""strategicpatch's errors and its list ordering (the second half of
``kgen.runtime.apimachinery.util.strategicpatch.patch``, split off to keep each module short).

The order of a merged list is apimachinery's normalizeElementOrder: items the patch names sorted
as the patch (or its ``$setElementOrder``) orders them, the server's other items as the original
ordered them, the two merged by their positions in the original; sorting uses Go's
``sort.SliceStable`` with strategicpatch's ``less``, which is not a strict order, so the algorithm
itself is reproduced (``gosort``). Errors carry apimachinery's words and the apiserver's status
class (handlers/patch.go interpretStrategicMergePatchError).
"""

from __future__ import annotations

from typing import Any

from kgen.runtime.apimachinery.golang.gofmt import go_equal, go_key, go_v
from kgen.runtime.apimachinery.golang.gofmt import go_type as _go_type
from kgen.runtime.apimachinery.golang.gosort import slice_stable

DIRECTIVE = "$patch"
"""The strategic merge patch directive key."""


class SMPError(Exception):
    """A strategic merge patch failed; ``str(e)`` is apimachinery's message."""

    status = 500


class SMPBadRequest(SMPError):
    """A patch the apiserver answers with 400 Bad Request."""

    status = 400


class SMPInvalid(SMPError):
    """A patch the apiserver answers with 422 Invalid."""

    status = 422


class SMPInternal(SMPError):
    """Any other failure: 500 Internal Server Error."""

    status = 500


class SMPPanic(SMPError):
    """Where Go's code panics (status 0: the real apiserver's answer depends on its recovery)."""

    status = 0


BAD_RETAIN_KEYS = "invalid patch format of retainKeys"
"""apimachinery's message for a malformed ``$retainKeys`` directive."""
BAD_PRIMITIVE_LIST = "invalid patch format of primitive list"
"""apimachinery's message for a malformed primitive list (``$deleteFromPrimitiveList``)."""
BAD_ORDER_LIST = "invalid patch format of setElementOrder list"
"""apimachinery's message for a malformed ``$setElementOrder`` list."""
NO_LIST_OF_LISTS = "lists of lists are not supported"
"""apimachinery's message for a patch of a list of lists."""


def _no_merge_key(m: dict[str, Any], key: str) -> SMPError:
    return SMPInternal(f"map: {go_v(m)} does not contain declared merge key: {key}")


def _bad_arg_type(expected: str, actual: Any) -> SMPError:
    shown = "%!s(<nil>)" if actual is None else _go_type(actual)  # %s of a nil reflect.Type
    return SMPInternal(f"expected a {expected}, but received a {shown}")


def _bad_patch_type(t: Any, m: dict[str, Any]) -> SMPError:
    shown = t if isinstance(t, str) else f"%!s({_go_type(t)}={go_v(t)})"
    return SMPInternal(f"unknown patch type: {shown} in map: {go_v(m)}")


def _find_by_key(items: list[Any], key: str, value: Any) -> int | None:
    for i, v in enumerate(items):
        if not isinstance(v, dict):
            raise SMPInternal(f"value for key {i} is not a map")
        if key in v and go_equal(v[key], value):
            return i
    return None


def _partition_primitives(merged: list[Any], by: list[Any]) -> tuple[list[Any], list[Any]]:
    keys = {go_key(v) for v in by}
    return [v for v in merged if go_key(v) in keys], [v for v in merged if go_key(v) not in keys]


def _partition_maps(merged: list[Any], by: list[Any], merge_key: str) -> tuple[list[Any], list[Any]]:
    in_patch: list[Any] = []
    server_only: list[Any] = []
    for v in merged:
        if not isinstance(v, dict):
            raise _bad_arg_type("map[string]interface {}", v)
        if merge_key not in v:
            raise _no_merge_key(v, merge_key)
        (in_patch if _find_by_key(by, merge_key, v[merge_key]) is not None else server_only).append(v)
    return in_patch, server_only


def _index(items: list[Any], v: Any, merge_key: str, kind: str) -> int:
    def value(item: Any) -> Any:
        if kind != "map":
            return item
        return item.get(merge_key) if isinstance(item, dict) else None

    wanted = value(v)
    for i, item in enumerate(items):
        if go_equal(wanted, value(item)):
            return i
    return -1


def _validate_merge_keys(merge_key: str, *lists: list[Any]) -> None:
    for items in lists:
        for item in items:
            if not isinstance(item, dict):
                raise _bad_arg_type("map[string]interface {}", item)
            if merge_key not in item:
                raise _no_merge_key(item, merge_key)


def _normalize_slice_order(to_sort: list[Any], order: list[Any], merge_key: str, kind: str) -> list[Any]:
    deleted: list[Any] = []
    if kind == "map":
        _validate_merge_keys(merge_key, to_sort, order)
        deleted = [v for v in to_sort if v.get(DIRECTIVE, None) == "delete"]
        to_sort = [v for v in to_sort if not v.get(DIRECTIVE, None) == "delete"]
    return _stable_sort(to_sort, order, merge_key, kind) + deleted


def _stable_sort(to_sort: list[Any], order: list[Any], merge_key: str, kind: str) -> list[Any]:
    """Go's sort.SliceStable (insertion sort in blocks of 20, then in-place merges) with
    strategicpatch's less, which is not a strict order (an item missing from ``order`` is less
    than everything), so the algorithm itself decides the result and is reproduced step by step."""
    def less(a: Any, b: Any) -> bool:
        ia = _index(order, a, merge_key, kind)
        if ia >= 0:
            ib = _index(order, b, merge_key, kind)
            if ib >= 0:
                return ia < ib
        return True

    return slice_stable(list(to_sort), less)


def _normalize_element_order(patch: list[Any], server_only: list[Any], patch_order: list[Any],
                             server_order: list[Any], merge_key: str, kind: str) -> list[Any]:
    patch = _normalize_slice_order(patch, patch_order, merge_key, kind)
    server_only = _normalize_slice_order(server_only, server_order, merge_key, kind)
    out: list[Any] = []
    i = j = 0
    while i < len(server_only) or j < len(patch):
        if i >= len(server_only):
            out.append(patch[j])
            j += 1
        elif j >= len(patch):
            out.append(server_only[i])
            i += 1
        else:
            li = _index(server_order, server_only[i], merge_key, kind)
            ri = _index(server_order, patch[j], merge_key, kind)
            if li >= 0 and ri >= 0 and li < ri:
                out.append(server_only[i])
                i += 1
            else:
                out.append(patch[j])
                j += 1
    return out


