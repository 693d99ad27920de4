"""A bound CEL value written as a CEL literal, for values cel-expr-python cannot bind (issue 35).

cel-expr-python converts a Python ``datetime`` or ``timedelta`` only where the declared type says
timestamp or duration. An object with properties is declared ``map(string, dyn)`` here (cel-cpp
has no struct types without protobuf descriptors), so a ``date-time`` or ``duration`` field below a
rule's node (a taint's ``timeAdded`` under ``self.all(t, ...)``, a condition's
``lastTransitionTime``) sits under ``dyn`` and cannot be bound. The apiserver gives it its
timestamp or duration there (its CEL adapter types every field by the schema). Written as a literal
(``timestamp("...")``, ``duration("...us")``) and bound by ``cel.bind``, each value keeps its CEL type
at any depth:

    cel.bind(self, [{"key": "spot", "timeAdded": timestamp("2024-01-02T03:04:05+00:00")}], <rule>)
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone
from typing import Any

__all__ = ["bound", "cel_literal", "has_time_values", "time_formats_below"]


def cel_literal(value: Any) -> str:
    """``value`` (what ``to_cel`` makes of a JSON value) as a CEL expression of the same value and type."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return repr(value)  # 1.0, 1e+20: CEL's double literals (JSON has no inf or nan)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)  # JSON's escapes are CEL's
    if isinstance(value, bytes):
        return 'b"' + "".join(f"\\x{b:02x}" for b in value) + '"'
    if isinstance(value, datetime):
        stamp = value if value.tzinfo is not None else value.replace(tzinfo=timezone.utc)
        return f'timestamp("{stamp.isoformat()}")'
    if isinstance(value, timedelta):
        return f'duration("{value // timedelta(microseconds=1)}us")'
    # lists and maps as dyn, as the declared types' map(string, dyn) leave them to the runtime: a
    # literal of strings alone would otherwise type-check as map(string, string)
    if isinstance(value, list):
        return "dyn([" + ", ".join(cel_literal(v) for v in value) + "])"
    if isinstance(value, dict):
        return "dyn({" + ", ".join(f"{json.dumps(str(k), ensure_ascii=False)}: {cel_literal(v)}" for k, v in value.items()) + "})"
    raise TypeError(f"no CEL literal for a {type(value).__name__}")


def has_time_values(value: Any, top: bool = True) -> bool:
    """Whether a timestamp or duration sits below the top of ``value`` (where it cannot be bound)."""
    if isinstance(value, (datetime, timedelta)):
        return not top
    if isinstance(value, list):
        return any(has_time_values(v, False) for v in value)
    if isinstance(value, dict):
        return any(has_time_values(v, False) for v in value.values())
    return False


def time_formats_below(schema: Any, top: bool = True) -> bool:
    """Whether a ``date-time`` or ``duration`` string field sits below the top of ``schema`` (a
    rule's node): only then may a value need ``cel_literal`` (``has_time_values`` says whether it does)."""
    if not isinstance(schema, dict):
        return False
    if not top and schema.get("type") == "string" and schema.get("format") in ("date-time", "duration"):
        return True
    subs = [*(schema.get("properties") or {}).values(), schema.get("items"), schema.get("additionalProperties")]
    return any(time_formats_below(sub, False) for sub in subs)


def bound(expression: str, data: dict[str, Any]) -> str:
    """``expression`` with every variable of ``data`` bound to its literal (``cel.bind``, the
    bindings extension), to compile with no variables declared."""
    for name, value in data.items():
        expression = f"cel.bind({name}, {cel_literal(value)}, {expression})"
    return expression
