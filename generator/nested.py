"""Nested object schemas: which are one class, which module owns it, what it is called.

A CRD's OpenAPI schema inlines every nested object, where the Go types it was generated from
share them by name: prometheus-operator's Prometheus, Alertmanager and ThanosRuler each embed
``corev1.Container``, ``corev1.Affinity``, ``corev1.Volume``..., and each CRD version repeats
them. Generated one class per place, that is thousands of near-identical classes. Here, before
any class is built, every nested object schema of the package is found and keyed by its
*identity*; schemas with the same identity become one class, so the package defines a shared
type once, as client-go's generated code does for the Go types.

Identity (decided by measurement, see bench/crd_sets.py): the schema with only the keywords the
model builder reads (``generator/models.py``: properties, required, type, items,
additionalProperties, $ref, allOf/anyOf/oneOf, enum, format, nullable, default, description and
the ``x-kubernetes-*`` facts), recursively; validation-only keywords (pattern, maxLength,
minimum...) do not change the class, so they do not split it. What describes the *field* holding
the object rather than the object is left out at the top: its ``nullable``, ``default``,
``description`` and ``x-kubernetes-*`` facts (but ``x-kubernetes-map-type``, which makes the
class atomic for server-side apply). A CRD has no type descriptions: an object's description
says what the field holding it is for ("TLS config for Alertmanager", "... for the API
server"), and the parent's docstring of that field already shows it; the shared class keeps it
as its own docstring only where every use agrees. The descriptions of the class's own fields
are part of the identity: every field docstring a user reads is the one written for that place.
On prometheus-operator v0.85.0 this gives 268 classes in its group-versions; keeping the
objects' own descriptions too gave 459, and ignoring every description 257 (with one kind's
field documentation shown on another's fields).

Owner: a class lives in the first models module, in the package's sorted module order, that
uses it (one shared class per package, across kinds, versions and groups: cert-manager.io's
issuers use acme.cert-manager.io's solver classes); the other modules import that module, as
they import ``meta/v1``, and re-export the class (``Name = alias.Name``, ``Module.shared``), so
``from pkg.models.gateway.v1beta1 import HTTPRouteSpec`` works whichever version defines it. A
class is defined only in its owner, so a module imports only modules before it in that order:
never a cycle.

Names: the rule in naming.py's docstring (``naming.nested_class_names``).
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from . import naming

#: Keywords the model builder reads (models.py); any other keyword leaves the class unchanged.
_READ = frozenset({
    "properties", "required", "type", "items", "additionalProperties", "$ref", "allOf", "anyOf",
    "oneOf", "enum", "format", "nullable", "default", "description",
})
#: Keywords that hold one schema, or a list of schemas.
_ONE = ("items", "additionalProperties")
_MANY = ("allOf", "anyOf", "oneOf")
#: Keywords of a class's own schema that the builder reads into the field holding it (in a CRD
#: an object's description is its field's: the parent's docstring for that field shows it).
_FIELD_ONLY = frozenset({"nullable", "default", "description"})
#: ``x-kubernetes-*`` keywords of a class's own schema the builder reads into the class itself
#: (``Model.atomic``, for apply configurations); the others are facts of the holding field.
_CLASS_FACTS = frozenset({"x-kubernetes-map-type"})


def _normal(schema: Any) -> Any:
    """``schema`` with only what makes a class differ, for identity."""
    if not isinstance(schema, dict):
        return schema
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if not isinstance(key, str) or not (key in _READ or key.startswith("x-kubernetes-")):
            continue
        if key == "properties" and isinstance(value, dict):
            # YAML may give a property an int name: json.dumps cannot sort str and int keys.
            value = {name if isinstance(name, str) else f"{type(name).__name__}:{name!r}": _normal(sub)
                     for name, sub in value.items()}
        elif key in _ONE:
            value = _normal(value)
        elif key in _MANY and isinstance(value, list):
            value = [_normal(sub) for sub in value]
        out[key] = value
    return out


def identity(schema: dict[str, Any]) -> str:
    """Equal for two object schemas exactly when the model builder makes them the same class."""
    top = {k: v for k, v in _normal(schema).items()
           if k not in _FIELD_ONLY and (k in _CLASS_FACTS or not k.startswith("x-kubernetes-"))}
    return json.dumps(top, sort_keys=True, default=repr, ensure_ascii=False)


def unwrap_all_of(schema: dict[str, Any]) -> dict[str, Any]:
    """``allOf: [{$ref}]`` with sibling description/default is the same type as the ref."""
    all_of = schema.get("allOf")
    if isinstance(all_of, list) and len(all_of) == 1 and isinstance(all_of[0], dict):
        merged = {k: v for k, v in schema.items() if k != "allOf"}
        return {**all_of[0], **{k: v for k, v in merged.items() if k not in all_of[0]}}
    return schema


def is_class(schema: dict[str, Any]) -> bool:
    return isinstance(schema.get("properties"), dict) and bool(schema["properties"])


def is_int_or_string(schema: dict[str, Any]) -> bool:
    if schema.get("x-kubernetes-int-or-string") or schema.get("format") == "int-or-string":
        return True
    for key in ("anyOf", "oneOf"):
        members = schema.get(key)
        if isinstance(members, list) and sorted(str(m.get("type")) for m in members if isinstance(m, dict)) == [
            "integer",
            "string",
        ]:
            return True
    return False


@dataclass
class Nested:
    """One shared class: where it appears (module key and property path from its root class)."""

    key: str
    uses: list[tuple[tuple[str, str], tuple[str, ...]]] = field(default_factory=list)
    descriptions: set[str] = field(default_factory=set)  # its schema's own, one per distinct use
    owner: tuple[str, str] = ("", "")
    name: str = ""

    @property
    def description(self) -> str:
        """The class's docstring: its schema's description where every use has the same one;
        where they differ ("TLS config for Alertmanager", "... for the API server"), none:
        each describes the field holding the object, and the parent's docstring of that
        field shows it."""
        return next(iter(self.descriptions)) if len(self.descriptions) == 1 else ""

    @property
    def path(self) -> tuple[str, ...]:
        """The path its name is made from: a use under the property name most of its uses have
        (ties: the one used nearest a root, then alphabetical), the first such use in sorted
        order. gateway-api's ParentReference is the routes' ``spec.parentRefs`` (6 uses), their
        ``status.parents[].parentRef`` (6) and a policy's ``ancestorRef`` (1): ``ParentRefs``,
        whatever kind sorts first."""
        counts = Counter(path[-1] for _, path in self.uses)
        depth = {n: min(len(path) for _, path in self.uses if path[-1] == n) for n in counts}
        name = min(counts, key=lambda n: (-counts[n], depth[n], n))
        return min(use for use in self.uses if use[1][-1] == name)[1]


class NestedClasses:
    """Every nested class of a package, found from the root classes' schemas before building."""

    def __init__(self) -> None:
        self.by_key: dict[str, Nested] = {}

    def walk(self, module: tuple[str, str], root: str, schema: dict[str, Any]) -> None:
        """Records the nested classes of the class ``root`` (whose schema is ``schema``)."""
        props = schema.get("properties")
        if isinstance(props, dict):
            for wire, sub in props.items():
                self._type(module, (root, str(wire)), sub)

    def _type(self, module: tuple[str, str], path: tuple[str, ...], schema: Any) -> None:
        # The shape of models.ModelBuilder.annotation; malformed input is skipped here and
        # reported by the builder, which sees it next.
        if not isinstance(schema, dict):
            return
        schema = unwrap_all_of(schema)
        if "$ref" in schema or is_int_or_string(schema):
            return
        kind = schema.get("type")
        if kind == "array":
            self._type(module, path, schema.get("items"))
        elif kind == "object" or (kind is None and ("properties" in schema or "additionalProperties" in schema)):
            if is_class(schema):
                key = identity(schema)
                nested = self.by_key.setdefault(key, Nested(key))
                nested.uses.append((module, path))
                nested.descriptions.add(str(schema.get("description") or ""))
                for wire, sub in schema["properties"].items():
                    self._type(module, (*path, str(wire)), sub)
            else:
                self._type(module, path, schema.get("additionalProperties"))

    def plan(self, taken: dict[tuple[str, str], set[str]]) -> None:
        """Owner module and class name of every nested class; ``taken``: names in use per module.

        A class is named in every module it appears in: defined in its owner, re-exported by
        the others (``Name = owner.Name``), so each version module offers every class its kinds
        use, whichever module defines it.
        """
        for nested in self.by_key.values():
            nested.owner = min(module for module, _ in nested.uses)
        names = naming.nested_class_names(
            {n.key: n.path for n in self.by_key.values()},
            {n.key: self.modules_of(n) for n in self.by_key.values()},
            taken,
        )
        for n in self.by_key.values():
            n.name = names[n.key]
            for module in self.modules_of(n):
                taken.setdefault(module, set()).add(n.name)

    @staticmethod
    def modules_of(nested: Nested) -> list[tuple[str, str]]:
        return sorted({module for module, _ in nested.uses})
