"""Structural pruning: what the apiserver does to a custom resource's fields its CRD lacks.

apiextensions-apiserver decodes a custom resource as unstructured JSON and prunes it by the
version's structural schema (``structuralpruning.PruneWithOptions``, pkg/apiserver/schema/pruning):
a field no ``properties`` declare is dropped at any depth, inside list items
(``spec.items[0].x``) and ``additionalProperties`` values (``spec.m.<key>.x``: a map's key is a
path segment after a dot, not an index) alike. ``x-kubernetes-preserve-unknown-fields: true``
keeps the unknown fields of the object it is on, but the fields that object *does* declare are
still pruned below it (``spec.free.k.x`` goes when ``free`` preserves and ``k`` declares only
``z``). At the root ``apiVersion``, ``kind`` and ``metadata`` are always kept; ``metadata`` is
coerced to ``ObjectMeta`` separately (``kgen.runtime.fake.schema.decode``).

The pruned paths are what ``fieldValidation`` reports, after ``metadata``'s own: the CRD handler's
``unstructuredSchemaCoercer.apply`` lists the ObjectMeta unknowns first, then the pruned paths,
which ``PruneWithOptions`` sorts (``sort.Strings``). Checked against the real apiserver by
tests/integration/test_fake_vs_server.py (the ``strict-custom-resource`` scenario).

An object declaring neither ``properties`` nor ``additionalProperties`` (``type: object``
alone: the generator's untyped map, without preserve-unknown-fields) keeps no field at all. A
``null`` a declared, non-nullable field or a typed ``additionalProperties`` value holds is
dropped without a word (``PruneNonNullableNullsWithoutDefaults``; the null of a field with a
default goes too, and ``decode`` then defaults the field, as the server does; the merge schema
does not say whether ``additionalProperties`` is nullable: its nulls always go). An
``x-kubernetes-embedded-resource`` keeps ``apiVersion``, ``kind`` and ``metadata``, and its
``metadata`` is coerced to ObjectMeta (``schemaobjectmeta.Coerce``), its unknowns reported after
the pruned paths, in the order the walk meets them.

The schema is the merge schema of the generated package the kind's model comes from (the
same one its field manager uses, ``kgen.runtime.fake.schema.fieldmanagers``). A ``null`` list item is the
server's validation error (422), which the fake, doing no validation, does not give.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kgen.runtime.apimachinery.mergeschema import FieldType, TypeSchema, schema_for

_ROOT_KEPT = frozenset({"apiVersion", "kind", "metadata"})
"""Fields a custom resource's root always keeps (``metadata`` is ObjectMeta's to prune)."""


def crd_schema(api_version: str, kind: str, package: str | None) -> TypeSchema | None:
    """The structural schema of a custom resource, from the merge schema of the generated
    ``package`` its model lives in; None without a package or when its root preserves unknown
    fields (a schemaless CRD: nothing is pruned)."""
    ts = schema_for(api_version, kind, package=package) if package else None
    return None if ts is None or ts.preserve_unknown_fields else ts


MetaCoercion = Callable[[dict[str, Any], str], tuple[dict[str, Any], list[str]]]
"""ObjectMeta's coercion of an embedded resource's ``metadata`` at a path: (kept, unknown paths)."""
_EMBEDDED_KEPT = frozenset({"apiVersion", "kind"})


def prune(obj: dict[str, Any], root: TypeSchema, coerce: MetaCoercion) -> tuple[dict[str, Any], list[str]]:
    """``obj`` pruned by ``root`` (``metadata`` untouched), and the unknown paths: those pruned,
    sorted, then embedded resources' ``metadata``'s, as ``coerce`` finds them."""
    walk = _Walk(coerce)
    out: dict[str, Any] = {}
    for key, value in obj.items():
        field = root.field(key)
        if key in _ROOT_KEPT:
            out[key] = value
        elif field is None:
            walk.pruned.append(key)
        elif value is not None or field.nullable:
            out[key] = walk.value(value, root, field.type, field.preserve_unknown_fields, field.embedded_resource, key)
    return out, sorted(walk.pruned) + walk.embedded


class _Walk:
    def __init__(self, coerce: MetaCoercion) -> None:
        self.coerce = coerce
        self.pruned: list[str] = []
        self.embedded: list[str] = []

    def value(self, value: Any, owner: TypeSchema, t: FieldType, preserve: bool, embedded: bool, path: str) -> Any:
        preserve, embedded = preserve or t.preserve_unknown_fields, embedded or t.embedded_resource
        if not isinstance(value, (dict, list)):
            return value
        if not preserve and isinstance(value, dict) and t.kind in ("scalar", "int-or-string", "list"):
            return self.nothing(value, path)  # an object where a list or a scalar belongs: nothing declared
        if not preserve and isinstance(value, list) and t.kind in ("scalar", "int-or-string", "struct", "map"):
            return [self.nothing(item, f"{path}[{i}]") for i, item in enumerate(value)]  # a list: no item schema
        if t.kind == "list" and t.element is not None and isinstance(value, list):
            element = t.element
            return [self.value(item, owner, element, False, False, f"{path}[{i}]") for i, item in enumerate(value)]
        if not isinstance(value, dict):
            return value
        ts = owner.resolve(t) if t.kind == "struct" else None
        if ts is None and t.kind == "map" and t.element is not None and t.element.kind != "untyped":
            element = t.element
            return {k: self.value(item, owner, element, False, False, f"{path}.{k}") for k, item in value.items() if item is not None}
        if ts is None and not (t.kind == "map" and t.element is not None and t.element.kind == "untyped"):
            return value  # a leaf or an untyped value: not an object the schema describes
        if ts is None and t.element is not None and t.element.preserve_unknown_fields:
            preserve = True
        return self.object(value, ts, preserve, embedded, path)

    def nothing(self, value: Any, path: str) -> Any:
        """``value`` pruned by no schema (pruning's nil ``Structural``): an object where the schema
        declares no properties (a list or a scalar type), or a list's item where it has no
        ``items``, keeps none of its fields, at any depth."""
        if isinstance(value, dict):
            self.pruned.extend(f"{path}.{key}" for key in value)
            return {}
        if isinstance(value, list):
            return [self.nothing(item, f"{path}[{i}]") for i, item in enumerate(value)]
        return value

    def object(self, value: dict[str, Any], ts: TypeSchema | None, preserve: bool, embedded: bool, path: str) -> dict[str, Any]:
        """An object's fields: ``ts``'s (None: it declares none), the rest kept only under preserve."""
        out: dict[str, Any] = {}
        for key, item in value.items():
            field = ts.field(key) if ts is not None else None
            child = f"{path}.{key}"
            if embedded and key == "metadata" and isinstance(item, dict):
                out[key], unknown = self.coerce(item, child)
                self.embedded += unknown
            elif field is not None and ts is not None:
                if item is not None or field.nullable:
                    out[key] = self.value(item, ts, field.type, field.preserve_unknown_fields, field.embedded_resource, child)
            elif preserve or (embedded and key in _EMBEDDED_KEPT):
                out[key] = item
            else:
                self.pruned.append(child)
        return out


__all__ = ["crd_schema", "prune"]
