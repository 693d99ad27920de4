"""CRD validation rules (``x-kubernetes-validations``) evaluated as the kube-apiserver does.

apiextensions-apiserver compiles every rule of a CRD's structural schema with cel-go, ``self``
typed from the schema node the rule sits on, and at each write evaluates the rules of every node
present in the object, reporting one cause per failing rule. This module does the same with
cel-expr-python (Google's cel-cpp), the library docs/design/validation.md ("CEL") chose against
the real apiserver v1.37.2: on the probe's 368 samples of accepted rules it never gave a wrong
verdict; what it cannot host fails at compile time, so a rule is either checked as the apiserver
checks it or reported *not checked*, never guessed.

    compiled = compile_rules(node["x-kubernetes-validations"], node)
    compiled.evaluate(value, path="spec.replicas")            # -> list[Violation]
    compiled.evaluate(value, old_self=old, path="spec.x")     # transition rules run too
    compiled.not_checked                                      # rules this module cannot evaluate

Why each piece is the way it is:

- **The library is optional** (``pip install 'kgen-runtime[validation]'``, Python >= 3.11): it is
  imported at the first compile, never at import, and when it is missing every rule is reported
  not checked with that reason instead of raising.
- **The Kubernetes CEL library** (quantity, URL, IP/CIDR, semver, lists; cel-go's ext.Sets and
  ext.Lists) is plain Python here, declared with concrete parameter types: cel-cpp never
  dispatches a Python overload through a ``dyn`` parameter. Kubernetes' opaque values travel as
  tagged maps ``{"__k8s__": kind, "v": canonical}`` whose canonical text makes ``==`` compare by
  value as the apiserver does (``quantity('1') == quantity('1000m')``).
- **Not hostable, so not checked**: the format library (its functions return optionals, which a
  Python function cannot in cel-expr-python 0.1.3), list ``indexOf``/``lastIndexOf`` (cel-cpp
  refuses a second declaration of ExtStrings' ``indexOf``), two-variable comprehensions (a macro
  cel-cpp does not ship). Any other rule that does not compile here is not checked either (the
  apiserver, which refuses a CRD with such a rule, is the judge of that, not this module).
- **Transition rules** (those that mention ``oldSelf``) run only when there is an old value,
  unless ``optionalOldSelf``: then ``oldSelf`` is an optional, made with ``cel.bind`` because an
  optional-typed variable cannot be bound from Python.
- **Messages and paths** are the apiserver's (measured in hack/validation_probe/oracle.json):
  ``Invalid value: <value>: failed rule: <rule>``, the value omitted for objects and lists;
  ``message``; ``messageExpression`` falling back to ``message`` then to ``failed rule`` when it
  is empty or fails; ``reason`` as the cause's type; ``fieldPath`` appended to the node's path;
  runtime errors as ``Invalid value: "<schema type>": <error> evaluating rule: <message or rule>`` with
  cel-go's error texts where cel-cpp's differ.

Not done: the apiserver's cost limits (cel-cpp's budget is not exposed in Python; for a cluster's
CRDs the static limits were already enforced at CRD creation), set/map list equality ignoring
order (lists compare in order here), and correlating old and new values below lists and maps
(the caller passes ``old_self`` only where it has one).
"""

from __future__ import annotations

import base64
import functools
import ipaddress
import json
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from decimal import Decimal, InvalidOperation
from typing import Any, Final
from urllib.parse import parse_qs, quote, unquote, urlsplit

Schema = dict[str, Any]

INSTALL_HINT: Final = "the CEL library is not installed: pip install 'kgen-runtime[validation]' (Python >= 3.11)"


class _Missing:
    def __repr__(self) -> str:
        return "MISSING"


#: ``evaluate(old_self=MISSING)``: there is no old value (a create, or a field the update adds).
MISSING: Final = _Missing()


@dataclass(frozen=True)
class Violation:
    """One failing rule as the apiserver reports its cause: the reason (``FieldValueInvalid`` or
    the rule's ``reason``), the field path and the message (``Invalid value: 5: failed rule: ...``)."""

    type: str
    field: str
    message: str

    def __str__(self) -> str:
        return f"{self.field}: {self.message}"


# -- the Kubernetes CEL library, in plain Python --------------------------------------------------
# k8s.io/apiserver/pkg/cel/library (v0.37) and cel-go's ext.Sets / ext.Lists; errors in the
# apiserver's wording where the probe saw it.


class CelError(Exception):
    """A function's runtime error; its text becomes the rule's error."""


def _tagged(kind: str, canonical: str) -> dict[str, str]:
    return {"__k8s__": kind, "v": canonical}


def _kind(v: Any) -> str | None:
    return v.get("__k8s__") if isinstance(v, dict) else None


