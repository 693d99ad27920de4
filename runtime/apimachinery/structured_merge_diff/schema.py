"""structured-merge-diff's schema of a kind, read from kgen's merge schema.

The apiserver gives structured-merge-diff a ``schema.Schema`` built from its OpenAPI by
kube-openapi's ``schemaconv`` (``ToSchemaFromOpenAPI``; for a custom resource, from the OpenAPI
the apiextensions-apiserver builds out of the structural schema). This module reads the same
facts from ``kgen.runtime.apimachinery.mergeschema`` and makes the same atoms:

- an object is a ``MapType``: its properties are ``fields``; its element type (for keys that are
  not properties) is *deduced* when it preserves unknown fields or has no properties at all, and
  absent otherwise; ``x-kubernetes-map-type: atomic`` makes it atomic (on the type, or on the
  field that refers to it: ``makeOpenAPIRef`` puts the field's map type on the reference);
- a list's relationship is ``getListElementRelationship``'s: ``x-kubernetes-list-type`` (atomic,
  set, map with ``x-kubernetes-list-map-keys``) and, without it, ``x-kubernetes-patch-strategy``
  ``merge`` (with ``x-kubernetes-patch-merge-key``: a map keyed by it; without: a set),
  ``retainKeys`` atomic, nothing atomic;
- a JSON value of any shape (``untyped``) is ``__untyped_deduced_``: a scalar, an atomic list or
  a granular map of deduced values, whichever the value is (``deduceAtom``);
- ``x-kubernetes-preserve-unknown-fields`` carries down to every object inlined below it
  (``convert.push`` copies ``preserveUnknownFields``).

A scalar's type (string, numeric, boolean or untyped) is not in the merge schema: it is read
from the annotation of the generated model's field (``str``, ``int``, ``Quantity``...), which
the generator wrote from the same OpenAPI type and format. Difference the merge schema cannot
show: ``RawExtension`` (``__untyped_atomic_`` there) reads as deduced here.

The default of an associative list's key field (``getAssociativeKeyDefault``) comes from the
OpenAPI ``default`` of that property, which the merge schema does not carry: ``KEY_DEFAULTS``
holds every one of the snapshot (tests/unit/test_fieldmanager.py checks it against openapi/).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Any

from kgen.runtime.apimachinery.mergeschema import FieldSchema, FieldType, TypeSchema, merge_schema

__all__ = ["Atom", "DEDUCED", "KEY_DEFAULTS", "ListType", "MapType", "SCHEMALESS", "TypeRef", "atom_for"]

KEY_DEFAULTS: dict[tuple[str, str], Any] = {
    **{(f"admissionregistration.v1.{c}", "name"): "" for c in ("MatchCondition", "MutatingWebhook", "ValidatingWebhook", "Variable")},
    **{(f"apps.v1.{c}Condition", "type"): "" for c in ("DaemonSet", "Deployment", "ReplicaSet", "StatefulSet")},
    ("autoscaling.v2.HorizontalPodAutoscalerCondition", "type"): "",
    ("certificates.v1.CertificateSigningRequestCondition", "type"): "",
    **{(f"core.v1.{c}", "type"): "" for c in (
        "ComponentCondition", "NamespaceCondition", "NodeAddress", "NodeCondition", "PersistentVolumeClaimCondition",
        "PodCondition", "ReplicationControllerCondition",
    )},
    **{(f"core.v1.{c}", "name"): "" for c in (
        "Container", "EnvVar", "EphemeralContainer", "EvictionResponder", "LocalObjectReference",
        "NodeAllocatableMappedResources", "NodeAllocatableOverheadResources", "PodResourceClaim",
        "PodResourceClaimStatus", "PodSchedulingGate", "PodVolumeHealth", "ResourceClaim", "ResourceStatus", "Volume",
    )},
    ("core.v1.ContainerPort", "containerPort"): 0,
    ("core.v1.ContainerPort", "protocol"): "TCP",
    ("core.v1.HostAlias", "ip"): "",
    ("core.v1.NodeAllocatableResourceClaimStatus", "resourceClaimName"): "",
    ("core.v1.PodIP", "ip"): "",
    ("core.v1.ResourceHealth", "resourceID"): "",
    ("core.v1.ServicePort", "port"): 0,
    ("core.v1.ServicePort", "protocol"): "TCP",
    ("core.v1.TopologySpreadConstraint", "topologyKey"): "",
    ("core.v1.TopologySpreadConstraint", "whenUnsatisfiable"): "",
    ("core.v1.VolumeDevice", "devicePath"): "",
    ("core.v1.VolumeHealthCondition", "reason"): "",
    ("core.v1.VolumeHealthCondition", "status"): "",
    ("core.v1.VolumeMount", "mountPath"): "",
    ("core.v1.VolumeMountStatus", "mountPath"): "",
    **{("resource.v1.AllocatedDeviceStatus", k): "" for k in ("device", "driver", "pool")},
    ("resource.v1.ResourceClaimConsumerReference", "uid"): "",
    ("scheduling.v1alpha3.WorkloadPodGroupResourceClaim", "name"): "",
    ("storage.v1.CSINodeDriver", "name"): "",
    ("storage.v1.StorageHealth", "name"): "",
    ("apiextensions.v1.CustomResourceDefinitionCondition", "type"): "",
    ("apiextensions.v1.ValidationRule", "rule"): "",
    ("meta.v1.Condition", "type"): "",
    ("meta.v1.OwnerReference", "uid"): "",
    ("apiregistration.v1.APIServiceCondition", "type"): "",
}
"""(merge-schema class reference, key field) -> the OpenAPI default of that key field."""


class TypeRef:
    """A lazily built atom (``schema.TypeRef``): schemas are recursive (JSONSchemaProps)."""

    __slots__ = ("_build", "_atom")

    def __init__(self, build: Any) -> None:
        self._build = build
        self._atom: Atom | None = None

    def resolve(self) -> Atom:
        """The type the reference stands for (built on first use, so types may refer to themselves)."""
        if self._atom is None:
            self._atom = self._build()
        return self._atom


@dataclass(eq=False)
class ListType:
    """A list type: its element type, whether it is associative (a set or a map by ``keys``), and the
    defaults of its key fields."""

    element: TypeRef
    associative: bool
    keys: tuple[str, ...] = ()
    key_defaults: dict[str, Any] = field(default_factory=dict)
    """key field -> default, for the element type's key fields that have one"""


