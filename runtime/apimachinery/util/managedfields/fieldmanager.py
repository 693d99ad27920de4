"""The apiserver's field manager: managedFields after an update, and server-side apply.

A port of apimachinery v0.37.2 ``managedfields.NewDefaultFieldManager``, whose managers wrap
one another (``internal/fieldmanager.go``), outermost first:

- ``versionCheckManager``: an applied object must name the kind's apiVersion and kind (400);
- ``lastAppliedUpdater`` / ``lastAppliedManager``: for the manager ``kubectl`` only, keep
  ``kubectl.kubernetes.io/last-applied-configuration`` up to date, and let an apply take fields
  that last-applied configuration already set, without a conflict (client-side to server-side
  apply migration);
- ``skipNonAppliedManager``: an object nobody tracked yet gets its fields recorded under
  ``before-first-apply`` before its first apply; an update of an existing untracked object
  stays untracked;
- ``capManagersManager``: more than 10 Update managers fold, oldest first, into
  ``ancient-changes`` (one per apiVersion);
- ``buildManagerInfoManager``: the manager's identity (operation, subresource, apiVersion for
  Update; ``unknown`` for an empty name);
- ``managedFieldsUpdater``: an update is computed as ``current-operation`` and then merged into
  the manager's entry; the time moves only when the operation changed the manager's fields (an
  update) or the object (an apply);
- ``stripMetaManager``: apiVersion, kind and the server's metadata are nobody's;
- ``structuredMergeManager``: structured-merge-diff's ``Updater``
  (``kgen.runtime.apimachinery.structured_merge_diff.merge``) over the kind's schema.

A create compares against the kind's empty Go value, as the apiserver does (``New()``): for a
built-in kind that holds its struct-valued fields (``zero_objects.json``, from
hack/oracle/zeroobjects), so a creator's entry has no ``.`` for ``spec`` or ``spec.template``;
for a custom resource it is ``{apiVersion, kind}``, so it has.
"""

from __future__ import annotations

import copy
import functools
import json
from collections.abc import Iterable, Mapping
from importlib import resources
from typing import Any

from kgen.runtime.apimachinery.structured_merge_diff.fieldpath import PathElement, Set
from kgen.runtime.apimachinery.util.managedfields.lastapplied import LastApplied
from kgen.runtime.apimachinery.util.managedfields.managedfields import (
    APPLY, UPDATE, ApplyConflict, Times, build_manager_identifier, seconds, decode_managed_fields, encode_managed_fields,
)
from kgen.runtime.apimachinery.mergeschema import TypeSchema, schema_for
from kgen.runtime.apimachinery.structured_merge_diff.merge import Conflicts, ConversionError, Managers, Updater, VersionedSet
from kgen.runtime.apimachinery.structured_merge_diff.schema import SCHEMALESS, atom_for
from kgen.runtime.apimachinery.structured_merge_diff.typed.value import MISSING, ValidationError, validate

__all__ = ["ApplyConflict", "FieldManager", "FieldManagerError"]

MAX_UPDATE_MANAGERS = 10
_CURRENT_OPERATION = "current-operation"
_BEFORE_FIRST_APPLY = "before-first-apply"
_ANCIENT_CHANGES = "ancient-changes"

_STRIPPED = Set([
    (PathElement.field("apiVersion"),), (PathElement.field("kind"),), (PathElement.field("metadata"),),
    *((PathElement.field("metadata"), PathElement.field(f)) for f in (
        "name", "namespace", "creationTimestamp", "selfLink", "uid", "clusterName", "generation", "managedFields",
        "resourceVersion",
    )),
])
"""stripMetaManager's set: what no manager owns."""


class FieldManagerError(ValueError):
    """An apply the apiserver refuses: ``code`` is the HTTP status (400, or 500 for errors the
    apiserver does not classify), ``str()`` its message."""

    def __init__(self, code: int, message: str) -> None:
        self.code = code
        super().__init__(message)


@functools.cache
def _zero_objects() -> dict[str, dict[str, Any]]:
    loaded: dict[str, dict[str, Any]] = json.loads(
        resources.files(__package__).joinpath("zero_objects.json").read_text())
    return loaded


