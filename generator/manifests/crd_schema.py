"""Python model classes -> a CRD version's OpenAPI v3 structural schema, controller-gen's way.

controller-gen (sigs.k8s.io/controller-tools ``pkg/crd/schema.go``) maps Go types to schemas
and applies the ``+kubebuilder:validation`` markers on them; this module does the same for the
types msgspec models are made of, and the markers of ``kgen.runtime.apimachinery.markers``:

========================================  ===================================================
Python                                    schema
========================================  ===================================================
``str`` ``bool``                          ``type: string|boolean``
``int``                                   ``type: integer, format: int64`` (Go's int64)
``Int32`` / ``Int64`` (markers)           ``type: integer, format: int32|int64``
``float``                                 ``type: number``, only with ``allow_dangerous_types``
                                          (controller-gen's ``crd:allowDangerousTypes``)
``Literal["A", "B"]``, a value ``Enum``   that type with ``enum: [A, B]``
``Literal["A", "B"] | str``               the same (a generated model's string enum)
``int | str`` (``IntOrString``)           ``anyOf: [integer, string]`` +
                                          ``x-kubernetes-int-or-string: true``
``list[T]``                               ``type: array``, ``items``: T's schema
``dict[str, T]``                          ``type: object``, ``additionalProperties``: T's
``dict[str, Any]``                        ``type: object`` + ``x-kubernetes-preserve-unknown-fields``
``Any``                                   ``x-kubernetes-preserve-unknown-fields: true`` (any JSON)
a ``Model`` subclass                      ``type: object``, ``properties`` by wire name,
                                          ``required`` (sorted, as controller-gen writes it)
meta/v1 ``ObjectMeta``                    ``type: object`` (the apiserver owns its schema)
meta/v1 ``Condition``                     controller-gen's schema of ``metav1.Condition``
``Time``/``MicroTime`` (annotation text)  ``type: string, format: date-time``
``Quantity`` (annotation text)            int-or-string with resource.Quantity's pattern
========================================  ===================================================

``T | None`` makes a field optional; so does any default. A generated model's ``DEFAULTS``
(the schema defaults it was generated from) are written back, but for Go's zero values. A field with neither is required
(controller-gen: a field without ``omitempty``). A Python default other than ``None`` is the
schema's ``default``: msgspec omits a field holding its default when encoding (``omit_defaults``),
so the server must fill the same value back in for the object to mean what the client meant.

``Time``, ``MicroTime`` and ``Quantity`` are aliases of ``str`` at run time (runtime/
apimachinery/types.py), so they are told apart by the annotation's text, as written under
``from __future__ import annotations`` (kgen's generated models are), followed through
``| None``, ``Annotated``, ``list[...]`` and ``dict[str, ...]``: ``Time``, ``metav1.Time | None``,
``dict[str, Quantity]``. Anywhere else, ``Annotated[str, Format("date-time")]`` says it.

A constraint on a type it does not apply to (``MinLength`` on an ``int``), a type with no
structural schema (a union other than ``T | None`` and ``int | str``, a set, a class that is not
a Model) and a model that contains itself are errors naming the field.
"""

from __future__ import annotations

import ast
import copy
import enum
import re
import types
import typing
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import msgspec

from kgen.runtime.apimachinery import markers as m
from kgen.runtime.apimachinery.model import Model

from .descriptions import field_descriptions, type_description
from .errors import ManifestError
from .k8s_types import data_key, data_schema
from .known_types import known_schema

