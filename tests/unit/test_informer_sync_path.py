"""The informer's fast paths for a sync (issue 36: the cache's per-object cost) give what the
general paths give: ``default_transform`` written out for models equals
``intern_metadata(strip_managed_fields(...))``; ``DeltaFIFO.replace``'s one-pass queueing of
keys with nothing pending still merges a key listed twice, skips the transform for a tombstone
and counts the first list's keys once; the processor's runs of notifications reach each
listener in order, sync notifications only the listeners due."""

from __future__ import annotations

import copy
from typing import Any

import msgspec

from kgen.kubernetes.models.core.v1 import ConfigMap
from kgen.runtime.tools.cache.delta_fifo import REPLACED, DeletedFinalStateUnknown, Delta, DeltaFIFO
from kgen.runtime.tools.cache.processor import (
    AddNotification,
    ProcessorCore,
    ProcessorListener,
    ResourceEventHandlerFuncs,
    UpdateNotification,
)
from kgen.runtime.tools.cache.transform import default_transform, intern_metadata, strip_managed_fields


def _wire(name: str) -> dict[str, Any]:
    return {
        "apiVersion": "v1", "kind": "ConfigMap",
        "metadata": {
            "name": name, "namespace": "team-" + "alpha", "resourceVersion": "7",
            "labels": {"app": "check" + "out", "tier": "front" + "end"},
            "ownerReferences": [{"apiVersion": "apps/" + "v1", "kind": "Replica" + "Set", "name": "rs", "uid": "u"}],
            "managedFields": [{"manager": "kubectl", "operation": "Update", "apiVersion": "v1",
                               "fieldsType": "FieldsV1", "fieldsV1": {"f:data": {}}}],
        },
        "data": {"k": "v"},
    }


def test_default_transform_of_a_model_equals_strip_then_intern() -> None:
    wire = _wire("a")
    fast = default_transform(ConfigMap.from_json(msgspec.json.encode(wire)))
    general = intern_metadata(strip_managed_fields(ConfigMap.from_json(msgspec.json.encode(wire))))
    assert fast == general and fast.to_dict() == general.to_dict()
    assert fast.metadata is not None and fast.metadata.managed_fields is None
    assert general.metadata is not None
    assert fast.metadata.namespace is general.metadata.namespace  # interned: the same string object
    labels, general_labels = fast.metadata.labels or {}, general.metadata.labels or {}
    assert labels and all(value is general_labels[key] for key, value in labels.items())
    ref, general_ref = (fast.metadata.owner_references or [])[0], (general.metadata.owner_references or [])[0]
    assert ref.kind is general_ref.kind and ref.api_version is general_ref.api_version
    assert default_transform(copy.deepcopy(fast)) == fast  # idempotent: a watch-list's objects pass twice
    plain = default_transform(copy.deepcopy(wire))
    assert plain == intern_metadata(strip_managed_fields(copy.deepcopy(wire)))
    assert default_transform({"kind": "NoMeta"}) == {"kind": "NoMeta"}


def _name(obj: Any) -> str:
    return str(obj["name"])


def test_replace_merges_a_key_listed_twice_and_skips_the_transform_of_a_tombstone() -> None:
    seen: list[Any] = []

    def transform(obj: Any) -> Any:
        seen.append(obj)
        return {**obj, "t": True}

    fifo = DeltaFIFO(_name, emit_delta_type_replaced=True, transformer=transform)
    a1, a2, b = {"name": "a", "v": 1}, {"name": "a", "v": 2}, {"name": "b", "v": 1}
    stone = DeletedFinalStateUnknown("c", {"name": "c"})
    fifo.replace([a1, b, a2, stone], "1")
    assert fifo.list_keys() == ["a", "b", "c"]
    assert fifo.get_by_key("a") == [Delta(REPLACED, {**a1, "t": True}), Delta(REPLACED, {**a2, "t": True})]
    assert fifo.get_by_key("c") == [Delta(REPLACED, stone)]
    assert seen == [a1, b, a2]
    popped: list[tuple[list[str], bool]] = []
    for _ in range(3):
        assert not fifo.has_synced()
        fifo.pop(lambda deltas, initial: popped.append(([d.object["name"] if isinstance(d.object, dict)
                                                          else d.object.key for d in deltas], initial)))
    assert popped == [(["a", "a"], True), (["b"], True), (["c"], True)]
    assert fifo.has_synced()


def test_replace_after_pending_changes_keeps_their_place_and_tombstones_the_unlisted() -> None:
    fifo = DeltaFIFO(_name, emit_delta_type_replaced=True)
    old_a, gone = {"name": "a", "v": 0}, {"name": "z", "v": 0}
    fifo.add(old_a)
    fifo.add(gone)
    new_a, b = {"name": "a", "v": 1}, {"name": "b", "v": 1}
    fifo.replace([b, new_a], "2")
    assert fifo.list_keys() == ["a", "z", "b"]
    assert fifo.get_by_key("a") == [Delta("Added", old_a), Delta(REPLACED, new_a)]
    assert fifo.get_by_key("z") == [Delta("Added", gone), Delta("Deleted", DeletedFinalStateUnknown("z", gone))]
    assert fifo.get_by_key("b") == [Delta(REPLACED, b)]


def _listener() -> ProcessorListener:
    return ProcessorListener(ResourceEventHandlerFuncs(), 0.0, 0.0, 0.0, lambda: True)


def test_distribute_many_hands_runs_in_order_and_sync_notes_only_to_listeners_due() -> None:
    core = ProcessorCore()
    due, other, removed = _listener(), _listener(), _listener()
    for listener in (due, other, removed):
        core.add_listener(listener)
    core.remove_listener(removed)
    core.syncing = [due]
    adds = [AddNotification(i, True) for i in range(3)]
    sync = UpdateNotification("x", "x")
    later = AddNotification(9, False)
    core.distribute_many([(adds[0], False), (adds[1], False), (sync, True), (adds[2], False), (later, False)])
    assert list(due.pending) == [adds[0], adds[1], sync, adds[2], later]
    assert list(other.pending) == [adds[0], adds[1], adds[2], later]
    assert not removed.pending
    assert due.initial_pending == other.initial_pending == 3
    notes = core.take(other)
    assert isinstance(notes, list)
    core.done_many(other, notes)
    assert other.initial_pending == 0 and due.initial_pending == 3