def _meta(obj: Mapping[str, Any]) -> Mapping[str, Any]:
    m = obj.get("metadata")
    return m if isinstance(m, Mapping) else {}


def _set_managed_fields(obj: dict[str, Any], entries: list[dict[str, Any]] | None) -> None:
    metadata = obj.get("metadata")
    if not isinstance(metadata, dict):
        if entries is None:
            return
        metadata = obj["metadata"] = {}
    if entries is None:
        metadata.pop("managedFields", None)
    else:
        metadata["managedFields"] = entries


class FieldManager:
    """``managedfields.FieldManager`` of one kind (and subresource) at one apiVersion.

    ``schema``: a custom resource's ``TypeSchema`` (built-in kinds are looked up in the
    kgen.kubernetes merge schema). ``reset_fields``: the resource strategy's ``GetResetFields``
    as paths of field names (``[("status",)]`` for a main resource with a status subresource);
    nobody owns them. ``schemaless``: a custom resource without a schema (``smdschema.SCHEMALESS``:
    spec and status declared, their contents deduced, as a CRD preserving unknown fields there).
    A custom resource's object is unstructured on the apiserver, so its entries' FieldsV1 keys
    are written sorted as strings; a built-in kind's keep structured-merge-diff's order
    (``managedfields.encode_managed_fields``). ``versions``: the schemas of the kind's other
    apiVersions (a multi-version CRD's), which the object must type in where an entry was
    recorded at one of them (``merge.Updater.check_conversions``).
    """

    def __init__(self, api_version: str, kind: str, subresource: str = "", *, schema: TypeSchema | None = None,
                 reset_fields: Iterable[tuple[str, ...]] = (), schemaless: bool = False,
                 versions: Mapping[str, TypeSchema] | None = None) -> None:
        self.api_version, self.kind, self.subresource = api_version, kind, subresource
        self._custom = schema is not None or schemaless
        if schemaless:
            self._ref = SCHEMALESS
        else:
            ts = schema if schema is not None else schema_for(api_version, kind)
            if ts is None:
                raise ValueError(f"no merge schema for {api_version} {kind}: generate its package first")
            self._ref = atom_for(ts)
        ignored = Set([tuple(PathElement.field(f) for f in path) for path in reset_fields])
        self._updater = Updater(self._ref, ignored, {v: atom_for(ts) for v, ts in (versions or {}).items()})
        self._last_applied = LastApplied(self._ref, api_version)

    # -- public API ---------------------------------------------------------------------------

    def update(self, live: Mapping[str, Any] | None, new: Mapping[str, Any], manager: str, *, now: str) -> dict[str, Any]:
        """``FieldManager.UpdateNoErrors``: ``new`` with the managedFields the apiserver writes
        for ``manager``'s create (``live`` None), update or patch."""
        live_obj = copy.deepcopy(dict(live)) if live is not None else self.empty()
        out: dict[str, Any] = copy.deepcopy(dict(new))
        if self.subresource:
            managed, times = self._decode_or_empty(_meta(live_obj).get("managedFields"))
        else:
            requested = _meta(out).get("managedFields")
            if isinstance(requested, list) and (not requested or requested == [{}]):
                managed, times = {}, {}
            else:
                managed, times = self._decode_or_empty(requested)
                if not managed:
                    managed, times = self._decode_or_empty(_meta(live_obj).get("managedFields"))
        _set_managed_fields(out, None)
        try:
            managed, times = self._update(live_obj, out, managed, times, manager, now)
        except (ValueError, ValidationError):
            _set_managed_fields(out, _meta(live_obj).get("managedFields"))
            return out
        _set_managed_fields(out, encode_managed_fields(managed, times, unstructured=self._custom))
        return out

    def apply(self, live: Mapping[str, Any] | None, config: Mapping[str, Any], manager: str, force: bool = False, *,
              now: str) -> dict[str, Any]:
        """``FieldManager.Apply``: the merged object with its managedFields; raises
        ``ApplyConflict`` (409) or ``FieldManagerError`` (400/500)."""
        live_obj = copy.deepcopy(dict(live)) if live is not None else self.empty()
        try:
            managed, times = decode_managed_fields(_meta(live_obj).get("managedFields"))
        except ValueError as e:
            raise FieldManagerError(500, f"failed to decode managed fields: {e}") from None
        if (config.get("apiVersion"), config.get("kind")) != (self.api_version, self.kind):
            raise FieldManagerError(400, f"invalid object type: {self._gvk(config)}")
        try:
            obj, managed, times = self._apply_kubectl(live_obj, config, managed, times, manager, force, now)
        except Conflicts as conflicts:
            raise ApplyConflict(conflicts) from None
        _set_managed_fields(obj, encode_managed_fields(managed, times, unstructured=self._custom))
        return obj

    def converts(self, obj: Mapping[str, Any]) -> bool:
        """Whether ``obj`` converts to the kind's typed value (``ObjectToTyped``). The apiserver's
        field manager runs on the request object, before the strategy drops a part of it (a custom
        resource's status on its main resource, its spec through ``/status``): a wrongly typed
        value there makes ``UpdateNoErrors`` record nothing, though the write succeeds."""
        try:
            validate(obj, self._ref, allow_duplicates=True)
        except (ValueError, ValidationError):
            return False
        return True

    def conversion_error(self, live: Mapping[str, Any] | None, new: Mapping[str, Any]) -> str | None:
        """Why an update of ``live`` to ``new`` cannot convert to the apiVersion of one of
        ``live``'s entries (``failed to convert new object: ...``), or None. ``UpdateNoErrors``
        then records nothing, as for any other error of the field manager."""
        if live is None:
            return None
        managed, _ = self._decode_or_empty(_meta(live).get("managedFields"))
        try:
            self._updater.check_conversions(live, new, self.api_version, managed, _CURRENT_OPERATION)
        except ConversionError as e:
            return str(e)
        return None

    def empty(self) -> dict[str, Any]:
        """The kind's empty Go value as structured-merge-diff reads it (``New()``)."""
        if self._custom:
            return {"apiVersion": self.api_version, "kind": self.kind}
        return copy.deepcopy(_zero_objects().get(f"{self.api_version}/{self.kind}", {}))

    # -- the managers, outermost first --------------------------------------------------------

    def _decode_or_empty(self, entries: Any) -> tuple[Managers, Times]:
        """``emptyManagedFieldsOnErr(DecodeManagedFields(...))``."""
        try:
            return decode_managed_fields(entries)
        except ValueError:
            return {}, {}

    def _apply_kubectl(self, live: dict[str, Any], config: Mapping[str, Any], managed: Managers, times: Times,
                       manager: str, force: bool, now: str) -> tuple[dict[str, Any], Managers, Times]:
        """``lastAppliedUpdater`` around ``lastAppliedManager``."""
        try:
            obj, out, times = self._apply(live, config, managed, times, manager, force, now)
        except Conflicts as conflicts:
            if manager != "kubectl":
                raise
            remaining = self._last_applied.remaining_conflicts(live, conflicts)
            if remaining is not None:
                raise remaining from None
            obj, out, times = self._apply(live, config, managed, times, manager, True, now)
        if manager == "kubectl":
            self._last_applied.update_annotation(obj, config)
        return obj, out, times

    def _apply(self, live: dict[str, Any], config: Mapping[str, Any], managed: Managers, times: Times,
               manager: str, force: bool, now: str) -> tuple[dict[str, Any], Managers, Times]:
        """``skipNonAppliedManager`` .. ``managedFieldsUpdater`` for an apply."""
        times = dict(times)
        if not managed:
            managed, times = self._update(self.empty(), live, managed, times, _BEFORE_FIRST_APPLY, now)
        identifier = build_manager_identifier(manager or "unknown", APPLY, self.api_version, self.subresource)
        new, managed = self._structured_apply(live, config, managed, identifier, force)
        self._strip(managed, identifier)
        if new is MISSING:
            obj = copy.deepcopy(live)
            _set_managed_fields(obj, None)
        else:
            obj = new
            times[identifier] = now
        return obj, managed, times

    def _update(self, live: dict[str, Any], new: dict[str, Any], managed: Managers, times: Times, manager: str,
                now: str) -> tuple[Managers, Times]:
        """``skipNonAppliedManager`` .. ``structuredMergeManager`` for an update."""
        if not managed and _meta(live).get("uid"):
            return managed, times
        identifier = build_manager_identifier(manager or "unknown", UPDATE, self.api_version, self.subresource)
        validate(new, self._ref, allow_duplicates=True)  # structuredMergeManager.Update: ObjectToTyped
        validate(live, self._ref, allow_duplicates=True)
        managed = self._updater.update(live, new, self.api_version, dict(managed), _CURRENT_OPERATION)
        self._strip(managed, _CURRENT_OPERATION)
        times = dict(times)
        current = managed.pop(_CURRENT_OPERATION, None)
        if current is not None:
            previous = managed.get(identifier)
            merged = current.set.union(previous.set) if previous is not None else current.set
            managed[identifier] = VersionedSet(merged, current.api_version, current.applied)
            times[identifier] = now
        return _cap_update_managers(managed, times)

    def _structured_apply(self, live: dict[str, Any], config: Mapping[str, Any], managed: Managers, identifier: str,
                          force: bool) -> tuple[Any, Managers]:
        """``structuredMergeManager.Apply``."""
        patch_version = str(config.get("apiVersion") or "")
        if patch_version != self.api_version:
            raise FieldManagerError(400, "Incorrect version specified in apply patch. "
                                         f"Specified patch version: {patch_version}, expected: {self.api_version}")
        if _meta(config).get("managedFields") is not None:
            raise FieldManagerError(400, "metadata.managedFields must be nil")
        try:
            validate(config, self._ref, allow_duplicates=False)
        except ValidationError as e:
            raise FieldManagerError(500, f"failed to create typed patch object ({self._gvknn(config)}): {e}") from None
        try:
            validate(live, self._ref, allow_duplicates=True)
        except ValidationError as e:
            raise FieldManagerError(500, f"failed to create typed live object ({self._gvknn(live)}): {e}") from None
        try:
            return self._updater.apply(live, config, self.api_version, dict(managed), identifier, force)
        except ConversionError as e:
            raise FieldManagerError(500, str(e)) from None
        except ValidationError as e:
            raise FieldManagerError(500, f"failed to merge config: {e}") from None

    @staticmethod
    def _strip(managed: Managers, identifier: str) -> None:
        """``stripMetaManager.stripFields``."""
        vs = managed.get(identifier)
        if vs is None:
            return
        kept = vs.set.difference(_STRIPPED)
        if kept.empty():
            del managed[identifier]
        else:
            managed[identifier] = VersionedSet(kept, vs.api_version, vs.applied)

    def _gvk(self, obj: Mapping[str, Any]) -> str:
        """``GroupVersionKind.String()`` of an object: ``apps/v1, Kind=Deployment``."""
        version = str(obj.get("apiVersion") or "")
        group, _, ver = version.rpartition("/")
        return f"{group}/{ver}, Kind={obj.get('kind') or ''}"

    def _gvknn(self, obj: Mapping[str, Any]) -> str:
        """``objectGVKNN``: ``namespace/name; gvk``."""
        m = _meta(obj)
        return f"{m.get('namespace') or ''}/{m.get('name') or ''}; {self._gvk(obj)}"


def _cap_update_managers(managed: Managers, times: Times) -> tuple[Managers, Times]:
    """``capManagersManager.capUpdateManagers``: oldest Update managers fold into
    ``ancient-changes`` (per apiVersion) until at most ``MAX_UPDATE_MANAGERS`` remain."""
    updaters = [m for m, vs in managed.items() if not vs.applied]
    if len(updaters) <= MAX_UPDATE_MANAGERS:
        return managed, times
    updaters.sort(key=lambda m: (seconds(times.get(m)), m))
    first_of_version: dict[str, str] = {}
    length = len(updaters)
    for manager in updaters:
        if length <= MAX_UPDATE_MANAGERS:
            break
        vs = managed[manager]
        time = times.get(manager)
        bucket = build_manager_identifier(_ANCIENT_CHANGES, UPDATE, vs.api_version)
        first = first_of_version.get(vs.api_version)
        if first is None:
            first_of_version[vs.api_version] = manager
            continue
        if bucket not in managed:
            managed[bucket] = managed.pop(first)
        managed[bucket] = VersionedSet(vs.set.union(managed[bucket].set), vs.api_version, vs.applied)
        del managed[manager]
        length -= 1
        times[bucket] = time
    return managed, times
