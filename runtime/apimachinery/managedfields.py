"""Field ownership as the apiserver tracks it (apimachinery's managedfields), without schemas.

Every write records which manager set which fields in ``metadata.managedFields``: one entry per
(manager, operation, subresource), each holding a set of field paths serialized as ``FieldsV1``
(``{"f:data": {".": {}, "f:key": {}}}``). Two operations exist:

- **Update** (create, update, patch): the manager takes every field it changed, from everyone.
- **Apply** (server-side apply): the manager declares the whole set it owns. Changing a field
  another manager owns is a *conflict* unless forced; fields the manager stops declaring are
  removed from the object when nobody else owns them.

A path is a tuple of FieldsV1 elements: ``f:<field>``, ``k:{"name":"c"}`` for an item of a keyed
list, and a trailing ``.`` for a node's own existence. Which lists are keyed comes from
``kgen.runtime.apimachinery.patch.list_merge_key`` (items carrying ``name``; ``conditions`` by ``type``);
other lists, like scalars, are owned whole.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import msgspec

from kgen.runtime.apimachinery.patch import list_merge_key, strategic_merge_patch

__all__ = [
    "ApplyConflict",
    "Conflict",
    "ManagerEntry",
    "Path",
    "apply",
    "field_set",
    "path_string",
    "read_entries",
    "record_update",
    "write_entries",
]

Path = tuple[str, ...]
SELF = "."
APPLY, UPDATE = "Apply", "Update"

#: Metadata the server owns: never part of anyone's field set.
SYSTEM_METADATA = frozenset({
    "name", "namespace", "uid", "resourceVersion", "generation", "creationTimestamp", "deletionTimestamp",
    "deletionGracePeriodSeconds", "managedFields", "selfLink",
})
#: Struct-valued fields that are always there, so (as in the apiserver's sets) carry no ``.``.
_ALWAYS_PRESENT = frozenset({"spec", "status", "template"})


@dataclass
class ManagerEntry:
    """One ``metadata.managedFields`` item, its FieldsV1 decoded into paths."""

    manager: str
    operation: str
    api_version: str
    time: str
    fields: set[Path] = field(default_factory=set)
    subresource: str = ""

    def same_owner(self, manager: str, operation: str, subresource: str) -> bool:
        return (self.manager, self.operation, self.subresource) == (manager, operation, subresource)

    def describe(self) -> str:
        """How the apiserver names this manager in conflict messages."""
        text = msgspec.json.encode(self.manager).decode()
        if self.subresource:
            text += f' with subresource "{self.subresource}"'
        if self.operation == UPDATE:
            text += f" using {self.api_version}"
        return text


@dataclass(frozen=True)
class Conflict:
    owner: ManagerEntry
    path: Path


class ApplyConflict(Exception):
    """An apply would change fields other managers own; ``force`` takes them instead."""

    def __init__(self, conflicts: list[Conflict]) -> None:
        self.conflicts = conflicts
        super().__init__(self.message)

    @property
    def message(self) -> str:
        if len(self.conflicts) == 1:
            c = self.conflicts[0]
            return f"Apply failed with 1 conflict: conflict with {c.owner.describe()}: {path_string(c.path)}"
        by_owner: dict[str, list[str]] = {}
        for c in self.conflicts:
            by_owner.setdefault(c.owner.describe(), []).append(path_string(c.path))
        lines = [
            line for owner in sorted(by_owner)
            for line in (f"conflicts with {owner}:", *(f"- {p}" for p in by_owner[owner]))
        ]
        return f"Apply failed with {len(self.conflicts)} conflicts: " + "\n".join(lines)

    def causes(self) -> list[dict[str, str]]:
        return [
            {"reason": "FieldManagerConflict", "message": f"conflict with {c.owner.describe()}", "field": path_string(c.path)}
            for c in self.conflicts
        ]


# -- paths --------------------------------------------------------------------------------------


def _key_element(key: str, value: Any) -> str:
    return "k:" + msgspec.json.encode({key: value}).decode()


def path_string(path: Path) -> str:
    """The apiserver's spelling of a path: ``.spec.containers[name="c"].image``."""
    out = []
    for element in path:
        if element.startswith("f:"):
            out.append("." + element[2:])
        elif element.startswith("k:"):
            keys: dict[str, Any] = msgspec.json.decode(element[2:])
            out.append("[" + ",".join(f"{k}={msgspec.json.encode(v).decode()}" for k, v in keys.items()) + "]")
    return "".join(out)


