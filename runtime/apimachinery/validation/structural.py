"""The checks of one value that the kube-apiserver makes of a custom resource, in its wording.

``FieldError`` is a 422's cause (apimachinery's field.Error as the Status carries it). The
checks here are kube-openapi's of one schema node (type and integer formats, string lengths,
patterns and formats, number bounds), apiextensions-apiserver's of ``x-kubernetes-list-type``
sets and maps, and of an embedded resource's metadata; ``kgen.runtime.apimachinery.validation``
walks a schema with them (the order, pruning, defaulting, junctions and CEL are its business).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from kgen.runtime.apimachinery.golang.gofmt import INT64, go_value, is_json_integer, json_type
from kgen.runtime.apimachinery.golang.regexp import compile_pattern
from kgen.runtime.apimachinery.validation.strfmt import DNS_LABEL, DNS_SUBDOMAIN, FORMATS

Schema = dict[str, Any]
"""A JSON schema node (OpenAPI v3, as a dict)."""


@dataclass(frozen=True)
class FieldError:
    """One error as the apiserver reports it: a 422's cause (``reason``, ``field``, ``message``),
    or for a 400 (decode errors, Strict unknown fields) the type ``BadRequest`` with the field
    and the text the Status message gives (a built-in kind's Go decode error names no field: ``""``,
    printed as its message alone)."""

    type: str
    field: str
    message: str

    def __str__(self) -> str:
        return f"{self.field}: {self.message}" if self.field else self.message


def child(path: str, key: str | int) -> str:
    """The apiserver's paths: dots between fields and map keys alike, ``[i]`` for list items."""
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else key


def emptied(value: Any, path: str, unknown: list[str]) -> Any:
    """What structural pruning leaves of a value no schema describes (a list's items where its
    node has no ``items``: ``d: [{"a": 1}]`` on a string with a format): every object emptied,
    its fields recorded in ``unknown`` (``spec.d[0].a``), lists gone through, scalars kept."""
    if isinstance(value, dict):
        unknown.extend(child(path, key) for key in value)
        return {}
    if isinstance(value, list):
        return [emptied(v, child(path, i), unknown) for i, v in enumerate(value)]
    return value


# -- metadata: decoded into Go structs, then (embedded resources) generic ObjectMeta rules -----

OBJECT_META: dict[str, tuple[str, str]] = {
    "name": ("string", "string"), "generateName": ("string", "string"), "namespace": ("string", "string"),
    "selfLink": ("string", "string"), "uid": ("string", "types.UID"), "resourceVersion": ("string", "string"),
    "generation": ("integer", "int64"), "creationTimestamp": ("string", "v1.Time"),
    "deletionTimestamp": ("string", "v1.Time"), "deletionGracePeriodSeconds": ("integer", "int64"),
    "labels": ("object", "map[string]string"), "annotations": ("object", "map[string]string"),
    "ownerReferences": ("array", "[]v1.OwnerReference"), "finalizers": ("array", "[]string"),
    "managedFields": ("array", "[]v1.ManagedFieldsEntry"),
}
"""ObjectMeta's fields and the JSON types its Go decoder accepts for them."""
LIST_META: dict[str, tuple[str, str]] = {
    "selfLink": ("string", "string"), "resourceVersion": ("string", "string"), "continue": ("string", "string"),
    "remainingItemCount": ("integer", "int64"), "shardInfo": ("object", "*v1.ShardInfo"),
}
"""ListMeta's, the metadata of a list kind (``ConfigMapList``, ``Status``)."""
GO_JSON_KINDS = {"boolean": "bool", "integer": "number", "number": "number", "string": "string",
                  "array": "array", "object": "object"}
"""The kind of each JSON type as Go's JSON decoder names it in an unmarshal error."""
_LABEL_NAME = re.compile(r"^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$")
_NAME_PART_MSG = ("name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
                  "alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is "
                  "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')")
_LABEL_VALUE_MSG = ("a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and "
                    "must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', "
                    "regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')")
_DNS_LABEL_MSG = ("a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start "
                  "and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is "
                  "'[a-z0-9]([-a-z0-9]*[a-z0-9])?')")