_QUANTITY_RE = re.compile(r"^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$")
_QUANTITY_MSG = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"
_BINARY = {"Ki": 2**10, "Mi": 2**20, "Gi": 2**30, "Ti": 2**40, "Pi": 2**50, "Ei": 2**60}
_DECIMAL = {"n": -9, "u": -6, "m": -3, "": 0, "k": 3, "M": 6, "G": 9, "T": 12, "P": 15, "E": 18}


def _parse_quantity(s: str) -> Decimal:
    m = _QUANTITY_RE.match(s)
    if not m or m.group(1).count(".") > 1 or m.group(1).strip("+-") in ("", "."):
        raise CelError(_QUANTITY_MSG)
    try:
        number = Decimal(m.group(1))
    except InvalidOperation as e:
        raise CelError("unable to parse quantity's suffix") from e
    suffix = m.group(2)
    if suffix in _BINARY:
        return number * _BINARY[suffix]
    if suffix in _DECIMAL:
        return number.scaleb(_DECIMAL[suffix])
    if re.fullmatch(r"[eE][-+]?[0-9]+", suffix):
        return number.scaleb(int(suffix[1:]))
    raise CelError("unable to parse quantity's suffix")


def _quantity_of(d: Decimal) -> dict[str, str]:
    return _tagged("Quantity", str(d.normalize()) if d else "0")


def _decimal(v: Any) -> Decimal:
    if _kind(v) == "Quantity":
        return Decimal(v["v"])
    if isinstance(v, int) and not isinstance(v, bool):
        return Decimal(v)
    raise CelError("no such overload")


def _is_quantity(s: str) -> bool:
    try:
        _parse_quantity(s)
    except CelError:
        return False
    return True


def _cmp(a: Any, b: Any) -> int:
    return int(a > b) - int(a < b)


def _fits_int64(d: Decimal) -> bool:
    return d == d.to_integral_value() and -(2**63) <= d < 2**63


def _as_integer(q: Any) -> int:
    d = _decimal(q)
    if not _fits_int64(d):
        raise CelError("cannot convert value to integer")
    return int(d)


_SEMVER_RE = re.compile(
    r"^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)"
    r"(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?"
    r"(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$"
)


def _semver(s: str) -> dict[str, str]:
    if not _SEMVER_RE.match(s):
        raise CelError(f"could not parse {s!r} as semver")
    return _tagged("Semver", s)


def _semver_match(v: dict[str, str]) -> re.Match[str]:
    m = _SEMVER_RE.match(v["v"])
    if m is None:
        raise CelError(f"could not parse {v['v']!r} as semver")
    return m


def _semver_key(v: dict[str, str]) -> tuple[Any, ...]:
    m = _semver_match(v)
    pre = m.group(4)
    pre_key: tuple[Any, ...] = (1,) if pre is None else (
        0, *((0, int(p), "") if p.isdigit() else (1, 0, p) for p in pre.split(".")))
    return (int(m.group(1)), int(m.group(2)), int(m.group(3)), pre_key)


def _compare(a: Any, b: Any) -> int:
    """``compareTo`` of two Quantities or two Semvers (one member function, two receiver kinds)."""
    if _kind(a) == "Semver" and _kind(b) == "Semver":
        return _cmp(_semver_key(a), _semver_key(b))
    return _cmp(_decimal(a), _decimal(b))


_SCHEME_RE = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")


def _check_url(s: str) -> None:
    # Go's url.ParseRequestURI: an absolute URI or an absolute path.
    if not (s.startswith("/") or _SCHEME_RE.match(s)):
        raise CelError(f"URL must be an absolute URL or an absolute path: {s!r}")
    try:
        urlsplit(s)
    except ValueError as e:
        raise CelError(str(e)) from e


def _url(s: str) -> dict[str, str]:
    _check_url(s)
    return _tagged("URL", s)


def _is_url(s: str) -> bool:
    try:
        _check_url(s)
    except CelError:
        return False
    return True


def _host(u: dict[str, str]) -> str:
    return urlsplit(u["v"]).netloc.rpartition("@")[2]


def _hostname(u: dict[str, str]) -> str:
    host = _host(u)
    if host.startswith("["):
        return host[1 : host.find("]")]
    return host.partition(":")[0]


def _port(u: dict[str, str]) -> str:
    host = _host(u)
    tail = host[host.find("]") + 1 :] if host.startswith("[") else host
    return tail.partition(":")[2]


def _escaped_path(u: dict[str, str]) -> str:
    return quote(unquote(urlsplit(u["v"]).path), safe="/!$&'()*+,;=:@-._~")


Address = ipaddress.IPv4Address | ipaddress.IPv6Address


def _address(s: str) -> Address:
    if "%" in s:
        raise CelError("IP address with zone value is not allowed")
    try:
        a = ipaddress.ip_address(s)
    except ValueError as e:
        raise CelError(f"IP Address {s!r} parse error during conversion from string: {e}") from e
    if isinstance(a, ipaddress.IPv6Address) and a.ipv4_mapped is not None:
        raise CelError("IPv4-mapped IPv6 address is not allowed")
    return a


