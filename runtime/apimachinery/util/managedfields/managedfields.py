"""``metadata.managedFields`` as the apiserver reads and writes it, and its apply conflict error.

A port of apimachinery v0.37.2 ``pkg/util/managedfields/internal``: ``managedfields.go``
(``DecodeManagedFields``, ``BuildManagerIdentifier``, ``encodeManagedFields``,
``sortEncodedManagedFields``) and ``conflict.go`` (``NewConflictError``, ``printManager``).

A manager is identified by the JSON of its entry without fields and time, apiVersion included
only for Update: ``{"manager":"m","operation":"Update","apiVersion":"apps/v1"}``. So an Update
and an Apply by the same name are two managers, and an Update at another apiVersion a third;
conflict messages list managers sorted by that identifier. Entries are written sorted by
operation (``Apply`` first), then time (to the second), manager, apiVersion, subresource.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from kgen.runtime.apimachinery.structured_merge_diff.fieldpath import Set, path_string
from kgen.runtime.apimachinery.golang.gofmt import go_json
from kgen.runtime.apimachinery.structured_merge_diff.merge import Conflicts, Managers, VersionedSet

__all__ = ["APPLY", "UPDATE", "ApplyConflict", "Times", "build_manager_identifier", "decode_managed_fields",
           "encode_managed_fields", "print_manager", "seconds"]

APPLY = "Apply"
"""A managed fields entry's operation when a field manager applied (server-side apply)."""
UPDATE = "Update"
"""A managed fields entry's operation when a field manager wrote by create, update or patch."""

Times = dict[str, "str | None"]
"""manager identifier -> the entry's time (RFC3339), None when the entry has none"""


def build_manager_identifier(manager: str, operation: str, api_version: str, subresource: str = "") -> str:
    """``BuildManagerIdentifier``: ``json.Marshal`` of the entry (omitempty fields left out)."""
    parts = [("manager", manager), ("operation", operation), ("apiVersion", "" if operation == APPLY else api_version),
             ("subresource", subresource)]
    return "{" + ",".join(f'"{k}":{go_json(v)}' for k, v in parts if v) + "}"


def _identity(identifier: str) -> dict[str, str]:
    decoded: dict[str, str] = json.loads(identifier)
    return decoded


def print_manager(identifier: str) -> str:
    """``printManager``: ``"m"``, ``"m" with subresource "status"``, ``"m" using apps/v1``."""
    entry = _identity(identifier)
    text = json.dumps(entry.get("manager", ""), ensure_ascii=False)
    if entry.get("subresource"):
        text += f" with subresource {json.dumps(entry['subresource'], ensure_ascii=False)}"
    if entry.get("operation") == UPDATE:
        text += f" using {entry.get('apiVersion', '')}"
    return text


class ApplyConflict(Exception):
    """An apply would change fields other managers own (409); ``force`` takes them instead.
    ``str()`` is the apiserver's message, ``causes()`` its status causes (``NewConflictError``)."""

    code = 409

    def __init__(self, conflicts: Conflicts) -> None:
        self.conflicts = conflicts.conflicts
        super().__init__(self.message)

    @property
    def message(self) -> str:
        """``getConflictMessage``."""
        if len(self.conflicts) == 1:
            c = self.conflicts[0]
            return f"Apply failed with 1 conflict: conflict with {print_manager(c.manager)}: {path_string(c.path)}"
        by_manager: dict[str, list[str]] = {}
        for c in self.conflicts:
            by_manager.setdefault(c.manager, []).append(path_string(c.path))
        lines: list[str] = []
        for manager in sorted(by_manager):
            lines.append(f"conflicts with {print_manager(manager)}:")
            lines += [f"- {p}" for p in by_manager[manager]]
        return f"Apply failed with {len(self.conflicts)} conflicts: " + "\n".join(lines)

    def causes(self) -> list[dict[str, str]]:
        """The conflicts as a 409 Status's causes, in the apiserver's words."""
        return [
            {"reason": "FieldManagerConflict", "message": f"conflict with {print_manager(c.manager)}",
             "field": path_string(c.path)}
            for c in self.conflicts
        ]


