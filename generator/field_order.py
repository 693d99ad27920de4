"""The order in which a built-in model declares its fields: the Go struct's, as the apiserver
writes them.

The OpenAPI documents sort every schema's properties, so the order of a Go struct's fields
(which encoding/json follows when the apiserver writes an object) is not in them. kgen ships it
for the Kubernetes version of its embedded snapshot: openapi/field_order.json, the output of
hack/oracle/fieldorder (the Go types of client-go and apiextensions-apiserver read by
reflection; tests/unit/test_field_order.py checks it for drift).

Declaring fields in that order has two effects users see:

- ``to_json`` writes a built-in object's keys in the server's order, so an object read and
  written back is byte for byte what the server sent (the keys at least), and diffs against
  ``kubectl get -o json`` line up;
- decoding allocates a server response's objects in the order the encoder later walks them,
  so encoding a decoded object reads memory in sequence (measured: bench/encode_breakdown.py).

One table serves every embedded snapshot (`kgen generate --kubernetes`): it is read from the
newest release's Go types, and an older release's are a subset of them, their fields in the
same relative order (Kubernetes adds fields to its API types and never moves one), so
``wire_order`` restricted to an older release's fields is that release's order. What an older
release has and the newest dropped (alpha fields and their types: 1.35's PodSpec.workloadRef,
1.36's NodeAllocatableResourceMapping) is in openapi/field_order_dropped.json, read from that
release's Go types (k8s.io/api v0.35.4, v0.36.3): a dropped field after the newest's fields (each
was its struct's last), a dropped type whole. tests/unit/test_field_order.py checks that the
two tables together order every definition and field of each embedded snapshot.

A definition the table does not know (a CRD: the apiserver writes custom resources with their
keys sorted, as Go marshals a map; aggregated APIs; a newer server's types) keeps the sorted
order, and a field the table does not list (a newer server's) follows the listed ones, sorted.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterable
from pathlib import Path

TABLE = Path(__file__).resolve().parent.parent / "openapi" / "field_order.json"
DROPPED = TABLE.with_name("field_order_dropped.json")


@functools.cache
def _table() -> dict[str, tuple[str, ...]]:
    table = {name: tuple(fields) for name, fields in json.loads(TABLE.read_text()).items()}
    for name, fields in json.loads(DROPPED.read_text()).items():
        known = table.get(name, ())
        table[name] = known + tuple(f for f in fields if f not in known)
    return table


def wire_order(definition: str, wire_names: Iterable[str]) -> list[str]:
    """``wire_names`` in the order the Go type ``definition`` (an OpenAPI definition name such as
    ``io.k8s.api.core.v1.PodSpec``) declares them; sorted where the table says nothing."""
    names = set(wire_names)
    known = [name for name in _table().get(definition, ()) if name in names]
    return known + sorted(names.difference(known))