def _ip(v: Any) -> dict[str, str]:
    if _kind(v) == "CIDR":
        return _tagged("IP", v["v"].partition("/")[0])
    return _tagged("IP", str(_address(v)))


def _is_ip(s: str) -> bool:
    try:
        _address(s)
    except CelError:
        return False
    return True


def _interface(s: str) -> ipaddress.IPv4Interface | ipaddress.IPv6Interface:
    address, slash, bits = s.partition("/")
    if not slash or not bits.isdigit():
        raise CelError(f"network address parse error during conversion from string: {s!r}")
    a = _address(address)
    try:
        return ipaddress.ip_interface(f"{a}/{int(bits)}")
    except ValueError as e:
        raise CelError(str(e)) from e


def _cidr(s: str) -> dict[str, str]:
    i = _interface(s)
    return _tagged("CIDR", f"{i.ip}/{i.network.prefixlen}")


def _is_cidr(s: str) -> bool:
    try:
        _interface(s)
    except CelError:
        return False
    return True


def _ip_of(v: Any) -> Address:
    return ipaddress.ip_address(v["v"]) if _kind(v) == "IP" else _address(v)


def _network_of(v: Any) -> ipaddress.IPv4Network | ipaddress.IPv6Network:
    return _interface(v["v"] if _kind(v) == "CIDR" else v).network


def _contains_cidr(c: Any, other: Any) -> bool:
    outer, inner = _network_of(c), _network_of(other)
    return outer.version == inner.version and inner.subnet_of(outer)  # type: ignore[arg-type]


def _global_unicast(a: Address) -> bool:
    # Go's netip.Addr.IsGlobalUnicast: not unspecified, loopback, multicast, link-local, broadcast.
    if a.is_unspecified or a.is_loopback or a.is_multicast or a.is_link_local:
        return False
    return not (a.version == 4 and a == ipaddress.IPv4Address("255.255.255.255"))


def _link_local_multicast(a: Address) -> bool:
    if a.version == 4:
        return a in ipaddress.ip_network("224.0.0.0/24")
    return a in ipaddress.ip_network("ff02::/16")


def _addr(v: dict[str, str]) -> Address:
    return ipaddress.ip_address(v["v"])


def _min(xs: list[Any]) -> Any:
    if not xs:
        raise CelError("min called on empty list")
    return min(xs)


def _max(xs: list[Any]) -> Any:
    if not xs:
        raise CelError("max called on empty list")
    return max(xs)


def _sum(xs: list[Any]) -> Any:
    return sum(xs[1:], xs[0]) if xs else 0


def _distinct(xs: list[Any]) -> list[Any]:
    out: list[Any] = []
    for x in xs:
        if not any(x == y and type(x) is type(y) for y in out):
            out.append(x)
    return out


def _slice(xs: list[Any], start: int, end: int) -> list[Any]:
    if not 0 <= start <= end <= len(xs):
        raise CelError(f"cannot slice({start}, {end})")
    return xs[start:end]


def _contains_all(a: list[Any], b: list[Any]) -> bool:
    return all(any(x == y for y in a) for x in b)


# Parameter-type shorthands for the signature table below, resolved against the library's
# cel.Type at the first compile: S string, I int, L list(dyn), M map(string, dyn) (an opaque
# Kubernetes value), B bool, D double.
_Sig = tuple[str, tuple[str, ...], Callable[..., Any]]

