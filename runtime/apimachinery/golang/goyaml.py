"""``sigs.k8s.io/yaml.Marshal`` of decoded JSON, as Go prints it (JSON, re-read by go-yaml v2, then
emitted in block style): needed where apimachinery puts YAML in an error's text
(mergepatch.ToYAMLOrError in CreateThreeWayMergePatch's conflict error).

go-yaml v2's emitter is followed step by step where a patch can reach it: keys sorted by its
``keyList.Less`` (letters before other characters, digit runs compared as numbers) with Go's
``sort.Sort``; a string is plain unless it would read back as another type (``"1"``, ``"y"``,
``"null"``, ``""``, dates) — then double-quoted — or the emitter refuses it plain (indicators,
edge spaces) — then single-quoted, or double-quoted when it holds characters only escapes show;
strings of several lines are literal blocks with go-yaml's indentation and chomping hints;
scalars are folded at a space once the line is past column 80; keys of several lines or over
128 bytes take the ``? key`` / ``: value`` form; numbers print as Go's JSON wrote them and YAML
read them back (an integral float is an integer). One thing is not reproduced: when the JSON
holds a character go-yaml's reader refuses (DEL, C1 controls), Go's text is that error followed
by a go-spew dump of the value in Go's random map order; kgen writes the same error line and
the value as JSON.
"""

from __future__ import annotations

import json
import re
from typing import Any

from kgen.runtime.apimachinery.golang.gofmt import go_v
from kgen.runtime.apimachinery.golang.gosort import sort_unstable

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
    """``sigs.k8s.io/yaml.Marshal(v)`` for a decoded JSON value (mergepatch.ToYAMLOrError: the
    error text when go-yaml cannot read the JSON back)."""
    if _unreadable(v):
        return "yaml marshal failed:yaml: control characters are not allowed\n" + json.dumps(v, sort_keys=True) + "\n"
    if isinstance(v, dict) and v:
        return "".join(_mapping(v, 0))
    if isinstance(v, list) and v:
        return "".join(_sequence(v, 0))
    return _inline(v, 0, 0) + "\n"


def _unreadable(v: Any) -> bool:
    """Whether Go's JSON of ``v`` holds a character go-yaml's reader refuses (DEL, C1 controls
    but NEL, U+FFFE/U+FFFF: Go's JSON escapes the other controls)."""
    if isinstance(v, dict):
        return any(_unreadable(k) or _unreadable(e) for k, e in v.items())
    if isinstance(v, list):
        return any(_unreadable(e) for e in v)
    return isinstance(v, str) and any(c == "\x7f" or ("\x80" <= c <= "\x9f" and c != "\x85") or c in "\ufffe\uffff"
                                      for c in v)


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



def _printable(c: str) -> bool:
    """go-yaml's is_printable: line feed, visible ASCII, the BMP past 0xA0 without surrogates,
    BOM and non-characters, and the planes beyond."""
    o = ord(c)
    return (o == 0x0A or 0x20 <= o <= 0x7E or 0xA0 <= o <= 0xD7FF or (0xE000 <= o <= 0xFFFD and o != 0xFEFF)
            or o >= 0x10000)


_BREAKS = "\r\n\x85\u2028\u2029"
_BLANKS = " \t" + _BREAKS


def _analyze(s: str) -> tuple[bool, bool, bool]:
    """go-yaml's analyze_scalar, block context: (plain allowed, single-quoted allowed, literal
    allowed)."""
    if not s:
        return True, True, False
    block_indicators = s[:3] in ("---", "...")
    line_breaks = special = break_space = space_break = False
    previous_space = previous_break = False
    preceded_by_whitespace = True
    for i, c in enumerate(s):
        followed_by_whitespace = i + 1 >= len(s) or s[i + 1] in _BLANKS
        if i == 0:
            if c in "#,[]{}&*!|>'\"%@`" or (c in "?:-" and followed_by_whitespace):
                block_indicators = True
        elif (c == ":" and followed_by_whitespace) or (c == "#" and preceded_by_whitespace):
            block_indicators = True
        if not _printable(c):
            special = True
        if c == " ":
            break_space = break_space or previous_break
            previous_space, previous_break = True, False
        elif c in _BREAKS:
            line_breaks = True
            space_break = space_break or previous_space
            previous_space, previous_break = False, True
        else:
            previous_space = previous_break = False
        preceded_by_whitespace = c in _BLANKS
    edges = s[0] == " " or s[0] in _BREAKS or s[-1] == " " or s[-1] in _BREAKS
    plain = not (edges or break_space or space_break or special or line_breaks or block_indicators)
    single = not (break_space or space_break or special)
    block = not (s[-1] == " " or space_break or special)
    return plain, single, block


_WIDTH = 80  # go-yaml's best_width: a scalar is folded at a space once its line is past it