def decode_meta(meta: Any, path: str, unknown: list[str], decode: list[FieldError], is_list: bool) -> Any:
    """metadata as json.Unmarshal into ObjectMeta (ListMeta for a list kind) sees it: its
    fields' types, the rest unknown."""
    if meta is None:
        return None
    go_struct, fields = ("ListMeta", LIST_META) if is_list else ("ObjectMeta", OBJECT_META)
    if not isinstance(meta, dict):
        decode.append(FieldError("BadRequest", path, f"Invalid value: {go_value(meta)}: json: cannot unmarshal "
                                 f"{json_type(meta)} into Go value of type v1.{go_struct}"))
        return meta
    out: dict[str, Any] = {}
    for key, v in meta.items():
        if v is None:
            continue  # decoded as the zero value: as if absent
        expected = fields.get(key)
        if expected is None:
            unknown.append(child(path, key))
            continue
        want, go_type = expected
        got = json_type(v)
        if got != want and not (want == "integer" and is_json_integer(v)):
            decode.append(FieldError("BadRequest", path, f"Invalid value: {go_value(meta)}: json: cannot unmarshal "
                                     f"{GO_JSON_KINDS[got]} into Go struct field {go_struct}.{key} of type {go_type}"))
        out[key] = v
    return out


def _valid_label_key(key: str) -> bool:
    prefix, _, name = key.rpartition("/")
    if prefix and not (len(prefix) <= 253 and DNS_SUBDOMAIN.match(prefix)):
        return False
    return len(name) <= 63 and bool(_LABEL_NAME.match(name))


def _valid_label_value(value: str) -> bool:
    return value == "" or (len(value) <= 63 and bool(_LABEL_NAME.match(value)))


def meta_errors(meta: dict[str, Any], path: str) -> list[FieldError]:
    """What ValidateObjectMeta says of an embedded resource's metadata (its name is not checked)."""
    errors: list[FieldError] = []
    for field in ("labels", "annotations"):
        entries = meta.get(field)
        for key, value in (entries.items() if isinstance(entries, dict) else ()):
            if not _valid_label_key(key):
                errors.append(FieldError("FieldValueInvalid", child(path, field),
                                         f"Invalid value: {go_value(key)}: {_NAME_PART_MSG}"))
            if field == "labels" and isinstance(value, str) and not _valid_label_value(value):
                errors.append(FieldError("FieldValueInvalid", child(path, field),
                                         f"Invalid value: {go_value(value)}: {_LABEL_VALUE_MSG}"))
    namespace = meta.get("namespace")
    if isinstance(namespace, str) and namespace and not (len(namespace) <= 63 and DNS_LABEL.match(namespace)):
        errors.append(FieldError("FieldValueInvalid", child(path, "namespace"),
                                 f"Invalid value: {go_value(namespace)}: {_DNS_LABEL_MSG}"))
    return errors


# -- list types -------------------------------------------------------------------------------

def _set_key(v: Any) -> str:
    """Set items are equal when their JSON and Go types are: 1 and 1.0 are distinct."""
    return f"{type(v).__name__}:{json.dumps(v, sort_keys=True)}"


def list_type_errors(v: list[Any], s: Schema, path: str) -> list[FieldError]:
    """x-kubernetes-list-type set and map: each repeated item (set) or key (map) reported once,
    at the index of its first repeat; map keys after defaulting."""
    errors: list[FieldError] = []
    list_type = s.get("x-kubernetes-list-type")
    if list_type == "set":
        seen: set[str] = set()
        reported: set[str] = set()
        for i, item in enumerate(v):
            key = _set_key(item)
            if key in seen and key not in reported:
                reported.add(key)
                errors.append(FieldError("FieldValueDuplicate", child(path, i), f"Duplicate value: {go_value(item)}"))
            seen.add(key)
    elif list_type == "map":
        scalars = [i for i, item in enumerate(v) if not isinstance(item, dict)]
        for i in scalars:
            if v[i] is not None:
                errors.append(FieldError("FieldValueInvalid", child(path, i), f"Invalid value: {go_value(v[i])}: "
                                         "must be an object for an array of list-type map"))
        if scalars:
            return errors  # the apiserver checks the keys of a list of objects only
        names = s.get("x-kubernetes-list-map-keys") or []
        seen_keys: set[str] = set()
        reported_keys: set[str] = set()
        for i, item in enumerate(v):
            key = json.dumps({k: item[k] for k in names if k in item}, separators=(",", ":"), ensure_ascii=False)
            if key in seen_keys and key not in reported_keys:
                reported_keys.add(key)
                errors.append(FieldError("FieldValueDuplicate", child(path, i), f"Duplicate value: {key}"))
            seen_keys.add(key)
    return errors


