"""apimachinery's checks of one string or number (``pkg/util/validation`` and ``pkg/api/validate/content``).

Each ``is_*`` returns the messages Go's function of the same name returns (an empty list: valid),
word for word, so a validator wraps each in ``field.invalid(path, value, msg)`` as Go code does.
Names: DNS-1123 labels and subdomains (wildcards too), DNS-1035 labels, qualified names (label
keys) and label values, ConfigMap keys, ports and port names, IPs and CIDRs ("legacy" fields,
which accept leading zeros and IPv4-mapped IPv6, as Go's net.ParseIP does), path segments.

Two message families: ``pkg/util/validation`` says a name "must be no more than 63 characters",
``content`` (label keys and values, since 1.34) "must be no more than 63 bytes"; each function
uses its Go counterpart's. The name, label key and label value checks (and ``regex_error``) are
``kgen.runtime.apimachinery.labels``'s, re-exported here: one implementation, in the layer the
label selector parser can import too. Lengths are Go's ``len``: UTF-8 bytes.
"""

from __future__ import annotations

import ipaddress
import re

from kgen.runtime.apimachinery.labels import (
    DNS1123_SUBDOMAIN_FMT as _DNS1123_SUBDOMAIN_FMT, is_dns1035_label, is_dns1123_label, is_dns1123_subdomain,
    is_label_value, is_qualified_name, regex_error, size,
)

__all__ = [
    "is_config_map_key", "is_dns1035_label", "is_dns1123_label", "is_dns1123_subdomain", "is_label_value",
    "is_path_segment_name", "is_qualified_name", "is_valid_cidr_legacy", "is_valid_ip_legacy", "is_valid_port_name",
    "is_valid_port_num", "is_wildcard_dns1123_subdomain", "parse_ip_sloppy", "regex_error",
]

_WILDCARD_FMT = "\\*\\." + _DNS1123_SUBDOMAIN_FMT
_CONFIG_MAP_KEY_FMT = "[-._a-zA-Z0-9]+"

_WILDCARD = re.compile(f"^{_WILDCARD_FMT}$")
_CONFIG_MAP_KEY = re.compile(f"^{_CONFIG_MAP_KEY_FMT}$")
_PORT_NAME_CHARSET = re.compile("^[-a-z0-9]+$")


def _max_len(n: int, unit: str = "characters") -> str:
    return f"must be no more than {n} {unit}"


def is_wildcard_dns1123_subdomain(value: str) -> list[str]:
    """IsWildcardDNS1123Subdomain: ``*.`` and a DNS-1123 subdomain (Ingress hosts)."""
    errs = [_max_len(253)] if size(value) > 253 else []
    if not _WILDCARD.fullmatch(value):
        errs.append(regex_error(
            "a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist "
            "of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character", _WILDCARD_FMT,
            "*.example.com"))
    return errs


def is_config_map_key(value: str) -> list[str]:
    """IsConfigMapKey: a ConfigMap's or Secret's data key (a file name in a volume)."""
    errs = [_max_len(253)] if size(value) > 253 else []
    if not _CONFIG_MAP_KEY.fullmatch(value):
        errs.append(regex_error("a valid config key must consist of alphanumeric characters, '-', '_' or '.'",
                                _CONFIG_MAP_KEY_FMT, "key.name", "KEY_NAME", "key-name"))
    if value == ".":
        errs.append("must not be '.'")
    elif value == "..":
        errs.append("must not be '..'")
    elif value.startswith(".."):
        errs.append("must not start with '..'")
    return errs


def is_valid_port_num(port: int) -> list[str]:
    """IsValidPortNum: 1 to 65535."""
    return [] if 1 <= port <= 65535 else ["must be between 1 and 65535, inclusive"]


