"""Value types Kubernetes puts on the wire as strings or numbers, kept exactly as sent.

Models hold these as the JSON value itself (so a re-encoded object is byte-for-byte what the
server sent: ``"2024-01-02T03:04:05Z"`` stays that, ``"1.5Gi"`` stays that, ``8080`` and
``"http"`` keep their JSON types); the helpers here give them meaning.
"""

from __future__ import annotations

import datetime as _dt
import re
from decimal import Decimal
from typing import TypeAlias

IntOrString: TypeAlias = int | str
"""An int-or-string (``x-kubernetes-int-or-string``): the JSON type is preserved both ways."""
Quantity: TypeAlias = str
"""A resource.Quantity in its canonical or user form: ``"100m"``, ``"1.5Gi"``, ``"2e3"``."""
Time: TypeAlias = str
"""A meta/v1 Time: RFC 3339 with whole seconds in UTC, ``"2024-01-02T03:04:05Z"``."""
MicroTime: TypeAlias = str
"""A meta/v1 MicroTime: RFC 3339 with exactly six fractional digits, ``"...05.000001Z"``."""

_BINARY = {"Ki": 2**10, "Mi": 2**20, "Gi": 2**30, "Ti": 2**40, "Pi": 2**50, "Ei": 2**60}
_DECIMAL = {"n": Decimal("1e-9"), "u": Decimal("1e-6"), "m": Decimal("1e-3"), "": Decimal(1),
            "k": Decimal("1e3"), "M": Decimal("1e6"), "G": Decimal("1e9"), "T": Decimal("1e12"),
            "P": Decimal("1e15"), "E": Decimal("1e18")}
_QUANTITY = re.compile(r"^([+-]?(?:\d+\.?\d*|\.\d+))(?:(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE])|[eE]([+-]?\d+))?$")


def parse_quantity(quantity: str | int | float) -> Decimal:
    """The exact value of a quantity: ``parse_quantity("1Gi") == 1073741824``."""
    if isinstance(quantity, (int, float)):
        return Decimal(str(quantity))
    match = _QUANTITY.match(quantity.strip())
    if not match:
        raise ValueError(f"not a Kubernetes quantity: {quantity!r}")
    number, suffix, exponent = match.groups()
    value = Decimal(number)
    if exponent is not None:
        return value.scaleb(int(exponent))
    if suffix in _BINARY:
        return value * _BINARY[suffix]
    return value * _DECIMAL[suffix or ""]


def compare_quantities(a: str | int | float, b: str | int | float) -> int:
    """-1, 0 or 1 as ``a`` is less than, equal to or greater than ``b`` by value."""
    x, y = parse_quantity(a), parse_quantity(b)
    return (x > y) - (x < y)


def parse_time(value: str) -> _dt.datetime:
    """A Time or MicroTime as an aware ``datetime`` in UTC."""
    return _dt.datetime.fromisoformat(value.replace("Z", "+00:00")).astimezone(_dt.timezone.utc)


def format_time(when: _dt.datetime) -> str:
    """A Time: whole seconds, UTC, ``Z``; naive datetimes are taken as UTC."""
    if when.tzinfo is not None:
        when = when.astimezone(_dt.timezone.utc)
    return when.strftime("%Y-%m-%dT%H:%M:%SZ")


def format_micro_time(when: _dt.datetime) -> str:
    """A MicroTime: exactly six fractional digits, UTC, ``Z``."""
    if when.tzinfo is not None:
        when = when.astimezone(_dt.timezone.utc)
    return when.strftime("%Y-%m-%dT%H:%M:%S.%fZ")