#: TypeMeta's field descriptions, as every controller-gen CRD carries them.
API_VERSION_DESCRIPTION = (
    "APIVersion defines the versioned schema of this representation of an object.\n"
    "Servers should convert recognized schemas to the latest internal value, and\n"
    "may reject unrecognized values.\n"
    "More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources"
)
KIND_DESCRIPTION = (
    "Kind is a string value representing the REST resource this object represents.\n"
    "Servers may infer this from the endpoint the client submits requests to.\n"
    "Cannot be updated.\n"
    "In CamelCase.\n"
    "More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds"
)
#: resource.Quantity's schema pattern, as controller-gen writes it.
QUANTITY_PATTERN = (
    r"^(\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))))?$"
)
#: What Python's re accepts and the apiserver's (RE2) refuses: lookarounds and backreferences.
_NOT_RE2 = re.compile(r"\(\?<?[=!]|\\[1-9]")
_SCALARS: dict[type, str] = {str: "string", int: "integer", float: "number", bool: "boolean"}

# Which schema kinds each marker applies to ("int-or-string" counts as a string and a number).
_NUMERIC = {"integer", "number", "int-or-string"}
_STRINGY = {"string", "int-or-string"}
_APPLIES: dict[type, tuple[set[str], str]] = {
    m.Minimum: (_NUMERIC, "an int or float field"),
    m.Maximum: (_NUMERIC, "an int or float field"),
    m.MultipleOf: (_NUMERIC, "an int or float field"),
    m.MinLength: (_STRINGY, "a str field"),
    m.MaxLength: (_STRINGY, "a str field"),
    m.Pattern: (_STRINGY, "a str field"),
    m.Format: (_STRINGY | {"integer", "number"}, "a str, int or float field"),
    m.MinItems: ({"array"}, "a list field"),
    m.MaxItems: ({"array"}, "a list field"),
    m.UniqueItems: ({"array"}, "a list field"),
    m.ListType: ({"array"}, "a list field"),
    m.MinProperties: ({"object"}, "a dict or model field"),
    m.MaxProperties: ({"object"}, "a dict or model field"),
    m.MapType: ({"object"}, "a dict or model field"),
    m.EmbeddedResource: ({"object"}, "a dict or model field"),
    m.AtMostOneOf: ({"object"}, "a model (@constraints(...) on its class)"),
    m.ExactlyOneOf: ({"object"}, "a model (@constraints(...) on its class)"),
    m.AtLeastOneOf: ({"object"}, "a model (@constraints(...) on its class)"),
}
_ANYWHERE = (m.Default, m.Description, m.Nullable, m.PreserveUnknownFields, m.XValidation, m.Title, m.Example)
#: The order controller-gen applies the markers that add CEL rules in (their ApplyPriority), whatever
#: order they are written in: XValidation, then AtMostOneOf, ExactlyOneOf, AtLeastOneOf.
_RULE_ORDER: dict[type, int] = {m.XValidation: 1, m.AtMostOneOf: 2, m.ExactlyOneOf: 3, m.AtLeastOneOf: 4}
_ONE_OF: dict[type, tuple[str, str]] = {  # rule's comparison (or None: any), message
    m.AtMostOneOf: ("<= 1", "at most one of the fields in {} may be set"),
    m.ExactlyOneOf: ("== 1", "exactly one of the fields in {} must be set"),
    m.AtLeastOneOf: ("", "at least one of the fields in {} must be set"),
}


@dataclass
class _Shape:
    """An annotation taken apart: the type under ``Annotated`` and ``| None``, and what was
    said about it on the way."""

    tp: Any
    optional: bool = False
    markers: list[object] = field(default_factory=list)


def _unwrap(tp: Any) -> _Shape:
    shape = _Shape(tp)
    while True:
        origin = typing.get_origin(shape.tp)
        if origin is typing.Annotated:
            inner, *extras = typing.get_args(shape.tp)
            shape.markers[:0] = extras  # outer markers after inner ones: the outer wins on merge
            shape.tp = inner
        elif origin in (typing.Union, types.UnionType) and type(None) in typing.get_args(shape.tp):
            rest = [a for a in typing.get_args(shape.tp) if a is not type(None)]
            shape.optional = True
            shape.tp = rest[0] if len(rest) == 1 else typing.Union[tuple(rest)]
        else:
            return shape


def _name(tp: Any) -> str:
    return tp.__name__ if isinstance(tp, type) else str(tp).replace("typing.", "")