#: name -> overloads (return type, parameter types with the receiver first, implementation).
#: Member functions are called ``x.f(a)``; the names in _GLOBALS are called ``f(x, a)``.
#: (Quantity's ``sign`` is global in k8s.io/apiserver, though its doc writes ``q.sign()``.)
_LIBRARY: dict[str, list[_Sig]] = {
    # quantity
    "quantity": [("M", ("S",), lambda s: _quantity_of(_parse_quantity(s)))],
    "isQuantity": [("B", ("S",), _is_quantity)],
    "asInteger": [("I", ("M",), _as_integer)],
    "isInteger": [("B", ("M",), lambda q: _fits_int64(_decimal(q)))],
    "asApproximateFloat": [("D", ("M",), lambda q: float(_decimal(q)))],
    "sign": [("I", ("M",), lambda q: _cmp(_decimal(q), 0))],
    "add": [("M", ("M", "M"), lambda q, o: _quantity_of(_decimal(q) + _decimal(o))),
            ("M", ("M", "I"), lambda q, o: _quantity_of(_decimal(q) + _decimal(o)))],
    "sub": [("M", ("M", "M"), lambda q, o: _quantity_of(_decimal(q) - _decimal(o))),
            ("M", ("M", "I"), lambda q, o: _quantity_of(_decimal(q) - _decimal(o)))],
    "compareTo": [("I", ("M", "M"), _compare)],
    "isLessThan": [("B", ("M", "M"), lambda a, b: _compare(a, b) < 0)],
    "isGreaterThan": [("B", ("M", "M"), lambda a, b: _compare(a, b) > 0)],
    # url
    "url": [("M", ("S",), _url)],
    "isURL": [("B", ("S",), _is_url)],
    "getScheme": [("S", ("M",), lambda u: urlsplit(u["v"]).scheme)],
    "getHost": [("S", ("M",), _host)],
    "getHostname": [("S", ("M",), _hostname)],
    "getPort": [("S", ("M",), _port)],
    "getEscapedPath": [("S", ("M",), _escaped_path)],
    "getQuery": [("M", ("M",), lambda u: parse_qs(urlsplit(u["v"]).query, keep_blank_values=True))],
    # ip and cidr
    "ip": [("M", ("S",), _ip), ("M", ("M",), _ip)],
    "isIP": [("B", ("S",), _is_ip)],
    "ip.isCanonical": [("B", ("S",), lambda s: str(_address(s)) == s)],
    "family": [("I", ("M",), lambda a: _addr(a).version)],
    "isUnspecified": [("B", ("M",), lambda a: _addr(a).is_unspecified)],
    "isLoopback": [("B", ("M",), lambda a: _addr(a).is_loopback)],
    "isLinkLocalMulticast": [("B", ("M",), lambda a: _link_local_multicast(_addr(a)))],
    "isLinkLocalUnicast": [("B", ("M",), lambda a: _addr(a).is_link_local)],
    "isGlobalUnicast": [("B", ("M",), lambda a: _global_unicast(_addr(a)))],
    "cidr": [("M", ("S",), _cidr)],
    "isCIDR": [("B", ("S",), _is_cidr)],
    "containsIP": [("B", ("M", "M"), lambda c, a: _ip_of(a) in _network_of(c)),
                   ("B", ("M", "S"), lambda c, a: _ip_of(a) in _network_of(c))],
    "containsCIDR": [("B", ("M", "M"), _contains_cidr), ("B", ("M", "S"), _contains_cidr)],
    "prefixLength": [("I", ("M",), lambda c: _network_of(c).prefixlen)],
    "masked": [("M", ("M",), lambda c: _tagged("CIDR", str(_network_of(c))))],
    # semver
    "semver": [("M", ("S",), _semver)],
    "isSemver": [("B", ("S",), lambda s: bool(_SEMVER_RE.match(s)))],
    "major": [("I", ("M",), lambda v: int(_semver_match(v).group(1)))],
    "minor": [("I", ("M",), lambda v: int(_semver_match(v).group(2)))],
    "patch": [("I", ("M",), lambda v: int(_semver_match(v).group(3)))],
    # Kubernetes' lists
    "isSorted": [("B", ("L",), lambda xs: all(xs[i] <= xs[i + 1] for i in range(len(xs) - 1)))],
    "sum": [("dyn", ("L",), _sum)],
    "min": [("dyn", ("L",), _min)],
    "max": [("dyn", ("L",), _max)],
    # cel-go ext.Sets and ext.Lists (v3)
    "sets.contains": [("B", ("L", "L"), _contains_all)],
    "sets.equivalent": [("B", ("L", "L"), lambda a, b: _contains_all(a, b) and _contains_all(b, a))],
    "sets.intersects": [("B", ("L", "L"), lambda a, b: any(x == y for x in a for y in b))],
    "distinct": [("L", ("L",), _distinct)],
    "sort": [("L", ("L",), sorted)],
    "slice": [("L", ("L", "I", "I"), _slice)],
    "flatten": [("L", ("L",), lambda xs: [y for x in xs for y in (x if isinstance(x, list) else [x])])],
}

_GLOBALS: Final = frozenset({
    "quantity", "isQuantity", "sign", "url", "isURL", "isIP", "ip.isCanonical", "cidr", "isCIDR",
    "semver", "isSemver", "sets.contains", "sets.equivalent", "sets.intersects",
})


# -- what cel-expr-python cannot host -------------------------------------------------------------

_STRING_LITERAL_RE = re.compile(
    r"""[rRbB]{0,2}(?:'''(?:\\.|[^\\])*?'''|\"\"\"(?:\\.|[^\\])*?\"\"\"|'(?:\\.|[^'\\\n])*'|"(?:\\.|[^"\\\n])*")""",
    re.DOTALL,
)
_FORMAT_RE = re.compile(r"(?<![\w.])format\.\w+|\.validate\(")
_TWO_VARIABLE_RE = re.compile(
    r"\.(all|exists|existsOne|exists_one|transformList|transformMap|transformMapEntry)\(\s*\w+\s*,\s*\w+\s*,")
_LIST_INDEX_RE = re.compile(r"no matching overload for '(indexOf|lastIndexOf)' applied to '\(list")
_OLD_SELF_RE = re.compile(r"(?<![\w.])oldSelf\b")


