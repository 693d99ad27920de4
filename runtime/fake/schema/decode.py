"""What the apiserver's decoding into its Go types does to an object: pruning and ``omitempty``.

The apiserver decodes a built-in object into its Go struct and encodes that struct to store and
answer it, so what a client sent comes back changed in two ways (checked against the real server
by tests/integration/test_fake_vs_server.py):

- a field the Go type does not have is dropped (the default ``fieldValidation=Warn``: no error),
  at any depth: a ConfigMap's ``status``, say;
- a map or a slice with ``omitempty`` that is empty is left out: ``labels: {}``, ``data: {}``,
  ``conditions: []``. openapi-gen puts a field in the schema's ``required`` list exactly when
  its Go tag has no ``omitempty``, so "optional in the schema" is "``omitempty``" here. A struct
  value is written even when empty (``resources: {}``; encoding/json's omitempty never omits a
  struct), and so are a top-level ``spec`` and ``status`` absent from the object (``status: {}``
  on a new Deployment): every built-in kind holds them as struct values, not pointers.

- a ``null`` value in a ``map[string]string`` (``data``, ``labels``) becomes ``""``: encoding/json
  stores the zero value for a null map element;
- a zero scalar (``0``, ``false``, ``""``) is left out where the Go field is a value (not a
  pointer) tagged ``omitempty``: ``status.replicas: 0`` goes, ``spec.replicas: 0`` (an
  ``*int32``) stays. OpenAPI cannot tell a pointer from a value, so this one fact comes from
  the Go types themselves: ``zero_fields.json``, written by the oracle program
  hack/oracle/zerofields from k8s.io/api at the envtest version (a test checks it for drift).
  Kinds it does not list (newer than it) keep their zero scalars.

A built-in object is then defaulted as the apiserver's decoding defaults it (SetObjectDefaults_*:
``strategy``, ``imagePullPolicy``, ``dnsPolicy``, ...): ``kgen.runtime.fake.schema.defaulting``.

Custom resources are not decoded into Go types: their ``metadata`` is coerced to ``ObjectMeta``
like any other's (its unknown fields dropped and reported first), then the rest is pruned by the
CRD's structural schema (``kgen.runtime.fake.schema.pruning``), taken from the generated package the
kind's model comes from, and defaulted by the version's schema (structural defaulting: a missing
field with a ``default`` gets it, and the defaults inside it; a null of a non-nullable field was
pruned first, so it is defaulted too). A kind with no generated model (registered on the tracker
without one, as the field manager reads it too: schemaless) keeps everything outside ``metadata``.

The schemas are the generated model classes (msgspec Structs with their wire names and required
fields), found by apiVersion and kind among the loaded ``Model`` subclasses: the generated fake
clientset imports every typed client, and with them every built-in model.
"""

from __future__ import annotations

import copy
import functools
import json
from importlib import resources
from typing import Any

from msgspec import inspect
import sys

from kgen.runtime.apimachinery.mergeschema import TypeSchema
from kgen.runtime.apimachinery.model import Model
from kgen.runtime.apimachinery.validation.schemas import validation_schemas
from kgen.runtime.fake.store import Obj, builtin
from kgen.runtime.fake.schema import defaulting
from kgen.runtime.fake.schema.pruning import crd_schema, prune
from kgen.runtime.gentype.resource import ResourceInfo

_TOP_LEVEL_STRUCTS = ("spec", "status")


def decoded(info: ResourceInfo, obj: Obj, *, numbers: bool = True, defaults: bool = True) -> Obj:
    """``obj`` as the apiserver stores it after decoding: pruned, empty maps and slices omitted;
    a custom resource's numbers as Go writes them (``go_numbers``) unless ``numbers`` is False,
    and its schema's defaults applied unless ``defaults`` is False (a multi-version resource's
    stored object read in another version is pruned by it, not defaulted:
    ``kgen.runtime.fake.schema.versions``)."""
    model = model_for(info.api_version, info.kind) if builtin(info.group) else None
    if model is not None:
        struct = struct_of(model)
        out: Obj = _walk(obj, struct)
        _drop_zeros(out, _zero_fields()["kinds"].get(f"{info.api_version}/{info.kind}"))
        for name in _TOP_LEVEL_STRUCTS:
            field = fields_by_wire_name(struct).get(name)
            if field is not None and _struct_of(field.type) is not None and not isinstance(out.get(name), dict):
                out[name] = {}
        return defaulting.default(info.api_version, info.kind, out, info.generated_from, in_place=True)
    object_meta = model_for("meta/v1", "ObjectMeta")
    if object_meta is not None and isinstance(obj.get("metadata"), dict):
        metadata = _walk(obj["metadata"], struct_of(object_meta))
        _drop_zeros(metadata, _OBJECT_META)
        obj = {**obj, "metadata": metadata}
    root = _custom_resource_schema(info)
    pruned = prune(obj, root, _coerce_meta)[0] if root is not None else obj
    if defaults and root is not None:
        pruned = _crd_defaulted(info, pruned)
    return go_numbers(pruned) if numbers else pruned