def is_root(cls: type) -> bool:
    return isinstance(cls, type) and isinstance(getattr(cls, m.RESOURCE_ATTRIBUTE, None), m.ResourceMarkers)


class SchemaBuilder:
    """One CRD version's schema; remembers the classes on the way down to refuse cycles."""

    def __init__(self, *, allow_dangerous_types: bool = False) -> None:
        self._open: list[type] = []
        #: controller-gen's ``crd:allowDangerousTypes``: float fields are refused unless it is set.
        self._allow_floats = allow_dangerous_types

    def root(self, cls: type[Model], facts: m.ResourceMarkers) -> dict[str, Any]:
        """The ``openAPIV3Schema`` of a root type: TypeMeta's fields, ``metadata: {type:
        object}``, the class's own fields, and the resource's CEL rules."""
        schema = self._object(cls, _where(cls))
        props = schema.setdefault("properties", {})
        props["apiVersion"] = {"description": API_VERSION_DESCRIPTION, "type": "string"}
        props["kind"] = {"description": KIND_DESCRIPTION, "type": "string"}
        props["metadata"] = {"type": "object"}
        required = [r for r in schema.get("required", []) if r not in ("apiVersion", "kind", "metadata")]
        if required:
            schema["required"] = required
        else:
            schema.pop("required", None)
        if facts.validations:
            rules = schema.setdefault("x-kubernetes-validations", [])
            rules.extend(_rule(v) for v in facts.validations)
        return schema

    # -- classes ---------------------------------------------------------------------------

    def _object(self, cls: type[Model], where: str) -> dict[str, Any]:
        if cls in self._open:
            chain = " -> ".join(c.__name__ for c in [*self._open[self._open.index(cls):], cls])
            raise ManifestError(
                where, f"{cls.__name__} contains itself ({chain}); a CRD schema cannot refer to itself",
                "a finite tree of types; an open-ended part as Any with PreserveUnknownFields",
            )
        self._open.append(cls)
        try:
            schema: dict[str, Any] = {}
            description = type_description(cls)
            if description:
                schema["description"] = description
            props: dict[str, Any] = {}
            required: list[str] = []
            docs = field_docs(cls)
            try:
                hints = typing.get_type_hints(cls, include_extras=True)
            except Exception as e:  # a name the annotations use is not importable there
                raise ManifestError(_where(cls), f"its annotations cannot be resolved: {type(e).__name__}: {e}",
                                    "every name in its annotations defined or imported in its module") from None
            for info in msgspec.structs.fields(cls):
                field_where = f"{_where(cls)}.{info.name}"
                shape = _unwrap(hints.get(info.name, info.type))
                sub = self._field(cls, info, shape, field_where)
                if docs.get(info.name) and not any(isinstance(k, m.Description) for k in shape.markers):
                    sub = {"description": docs[info.name], **{k: v for k, v in sub.items() if k != "description"}}
                props[info.encode_name] = sub
                if info.required and not shape.optional:
                    required.append(info.encode_name)
            if props:
                schema["properties"] = props
            if required:
                schema["required"] = sorted(required)
            schema["type"] = "object"
            self._apply(schema, "object", list(getattr(cls, m.CONSTRAINTS_ATTRIBUTE, ())), _where(cls), cls)
            return schema
        finally:
            self._open.pop()

    def _field(self, owner: type, info: msgspec.structs.FieldInfo, shape: _Shape, where: str) -> dict[str, Any]:
        schema = self._type(shape, where, _annotation_ast(owner, info.name))
        default = _python_default(info)
        declared = getattr(owner, "DEFAULTS", {}).get(info.name)
        if default is None and declared not in (None, "", 0, False, [], {}):
            # A generated model's schema default (``DEFAULTS``), as the field's Go marker said it;
            # the zero values there are OpenAPI's for non-pointer Go fields, which no marker set.
            default = declared
        if default is not None:
            marked = [k for k in shape.markers if isinstance(k, m.Default)]
            as_json = _json_default(default, where)
            if marked and marked[-1].value != as_json:
                raise ManifestError(
                    where, f"Default({marked[-1].value!r}) disagrees with the Python default {as_json!r}",
                    "one default: the Python one, or Default(...) with a None Python default",
                )
            if not marked:
                _check_default(as_json, info.type, where)
                schema["default"] = as_json
        if any(isinstance(k, m.Nullable) for k in shape.markers) and not shape.optional:
            raise ManifestError(where, "Nullable() on a field that cannot hold None", "the field typed T | None")
        return schema

    # -- types -----------------------------------------------------------------------------

    def _type(self, shape: _Shape, where: str, written: ast.expr | None = None) -> dict[str, Any]:
        """``written``: the annotation as written (its AST, in step with ``shape``), or None."""
        tp = shape.tp
        written = _strip_ast(written)
        alias = _alias_of(written)
        kind: str
        if alias == "Quantity" and tp is str:
            schema: dict[str, Any] = {
                "anyOf": [{"type": "integer"}, {"type": "string"}],
                "pattern": QUANTITY_PATTERN,
                "x-kubernetes-int-or-string": True,
            }
            kind = "int-or-string"
        elif alias in ("Time", "MicroTime") and tp is str:
            schema, kind = {"format": "date-time", "type": "string"}, "string"
        elif tp is Any:
            schema, kind = {"x-kubernetes-preserve-unknown-fields": True}, "any"
        elif tp is float and not self._allow_floats:
            raise ManifestError(
                where, "a float field: support for floats varies across languages (controller-gen refuses them too)",
                "an int, a str holding the number (or a Quantity), or --allow-dangerous-types "
                "(controller-gen's crd:allowDangerousTypes=true) to write it as type: number",
            )
        elif tp is int:
            # Python's int is Go's int64 here (what the apiserver stores a JSON integer as), and
            # controller-gen writes int64 as format int64; Int32 (Annotated[int, Format("int32")]) says int32.
            schema, kind = {"format": "int64", "type": "integer"}, "integer"
        elif tp in _SCALARS:
            kind = _SCALARS[tp]
            schema = {"type": kind}
        elif _is_int_or_string(tp):
            schema = {"anyOf": [{"type": "integer"}, {"type": "string"}], "x-kubernetes-int-or-string": True}
            kind = "int-or-string"
        elif typing.get_origin(tp) is typing.Literal or (isinstance(tp, type) and issubclass(tp, enum.Enum)):
            schema, kind = _enum(tp, where)
        elif _is_open_enum(tp):
            # ``Literal["A", "B"] | str`` is how kgen's generator writes a string enum: the enum again.
            schema, kind = _enum(next(a for a in typing.get_args(tp) if a is not str), where)
        elif typing.get_origin(tp) is list:
            args = typing.get_args(tp)
            if len(args) != 1:
                raise ManifestError(where, "a list without its item type", "list[T]")
            schema = {"items": self._type(_unwrap(args[0]), where + "[]", _argument(written, 0, 1)), "type": "array"}
            kind = "array"
        elif typing.get_origin(tp) is dict:
            args = typing.get_args(tp)
            if len(args) != 2 or args[0] is not str:
                raise ManifestError(where, f"{_name(tp)}: JSON object keys are strings", "dict[str, T]")
            value = _unwrap(args[1])
            if value.tp is Any and not value.markers:
                schema = {"type": "object", "x-kubernetes-preserve-unknown-fields": True}
            else:
                schema = {"additionalProperties": self._type(value, where + "{}", _argument(written, 1, 2)),
                          "type": "object"}
            kind = "object"
        elif isinstance(tp, type) and issubclass(tp, Model):
            known = known_schema(tp)
            key = data_key(tp) if known is None else None
            if known is not None:
                schema = copy.deepcopy(known)
            elif key is not None:
                schema = data_schema(tp, key, field_docs(tp))
            else:
                schema = self._object(tp, where)
            kind = "object"
        else:
            raise ManifestError(
                where, f"{_name(tp)} has no CRD schema",
                "str, int, float, bool, Literal[...], int | str, list[T], dict[str, T], Any, "
                "a Model subclass, or one of these | None",
            )
        self._apply(schema, kind, shape.markers, where, tp)
        return schema

    # -- markers ---------------------------------------------------------------------------

    def _apply(self, schema: dict[str, Any], kind: str, found: list[object], where: str, tp: Any) -> None:
        found = sorted(found, key=lambda k: _RULE_ORDER.get(type(k), 0))  # stable: others keep their order
        for marker in found:
            if not isinstance(marker, (*_APPLIES, *_ANYWHERE)):
                continue  # other libraries' annotations (msgspec.Meta...) are theirs
            allowed = _APPLIES.get(type(marker))
            if allowed is not None and kind not in allowed[0]:
                raise ManifestError(where, f"{_show(marker)} on a field of type {_name(tp)}", f"{type(marker).__name__} on {allowed[1]}")
            schema.update(_keywords(marker, schema, where, tp))