def _code(expression: str) -> str:
    """The expression without its string literals (``'oldSelf'`` is no reference to oldSelf)."""
    return _STRING_LITERAL_RE.sub("''", expression)


def _unhostable(expression: str) -> str | None:
    """Why cel-expr-python cannot evaluate an expression as the apiserver does, or None."""
    code = _code(expression)
    if m := _FORMAT_RE.search(code):
        return "the format library (" + m.group(0).strip(".(") + ")"
    if m := _TWO_VARIABLE_RE.search(code):
        return f"two-variable comprehension {m.group(1)}()"
    return None


# -- binding values as the apiserver does ----------------------------------------------------------

_RESERVED: Final = frozenset({
    "true", "false", "null", "in", "as", "break", "const", "continue", "else", "for", "function",
    "if", "import", "let", "loop", "package", "namespace", "return", "var", "void", "while",
})


def escape_property(name: str) -> str:
    """A property name as rules spell it (k8s.io/apiserver/pkg/cel/escaping.go):
    ``my-field`` is ``my__dash__field``, ``namespace`` is ``__namespace__``."""
    if name in _RESERVED:
        return f"__{name}__"
    out = name.replace("__", "__underscores__")
    for c, word in ((".", "__dot__"), ("-", "__dash__"), ("/", "__slash__")):
        out = out.replace(c, word)
    return out


_DURATION_RE = re.compile(r"([0-9]*\.?[0-9]+)(ns|us|µs|μs|ms|h|m|s)")
_DURATION_UNITS = {"h": 3600.0, "m": 60.0, "s": 1.0, "ms": 1e-3, "us": 1e-6, "µs": 1e-6, "μs": 1e-6, "ns": 1e-9}


def _parse_duration(s: str) -> timedelta:
    """Go's time.ParseDuration (``1h30m``, ``-1.5s``); the schema's format check came first."""
    sign, body = (-1, s[1:]) if s.startswith("-") else (1, s.removeprefix("+"))
    if body == "0":
        return timedelta(0)
    parts = _DURATION_RE.findall(body)
    if not parts or "".join(n + u for n, u in parts) != body:
        raise ValueError(f"time: invalid duration {s!r}")
    return sign * timedelta(seconds=sum(float(n) * _DURATION_UNITS[u] for n, u in parts))


def _is_dyn(schema: Schema) -> bool:
    return (schema.get("x-kubernetes-int-or-string") is True or "type" not in schema
            or (schema.get("type") == "object" and schema.get("x-kubernetes-preserve-unknown-fields") is True
                and "properties" not in schema and "additionalProperties" not in schema))


_EMBEDDED: Final = frozenset({"apiVersion", "kind", "metadata"})


def to_cel(value: Any, schema: Schema) -> Any:
    """A JSON value as the apiserver binds it for the given structural schema: integers as int,
    numbers as float, ``date-time``/``duration``/``byte`` strings as timestamp/duration/bytes,
    object properties under their escaped names, map keys as they are."""
    if value is None or _is_dyn(schema):
        return value
    t, fmt = schema.get("type"), schema.get("format")
    if t == "integer":
        return int(value)
    if t == "number":
        return float(value)
    if t == "string" and fmt == "date-time":
        return datetime.fromisoformat(value.replace("Z", "+00:00").replace("z", "+00:00"))
    if t == "string" and fmt == "duration":
        return _parse_duration(value)
    if t == "string" and fmt == "byte":
        return base64.b64decode(value)
    if t == "array":
        return [to_cel(v, schema.get("items", {})) for v in value]
    if schema.get("x-kubernetes-embedded-resource") is True and isinstance(value, dict):
        # The apiserver declares apiVersion, kind and metadata (name, generateName only) on
        # every embedded resource, whatever its schema lists.
        out = to_cel({k: v for k, v in value.items() if k not in _EMBEDDED}, {**schema, "x-kubernetes-embedded-resource": False})
        out.update({k: value[k] for k in ("apiVersion", "kind") if isinstance(value.get(k), str)})
        if isinstance(value.get("metadata"), dict):
            out["metadata"] = {k: v for k, v in value["metadata"].items() if k in ("name", "generateName")}
        return out
    if t == "object" and "properties" in schema:
        props = schema["properties"]
        return {escape_property(k): to_cel(v, props[k]) for k, v in value.items() if k in props}
    if t == "object" and schema.get("x-kubernetes-embedded-resource") is False:
        return {}
    if t == "object" and isinstance(schema.get("additionalProperties"), dict):
        return {k: to_cel(v, schema["additionalProperties"]) for k, v in value.items()}
    return value


def _value_text(value: Any) -> str | None:
    """The value as field.Invalid prints it, or None where it omits it (objects and lists)."""
    if isinstance(value, (dict, list)):
        return None
    from kgen.runtime.apimachinery.validation import go_value  # at call time: no import cycle

    return go_value(value)


# -- the library boundary: everything untyped about cel-expr-python stays in this class -----------