def _in_scope(key: str, subresource: str, status_apart: bool) -> bool:
    """Whether a top-level field belongs to a subresource: with a status subresource
    (``status_apart``) the status is its alone, else the main resource has everything."""
    if key in ("apiVersion", "kind"):
        return False
    if subresource == "status":
        return key == "status"
    return key != "status" or not status_apart


def field_set(
    obj: Mapping[str, Any] | None, subresource: str = "", *, markers: bool, status_apart: bool = True
) -> set[Path]:
    """The paths ``obj`` sets, in one subresource's scope (see ``_in_scope``).

    ``markers`` adds the ``.`` existence paths of maps, as Update entries record them."""
    paths: set[Path] = set()
    for key, value in (obj or {}).items():
        if not _in_scope(key, subresource, status_apart):
            continue
        if key == "metadata" and isinstance(value, Mapping):
            for meta_key, meta_value in value.items():
                if meta_key not in SYSTEM_METADATA and meta_value is not None:
                    _walk(("f:metadata", f"f:{meta_key}"), meta_key, meta_value, paths, markers)
        elif value is not None:
            _walk((f"f:{key}",), key, value, paths, markers)
    return paths


#: The fields of metav1.LabelSelector, a ``+structType=atomic`` struct wherever it is used
#: (``spec.selector``, ``labelSelector``, ``namespaceSelector``): owned whole, as the apiserver
#: records it (``f:selector: {}``), not field by field.
_LABEL_SELECTOR = frozenset({"matchLabels", "matchExpressions"})


def _walk(path: Path, name: str, value: Any, paths: set[Path], markers: bool) -> None:
    if isinstance(value, Mapping) and value and not value.keys() <= _LABEL_SELECTOR:
        if markers and name not in _ALWAYS_PRESENT:
            paths.add((*path, SELF))
        for key, item in value.items():
            _walk((*path, f"f:{key}"), key, item, paths, markers)
        return
    key = list_merge_key(name, value) if isinstance(value, list) else None
    if key is None:
        paths.add(path)
        return
    for item in value:
        item_path = (*path, _key_element(key, item[key]))
        paths.add((*item_path, SELF))
        for field_name, field_value in item.items():
            _walk((*item_path, f"f:{field_name}"), field_name, field_value, paths, markers)


_MISSING = object()


def _child(node: Any, element: str) -> Any:
    if element.startswith("f:"):
        return node.get(element[2:], _MISSING) if isinstance(node, Mapping) else _MISSING
    if element.startswith("k:") and isinstance(node, list):
        keys: dict[str, Any] = msgspec.json.decode(element[2:])
        for item in node:
            if isinstance(item, Mapping) and all(item.get(k) == v for k, v in keys.items()):
                return item
    return _MISSING


def _value(obj: Any, path: Path) -> Any:
    node = obj
    for element in path:
        if element == SELF:
            break
        node = _child(node, element)
        if node is _MISSING:
            break
    return node


def _remove(obj: Any, path: Path) -> None:
    """Removes the node at ``path`` (a field, or a keyed list item when it ends in ``.``)."""
    target = path[:-1] if path[-1] == SELF else path
    parent = _value(obj, target[:-1]) if len(target) > 1 else obj
    last = target[-1]
    if last.startswith("f:") and isinstance(parent, dict):
        parent.pop(last[2:], None)
    elif last.startswith("k:") and isinstance(parent, list):
        item = _child(parent, last)
        if item is not _MISSING:
            parent.remove(item)


def _prune(obj: Any, path: Path, owned: set[Path]) -> None:
    """Drops the maps and lists ``path``'s removal left empty, unless someone owns their existence."""
    target = path[:-1] if path[-1] == SELF else path
    for depth in range(len(target) - 1, 0, -1):
        ancestor = target[:depth]
        node = _value(obj, ancestor)
        if node is _MISSING or node or ancestor == ("f:metadata",) or (*ancestor, SELF) in owned:
            return
        if not isinstance(node, (dict, list)):
            return
        _remove(obj, ancestor)


# -- FieldsV1 -----------------------------------------------------------------------------------


def to_fields_v1(paths: Iterable[Path]) -> dict[str, Any]:
    root: dict[str, Any] = {}
    for path in sorted(paths):
        node = root
        for element in path:
            node = node.setdefault(element, {})
    return root


def from_fields_v1(tree: Mapping[str, Any], prefix: Path = ()) -> set[Path]:
    paths: set[Path] = set()
    for element, sub in tree.items():
        path = (*prefix, element)
        if isinstance(sub, Mapping) and sub:
            paths |= from_fields_v1(sub, path)
        else:
            paths.add(path)
    return paths


