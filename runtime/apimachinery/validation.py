"""Client-side structural validation that answers as the kube-apiserver does (issue 15).

``validate(obj)`` predicts the apiserver's answer to a create of ``obj``: the errors it would
reject it with, each as the apiserver writes its cause (``FieldError``: the cause's reason, the
field path and the whole message). ``validate_against(schema, obj)`` does the same for a raw
structural schema (a CRD version's ``openAPIV3Schema``).

It follows what apiextensions-apiserver does with a custom resource, measured on a real
kube-apiserver (docs/design/validation.md, "Structural schema validation"):

1. **Decode and prune.** Unknown fields are dropped (``x-kubernetes-preserve-unknown-fields``
   keeps them): under ``fieldValidation=Warn`` (the default) or ``Ignore`` they are warnings, not
   errors; under ``Strict`` any unknown field rejects the object with a 400 and *nothing else is
   validated*. A ``null`` in a field whose schema is not ``nullable`` is dropped silently (so a
   required one becomes ``Required value``), but never inside a list. ``apiVersion``, ``kind`` and
   ``metadata`` of the object and of every ``x-kubernetes-embedded-resource`` are decoded into Go
   structs: a wrong type there is a 400 too.
2. **Default.** Every ``default`` of an absent property is applied, before validation: list-map
   keys compare with their defaults.
3. **Validate** (kube-openapi's schema validator and the structural list-type checks): every
   error, not the first, in the apiserver's wording. kube-openapi reports its ``Checked value``
   and ``anyOf`` errors at the field ``<nil>``, the path being in the message; kgen reports the
   real path. 400 answers have no causes: their errors carry the type ``BadRequest``.

Numbers are judged as kube-openapi decodes them: a JSON integer beyond int64 is a float64, a
float within ±2^53 and within a relative 1e-9 of its truncation is an integer, ``int32`` and
``int64`` are ranges; strings' formats are kube-openapi's (``strfmt``, Go semantics, not the RFCs).

**Built-in kinds** (definitions named ``io.k8s.api.*``, ``io.k8s.apimachinery.*``... : Pod,
Deployment, ConfigMap...) are decoded
into Go structs and then validated by Go code (``pkg/apis/*/validation``), which their published
OpenAPI does not describe. For them this module checks what the schema says, which predicts the
decode errors (wrong types, int32/int64 overflow, bad ``date-time``, bad base64 ``byte``) and the
enums the schema lists, and nothing of Go validation: ``replicas: -1``, port ranges, name and key
rules, selector/label mismatch, required fields the schema does not mark, bad quantities,
duplicate container names are accepted here and rejected there. Their published
``x-kubernetes-list-map-keys`` are merge keys, not validation, and their ``default``s are
documentation (Go defaulting runs instead): neither is applied. tests/unit/
test_validation_structural.py lists each known disagreement with its reason.

**CEL** (``x-kubernetes-validations``) of custom resources is evaluated by
``kgen.runtime.apimachinery.cel`` (the ``validation`` extra; without it each rule is *not
checked*, never guessed), in the apiserver's order (apiextensions-apiserver's strategy): the
schema and list-type errors first; then, when the schema has rules anywhere, either one cause
``<nil>: Invalid value: null: some validation rules were not checked because the object was
invalid...`` if any error is *blocking* (unsupported value, required, too long, too many, wrong
type: ``hasBlockingErr``), or every rule of every node present. ``cel=False`` leaves rules out.
The hook ``rules`` replaces kgen's evaluation: a callable given each value whose schema node
carries ``x-kubernetes-validations``, after that node's structural checks passed (the value has
the node's type), with the pruned and defaulted value, the node and the path; it returns the
rules' errors, which join the others.
"""

from __future__ import annotations

import base64
import copy
import ipaddress
import json
import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from kgen.runtime.apimachinery.validationschema import validation_schemas

Schema = dict[str, Any]
FieldValidation = Literal["Warn", "Strict", "Ignore"]


@dataclass(frozen=True)
class FieldError:
    """One error as the apiserver reports it: a 422's cause (``reason``, ``field``, ``message``),
    or for a 400 (decode errors, Strict unknown fields) the type ``BadRequest`` with the field
    and the text the Status message gives."""

    type: str
    field: str
    message: str

    def __str__(self) -> str:
        return f"{self.field}: {self.message}"


#: The rule hook: (value, schema node, field path) -> the node's x-kubernetes-validations errors.
RuleCheck = Callable[[Any, Schema, str], list[FieldError]]
#: A $ref's target by definition name (``io.k8s.api.core.v1.PodSpec``).
Resolve = Callable[[str], Schema]


def validate(
    obj: Any, *, package: str | None = None, field_validation: FieldValidation = "Warn",
    rules: RuleCheck | None = None, cel: bool = True,
) -> list[FieldError]:
    """The errors the apiserver would answer a create of ``obj`` with; empty when it accepts it.

    ``obj`` is a generated model instance (validated against its own package's schemas) or a
    plain dict (against ``package``'s, ``kgen.kubernetes`` by default). LookupError: the package
    has no schema for the object's apiVersion and kind. Errors are sorted by field, then message
    (the apiserver's own order varies from request to request).
    """
    if hasattr(obj, "to_dict") and not isinstance(obj, dict):
        module = type(obj).__module__
        package = package or (module.split(".models.")[0] if ".models." in module else "kgen.kubernetes")
        obj = obj.to_dict()
    package = package or "kgen.kubernetes"
    if not isinstance(obj, dict):
        raise TypeError(f"validate() takes a model or a dict, not {type(obj).__name__}")
    api_version, kind = obj.get("apiVersion"), obj.get("kind")
    schemas = validation_schemas(package)
    name = (schemas.definition_of(api_version, kind)
            if isinstance(api_version, str) and isinstance(kind, str) else None)
    if name is None:
        raise LookupError(f"{package} has no schema for apiVersion {api_version!r}, kind {kind!r}")
    builtin = name.startswith(_BUILTIN_PREFIXES)
    walker = _Walker(schemas.definition, builtin=builtin, rules=rules, cel=cel and not builtin)
    return walker.validate(schemas.definition(name), obj, field_validation)