def enum_equal(a: Any, b: Any) -> bool:
    """Enum membership as reflect.DeepEqual after JSON decoding: numbers by value, else by type."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return float(a) == float(b)
    return type(a) is type(b) and a == b


# -- one node ---------------------------------------------------------------------------------

VALUE_CHECKS = ("enum", "format", "pattern", "minLength", "maxLength", "minimum", "maximum", "multipleOf",
                 "minItems", "maxItems", "minProperties", "maxProperties", "required", "properties", "items",
                 "allOf", "anyOf", "oneOf", "not")
"""Keywords that check a value whatever its type (a typeless node with one is validated)."""


def is_type_union(s: Schema) -> bool:
    """Whether the node is a typeless union of type-only branches (``oneOf``/``anyOf``; built-ins'
    Quantity)."""
    branches = s.get("oneOf") or s.get("anyOf")
    return isinstance(branches, list) and all(isinstance(b, dict) and set(b) == {"type"} for b in branches)


def type_union(v: Any, s: Schema, path: str, errors: list[FieldError]) -> bool | None:
    """A typeless node whose oneOf/anyOf branches only name types (built-ins' Quantity:
    string or number): the value must be one of them. True: go on with the value's type;
    None: not such a node (nothing to check)."""
    branches = s.get("oneOf") or s.get("anyOf")
    if not isinstance(branches, list) or not branches:
        return None
    types = [b["type"] for b in branches if isinstance(b, dict) and len(b) == 1 and isinstance(b.get("type"), str)]
    if len(types) != len(branches):
        return None
    got = json_type(v)
    if got in types or (got == "integer" and "number" in types) or ("integer" in types and is_json_integer(v)):
        return got != "null"
    errors.append(type_error(path, ",".join(types), got))
    return False


def check_type(v: Any, typ: str, fmt: str | None, path: str, errors: list[FieldError]) -> bool:
    """Whether ``v`` has type ``typ`` (with ``fmt``, for strings), as kube-openapi checks; the error is
    added to ``errors`` otherwise."""
    got = json_type(v)
    if typ == "string":
        if isinstance(v, str) or (isinstance(v, list) and fmt in FORMATS and fmt):
            # kube-openapi's type check passes a slice on a non-numeric type with a format (its
            # format check then only reads strings): ``d: ["x"]`` on a date-time is accepted
            return True
        # a format kube-openapi knows names the expected type, with the Go type of the value
        errors.append(type_error(path, fmt, {"integer": "int64", "number": "float64"}.get(got, "")) if fmt in FORMATS and fmt
                      else type_error(path, "string", got))
        return False
    if typ == "integer":
        sized = fmt in ("int32", "int64")
        if got in ("boolean", "object") and sized:
            errors.append(type_error(path, str(fmt), ""))
            return False
        if got not in ("integer", "number"):
            errors.append(type_error(path, "integer", got))
            return False
        if not is_json_integer(v):
            errors.append(type_error(path, str(fmt) if sized else "integer", "float64" if sized else "number"))
            bits = 32 if fmt == "int32" else 64
            if not float(v).is_integer() or not -(2 ** (bits - 1)) <= v < 2 ** (bits - 1):
                errors.append(checked_integer(path, f"with format {fmt}" if sized else "(default format)"))
            return False
        if fmt == "int32" and not -(2**31) <= v < 2**31:
            errors.append(checked_integer(path, "with format int32"))
        return True
    if typ == "number":
        if got in ("integer", "number"):
            return True
        errors.append(type_error(path, "number", got))
        return False
    if got != typ:
        errors.append(type_error(path, typ, got))
        return False
    return True


def too_many(count: int, most: int) -> str:
    """field.TooMany's message: "item" for a limit of one."""
    return f"Too many: {count}: must have at most {most} {'item' if most == 1 else 'items'}"


