"""The Kubernetes CEL library (and the cel-go extensions the apiserver enables) in plain Python,
for the CEL libraries that lack them: what kgen would have to supply.

Every function takes and returns plain Python values (str, int, float, list, dict, bool) plus
two markers the adapters translate into their library's own values: ``Opt`` (a CEL optional) and
Kubernetes' opaque types (Quantity, URL, IP, CIDR, Semver, Format) as tagged dicts
``{"__k8s__": kind, "v": canonical}``, so that CEL's ``==`` on two of them compares by value as
the apiserver does (``quantity('1') == quantity('1000m')``). Errors are raised as ``CelError``
with the apiserver's wording where the probe saw it.

The semantics follow k8s.io/apiserver/pkg/cel/library (v0.37) and cel-go's ext package; the probe
checks them against the real apiserver, case by case.
"""

from __future__ import annotations

import ipaddress
import re
from decimal import Decimal, InvalidOperation
from typing import Any, Callable
from urllib.parse import parse_qs, quote, unquote, urlsplit


class CelError(Exception):
    pass


class Opt:
    """A CEL optional: ``Opt(value)`` or ``Opt.NONE``."""

    NONE: "Opt"

    def __init__(self, value: Any = None, present: bool = True) -> None:
        self.value, self.present = value, present


Opt.NONE = Opt(None, False)


def tagged(kind: str, canonical: str) -> dict[str, str]:
    return {"__k8s__": kind, "v": canonical}


def _kind(v: Any) -> str | None:
    return v.get("__k8s__") if isinstance(v, dict) else None


# -- quantity ---------------------------------------------------------------------------------

_QUANTITY = re.compile(r"^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$")
_BINARY = {"Ki": 2**10, "Mi": 2**20, "Gi": 2**30, "Ti": 2**40, "Pi": 2**50, "Ei": 2**60}
_DECIMAL = {"n": -9, "u": -6, "m": -3, "": 0, "k": 3, "M": 6, "G": 9, "T": 12, "P": 15, "E": 18}


def _parse_quantity(s: str) -> Decimal:
    m = _QUANTITY.match(s)
    if not m or m.group(1).count(".") > 1 or m.group(1).strip("+-") in ("", "."):
        raise CelError("quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'")
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


def _q(d: Decimal) -> dict[str, str]:
    return tagged("Quantity", str(d.normalize()) if d else "0")


def _qv(v: Any) -> Decimal:
    if _kind(v) == "Quantity":
        return Decimal(v["v"])
    if isinstance(v, int) and not isinstance(v, bool):
        return Decimal(v)
    raise CelError("no such overload")


def quantity(s: str) -> dict[str, str]:
    return _q(_parse_quantity(s))


def is_quantity(s: str) -> bool:
    try:
        _parse_quantity(s)
        return True
    except CelError:
        return False


def _cmp(a: Any, b: Any) -> int:
    return int(a > b) - int(a < b)


def as_integer(q: Any) -> int:
    d = _qv(q)
    if d != d.to_integral_value() or not -(2**63) <= d < 2**63:
        raise CelError("cannot convert value to integer")
    return int(d)


# -- semver -------------------------------------------------------------------------------------

_SEMVER = re.compile(
    r"^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)"
    r"(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?"
    r"(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$"
)


def semver(s: str) -> dict[str, str]:
    if not _SEMVER.match(s):
        raise CelError(f"could not parse {s!r} as semver")
    return tagged("Semver", s)


def _semver_key(v: dict[str, str]) -> tuple[Any, ...]:
    m = _SEMVER.match(v["v"])
    assert m
    pre = m.group(4)
    pre_key: tuple[Any, ...] = (1,) if pre is None else (0, *((0, int(p), "") if p.isdigit() else (1, 0, p) for p in pre.split(".")))
    return (int(m.group(1)), int(m.group(2)), int(m.group(3)), pre_key)


def _semver_part(v: dict[str, str], i: int) -> int:
    m = _SEMVER.match(v["v"])
    assert m
    return int(m.group(i))


# -- url ----------------------------------------------------------------------------------------

_SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")


def _check_url(s: str) -> None:
    # Go's url.ParseRequestURI: an absolute URI or an absolute path.
    if not (s.startswith("/") or _SCHEME.match(s)):
        raise CelError(f"URL must be an absolute URL or an absolute path: {s!r}")
    try:
        urlsplit(s)
    except ValueError as e:
        raise CelError(str(e)) from e


def url(s: str) -> dict[str, str]:
    _check_url(s)
    return tagged("URL", s)