#: Definition names of the kinds Kubernetes itself serves (decoded into Go structs, validated by
#: Go code). Not ``io.k8s.`` alone: a CRD of a ``*.k8s.io`` group (gateway-api's
#: ``gateway.networking.k8s.io``) is named ``io.k8s.networking.gateway.v1.HTTPRoute``.
_BUILTIN_PREFIXES = ("io.k8s.api.", "io.k8s.apimachinery.", "io.k8s.apiextensions-apiserver.", "io.k8s.kube-aggregator.")


def validate_against(
    schema: Schema, obj: Any, *, field_validation: FieldValidation = "Warn",
    resolve: Resolve | None = None, rules: RuleCheck | None = None, cel: bool = True,
) -> list[FieldError]:
    """``validate`` for a raw structural schema, e.g. a CRD version's ``openAPIV3Schema``
    (custom-resource rules: defaults and list types apply). ``resolve`` looks up ``$ref``s."""
    if hasattr(obj, "to_dict") and not isinstance(obj, dict):
        obj = obj.to_dict()
    return _Walker(resolve, builtin=False, rules=rules, cel=cel).validate(schema, obj, field_validation)


# -- values as Go prints them ------------------------------------------------------------------

_INT64 = 2**63


def go_value(v: Any) -> str:
    """A value as field.Invalid prints it (%v for numbers, %q for strings, JSON for the rest)."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, int):
        return str(v) if -_INT64 <= v < _INT64 else go_float(float(v))
    if isinstance(v, float):
        return go_float(v)
    if v is None:
        return "null"
    return json.dumps(v, separators=(",", ":"), ensure_ascii=False)


def go_float(f: float) -> str:
    """strconv.FormatFloat(f, 'g', -1, 64), which %v prints: the shortest digits, in %e form when
    the exponent is below -4 or from 6 on (``1e+06``, ``1.5e+20``)."""
    if f == 0:
        return "0"
    digits, point = _shortest_digits(abs(f))
    exponent = point - 1
    sign = "-" if f < 0 else ""
    if exponent < -4 or exponent >= 6:
        mantissa = digits[0] + ("." + digits[1:] if len(digits) > 1 else "")
        return f"{sign}{mantissa}e{'+' if exponent >= 0 else '-'}{abs(exponent):02d}"
    if point <= 0:
        return f"{sign}0.{'0' * -point}{digits}"
    if point >= len(digits):
        return f"{sign}{digits}{'0' * (point - len(digits))}"
    return f"{sign}{digits[:point]}.{digits[point:]}"


def _shortest_digits(f: float) -> tuple[str, int]:
    """The shortest decimal digits of f and where its decimal point goes (0.DIGITS x 10^point)."""
    mantissa, _, exp = repr(f).partition("e")
    whole, _, frac = mantissa.partition(".")
    frac = "" if frac == "0" else frac
    both = whole + frac
    digits = both.lstrip("0")
    point = len(whole) + (int(exp) if exp else 0) - (len(both) - len(digits))
    return digits.rstrip("0") or "0", point


def _json_type(v: Any) -> str:
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "boolean"
    if isinstance(v, int):
        return "integer" if -_INT64 <= v < _INT64 else "number"  # beyond int64 it decodes as a float64
    if isinstance(v, float):
        return "number"
    if isinstance(v, str):
        return "string"
    return "array" if isinstance(v, list) else "object"


_GO_TYPES = {"boolean": "bool", "integer": "int64", "number": "float64", "string": "string",
             "array": "[]interface {}", "object": "map[string]interface {}", "null": "<nil>"}


def _is_json_integer(v: Any) -> bool:
    """An integer for kube-openapi: an int64 as decoded, or a float64 with no fraction within
    ±2^53 (swag.IsFloat64AJSONInteger, with its relative tolerance of 1e-9)."""
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return False
    if isinstance(v, int) and -_INT64 <= v < _INT64:
        return True
    f = float(v)
    if abs(f) > 2**53:
        return False
    diff = abs(f - math.trunc(f))
    return f == 0 or diff / (2 * abs(f) - diff) < 1e-9


def _child(path: str, key: str | int) -> str:
    """The apiserver's paths: dots between fields and map keys alike, ``[i]`` for list items."""
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else key


# -- kube-openapi's string formats (k8s.io/kube-openapi/pkg/validation/strfmt), Go semantics ----

_HEX = "[0-9a-fA-F]"
_UUID = re.compile(rf"(?i)^{_HEX}{{8}}-?{_HEX}{{4}}-?{_HEX}{{4}}-?{_HEX}{{4}}-?{_HEX}{{12}}$")
_UUID3 = re.compile(rf"(?i)^{_HEX}{{8}}-?{_HEX}{{4}}-?3{_HEX}{{3}}-?{_HEX}{{4}}-?{_HEX}{{12}}$")
_UUID4 = re.compile(rf"(?i)^{_HEX}{{8}}-?{_HEX}{{4}}-?4{_HEX}{{3}}-?[89ab]{_HEX}{{3}}-?{_HEX}{{12}}$")
_UUID5 = re.compile(rf"(?i)^{_HEX}{{8}}-?{_HEX}{{4}}-?5{_HEX}{{3}}-?[89ab]{_HEX}{{3}}-?{_HEX}{{12}}$")
_L = r"[^\W_]"  # a letter or digit (strfmt: [a-zA-Z0-9\p{S}\p{L}])
_HOSTNAME = re.compile(
    rf"^({_L}((-?{_L}{{0,62}})?)|({_L}(((?:-|{_L}){{0,61}}{_L})?)(\.)){{1,}}([^\W\d_]){{2,63}})$")
