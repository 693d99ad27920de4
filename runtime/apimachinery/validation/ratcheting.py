"""What an update is judged against: the old object's value at each node, and whether the node is
unchanged (validation ratcheting, ``CRDValidationRatcheting``, GA since Kubernetes 1.33).

An update of a custom resource is validated as a create is, except (apiextensions-apiserver's
``customResourceStrategy.ValidateUpdate``):

- **Correlation.** Each node of the new object is paired with the old object's value at the same
  place: an object's property or map entry by its key, a ``x-kubernetes-list-type: map`` item by
  its map keys (the first old item with the same keys). Items of sets and atomic lists have no
  partner (``MISSING``): their list has one.
- **Ratcheting.** A node is *unchanged* when it equals its partner as apiserver's
  ``CorrelatedObject.CachedDeepEqual`` sees it (``unchanged``). Every schema error raised at an
  unchanged node, or at an unpaired node whose nearest paired ancestor is unchanged, is dropped
  (the apiserver makes it a warning); so are the failures of CEL rules that do not use
  ``oldSelf`` there. Transition rules' failures, CEL evaluation errors, embedded resources'
  ``apiVersion``/``kind``/``metadata`` errors are never dropped; the object's root, whose metadata
  always differs, never ratchets.
- **List types.** Duplicates in sets and list-maps are checked only when the old object has none
  anywhere (``list_types_valid``).
- **Transition rules** (``oldSelf``) run at the nodes that have a partner (any node with
  ``optionalOldSelf``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from kgen.runtime.apimachinery.validation.structural import list_type_errors

Schema = dict[str, Any]
Resolve = Callable[[Schema], Schema]
"""A schema node with its ``$ref`` merged in (the walker's ``_node``)."""


class _Missing:
    def __repr__(self) -> str:
        return "MISSING"


MISSING: Final[Any] = _Missing()
"""No partner: a create, a field the update adds, an item of a set or an atomic list."""


def same(a: Any, b: Any) -> bool:
    """``reflect.DeepEqual`` of two decoded JSON values: ``1`` (int64) is not ``1.0`` (float64),
    ``True`` is not ``1``."""
    if isinstance(a, dict):
        return isinstance(b, dict) and len(a) == len(b) and all(k in b and same(v, b[k]) for k, v in a.items())
    if isinstance(a, list):
        return isinstance(b, list) and len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return type(a) is type(b) and a == b


def child_schema(s: Schema, key: str) -> Schema | None:
    """The schema of property ``key``: declared, else the ``additionalProperties`` schema."""
    props = s.get("properties")
    if props and key in props:
        return props[key]  # type: ignore[no-any-return]
    extra = s.get("additionalProperties")
    return extra if isinstance(extra, dict) else None


def partner(old: Any, key: str) -> Any:
    """The old value paired with property ``key`` (``MISSING``: the old object has none)."""
    return old[key] if isinstance(old, dict) and key in old else MISSING


def _is_map_list(s: Schema) -> bool:
    return s.get("x-kubernetes-list-type") == "map" and bool(s.get("x-kubernetes-list-map-keys"))


def _scalar_key(v: Any) -> Any:
    return (type(v).__name__, v) if isinstance(v, (bool, int, float, str)) else None


def _item_key(item: Any, keys: list[str]) -> Any:
    """A list-map item's identity as apiserver's MapList computes it; None when it has none (a key
    missing or not a scalar). Several keys are joined as Go's ``%f``/``%d``/``%q`` print them, so
    floats equal to six decimals are one key there, and here."""
    if not isinstance(item, dict):
        return None
    if len(keys) == 1:
        return _scalar_key(item.get(keys[0])) if keys[0] in item else None
    parts = []
    for k in keys:
        v = item.get(k)
        if k not in item or _scalar_key(v) is None:
            return None
        parts.append(("f", f"{v:f}") if isinstance(v, float) else _scalar_key(v))
    return tuple(parts)


class Partners:
    """The old items of a list, looked up by a new item (``get``): by map keys in a list-map,
    none elsewhere."""

    def __init__(self, s: Schema, old: Any) -> None:
        self._keys: list[str] = s.get("x-kubernetes-list-map-keys") or []
        self._by_key: dict[Any, Any] = {}
        if _is_map_list(s) and isinstance(old, list):
            for item in old:
                key = _item_key(item, self._keys)
                if key is not None:
                    self._by_key.setdefault(key, item)  # the first of duplicates

    def get(self, item: Any) -> Any:
        """The old item with ``item``'s map keys, or ``MISSING``."""
        if not self._by_key:
            return MISSING
        key = _item_key(item, self._keys)
        return self._by_key.get(key, MISSING) if key is not None else MISSING


def unchanged(new: Any, old: Any, s: Schema, resolve: Resolve) -> bool:
    """Whether ``new`` equals its partner ``old`` (both pruned and defaulted) as apiserver's
    ``CorrelatedObject.CachedDeepEqual`` decides: through objects by key, where a key the schema
    does not declare is a change; through list-maps by map keys; elsewhere by DeepEqual."""
    if new is None or old is None:
        return new is None and old is None
    if isinstance(new, list) != isinstance(old, list) or isinstance(new, dict) != isinstance(old, dict):
        return False
    if isinstance(new, list):
        if len(new) != len(old):
            return False
        if s.get("x-kubernetes-list-type") != "map":
            return same(new, old)
        items = s.get("items")
        if not isinstance(items, dict):
            return not new
        node, partners = resolve(items), Partners(s, old)
        for item in new:
            was = partners.get(item)
            if was is MISSING or not unchanged(item, was, node, resolve):
                return False
        return True
    if isinstance(new, dict):
        if len(new) != len(old):
            return False
        for key, value in new.items():
            sub = child_schema(s, key)
            if key not in old or sub is None or not unchanged(value, old[key], resolve(sub), resolve):
                return False
        return True
    return same(new, old)


def list_types_valid(value: Any, s: Schema, resolve: Resolve) -> bool:
    """Whether no set or list-map of ``value`` has a duplicate (structural listtype's
    ValidateListSetsAndMaps finds nothing), through properties, map values and items."""
    if isinstance(value, dict):
        for key, v in value.items():
            sub = child_schema(s, key)
            if sub is not None and not list_types_valid(v, resolve(sub), resolve):
                return False
        return True
    if isinstance(value, list):
        if list_type_errors(value, s, ""):
            return False
        items = s.get("items")
        return not isinstance(items, dict) or all(list_types_valid(v, resolve(items), resolve) for v in value)
    return True


__all__ = ["MISSING", "Partners", "child_schema", "list_types_valid", "partner", "same", "unchanged"]