def _keywords(marker: object, schema: dict[str, Any], where: str, tp: Any) -> dict[str, Any]:
    """The schema keywords one marker sets, as controller-gen names them."""
    if isinstance(marker, m.Minimum):
        return {"minimum": marker.value, **({"exclusiveMinimum": True} if marker.exclusive else {})}
    if isinstance(marker, m.Maximum):
        return {"maximum": marker.value, **({"exclusiveMaximum": True} if marker.exclusive else {})}
    if isinstance(marker, m.MultipleOf):
        return {"multipleOf": marker.value}
    if isinstance(marker, m.MinLength):
        return {"minLength": marker.value}
    if isinstance(marker, m.MaxLength):
        return {"maxLength": marker.value}
    if isinstance(marker, m.Pattern):
        try:
            re.compile(marker.value)
        except re.error as e:
            raise ManifestError(where, f"Pattern({marker.value!r}) is not a regular expression: {e}") from None
        if _NOT_RE2.search(marker.value):
            raise ManifestError(where, f"Pattern({marker.value!r}) uses a lookaround or a backreference",
                                "RE2 syntax, which the apiserver's Go regexp accepts")
        return {"pattern": marker.value}
    if isinstance(marker, m.Format):
        return {"format": marker.value}
    if isinstance(marker, m.MinItems):
        return {"minItems": marker.value}
    if isinstance(marker, m.MaxItems):
        return {"maxItems": marker.value}
    if isinstance(marker, m.UniqueItems):
        return {"uniqueItems": True}
    if isinstance(marker, m.ListType):
        return _list_type(marker, schema, where)
    if isinstance(marker, m.MinProperties):
        return {"minProperties": marker.value}
    if isinstance(marker, m.MaxProperties):
        return {"maxProperties": marker.value}
    if isinstance(marker, m.MapType):
        return {"x-kubernetes-map-type": marker.kind}
    if isinstance(marker, m.EmbeddedResource):
        return {"x-kubernetes-embedded-resource": True}
    if isinstance(marker, m.Default):
        _check_default(marker.value, tp, where)
        return {"default": marker.value}
    if isinstance(marker, m.Description):
        return {"description": marker.value}
    if isinstance(marker, m.Nullable):
        return {"nullable": True}
    if isinstance(marker, m.PreserveUnknownFields):
        return {"x-kubernetes-preserve-unknown-fields": True}
    if isinstance(marker, m.XValidation):
        return {"x-kubernetes-validations": [*schema.get("x-kubernetes-validations", []), _rule(marker)]}
    if isinstance(marker, (m.AtMostOneOf, m.ExactlyOneOf, m.AtLeastOneOf)):
        return {"x-kubernetes-validations": [*schema.get("x-kubernetes-validations", []), _one_of(marker, schema, where)]}
    if isinstance(marker, m.Title):
        return {"title": marker.value}
    if isinstance(marker, m.Example):
        return {"example": _json_default(marker.value, where)}
    raise AssertionError(marker)  # _apply passes only the markers above


