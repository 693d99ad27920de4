"""The one way a value from a schema reaches generated Python source.

Everything a template prints must be ``Code``: identifiers checked here, literals built with
``repr`` (which is safe for any ``str``), docstrings escaped so the text cannot end the string.
The template environment refuses anything else (see ``render.py``), so a description holding
``\"\"\"``, ``{{ }}`` or a newline followed by code stays text.
"""

from __future__ import annotations

import keyword
import math
from typing import Any


class Code(str):
    """A piece of Python source that is safe to print as is."""


def identifier(name: str) -> Code:
    if not name.isidentifier() or keyword.iskeyword(name):
        raise ValueError(f"not a usable Python identifier: {name!r}")
    return Code(name)


def literal(value: Any) -> Code:
    """A Python literal that evaluates to ``value`` (JSON-like values only)."""
    return Code(_literal(value))


def _literal(value: Any) -> str:
    if value is None or isinstance(value, bool):
        return repr(value)
    if isinstance(value, int):
        return repr(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(f"non-finite number {value!r}")
        return repr(value)
    if isinstance(value, str):
        return repr(value)
    if isinstance(value, list):
        return "[" + ", ".join(_literal(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_literal(str(k))}: {_literal(v)}" for k, v in value.items()) + "}"
    raise ValueError(f"unsupported literal {type(value).__name__}")


def docstring(text: str, indent: str = "") -> Code:
    """A triple-quoted docstring whose value is ``text`` (trimmed of surrounding blank space).

    ``indent`` goes before every continuation line, as ``inspect.cleandoc`` expects.
    """
    body = text.strip()
    out = []
    for ch in body:
        if ch == "\\":
            out.append("\\\\")
        elif ch in "\n\t":
            out.append(ch)
        elif ord(ch) < 32 or ord(ch) == 127 or ch in "\u2028\u2029":
            out.append(f"\\x{ord(ch):02x}" if ord(ch) < 256 else f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    escaped = "".join(out).replace('"""', '\\"\\"\\"')  # no run of quotes can close it
    if escaped.endswith('"'):
        escaped = escaped[:-1] + '\\"'
    if indent:
        escaped = "\n".join(line and indent + line if i else line for i, line in enumerate(escaped.split("\n")))
    return Code('"""' + escaped + '"""')