@dataclass(eq=False)
class MapType:
    """A map (or struct) type: its fields' types, its element type, and whether it is atomic."""

    fields: dict[str, TypeRef]
    element: TypeRef | None
    atomic: bool


@dataclass(eq=False)
class Atom:
    """``schema.Atom``: what a value at this place may be (more than one for untyped);
    ``scalar_type`` is ``schema.Scalar``: "string", "numeric", "boolean" or "untyped"."""

    scalar: bool = False
    list: ListType | None = None
    map: MapType | None = None
    scalar_type: str = "untyped"


_SCALARS = {kind: Atom(scalar=True, scalar_type=kind) for kind in ("string", "numeric", "boolean", "untyped")}
_UNTYPED_ATOMIC_REF = TypeRef(lambda: UNTYPED_ATOMIC)
UNTYPED_ATOMIC: Atom = Atom(True, ListType(_UNTYPED_ATOMIC_REF, False), MapType({}, _UNTYPED_ATOMIC_REF, True))
_DEDUCED_REF = TypeRef(lambda: DEDUCED)
DEDUCED: Atom = Atom(True, ListType(_UNTYPED_ATOMIC_REF, False), MapType({}, _DEDUCED_REF, False))
"""The deduced type: scalars, atomic lists and granular maps, as structured-merge-diff deduces a value
of no schema."""


@dataclass(frozen=True)
class _Facts:
    list_type: str | None = None
    keys: tuple[str, ...] = ()
    map_type: str | None = None
    patch_strategy: str | None = None
    patch_merge_key: str | None = None


def _list_relationship(facts: _Facts) -> tuple[bool, tuple[str, ...]]:
    """``getListElementRelationship``: (associative, keys)."""
    if facts.list_type is not None:
        if facts.list_type == "set":
            return True, ()
        if facts.list_type == "map":
            return True, facts.keys
        return False, ()
    if facts.patch_strategy in ("merge", "merge,retainKeys"):
        return True, (facts.patch_merge_key,) if facts.patch_merge_key else ()
    return False, ()