def _list_type(marker: m.ListType, schema: dict[str, Any], where: str) -> dict[str, Any]:
    if marker.kind not in ("atomic", "set", "map"):
        raise ManifestError(where, f"ListType({marker.kind!r})", "ListType('atomic'), ListType('set') or ListType('map', keys=[...])")
    keys = list(marker.keys)
    if marker.kind != "map":
        if keys:
            raise ManifestError(where, f"ListType({marker.kind!r}) with keys", "keys only with ListType('map', keys=[...])")
        return {"x-kubernetes-list-type": marker.kind}
    items = schema.get("items") or {}
    if items.get("type") != "object" or "properties" not in items:
        raise ManifestError(where, "ListType('map') on a list whose items are not models", "list[SomeModel]")
    if not keys:
        raise ManifestError(where, "ListType('map') without keys", "ListType('map', keys=['name'])")
    for key in keys:
        if key not in items["properties"]:
            raise ManifestError(where, f"ListType('map') key {key!r} is not a field of the items",
                                f"a wire name among {sorted(items['properties'])}")
        if key not in items.get("required", []) and "default" not in items["properties"][key]:
            raise ManifestError(where, f"ListType('map') key {key!r} is optional in the items",
                                "map keys required or defaulted, as the apiserver demands")
    return {"x-kubernetes-list-map-keys": keys, "x-kubernetes-list-type": "map"}