def _string(s: str, column: int, indent: int, key: bool) -> str:
    """``s`` written from ``column`` (``key``: a simple mapping key, never folded), continuation
    lines at ``indent``: go-yaml's stringv, select_scalar_style and scalar writers."""
    plain, single, block = _analyze(s)
    if "\n" in s:
        style = "literal" if block and not key else '"'
    elif s and _reads_as_string(s) and not _BASE60.match(s):
        style = "" if plain else "'" if single else '"'
    else:
        style = '"'
    if style == "literal":
        return _literal(s, indent)
    return _quoted(s, column, indent, not key, style)


def _quoted(s: str, column: int, indent: int, allow_breaks: bool, quote: str) -> str:
    """The plain (``quote`` empty), single- or double-quoted writer, folding at spaces."""
    out = [quote]
    column += len(quote)
    spaces = breaks = False
    bom = s.startswith("\ufeff")  # go-yaml's is_bom looks at the value's start: then it escapes every character
    for i, c in enumerate(s):
        following = s[i + 1] if i + 1 < len(s) else ""
        if quote == '"' and (bom or not _printable(c) or c in _BREAKS or c in '"\\'):
            out.append(_escape(c))
            column += len(out[-1])
            spaces = False
        elif c == " ":
            inside = 0 < i < len(s) - 1 or not quote
            if allow_breaks and not spaces and column > _WIDTH and inside and (quote == '"' or following != " "):
                out.append("\n" + " " * indent)
                column = indent
                if quote == '"' and following == " ":
                    out.append("\\")
                    column += 1
            else:
                out.append(c)
                column += 1
            spaces = True
        elif c in _BREAKS:  # only U+2028/U+2029 reach here (single-quoted): the next line is indented
            out.append(c)
            column, spaces, breaks = 0, False, True
            continue
        else:
            if breaks:
                out.append(" " * indent)
                column = indent
            out.append("''" if c == "'" and quote == "'" else c)
            column += len(out[-1])
            spaces = False
        breaks = False
    out.append(quote)
    return "".join(out)


_ESCAPES = {"\0": "0", "\a": "a", "\b": "b", "\t": "t", "\n": "n", "\v": "v", "\f": "f", "\r": "r",
            "\x1b": "e", '"': '"', "\\": "\\", "\x85": "N", "\xa0": "_", "\u2028": "L", "\u2029": "P"}


def _escape(c: str) -> str:
    if c in _ESCAPES:
        return "\\" + _ESCAPES[c]
    o = ord(c)
    if o <= 0xFF:
        return f"\\x{o:02X}"
    return f"\\u{o:04X}" if o <= 0xFFFF else f"\\U{o:08X}"


def _literal(s: str, indent: int) -> str:
    """A multi-line string as a ``|`` block: indentation and chomping hints, then its lines."""
    hints = "2" if s[0] == " " or s[0] in _BREAKS else ""
    if s[-1] not in _BREAKS:
        hints += "-"
    elif len(s) == 1 or s[-2] in _BREAKS:
        hints += "+"
    out = ["|" + hints + "\n"]
    breaks = True
    for c in s:
        if c in _BREAKS:
            out.append(c)
            breaks = True
        else:
            if breaks:
                out.append(" " * indent)
            out.append(c)
            breaks = False
    text = "".join(out)
    return text[:-1] if text.endswith("\n") else text  # the caller ends the line


def _number(v: int | float) -> str:
    if isinstance(v, int):
        return str(v)
    if v == int(v) and abs(v) < 1e21:  # Go's JSON writes it without a point: YAML reads an int
        return str(int(v))
    return go_v(v)


def _inline(v: Any, column: int, indent: int) -> str:
    """A scalar or an empty collection, written from ``column`` (continuations at ``indent``)."""
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return _number(v)
    if isinstance(v, str):
        return _string(v, column, indent, key=False)
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
        if "\n" in key or any(c in _BREAKS for c in key) or len(key.encode()) > 128:
            out.extend(_complex_entry(key, v, indent))
            continue
        head = f"{pad}{_string(key, indent, indent, key=True)}:"
        if isinstance(v, dict) and v:
            out.append(head + "\n")
            out.extend(_mapping(v, indent + 2))
        elif isinstance(v, list) and v:
            out.append(head + "\n")
            out.extend(_sequence(v, indent))
        else:
            out.append(f"{head} {_inline(v, len(head) + 1, indent + 2)}\n")
    return out


def _complex_entry(key: str, v: Any, indent: int) -> list[str]:
    """A key go-yaml cannot write as a simple key (several lines, or over 128 bytes):
    ``? <key>`` then ``: <value>``, a collection value starting on the ``:`` line."""
    pad = " " * indent
    out = [f"{pad}? {_string(key, indent + 2, indent + 2, key=False)}\n"]
    if isinstance(v, dict) and v:
        nested = _mapping(v, indent + 2)
    elif isinstance(v, list) and v:
        nested = _sequence(v, indent + 2)
    else:
        return [*out, f"{pad}: {_inline(v, indent + 2, indent + 2)}\n"]
    return [*out, f"{pad}: {nested[0][indent + 2:]}", *nested[1:]]


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
            out.append(f"{pad}- {_inline(v, indent + 2, indent + 2)}\n")
    return out
