"""CRD markers for Python model classes: controller-gen's ``+kubebuilder:`` markers as values.

controller-gen reads a Go type's comments (``// +kubebuilder:validation:Minimum=1``) to write a
CRD; a Python model says the same things in its type annotations, where mypy and readers see
them next to the field they constrain::

    @resource(group="batch.example.com", version="v1", status=True,
              printer_columns=[PrinterColumn("Schedule", "string", ".spec.schedule")])
    class CronJob(Model, kw_only=True):
        metadata: ObjectMeta | None = None
        spec: CronJobSpec | None = None
        status: CronJobStatus | None = None

    class CronJobSpec(Model, kw_only=True):
        schedule: Annotated[str, MinLength(1)]
        suspend: bool = False                        # a Python default is the schema's default
        starting_deadline_seconds: Annotated[int, Minimum(0)] | None = field(
            default=None, name="startingDeadlineSeconds")
        concurrency_policy: Literal["Allow", "Forbid", "Replace"] = field(
            default="Allow", name="concurrencyPolicy")     # Literal: the schema's enum

``kgen manifests`` (kgen.generator.manifests) turns these into the CRD's OpenAPI v3 schema with
controller-gen's keys and values. This module holds only the values, so a project that
installs the runtime alone can declare its types; msgspec ignores annotations it does not know,
so none of these changes how an object is encoded or decoded (the apiserver enforces them).

Controllers declare the permissions they need with ``@rbac(...)`` (``+kubebuilder:rbac``), from
which ``kgen manifests`` writes the ClusterRole (and Roles) to run them with.

Required-ness follows the Python field, as controller-gen follows ``omitempty``: a field with
no default and not ``| None`` is in the schema's ``required`` list; every other one is optional.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Annotated, Any, Literal, TypeVar

__all__ = [
    "AtLeastOneOf", "AtMostOneOf", "ExactlyOneOf", "Example", "Title",
    "Default", "Description", "EmbeddedResource", "Format", "Int32", "Int64", "ListType", "MapType", "Maximum", "MaxItems",
    "MaxLength", "MaxProperties", "Minimum", "MinItems", "MinLength", "MinProperties", "MultipleOf", "Nullable",
    "Pattern", "PreserveUnknownFields", "PrinterColumn", "ResourceMarkers", "Scale", "UniqueItems", "XValidation",
    "constraints", "resource", "RESOURCE_ATTRIBUTE", "CONSTRAINTS_ATTRIBUTE", "RBACRule", "rbac", "RBAC_ATTRIBUTE",
]

RESOURCE_ATTRIBUTE = "__kgen_resource__"
"""Where ``@resource`` and ``@constraints`` keep what they were given, on the class itself."""
CONSTRAINTS_ATTRIBUTE = "__kgen_constraints__"
"""Where ``@constraints`` keeps the constraints it was given, on the class itself."""

T = TypeVar("T", bound=type)


# -- numbers (+kubebuilder:validation:Minimum, Maximum, ExclusiveMinimum, ExclusiveMaximum, MultipleOf)


@dataclass(frozen=True, slots=True)
class Minimum:
    """``minimum`` (and ``exclusiveMinimum: true`` when ``exclusive``), for int and float fields."""

    value: int | float
    exclusive: bool = False


@dataclass(frozen=True, slots=True)
class Maximum:
    """``maximum`` (and ``exclusiveMaximum: true`` when ``exclusive``), for int and float fields."""

    value: int | float
    exclusive: bool = False


@dataclass(frozen=True, slots=True)
class MultipleOf:
    """``multipleOf``, for int and float fields."""

    value: int | float


# -- strings (+kubebuilder:validation:MinLength, MaxLength, Pattern, Format)


@dataclass(frozen=True, slots=True)
class MinLength:
    """+kubebuilder:validation:MinLength: the fewest characters a string may have."""

    value: int


@dataclass(frozen=True, slots=True)
class MaxLength:
    """+kubebuilder:validation:MaxLength: the most characters a string may have."""

    value: int


@dataclass(frozen=True, slots=True)
class Pattern:
    """``pattern``: an ECMA-262 regular expression the apiserver matches (unanchored)."""

    value: str


@dataclass(frozen=True, slots=True)
class Format:
    """``format``: ``date-time``, ``byte``, ``int32``, ``int64``, ``uri``, ``email``, ``uuid``..."""

    value: str


Int32 = Annotated[int, Format("int32")]
"""An int field Go would declare ``int32``: ``format: int32`` in the CRD (a plain ``int`` is Go's
``int64``, ``format: int64``, as controller-gen writes them). Use it where a 64-bit value makes
no sense to readers or other clients (counts, replicas, ports), as k8s.io/api does."""
Int64 = Annotated[int, Format("int64")]
"""An int field Go would declare ``int64``: ``format: int64`` (what a plain ``int`` gets too)."""


# -- lists (+kubebuilder:validation:MinItems, MaxItems, UniqueItems, +listType, +listMapKey)


@dataclass(frozen=True, slots=True)
class MinItems:
    """+kubebuilder:validation:MinItems: the fewest items a list may have."""

    value: int


@dataclass(frozen=True, slots=True)
class MaxItems:
    """+kubebuilder:validation:MaxItems: the most items a list may have."""

    value: int


@dataclass(frozen=True, slots=True)
class UniqueItems:
    """``uniqueItems: true``. The apiserver refuses it in CRDs; use ``ListType("set")``."""


@dataclass(frozen=True, slots=True)
class ListType:
    """``x-kubernetes-list-type`` (``atomic``, ``set`` or ``map``) and, for ``map``, the item
    fields that key it (``x-kubernetes-list-map-keys``, wire names)."""

    kind: Literal["atomic", "set", "map"]
    keys: Sequence[str] = ()

    def __post_init__(self) -> None:
        # A tuple keeps the marker hashable: ``Annotated[...] | None`` hashes its metadata.
        object.__setattr__(self, "keys", tuple(self.keys))


# -- objects and maps (+kubebuilder:validation:MinProperties, MaxProperties, +mapType)


@dataclass(frozen=True, slots=True)
class MinProperties:
    """+kubebuilder:validation:MinProperties: the fewest entries a map may have."""

    value: int


@dataclass(frozen=True, slots=True)
class MaxProperties:
    """+kubebuilder:validation:MaxProperties: the most entries a map may have."""

    value: int


@dataclass(frozen=True, slots=True)
class MapType:
    """``x-kubernetes-map-type``: ``atomic`` (replaced whole by server-side apply) or ``granular``."""

    kind: Literal["atomic", "granular"]


# -- any type


@dataclass(frozen=True, slots=True, eq=False)  # eq=False: hashable even holding a list or dict
class Default:
    """``default``: the value the apiserver fills in when the field is absent (a JSON value).
    A Python default other than ``None`` says the same; if both are given they must agree."""

    value: Any


@dataclass(frozen=True, slots=True)
class Description:
    """``description``, when the field's docstring (the string literal after it) is not the
    one wanted, or the class's source cannot be read."""

    value: str


