"""structured-merge-diff's ``merge.Updater``: who owns what after an update or an apply.

A port of structured-merge-diff v6.4.2 ``merge/update.go`` and ``merge/conflict.go`` over the
walkers of ``kgen.runtime.apimachinery.structured_merge_diff.typed.value``. ``Managers`` maps a manager identifier
(apimachinery's JSON ``BuildManagerIdentifier``) to its ``VersionedSet``.

- ``Updater.update`` (``Update``): the manager gains every field it added or modified and keeps
  the rest of its set but what it removed; every other manager loses what was modified, added
  or removed (an update takes fields over without asking: ``force``).
- ``Updater.apply`` (``Apply``): the config is merged into the live object; the manager's set
  becomes exactly the config's field set; what it owned before and no longer applies is removed
  from the object (``prune``) unless another manager owns it (``addBackOwnedItems``) or it was
  not part of the object the merge produced (``addBackDanglingItems``); then any field another
  manager owns that the apply changed is a conflict unless ``force``, in which case the other
  manager loses it.

Conversion between versions (``Converter``) is the identity: a managed-fields entry recorded at
another apiVersion of the kind is compared in this one (the apiserver converts the object to
that version first; kgen has one schema per version and no conversions), as a CRD's
``conversion: None`` converts. What the conversion still decides is whether the object types in
that version's schema: with ``versions`` (the other apiVersions' schemas), an old or new object
that does not is ``ConversionError`` (``failed to convert new object: .spec.b: field not declared
in schema``), as the apiserver's ``Updater.update`` answers before looking for conflicts.
``reconcileManagedFieldsWithSchemaChanges`` is not ported: it only changes sets recorded under
an older schema where a field was atomic and is granular now.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from kgen.runtime.apimachinery.structured_merge_diff.fieldpath import Path, Set, value_equal
from kgen.runtime.apimachinery.structured_merge_diff.schema import TypeRef
from kgen.runtime.apimachinery.structured_merge_diff.typed.value import (
    MISSING, Comparison, ValidationError, compare, ensure_named_fields_are_members, remove_items, to_field_set, validate,
)
from kgen.runtime.apimachinery.structured_merge_diff.typed.merge import merge

__all__ = ["Conflict", "Conflicts", "ConversionError", "Managers", "Updater", "VersionedSet"]


@dataclass(frozen=True)
class VersionedSet:
    """The fields one manager owns, at the apiVersion it wrote them, and whether by apply."""

    set: Set
    api_version: str
    applied: bool


Managers = dict[str, VersionedSet]
"""Each manager's fields, by manager identifier."""


@dataclass(frozen=True)
class Conflict:
    """One conflict: a field ``path`` an apply would change that ``manager`` owns."""

    manager: str
    path: Path


class Conflicts(Exception):
    """``merge.Conflicts``: fields other managers own that an apply would change."""

    def __init__(self, conflicts: list[Conflict]) -> None:
        self.conflicts = conflicts
        super().__init__(f"{len(conflicts)} conflicts")


class ConversionError(ValueError):
    """The old or new object does not convert to the apiVersion of another manager's entry
    (``failed to convert new object: ...``, the apiserver's words)."""


