"""Built-in models declare their fields in the Go struct's order (generator/field_order.py), so
``to_json`` writes the apiserver's key order."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from kgen.generator.field_order import DROPPED, TABLE, _table, wire_order
from kgen.generator.generate import embedded_snapshot, embedded_versions

def test_the_field_order_table_is_what_the_go_types_say() -> None:
    """openapi/field_order.json is hack/oracle/fieldorder's output (regenerate:
    ``$(hack/oracle/build.sh fieldorder) > openapi/field_order.json``)."""
    from tests.support.oracle import oracle_binary

    fresh = json.loads(subprocess.run([str(oracle_binary("fieldorder"))], check=True, capture_output=True, text=True).stdout)
    assert json.loads(TABLE.read_text()) == fresh
    # TypeMeta is inline and declares Kind before APIVersion.
    assert fresh["io.k8s.api.core.v1.Pod"] == ["kind", "apiVersion", "metadata", "spec", "status"]


def _snapshot_schemas(folder: Path) -> dict[str, set[str]]:
    schemas: dict[str, set[str]] = {}
    for path in folder.glob("openapi/v3/**/*.json"):
        for name, schema in json.loads(path.read_text()).get("components", {}).get("schemas", {}).items():
            if schema.get("properties"):
                schemas[name] = set(schema["properties"])
    return schemas


def test_the_table_lists_exactly_the_properties_of_every_definition_it_shares_with_the_snapshot() -> None:
    """The table is the newest release's (the oracle's client-go is the envtest version's)."""
    table = json.loads(TABLE.read_text())
    schemas = _snapshot_schemas(embedded_snapshot())
    shared = set(schemas) & set(table)
    assert len(shared) > 500
    assert {name: set(table[name]) for name in shared} == {name: schemas[name] for name in shared}


@pytest.mark.parametrize("version", embedded_versions()[:-1])
def test_an_older_embedded_release_has_no_definition_or_field_the_tables_do_not_order(version: str) -> None:
    """`kgen generate --kubernetes <older>` orders fields with the newest release's table plus
    openapi/field_order_dropped.json (what older releases have and the newest dropped)."""
    table = {name: set(fields) for name, fields in _table().items()}
    schemas = _snapshot_schemas(embedded_snapshot(version))
    # Definitions no Go kind reaches (version.Info) are outside the table in the newest too.
    unordered_in_newest = set(_snapshot_schemas(embedded_snapshot())) - set(table)
    assert sorted(set(schemas) - set(table) - unordered_in_newest) == []
    shared = set(schemas) & set(table)
    assert len(shared) > 500
    assert {name: sorted(schemas[name] - table[name]) for name in shared if schemas[name] - table[name]} == {}


def test_the_dropped_table_lists_only_what_an_older_release_has_and_the_newest_does_not() -> None:
    newest = _snapshot_schemas(embedded_snapshot())
    older = [_snapshot_schemas(embedded_snapshot(v)) for v in embedded_versions()[:-1]]
    for name, fields in json.loads(DROPPED.read_text()).items():
        assert not set(fields) & newest.get(name, set()), name
        having = [schemas[name] for schemas in older if name in schemas and set(fields) <= schemas[name]]
        assert having, f"{name}: {fields} in no older embedded release"
        if name not in newest:  # a whole dropped type: every field, in Go's order
            assert set(fields) == having[0], name


def test_unknown_definitions_and_fields_are_sorted_after_the_known_ones() -> None:
    assert wire_order("io.k8s.api.core.v1.Pod", ["status", "spec", "zNew", "aNew", "kind"]) == [
        "kind", "spec", "status", "aNew", "zNew"]
    assert wire_order("com.example.v1.Widget", ["spec", "apiVersion", "kind"]) == ["apiVersion", "kind", "spec"]
    # 1.36's NodeAllocatableResourceMapping, dropped by 1.37: its Go order, not sorted.
    assert wire_order("io.k8s.api.resource.v1.NodeAllocatableResourceMapping", ["allocationMultiplier", "capacityKey"]) == [
        "capacityKey", "allocationMultiplier"]


def test_a_decoded_pod_is_written_back_with_the_servers_key_order() -> None:
    from kgen.kubernetes.models.core.v1 import Pod

    sent = (b'{"kind":"Pod","apiVersion":"v1","metadata":{"name":"web","namespace":"prod","uid":"u",'
            b'"resourceVersion":"7","creationTimestamp":"2026-12-03T00:00:00Z","labels":{"b":"1","a":"2"}},'
            b'"spec":{"containers":[{"name":"app","image":"nginx","ports":[{"containerPort":80,"protocol":"TCP"}],'
            b'"resources":{},"imagePullPolicy":"Always"}],"restartPolicy":"Always","dnsPolicy":"ClusterFirst"},'
            b'"status":{"phase":"Pending","qosClass":"BestEffort"}}')
    assert Pod.from_json(sent).to_json() == sent
