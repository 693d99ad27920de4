"""OpenAPI schemas -> IR models: one Python type per schema, decided here once.

Every field's annotation is the wire type. The template makes a field in the schema's
``required`` list a required ``T`` (as lightkube and k8s-openapi do: client-go's ``json:"x"``
fields without ``omitempty``) and every other field ``T | None = None``; ``nullable: true``
(CRDs) adds ``| None`` to a required field and lists the field in the class's ``NULLABLE``, so
the runtime keeps an explicit ``null`` apart from absent, as the apiserver does.
"""

from __future__ import annotations

import io
import re
import tokenize
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from . import naming
from .errors import InputError, pointer
from .escape import literal
from .field_order import wire_order
from .ir import Field, Model, Module, StockClass
from .nested import NestedClasses, identity, is_class, is_int_or_string, unwrap_all_of

META_PREFIX = "io.k8s.apimachinery.pkg.apis.meta.v1."
_VERSION = re.compile(r"^v\d+((alpha|beta)\d+)?$")

#: Definitions that become runtime type aliases instead of classes.
_ALIASES = {
    "io.k8s.apimachinery.pkg.api.resource.Quantity": "Quantity",
    "io.k8s.apimachinery.pkg.util.intstr.IntOrString": "IntOrString",
    META_PREFIX + "Time": "Time",
    META_PREFIX + "MicroTime": "MicroTime",
}
_TYPE_AND_OBJECT_META = {"apiVersion", "kind", "metadata"}
_SCALARS = {"string": "str", "integer": "int", "number": "float", "boolean": "bool"}
#: An annotation that is one class: ``Name`` or ``alias.Name``.
_CLASS_ANNOTATION = re.compile(r"^(?:(\w+)\.)?([A-Z]\w*)$")

#: Fields holding credentials: their values never appear in a model's repr (or a log line
#: that prints one). Keyed by the definition's last two name segments.
REDACTED_FIELDS = {
    ("v1", "Secret"): ("data", "stringData"),
    ("v1", "TokenRequestStatus"): ("token",),
    ("v1", "TokenReviewSpec"): ("token",),
}


@dataclass
class Definition:
    name: str
    schema: dict[str, Any]
    source: str  # file, for errors
    ptr: str  # JSON pointer of the schema in that file
    module: tuple[str, str]  # (group, version)
    gvks: list[dict[str, str]] = field(default_factory=list)


def _ref_name(ref: str, source: str, ptr: str) -> str:
    for prefix in ("#/components/schemas/", "#/definitions/"):
        if ref.startswith(prefix):
            return ref[len(prefix):].replace("~1", "/").replace("~0", "~")
    raise InputError(source, ptr, f"expected a local $ref to #/components/schemas/ or #/definitions/, got {ref!r}")


def _check_shape(schema: dict[str, Any], source: str, ptr: str) -> None:
    """The keywords that hold schemas must hold schemas."""
    props = schema.get("properties")
    if props is not None and not isinstance(props, dict):
        raise InputError(source, ptr + "/properties", "expected an object mapping property names to schemas")
    items = schema.get("items")
    if items is not None and not isinstance(items, (dict, list)):
        raise InputError(source, ptr + "/items", "expected a schema object")
    extra = schema.get("additionalProperties")
    if extra is not None and not isinstance(extra, (dict, bool)):
        raise InputError(source, ptr + "/additionalProperties", "expected a schema object or a boolean")


def _element_facts(schema: dict[str, Any]) -> list[dict[str, Any]]:
    """The x-kubernetes-* facts of each element level under ``schema`` (items, then
    additionalProperties), as ``Field.element_facts`` holds them; trailing empty levels dropped."""
    levels: list[dict[str, Any]] = []
    while "$ref" not in schema and not is_int_or_string(schema) and not is_class(schema):
        # The shape of ModelBuilder.annotation: an array's items, an object's map values.
        inner = schema.get("items") if schema.get("type") == "array" else schema.get("additionalProperties")
        if not isinstance(inner, dict):
            break
        schema = unwrap_all_of(inner)
        levels.append({k: v for k, v in schema.items() if isinstance(k, str) and k.startswith("x-kubernetes-")})
    while levels and not levels[-1]:
        levels.pop()
    return levels