_TIME = re.compile(r"^([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d+)?(z|[+-]([01]\d|2[0-3]):[0-5]\d)$")
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_DURATION_UNITS = frozenset({
    "ns", "us", "µs", "ms", "s", "m", "h", "d", "w", "nanosecond", "nanoseconds", "microsecond",
    "microseconds", "millisecond", "milliseconds", "sec", "secs", "second", "seconds", "min", "mins",
    "minute", "minutes", "hr", "hrs", "hour", "hours", "day", "days", "wk", "wks", "week", "weeks",
})
_GO_DURATION = re.compile(r"^[-+]?((\d+(\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h))+$|^[-+]?0$")
_DNS_LABEL = re.compile(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$")
_DNS_SUBDOMAIN = re.compile(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$")
_EMAIL_ATOM = r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+"
_EMAIL_ADDR = rf"({_EMAIL_ATOM}(\.{_EMAIL_ATOM})*|\"[^\"]*\")@{_EMAIL_ATOM}(\.{_EMAIL_ATOM})*"
_EMAIL = re.compile(rf"^({_EMAIL_ADDR}|[^<>@]*<{_EMAIL_ADDR}>)$")
_RGB_PART = r"\s*(0|[1-9]\d?|1\d\d?|2[0-4]\d|25[0-5])\s*"
_RGB = re.compile(rf"^rgb\({_RGB_PART},{_RGB_PART},{_RGB_PART}\)$")
_CREDITCARD = re.compile(r"^(?:4[0-9]{12}(?:[0-9]{3})?|5[1-5][0-9]{14}|6(?:011|5[0-9][0-9])[0-9]{12}|"
                         r"3[47][0-9]{13}|3(?:0[0-5]|[68][0-9])[0-9]{11}|(?:2131|1800|35\d{3})\d{11})$")


def _is_date(s: str) -> bool:
    """time.Parse("2006-01-02"): year 0000 included (Python's date has no year 0)."""
    if not _DATE.match(s):
        return False
    year, month, day = int(s[:4]), int(s[5:7]), int(s[8:])
    leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
    days = [31, 29 if leap else 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
    return 1 <= month <= 12 and 1 <= day <= days[month - 1]


def _is_date_time(s: str) -> bool:
    """RFC 3339 as strfmt reads it: an offset required, ``t``/``z`` in any case, no leap second."""
    parts = s.lower().split("t")
    return len(parts) == 2 and _is_date(parts[0]) and bool(_TIME.match(parts[1]))


def _parse_ip_sloppy(s: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """k8s.io/utils/net.ParseIPSloppy: Go's pre-1.17 net.ParseIP, leading zeros allowed."""
    if ":" not in s:
        parts = s.split(".")
        if len(parts) != 4 or not all(p.isascii() and p.isdigit() and int(p) <= 255 for p in parts):
            return None
        return ipaddress.IPv4Address(".".join(str(int(p)) for p in parts))
    if "%" in s:
        return None
    try:
        return ipaddress.IPv6Address(s)
    except ValueError:
        return None


def _is_ipv4(s: str) -> bool:
    ip = _parse_ip_sloppy(s)
    return ip is not None and (ip.version == 4 or getattr(ip, "ipv4_mapped", None) is not None)


def _is_cidr(s: str) -> bool:
    ip, sep, bits = s.partition("/")
    if not sep or _parse_ip_sloppy(ip) is None or not bits.isdigit() or len(bits) > 3:
        return False
    return int(bits) <= (32 if ":" not in ip else 128)


def _is_mac(s: str) -> bool:
    for sep, group in ((":", 2), ("-", 2), (".", 4)):
        parts = s.split(sep)
        if len(parts) > 1 and all(len(p) == group and re.fullmatch(f"{_HEX}+", p) for p in parts):
            return len(s.replace(sep, "")) // 2 in (6, 8, 20)
    return False


def _is_byte(s: str) -> bool:
    if not s or len(s) % 4 or not re.fullmatch(r"[A-Za-z0-9+/]*={0,2}", s):
        return False
    try:
        base64.b64decode(s, validate=True)
    except ValueError:
        return False
    return True


def _is_uri(s: str) -> bool:
    """net/url.ParseRequestURI: an absolute URI or an absolute path."""
    if any(ord(c) < 0x20 or ord(c) == 0x7F for c in s):
        return False
    if s.startswith("/"):
        return True
    scheme = re.match(r"^[A-Za-z][A-Za-z0-9+.-]*:", s)
    if not scheme:
        return False
    rest = s[scheme.end():]
    if rest.startswith("//"):
        authority = re.split(r"[/?#]", rest[2:], maxsplit=1)[0]
        return not re.search(r"[\s<>\"{}|\\^`]", authority)
    return True


def _is_duration(s: str) -> bool:
    """time.ParseDuration, or strfmt's ``<n> <unit>`` words (``3 weeks``, ``1d``)."""
    if _GO_DURATION.match(s):
        return True
    words = re.findall(r"(\d+)\s*([A-Za-zµ]+)", s)
    return bool(words) and all(unit.lower() in _DURATION_UNITS for _n, unit in words)


def _isbn10(s: str) -> bool:
    if not re.fullmatch(r"[0-9]{9}[0-9X]", s):
        return False
    return sum((i + 1) * (10 if c == "X" else int(c)) for i, c in enumerate(s)) % 11 == 0


def _isbn13(s: str) -> bool:
    if not re.fullmatch(r"[0-9]{13}", s):
        return False
    return sum(int(c) * (1 if i % 2 == 0 else 3) for i, c in enumerate(s)) % 10 == 0


def _bare_isbn(s: str) -> str:
    return re.sub(r"[\s-]", "", s)


def _is_creditcard(s: str) -> bool:
    digits = re.sub(r"[^0-9]", "", s)
    if not _CREDITCARD.match(digits):
        return False
    total, double = 0, False
    for c in reversed(digits):
        d = int(c) * (2 if double else 1)
        total += d - 9 if d > 9 else d
        double = not double
    return total % 10 == 0


#: format -> check, for the formats the apiextensions-apiserver validates; any other format
#: is a plain string.
FORMATS: dict[str, Callable[[str], bool]] = {
    "bsonobjectid": lambda s: bool(re.fullmatch(f"{_HEX}{{24}}", s)),
    "uri": _is_uri,
    "email": lambda s: bool(_EMAIL.match(s)),
    "hostname": lambda s: len(s) <= 255 and bool(_HOSTNAME.match(s)),
    "ipv4": _is_ipv4,
    "ipv6": lambda s: ":" in s and _parse_ip_sloppy(s) is not None,
    "cidr": _is_cidr,
    "mac": _is_mac,
    "uuid": lambda s: bool(_UUID.match(s)),
    "uuid3": lambda s: bool(_UUID3.match(s)),
    "uuid4": lambda s: bool(_UUID4.match(s)),
    "uuid5": lambda s: bool(_UUID5.match(s)),
    "isbn": lambda s: _isbn10(_bare_isbn(s)) or _isbn13(_bare_isbn(s)),
    "isbn10": lambda s: _isbn10(_bare_isbn(s)),
    "isbn13": lambda s: _isbn13(_bare_isbn(s)),
    "creditcard": _is_creditcard,
    "ssn": lambda s: len(s) == 11 and bool(re.fullmatch(r"\d{3}[- ]?\d{2}[- ]?\d{4}", s)),
    "hexcolor": lambda s: bool(re.fullmatch(r"#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})", s)),
    "rgbcolor": lambda s: bool(_RGB.match(s)),
    "byte": _is_byte,
    "password": lambda s: True,
    "date": _is_date,
    "duration": _is_duration,
    "date-time": _is_date_time,
    "datetime": _is_date_time,
    "k8s-short-name": lambda s: len(s) <= 63 and bool(_DNS_LABEL.match(s)),
    "k8s-long-name": lambda s: len(s) <= 253 and bool(_DNS_SUBDOMAIN.match(s)),
}


# -- metadata: decoded into Go structs, then (embedded resources) generic ObjectMeta rules -----

#: ObjectMeta's fields and the JSON types its Go decoder accepts for them.
_OBJECT_META: dict[str, tuple[str, str]] = {
    "name": ("string", "string"), "generateName": ("string", "string"), "namespace": ("string", "string"),
    "selfLink": ("string", "string"), "uid": ("string", "types.UID"), "resourceVersion": ("string", "string"),
    "generation": ("integer", "int64"), "creationTimestamp": ("string", "v1.Time"),
    "deletionTimestamp": ("string", "v1.Time"), "deletionGracePeriodSeconds": ("integer", "int64"),
    "labels": ("object", "map[string]string"), "annotations": ("object", "map[string]string"),
    "ownerReferences": ("array", "[]v1.OwnerReference"), "finalizers": ("array", "[]string"),
    "managedFields": ("array", "[]v1.ManagedFieldsEntry"),
}
#: ListMeta's, the metadata of a list kind (``ConfigMapList``, ``Status``).
_LIST_META: dict[str, tuple[str, str]] = {
    "selfLink": ("string", "string"), "resourceVersion": ("string", "string"), "continue": ("string", "string"),
    "remainingItemCount": ("integer", "int64"), "shardInfo": ("object", "*v1.ShardInfo"),
}
_GO_JSON_KINDS = {"boolean": "bool", "integer": "number", "number": "number", "string": "string",
                  "array": "array", "object": "object"}
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


def _valid_label_key(key: str) -> bool:
    prefix, _, name = key.rpartition("/")
    if prefix and not (len(prefix) <= 253 and _DNS_SUBDOMAIN.match(prefix)):
        return False
    return len(name) <= 63 and bool(_LABEL_NAME.match(name))


def _valid_label_value(value: str) -> bool:
    return value == "" or (len(value) <= 63 and bool(_LABEL_NAME.match(value)))


def _meta_errors(meta: dict[str, Any], path: str) -> list[FieldError]:
    """What ValidateObjectMeta says of an embedded resource's metadata (its name is not checked)."""
    errors: list[FieldError] = []
    for field in ("labels", "annotations"):
        entries = meta.get(field)
        for key, value in (entries.items() if isinstance(entries, dict) else ()):
            if not _valid_label_key(key):
                errors.append(FieldError("FieldValueInvalid", _child(path, field),
                                         f"Invalid value: {go_value(key)}: {_NAME_PART_MSG}"))
            if field == "labels" and isinstance(value, str) and not _valid_label_value(value):
                errors.append(FieldError("FieldValueInvalid", _child(path, field),
                                         f"Invalid value: {go_value(value)}: {_LABEL_VALUE_MSG}"))
    namespace = meta.get("namespace")
    if isinstance(namespace, str) and namespace and not (len(namespace) <= 63 and _DNS_LABEL.match(namespace)):
        errors.append(FieldError("FieldValueInvalid", _child(path, "namespace"),
                                 f"Invalid value: {go_value(namespace)}: {_DNS_LABEL_MSG}"))
    return errors


# -- list types -------------------------------------------------------------------------------

def _set_key(v: Any) -> str:
    """Set items are equal when their JSON and Go types are: 1 and 1.0 are distinct."""
    return f"{type(v).__name__}:{json.dumps(v, sort_keys=True)}"


def _list_type_errors(v: list[Any], s: Schema, path: str) -> list[FieldError]:
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
                errors.append(FieldError("FieldValueDuplicate", _child(path, i), f"Duplicate value: {go_value(item)}"))
            seen.add(key)
    elif list_type == "map":
        scalars = [i for i, item in enumerate(v) if not isinstance(item, dict)]
        for i in scalars:
            if v[i] is not None:
                errors.append(FieldError("FieldValueInvalid", _child(path, i), f"Invalid value: {go_value(v[i])}: "
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
                errors.append(FieldError("FieldValueDuplicate", _child(path, i), f"Duplicate value: {key}"))
            seen_keys.add(key)
    return errors


def _go_equal(a: Any, b: Any) -> bool:
    """Enum membership as reflect.DeepEqual after JSON decoding: numbers by value, else by type."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return float(a) == float(b)
    return type(a) is type(b) and a == b


# -- the walker ---------------------------------------------------------------------------------

#: Keywords that check a value whatever its type (a typeless node with one is validated).
_VALUE_CHECKS = ("enum", "format", "pattern", "minLength", "maxLength", "minimum", "maximum", "multipleOf",
                 "minItems", "maxItems", "minProperties", "maxProperties", "required", "properties", "items",
                 "allOf", "anyOf", "oneOf", "not")

#: Error types after which the apiserver evaluates no rule (apiextensions-apiserver's
#: hasBlockingErr): the value may not have the type the rules were compiled for.
_BLOCKING = frozenset({"FieldValueNotSupported", "FieldValueRequired", "FieldValueTooLong", "FieldValueTooMany",
                       "FieldValueTypeInvalid"})
_RULES_NOT_CHECKED = FieldError(
    "FieldValueInvalid", "<nil>", "Invalid value: null: some validation rules were not checked because the object "
    "was invalid; correct the existing errors to complete validation")


class _Walker:
    """One validation: prune/default, then kube-openapi's checks, on one schema and its $refs."""

    def __init__(self, resolve: Resolve | None, *, builtin: bool, rules: RuleCheck | None, cel: bool = False) -> None:
        self._resolve = resolve
        self._builtin = builtin
        self._rules = rules
        #: kgen's CEL evaluation: the nodes with rules the walk met, evaluated after it (``_cel``)
        self._deferred: list[tuple[Any, Schema, str]] | None = None
        if rules is None and cel:
            deferred: list[tuple[Any, Schema, str]] = []

            def defer(value: Any, node: Schema, path: str) -> list[FieldError]:
                deferred.append((value, node, path))
                return []

            self._deferred, self._rules = deferred, defer
        # id(node) -> (node, node with $refs merged): the node is held so its id stays its own
        self._resolved: dict[int, tuple[Schema, Schema]] = {}

    def validate(self, schema: Schema, obj: Any, field_validation: FieldValidation) -> list[FieldError]:
        if field_validation not in ("Warn", "Strict", "Ignore"):
            raise ValueError(f"field_validation must be Warn, Strict or Ignore, not {field_validation!r}")
        unknown: list[str] = []
        decode: list[FieldError] = []
        pruned = self._prune(obj, self._node(schema), "", unknown, decode, resource=True)
        if field_validation == "Strict" and unknown:
            # a strict decoding error: the apiserver validates nothing else
            errors = [FieldError("BadRequest", p, f'unknown field "{p}"') for p in unknown]
        elif decode:
            errors = decode
        else:
            errors = []
            self._walk(pruned, self._node(schema), "", errors, resource=True)
            if self._deferred is not None and self._has_rules(schema, set()):
                errors.extend(self._cel(errors))
        return sorted(errors, key=lambda e: (e.field, e.message))

    def _cel(self, errors: list[FieldError]) -> list[FieldError]:
        if any(e.type in _BLOCKING for e in errors):
            return [_RULES_NOT_CHECKED]
        from kgen.runtime.apimachinery.cel import check_rules

        return [FieldError(v.type, v.field, v.message)
                for value, node, path in self._deferred or () for v in check_rules(value, node, path)]

    def _has_rules(self, s: Schema, seen: set[int]) -> bool:
        """Whether any node of the schema carries x-kubernetes-validations (the apiserver then has
        a CEL validator for the kind, whatever the object holds)."""
        if id(s) in seen or ("$ref" in s and self._resolve is None):
            return False
        seen.add(id(s))
        s = self._node(s)
        if s.get("x-kubernetes-validations"):
            return True
        subs = [*(s.get("properties") or {}).values(), *(s.get("allOf") or []), *(s.get("anyOf") or []),
                *(s.get("oneOf") or [])]
        subs += [s[k] for k in ("items", "additionalProperties") if isinstance(s.get(k), dict)]
        return any(self._has_rules(sub, seen) for sub in subs if isinstance(sub, dict))

    def _node(self, s: Schema) -> Schema:
        """``s`` with its ``$ref`` (or a one-``$ref`` ``allOf``, as built-ins wrap them) merged in."""
        found = self._resolved.get(id(s))
        if found is not None:
            return found[1]
        out = s
        while True:
            ref = out.get("$ref")
            all_of = out.get("allOf")
            if ref is None and isinstance(all_of, list) and len(all_of) == 1 and "$ref" in all_of[0]:
                rest = {k: v for k, v in out.items() if k != "allOf"}
                out = {**all_of[0], **rest}
                continue
            if not isinstance(ref, str):
                break
            if self._resolve is None:
                raise LookupError(f"the schema refers to {ref!r}: validate_against needs resolve=")
            out = {**self._resolve(ref), **{k: v for k, v in out.items() if k != "$ref"}}
        self._resolved[id(s)] = (s, out)
        return out

    def _known(self, s: Schema, key: str) -> Schema | None:
        props = s.get("properties")
        if props and key in props:
            return self._node(props[key])
        addl = s.get("additionalProperties")
        return self._node(addl) if isinstance(addl, dict) else None

    # -- 1 and 2: decode, prune, default ---------------------------------------------------------

    def _prune(self, value: Any, s: Schema | None, path: str, unknown: list[str], decode: list[FieldError],
               resource: bool = False) -> Any:
        """The object the apiserver validates: unknown fields and non-nullable nulls dropped (the
        unknown recorded), defaults applied; decode errors of resources' Go fields recorded."""
        if isinstance(value, list):
            items = s.get("items") if s else None
            if not isinstance(items, dict):
                return value
            node = self._node(items)
            return [self._prune(v, node, _child(path, i), unknown, decode) for i, v in enumerate(value)]
        if not isinstance(value, dict):
            return value
        s = s or {}
        if "properties" not in s and not isinstance(s.get("additionalProperties"), dict) and (
                self._builtin or "type" not in s):
            # nothing says which fields exist: a built-in's custom-decoded type (RawExtension,
            # FieldsV1, JSONSchemaProps' unions), or a typeless node: the value stays whole
            return value
        resource = resource or bool(s.get("x-kubernetes-embedded-resource"))
        preserve = s.get("x-kubernetes-preserve-unknown-fields", False)
        out: dict[str, Any] = {}
        for key, v in value.items():
            if resource and key == "metadata":
                declared = self._known(s, key)
                is_list = bool(declared and "continue" in (declared.get("properties") or {}))
                out[key] = self._decode_meta(v, _child(path, key), unknown, decode, is_list)
                continue
            if resource and key in ("apiVersion", "kind") and v is not None and not isinstance(v, str):
                decode.append(FieldError("BadRequest", _child(path, key), f"Invalid value: {go_value(v)}: must be a string"))
            sub = self._known(s, key)
            if sub is None:
                if preserve or (resource and key in ("apiVersion", "kind")):
                    out[key] = v
                else:
                    unknown.append(_child(path, key))
                continue
            if v is None and not sub.get("nullable", False):
                continue
            out[key] = self._prune(v, sub, _child(path, key), unknown, decode)
        if not self._builtin:
            for key, sub in (s.get("properties") or {}).items():
                if key not in out and "default" in sub:
                    out[key] = copy.deepcopy(sub["default"])
        return out

    @staticmethod
    def _decode_meta(meta: Any, path: str, unknown: list[str], decode: list[FieldError], is_list: bool) -> Any:
        """metadata as json.Unmarshal into ObjectMeta (ListMeta for a list kind) sees it: its
        fields' types, the rest unknown."""
        if meta is None:
            return None
        go_struct, fields = ("ListMeta", _LIST_META) if is_list else ("ObjectMeta", _OBJECT_META)
        if not isinstance(meta, dict):
            decode.append(FieldError("BadRequest", path, f"Invalid value: {go_value(meta)}: json: cannot unmarshal "
                                     f"{_json_type(meta)} into Go value of type v1.{go_struct}"))
            return meta
        out: dict[str, Any] = {}
        for key, v in meta.items():
            if v is None:
                continue  # decoded as the zero value: as if absent
            expected = fields.get(key)
            if expected is None:
                unknown.append(_child(path, key))
                continue
            want, go_type = expected
            got = _json_type(v)
            if got != want and not (want == "integer" and _is_json_integer(v)):
                decode.append(FieldError("BadRequest", path, f"Invalid value: {go_value(meta)}: json: cannot unmarshal "
                                         f"{_GO_JSON_KINDS[got]} into Go struct field {go_struct}.{key} of type {go_type}"))
            out[key] = v
        return out

    # -- 3: validate ----------------------------------------------------------------------------

    def _walk(self, v: Any, s: Schema, path: str, errors: list[FieldError], resource: bool = False) -> None:
        if v is None and s.get("nullable"):
            return
        typ, fmt = s.get("type"), s.get("format")
        if s.get("x-kubernetes-int-or-string") or fmt == "int-or-string":
            if not (isinstance(v, str) or _is_json_integer(v)):
                self._int_or_string_errors(v, s, path, errors)
                return
            typ = "string" if isinstance(v, str) else "integer"
        elif typ is None:
            union = self._type_union(v, s, path, errors)
            if union is None and (v is None or not any(k in s for k in _VALUE_CHECKS)):
                if self._rules is not None and "x-kubernetes-validations" in s:
                    errors.extend(self._rules(v, s, path))  # a typeless node takes any value
                return
            if union is False:
                return
            # a type-only union, or a typeless node with value validations (a oneOf/anyOf/not
            # branch): the checks apply to the value as it is, whatever its type
            typ = _json_type(v)
            if union is None and isinstance(fmt, str) and fmt in FORMATS and isinstance(v, (bool, int, float)):
                # kube-openapi checks a string format on any scalar, shown by its Go kind
                shown = json.dumps("" if isinstance(v, bool) else "int64" if isinstance(v, int) else "float64")
                errors.append(FieldError("FieldValueTypeInvalid", path,
                                         f"Invalid value: {shown}: {path} in body must be of type {fmt}: {shown}"))
        ok = self._check_type(v, typ, fmt, path, errors)
        fractional = typ == "integer" and isinstance(v, float) and not v.is_integer()
        if "enum" in s and not fractional and not any(_go_equal(v, e) for e in s["enum"]):
            values = ", ".join(json.dumps(e if isinstance(e, str) else go_value(e)) for e in s["enum"])
            errors.append(FieldError("FieldValueNotSupported", path,
                                     f"Unsupported value: {go_value(v)}: supported values: {values}"))
        if v is not None and not (s.get("x-kubernetes-int-or-string") or fmt == "int-or-string"
                                  or self._is_type_union(s)):
            self._junctions(v, s, path, errors)  # kube-openapi checks them whatever the type check said
        # after a type error only numbers go on (a float on an integer field still gets its range
        # and multipleOf errors); booleans have nothing more to check
        if isinstance(v, bool) or (not ok and not isinstance(v, (int, float))):
            return
        if isinstance(v, str):
            _string(v, s, path, errors)
        elif isinstance(v, (int, float)):
            _number(v, s, path, errors)
        elif isinstance(v, list):
            self._array(v, s, path, errors)
        elif isinstance(v, dict):
            self._object(v, s, path, errors, resource)
        if ok and self._rules is not None and "x-kubernetes-validations" in s:
            errors.extend(self._rules(v, s, path))

    @staticmethod
    def _is_type_union(s: Schema) -> bool:
        branches = s.get("oneOf") or s.get("anyOf")
        return isinstance(branches, list) and all(isinstance(b, dict) and set(b) == {"type"} for b in branches)

    def _junctions(self, v: Any, s: Schema, path: str, errors: list[FieldError]) -> None:
        """allOf, anyOf, oneOf and not, as kube-openapi checks them: each branch validates the
        value at the same path; a failing anyOf/oneOf reports, beside its own error, the errors
        of its best branch (the one with the most checks passed, the first of equals)."""
        quoted = json.dumps(path)
        if isinstance(s.get("allOf"), list):
            results = [self._branch(v, b, path) for b in s["allOf"] if isinstance(b, dict)]
            failed = [found for found, _ in results if found]
            if failed:
                errors.extend(e for found in failed for e in found)
                errors.append(FieldError("FieldValueInvalid", path,
                                         f'Invalid value: "": {quoted} must validate all the schemas (allOf)'))
        for key in ("anyOf", "oneOf"):
            if not isinstance(s.get(key), list):
                continue
            results = [self._branch(v, b, path) for b in s[key] if isinstance(b, dict)]
            valid = sum(1 for found, _ in results if not found)
            if key == "anyOf" and valid == 0:
                errors.append(FieldError("FieldValueInvalid", path,
                                         f'Invalid value: "": {quoted} must validate at least one schema (anyOf)'))
            elif key == "oneOf" and valid != 1:
                found_text = "none valid" if valid == 0 else f"{valid} valid alternatives"
                errors.append(FieldError("FieldValueInvalid", path, f'Invalid value: "": {quoted} must validate one '
                                         f"and only one schema (oneOf). Found {found_text}"))
            if valid == 0 and results:
                best = max(range(len(results)), key=lambda i: (results[i][1], -i))
                errors.extend(results[best][0])
        if isinstance(s.get("not"), dict) and not self._branch(v, s["not"], path)[0]:
            errors.append(FieldError("FieldValueInvalid", path,
                                     f'Invalid value: "": {quoted} must not validate the schema (not)'))

    def _branch(self, v: Any, branch: Schema, path: str) -> tuple[list[FieldError], int]:
        """A junction branch's errors on ``v``, and how many of its checks passed (kube-openapi's
        MatchCount, counted here per property present and for the branch's own keywords)."""
        found: list[FieldError] = []
        rules, self._rules = self._rules, None  # rules sit on nodes, never in branches
        try:
            node = self._node(branch)
            self._walk(v, node, path, found)
        finally:
            self._rules = rules
        matches = int(not any(e.field == path for e in found))
        if isinstance(v, dict):
            for key in node.get("properties") or {}:
                if key in v:
                    child = _child(path, key)
                    matches += not any(e.field == child or e.field.startswith((child + ".", child + "["))
                                       for e in found)
        return found, matches

    def _int_or_string_errors(self, v: Any, s: Schema, path: str, errors: list[FieldError]) -> None:
        errors.append(_type_error(path, "integer,string", _json_type(v)))
        if s.get("anyOf"):
            errors.append(FieldError("FieldValueInvalid", path,
                                     f'Invalid value: "": "{path}" must validate at least one schema (anyOf)'))
            errors.append(_type_error(path, "integer", _json_type(v)))
            if isinstance(v, float):
                errors.append(_checked_integer(path, "(default format)"))
        if isinstance(v, (int, float)) and not isinstance(v, bool):
            _number(v, s, path, errors)

    @staticmethod
    def _type_union(v: Any, s: Schema, path: str, errors: list[FieldError]) -> bool | None:
        """A typeless node whose oneOf/anyOf branches only name types (built-ins' Quantity:
        string or number): the value must be one of them. True: go on with the value's type;
        None: not such a node (nothing to check)."""
        branches = s.get("oneOf") or s.get("anyOf")
        if not isinstance(branches, list) or not branches:
            return None
        types = [b["type"] for b in branches if isinstance(b, dict) and len(b) == 1 and isinstance(b.get("type"), str)]
        if len(types) != len(branches):
            return None
        got = _json_type(v)
        if got in types or (got == "integer" and "number" in types) or ("integer" in types and _is_json_integer(v)):
            return got != "null"
        errors.append(_type_error(path, ",".join(types), got))
        return False

    @staticmethod
    def _check_type(v: Any, typ: str, fmt: str | None, path: str, errors: list[FieldError]) -> bool:
        got = _json_type(v)
        if typ == "string":
            if isinstance(v, str):
                return True
            # a format kube-openapi knows names the expected type, with the Go type of the value
            errors.append(_type_error(path, fmt, _GO_TYPES[got]) if fmt in FORMATS and fmt
                          else _type_error(path, "string", got))
            return False
        if typ == "integer":
            sized = fmt in ("int32", "int64")
            if got in ("boolean", "object") and sized:
                errors.append(_type_error(path, str(fmt), ""))
                return False
            if got not in ("integer", "number"):
                errors.append(_type_error(path, "integer", got))
                return False
            if not _is_json_integer(v):
                errors.append(_type_error(path, str(fmt) if sized else "integer", "float64" if sized else "number"))
                bits = 32 if fmt == "int32" else 64
                if not float(v).is_integer() or not -(2 ** (bits - 1)) <= v < 2 ** (bits - 1):
                    errors.append(_checked_integer(path, f"with format {fmt}" if sized else "(default format)"))
                return False
            if fmt == "int32" and not -(2**31) <= v < 2**31:
                errors.append(_checked_integer(path, "with format int32"))
            return True
        if typ == "number":
            if got in ("integer", "number"):
                return True
            errors.append(_type_error(path, "number", got))
            return False
        if got != typ:
            errors.append(_type_error(path, typ, got))
            return False
        return True

    def _array(self, v: list[Any], s: Schema, path: str, errors: list[FieldError]) -> None:
        if "minItems" in s and len(v) < s["minItems"]:
            errors.append(FieldError("FieldValueInvalid", path,
                                     f"Invalid value: {len(v)}: {path} in body should have at least {s['minItems']} items"))
        if "maxItems" in s and len(v) > s["maxItems"]:
            errors.append(FieldError("FieldValueTooMany", path, _too_many(len(v), s['maxItems'])))
        items = s.get("items")
        if isinstance(items, dict):
            node = self._node(items)
            for i, item in enumerate(v):
                self._walk(item, node, _child(path, i), errors)
        if not self._builtin:
            errors.extend(_list_type_errors(v, s, path))

    def _object(self, v: dict[str, Any], s: Schema, path: str, errors: list[FieldError], resource: bool) -> None:
        if "minProperties" in s and len(v) < s["minProperties"]:
            errors.append(FieldError("FieldValueInvalid", path, f"Invalid value: {len(v)}: {path} in body should "
                                     f"have at least {s['minProperties']} properties"))
        if "maxProperties" in s and len(v) > s["maxProperties"]:
            errors.append(FieldError("FieldValueTooMany", path,
                                     _too_many(len(v), s['maxProperties'])))
        for key in s.get("required") or ():
            if key not in v:
                errors.append(FieldError("FieldValueRequired", _child(path, key), "Required value"))
        embedded = bool(s.get("x-kubernetes-embedded-resource"))
        for key, item in v.items():
            # a custom resource's metadata is ObjectMeta, decoded (above) rather than validated
            # against a schema; a built-in's is validated against ObjectMeta's published one
            if (resource or embedded) and key == "metadata" and not self._builtin:
                continue
            sub = self._known(s, key)
            if sub is not None:
                self._walk(item, sub, _child(path, key), errors)
        if embedded:
            for key in ("apiVersion", "kind"):
                if key not in v:
                    errors.append(FieldError("FieldValueRequired", _child(path, key), "Required value"))
                elif v[key] == "":
                    errors.append(FieldError("FieldValueInvalid", _child(path, key), 'Invalid value: "": must not be empty'))
            meta = v.get("metadata")
            if isinstance(meta, dict):
                errors.extend(_meta_errors(meta, _child(path, "metadata")))


def _too_many(count: int, most: int) -> str:
    """field.TooMany's message: "item" for a limit of one."""
    return f"Too many: {count}: must have at most {most} {'item' if most == 1 else 'items'}"


def _type_error(path: str, want: str | None, got: str) -> FieldError:
    shown = json.dumps(got)
    return FieldError("FieldValueTypeInvalid", path, f"Invalid value: {shown}: {path} in body must be of type {want}: {shown}")


def _checked_integer(path: str, detail: str) -> FieldError:
    """kube-openapi's format check of an integer (reported by the apiserver at the field ``<nil>``)."""
    return FieldError("FieldValueInvalid", path, f'Invalid value: "": Checked value must be of type integer {detail} in {path}')


def _string(v: str, s: Schema, path: str, errors: list[FieldError]) -> None:
    # kube-openapi's string validator stops at its first failure: length, then pattern
    if "minLength" in s and len(v) < s["minLength"]:
        errors.append(FieldError("FieldValueInvalid", path,
                                 f"Invalid value: {go_value(v)}: {path} in body should be at least {s['minLength']} chars long"))
    elif "maxLength" in s and len(v) > s["maxLength"]:
        errors.append(FieldError("FieldValueTooLong", path, f"Too long: may not be more than {s['maxLength']} bytes"))
    elif "pattern" in s and not re.search(s["pattern"], v):
        errors.append(FieldError("FieldValueInvalid", path,
                                 f"Invalid value: {go_value(v)}: {path} in body should match '{s['pattern']}'"))
    fmt = s.get("format")
    check = FORMATS.get(fmt) if isinstance(fmt, str) else None
    if check is not None and not check(v):
        errors.append(FieldError("FieldValueTypeInvalid", path,
                                 f"Invalid value: {go_value(v)}: {path} in body must be of type {fmt}: {go_value(v)}"))


def _number(v: float, s: Schema, path: str, errors: list[FieldError]) -> None:
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
        if isinstance(v, int) and -_INT64 <= v < _INT64:
            # an integer value is checked against the factor truncated to an integer (kube-openapi)
            if int(factor) <= 0:
                invalid("0", f"factor MultipleOf declared for {path} must be positive: {int(factor)}")
            elif v % int(factor):
                invalid(go_value(v), f"{path} in body should be a multiple of {go_value(factor)}")
            return
        quotient = v / factor if factor >= 1 else 1 / factor * v
        if not (abs(quotient) <= 2**53 - 1 and float(quotient).is_integer()):
            invalid(go_value(v), f"{path} in body should be a multiple of {go_value(factor)}")
