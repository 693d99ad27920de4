"""Go's encoding/json errors for bad input, word for word (the scanner of ``scanner.go``).

``json.Unmarshal`` first checks the whole input with a byte-at-a-time state machine and reports
the first byte it cannot take (``invalid character 'x' looking for beginning of value``, ``...
after object key``, ``unexpected end of JSON input``); the apiserver quotes that text, e.g. for a
Secret whose ``.dockerconfigjson`` is not JSON. Python's json module finds the same inputs bad but
words them its own way, so this module runs Go's states instead.
"""

from __future__ import annotations

from collections.abc import Callable

__all__ = ["map_unmarshal_error", "syntax_error"]

_SPACE = b" \t\r\n"
_OBJECT_KEY, _OBJECT_VALUE, _ARRAY_VALUE = 0, 1, 2
_ESCAPES = {7: "\\a", 8: "\\b", 9: "\\t", 10: "\\n", 11: "\\v", 12: "\\f", 13: "\\r", 92: "\\\\"}


def _quote_char(c: int) -> str:
    """quoteChar: the byte as a rune (Latin-1 above 0x7f), strconv.Quote'd between single quotes."""
    if c == ord("'"):
        return "'\\''"
    if c == ord('"'):
        return "'\"'"
    ch = chr(c)
    if c in _ESCAPES:
        body = _ESCAPES[c]
    elif c < 0x20 or c == 0x7F:
        body = f"\\x{c:02x}"
    elif 0x80 <= c < 0xA0 or c == 0xAD:
        body = f"\\u{c:04x}"
    else:
        body = ch
    return f"'{body}'"


class _SyntaxError(Exception):
    pass