class Updater:
    """``merge.Updater`` with ``IgnoreFilter`` as an exclude set (the strategy's reset fields);
    ``versions``: the schemas of the kind's other apiVersions, which entries recorded there are
    converted to (``check_conversions``)."""

    def __init__(self, ref: TypeRef, ignored: Set | None = None, versions: Mapping[str, TypeRef] | None = None) -> None:
        self.ref = ref
        self.ignored = ignored if ignored is not None and not ignored.empty() else None
        self.versions = dict(versions or {})

    def check_conversions(self, old: Any, new: Any, version: str, managers: Managers, workflow: str) -> None:
        """Raises ``ConversionError`` when ``old`` or ``new`` does not type in the schema of a
        manager's apiVersion other than ``version`` (``Updater.update``'s ``Converter.Convert``;
        a version without a known schema is not checked)."""
        for manager, vs in managers.items():
            ref = self.versions.get(vs.api_version) if manager != workflow and vs.api_version != version else None
            if ref is None:
                continue
            for label, obj in (("old", old), ("new", new)):
                try:
                    validate(obj, ref, allow_duplicates=True)
                except ValidationError as e:
                    raise ConversionError(f"failed to convert {label} object: {e}") from None

    def _filter(self, s: Set) -> Set:
        return s.recursive_difference(self.ignored) if self.ignored is not None else s

    def _update(self, old: Any, new: Any, version: str, managers: Managers, workflow: str, force: bool) -> tuple[Managers, Comparison]:
        """``Updater.update``."""
        self.check_conversions(old, new, version, managers, workflow)
        cmp = compare(old, new, self.ref).filter_out(self.ignored)
        changed = cmp.modified.union(cmp.added)
        conflicts: dict[str, Set] = {}
        removed: dict[str, Set] = {}
        for manager, vs in managers.items():
            if manager == workflow:
                continue
            found = vs.set.intersection(changed)
            if not found.empty():
                conflicts[manager] = found
            if not cmp.removed.empty():
                removed[manager] = cmp.removed
        if not force and conflicts:
            raise Conflicts([
                Conflict(manager, path) for manager in sorted(conflicts) for path in conflicts[manager]
            ])
        out = dict(managers)
        for manager, found in conflicts.items():
            vs = out[manager]
            out[manager] = VersionedSet(vs.set.difference(found), vs.api_version, vs.applied)
        for manager, gone in removed.items():
            vs = out[manager]
            out[manager] = VersionedSet(vs.set.difference(gone), vs.api_version, vs.applied)
        return {m: vs for m, vs in out.items() if not vs.set.empty()}, cmp

    def update(self, live: Any, new: Any, version: str, managers: Managers, manager: str) -> Managers:
        """``Updater.Update``: the managers after ``manager`` turned ``live`` into ``new``."""
        managers, cmp = self._update(live, new, version, managers, manager, True)
        previous = managers.get(manager)
        mine = previous.set if previous is not None else Set()
        mine = self._filter(mine.difference(cmp.removed).union(cmp.modified).union(cmp.added))
        managers[manager] = VersionedSet(mine, version, False)
        if mine.empty():
            del managers[manager]
        return managers

    def apply(self, live: Any, config: Any, version: str, managers: Managers, manager: str, force: bool) -> tuple[Any, Managers]:
        """``Updater.Apply``: (the new object, or ``MISSING`` when nothing changed; managers)."""
        new = merge(live, config, self.ref)
        last = managers.get(manager)
        applied = self._filter(to_field_set(config, self.ref))
        managers = dict(managers)
        managers[manager] = VersionedSet(applied, version, True)
        new = self._prune(new, managers, manager, last)
        managers, _ = self._update(live, new, version, managers, manager, force)
        if value_equal(live, new):
            return MISSING, managers
        return new, managers

    def _prune(self, merged: Any, managers: Managers, manager: str, last: VersionedSet | None) -> Any:
        """``Updater.prune``: removes what ``manager`` applied last time and not now."""
        if last is None or last.set.empty():
            return merged
        ref = self.ref
        pruned = remove_items(merged, ensure_named_fields_are_members(last.set, ref), ref)
        pruned = self._add_back_owned(merged, pruned, managers)
        return self._add_back_dangling(merged, pruned, last)

    def _add_back_owned(self, merged: Any, pruned: Any, managers: Managers) -> Any:
        """``addBackOwnedItems``: what any manager (the applier's new set included) still owns
        comes back; one schema, so all versions collapse into one."""
        managed = Set()
        for vs in managers.values():
            managed = managed.union(vs.set)
        ref = self.ref
        merged_set = ensure_named_fields_are_members(to_field_set(merged, ref), ref)
        pruned_set = ensure_named_fields_are_members(to_field_set(pruned, ref), ref)
        keep = pruned_set.union(ensure_named_fields_are_members(managed, ref))
        return remove_items(merged, merged_set.difference(keep), ref)

    def _add_back_dangling(self, merged: Any, pruned: Any, last: VersionedSet) -> Any:
        """``addBackDanglingItems``: removes from ``merged`` only what the last applied set
        owned and pruning took away; anything else pruning dropped comes back."""
        ref = self.ref
        pruned_set = ensure_named_fields_are_members(to_field_set(pruned, ref), ref)
        merged_set = ensure_named_fields_are_members(to_field_set(merged, ref), ref)
        last_set = ensure_named_fields_are_members(last.set, ref)
        return remove_items(merged, merged_set.difference(pruned_set).intersection(last_set), ref)
