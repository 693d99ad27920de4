"""``sigs.k8s.io/yaml.Marshal`` of decoded JSON, as Go prints it (JSON, re-read by go-yaml v2, then
emitted in block style): needed where apimachinery puts YAML in an error's text
(mergepatch.ToYAMLOrError in CreateThreeWayMergePatch's conflict error).

go-yaml v2's rules are followed: keys sorted by its ``keyList.Less`` (letters before other
characters, digit runs compared as numbers) with Go's ``sort.Sort``; a string is plain unless it
would read back as another type (``"1"``, ``"y"``, ``"null"``, ``""``, dates) — then double-quoted —
or the emitter refuses it plain (leading indicator, ``": "``, edge spaces) — then single-quoted;
sequences inside mappings are not indented. Numbers print as Go's JSON wrote them and YAML read
them back (an integral float is an integer). Long strings are not folded at 80 columns as go-yaml
folds them, and multi-line strings are double-quoted rather than in literal style: apimachinery's
patches rarely hold either, and the message stays readable.
"""

from __future__ import annotations

import json
import re
from typing import Any

from kgen.runtime.apimachinery.gofmt import go_v
from kgen.runtime.apimachinery.gosort import sort_unstable

__all__ = ["go_yaml"]

_BOOL_NULL = {s for group in ("y Y yes Yes YES true True TRUE on On ON n N no No NO false False FALSE off Off OFF",
                              "~ null Null NULL .nan .NaN .NAN .inf .Inf .INF +.inf +.Inf +.INF -.inf -.Inf -.INF")
              for s in group.split()} | {""}
_YAML_FLOAT = re.compile(r"^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$")
_GO_INT = re.compile(r"^[-+]?(0[xX][0-9a-fA-F]+|0[oO][0-7]+|0[bB][01]+|0[0-7]*|[1-9][0-9]*)$")
_GO_FLOAT = re.compile(r"^[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$")
_BASE60 = re.compile(r"^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$")
_DATE = re.compile(r"^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}([Tt ][0-9]{1,2}:[0-9]{1,2}:[0-9]{1,2}(\.[0-9]*)?"
                   r"(Z|[-+][0-9]{2}:[0-9]{2})?)?$")


def go_yaml(v: Any) -> str:
    """``sigs.k8s.io/yaml.Marshal(v)`` for a decoded JSON value."""
    if isinstance(v, dict) and v:
        return "".join(_mapping(v, 0))
    if isinstance(v, list) and v:
        return "".join(_sequence(v, 0))
    return _inline(v) + "\n"


def _reads_as_string(s: str) -> bool:
    """go-yaml v2's resolve(): whether plain ``s`` would read back as a string. Only strings
    starting with a sign, a digit, ``.``, ``~`` or one of ``yYnNtTfFoO`` are looked up at all
    (so ``<<``, a merge key elsewhere, stays a plain string here)."""
    if s in _BOOL_NULL:
        return False
    first = s[0]
    if first == ".":
        return not _GO_FLOAT.match(s)
    if first in "+-0123456789":
        plain = s.replace("_", "")
        if _DATE.match(s) or _GO_INT.match(plain) or _YAML_FLOAT.match(plain):
            return False
    return True


def _plain_allowed(s: str) -> bool:
    """go-yaml's analyze_scalar, block context: may ``s`` be written plain?"""
    if s[:3] in ("---", "..."):
        return False
    if s[0] in " \t" or s[-1] in " \t" or "\n" in s:
        return False
    if s[0] in "#,[]{}&*!|>'\"%@`":
        return False
    if s[0] in "?:-" and (len(s) == 1 or s[1] in " \t"):
        return False
    if ": " in s or s.endswith(":") or " #" in s or "\t#" in s:
        return False
    return all(c.isprintable() or c == "\t" for c in s)


def _string(s: str) -> str:
    if s and "\n" not in s and _reads_as_string(s) and not _BASE60.match(s):
        if _plain_allowed(s):
            return s
        if all(c.isprintable() for c in s):
            return "'" + s.replace("'", "''") + "'"
    return json.dumps(s, ensure_ascii=False)


def _number(v: int | float) -> str:
    if isinstance(v, int):
        return str(v)
    if v == int(v) and abs(v) < 1e21:  # Go's JSON writes it without a point: YAML reads an int
        return str(int(v))
    return go_v(v)


def _inline(v: Any) -> str:
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return _number(v)
    if isinstance(v, str):
        return _string(v)
    return "{}" if isinstance(v, dict) else "[]"


def _key_less(a: str, b: str) -> bool:
    """go-yaml v2's keyList.Less for two string keys."""
    for i in range(min(len(a), len(b))):
        if a[i] == b[i]:
            continue
        al, bl = a[i].isalpha(), b[i].isalpha()
        if al and bl:
            return a[i] < b[i]
        if al or bl:
            return bl
        an = bn = 0
        if a[i] == "0" or b[i] == "0":
            j = i - 1
            while j >= 0 and a[j].isdecimal():
                if a[j] != "0":
                    an = bn = 1
                    break
                j -= 1
        ai = i
        while ai < len(a) and a[ai].isdecimal():
            an = an * 10 + int(a[ai])
            ai += 1
        bi = i
        while bi < len(b) and b[bi].isdecimal():
            bn = bn * 10 + int(b[bi])
            bi += 1
        if an != bn:
            return an < bn
        if ai != bi:
            return ai < bi
        return a[i] < b[i]
    return len(a) < len(b)


def _mapping(m: dict[str, Any], indent: int) -> list[str]:
    pad = " " * indent
    out: list[str] = []
    for key in sort_unstable(list(m), _key_less):
        v = m[key]
        head = f"{pad}{_string(key)}:"
        if isinstance(v, dict) and v:
            out.append(head + "\n")
            out.extend(_mapping(v, indent + 2))
        elif isinstance(v, list) and v:
            out.append(head + "\n")
            out.extend(_sequence(v, indent))
        else:
            out.append(f"{head} {_inline(v)}\n")
    return out


def _sequence(items: list[Any], indent: int) -> list[str]:
    pad = " " * indent
    out: list[str] = []
    for v in items:
        if isinstance(v, dict) and v:
            nested = _mapping(v, indent + 2)
            out.append(pad + "- " + nested[0][indent + 2:])
            out.extend(nested[1:])
        elif isinstance(v, list) and v:
            nested = _sequence(v, indent + 2)
            out.append(pad + "- " + nested[0][indent + 2:])
            out.extend(nested[1:])
        else:
            out.append(f"{pad}- {_inline(v)}\n")
    return out