def is_url(s: str) -> bool:
    try:
        _check_url(s)
        return True
    except CelError:
        return False


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


# -- ip and cidr --------------------------------------------------------------------------------


def _addr(s: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address:
    if "%" in s:
        raise CelError("IP address with zone value is not allowed")
    try:
        a = ipaddress.ip_address(s)
    except ValueError as e:
        raise CelError(f"IP Address {s!r} parse error during conversion from string: {e}") from e
    if isinstance(a, ipaddress.IPv6Address) and a.ipv4_mapped is not None:
        raise CelError("IPv4-mapped IPv6 address is not allowed")
    return a


def ip(v: Any) -> dict[str, str]:
    if _kind(v) == "CIDR":
        return tagged("IP", v["v"].partition("/")[0])
    return tagged("IP", str(_addr(v)))


def is_ip(s: str) -> bool:
    try:
        _addr(s)
        return True
    except CelError:
        return False


def _iface(s: str) -> ipaddress.IPv4Interface | ipaddress.IPv6Interface:
    address, slash, bits = s.partition("/")
    if not slash or not bits.isdigit():
        raise CelError(f"network address parse error during conversion from string: {s!r}")
    a = _addr(address)
    try:
        return ipaddress.ip_interface(f"{a}/{int(bits)}")
    except ValueError as e:
        raise CelError(str(e)) from e


def cidr(s: str) -> dict[str, str]:
    i = _iface(s)
    return tagged("CIDR", f"{i.ip}/{i.network.prefixlen}")


def is_cidr(s: str) -> bool:
    try:
        _iface(s)
        return True
    except CelError:
        return False


def _ip_of(v: Any) -> Any:
    return ipaddress.ip_address(v["v"]) if _kind(v) == "IP" else _addr(v)


def _net_of(v: Any) -> Any:
    return _iface(v["v"] if _kind(v) == "CIDR" else v).network


def _global_unicast(a: Any) -> bool:
    # Go's netip.Addr.IsGlobalUnicast: not unspecified, loopback, multicast, link-local, broadcast.
    if a.is_unspecified or a.is_loopback or a.is_multicast or a.is_link_local:
        return False
    return not (a.version == 4 and a == ipaddress.IPv4Address("255.255.255.255"))


def _link_local_multicast(a: Any) -> bool:
    if a.version == 4:
        return a in ipaddress.ip_network("224.0.0.0/24")
    return a in ipaddress.ip_network("ff02::/16")


# -- format -------------------------------------------------------------------------------------

_LABEL = "[a-z0-9]([-a-z0-9]*[a-z0-9])?"
_SUBDOMAIN = _LABEL + r"(\." + _LABEL + ")*"
_LABEL_MSG = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"
_NAME = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]"


def _dns1123_label(s: str) -> list[str]:
    errs = [] if len(s) <= 63 else ["must be no more than 63 characters"]
    return errs + ([] if re.fullmatch(_LABEL, s) else [_LABEL_MSG])


def _dns1123_subdomain(s: str) -> list[str]:
    errs = [] if len(s) <= 253 else ["must be no more than 253 characters"]
    return errs + ([] if re.fullmatch(_SUBDOMAIN, s) else ["a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character"])


def _dns1035_label(s: str) -> list[str]:
    errs = [] if len(s) <= 63 else ["must be no more than 63 characters"]
    return errs + ([] if re.fullmatch("[a-z]([-a-z0-9]*[a-z0-9])?", s) else ["a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character"])


def _qualified_name(s: str) -> list[str]:
    parts = s.split("/")
    if len(parts) > 2:
        return ["a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"]
    errs = []
    if len(parts) == 2:
        if not parts[0]:
            errs.append("prefix part must be non-empty")
        else:
            errs += ["prefix part " + e for e in _dns1123_subdomain(parts[0])]
    name = parts[-1]
    if not name:
        errs.append("name part must be non-empty")
    elif len(name) > 63:
        errs.append("name part must be no more than 63 characters")
    if name and not re.fullmatch(_NAME, name):
        errs.append("name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character")
    return errs


def _label_value(s: str) -> list[str]:
    errs = [] if len(s) <= 63 else ["must be no more than 63 characters"]
    return errs + ([] if s == "" or re.fullmatch(_NAME, s) else ["a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"])


def _uuid(s: str) -> list[str]:
    ok = re.fullmatch(r"(?i)[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}", s)
    return [] if ok else ["does not match the UUID format"]