class _Cel:
    """cel-expr-python, loaded once: the Kubernetes functions declared, environments cached by
    the variables' types."""

    def __init__(self) -> None:
        from cel_expr_python import cel  # type: ignore[import-untyped, import-not-found, unused-ignore]
        from cel_expr_python.ext import (  # type: ignore[import-untyped, import-not-found, unused-ignore]
            ext_bindings,
            ext_optional,
            ext_strings,
        )

        self._cel: Any = cel
        self._extensions: list[Any] = [ext_strings.ExtStrings(), ext_optional.ExtOptional(), ext_bindings.ExtBindings()]
        T = cel.Type
        self._shorthand: dict[str, Any] = {
            "S": T.STRING, "I": T.INT, "B": T.BOOL, "D": T.DOUBLE, "dyn": T.DYN,
            "L": T.List(T.DYN), "M": T.Map(T.STRING, T.DYN),
        }
        self._functions = [self._declare(name, sigs) for name, sigs in _LIBRARY.items()]
        self._envs: dict[str, Any] = {}

    def _declare(self, name: str, sigs: list[_Sig]) -> Any:
        cel, short = self._cel, self._shorthand
        overloads = [
            cel.Overload(f"kgen_{name}_{n}", short[ret], [short[p] for p in params],
                         is_member=name not in _GLOBALS and not (name == "ip" and params == ("S",)),
                         impl=_wrap(fn))
            for n, (ret, params, fn) in enumerate(sigs)
        ]
        return cel.FunctionDecl(name, overloads)

    def type_of(self, schema: Schema) -> Any:
        """The CEL type the apiserver gives a schema node (objects with properties are
        ``map(string, dyn)`` here: cel-cpp has no struct types without protobuf descriptors)."""
        T = self._cel.Type
        if _is_dyn(schema):
            return T.DYN
        t, fmt = schema.get("type"), schema.get("format")
        if t == "string":
            return {"date-time": T.TIMESTAMP, "duration": T.DURATION, "byte": T.BYTES}.get(fmt or "", T.STRING)
        if t == "integer":
            return T.INT
        if t == "number":
            return T.DOUBLE
        if t == "boolean":
            return T.BOOL
        if t == "array":
            return T.List(self.type_of(schema.get("items", {})))
        if t == "object" and isinstance(schema.get("additionalProperties"), dict) and "properties" not in schema:
            return T.Map(T.STRING, self.type_of(schema["additionalProperties"]))
        return T.Map(T.STRING, T.DYN)

    def compile(self, expression: str, variables: dict[str, Any]) -> tuple[Any, str]:
        """(program, its return type's name); ValueError with cel-cpp's text if it does not compile."""
        key = repr(sorted((k, str(v)) for k, v in variables.items()))
        env = self._envs.get(key)
        try:
            if env is None:
                env = self._envs[key] = self._cel.NewEnv(
                    variables=variables, extensions=self._extensions, functions=self._functions)
            program = env.compile(expression)
        except Exception as e:  # cel-cpp raises plain exceptions carrying a status text
            raise ValueError(str(e)) from None
        return program, str(program.return_type())

    def evaluate(self, program: Any, data: dict[str, Any]) -> Any:
        """The expression's value; CelError with cel-go's wording if it fails."""
        try:
            result = program.eval(data=data)
        except Exception as e:  # a value cel-expr-python cannot bind: say so as the rule's error
            raise CelError(f"kgen cannot bind the value: {e}") from None
        if result.type() == self._cel.Type.ERROR:
            raise CelError(_go_error(str(result.value())))
        return result.plain_value()


def _plain(v: Any) -> Any:
    return v.plain_value() if hasattr(v, "plain_value") else v


def _wrap(fn: Callable[..., Any]) -> Callable[..., Any]:
    def call(*args: Any) -> Any:
        return fn(*(_plain(a) for a in args))

    return call


#: cel-cpp's runtime error texts -> cel-go's (what the apiserver prints), measured in the probe.
_GO_ERRORS: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"^divide by zero$"), "division by zero"),
    (re.compile(r"^modulus by zero$"), "modulus by zero"),
    (re.compile(r"^int64 out of uint64 range$"), "unsigned integer overflow"),
    (re.compile(r"^(double|uint64) out of int64 range$"), "integer overflow"),
    (re.compile(r"^double out of uint64 range$"), "unsigned integer overflow"),
    (re.compile(r"^Index error: index=(-?\d+) size=\d+$"), r"index out of bounds: \1"),
    (re.compile(r'^Key not found in map : "(.*)"$'), r"no such key: \1"),
    (re.compile(r"^String to (Duration|Timestamp) conversion failed$"),
     r"type conversion error from 'string' to 'google.protobuf.\1'"),
]
_STATUS_PREFIX_RE = re.compile(r"^[A-Z_]+: ")