def is_valid_port_name(port: str) -> list[str]:
    """IsValidPortName: an IANA_SVC_NAME (at most 15 characters, a-z 0-9 and '-', a letter, no '--')."""
    errs: list[str] = []
    if size(port) > 15:
        errs.append(_max_len(15))
    if not _PORT_NAME_CHARSET.fullmatch(port):
        errs.append("must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)")
    if not re.search("[a-z]", port):
        errs.append("must contain at least one letter (a-z)")
    if "--" in port:
        errs.append("must not contain consecutive hyphens")
    if port and (port[0] == "-" or port[-1] == "-"):
        errs.append("must not begin or end with a hyphen")
    return errs


def is_path_segment_name(name: str) -> list[str]:
    """IsPathSegmentName: usable as one segment of a URL path (not ``.``/``..``, no ``/`` or ``%``)."""
    if name in (".", ".."):
        return [f"may not be '{name}'"]
    return [f"may not contain '{c}'" for c in ("/", "%") if c in name]


_IPV4_SLOPPY = re.compile(r"^([0-9]{1,3})\.([0-9]{1,3})\.([0-9]{1,3})\.([0-9]{1,3})$")


def parse_ip_sloppy(value: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """netutils.ParseIPSloppy: Go's net.ParseIP of old, IPv4 octets may have leading zeros (decimal)."""
    m = _IPV4_SLOPPY.fullmatch(value)
    if m:
        octets = [int(g) for g in m.groups()]
        return ipaddress.IPv4Address(".".join(map(str, octets))) if all(o <= 255 for o in octets) else None
    if ":" not in value or "%" in value:
        return None
    head, _, tail = value.rpartition(":")
    if "." in tail:  # an embedded IPv4 tail, leading zeros allowed as in IPv4
        m = _IPV4_SLOPPY.fullmatch(tail)
        if not m or any(int(g) > 255 for g in m.groups()):
            return None
        value = f"{head}:{'.'.join(str(int(g)) for g in m.groups())}"
    try:
        return ipaddress.IPv6Address(value)
    except ValueError:
        return None


def _leading_zeros(ip: str) -> bool:
    return "." in ip and any(len(o) > 1 and o.startswith("0") for o in ip.rsplit(":", 1)[-1].split("."))


def is_valid_ip_legacy(value: str, strict: bool = True) -> list[str]:
    """IsValidIPForLegacyField: a valid IPv4 or IPv6 address (Go's sloppy parsing); ``strict``
    (the StrictIPCIDRValidation gate, on from 1.36) also refuses leading zeros and IPv4-mapped IPv6."""
    addr = parse_ip_sloppy(value)
    if addr is None:
        return ["must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)"]
    errs: list[str] = []
    if strict:
        if _leading_zeros(value):  # netip.ParseAddr fails: no address to look further at
            errs.append("must not have leading 0s")
        elif isinstance(addr, ipaddress.IPv6Address) and addr.ipv4_mapped is not None:
            errs.append("must not be an IPv4-mapped IPv6 address")
    return errs


def is_valid_cidr_legacy(value: str, strict: bool = True) -> list[str]:
    """IsValidCIDRForLegacyField: an IP and a prefix length within its family's bits; ``strict``
    also refuses leading zeros, IPv4-mapped IPv6 and bits set beyond the prefix."""
    ip, sep, bits = value.partition("/")
    addr = parse_ip_sloppy(ip) if sep else None
    if addr is None or not bits.isascii() or not bits.isdigit() or int(bits) > addr.max_prefixlen:
        return ["must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)"]
    if not strict:
        return []
    if _leading_zeros(ip) or (len(bits) > 1 and bits.startswith("0")):
        return ["must not have leading 0s in IP or prefix length"]
    if isinstance(addr, ipaddress.IPv6Address) and addr.ipv4_mapped is not None:
        return ["must not have an IPv4-mapped IPv6 address"]
    if int(addr) & ((1 << (addr.max_prefixlen - int(bits))) - 1):
        return ["must not have bits set beyond the prefix length"]
    return []
