"""structured-merge-diff's ``TypedValue.Merge``: an applied configuration over the live object.

A port of structured-merge-diff v6.4.2 ``typed/merge.go`` with ``ruleKeepRHS``: ``rhs`` wins at
every leaf (a scalar, an atomic list or map, or an empty one); a granular map merges key by
key; an associative list merges item by item by key, in the order ``visitListItems`` produces:
the live items first, each item the configuration also has taken where the configuration puts
it among the shared ones, and new items where they stand in the configuration (so an item a
configuration adds after the last shared item is appended, not put first). Duplicated keys are
allowed on the live side only; an item without its keys is an error (``ValidationError``).
"""

from __future__ import annotations

from typing import Any

from kgen.runtime.apimachinery.structured_merge_diff.fieldpath import PathElement
from kgen.runtime.apimachinery.structured_merge_diff.schema import Atom, ListType, TypeRef
from kgen.runtime.apimachinery.structured_merge_diff.typed.value import (
    MISSING, ValidationError, as_list, as_map, deduce, field_type, list_item_element, same_atom, zip_keys,
)

__all__ = ["merge"]


def merge(lhs: Any, rhs: Any, ref: TypeRef) -> Any:
    """``TypedValue.Merge`` (``ruleKeepRHS``); ``ValidationError`` on a list it cannot key."""
    errors: list[str] = []
    out = _merge(lhs, rhs, ref, errors)
    if errors:
        raise ValidationError(errors)
    return out


def _merge(lhs: Any, rhs: Any, ref: TypeRef, errors: list[str]) -> Any:
    atom = ref.resolve()
    alhs, arhs = deduce(atom, lhs), deduce(atom, rhs)
    if rhs is MISSING:
        return _merge_atom(alhs, lhs, rhs, ref, errors)
    if lhs is MISSING or same_atom(alhs, arhs):
        return _merge_atom(arhs, lhs, rhs, ref, errors)
    _merge_atom(alhs, lhs, rhs, ref, [])  # Go walks a copy; its output is dropped
    return _merge_atom(arhs, lhs, rhs, ref, errors)


def _keep_rhs(lhs: Any, rhs: Any) -> Any:
    return rhs if rhs is not MISSING else lhs


def _merge_atom(atom: Atom, lhs: Any, rhs: Any, ref: TypeRef, errors: list[str]) -> Any:
    if atom.map is not None:
        t = atom.map
        lm, rm = as_map(lhs), as_map(rhs)
        if t.atomic or (not lm and not rm):
            return _keep_rhs(lhs, rhs)
        out: dict[str, Any] = {}
        for key in zip_keys(lm, rm):
            tr = field_type(t, key)
            lv = lm.get(key, MISSING) if lm is not None else MISSING
            rv = rm.get(key, MISSING) if rm is not None else MISSING
            merged = _merge(lv, rv, tr, errors) if tr is not None else _keep_rhs(lv, rv)
            if merged is not MISSING:
                out[key] = merged
        return out if out else MISSING
    if atom.scalar:
        return _keep_rhs(lhs, rhs)
    if atom.list is not None:
        lt = atom.list
        ll, rl = as_list(lhs), as_list(rhs)
        if not lt.associative or (not ll and not rl):
            return _keep_rhs(lhs, rhs)
        return _merge_items(lt, ll or [], rl or [], errors)
    return MISSING


def _index(t: ListType, items: list[Any], allow_duplicates: bool, errors: list[str]) -> tuple[list[PathElement], dict[PathElement, Any]]:
    """``indexListPathElements`` of the merging walker."""
    pes: list[PathElement] = []
    observed: dict[PathElement, Any] = {}
    for i, item in enumerate(items):
        try:
            pe = list_item_element(t, item)
        except ValueError as e:
            errors.append(f"element {i}: {e}")
            continue
        if pe in observed and not allow_duplicates:
            errors.append(f"duplicate entries for key {pe}")
            continue
        observed[pe] = item if pe not in observed else None
        pes.append(pe)
    return pes, observed


def _merge_items(t: ListType, lhs: list[Any], rhs: list[Any], errors: list[str]) -> Any:
    """``mergingWalker.visitListItems``, step by step."""
    found: list[str] = []
    rpes, robserved = _index(t, rhs, False, found)
    lpes, lobserved = _index(t, lhs, True, found)
    if found:
        errors.extend(found)
        return MISSING
    shared = [pe for pe in rpes if pe in lobserved]
    next_shared = shared.pop(0) if shared else None
    merged_rhs: set[PathElement] = set()
    out: list[Any] = []

    def item(pe: PathElement, lchild: Any, rchild: Any) -> None:
        merged = _merge(lchild, rchild, t.element, errors)
        if merged is not MISSING:
            out.append(merged)

    li = ri = 0
    while li < len(lpes) or ri < len(rpes):
        if li < len(lpes) and ri < len(rpes):
            pe = lpes[li]
            if pe == rpes[ri]:
                merged_rhs.add(pe)
                item(pe, lobserved.get(pe, MISSING), robserved.get(pe, MISSING))
                li += 1
                ri += 1
                next_shared = shared.pop(0) if shared else None
                continue
            if pe in robserved and next_shared is not None and next_shared != pe:
                li += 1
                continue
        if li < len(lpes):
            pe = lpes[li]
            if pe not in robserved:
                item(pe, lhs[li], MISSING)
                li += 1
                continue
            if pe in merged_rhs:
                li += 1
        if ri < len(rpes):
            pe = rpes[ri]
            merged_rhs.add(pe)
            item(pe, lobserved.get(pe, MISSING), robserved.get(pe, MISSING))
            ri += 1
            if next_shared is not None and next_shared == pe:
                next_shared = shared.pop(0) if shared else None
    return out if out else MISSING