def _crd_defaulted(info: ResourceInfo, obj: Obj) -> Obj:
    """A custom resource defaulted by its version's validation schema (the apiserver's
    structural defaulting); as it is without a model or schema. ``metadata`` is not defaulted."""
    model = model_for(info.api_version, info.kind)
    if model is None or ".models." not in model.__module__:
        return obj
    schemas = validation_schemas(model.__module__.split(".models.")[0])
    try:
        root = schemas.schema_for(info.api_version, info.kind)
    except (ImportError, KeyError):
        return obj
    if root is None:
        return obj
    out = dict(obj)
    _default_fields(out, root, schemas.definition, root=True)
    return out


def _node(s: Any, resolve: Any) -> dict[str, Any]:
    """A schema node with its ``$ref`` (or a one-``$ref`` ``allOf``) merged in."""
    while isinstance(s, dict):
        all_of = s.get("allOf")
        if "$ref" not in s and isinstance(all_of, list) and len(all_of) == 1 and isinstance(all_of[0], dict) and "$ref" in all_of[0]:
            s = {**all_of[0], **{k: v for k, v in s.items() if k != "allOf"}}
        elif isinstance(s.get("$ref"), str):
            s = {**resolve(s["$ref"].rsplit("/", 1)[-1]), **{k: v for k, v in s.items() if k != "$ref"}}
        else:
            return s
    return {}


def _defaulted_value(value: Any, s: Any, resolve: Any) -> Any:
    node = _node(s, resolve)
    if isinstance(value, dict):
        out = dict(value)
        _default_fields(out, node, resolve)
        return out
    if isinstance(value, list) and isinstance(node.get("items"), dict):
        return [_defaulted_value(item, node["items"], resolve) for item in value]
    return value


def _default_fields(value: Obj, s: Any, resolve: Any, root: bool = False) -> None:
    """Defaults ``value``'s fields in place: its present ones below, its missing ones with a default."""
    node = _node(s, resolve)
    props = node.get("properties")
    if isinstance(props, dict) and props:
        for key, item in list(value.items()):
            if key in props and not (root and key == "metadata"):
                value[key] = _defaulted_value(item, props[key], resolve)
        for key, sub in props.items():
            sub_node = _node(sub, resolve)
            if key not in value and "default" in sub_node and not (root and key == "metadata"):
                value[key] = _defaulted_value(copy.deepcopy(sub_node["default"]), sub_node, resolve)
    elif isinstance(node.get("additionalProperties"), dict):
        for key, item in list(value.items()):
            value[key] = _defaulted_value(item, node["additionalProperties"], resolve)


def go_numbers(value: Any) -> Any:
    """A custom resource's JSON as the apiserver writes it back: an unstructured object holds a
    float64 for ``1.0`` (which its generation compares as a change from a stored ``1``), but Go's
    encoding/json writes an integral float64 as ``1``, which is read back as an int64. So every
    answer and every stored value has ``1`` where the request had ``1.0`` (up to int64's range;
    beyond it the number stays a float), and ``true`` stays ``true``."""
    if isinstance(value, float):
        return int(value) if value.is_integer() and -(1 << 63) <= value < (1 << 63) else value
    if isinstance(value, dict):
        return {k: go_numbers(v) for k, v in value.items()}
    if isinstance(value, list):
        return [go_numbers(v) for v in value]
    return value