def type_error(path: str, want: str | None, got: str) -> FieldError:
    """A FieldValueTypeInvalid error at ``path``: ``want`` expected, ``got`` found, in the apiserver's
    words."""
    shown = json.dumps(got)
    return FieldError("FieldValueTypeInvalid", path, f"Invalid value: {shown}: {path} in body must be of type {want}: {shown}")


def checked_integer(path: str, detail: str) -> FieldError:
    """kube-openapi's format check of an integer (reported by the apiserver at the field ``<nil>``)."""
    return FieldError("FieldValueInvalid", path, f'Invalid value: "": Checked value must be of type integer {detail} in {path}')


def check_string(v: str, s: Schema, path: str, errors: list[FieldError]) -> None:
    # kube-openapi's string validator stops at its first failure: length, then pattern
    """Check a string's length and pattern, as kube-openapi does (the first failure only)."""
    if "minLength" in s and len(v) < s["minLength"]:
        errors.append(FieldError("FieldValueInvalid", path,
                                 f"Invalid value: {go_value(v)}: {path} in body should be at least {s['minLength']} chars long"))
    elif "maxLength" in s and len(v) > s["maxLength"]:
        errors.append(FieldError("FieldValueTooLong", path, f"Too long: may not be more than {s['maxLength']} bytes"))
    elif "pattern" in s and not compile_pattern(s["pattern"]).search(v):  # Go's regexp (RE2), not re
        errors.append(FieldError("FieldValueInvalid", path,
                                 f"Invalid value: {go_value(v)}: {path} in body should match '{s['pattern']}'"))
    fmt = s.get("format")
    check = FORMATS.get(fmt) if isinstance(fmt, str) else None
    if check is not None and not check(v):
        errors.append(FieldError("FieldValueTypeInvalid", path,
                                 f"Invalid value: {go_value(v)}: {path} in body must be of type {fmt}: {go_value(v)}"))


def check_number(v: float, s: Schema, path: str, errors: list[FieldError]) -> None:
    """Check a number's bounds and multipleOf, as kube-openapi does."""
    def invalid(shown: str, detail: str) -> None:
        errors.append(FieldError("FieldValueInvalid", path, f"Invalid value: {shown}: {detail}"))

    if "minimum" in s:
        if s.get("exclusiveMinimum") and v <= s["minimum"]:
            invalid(go_value(v), f"{path} in body should be greater than {go_value(s['minimum'])}")
        elif v < s["minimum"]:
            invalid(go_value(v), f"{path} in body should be greater than or equal to {go_value(s['minimum'])}")
    if "maximum" in s:
        if s.get("exclusiveMaximum") and v >= s["maximum"]:
            invalid(go_value(v), f"{path} in body should be less than {go_value(s['maximum'])}")
        elif v > s["maximum"]:
            invalid(go_value(v), f"{path} in body should be less than or equal to {go_value(s['maximum'])}")
    if "multipleOf" in s:
        factor = s["multipleOf"]
        if isinstance(v, int) and -INT64 <= v < INT64:
            # an integer value is checked against the factor truncated to an integer (kube-openapi)
            if int(factor) <= 0:
                invalid("0", f"factor MultipleOf declared for {path} must be positive: {int(factor)}")
            elif v % int(factor):
                invalid(go_value(v), f"{path} in body should be a multiple of {go_value(factor)}")
            return
        quotient = v / factor if factor >= 1 else 1 / factor * v
        if not (abs(quotient) <= 2**53 - 1 and float(quotient).is_integer()):
            invalid(go_value(v), f"{path} in body should be a multiple of {go_value(factor)}")
