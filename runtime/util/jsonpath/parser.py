"""client-go's util/jsonpath parser (parser.go, node.go): a template into nodes. The scanner
follows client-go's rune by rune, so that what it accepts, refuses and how it reads each form
(``['a.b']`` as the path ``.a.b``, a number as an int before a float, ``true``/``false`` as
booleans) is client-go's; the error messages are its too."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "ArrayNode", "FieldNode", "FilterNode", "IdentifierNode", "JSONPathError", "ListNode", "LiteralNode", "Node",
    "ParamsEntry", "RecursiveNode", "TextNode", "UnionNode", "WildcardNode", "parse", "relaxed_jsonpath_expression",
]


class JSONPathError(ValueError):
    """A template that does not parse, or data it cannot be evaluated on (client-go's messages)."""


@dataclass
class ListNode:
    """A sequence of nodes: the template, or one ``{...}`` action, evaluated in turn."""

    nodes: list[Any] = field(default_factory=list)


@dataclass
class TextNode:
    """Text printed as it is (outside an action), or a quoted string literal inside one."""

    text: str


@dataclass
class FieldNode:
    """``.name``: the value of a map key."""

    name: str


@dataclass
class ParamsEntry:
    """One of a slice's start, end and step: its value, whether it was given, whether derived from start."""

    value: int = 0
    known: bool = False
    derived: bool = False


@dataclass
class ArrayNode:
    """``[i]``, ``[start:end:step]``, ``[*]``: elements of a list."""

    params: list[ParamsEntry]


@dataclass
class FilterNode:
    """``[?(left op right)]`` (or ``[?(@.x)]``, operator "exists"): the list elements for which it holds."""

    left: ListNode
    right: ListNode
    operator: str


@dataclass
class LiteralNode:
    """A number (int, else float) or a boolean."""

    value: Any  # an int, a float or a bool


@dataclass
class WildcardNode:
    """``.*``: every value of a map, element of a list (byte of a string)."""

    pass


@dataclass
class RecursiveNode:
    """``..``: the value and everything beneath it."""

    pass


@dataclass
class UnionNode:
    """``[a,b]``: the values of each alternative, in turn."""

    nodes: list[ListNode]


@dataclass
class IdentifierNode:
    """A bare word: ``range`` and ``end`` loop; any other is an error when evaluated."""

    name: str


Node = (ListNode | TextNode | FieldNode | ArrayNode | FilterNode | LiteralNode | WildcardNode | RecursiveNode | UnionNode
        | IdentifierNode)
"""One node of a parsed template."""

_DICT_KEY = re.compile(r"^'([^']*)'$")
_SLICE = re.compile(r"^(-?\d*)(:-?\d*)?(:-?\d*)?$")
_FILTER = re.compile(r"^([^!<>=]+)([!<>=]+)(.+?)$", re.S)
_EOF = ""


def _is_terminator(r: str) -> bool:
    return r in (_EOF, " ", "\t", "\r", "\n", ".", ",", "[", "]", "$", "@", "{", "}")


def _is_alphanumeric(r: str) -> bool:
    return r == "_" or r.isalpha() or r.isdigit()


class _Parser:
    """client-go's parser.go: a hand-written scanner over the template."""

    def __init__(self, text: str) -> None:
        self.input = text
        self.pos = 0
        self.start = 0
        self.width = 0
        self.root = ListNode()

    def parse(self) -> ListNode:
        self._text(self.root)
        return self.root

    def _next(self) -> str:
        if self.pos >= len(self.input):
            self.width = 0
            return _EOF
        r = self.input[self.pos]
        self.width = 1
        self.pos += 1
        return r

    def _peek(self) -> str:
        r = self._next()
        self._backup()
        return r

    def _backup(self) -> None:
        self.pos -= self.width

    def _consume(self) -> str:
        value = self.input[self.start:self.pos]
        self.start = self.pos
        return value

    def _text(self, cur: ListNode) -> None:
        while True:
            if self.input.startswith("{", self.pos):
                if self.pos > self.start:
                    cur.nodes.append(TextNode(self._consume()))
                self.pos += 1
                self._consume()
                node = ListNode()
                cur.nodes.append(node)
                self._inside(node)
                return
            if self._next() == _EOF:
                break
        if self.pos > self.start:
            cur.nodes.append(TextNode(self._consume()))

    def _inside(self, cur: ListNode) -> None:
        while True:
            rest = self.input[self.pos:]
            if rest.startswith("}"):
                self.pos += 1
                self._consume()
                self._text(self.root)
                return
            if rest.startswith("[?("):
                self._filter(cur)
                continue
            if rest.startswith(".."):
                if cur.nodes and isinstance(cur.nodes[-1], RecursiveNode):
                    raise JSONPathError("invalid multiple recursive descent")
                self.pos += 2
                self._consume()
                cur.nodes.append(RecursiveNode())
                if _is_alphanumeric(self._peek()):
                    self._field(cur)
                continue
            r = self._next()
            if r == _EOF or r in "\r\n":
                raise JSONPathError("unclosed action")
            if r in (" ", "@", "$"):
                self._consume()
            elif r == "[":
                self._array(cur)
            elif r in ("'", '"'):
                self._quote(cur, r)
            elif r == ".":
                self._field(cur)
            elif r in "+-" or r.isdigit():
                self._backup()
                self._number(cur)
            elif _is_alphanumeric(r):
                self._backup()
                self._identifier(cur)
            else:
                raise JSONPathError(f"unrecognized character in action: U+{ord(r):04X} {r!r}")

    def _identifier(self, cur: ListNode) -> None:
        while not _is_terminator(self._next()):
            pass
        self._backup()
        value = self._consume()
        if value in ("true", "false"):
            cur.nodes.append(LiteralNode(value == "true"))
        else:
            cur.nodes.append(IdentifierNode(value))

    def _number(self, cur: ListNode) -> None:
        if self._peek() in "+-" and self._peek() != _EOF:
            self._next()
        while True:
            r = self._next()
            if r != "." and not r.isdigit() or r == _EOF:
                self._backup()
                break
        value = self._consume()
        try:
            cur.nodes.append(LiteralNode(int(value)))
            return
        except ValueError:
            pass
        try:
            cur.nodes.append(LiteralNode(float(value)))
        except ValueError:
            raise JSONPathError(f"cannot parse number {value}") from None

    def _array(self, cur: ListNode) -> None:
        while True:
            r = self._next()
            if r in (_EOF, "\n"):
                raise JSONPathError("unterminated array")
            if r == "]":
                break
        text = self._consume()[1:-1]
        if text == "*":
            text = ":"
        parts = text.split(",")
        if len(parts) > 1:
            cur.nodes.append(UnionNode([_parse_action(f"[{part.strip(' ')}]") for part in parts]))
            return
        key = _DICT_KEY.match(text)
        if key is not None:
            cur.nodes.extend(_parse_action(f".{key.group(1)}").nodes)
            return
        match = _SLICE.match(text)
        if match is None:
            raise JSONPathError(f"invalid array index {text}")
        groups = list(match.groups())
        params = [ParamsEntry(), ParamsEntry(), ParamsEntry()]
        for i in range(3):
            value = groups[i] or ""
            if value:
                if i > 0:
                    value = value[1:]
                if i > 0 and value == "":
                    params[i].known = False
                else:
                    params[i].known = True
                    try:
                        params[i].value = int(value)
                    except ValueError:
                        raise JSONPathError(f"array index {value} is not a number") from None
            elif i == 1:
                params[i] = ParamsEntry(params[0].value + 1, True, True)
        cur.nodes.append(ArrayNode(params))

    def _filter(self, cur: ListNode) -> None:
        self.pos += 3
        self._consume()
        begin = end = False
        pair = ""
        while True:
            r = self._next()
            if r in (_EOF, "\n"):
                raise JSONPathError("unterminated filter")
            if r in ("'", '"'):
                if not begin:
                    begin, pair = True, r
                    continue
                if self.input[self.pos - 2] != "\\" and r == pair:
                    end = True
            elif r == ")" and begin == end:
                break
        if self._next() != "]":
            raise JSONPathError("unclosed array expect ]")
        text = self._consume()[:-2]
        match = _FILTER.match(text)
        if match is None:
            cur.nodes.append(FilterNode(_parse_action(text), ListNode(), "exists"))
        else:
            cur.nodes.append(FilterNode(_parse_action(match.group(1)), _parse_action(match.group(3)), match.group(2)))

    def _quote(self, cur: ListNode, end: str) -> None:
        while True:
            r = self._next()
            if r in (_EOF, "\n"):
                raise JSONPathError("unterminated quoted string")
            if r == end and self.input[self.pos - 2] != "\\":
                break
        value = self._consume()
        cur.nodes.append(TextNode(_unquote(value)))

    def _field(self, cur: ListNode) -> None:
        self._consume()
        while True:
            r = self._next()
            if r == "\\":
                self._next()
            elif _is_terminator(r):
                self._backup()
                break
        value = self._consume()
        cur.nodes.append(WildcardNode() if value == "*" else FieldNode(value.replace("\\", "")))


_ESCAPES = {"a": "\a", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "v": "\v", "\\": "\\", "'": "'", '"': '"'}
_ESCAPE = re.compile(r"\\(?:([abfnrtv\\'\"])|x([0-9a-fA-F]{2})|u([0-9a-fA-F]{4})|U([0-9a-fA-F]{8})|([0-7]{3})|(.|$))")


def _unquote(value: str) -> str:
    """client-go's UnquoteExtend: Go's strconv.Unquote escapes, in double- or single-quoted strings
    of any length."""
    body, quote = value[1:-1], value[0]

    def escape(match: re.Match[str]) -> str:
        simple, hex2, hex4, hex8, octal, bad = match.groups()
        if simple is not None:
            if simple in "'\"" and simple != quote:
                raise JSONPathError(f"unquote string {value} error invalid syntax")
            return _ESCAPES[simple]
        if bad is not None:
            raise JSONPathError(f"unquote string {value} error invalid syntax")
        return chr(int(hex2 or hex4 or hex8 or octal, 8 if octal else 16))
    return _ESCAPE.sub(escape, body)


def _parse_action(text: str) -> ListNode:
    root = _Parser("{" + text + "}").parse()
    first = root.nodes[0]
    assert isinstance(first, ListNode)
    return first


def relaxed_jsonpath_expression(expression: str) -> str:
    """kubectl's RelaxedJSONPathExpression: ``a.b``, ``.a.b``, ``{a.b}`` and ``{.a.b}`` all become ``{.a.b}``."""
    if not expression:
        return expression
    match = re.fullmatch(r"\{\.?([^{}]+)\}|\.?([^{}]+)", expression)
    if match is None:
        raise JSONPathError(
            "unexpected path string, expected a 'name1.name2' or '.name1.name2' or '{name1.name2}' or '{.name1.name2}'"
        )
    return "{." + (match.group(1) or match.group(2)) + "}"


def parse(template: str) -> ListNode:
    """The template's nodes: text outside ``{...}``, a ``ListNode`` for each action."""
    return _Parser(template).parse()