class _Scanner:
    """scanner.go's states; each takes one byte and sets the next state."""

    def __init__(self) -> None:
        self.stack: list[int] = []
        self.step: Callable[[int], None] = self.begin_value
        self.end_top = False

    def error(self, c: int, context: str) -> None:
        raise _SyntaxError(f"invalid character {_quote_char(c)} {context}")

    def begin_value_or_empty(self, c: int) -> None:
        if c in _SPACE:
            return
        if c == ord("]"):
            self.end_value(c)
            return
        self.begin_value(c)

    def begin_value(self, c: int) -> None:
        if c in _SPACE:
            return
        ch = chr(c)
        if ch == "{":
            self.stack.append(_OBJECT_KEY)
            self.step = self.begin_string_or_empty
        elif ch == "[":
            self.stack.append(_ARRAY_VALUE)
            self.step = self.begin_value_or_empty
        elif ch == '"':
            self.step = self.in_string
        elif ch == "-":
            self.step = self.neg
        elif ch == "0":
            self.step = self.zero
        elif "1" <= ch <= "9":
            self.step = self.one
        elif ch in "tfn":
            word = {"t": "true", "f": "false", "n": "null"}[ch]
            self.step = self.literal(word, 1)
        else:
            self.error(c, "looking for beginning of value")

    def begin_string_or_empty(self, c: int) -> None:
        if c in _SPACE:
            return
        if c == ord("}"):
            self.stack[-1] = _OBJECT_VALUE
            self.end_value(c)
            return
        self.begin_string(c)

    def begin_string(self, c: int) -> None:
        if c in _SPACE:
            return
        if c == ord('"'):
            self.step = self.in_string
            return
        self.error(c, "looking for beginning of object key string")

    def end_value(self, c: int) -> None:
        if not self.stack:
            self.end_top = True
            self.step = self.end_top_state
            self.end_top_state(c)
            return
        if c in _SPACE:
            self.step = self.end_value
            return
        state = self.stack[-1]
        if state == _OBJECT_KEY:
            if c == ord(":"):
                self.stack[-1] = _OBJECT_VALUE
                self.step = self.begin_value
                return
            self.error(c, "after object key")
        elif state == _OBJECT_VALUE:
            if c == ord(","):
                self.stack[-1] = _OBJECT_KEY
                self.step = self.begin_string
                return
            if c == ord("}"):
                self.pop()
                return
            self.error(c, "after object key:value pair")
        else:
            if c == ord(","):
                self.step = self.begin_value
                return
            if c == ord("]"):
                self.pop()
                return
            self.error(c, "after array element")

    def pop(self) -> None:
        self.stack.pop()
        if not self.stack:
            self.end_top = True
            self.step = self.end_top_state
        else:
            self.step = self.end_value

    def end_top_state(self, c: int) -> None:
        if c not in _SPACE:
            self.error(c, "after top-level value")

    def in_string(self, c: int) -> None:
        if c == ord('"'):
            self.step = self.end_value
        elif c == ord("\\"):
            self.step = self.in_string_esc
        elif c < 0x20:
            self.error(c, "in string literal")

    def in_string_esc(self, c: int) -> None:
        if chr(c) in 'bfnrt\\/"':
            self.step = self.in_string
        elif c == ord("u"):
            self.step = self.in_string_esc_u(4)
        else:
            self.error(c, "in string escape code")

    def in_string_esc_u(self, left: int) -> Callable[[int], None]:
        def step(c: int) -> None:
            if chr(c) not in "0123456789abcdefABCDEF":
                self.error(c, "in \\u hexadecimal character escape")
            self.step = self.in_string if left == 1 else self.in_string_esc_u(left - 1)
        return step

    def neg(self, c: int) -> None:
        if c == ord("0"):
            self.step = self.zero
        elif ord("1") <= c <= ord("9"):
            self.step = self.one
        else:
            self.error(c, "in numeric literal")

    def one(self, c: int) -> None:
        if ord("0") <= c <= ord("9"):
            return
        self.zero(c)

    def zero(self, c: int) -> None:
        if c == ord("."):
            self.step = self.dot
        elif c in (ord("e"), ord("E")):
            self.step = self.exp
        else:
            self.end_value(c)

    def dot(self, c: int) -> None:
        if ord("0") <= c <= ord("9"):
            self.step = self.dot0
            return
        self.error(c, "after decimal point in numeric literal")

    def dot0(self, c: int) -> None:
        if ord("0") <= c <= ord("9"):
            return
        if c in (ord("e"), ord("E")):
            self.step = self.exp
            return
        self.end_value(c)

    def exp(self, c: int) -> None:
        if c in (ord("+"), ord("-")):
            self.step = self.exp_sign
            return
        self.exp_sign(c)

    def exp_sign(self, c: int) -> None:
        if ord("0") <= c <= ord("9"):
            self.step = self.exp0
            return
        self.error(c, "in exponent of numeric literal")

    def exp0(self, c: int) -> None:
        if ord("0") <= c <= ord("9"):
            return
        self.end_value(c)

    def literal(self, word: str, at: int) -> Callable[[int], None]:
        def step(c: int) -> None:
            if c != ord(word[at]):
                self.error(c, f"in literal {word} (expecting '{word[at]}')")
            self.step = self.end_value if at + 1 == len(word) else self.literal(word, at + 1)
        return step


def syntax_error(data: bytes) -> str | None:
    """checkValid: Go's syntax error for ``data``, or None when it is one valid JSON value."""
    scanner = _Scanner()
    try:
        for c in data:
            scanner.step(c)
        if not scanner.end_top:
            scanner.step(ord(" "))
    except _SyntaxError as exc:
        return str(exc)
    return None if scanner.end_top else "unexpected end of JSON input"


def map_unmarshal_error(data: bytes) -> str | None:
    """The error of ``json.Unmarshal(data, &map[string]interface{}{})``, or None."""
    problem = syntax_error(data)
    if problem is not None:
        return problem
    head = data.lstrip(_SPACE)[:1]
    kind = {b"[": "array", b'"': "string", b"t": "bool", b"f": "bool", b"n": None, b"{": None}.get(head, "number")
    if kind is None:
        return None
    return f"json: cannot unmarshal {kind} into Go value of type map[string]interface {{}}"