def _go_error(text: str) -> str:
    text = _STATUS_PREFIX_RE.sub("", text, count=1)
    for pattern, go in _GO_ERRORS:
        if pattern.match(text):
            return pattern.sub(go, text)
    return text


@functools.cache
def _library() -> _Cel | str:
    """The loaded library, or why it cannot be loaded."""
    if sys.version_info < (3, 11):
        return INSTALL_HINT
    try:
        return _Cel()
    except ImportError:
        return INSTALL_HINT
    except Exception as e:  # a broken install (ABI, shared libraries): still never raise
        return f"the CEL library failed to load ({type(e).__name__}: {e})"


# -- compiled rules ------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Rule:
    rule: str
    program: Any
    message: str | None
    message_program: Any  # None: no messageExpression, or one that does not compile
    reason: str | None
    field_path: str
    transition: bool
    optional_old_self: bool


@dataclass(frozen=True)
class CompiledRules:
    """The rules of one schema node, ready to evaluate. ``not_checked`` says which rules this
    module cannot evaluate (``<rule>: not checked: <why>``); ``evaluate`` skips them."""

    schema_type: str
    rules: tuple[_Rule, ...] = ()
    not_checked: list[str] = field(default_factory=list)
    schema: Schema = field(default_factory=dict, repr=False)

    def evaluate(self, self_value: Any, *, old_self: Any = MISSING, path: str) -> list[Violation]:
        """The causes the apiserver would report for these rules on ``self_value`` (the node's
        JSON value, after the structural checks passed) at ``path``; ``old_self`` is the node's
        value in the object being updated, where there is one."""
        if not self.rules:
            return []
        cel = _library()
        assert isinstance(cel, _Cel)  # rules compiled, so the library is there
        data: dict[str, Any] = {"self": to_cel(self_value, self.schema)}
        has_old = old_self is not MISSING
        old = to_cel(old_self, self.schema) if has_old else None
        violations = []
        for r in self.rules:
            if r.transition and r.optional_old_self:
                run = dict(data, __old=old if has_old else data["self"], __hasOld=has_old)
            elif r.transition:
                if not has_old:
                    continue  # the apiserver runs a transition rule only against an old value
                run = dict(data, oldSelf=old)
            else:
                run = data
            where = (path + r.field_path) if path else r.field_path.removeprefix(".")
            try:
                ok = cel.evaluate(r.program, run)
            except CelError as e:
                # the rule's message names it when it has one (the apiserver's ruleErrorString)
                named = (r.message or "").strip() or r.rule.strip()
                violations.append(Violation("FieldValueInvalid", where,
                                            f'Invalid value: "{self.schema_type}": {e} evaluating rule: {named}'))
                continue
            if ok is True:
                continue
            if ok is not False:
                violations.append(Violation("FieldValueInvalid", where,
                                            f'Invalid value: "{self.schema_type}": rule did not evaluate to a bool: {r.rule}'))
                continue
            violations.append(_failure(r, self._message(cel, r, run), self_value, where))
        return violations

    def _message(self, cel: _Cel, r: _Rule, data: dict[str, Any]) -> str:
        """messageExpression's text; ``message`` or ``failed rule: <rule>`` when it has none,
        evaluates to blank, or fails (the apiserver logs that and falls back)."""
        if r.message_program is not None:
            try:
                text = cel.evaluate(r.message_program, data)
            except CelError:
                text = None
            if isinstance(text, str) and text.strip() and "\n" not in text and len(text) <= 5000:
                return text
        return r.message or f"failed rule: {r.rule}"


def _failure(r: _Rule, message: str, value: Any, where: str) -> Violation:
    """A failed rule as apiextensions' fieldErrorForReason files it."""
    shown = _value_text(value)
    if r.reason == "FieldValueForbidden":
        return Violation(r.reason, where, f"Forbidden: {message}")
    if r.reason == "FieldValueRequired":
        return Violation(r.reason, where, f"Required value: {message}")
    if r.reason == "FieldValueDuplicate":
        return Violation(r.reason, where, "Duplicate value" + (f": {shown}" if shown is not None else ""))
    return Violation("FieldValueInvalid", where, f"Invalid value: {shown}: {message}" if shown is not None
                     else f"Invalid value: {message}")


def _field_path(field_path: str, schema: Schema) -> str:
    """A rule's ``fieldPath`` (``.spec.x``, ``['a.b']``) as the path suffix the apiserver reports:
    ``.name`` for an object's property, ``[key]`` for a map's key."""
    out = ""
    node = schema
    for dotted, quoted in re.findall(r"\.([^.\[]+)|\[\s*'((?:\\.|[^'])*)'\s*\]", field_path):
        name = dotted or quoted
        props = node.get("properties", {})
        if name in props:
            out, node = f"{out}.{name}", props[name]
        else:
            out, node = f"{out}[{name}]", node.get("additionalProperties") or {}
    return out


def _schema_type(schema: Schema) -> str:
    t = schema.get("type", "")
    return t if isinstance(t, str) else ""


