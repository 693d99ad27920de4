"""Go's view of decoded JSON values (``interface{}`` holding ``map[string]interface{}``,
``[]interface{}``, ``string``, ``int64``, ``float64``, ``bool`` or nil), for ports of Go code whose
results or messages depend on it: ``==`` on interfaces (the dynamic types must match, so ``1``,
``1.0`` and ``true`` differ; maps and slices panic), hashing as a map key, and ``fmt``'s ``%v``.
Integers are ``int64`` as the apiserver decodes them (sigs.k8s.io/json's PreserveInts)."""

from __future__ import annotations

import json
import math
from typing import Any

__all__ = ["GO_TYPES", "INT64", "GoPanic", "go_equal", "go_float", "go_json", "go_key", "go_type", "go_v", "go_value",
           "is_json_integer", "json_type"]


class GoPanic(Exception):
    """The Go code would panic here (the message is the runtime's)."""


def go_type(v: Any) -> str:
    """The Go dynamic type of a decoded JSON value, as ``%T`` prints it."""
    if v is None:
        return "<nil>"
    if isinstance(v, dict):
        return "map[string]interface {}"
    if isinstance(v, list):
        return "[]interface {}"
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, int):
        return "int64"
    if isinstance(v, float):
        return "float64"
    return "string"


def go_key(v: Any) -> tuple[str, Any]:
    """``v`` as a Go map key: equal keys exactly when Go's ``==`` holds."""
    t = go_type(v)
    if t in ("map[string]interface {}", "[]interface {}"):
        raise GoPanic(f"runtime error: hash of unhashable type {t}")
    return t, v


def go_equal(a: Any, b: Any) -> bool:
    """Go's ``a == b`` on two ``interface{}`` values."""
    ta, tb = go_type(a), go_type(b)
    if ta != tb:
        return False
    if ta in ("map[string]interface {}", "[]interface {}"):
        raise GoPanic(f"runtime error: comparing uncomparable type {ta}")
    return bool(a == b)


def go_v(v: Any) -> str:
    """``fmt.Sprintf("%v", v)``."""
    if v is None:
        return "<nil>"
    if isinstance(v, dict):
        return "map[" + " ".join(f"{k}:{go_v(v[k])}" for k in sorted(v)) + "]"
    if isinstance(v, list):
        return "[" + " ".join(go_v(e) for e in v) + "]"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return go_float(v)
    return str(v)


def go_json(v: Any) -> str:
    """``encoding/json``'s ``Marshal`` of a decoded JSON value (jsoniter's standard-library mode
    writes the same): compact, map keys sorted, ``<``, ``>``, ``&``, U+2028 and U+2029 escaped."""
    text = json.dumps(v, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026").replace(
        "\u2028", "\\u2028").replace("\u2029", "\\u2029")


# -- values as field errors print them -------------------------------------------------------

INT64 = 2**63
"""2**63: integers in [-INT64, INT64) are Go int64s; beyond, JSON decodes them as float64s."""


def go_value(v: Any) -> str:
    """A value as field.Invalid prints it (%v for numbers, %q for strings, JSON for the rest)."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, int):
        return str(v) if -INT64 <= v < INT64 else go_float(float(v))
    if isinstance(v, float):
        return go_float(v)
    if v is None:
        return "null"
    return json.dumps(v, separators=(",", ":"), ensure_ascii=False)


def go_float(f: float) -> str:
    """strconv.FormatFloat(f, 'g', -1, 64), which %v prints (NaN, +Inf, -0 as Go): the shortest digits, in %e form when
    the exponent is below -4 or from 6 on (``1e+06``, ``1.5e+20``)."""
    if f != f:
        return "NaN"
    if f in (float("inf"), float("-inf")):
        return "+Inf" if f > 0 else "-Inf"
    if f == 0:
        return "-0" if math.copysign(1.0, f) < 0 else "0"
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


def json_type(v: Any) -> str:
    """The JSON type of a decoded value: "null", "boolean", "integer", "number", "string", "array" or
    "object"."""
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "boolean"
    if isinstance(v, int):
        return "integer" if -INT64 <= v < INT64 else "number"  # beyond int64 it decodes as a float64
    if isinstance(v, float):
        return "number"
    if isinstance(v, str):
        return "string"
    return "array" if isinstance(v, list) else "object"


GO_TYPES = {"boolean": "bool", "integer": "int64", "number": "float64", "string": "string",
             "array": "[]interface {}", "object": "map[string]interface {}", "null": "<nil>"}
"""The Go type of each JSON type, as Go's field errors name it."""


def is_json_integer(v: Any) -> bool:
    """An integer for kube-openapi: an int64 as decoded, or a float64 with no fraction within
    ±2^53 (swag.IsFloat64AJSONInteger, with its relative tolerance of 1e-9)."""
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return False
    if isinstance(v, int) and -INT64 <= v < INT64:
        return True
    f = float(v)
    if abs(f) > 2**53:
        return False
    diff = abs(f - math.trunc(f))
    return f == 0 or diff / (2 * abs(f) - diff) < 1e-9
