"""The Kubernetes CEL library in plain Python, and values bound as the apiserver binds them.

k8s.io/apiserver/pkg/cel/library (v0.37: quantity, URL, IP/CIDR, semver, lists) and cel-go's
ext.Sets / ext.Lists, for ``kgen.runtime.apimachinery.validation.cel.validation`` to declare to cel-expr-python with
concrete parameter types (see that module's docstring for why); Kubernetes' opaque values travel
as tagged maps ``{"__k8s__": kind, "v": canonical}``. ``to_cel`` binds a decoded JSON value as
the apiserver types it from its schema node (durations and timestamps of ``format`` fields,
embedded resources' fields, escaped property names). No CEL library is imported here.
"""

from __future__ import annotations

import base64
import ipaddress
import re
from collections.abc import Callable
from datetime import datetime, timedelta
from decimal import Decimal, InvalidOperation
from typing import Any, Final
from urllib.parse import parse_qs, quote, unquote, urlsplit

Schema = dict[str, Any]
"""A JSON schema node (OpenAPI v3, as a dict)."""

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
"""An IP address of either family."""


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


Sig = tuple[str, tuple[str, ...], Callable[..., Any]]
"""One overload of a library function: (return type, parameter types with the receiver first,
implementation). Type shorthands, resolved against cel.Type at the first compile: S string, I int, L
list(dyn), M map(string, dyn) (an opaque Kubernetes value), B bool, D double."""

LIBRARY: dict[str, list[Sig]] = {
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
"""name -> overloads (return type, parameter types with the receiver first, implementation).
Member functions are called ``x.f(a)``; the names in GLOBALS are called ``f(x, a)``.
(Quantity's ``sign`` is global in k8s.io/apiserver, though its doc writes ``q.sign()``.)"""

GLOBALS: Final = frozenset({
    "quantity", "isQuantity", "sign", "url", "isURL", "isIP", "ip.isCanonical", "cidr", "isCIDR",
    "semver", "isSemver", "sets.contains", "sets.equivalent", "sets.intersects",
})
"""The library functions called as globals, ``f(x, a)``, rather than as members, ``x.f(a)``."""


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


def is_dyn(schema: Schema) -> bool:
    """Whether values at ``schema`` are CEL's dyn: int-or-string, typeless, or an object that keeps
    unknown fields with no properties of its own."""
    return (schema.get("x-kubernetes-int-or-string") is True or "type" not in schema
            or (schema.get("type") == "object" and schema.get("x-kubernetes-preserve-unknown-fields") is True
                and "properties" not in schema and "additionalProperties" not in schema))


_EMBEDDED: Final = frozenset({"apiVersion", "kind", "metadata"})


def to_cel(value: Any, schema: Schema) -> Any:
    """A JSON value as the apiserver binds it for the given structural schema: integers as int,
    numbers as float, ``date-time``/``duration``/``byte`` strings as timestamp/duration/bytes,
    object properties under their escaped names, map keys as they are."""
    if value is None or is_dyn(schema):
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


def value_text(value: Any) -> str | None:
    """The value as field.Invalid prints it, or None where it omits it (objects and lists)."""
    if isinstance(value, (dict, list)):
        return None
    from kgen.runtime.apimachinery.golang.gofmt import go_value

    return go_value(value)