def decode_managed_fields(entries: Any) -> tuple[Managers, Times]:
    """``DecodeManagedFields``; ``ValueError`` with Go's words for an invalid entry."""
    managers: Managers = {}
    times: Times = {}
    if entries is not None and not isinstance(entries, list):
        raise ValueError(f"managedFields: expected a list, got {entries!r}")
    for i, entry in enumerate(entries or []):
        if not isinstance(entry, Mapping):
            raise ValueError(f"invalid managed fields entry {i}")
        operation = entry.get("operation") or ""
        if operation not in (APPLY, UPDATE):
            raise ValueError("operation must be `Apply` or `Update`")
        api_version = entry.get("apiVersion") or ""
        if not api_version:
            raise ValueError("apiVersion must not be empty")
        fields_type = entry.get("fieldsType") or ""
        if not fields_type:
            raise ValueError(f"missing fieldsType in managed fields entry {i}")
        if fields_type != "FieldsV1":
            raise ValueError(f'invalid fieldsType "{fields_type}" in managed fields entry {i}')
        identifier = build_manager_identifier(
            str(entry.get("manager") or ""), operation, str(api_version), str(entry.get("subresource") or ""))
        managers[identifier] = VersionedSet(Set.from_fields_v1(entry.get("fieldsV1") or {}), str(api_version), operation == APPLY)
        time = entry.get("time")
        times[identifier] = time if isinstance(time, str) and time else None
    return managers, times


def seconds(time: str | None) -> int:
    """``metav1.Time.Unix()`` of an entry's time; 0 for none (or one that does not parse)."""
    if not time:
        return 0
    try:
        return int(datetime.fromisoformat(time.replace("Z", "+00:00")).timestamp())
    except ValueError:
        return 0


def _sorted_keys(fields_v1: dict[str, Any]) -> dict[str, Any]:
    """A FieldsV1 object with its keys sorted as strings, at every level."""
    return {k: _sorted_keys(v) if isinstance(v, dict) else v for k, v in sorted(fields_v1.items())}


def encode_managed_fields(managers: Managers, times: Times, *, unstructured: bool = False) -> list[dict[str, Any]] | None:
    """``encodeManagedFields`` + ``sortEncodedManagedFields``; None when nobody owns anything.

    Each FieldsV1 is ``fieldpath.Set.ToJSON``'s, in structured-merge-diff's order (list-map
    keys by value: port 9 before 80), as a typed object (a built-in kind) keeps its raw bytes.
    ``unstructured`` (a custom resource): ``Unstructured.SetManagedFields`` stores each entry
    through ``DefaultUnstructuredConverter.ToUnstructured``, which decodes the FieldsV1 bytes into
    ``map[string]interface{}``, so ``encoding/json`` writes its keys sorted as strings, at every
    level (port 1080 before 443 before 80 before 9): what the apiserver answers for one."""
    if not managers:
        return None
    entries: list[dict[str, Any]] = []
    for identifier, vs in managers.items():
        who = _identity(identifier)
        entry: dict[str, Any] = {"manager": who.get("manager", "")}
        entry["operation"] = APPLY if vs.applied else who.get("operation", "")
        entry["apiVersion"] = vs.api_version
        if times.get(identifier):
            entry["time"] = times[identifier]
        entry["fieldsType"] = "FieldsV1"
        fields_v1 = vs.set.to_fields_v1()
        entry["fieldsV1"] = _sorted_keys(fields_v1) if unstructured else fields_v1
        if who.get("subresource"):
            entry["subresource"] = who["subresource"]
        entries.append({k: v for k, v in entry.items() if v != ""})
    entries.sort(key=lambda e: (e.get("operation", ""), seconds(e.get("time")), e.get("manager", ""),
                                e.get("apiVersion", ""), e.get("subresource", "")))
    return entries