@dataclass(frozen=True, slots=True)
class Nullable:
    """``nullable: true``: an explicit ``null`` is kept (the field must be typed ``T | None``)."""


@dataclass(frozen=True, slots=True)
class PreserveUnknownFields:
    """``x-kubernetes-preserve-unknown-fields: true``: fields the schema does not name are kept."""


@dataclass(frozen=True, slots=True)
class EmbeddedResource:
    """``x-kubernetes-embedded-resource: true``: the object is a whole Kubernetes object
    (apiVersion, kind, metadata are validated)."""


@dataclass(frozen=True, slots=True)
class XValidation:
    """A CEL rule (``x-kubernetes-validations``), as ``+kubebuilder:validation:XValidation``.

    ``rule`` sees the value as ``self`` (and ``oldSelf`` on update); the apiserver answers a
    failed rule with ``message`` (or ``message_expression``, CEL giving a string)."""

    rule: str
    message: str | None = None
    message_expression: str | None = None
    reason: Literal["FieldValueInvalid", "FieldValueForbidden", "FieldValueRequired", "FieldValueDuplicate"] | None = None
    field_path: str | None = None
    optional_old_self: bool | None = None


@dataclass(frozen=True, slots=True, init=False)
class _FieldGroup:
    """A model-level marker naming some of its fields (wire names): ``Marker("a", "b")``."""

    fields: tuple[str, ...]

    def __init__(self, *fields: str) -> None:
        object.__setattr__(self, "fields", tuple(fields))