def read_entries(obj: Mapping[str, Any]) -> list[ManagerEntry]:
    entries = []
    for raw in (obj.get("metadata") or {}).get("managedFields") or []:
        if not isinstance(raw, Mapping) or not raw.get("manager"):
            continue
        entries.append(ManagerEntry(
            manager=str(raw["manager"]), operation=str(raw.get("operation") or UPDATE),
            api_version=str(raw.get("apiVersion") or ""), time=str(raw.get("time") or ""),
            fields=from_fields_v1(raw.get("fieldsV1") or {}), subresource=str(raw.get("subresource") or ""),
        ))
    return entries


def write_entries(obj: dict[str, Any], entries: list[ManagerEntry]) -> None:
    metadata = obj.setdefault("metadata", {})
    kept = [e for e in entries if e.fields]
    if not kept:
        metadata.pop("managedFields", None)
        return
    metadata["managedFields"] = [
        {
            "manager": e.manager, "operation": e.operation, "apiVersion": e.api_version, "time": e.time,
            "fieldsType": "FieldsV1", "fieldsV1": to_fields_v1(e.fields),
            **({"subresource": e.subresource} if e.subresource else {}),
        }
        for e in kept
    ]


# -- the two operations -------------------------------------------------------------------------


def _entry(entries: list[ManagerEntry], manager: str, operation: str, subresource: str, api_version: str) -> ManagerEntry:
    for entry in entries:
        if entry.same_owner(manager, operation, subresource):
            return entry
    entry = ManagerEntry(manager, operation, api_version, "", set(), subresource)
    entries.append(entry)
    return entry


def record_update(
    entries: list[ManagerEntry], manager: str, subresource: str, api_version: str, now: str,
    old: Mapping[str, Any] | None, new: Mapping[str, Any], *, status_apart: bool = True,
) -> list[ManagerEntry]:
    """The entries after ``manager`` turned ``old`` into ``new`` with a create, update or patch."""
    old_set = field_set(old, subresource, markers=True, status_apart=status_apart)
    new_set = field_set(new, subresource, markers=True, status_apart=status_apart)
    changed = {
        p for p in new_set
        if p not in old_set or (p[-1] != SELF and _value(old, p) != _value(new, p))
    }
    removed = old_set - new_set
    for entry in entries:
        entry.fields -= removed
        if not entry.same_owner(manager, UPDATE, subresource):
            entry.fields -= changed
    if changed:
        mine = _entry(entries, manager, UPDATE, subresource, api_version)
        mine.fields |= changed
        mine.time, mine.api_version = now, api_version
    return [e for e in entries if e.fields]


def _scoped(applied: Mapping[str, Any], subresource: str, status_apart: bool) -> dict[str, Any]:
    """What of an applied configuration a subresource takes: metadata the server owns is dropped."""
    scoped = {k: v for k, v in applied.items() if _in_scope(k, subresource, status_apart)}
    if isinstance(applied.get("metadata"), Mapping):
        scoped["metadata"] = {k: v for k, v in applied["metadata"].items() if k not in SYSTEM_METADATA}
    return scoped


def apply(
    entries: list[ManagerEntry], manager: str, subresource: str, api_version: str, now: str,
    live: Mapping[str, Any], applied: Mapping[str, Any], force: bool, *, status_apart: bool = True,
) -> tuple[dict[str, Any], list[ManagerEntry]]:
    """``live`` with ``applied`` merged in by ``manager`` and the entries after it; raises
    ``ApplyConflict`` when a field another manager owns would change and ``force`` is not set."""
    config = _scoped(applied, subresource, status_apart)
    declared = field_set(config, subresource, markers=False, status_apart=status_apart)
    merged: dict[str, Any] = strategic_merge_patch(live, config)
    changed = sorted(
        (p for p in declared if p[-1] != SELF and _value(live, p) != _value(merged, p)), key=path_string
    )
    conflicts = [
        Conflict(entry, p) for p in changed for entry in entries
        if entry.manager != manager and p in entry.fields
    ]
    if conflicts and not force:
        raise ApplyConflict(conflicts)
    for c in conflicts:
        c.owner.fields.discard(c.path)
    mine = _entry(entries, manager, APPLY, subresource, api_version)
    others: set[Path] = set().union(*(e.fields for e in entries if e is not mine))
    owned = others | declared
    for p in sorted(mine.fields - declared, key=len, reverse=True):
        # structured-merge-diff adds back every item still owned (addBackOwnedItems): a field
        # owned as a leaf before (data: {}) and through its children now (data.k) stays.
        if not any(q[:len(p)] == p for q in owned):
            _remove(merged, p)
            _prune(merged, p, owned)
    mine.fields = declared
    mine.time, mine.api_version = now, api_version
    return merged, [e for e in entries if e.fields]