FORMATS: dict[str, Callable[[str], list[str]]] = {
    "dns1123Label": _dns1123_label,
    "dns1123Subdomain": _dns1123_subdomain,
    "dns1035Label": _dns1035_label,
    "qualifiedName": _qualified_name,
    "labelValue": _label_value,
    "uuid": _uuid,
}


def _validate(fmt: Any, s: str) -> Opt:
    errs = FORMATS[fmt["v"]](s)
    return Opt(errs) if errs else Opt.NONE


# -- lists (Kubernetes' and cel-go ext.Lists / ext.Sets) -----------------------------------------


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


def _index_of(x: Any, sub: Any, offset: int = 0) -> int:
    if isinstance(x, str):
        if not 0 <= offset <= len(x):
            raise CelError(f"index out of range: {offset}")
        return x.find(sub, offset)
    return next((i for i, v in enumerate(x) if v == sub and type(v) is type(sub)), -1)


def _last_index_of(x: Any, sub: Any, offset: int | None = None) -> int:
    if isinstance(x, str):
        if offset is None:
            return x.rfind(sub)
        if not 0 <= offset <= len(x):
            raise CelError(f"index out of range: {offset}")
        return x.rfind(sub, 0, offset + len(sub))
    return next((i for i in range(len(x) - 1, -1, -1) if x[i] == sub), -1)


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


# -- strings (cel-go ext.Strings v2) ------------------------------------------------------------


def _char_at(s: str, i: int) -> str:
    if not 0 <= i <= len(s):
        raise CelError(f"index out of range: {i}")
    return s[i : i + 1]


def _substring(s: str, start: int, end: int | None = None) -> str:
    end = len(s) if end is None else end
    if not 0 <= start <= len(s):
        raise CelError(f"index out of range: {start}")
    if not start <= end <= len(s):
        raise CelError(f"index out of range: {end}")
    return s[start:end]


def _replace(s: str, old: str, new: str, n: int = -1) -> str:
    return s.replace(old, new, n)


def _split(s: str, sep: str, n: int = -1) -> list[str]:
    if n == 0:
        return []
    if sep == "":
        chars = list(s)
        return chars if n < 0 or n >= len(chars) else chars[: n - 1] + ["".join(chars[n - 1 :])]
    return s.split(sep, n - 1 if n > 0 else -1)


def _lower_ascii(s: str) -> str:
    return "".join(c.lower() if c.isascii() else c for c in s)


def _upper_ascii(s: str) -> str:
    return "".join(c.upper() if c.isascii() else c for c in s)


def _trim(s: str) -> str:
    return s.strip()


def _join(xs: list[str], sep: str = "") -> str:
    return sep.join(xs)


