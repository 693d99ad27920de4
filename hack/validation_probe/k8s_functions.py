"""What kgen's runtime library does not host, for the CEL libraries that lack it: the
Kubernetes format library, list ``indexOf``/``lastIndexOf`` and cel-go's ext.Strings v2, in plain
Python. The rest of the Kubernetes CEL library (quantity, url, ip/cidr, semver, lists, ext.Sets,
ext.Lists) is the runtime's (``kgen.runtime.apimachinery.validation.cel.library.LIBRARY``): ``KUBERNETES``
and ``EXTENSIONS`` below join the two for the cel-python and common-expression-language adapters.

Every function takes and returns plain Python values (str, int, float, list, dict, bool) plus
two markers the adapters translate into their library's own values: ``Opt`` (a CEL optional) and
Kubernetes' opaque types as tagged dicts ``{"__k8s__": kind, "v": canonical}``. Errors are
raised as the runtime's ``CelError``.

The semantics follow k8s.io/apiserver/pkg/cel/library (v0.37) and cel-go's ext package; the probe
checks them against the real apiserver, case by case.
"""

from __future__ import annotations

import re
from typing import Any, Callable

from kgen.runtime.apimachinery.validation.cel.library import LIBRARY, CelError


class Opt:
    """A CEL optional: ``Opt(value)`` or ``Opt.NONE``."""

    NONE: "Opt"

    def __init__(self, value: Any = None, present: bool = True) -> None:
        self.value, self.present = value, present


Opt.NONE = Opt(None, False)


def tagged(kind: str, canonical: str) -> dict[str, str]:
    return {"__k8s__": kind, "v": canonical}


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


# -- lists: indexOf and lastIndexOf on lists and strings ------------------------------------


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


#: cel-go ext.Sets and ext.Lists, which the runtime's LIBRARY also holds.
_EXT_LISTS = ("sets.contains", "sets.equivalent", "sets.intersects", "distinct", "sort", "slice", "flatten")
#: The runtime's implementation of each function: the overloads of one name differ by parameter
#: types only, and their implementations take any of them.
_RUNTIME: dict[str, Callable[..., Any]] = {name: sigs[0][2] for name, sigs in LIBRARY.items()}

#: name -> implementation; member functions take the receiver first (CEL's ``x.f(a)`` is ``f(x, a)``).
KUBERNETES: dict[str, Callable[..., Any]] = {
    **{name: fn for name, fn in _RUNTIME.items() if name not in _EXT_LISTS},
    # format
    **{f"format.{name}": (lambda name=name: tagged("Format", name)) for name in FORMATS},
    "format.named": lambda name: Opt(tagged("Format", name)) if name in FORMATS else Opt.NONE,
    "validate": _validate,
    # lists
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
    **{name: _RUNTIME[name] for name in _EXT_LISTS},
}