def _custom_resource_schema(info: ResourceInfo) -> TypeSchema | None:
    """A custom resource's structural schema, if its model's generated package is loaded."""
    if builtin(info.group):
        return None
    model = model_for(info.api_version, info.kind)
    return crd_schema(info.api_version, info.kind, model.__module__.split(".models.")[0] if model is not None else None)


_OBJECT_META = "meta/v1.ObjectMeta"


@functools.cache
def _zero_fields() -> dict[str, dict[str, Any]]:
    """The Go facts: kinds to their Go type, each type's fields that lead to zero-dropped scalars."""
    loaded: dict[str, dict[str, Any]] = json.loads(resources.files(__package__).joinpath("zero_fields.json").read_text())
    return loaded


def _drop_zeros(value: Any, go_type: str | None) -> None:
    """Drops, in place, the zero scalars encoding/json omits (value fields tagged omitempty)."""
    fields = _zero_fields()["types"].get(go_type) if go_type else None
    if not fields or not isinstance(value, dict):
        return
    for name, entry in fields.items():
        item = value.get(name)
        if entry == "0":
            if name in value and _is_zero(item):
                del value[name]
        elif entry.startswith("[]") and isinstance(item, list):
            for element in item:
                _drop_zeros(element, entry[2:])
        elif entry.startswith("{}") and isinstance(item, dict):
            for element in item.values():
                _drop_zeros(element, entry[2:])
        else:
            _drop_zeros(item, entry)


def _is_zero(value: Any) -> bool:
    return value is False or value == "" or (type(value) in (int, float) and value == 0)


def model_for(api_version: str, kind: str) -> type[Model] | None:
    """The generated model of a kind (``meta/v1`` for apimachinery's own types), if one is loaded;
    never its apply configuration (seen in make test: with tests/cluster collected, the subclass
    walk met PodApplyConfiguration first, and the fake stored Pods undefaulted).
    A model whose module is no longer imported (its package was unloaded, as tests do before
    generating another package of the same kinds) is forgotten, not returned."""
    found = _MODELS.get((api_version, kind))
    if found is not None and found.__module__ in sys.modules:
        return found
    for key in [k for k, cls in _MODELS.items() if cls.__module__ not in sys.modules]:
        del _MODELS[key]
    pending: list[type[Model]] = [Model]
    while pending:  # index every loaded model at once: a miss costs one walk
        cls = pending.pop()
        pending.extend(cls.__subclasses__())
        if cls.__module__ not in sys.modules or ".applyconfigurations." in cls.__module__:
            continue  # an apply configuration carries KIND and API_VERSION too, but is no stored type
        if cls.__module__.endswith(".models.meta.v1"):
            _MODELS.setdefault(("meta/v1", cls.__name__), cls)
        if "KIND" in cls.__dict__ and "API_VERSION" in cls.__dict__:
            _MODELS.setdefault((str(cls.__dict__["API_VERSION"]), str(cls.__dict__["KIND"])), cls)
    found = _MODELS.get((api_version, kind))
    if found is not None:
        return found
    return None  # not cached: the model may be imported later


_MODELS: dict[tuple[str, str], type[Model]] = {}
"""Models found so far, and each Struct's fields by wire name."""
_FIELDS: dict[type, dict[str, inspect.Field]] = {}


@functools.lru_cache(maxsize=None)
def struct_of(model: type) -> inspect.StructType:
    """A generated model's msgspec struct type (cached)."""
    info = inspect.type_info(model)
    assert isinstance(info, inspect.StructType)
    return info


def fields_by_wire_name(struct: inspect.StructType) -> dict[str, inspect.Field]:
    """A struct's fields by wire name (cached by class: the walks ask for every value they visit)."""
    fields = _FIELDS.get(struct.cls)
    if fields is None:
        fields = _FIELDS[struct.cls] = {f.encode_name: f for f in struct.fields}
    return fields


def _struct_of(t: inspect.Type) -> inspect.StructType | None:
    t = concrete(t)
    return t if isinstance(t, inspect.StructType) else None


def concrete(t: inspect.Type) -> inspect.Type:
    """The one non-None member of an optional type; a union of several (int-or-string) as is."""
    if isinstance(t, inspect.UnionType):
        members = [m for m in t.types if not isinstance(m, inspect.NoneType)]
        if len(members) == 1:
            return members[0]
    return t


