"""Structural pruning: what the apiserver does to a custom resource's fields its CRD lacks.

apiextensions-apiserver decodes a custom resource as unstructured JSON and prunes it by the
version's structural schema (``structuralpruning.PruneWithOptions``, pkg/apiserver/schema/pruning):
a field no ``properties`` declare is dropped at any depth, inside list items
(``spec.items[0].x``) and ``additionalProperties`` values (``spec.m.<key>.x``: a map's key is a
path segment after a dot, not an index) alike. ``x-kubernetes-preserve-unknown-fields: true``
keeps the unknown fields of the object it is on, but the fields that object *does* declare are
still pruned below it (``spec.free.k.x`` goes when ``free`` preserves and ``k`` declares only
``z``). At the root ``apiVersion``, ``kind`` and ``metadata`` are always kept; ``metadata`` is
coerced to ``ObjectMeta`` separately (``kgen.runtime.fake.schema``).

The pruned paths are what ``fieldValidation`` reports, after ``metadata``'s own: the CRD handler's
``unstructuredSchemaCoercer.apply`` lists the ObjectMeta unknowns first, then the pruned paths,
which ``PruneWithOptions`` sorts (``sort.Strings``). Checked against the real apiserver by
tests/integration/test_fake_vs_server.py (the ``strict-custom-resource`` scenario).

The schema is the merge schema of the generated package the kind's model comes from (the
same one its field manager uses, ``kgen.runtime.fake.fieldmanagers``). Not modelled, so kept as
they are: a field the generator renders untyped (an object with neither ``properties`` nor
``additionalProperties``, which the server would empty unless it preserves unknown fields), and
the ``metadata`` of an ``x-kubernetes-embedded-resource`` (which the server coerces to
ObjectMeta too, reporting its unknowns last).
"""

from __future__ import annotations

from typing import Any

from kgen.runtime.apimachinery.mergeschema import FieldType, TypeSchema, schema_for

#: Fields a custom resource's root always keeps (``metadata`` is ObjectMeta's to prune).
_ROOT_KEPT = frozenset({"apiVersion", "kind", "metadata"})


def crd_schema(api_version: str, kind: str, package: str | None) -> TypeSchema | None:
    """The structural schema of a custom resource, from the merge schema of the generated
    ``package`` its model lives in; None without a package or when its root preserves unknown
    fields (a schemaless CRD: nothing is pruned)."""
    ts = schema_for(api_version, kind, package=package) if package else None
    return None if ts is None or ts.preserve_unknown_fields else ts


def prune(obj: dict[str, Any], root: TypeSchema) -> tuple[dict[str, Any], list[str]]:
    """``obj`` pruned by ``root`` (``metadata`` untouched), and the pruned paths, sorted."""
    found: list[str] = []
    out: dict[str, Any] = {}
    for key, value in obj.items():
        field = root.field(key)
        if key in _ROOT_KEPT:
            out[key] = value
        elif field is None:
            found.append(key)
        else:
            out[key] = _value(value, root, field.type, field.preserve_unknown_fields, key, found)
    return out, sorted(found)


def _object(value: dict[str, Any], ts: TypeSchema, preserve: bool, path: str, found: list[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, item in value.items():
        field = ts.field(key)
        child = f"{path}.{key}"
        if field is not None:
            out[key] = _value(item, ts, field.type, field.preserve_unknown_fields, child, found)
        elif preserve:
            out[key] = item
        else:
            found.append(child)
    return out


def _value(value: Any, owner: TypeSchema, t: FieldType, preserve: bool, path: str, found: list[str]) -> Any:
    preserve = preserve or t.preserve_unknown_fields
    if t.kind == "struct" and isinstance(value, dict):
        ts = owner.resolve(t)
        return _object(value, ts, preserve, path, found) if ts is not None else value
    if t.kind == "list" and t.element is not None and isinstance(value, list):
        element = t.element
        return [_value(item, owner, element, False, f"{path}[{i}]", found) for i, item in enumerate(value)]
    if t.kind == "map" and t.element is not None and isinstance(value, dict) and t.element.kind != "untyped":
        element = t.element
        return {k: _value(item, owner, element, False, f"{path}.{k}", found) for k, item in value.items()}
    return value


__all__ = ["crd_schema", "prune"]
