"""A JSON value walked by its schema, as structured-merge-diff's ``typed`` package walks it.

Ports of the walkers of structured-merge-diff v6.4.2 ``typed/``, each named after its Go
function and keeping its quirks, since managedFields and apply results depend on them:

- ``to_field_set`` (tofieldset.go): the paths a value sets. A struct's field that holds a
  non-empty value is not itself a member, only its leaves are; a list item always is (its
  ``.`` marker); duplicated items of a list are owned whole.
- ``compare`` (compare.go): the paths ``rhs`` added, removed or modified from ``lhs``; everything
  under an added or removed node is added or removed too (that is where the ``.`` markers of
  Update entries come from), an atomic or empty list or map is one leaf.
- ``merge`` (merge.go): in ``kgen.runtime.apimachinery.structured_merge_diff.typed.merge``.
- ``remove_items`` (remove.go): a value without the paths of a set; a map or list left with no
  item becomes null, as Go's walker leaves it. ``extract=True`` is ``ExtractItems``.
- ``ensure_named_fields_are_members`` (fieldpath/set.go): a set whose struct fields with
  children are members too (prune needs it to remove a field whose children it owned).
- ``validate`` (validate.go): duplicated keys, items without keys, fields not in the schema.

``MISSING`` is Go's nil ``Value`` (absent); ``None`` is JSON null.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from kgen.runtime.apimachinery.golang.gofmt import go_type, go_v
from kgen.runtime.apimachinery.structured_merge_diff.fieldpath import Path, PathElement, Set, value_equal
from kgen.runtime.apimachinery.structured_merge_diff.schema import Atom, ListType, MapType, TypeRef

__all__ = ["Comparison", "MISSING", "ValidationError", "compare", "ensure_named_fields_are_members",
           "list_item_element", "remove_items", "to_field_set", "validate"]


class _Missing:
    def __repr__(self) -> str:
        return "MISSING"


MISSING: Any = _Missing()
"""The absent value (no field there), distinct from None (a null)."""


class ValidationError(ValueError):
    """``typed.ValidationErrors``: ``str()`` is Go's ``Error()``."""

    def __init__(self, errors: list[str]) -> None:
        self.errors = errors
        text = errors[0] if len(errors) == 1 else "\n".join(["errors:", *("  " + e for e in errors)])
        super().__init__(text)


def deduce(atom: Atom, v: Any) -> Atom:
    """``deduceAtom``: of an untyped atom, the part the value's shape picks."""
    if v is MISSING or v is None:
        return atom
    only_map = atom.list is None and not atom.scalar
    if isinstance(v, dict):
        return Atom(map=atom.map) if atom.map is not None and not only_map else atom
    if isinstance(v, list):
        return Atom(list=atom.list) if atom.list is not None and (atom.map is not None or atom.scalar) else atom
    if isinstance(v, (bool, int, float, str)):
        return Atom(scalar=True, scalar_type=atom.scalar_type) if atom.scalar and not (atom.map is None and atom.list is None) else atom
    return atom


def same_atom(a: Atom, b: Atom) -> bool:
    return a.scalar == b.scalar and a.scalar_type == b.scalar_type and a.list is b.list and a.map is b.map


def field_type(t: MapType, key: str) -> TypeRef | None:
    found = t.fields.get(key)
    return found if found is not None else t.element


def as_map(v: Any) -> Mapping[str, Any] | None:
    return v if isinstance(v, dict) else None


def as_list(v: Any) -> list[Any] | None:
    return v if isinstance(v, list) else None


def list_item_element(t: ListType, child: Any) -> PathElement:
    """``listItemToPathElement`` (associative lists only); ``ValueError`` with Go's words."""
    if not t.associative:
        raise ValueError("invalid indexing of non-associative list")
    if t.keys:
        if child is None:
            raise ValueError("associative list with keys may not have a null element")
        if not isinstance(child, dict):
            raise ValueError("associative list with keys may not have non-map elements")
        pairs = []
        for name in t.keys:
            if name in child:
                pairs.append((name, child[name]))
            elif name in t.key_defaults:
                pairs.append((name, t.key_defaults[name]))
        if not pairs:
            keys = "[" + " ".join(f'"{k}"' for k in t.keys) + "]"
            raise ValueError(f"associative list with keys has an element that omits all key fields {keys} "
                             "(and doesn't have default values for any key fields)")
        return PathElement.key(pairs)
    if isinstance(child, dict):
        raise ValueError("associative list without keys has an element that's a map type")
    if isinstance(child, list):
        raise ValueError("not supported: associative list with lists as elements")
    if child is None:
        raise ValueError("associative list without keys has an element that's an explicit null")
    return PathElement.value(child)


