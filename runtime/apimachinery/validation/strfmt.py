"""kube-openapi's string formats (k8s.io/kube-openapi/pkg/validation/strfmt), with Go's semantics.

What the apiserver accepts for a CRD field's ``format`` (``date-time``, ``uuid``, ``ipv4``,
``cidr``, ``hostname``, ``duration``...): Go's parsers (net.ParseIP, time.ParseDuration, the
strfmt regular expressions), not the RFCs, as docs/design/validation.md measured against the
apiserver. ``FORMATS`` maps a format name to its check; a format it does not name is not checked,
as the apiserver does not.
"""

from __future__ import annotations

import base64
import ipaddress
import re
from collections.abc import Callable

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
DNS_LABEL = re.compile(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$")
"""An RFC 1123 DNS label: lower-case alphanumerics and '-', starting and ending alphanumeric."""
DNS_SUBDOMAIN = re.compile(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$")
"""An RFC 1123 DNS subdomain: DNS labels joined by dots."""
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
    "k8s-short-name": lambda s: len(s) <= 63 and bool(DNS_LABEL.match(s)),
    "k8s-long-name": lambda s: len(s) <= 253 and bool(DNS_SUBDOMAIN.match(s)),
}
"""format -> check, for the formats the apiextensions-apiserver validates; any other format
is a plain string."""