def _walk(value: Any, t: inspect.Type) -> Any:
    t = concrete(t)
    if isinstance(t, inspect.StructType) and isinstance(value, dict):
        fields = fields_by_wire_name(t)
        out: Obj = {}
        for name, item in value.items():
            field = fields.get(name)
            if field is None:
                continue  # not a field of the Go type: pruned
            kept = _walk(item, field.type)
            if not field.required and _omitted(kept, field.type):
                continue
            out[name] = kept
        return out
    if isinstance(t, inspect.DictType) and isinstance(value, dict):
        if isinstance(t.value_type, inspect.StrType):  # a null decoded into a map[string]string is ""
            return {k: "" if v is None else _walk(v, t.value_type) for k, v in value.items()}
        return {k: _walk(v, t.value_type) for k, v in value.items()}
    if isinstance(t, (inspect.ListType, inspect.SetType, inspect.FrozenSetType)) and isinstance(value, list):
        return [_walk(v, t.item_type) for v in value]
    return value


def unknown_fields(info: ResourceInfo, obj: Obj, ordered: bool = False) -> list[str]:
    """The fields of a built-in ``obj`` its Go type does not have, as apimachinery's strict
    decoding names them (``spec.template.spec.containers[0].bogus``), sorted, or in ``obj``'s
    order if ``ordered``: what ``fieldValidation`` warns about or refuses. A custom resource's
    come in the apiserver's order whatever ``ordered`` says: its ``metadata``'s (sorted: the
    handler re-encodes the map before decoding it into ObjectMeta), then the paths structural
    pruning drops (sorted); without a schema only ``metadata``'s."""
    if not builtin(info.group):
        return _custom_resource_unknowns(info, obj)
    model = model_for(info.api_version, info.kind)
    found: list[str] = []
    if model is not None:
        _unknown(obj, struct_of(model), "", found)
    return found if ordered else sorted(found)


def _custom_resource_unknowns(info: ResourceInfo, obj: Obj) -> list[str]:
    found: list[str] = []
    object_meta = model_for("meta/v1", "ObjectMeta")
    if object_meta is not None and isinstance(obj.get("metadata"), dict):
        _unknown(obj["metadata"], struct_of(object_meta), "metadata", found)
    root = _custom_resource_schema(info)
    return sorted(found) + (prune(obj, root, _coerce_meta)[1] if root is not None else [])


def _coerce_meta(metadata: Obj, path: str) -> tuple[Obj, list[str]]:
    """An embedded resource's ``metadata`` as ObjectMeta keeps it, and its unknown fields."""
    object_meta = model_for("meta/v1", "ObjectMeta")
    if object_meta is None:
        return metadata, []
    found: list[str] = []
    _unknown(metadata, struct_of(object_meta), path, found)
    kept: Obj = _walk(metadata, struct_of(object_meta))
    _drop_zeros(kept, _OBJECT_META)
    return kept, sorted(found)


def _unknown(value: Any, t: inspect.Type, path: str, found: list[str]) -> None:
    t = concrete(t)
    if isinstance(t, inspect.StructType) and isinstance(value, dict):
        fields = fields_by_wire_name(t)
        for name, item in value.items():
            field = fields.get(name)
            child = f"{path}.{name}" if path else name
            if field is None:
                found.append(child)
            else:
                _unknown(item, field.type, child, found)
    elif isinstance(t, inspect.DictType) and isinstance(value, dict):
        for key, item in value.items():
            _unknown(item, t.value_type, f"{path}[{key}]", found)
    elif isinstance(t, (inspect.ListType, inspect.SetType, inspect.FrozenSetType)) and isinstance(value, list):
        for index, item in enumerate(value):
            _unknown(item, t.item_type, f"{path}[{index}]", found)


def _omitted(value: Any, t: inspect.Type) -> bool:
    """Whether ``omitempty`` drops ``value``: null (a nil pointer, map or slice), an empty map or slice."""
    if value is None:
        return True
    t = concrete(t)
    if isinstance(t, inspect.DictType):
        return isinstance(value, dict) and not value
    if isinstance(t, (inspect.ListType, inspect.SetType, inspect.FrozenSetType)):
        return isinstance(value, list) and not value
    return False


__all__ = ["decoded", "go_numbers", "model_for", "unknown_fields"]
