"""``resource.Quantity`` as the apiserver decodes and prints it (``k8s.io/apimachinery/pkg/api/resource``).

A quantity that does not parse fails the whole request's decoding (a 400 with Go's parse error,
``quantities must match the regular expression ...``), before any validation; the messages that
quote a quantity print its canonical form (``Quantity.String``: ``0.5`` is ``500m``, ``2048Ki``
is ``2Mi``). kgen's ``parse_quantity`` (``kgen.runtime.apimachinery.types``) accepts what Python
can read; this module follows Go's parser, suffix by suffix, and its canonical printer.

``first_decode_error`` finds, in a whole object, the quantity Go's decoder would stop at: the
published OpenAPI types a Quantity as a string or a number, so the schema walk cannot, and the
decoder stops at the first failure, in the order the object's keys were sent.
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import ROUND_CEILING, ROUND_FLOOR, Decimal
from typing import Any

from kgen.runtime.apimachinery.validation.structural import FieldError, child

__all__ = ["FORMAT_WRONG", "QuantityError", "canonical", "first_decode_error", "parse"]

FORMAT_WRONG = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"
"""resource.ErrFormatWrong's text."""
_SUFFIX_WRONG = "unable to parse quantity's suffix"
_DECIMAL_SI = {"n": -9, "u": -6, "m": -3, "": 0, "k": 3, "M": 6, "G": 9, "T": 12, "P": 15, "E": 18}
_BINARY_SI = {"Ki": 10, "Mi": 20, "Gi": 30, "Ti": 40, "Pi": 50, "Ei": 60}
_SUFFIX_CHARS = frozenset("eEinumkKMGTP")
_NANO = Decimal("1e-9")


class QuantityError(ValueError):
    """A quantity Go's ParseQuantity refuses; the text is Go's error."""


def _split(text: str) -> tuple[str, str]:
    """parseQuantityString: the number and the suffix, or Go's format error."""
    pos, end = 0, len(text)
    if pos < end and text[0] in "+-":
        pos += 1
    while pos < end and text[pos].isdigit() and text[pos].isascii():
        pos += 1
    if pos < end and text[pos] == ".":
        pos += 1
        while pos < end and text[pos].isdigit() and text[pos].isascii():
            pos += 1
    number, start = text[:pos], pos
    while pos < end and text[pos] in _SUFFIX_CHARS:
        pos += 1
    if pos < end and text[pos] in "+-":
        pos += 1
    while pos < end and text[pos] in "0123456789":
        pos += 1
    if pos < end:
        raise QuantityError(FORMAT_WRONG)
    return number, text[start:]


def parse(value: Any) -> tuple[Decimal, str]:
    """Go's ParseQuantity of a JSON value (a string, or a number as its text): the exact value
    (rounded up to a nano, as Go rounds) and the format its suffix gives (``DecimalSI``,
    ``BinarySI``, ``DecimalExponent``). QuantityError: Go's parse error."""
    text = (value if isinstance(value, str) else str(value)).strip()
    if not text:
        raise QuantityError(FORMAT_WRONG)
    if text == "0":
        return Decimal(0), "DecimalSI"
    number, suffix = _split(text)
    digits = number.lstrip("+-")
    amount = Decimal(digits) if digits.strip(".") else Decimal(0)
    if number.startswith("-"):
        amount = -amount
    if suffix in _DECIMAL_SI:
        amount, fmt = amount.scaleb(_DECIMAL_SI[suffix]), "DecimalSI"
    elif suffix in _BINARY_SI:
        amount, fmt = amount * (1 << _BINARY_SI[suffix]), "BinarySI"
    elif len(suffix) > 1 and suffix[0] in "eE" and _is_int(suffix[1:]):
        amount, fmt = amount.scaleb(int(suffix[1:])), "DecimalExponent"
    else:
        raise QuantityError(_SUFFIX_WRONG)
    if amount != 0:
        amount = amount.quantize(_NANO, rounding=ROUND_CEILING if amount > 0 else ROUND_FLOOR)
    if fmt == "BinarySI" and 0 < abs(amount) < 1:
        fmt = "DecimalSI"
    return amount, fmt


def _is_int(text: str) -> bool:
    body = text[1:] if text[:1] in "+-" else text
    return body.isascii() and body.isdigit()


def canonical(value: Any) -> str:
    """Quantity.String() of a JSON value that parses: the canonical form Go prints."""
    amount, fmt = parse(value)
    if amount == 0:
        return "0"
    if fmt == "BinarySI" and (-1024 < amount < 1024 or amount != amount.to_integral_value()):
        fmt = "DecimalSI"
    sign = "-" if amount < 0 else ""
    if fmt == "BinarySI":
        whole, exponent = int(abs(amount)), 0
        while whole % 1024 == 0 and exponent < 60:
            whole, exponent = whole // 1024, exponent + 10
        return f"{sign}{whole}{next((s for s, e in _BINARY_SI.items() if e == exponent), '')}"
    mantissa, exponent = _mantissa(abs(amount))
    shift = exponent % 3
    mantissa, exponent = mantissa * 10**shift, exponent - shift
    if fmt == "DecimalExponent":
        return f"{sign}{mantissa}" + (f"e{exponent}" if exponent else "")
    suffix = next((s for s, e in _DECIMAL_SI.items() if e == exponent), None)
    if suffix is None:
        return f"{sign}{mantissa}e{exponent}"
    return f"{sign}{mantissa}{suffix}"


def _mantissa(amount: Decimal) -> tuple[int, int]:
    """amount as an integer without trailing zeros and a power of ten."""
    t = amount.normalize().as_tuple()
    mantissa = int("".join(map(str, t.digits)) or "0")
    exponent = int(t.exponent)
    return mantissa, exponent


# -- the decoder's view of a whole object --------------------------------------------------------

_QUANTITY = "io.k8s.apimachinery.pkg.api.resource.Quantity"
Schema = dict[str, Any]


def _ref(node: Schema) -> str | None:
    ref = node.get("$ref")
    if ref is None and isinstance(node.get("allOf"), list) and len(node["allOf"]) == 1:
        ref = node["allOf"][0].get("$ref")
    return ref.rsplit("/", 1)[-1] if isinstance(ref, str) else None


def first_decode_error(obj: Any, definition: str, resolve: Callable[[str], Schema]) -> FieldError | None:
    """The 400 Go's decoder answers ``obj`` (of the definition named ``definition``) with, when a
    quantity in it does not parse; else None."""
    return _walk(obj, {"$ref": definition}, "", resolve)


def _walk(value: Any, node: Schema, path: str, resolve: Callable[[str], Schema]) -> FieldError | None:
    ref = _ref(node)
    if ref == _QUANTITY:
        if value is None or isinstance(value, bool) or not isinstance(value, (str, int, float)):
            return None  # the schema walk reports wrong types
        try:
            parse(value)
        except QuantityError as e:
            return FieldError("BadRequest", path, str(e))
        return None
    if ref is not None:
        node = resolve(ref)
    if isinstance(value, dict):
        props = node.get("properties") or {}
        extra = node.get("additionalProperties")
        for key, item in value.items():
            sub = props.get(key, extra if isinstance(extra, dict) else None)
            if sub is not None:
                found = _walk(item, sub, child(path, key), resolve)
                if found is not None:
                    return found
    elif isinstance(value, list) and isinstance(node.get("items"), dict):
        for i, item in enumerate(value):
            found = _walk(item, node["items"], child(path, i), resolve)
            if found is not None:
                return found
    return None