def _item_pe(t: ListType, child: Any) -> PathElement | None:
    """The element, or None where Go ignores the error (``pe, _ :=``: an empty PathElement)."""
    try:
        return list_item_element(t, child)
    except ValueError:
        return None


# -- ToFieldSet -----------------------------------------------------------------------------------


def to_field_set(v: Any, ref: TypeRef) -> Set:
    """``TypedValue.ToFieldSet``."""
    out = Set()
    _to_set(v, ref, (), out)
    return out


def _to_set(v: Any, ref: TypeRef, path: Path, out: Set) -> None:
    atom = deduce(ref.resolve(), v)
    if atom.map is not None:
        t = atom.map
        m = as_map(v)
        if t.atomic:
            out.insert(path)
            return
        for key, val in (m or {}).items():
            child = (*path, PathElement.field(key))
            tr = field_type(t, key)
            if tr is not None:
                _to_set(val, tr, child, out)
            if val is None or (isinstance(val, dict) and not val) or key not in t.fields:
                out.insert(child)
    elif atom.scalar:
        out.insert(path)
    elif atom.list is not None:
        lt = atom.list
        items = as_list(v)
        if not lt.associative:
            out.insert(path)
            return
        if items is None:
            return
        pes = [_item_pe(lt, item) for item in items]
        seen: set[Any] = set()
        duplicates: set[Any] = set()
        for pe in pes:
            if pe is not None and pe in seen and pe not in duplicates:
                out.insert((*path, pe))
                duplicates.add(pe)
            seen.add(pe)
        for pe, item in zip(pes, items):
            if pe in duplicates or pe is None:
                continue
            child = (*path, pe)
            _to_set(item, lt.element, child, out)
            out.insert(child)


# -- Compare --------------------------------------------------------------------------------------


@dataclass
class Comparison:
    """``typed.Comparison``: the paths removed, modified and added from one value to another."""

    removed: Set = field(default_factory=Set)
    modified: Set = field(default_factory=Set)
    added: Set = field(default_factory=Set)

    def filter_out(self, ignored: Set | None) -> Comparison:
        """``ExcludeFields``: drops the ignored paths and everything below them."""
        if ignored is None or ignored.empty():
            return self
        return Comparison(self.removed.recursive_difference(ignored), self.modified.recursive_difference(ignored),
                          self.added.recursive_difference(ignored))


def compare(lhs: Any, rhs: Any, ref: TypeRef) -> Comparison:
    """``TypedValue.Compare``."""
    out = Comparison()
    _compare(lhs, rhs, ref, (), out)
    return out


def _compare(lhs: Any, rhs: Any, ref: TypeRef, path: Path, out: Comparison) -> None:
    atom = ref.resolve()
    alhs, arhs = deduce(atom, lhs), deduce(atom, rhs)
    if rhs is MISSING:
        in_leaf = _compare_atom(alhs, lhs, rhs, path, out)
    elif lhs is MISSING or same_atom(alhs, arhs):
        in_leaf = _compare_atom(arhs, lhs, rhs, path, out)
    else:
        _compare_atom(alhs, lhs, rhs, path, out)  # Go walks a copy: its inLeaf is dropped
        in_leaf = _compare_atom(arhs, lhs, rhs, path, out)
    if not in_leaf:
        if lhs is MISSING:
            out.added.insert(path)
        elif rhs is MISSING:
            out.removed.insert(path)


def _leaf(lhs: Any, rhs: Any, path: Path, out: Comparison) -> bool:
    if lhs is MISSING:
        out.added.insert(path)
    elif rhs is MISSING:
        out.removed.insert(path)
    elif not value_equal(lhs, rhs):
        out.modified.insert(path)
    return True