def compile_rules(rules: list[dict[str, Any]], schema: Schema) -> CompiledRules:
    """Compile a node's ``x-kubernetes-validations`` for ``schema``, the node they sit on (its
    type types ``self`` and ``oldSelf``). Never raises: a rule that cannot be evaluated here
    (no CEL library, a function cel-expr-python cannot host, a rule that does not compile) is in
    ``not_checked``. Cached by the rules' and the schema's JSON (compiling is about 1 ms a rule)."""
    return _compile_cached(json.dumps(rules, sort_keys=True), json.dumps(schema, sort_keys=True))


@functools.lru_cache(maxsize=1024)
def _compile_cached(rules_json: str, schema_json: str) -> CompiledRules:
    rules: list[dict[str, Any]] = json.loads(rules_json)
    schema: Schema = json.loads(schema_json)
    cel = _library()
    if isinstance(cel, str):
        return CompiledRules(_schema_type(schema), (), [f"{r.get('rule', '')}: not checked: {cel}" for r in rules], schema)
    compiled: list[_Rule] = []
    not_checked: list[str] = []
    self_type = cel.type_of(schema)
    for spec in rules:
        rule = str(spec.get("rule", ""))
        message_expression = spec.get("messageExpression") or None
        why = _unhostable(rule) or (_unhostable(message_expression) if message_expression else None)
        if why is not None:
            not_checked.append(f"{rule}: not checked: {why}")
            continue
        transition = bool(_OLD_SELF_RE.search(_code(rule)))
        optional_old_self = transition and spec.get("optionalOldSelf") is True
        variables: dict[str, Any] = {"self": self_type}
        if optional_old_self:
            # An optional-typed variable cannot be bound from Python: bind the old value and
            # whether there is one, and let cel.bind (ext.Bindings) make oldSelf the optional.
            variables.update(__old=self_type, __hasOld=cel.type_of({"type": "boolean"}))
        elif transition:
            variables["oldSelf"] = self_type
        try:
            program, returns = cel.compile(_with_old_self(rule, optional_old_self), variables)
        except ValueError as e:
            text = str(e)
            m = _LIST_INDEX_RE.search(text)
            not_checked.append(f"{rule}: not checked: " + (f"list {m.group(1)}" if m else
                               "does not compile: " + _STATUS_PREFIX_RE.sub("", text.splitlines()[0])))
            continue
        if returns not in ("BOOL", "DYN", "bool", "dyn"):
            not_checked.append(f"{rule}: not checked: does not compile: cel expression must evaluate to a bool")
            continue
        message_program = None
        if message_expression:
            try:
                message_program, _ = cel.compile(_with_old_self(message_expression, optional_old_self), variables)
            except ValueError:
                message_program = None  # the apiserver refuses the CRD; fall back to the message
        compiled.append(_Rule(
            rule=rule, program=program, message=spec.get("message") or None, message_program=message_program,
            reason=spec.get("reason") or None, field_path=_field_path(str(spec.get("fieldPath") or ""), schema),
            transition=transition, optional_old_self=optional_old_self,
        ))
    return CompiledRules(_schema_type(schema), tuple(compiled), not_checked, schema)


def _with_old_self(expression: str, optional_old_self: bool) -> str:
    if not optional_old_self:
        return expression
    return f"cel.bind(oldSelf, __hasOld ? optional.of(__old) : optional.none(), {expression})"


def check_rules(value: Any, schema: Schema, path: str, *, old_self: Any = MISSING) -> list[Violation]:
    """The walker's hook: the violations of ``schema``'s ``x-kubernetes-validations`` on
    ``value`` at ``path`` (compiled once per rules and schema)."""
    rules = schema.get("x-kubernetes-validations")
    if not isinstance(rules, list) or not rules:
        return []
    return _compiled_for(rules, schema).evaluate(value, old_self=old_self, path=path)


#: compile_rules by the identity of the rules list and the schema node, which a walker meets again
#: at every object: serialising a large node to JSON for the content-keyed cache costs more than
#: evaluating most rules. The entries hold both objects, so their ids cannot be reused meanwhile.
_BY_IDENTITY: dict[tuple[int, int], tuple[list[dict[str, Any]], Schema, CompiledRules]] = {}


def _compiled_for(rules: list[dict[str, Any]], schema: Schema) -> CompiledRules:
    entry = _BY_IDENTITY.get((id(rules), id(schema)))
    if entry is not None and entry[0] is rules and entry[1] is schema:
        return entry[2]
    compiled = compile_rules(rules, schema)
    if len(_BY_IDENTITY) >= 1024:
        _BY_IDENTITY.clear()
    _BY_IDENTITY[(id(rules), id(schema))] = (rules, schema, compiled)
    return compiled


__all__ = ["MISSING", "CompiledRules", "Violation", "check_rules", "compile_rules", "escape_property", "to_cel"]