def _one_of(marker: m.AtMostOneOf | m.ExactlyOneOf | m.AtLeastOneOf, schema: dict[str, Any], where: str) -> dict[str, Any]:
    """controller-gen's CEL rule for a one-of marker: ``(has(self.a)?1:0)+(has(self.b)?1:0) == 1``
    (``<= 1``), or ``has(self.a)||has(self.b)`` for at-least-one; its message lists the fields as
    Go prints a []string. The fields must be optional fields of the model (controller-gen refuses
    required ones), named by wire name, not paths."""
    name = type(marker).__name__
    fields = list(marker.fields)
    if not fields:
        raise ManifestError(where, f"{name}() without fields", f"{name}('a', 'b'): the wire names of two or more fields")
    props, required = schema.get("properties", {}), schema.get("required", [])
    for f in fields:
        if "." in f or f not in props:
            raise ManifestError(where, f"{name} names {f!r}, not a field of the model", f"a wire name among {sorted(props)}")
        if f in required:
            raise ManifestError(where, f"{name} names {f!r}, a required field",
                                "optional fields (T | None = None): a one-of constraint counts the fields set")
    compare, message = _ONE_OF[type(marker)]
    if compare:
        rule = "+".join(f"(has(self.{f})?1:0)" for f in fields) + f" {compare}"
    else:
        rule = "||".join(f"has(self.{f})" for f in fields)
    return {"message": message.format("[" + " ".join(fields) + "]"), "rule": rule}


def _rule(v: m.XValidation) -> dict[str, Any]:
    rule: dict[str, Any] = {"rule": v.rule}
    for key, value in (("message", v.message), ("messageExpression", v.message_expression), ("reason", v.reason),
                       ("fieldPath", v.field_path), ("optionalOldSelf", v.optional_old_self)):
        if value is not None:
            rule[key] = value
    return rule


def _enum(tp: Any, where: str) -> tuple[dict[str, Any], str]:
    values = [e.value for e in typing.cast("type[enum.Enum]", tp)] if isinstance(tp, type) else list(typing.get_args(tp))
    kinds = {_SCALARS.get(type(v)) for v in values}
    if len(kinds) != 1 or None in kinds:
        raise ManifestError(where, f"{_name(tp)} mixes value types", "enum values all str, all int, all float or all bool")
    kind = kinds.pop()
    assert kind is not None
    return {"enum": values, "type": kind}, kind


