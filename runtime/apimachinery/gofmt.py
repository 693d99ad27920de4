"""Go's view of decoded JSON values (``interface{}`` holding ``map[string]interface{}``,
``[]interface{}``, ``string``, ``int64``, ``float64``, ``bool`` or nil), for ports of Go code whose
results or messages depend on it: ``==`` on interfaces (the dynamic types must match, so ``1``,
``1.0`` and ``true`` differ; maps and slices panic), hashing as a map key, and ``fmt``'s ``%v``.
Integers are ``int64`` as the apiserver decodes them (sigs.k8s.io/json's PreserveInts)."""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

__all__ = ["GoPanic", "go_equal", "go_json", "go_key", "go_type", "go_v"]


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
        return _go_float(v)
    return str(v)


def _go_float(f: float) -> str:
    """fmt's %v of a float64: the shortest digits, %e when the exponent is < -4 or >= 6."""
    if f != f:
        return "NaN"
    if f in (float("inf"), float("-inf")):
        return "+Inf" if f > 0 else "-Inf"
    if f == 0:
        return "-0" if str(f).startswith("-") else "0"
    sign, digits, exponent = Decimal(repr(f)).normalize().as_tuple()
    assert isinstance(exponent, int)
    text = "".join(map(str, digits))
    exp10 = len(text) + exponent - 1
    minus = "-" if sign else ""
    if exp10 < -4 or exp10 >= 6:
        mantissa = text[0] + ("." + text[1:] if len(text) > 1 else "")
        return f"{minus}{mantissa}e{'-' if exp10 < 0 else '+'}{abs(exp10):02d}"
    return minus + format(Decimal(repr(abs(f))).normalize(), "f")


def go_json(v: Any) -> str:
    """``encoding/json``'s ``Marshal`` of a decoded JSON value (jsoniter's standard-library mode
    writes the same): compact, map keys sorted, ``<``, ``>``, ``&``, U+2028 and U+2029 escaped."""
    text = json.dumps(v, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026").replace(
        "\u2028", "\\u2028").replace("\u2029", "\\u2029")