def _compare_atom(atom: Atom, lhs: Any, rhs: Any, path: Path, out: Comparison) -> bool:
    """``handleAtom`` for the compare walker; True when the node was compared as a leaf."""
    if atom.map is not None:
        t = atom.map
        lm, rm = as_map(lhs), as_map(rhs)
        if t.atomic or (not lm and not rm):
            return _leaf(lhs, rhs, path, out)
        for key in zip_keys(lm, rm):
            tr = field_type(t, key)
            lv = lm.get(key, MISSING) if lm is not None else MISSING
            rv = rm.get(key, MISSING) if rm is not None else MISSING
            if tr is not None:
                _compare(lv, rv, tr, (*path, PathElement.field(key)), out)
        return False
    if atom.scalar:
        return _leaf(lhs, rhs, path, out)
    if atom.list is not None:
        t2 = atom.list
        ll, rl = as_list(lhs), as_list(rhs)
        if not t2.associative or (not ll and not rl):
            return _leaf(lhs, rhs, path, out)
        _compare_items(t2, ll or [], rl or [], path, out)
    return False


def zip_keys(lm: Mapping[str, Any] | None, rm: Mapping[str, Any] | None) -> list[str]:
    keys = list(lm or {})
    keys += [k for k in rm or {} if lm is None or k not in lm]
    return keys


def _group(t: ListType, items: list[Any], order: list[PathElement], known: dict[PathElement, list[Any]] | None) -> dict[PathElement,
                                                                                                                        list[Any]]:
    groups: dict[PathElement, list[Any]] = {}
    for item in items:
        pe = _item_pe(t, item)
        if pe is None:
            continue
        if pe in groups:
            groups[pe].append(item)
        else:
            groups[pe] = [item]
            if known is None or pe not in known:
                order.append(pe)
    return groups


def _compare_items(t: ListType, lhs: list[Any], rhs: list[Any], path: Path, out: Comparison) -> None:
    order: list[PathElement] = []
    lvalues = _group(t, lhs, order, None)
    rvalues = _group(t, rhs, order, lvalues)
    for pe in order:
        llist, rlist = lvalues.get(pe, []), rvalues.get(pe, [])
        child = (*path, pe)
        if len(llist) <= 1 and len(rlist) <= 1:
            _compare(llist[0] if llist else MISSING, rlist[0] if rlist else MISSING, t.element, child, out)
        elif len(llist) >= 2 and len(rlist) >= 2:
            if len(llist) != len(rlist) or not all(value_equal(a, b) for a, b in zip(llist, rlist)):
                out.modified.insert(child)
        elif len(llist) >= 2:
            if rlist:
                _compare(MISSING, rlist[0], t.element, child, out)
            out.removed.insert(child)
        else:
            if llist:
                _compare(llist[0], MISSING, t.element, child, out)
            out.added.insert(child)


# -- RemoveItems / ExtractItems -------------------------------------------------------------------


def remove_items(v: Any, to_remove: Set, ref: TypeRef, extract: bool = False) -> Any:
    """``removeItemsWithSchema``: None (null) where Go's walker leaves no output."""
    atom = deduce(ref.resolve(), v)
    if atom.map is not None:
        t = atom.map
        if not isinstance(v, dict):
            return None
        if not v or t.atomic:
            return v if extract else None
        out: dict[str, Any] = {}
        for key, val in v.items():
            pe = PathElement.field(key)
            tr = t.fields.get(key) or t.element
            if to_remove.has((pe,)):
                if extract:
                    out[key] = remove_items(val, to_remove, tr, extract) if tr is not None else val
                continue
            subset = to_remove.with_prefix(pe)
            if not subset.empty():
                val = remove_items(val, subset, tr, extract) if tr is not None else None
            elif extract:
                continue
            out[key] = val
        return out if out else None
    if atom.scalar:
        return v
    if atom.list is not None:
        lt = atom.list
        if not isinstance(v, list):
            return None
        if not v or not lt.associative:
            return v if extract else None
        items: list[Any] = []
        for element in v:
            item_pe = _item_pe(lt, element)
            exact = item_pe is not None and to_remove.has((item_pe,))
            prefix = item_pe is not None and not to_remove.with_prefix(item_pe).empty()
            if prefix and item_pe is not None:
                element = remove_items(element, to_remove.with_prefix(item_pe), lt.element, extract)
            if extract:
                if exact or prefix:
                    items.append(element)
            elif not exact:
                items.append(element)
        return items if items else None
    return None