def _is_open_enum(tp: Any) -> bool:
    args = typing.get_args(tp) if typing.get_origin(tp) in (typing.Union, types.UnionType) else ()
    literals = [a for a in args if typing.get_origin(a) is typing.Literal]
    return len(args) == 2 and str in args and len(literals) == 1 and all(isinstance(v, str) for v in typing.get_args(literals[0]))


def _is_int_or_string(tp: Any) -> bool:
    return typing.get_origin(tp) in (typing.Union, types.UnionType) and set(typing.get_args(tp)) == {int, str}


def _python_default(info: msgspec.structs.FieldInfo) -> Any:
    if info.default_factory is not msgspec.NODEFAULT:
        return info.default_factory()
    if info.default is msgspec.NODEFAULT:
        return None
    return info.default


def _json_default(value: Any, where: str) -> Any:
    try:
        return msgspec.to_builtins(value)
    except (TypeError, msgspec.EncodeError) as e:
        raise ManifestError(where, f"the default {value!r} is not a JSON value: {e}") from None


def _check_default(value: Any, tp: Any, where: str) -> None:
    """The default must decode as the field's type (the apiserver would refuse the CRD, or
    worse, store objects this model cannot read)."""
    try:
        msgspec.convert(value, tp)
    except msgspec.ValidationError as e:
        raise ManifestError(where, f"the default {value!r} does not fit the field's type: {e}",
                            f"a value of type {_name(_unwrap(tp).tp)}") from None


def _show(marker: object) -> str:
    fields = getattr(marker, "__dataclass_fields__", {})
    return f"{type(marker).__name__}({', '.join(repr(getattr(marker, f)) for f in fields)})"


def _where(cls: type) -> str:
    return f"{cls.__module__}.{cls.__qualname__}"


def _mro_models(cls: type) -> Iterator[type]:
    for base in reversed(cls.__mro__):
        if isinstance(base, type) and issubclass(base, Model) and base is not Model:
            yield base


def field_docs(cls: type) -> dict[str, str]:
    """A model's field descriptions by Python name, its bases' included."""
    docs: dict[str, str] = {}
    for base in _mro_models(cls):
        docs.update(field_descriptions(base))
    return docs


def _annotation_ast(owner: type, name: str) -> ast.expr | None:
    """The field's annotation as written, when it is kept as text (``from __future__ import
    annotations``): where ``Time`` or ``Quantity`` was written, which its type (``str``) forgets."""
    for base in reversed(list(_mro_models(owner))):
        raw = base.__dict__.get("__annotations__", {}).get(name)
        if raw is not None:
            try:
                return ast.parse(raw, mode="eval").body if isinstance(raw, str) else None
            except SyntaxError:
                return None
    return None


def _last_name(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def _strip_ast(node: ast.expr | None) -> ast.expr | None:
    """The written annotation under ``X | None``, ``Optional[X]`` and ``Annotated[X, ...]``, in
    step with ``_unwrap``."""
    while node is not None:
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
            sides = [n for n in (node.left, node.right) if not (isinstance(n, ast.Constant) and n.value is None)]
            if len(sides) != 1:
                return node
            node = sides[0]
        elif isinstance(node, ast.Subscript) and _last_name(node.value) in ("Annotated", "Optional"):
            inner = node.slice
            node = inner.elts[0] if isinstance(inner, ast.Tuple) else inner
        else:
            return node
    return None


def _argument(node: ast.expr | None, index: int, count: int) -> ast.expr | None:
    """Argument ``index`` of a written ``list[X]`` / ``dict[K, V]`` (``count`` arguments)."""
    if not isinstance(node, ast.Subscript):
        return None
    args = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
    return args[index] if len(args) == count else None


def _alias_of(node: ast.expr | None) -> str | None:
    name = _last_name(node) if node is not None else None
    return name if name in ("Time", "MicroTime", "Quantity") else None