def _quote(s: str) -> str:
    escapes = {"\a": "\\a", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\v": "\\v", "\\": "\\\\", '"': '\\"'}
    return '"' + "".join(escapes.get(c, c) for c in s) + '"'


def _format(template: str, args: list[Any]) -> str:
    it = iter(args)

    def one(m: re.Match[str]) -> str:
        verb = m.group(1)
        if verb == "%":
            return "%"
        v = next(it)
        if verb == "s":
            return str(v).lower() if isinstance(v, bool) else str(v)
        if verb == "d":
            return str(int(v))
        if verb == "f":
            return f"{v:f}"
        raise CelError(f"unsupported format verb %{verb}")

    return re.sub(r"%(?:\.\d+)?([sdfxXobe%])", one, template)


def _member(kind_methods: dict[str, Callable[..., Any]]) -> Callable[..., Any]:
    """A member function shared by several receiver kinds (``compareTo`` on Quantity and Semver)."""

    def call(receiver: Any, *args: Any) -> Any:
        k = _kind(receiver) or type(receiver).__name__
        if k not in kind_methods:
            raise CelError(f"no such overload: {k}")
        return kind_methods[k](receiver, *args)

    return call


def _semver_cmp(a: Any, b: Any) -> int:
    return _cmp(_semver_key(a), _semver_key(b))


def _arg(a: Any) -> Any:
    return a


#: name -> implementation; member functions take the receiver first (CEL's ``x.f(a)`` is ``f(x, a)``).
KUBERNETES: dict[str, Callable[..., Any]] = {
    # quantity
    "quantity": quantity,
    "isQuantity": is_quantity,
    "asInteger": as_integer,
    "isInteger": lambda q: _qv(q) == _qv(q).to_integral_value() and -(2**63) <= _qv(q) < 2**63,
    "asApproximateFloat": lambda q: float(_qv(q)),
    "sign": lambda q: _cmp(_qv(q), 0),
    "add": lambda q, o: _q(_qv(q) + _qv(o)),
    "sub": lambda q, o: _q(_qv(q) - _qv(o)),
    "compareTo": _member({"Quantity": lambda a, b: _cmp(_qv(a), _qv(b)), "Semver": _semver_cmp}),
    "isLessThan": _member({"Quantity": lambda a, b: _qv(a) < _qv(b), "Semver": lambda a, b: _semver_cmp(a, b) < 0}),
    "isGreaterThan": _member({"Quantity": lambda a, b: _qv(a) > _qv(b), "Semver": lambda a, b: _semver_cmp(a, b) > 0}),
    # url
    "url": url,
    "isURL": is_url,
    "getScheme": lambda u: urlsplit(u["v"]).scheme,
    "getHost": _host,
    "getHostname": _hostname,
    "getPort": _port,
    "getEscapedPath": _escaped_path,
    "getQuery": lambda u: parse_qs(urlsplit(u["v"]).query, keep_blank_values=True),
    # ip and cidr
    "ip": ip,
    "isIP": is_ip,
    "ip.isCanonical": lambda s: str(_addr(s)) == s,
    "family": lambda a: ipaddress.ip_address(a["v"]).version,
    "isUnspecified": lambda a: ipaddress.ip_address(a["v"]).is_unspecified,
    "isLoopback": lambda a: ipaddress.ip_address(a["v"]).is_loopback,
    "isLinkLocalMulticast": lambda a: _link_local_multicast(ipaddress.ip_address(a["v"])),
    "isLinkLocalUnicast": lambda a: ipaddress.ip_address(a["v"]).is_link_local,
    "isGlobalUnicast": lambda a: _global_unicast(ipaddress.ip_address(a["v"])),
    "cidr": cidr,
    "isCIDR": is_cidr,
    "containsIP": lambda c, a: _ip_of(a) in _net_of(c),
    "containsCIDR": lambda c, o: _net_of(o).subnet_of(_net_of(c)) if _net_of(o).version == _net_of(c).version else False,
    "prefixLength": lambda c: _net_of(c).prefixlen,
    "masked": lambda c: tagged("CIDR", str(_net_of(c))),
    # format
    **{f"format.{name}": (lambda name=name: tagged("Format", name)) for name in FORMATS},
    "format.named": lambda name: Opt(tagged("Format", name)) if name in FORMATS else Opt.NONE,
    "validate": _validate,
    # semver
    "semver": semver,
    "isSemver": lambda s: bool(_SEMVER.match(s)),
    "major": lambda v: _semver_part(v, 1),
    "minor": lambda v: _semver_part(v, 2),
    "patch": lambda v: _semver_part(v, 3),
    # lists
    "isSorted": lambda xs: all(xs[i] <= xs[i + 1] for i in range(len(xs) - 1)),
    "sum": _sum,
    "min": _min,
    "max": _max,
    "indexOf": _index_of,
    "lastIndexOf": _last_index_of,
}

#: cel-go extension libraries the apiserver enables (ext.Strings v2, ext.Sets, ext.Lists v3).
EXTENSIONS: dict[str, Callable[..., Any]] = {
    "charAt": _char_at,
    "indexOf": _index_of,
    "lastIndexOf": _last_index_of,
    "lowerAscii": _lower_ascii,
    "upperAscii": _upper_ascii,
    "replace": _replace,
    "split": _split,
    "substring": _substring,
    "trim": _trim,
    "join": _join,
    "strings.quote": _quote,
    "format": _format,
    "sets.contains": lambda a, b: all(any(x == y for y in a) for x in b),
    "sets.equivalent": lambda a, b: all(any(x == y for y in a) for x in b) and all(any(x == y for y in b) for x in a),
    "sets.intersects": lambda a, b: any(x == y for x in a for y in b),
    "distinct": _distinct,
    "sort": lambda xs: sorted(xs),
    "slice": _slice,
    "flatten": lambda xs: [y for x in xs for y in (x if isinstance(x, list) else [x])],
}

_RESERVED = {
    "true", "false", "null", "in", "as", "break", "const", "continue", "else", "for", "function",
    "if", "import", "let", "loop", "package", "namespace", "return", "var", "void", "while",
}


def escape_property(name: str) -> str:
    """A property name as CEL rules spell it (apiserver/pkg/cel/escaping.go)."""
    if name in _RESERVED:
        return f"__{name}__"
    out = name.replace("__", "__underscores__")
    for c, word in ((".", "__dot__"), ("-", "__dash__"), ("/", "__slash__")):
        out = out.replace(c, word)
    return out