# -- EnsureNamedFieldsAreMembers ------------------------------------------------------------------


def ensure_named_fields_are_members(s: Set, ref: TypeRef | None) -> Set:
    """``Set.EnsureNamedFieldsAreMembers``: children that are fields of the struct become
    members too (with the type resolved without the value, as Go does)."""
    atom = ref.resolve() if ref is not None else Atom()
    out = Set()
    out.members = set(s.members)
    for pe, child in s.children.items():
        name = pe.field_name
        tr: TypeRef | None = None
        if name is not None and atom.map is not None:
            if name in atom.map.fields:
                out.members.add(pe)
                tr = atom.map.fields[name]
            else:
                tr = atom.map.element
        elif pe.key_fields is not None and atom.list is not None:
            tr = atom.list.element
        out.children[pe] = ensure_named_fields_are_members(child, tr)
    return out


# -- validation -----------------------------------------------------------------------------------


def validate(v: Any, ref: TypeRef, allow_duplicates: bool) -> None:
    """``TypedValue`` validation (``AsTyped``): raises ``ValidationError`` with Go's messages."""
    errors: list[str] = []
    _validate(v, ref, "", allow_duplicates, errors)
    if errors:
        raise ValidationError(errors)


def _validate(v: Any, ref: TypeRef, path: str, allow_duplicates: bool, errors: list[str]) -> None:
    """``validatingObjectWalker``: ``handleAtom``'s order (map, scalar, list), Go's messages."""
    atom = deduce(ref.resolve(), v)
    prefix = f"{path}: " if path else ""
    if atom.map is not None:
        if v is None:
            return
        if not isinstance(v, dict):
            errors.append(f"{prefix}expected map, got &{{{go_v(v)}}}")
            return
        for key, val in v.items():
            tr = field_type(atom.map, key)
            if tr is None:
                errors.append(f"{path}.{key}: field not declared in schema")
                return
            _validate(val, tr, f"{path}.{key}", allow_duplicates, errors)
    elif atom.scalar:
        message = _scalar_error(atom.scalar_type, v)
        if message:
            errors.append(prefix + message)
    elif atom.list is not None:
        if v is None:
            return
        if not isinstance(v, list):
            errors.append(f"{prefix}expected list, got &{{{go_v(v)}}}")
            return
        seen: set[PathElement] = set()
        for i, item in enumerate(v):
            if atom.list.associative:
                try:
                    pe = list_item_element(atom.list, item)
                except ValueError as e:
                    errors.append(f"{prefix}element {i}: {e}")
                    return
                if pe in seen and not allow_duplicates:
                    errors.append(f"{prefix}duplicate entries for key {pe}")
                seen.add(pe)
                _validate(item, atom.list.element, f"{path}{pe}", allow_duplicates, errors)
            else:
                _validate(item, atom.list.element, f"{path}[{i}]", allow_duplicates, errors)


def _scalar_error(scalar_type: str, v: Any) -> str:
    """``validateScalar``'s message, or "" (Go prints the ``value.Value`` wrapper with %#v or %v)."""
    if v is None or v is MISSING:
        return ""
    if scalar_type == "numeric" and (isinstance(v, bool) or not isinstance(v, (int, float))):
        return f"expected numeric (int or float), got {go_type(v)}"
    if scalar_type == "string" and not isinstance(v, str):
        return f"expected string, got &value.valueUnstructured{{Value:{_go_sharp_v(v)}}}"
    if scalar_type == "boolean" and not isinstance(v, bool):
        return f"expected boolean, got &{{{go_v(v)}}}"
    if scalar_type == "untyped" and isinstance(v, (list, dict)):
        return f"expected any scalar, got &{{{go_v(v)}}}"
    return ""


def _go_sharp_v(v: Any, top: bool = True) -> str:
    """``fmt``'s %#v of a decoded JSON value held in an ``interface{}``."""
    if v is None:
        return "interface {}(nil)"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return go_v(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, list):
        return "[]interface {}{" + ", ".join(_go_sharp_v(i, False) for i in v) + "}"
    return "map[string]interface {}{" + ", ".join(
        f"{json.dumps(k, ensure_ascii=False)}:{_go_sharp_v(v[k], False)}" for k in sorted(v)) + "}"