@dataclass(frozen=True, slots=True, init=False)
class AtMostOneOf(_FieldGroup):
    """At most one of the named fields (wire names) may be set: a model-level marker
    (``@constraints(AtMostOneOf("configMapRef", "secretRef"))``), written as controller-gen's
    ``+kubebuilder:validation:AtMostOneOf`` writes it, a CEL rule counting the fields present.
    The fields must be optional; the marker may be repeated."""


@dataclass(frozen=True, slots=True, init=False)
class ExactlyOneOf(_FieldGroup):
    """Exactly one of the named fields (wire names) must be set (``+kubebuilder:validation:ExactlyOneOf``):
    a model-level marker, as ``AtMostOneOf``."""


@dataclass(frozen=True, slots=True, init=False)
class AtLeastOneOf(_FieldGroup):
    """At least one of the named fields (wire names) must be set (``+kubebuilder:validation:AtLeastOneOf``):
    a model-level marker, as ``AtMostOneOf``."""


# -- documentation (+kubebuilder:title, +kubebuilder:example)


@dataclass(frozen=True, slots=True)
class Title:
    """``title``: a short name for the field or model in the schema (``+kubebuilder:title``)."""

    value: str


@dataclass(frozen=True, slots=True)
class Example:
    """``example``: a JSON value showing what the field holds, for documentation (``+kubebuilder:example``)."""

    value: Any

    def __hash__(self) -> int:
        # ``Annotated[...] | None`` hashes its markers; an example may be a dict or a list.
        return hash(repr(self.value))


# -- class-level facts: the CRD (+kubebuilder:resource, subresource, printcolumn, storageversion)


@dataclass(frozen=True, slots=True)
class PrinterColumn:
    """One of ``kubectl get``'s columns (``additionalPrinterColumns``), as
    ``+kubebuilder:printcolumn``. ``type``: integer, number, string, boolean or date."""

    name: str
    type: Literal["integer", "number", "string", "boolean", "date"]
    json_path: str
    description: str | None = None
    format: str | None = None
    priority: int | None = None


@dataclass(frozen=True, slots=True)
class Scale:
    """The scale subresource (``+kubebuilder:subresource:scale``): JSON paths of the replica
    counts and, optionally, of the label selector (a string) in the status."""

    spec_replicas_path: str
    status_replicas_path: str
    label_selector_path: str | None = None


@dataclass(frozen=True, slots=True)
class ResourceMarkers:
    """What ``@resource`` records on a root type. Names left ``None`` take controller-gen's
    defaults: kind is the class name, plural its lower-cased English plural, singular the
    kind lower-cased; one version alone is the storage version."""

    group: str
    version: str
    kind: str
    plural: str | None = None
    singular: str | None = None
    short_names: tuple[str, ...] = ()
    categories: tuple[str, ...] = ()
    scope: Literal["Namespaced", "Cluster"] = "Namespaced"
    served: bool = True
    storage: bool | None = None
    deprecated: bool = False
    deprecation_warning: str | None = None
    status: bool = False
    scale: Scale | None = None
    printer_columns: tuple[PrinterColumn, ...] = ()
    validations: tuple[XValidation, ...] = ()
    selectable_fields: tuple[str, ...] = ()