def _split_union(annotation: str) -> list[str]:
    """The members of ``A | B`` at the top level (not inside brackets), ``None`` left out."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(annotation):
        depth += ch == "["
        depth -= ch == "]"
        if ch == "|" and depth == 0:
            parts.append(annotation[start:i].strip())
            start = i + 1
    parts.append(annotation[start:].strip())
    return [p for p in parts if p != "None"]


def _scalar_type(annotation: str | None) -> str:
    """``convertPrimitive``'s scalar, read from the model's annotation: a plain string or an
    enum is "string", int/float "numeric", bool "boolean"; Quantity, IntOrString, Time
    (format date-time) and anything else "untyped"."""
    parts = _split_union(annotation) if annotation else []
    if parts and all(p == "str" or p.startswith("Literal[") for p in parts):
        return "string"
    if parts and set(parts) <= {"int", "float"}:
        return "numeric"
    if parts == ["bool"]:
        return "boolean"
    return "untyped"


def _element_annotation(annotation: str | None) -> str | None:
    """``list[X]`` / ``dict[str, X]`` -> ``X``."""
    parts = _split_union(annotation) if annotation else []
    if len(parts) != 1:
        return None
    part = parts[0]
    if part.startswith("list[") and part.endswith("]"):
        return part[5:-1]
    if part.startswith("dict[str, ") and part.endswith("]"):
        return part[10:-1]
    return None


def _annotations(ts: TypeSchema) -> dict[str, str]:
    """The generated model class's annotations by wire name (the merge schema says "scalar";
    the model says which)."""
    module_path, _, name = ts.ref.rpartition(".")
    try:
        module = importlib.import_module(f"{ts._schemas.package}.models.{module_path}")  # the package's models
    except ImportError:
        return {}
    cls = getattr(module, name, None)
    if cls is None:
        return {}
    annotations: dict[str, str] = {}
    for klass in reversed(cls.__mro__):
        annotations.update({k: v for k, v in getattr(klass, "__annotations__", {}).items() if isinstance(v, str)})
    wire = dict(zip(getattr(cls, "__struct_fields__", ()), getattr(cls, "__struct_encode_fields__", ())))
    return {wire.get(k, k): v for k, v in annotations.items()}


def _struct(ts: TypeSchema, preserve: bool, map_type: str | None) -> Atom:
    preserve = preserve or ts.preserve_unknown_fields
    annotations = _annotations(ts)
    fields = {name: _field_ref(ts, f, preserve, annotations.get(name)) for name, f in ts.fields.items()}
    element = _DEDUCED_REF if preserve or not ts.fields else None
    atomic = map_type == "atomic" if map_type is not None else ts.atomic
    return Atom(map=MapType(fields, element, atomic))


def _field_ref(owner: TypeSchema, f: FieldSchema, preserve: bool, annotation: str | None) -> TypeRef:
    facts = _Facts(f.list_type, f.list_map_keys, f.map_type, f.patch_strategy, f.patch_merge_key)
    preserve = preserve or f.preserve_unknown_fields
    return TypeRef(lambda: _atom(owner, f.type, facts, preserve, annotation))


def _atom(owner: TypeSchema, t: FieldType, facts: _Facts, preserve: bool, annotation: str | None) -> Atom:
    if t.kind == "int-or-string":
        return _SCALARS["untyped"]
    if t.kind == "scalar":
        return _SCALARS[_scalar_type(annotation)]
    if t.kind == "untyped":
        return DEDUCED
    if t.kind == "struct":
        ts = owner.resolve(t)
        return _struct(ts, preserve, facts.map_type) if ts is not None else DEDUCED
    assert t.element is not None
    element_type = t.element
    element_facts = _Facts(element_type.list_type, element_type.list_map_keys, element_type.map_type)
    element_preserve = preserve or element_type.preserve_unknown_fields
    element_annotation = _element_annotation(annotation)
    element = TypeRef(lambda: _atom(owner, element_type, element_facts, element_preserve, element_annotation))
    if t.kind == "list":
        associative, keys = _list_relationship(facts)
        defaults: dict[str, Any] = {}
        item = owner.resolve(element_type) if element_type.kind == "struct" else None
        if item is not None:
            defaults = {k: KEY_DEFAULTS[(item.ref, k)] for k in keys if (item.ref, k) in KEY_DEFAULTS}
        return Atom(list=ListType(element, associative, keys, defaults))
    return Atom(map=MapType({}, element, facts.map_type == "atomic"))


_ROOTS: dict[int, tuple[TypeSchema, TypeRef]] = {}


def atom_for(ts: TypeSchema) -> TypeRef:
    """The root atom of a kind's schema (built once per schema: atoms resolve lazily and stay)."""
    found = _ROOTS.get(id(ts))
    if found is None or found[0] is not ts:
        found = _ROOTS[id(ts)] = (ts, TypeRef(lambda: _struct(ts, False, None)))
    return found[1]


def _schemaless() -> Atom:
    meta = merge_schema().type("meta.v1.ObjectMeta")
    string = TypeRef(lambda: _SCALARS["string"])
    fields = {"apiVersion": string, "kind": string, "spec": _DEDUCED_REF, "status": _DEDUCED_REF}
    if meta is not None:
        fields["metadata"] = TypeRef(lambda: _struct(meta, False, None))
    return Atom(map=MapType(fields, _DEDUCED_REF, False))


SCHEMALESS = TypeRef(_schemaless)
"""A kind without a schema, read as the usual CRD that declares ``spec`` and ``status`` and
preserves unknown fields in them: its ``metadata`` an ObjectMeta, every other value deduced."""
