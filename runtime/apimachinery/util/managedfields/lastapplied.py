"""kubectl's last-applied-configuration in server-side apply (client-side apply migration).

A port of apimachinery v0.37.2 ``internal/lastappliedmanager.go`` and
``internal/lastappliedupdater.go``. Both act only for the field manager ``kubectl``:

- a conflict is forgiven for the fields the object's
  ``kubectl.kubernetes.io/last-applied-configuration`` sets to the values the object has
  (``allowedConflictsFromLastApplied``): ``kubectl apply --server-side`` after a client-side
  ``kubectl apply`` takes those fields over; other conflicts still fail, listing only them;
- after an apply, an object that has the annotation gets it rewritten to the applied
  configuration (``buildLastApplied``: the configuration without the annotation, JSON with
  sorted keys and a trailing newline, as ``runtime.Encode`` of an Unstructured writes it);
  it is dropped when the annotations would exceed 256 KiB (``ValidateAnnotationsSize``).

Both read and write the annotations through ``Unstructured.GetAnnotations`` /
``SetAnnotations`` (the field manager's objects are unstructured), so the rewrite follows
``NestedNullCoercingStringMap``: an annotation whose value is null reads as "" and is written
back as "" (on the object and in the configuration it records); annotations that are null, not
a map, or hold a value neither string nor null read as none at all: the object then "has no
last-applied configuration", and the recorded configuration loses its ``metadata.annotations``
(``SetAnnotations(nil)`` removes the field).
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping
from typing import Any

from kgen.runtime.apimachinery.structured_merge_diff.fieldpath import Set
from kgen.runtime.apimachinery.golang.gofmt import go_json
from kgen.runtime.apimachinery.structured_merge_diff.merge import Conflicts
from kgen.runtime.apimachinery.structured_merge_diff.schema import TypeRef
from kgen.runtime.apimachinery.structured_merge_diff.typed.value import compare, to_field_set, validate

__all__ = ["ANNOTATION", "LastApplied"]

ANNOTATION = "kubectl.kubernetes.io/last-applied-configuration"
"""The annotation ``kubectl apply`` keeps the last applied configuration in."""
_TOTAL_ANNOTATION_SIZE_LIMIT = 256 * (1 << 10)


def _annotations(obj: Mapping[str, Any]) -> dict[str, str] | None:
    """``Unstructured.GetAnnotations``: ``NestedNullCoercingStringMap`` (null values read as "")."""
    metadata = obj.get("metadata")
    found = metadata.get("annotations") if isinstance(metadata, Mapping) else None
    if not isinstance(found, Mapping):
        return None
    if any(v is not None and not isinstance(v, str) for v in found.values()):
        return None
    return {str(k): v if isinstance(v, str) else "" for k, v in found.items()}


def _set_annotations(obj: dict[str, Any], annotations: dict[str, str] | None) -> None:
    """``Unstructured.SetAnnotations``: None removes ``metadata.annotations``."""
    metadata = obj.get("metadata")
    if annotations is None:
        if isinstance(metadata, dict):
            metadata.pop("annotations", None)
        return
    if not isinstance(metadata, dict):
        metadata = obj["metadata"] = {}
    metadata["annotations"] = annotations


def _annotations_size(annotations: Mapping[str, str]) -> int:
    """``ValidateAnnotationsSize``'s total: Go's ``len`` of each key and value, in bytes."""
    return sum(len(k.encode()) + len(v.encode()) for k, v in annotations.items())


class LastApplied:
    """The apiserver's lastAppliedManager: an apply's conflicts with fields the object's
    last-applied-configuration annotation set are not conflicts (kubectl's client-side apply moving to
    server-side apply)."""

    def __init__(self, ref: TypeRef, api_version: str) -> None:
        self._ref = ref
        self._api_version = api_version

    def remaining_conflicts(self, live: Mapping[str, Any], conflicts: Conflicts) -> Conflicts | None:
        """``lastAppliedManager.Apply``: the conflicts to report, or None to apply with force."""
        allowed = self._allowed(live)
        if allowed is None:
            return conflicts
        remaining = [c for c in conflicts.conflicts if not allowed.has(c.path)]
        return Conflicts(remaining) if remaining else None

    def _allowed(self, live: Mapping[str, Any]) -> Set | None:
        """``allowedConflictsFromLastApplied``; None where Go returns an error."""
        text = (_annotations(live) or {}).get(ANNOTATION)
        if not text:
            return None
        try:
            last = json.loads(text)
        except ValueError:
            return None
        if not isinstance(last, dict) or last.get("apiVersion") != self._api_version:
            return None
        try:
            validate(last, self._ref, allow_duplicates=False)
        except ValueError:
            return None
        fields = to_field_set(last, self._ref)
        cmp = compare(last, live, self._ref)
        return fields.difference(cmp.modified).difference(cmp.added).difference(cmp.removed)

    @staticmethod
    def update_annotation(obj: dict[str, Any], config: Mapping[str, Any]) -> None:
        """``lastAppliedUpdater.Apply``'s rewrite of the annotation on ``obj`` (the merged
        object): ``hasLastApplied``, ``buildLastApplied`` of ``config``, ``SetLastApplied``."""
        annotations = _annotations(obj)
        if not annotations or not annotations.get(ANNOTATION):
            return
        applied = copy.deepcopy(dict(config))
        recorded = _annotations(applied)
        if recorded is not None:
            recorded.pop(ANNOTATION, None)
        _set_annotations(applied, recorded)
        annotations[ANNOTATION] = go_json(applied) + "\n"
        if _annotations_size(annotations) > _TOTAL_ANNOTATION_SIZE_LIMIT:
            del annotations[ANNOTATION]
        _set_annotations(obj, annotations)