def _qualify_builtins(annotation: str, shadowed: set[str]) -> str:
    """``list[str]`` as ``builtins.list[str]`` where a field of the class is called ``list``.

    Both mypy and ``typing.get_type_hints`` (which msgspec uses) resolve an annotation's names
    in the class body first, where the field's name would win over the builtin.
    """
    out: list[str] = []
    previous = ""
    for token in tokenize.generate_tokens(io.StringIO(annotation).readline):
        text = token.string
        if token.type == tokenize.NAME and text in shadowed and previous != ".":
            text = "builtins." + text
        out.append(text)
        if token.type not in (tokenize.NEWLINE, tokenize.ENDMARKER):
            previous = token.string
    return _join_tokens(out)


def _join_tokens(tokens: list[str]) -> str:
    """Tokens back to an annotation in the generator's own spelling (black reformats anyway)."""
    text = ""
    for token in tokens:
        if token in ("", "\n"):
            continue
        if token == "|":
            text += " | "
        elif token == ",":
            text += ", "
        else:
            text += token
    return text


class ModelBuilder:
    """Turns definitions into classes of one package, module by module."""

    def __init__(
        self, definitions: dict[str, Definition], modules: dict[tuple[str, str], Module],
        external: Mapping[str, StockClass] | None = None,
    ) -> None:
        self.definitions = definitions
        #: Definitions whose class the stock package has and this one imports (stock.py).
        self.external = dict(external or {})
        self.modules = modules
        self._class_of: dict[str, tuple[Module, str]] = {}  # definition name -> (module, class)
        self._taken: dict[tuple[str, str], set[str]] = {}
        self._resolving: set[str] = set()  # non-class definitions being resolved (a $ref cycle ends in Any)
        self.nested = NestedClasses()  # nested object schemas: one class per identity (nested.py)
        self._built: set[str] = set()  # identities whose class is built
        # Field names must not shadow any module alias a models module may import.
        self._module_aliases = {self.alias_of(m) for m in modules.values()}
        self._aliases = self._module_aliases | {
            self.stock_alias(e) for e in self.external.values()
        }
        self._by_key = {m.key: m for m in modules.values()}

    # -- classes ------------------------------------------------------------------------

    def _module(self, key: tuple[str, str]) -> Module:
        return self.modules[key]

    def _claim(self, module: Module, wanted: str) -> str:
        taken = self._taken.setdefault(module.key, set())
        base = naming.class_name(wanted)
        name, n = base, 1
        while name in taken:
            n += 1
            name = f"{base}{n}"
        taken.add(name)
        return name

    def declare(self) -> None:
        """Names every class that a definition becomes, before any field refers to one."""
        for name in sorted(self.definitions):
            d = self.definitions[name]
            _check_shape(d.schema, d.source, d.ptr)
            if name in _ALIASES or not is_class(d.schema):
                continue
            module = self._module(d.module)
            self._class_of[name] = (module, self._claim(module, name.rsplit(".", 1)[-1]))
        for name in sorted(self._class_of):
            module, cls = self._class_of[name]
            self.nested.walk(module.key, cls, self.definitions[name].schema)
        self.nested.plan(self._taken)

    def build(self) -> None:
        for name in sorted(self._class_of):
            d = self.definitions[name]
            module, cls = self._class_of[name]
            model = self._model(module, cls, d.schema, d.source, d.ptr, name)
            model.preserve_unknown_fields = d.schema.get("x-kubernetes-preserve-unknown-fields") is True
            parts = name.rsplit(".", 2)
            secret = REDACTED_FIELDS.get((parts[-2], parts[-1]), ()) if len(parts) > 1 else ()
            model.redacted = [f.py_name for f in model.fields if f.wire_name in secret]
            if d.gvks:
                # TypeMeta and metadata stay optional on every resource, whatever its schema
                # lists (core/v1 Event lists metadata): list items carry no TypeMeta, partial
                # objects no metadata, and generic code narrows them alike for every kind.
                for f in model.fields:
                    f.required = f.required and f.wire_name not in _TYPE_AND_OBJECT_META
            if len(d.gvks) == 1:
                gvk = d.gvks[0]
                model.api_version = f"{gvk['group']}/{gvk['version']}" if gvk.get("group") else gvk["version"]
                model.kind = gvk["kind"]
            module.models.append(model)
        for nested in self.nested.by_key.values():
            if nested.key in self._built:
                owner = self._by_key[nested.owner]
                for key in self.nested.modules_of(nested):
                    if key != owner.key:
                        module = self._by_key[key]
                        module.shared[nested.name] = self.import_alias(module, owner)
        for module in self.modules.values():
            module.models.sort(key=lambda m: m.name)
            self._kind_aliases(module)

    def _kind_aliases(self, module: Module) -> None:
        """``<Kind>Spec`` and ``<Kind>Status`` in every kind's own module, whatever the class of
        its ``spec``/``status`` is called (naming.py: "Names a user would guess")."""
        taken = self._taken.setdefault(module.key, set())
        for model in module.models:
            if not model.kind:
                continue
            for f in model.fields:
                if f.wire_name not in naming.KIND_PARTS:
                    continue
                match = _CLASS_ANNOTATION.match(f.annotation)
                if match is None:
                    continue  # not a class: a map, Any
                alias, cls = match.groups()
                target = cls if alias is None or module.shared.get(cls) == alias else f"{alias}.{cls}"
                wanted = model.name + naming.class_name(f.wire_name)
                if target == wanted or wanted in taken:
                    continue  # already so named here, or the name is another class's
                module.kind_aliases[wanted] = target
                taken.add(wanted)

    def _model(self, module: Module, cls: str, schema: dict[str, Any], source: str, ptr: str, origin: str) -> Model:
        props = schema.get("properties") or {}
        if not isinstance(props, dict):
            raise InputError(source, ptr + "/properties", "expected an object mapping property names to schemas")
        required = schema.get("required") or []
        if not isinstance(required, list):
            raise InputError(source, ptr + "/required", "expected a list of property names")
        names = naming.field_names(props, reserved=self._aliases)
        shadowed = naming.BUILTIN_TYPES & set(names.values())
        model = Model(name=cls, schema_name=origin, description=str(schema.get("description") or ""))
        model.atomic = schema.get("x-kubernetes-map-type") == "atomic"
        for wire in wire_order(origin, props):
            sub = props[wire]
            sub_ptr = f"{ptr}/properties{pointer(wire)}"
            if not isinstance(sub, dict):
                raise InputError(source, sub_ptr, "expected a schema object")
            sub = unwrap_all_of(sub)
            if "default" in sub:
                try:
                    literal(sub["default"])
                except ValueError:
                    raise InputError(source, sub_ptr + "/default", "expected a finite JSON value") from None
            annotation = self.annotation(module, cls + naming.class_name(wire), sub, source, sub_ptr)
            if shadowed:
                annotation = _qualify_builtins(annotation, shadowed)
                module.uses_builtins = True
            facts = {k: v for k, v in sub.items() if k.startswith("x-kubernetes-")}
            element_facts = _element_facts(sub)
            model.fields.append(
                Field(
                    wire_name=wire,
                    py_name=names[wire],
                    annotation=annotation,
                    description=str(sub.get("description") or ""),
                    required=wire in required,
                    nullable=sub.get("nullable") is True,
                    default=sub.get("default"),
                    has_default="default" in sub,
                    facts=facts,
                    element_facts=element_facts,
                )
            )
        return model

    # -- types ----------------------------------------------------------------------------

    def annotation(self, module: Module, nested_name: str, schema: dict[str, Any], source: str, ptr: str) -> str:
        """The Python type of ``schema`` as seen from ``module``; may declare nested classes."""
        schema = unwrap_all_of(schema)
        _check_shape(schema, source, ptr)
        ref = schema.get("$ref")
        if ref is not None:
            if not isinstance(ref, str):
                raise InputError(source, ptr + "/$ref", "expected a string")
            return self._ref(module, _ref_name(ref, source, ptr + "/$ref"), source, ptr)
        if is_int_or_string(schema):
            module.aliases.add("IntOrString")
            return "IntOrString"
        kind = schema.get("type")
        if kind is not None and not isinstance(kind, str):
            raise InputError(source, ptr + "/type", "expected a string type name")
        if kind == "array":
            items = schema.get("items")
            if not isinstance(items, dict):
                return self._any(module, "list[Any]")
            return f"list[{self.annotation(module, nested_name, items, source, ptr + '/items')}]"
        if kind == "object" or (kind is None and ("properties" in schema or "additionalProperties" in schema)):
            if is_class(schema):
                return self._nested(module, nested_name, schema, source, ptr)
            extra = schema.get("additionalProperties")
            if isinstance(extra, dict):
                inner = self.annotation(module, nested_name, extra, source, ptr + "/additionalProperties")
                # Go marshals a zero metav1.Time map value as null (PodDisruptionBudget's
                # disruptedPods); other maps (labels, resource quantities) never hold null,
                # and keeping their values plain keeps ``labels={"app": "web"}`` well-typed.
                return f"dict[str, {inner} | None]" if inner in ("Time", "MicroTime") else f"dict[str, {inner}]"
            return self._any(module, "dict[str, Any]")
        if kind in _SCALARS:
            enum = schema.get("enum")
            if kind == "string" and isinstance(enum, list) and enum and all(isinstance(e, str) for e in enum):
                module.uses_literal = True
                return "Literal[" + ", ".join(literal(e) for e in enum) + "] | str"
            if kind == "string" and schema.get("format") == "date-time":
                module.aliases.add("Time")
                return "Time"
            return _SCALARS[kind]
        if kind is not None:
            raise InputError(source, ptr + "/type", f"expected one of array, object, string, integer, number, boolean; got {kind!r}")
        return self._union(module, nested_name, schema, source, ptr)

    def _union(self, module: Module, nested_name: str, schema: dict[str, Any], source: str, ptr: str) -> str:
        for key in ("oneOf", "anyOf"):
            members = schema.get(key)
            if isinstance(members, list) and members:
                kinds = [str(m.get("type")) for m in members if isinstance(m, dict)]
                # Decidable only when each member is a distinct JSON scalar type.
                if len(kinds) == len(members) and all(k in _SCALARS for k in kinds) and len(set(kinds)) == len(kinds):
                    return " | ".join(_SCALARS[k] for k in kinds)
        return self._any(module, "Any")

    @staticmethod
    def _any(module: Module, annotation: str) -> str:
        module.uses_any = True
        return annotation

    def _nested(self, module: Module, wanted: str, schema: dict[str, Any], source: str, ptr: str) -> str:
        """The class of an inline object schema: the one shared class of its identity."""
        planned = self.nested.by_key.get(identity(schema))
        if planned is None:
            # Not under a class definition (inside a non-class definition a $ref resolves
            # inline): a class of its own, named by the legacy path rule, in this module.
            cls = self._claim(module, wanted)
            module.models.append(self._model(module, cls, schema, source, ptr, f"{source}#{ptr}"))
            return cls
        owner = self._by_key[planned.owner]
        if planned.key not in self._built:
            self._built.add(planned.key)
            model = self._model(owner, planned.name, schema, source, ptr, f"{source}#{ptr}")
            model.description = planned.description
            owner.models.append(model)
        if owner is module:
            return planned.name
        return f"{self.import_alias(module, owner)}.{planned.name}"

    def _ref(self, module: Module, name: str, source: str, ptr: str) -> str:
        if name in _ALIASES:
            module.aliases.add(_ALIASES[name])
            return _ALIASES[name]
        if name in self._class_of:
            target, cls = self._class_of[name]
            if target is module:
                return cls
            alias = self.import_alias(module, target)
            return f"{alias}.{cls}"
        stock = self.external.get(name)
        if stock is not None:
            alias = self.stock_alias(stock)
            module.stock_imports[alias] = stock.module
            return f"{alias}.{stock.name}"
        d = self.definitions.get(name)
        if d is None:
            raise InputError(source, ptr + "/$ref", f"expected a definition named {name!r}; there is none")
        if name in self._resolving:
            return self._any(module, "Any")
        self._resolving.add(name)
        try:
            schema = {k: v for k, v in d.schema.items() if k != "description"}
            return self.annotation(module, name.rsplit(".", 1)[-1], schema, d.source, d.ptr)
        finally:
            self._resolving.discard(name)

    def stock_alias(self, stock: StockClass) -> str:
        """``k8s_batchv1`` for the stock package's batch/v1; a trailing ``_`` in the unlikely
        case that a module of this package has that alias (a CRD group module ``k8s_batch``)."""
        alias = "k8s_" + stock.module.replace(".", "")
        while alias in self._module_aliases:
            alias += "_"
        return alias

    @staticmethod
    def alias_of(module: Module) -> str:
        return f"{module.group_module}{module.version_module}"

    def import_alias(self, module: Module, target: Module) -> str:
        alias = self.alias_of(target)
        module.imports[alias] = f"{target.group_module}.{target.version_module}"
        return alias
