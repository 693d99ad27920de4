"""The one way a value from a schema reaches generated Python source.

Everything a template prints must be ``Code``: identifiers checked here, literals built with
``repr`` (which is safe for any ``str``), docstrings escaped so the text cannot end the string.
The template environment refuses anything else (see ``render.py``), so a description holding
``\"\"\"``, ``{{ }}`` or a newline followed by code stays text.
"""

from __future__ import annotations

import inspect
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
    """A Python literal that evaluates to ``value`` (JSON-like values, and tuples of them)."""
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
    if isinstance(value, tuple):
        return "(" + ", ".join(_literal(v) for v in value) + ("," if len(value) == 1 else "") + ")"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_literal(str(k))}: {_literal(v)}" for k, v in value.items()) + "}"
    raise ValueError(f"unsupported literal {type(value).__name__}")


def doc_text(text: str) -> str:
    """``text`` as a docstring reads: PEP 257's trim (``inspect.cleandoc``), to its fixed point.

    One trim can leave every continuation line indented (its first line was blank); a docstring
    cannot keep that, since the trim of the docstring removes it again.
    """
    return inspect.cleandoc(inspect.cleandoc(text))


def docstring(text: str, indent: str = "") -> Code:
    """A triple-quoted docstring whose value is ``doc_text(text)``.

    ``indent`` goes before every continuation line, as ``inspect.cleandoc`` expects. The text is
    escaped so that it cannot end the string and so that black, which re-indents docstrings,
    strips trailing blanks and pads a quote at either end, leaves its value alone: backslashes
    doubled, characters that are not printable as ``\\x``/``\\u`` escapes, a ``"`` that would be
    the third of a run (or the first or last character) escaped, trailing blanks of a line escaped.
    """
    lines = doc_text(text).split("\n")
    out: list[str] = []
    for n, line in enumerate(lines):
        keep = len(line.rstrip())  # black strips what follows: escape it
        quotes = 0  # unescaped quotes just before
        escaped = []
        for i, ch in enumerate(line):
            if ch == '"':
                first, last = n == 0 and i == 0, n == len(lines) - 1 and i == len(line) - 1
                if last:
                    escaped.append("\\x22")  # a closing \" would make black pad it with a space
                elif first or quotes == 2:
                    escaped.append('\\"')
                    quotes = 0
                else:
                    escaped.append(ch)
                    quotes += 1
                continue
            quotes = 0
            if ch == "\\":
                escaped.append("\\\\")
            elif i >= keep or not ch.isprintable():
                escaped.append(_char_escape(ch))
            else:
                escaped.append(ch)
        line_text = "".join(escaped)
        out.append(indent + line_text if n and line_text else line_text)
    return Code('"""' + "\n".join(out) + '"""')


def _char_escape(ch: str) -> str:
    code = ord(ch)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"