def resource(
    *,
    group: str,
    version: str,
    kind: str | None = None,
    plural: str | None = None,
    singular: str | None = None,
    short_names: Sequence[str] = (),
    categories: Sequence[str] = (),
    scope: Literal["Namespaced", "Cluster"] = "Namespaced",
    served: bool = True,
    storage: bool | None = None,
    deprecated: bool = False,
    deprecation_warning: str | None = None,
    status: bool = False,
    scale: Scale | None = None,
    printer_columns: Sequence[PrinterColumn] = (),
    validations: Sequence[XValidation] = (),
    selectable_fields: Sequence[str] = (),
) -> Callable[[T], T]:
    """Marks a model class as one version of a custom resource (``+kubebuilder:resource`` and
    friends) and sets its ``API_VERSION`` and ``KIND``, as a generated model has them.

    Each version of a kind is a class of its own with the same ``group`` and ``kind``; the one
    stored in etcd says ``storage=True`` (needed once there are several). ``selectable_fields``
    are JSON paths (``.spec.size``) clients may use in field selectors
    (``+kubebuilder:selectablefield``); ``validations`` are CEL rules on the whole object."""

    def mark(cls: T) -> T:
        facts = ResourceMarkers(
            group=group, version=version, kind=kind or cls.__name__, plural=plural, singular=singular,
            short_names=tuple(short_names), categories=tuple(categories), scope=scope, served=served,
            storage=storage, deprecated=deprecated, deprecation_warning=deprecation_warning, status=status,
            scale=scale, printer_columns=tuple(printer_columns), validations=tuple(validations),
            selectable_fields=tuple(selectable_fields),
        )
        setattr(cls, RESOURCE_ATTRIBUTE, facts)
        setattr(cls, "API_VERSION", f"{group}/{version}")
        setattr(cls, "KIND", facts.kind)
        return cls

    return mark


def constraints(*markers: object) -> Callable[[T], T]:
    """Type-level markers for a nested model class (a CEL rule across its fields, a map type),
    applied wherever the class is used, as controller-gen applies markers on a Go type."""

    def mark(cls: T) -> T:
        setattr(cls, CONSTRAINTS_ATTRIBUTE, tuple(markers))
        return cls

    return mark


# -- RBAC (+kubebuilder:rbac): what a controller reads and writes ------------------------------

RBAC_ATTRIBUTE = "__kgen_rbac__"
"""Where ``@rbac`` keeps the rules a controller declared, on the class itself."""
F = TypeVar("F")


@dataclass(frozen=True, slots=True)
class RBACRule:
    """One ``+kubebuilder:rbac`` marker: ``verbs`` on ``resources`` of ``groups`` (``""`` or
    ``"core"`` is the legacy group), optionally only the named objects, or non-resource URLs;
    in a Role of ``namespace`` when given, else in the ClusterRole."""

    groups: tuple[str, ...]
    resources: tuple[str, ...]
    verbs: tuple[str, ...]
    resource_names: tuple[str, ...] = ()
    urls: tuple[str, ...] = ()
    namespace: str | None = None


def rbac(
    *,
    verbs: Sequence[str],
    groups: Sequence[str] = (),
    resources: Sequence[str] = (),
    resource_names: Sequence[str] = (),
    urls: Sequence[str] = (),
    namespace: str | None = None,
) -> Callable[[F], F]:
    """Declares, on a controller (a reconciler class or function), a permission it needs:
    ``@rbac(groups=["batch"], resources=["jobs"], verbs=["get", "list", "watch", "create"])``.
    ``kgen manifests`` gathers every rule of the given modules into the role it writes, as
    controller-gen gathers ``+kubebuilder:rbac`` markers."""

    rule = RBACRule(tuple(groups), tuple(resources), tuple(verbs), tuple(resource_names), tuple(urls), namespace)

    def mark(target: F) -> F:
        # vars(): a subclass of a marked class declares its own rules, not its base's again.
        setattr(target, RBAC_ATTRIBUTE, (*vars(target).get(RBAC_ATTRIBUTE, ()), rule))
        return target

    return mark
