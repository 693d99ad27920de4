"""client-go's util/jsonpath: the JSONPath dialect of ``kubectl get -o jsonpath=`` and ``kubectl
wait --for=jsonpath=``, over plain JSON data (dicts, lists, str, int, float, bool, None).

Kubernetes' dialect is a template, not Goessner's JSONPath (which jsonpath-ng and the other PyPI
libraries implement): text outside ``{...}`` is printed as it is; inside, ``.field``, ``..field``
(recursive), ``*``, ``[n]``, ``[start:end:step]`` (negative ends count from the end), ``['key']``
(single quotes only, and read as a path: ``['a.b']`` is ``.a.b``, as client-go reads it; escape a
dot as ``\\.``), unions ``[a,b]``, filters ``[?(@.type=="Ready")]`` with ``== != < > <= >=`` or bare
existence, string, number and boolean literals. ``range``/``end`` (templates that loop) are parsed
but refused when evaluated: kubectl wait's one expression never needs them.

The rules are client-go's, down to its quirks: a missing key is an error unless
``allow_missing_keys`` (kubectl get sets it off, kubectl wait on); an index out of bounds is an
error either way; a field of a list is not found; comparing a string with a number is an error;
maps and lists print as compact JSON with sorted keys and Go's HTML escapes, scalars as Go's
``fmt`` prints them (``true``, ``3``, ``0.5``, ``null``)."""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field
from typing import Any

__all__ = ["JSONPath", "JSONPathError", "format_value", "relaxed_jsonpath_expression"]


class JSONPathError(ValueError):
    """A template that does not parse, or data it cannot be evaluated on (client-go's messages)."""


@dataclass
class _List:
    nodes: list[Any] = field(default_factory=list)


@dataclass
class _Text:
    text: str


@dataclass
class _Field:
    name: str


@dataclass
class _Param:
    value: int = 0
    known: bool = False
    derived: bool = False


@dataclass
class _Array:
    params: list[_Param]


@dataclass
class _Filter:
    left: _List
    right: _List
    operator: str


@dataclass
class _Literal:
    value: Any  # an int, a float or a bool


@dataclass
class _Wildcard:
    pass


@dataclass
class _Recursive:
    pass


@dataclass
class _Union:
    nodes: list[_List]


@dataclass
class _Identifier:
    name: str


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
        self.root = _List()

    def parse(self) -> _List:
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

    def _text(self, cur: _List) -> None:
        while True:
            if self.input.startswith("{", self.pos):
                if self.pos > self.start:
                    cur.nodes.append(_Text(self._consume()))
                self.pos += 1
                self._consume()
                node = _List()
                cur.nodes.append(node)
                self._inside(node)
                return
            if self._next() == _EOF:
                break
        if self.pos > self.start:
            cur.nodes.append(_Text(self._consume()))

    def _inside(self, cur: _List) -> None:
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
                if cur.nodes and isinstance(cur.nodes[-1], _Recursive):
                    raise JSONPathError("invalid multiple recursive descent")
                self.pos += 2
                self._consume()
                cur.nodes.append(_Recursive())
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

    def _identifier(self, cur: _List) -> None:
        while not _is_terminator(self._next()):
            pass
        self._backup()
        value = self._consume()
        if value in ("true", "false"):
            cur.nodes.append(_Literal(value == "true"))
        else:
            cur.nodes.append(_Identifier(value))

    def _number(self, cur: _List) -> None:
        if self._peek() in "+-" and self._peek() != _EOF:
            self._next()
        while True:
            r = self._next()
            if r != "." and not r.isdigit() or r == _EOF:
                self._backup()
                break
        value = self._consume()
        try:
            cur.nodes.append(_Literal(int(value)))
            return
        except ValueError:
            pass
        try:
            cur.nodes.append(_Literal(float(value)))
        except ValueError:
            raise JSONPathError(f"cannot parse number {value}") from None

    def _array(self, cur: _List) -> None:
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
            cur.nodes.append(_Union([_parse_action(f"[{part.strip(' ')}]") for part in parts]))
            return
        key = _DICT_KEY.match(text)
        if key is not None:
            cur.nodes.extend(_parse_action(f".{key.group(1)}").nodes)
            return
        match = _SLICE.match(text)
        if match is None:
            raise JSONPathError(f"invalid array index {text}")
        groups = list(match.groups())
        params = [_Param(), _Param(), _Param()]
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
                params[i] = _Param(params[0].value + 1, True, True)
        cur.nodes.append(_Array(params))

    def _filter(self, cur: _List) -> None:
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
            cur.nodes.append(_Filter(_parse_action(text), _List(), "exists"))
        else:
            cur.nodes.append(_Filter(_parse_action(match.group(1)), _parse_action(match.group(3)), match.group(2)))

    def _quote(self, cur: _List, end: str) -> None:
        while True:
            r = self._next()
            if r in (_EOF, "\n"):
                raise JSONPathError("unterminated quoted string")
            if r == end and self.input[self.pos - 2] != "\\":
                break
        value = self._consume()
        cur.nodes.append(_Text(_unquote(value)))

    def _field(self, cur: _List) -> None:
        self._consume()
        while True:
            r = self._next()
            if r == "\\":
                self._next()
            elif _is_terminator(r):
                self._backup()
                break
        value = self._consume()
        cur.nodes.append(_Wildcard() if value == "*" else _Field(value.replace("\\", "")))


def _unquote(value: str) -> str:
    """client-go's UnquoteExtend: Go's strconv.Unquote, single-quoted strings of any length too."""
    body = value[1:-1]
    try:
        decoded: str = json.loads('"' + body.replace('"', '\\"').replace("\\'", "'").replace('\\\\"', '\\"') + '"')
        return decoded
    except ValueError:
        raise JSONPathError(f"unquote string {value} error invalid syntax") from None


def _parse_action(text: str) -> _List:
    root = _Parser("{" + text + "}").parse()
    first = root.nodes[0]
    assert isinstance(first, _List)
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


_MISSING = object()


def _kind(value: Any) -> str:
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, float):
        return "float"
    if isinstance(value, str):
        return "string"
    return "other"


def _compare(operator: str, left: Any, right: Any) -> bool:
    """Go text/template's eq, ne, lt, le, gt, ge on JSON scalars."""
    kl, kr = _kind(left), _kind(right)
    if operator in ("==", "!="):
        if kl != kr or kl == "other":
            if kl == "other" and kr == "other" and left is None and right is None:
                return operator == "=="
            raise JSONPathError("incompatible types for comparison")
        return bool(left == right) == (operator == "==")
    if kl != kr:
        raise JSONPathError("incompatible types for comparison")
    if kl not in ("int", "float", "string"):
        raise JSONPathError("invalid type for comparison")
    if operator == "<":
        return bool(left < right)
    if operator == ">":
        return bool(left > right)
    if operator == "<=":
        return bool(left <= right)
    if operator == ">=":
        return bool(left >= right)
    raise JSONPathError(f"unrecognized filter operator {operator}")


def _go_float(value: float) -> str:
    """Go's %v of a float64: the shortest representation, exponent form outside [1e-4, 1e21)."""
    if math.isinf(value):
        return "+Inf" if value > 0 else "-Inf"
    if math.isnan(value):
        return "NaN"
    text = repr(value)
    if "e" in text:
        mantissa, exponent = text.split("e")
        sign = exponent[0] if exponent[0] in "+-" else "+"
        digits = exponent.lstrip("+-").rjust(2, "0")
        return f"{mantissa}e{sign}{digits}"
    if abs(value) >= 1e21:
        return f"{value:e}"
    return text[:-2] if text.endswith(".0") else text


def _go_json(value: Any) -> str:
    """encoding/json's compact Marshal: sorted keys, HTML characters escaped."""
    text = json.dumps(value, separators=(",", ":"), sort_keys=True, ensure_ascii=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def format_value(value: Any) -> str:
    """A value as Go's ``fmt.Sprintf("%v")`` prints what the JSON decoder made of it (kubectl wait
    compares this with the expected value)."""
    if value is None:
        return "<nil>"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return _go_float(value)
    if isinstance(value, (dict, list)):
        return _go_json(value)
    return str(value)


class JSONPath:
    """One parsed template: ``JSONPath("{.status.phase}").find_results(obj)`` gives, for each part of
    the template, the list of values it selects; ``execute(obj)`` prints them as ``kubectl get -o
    jsonpath`` does."""

    def __init__(self, template: str, *, allow_missing_keys: bool = False) -> None:
        self.template = template
        self.allow_missing_keys = allow_missing_keys
        self._root = _Parser(template).parse()

    def find_results(self, data: Any) -> list[list[Any]]:
        """The values each node of the template selects (client-go's FindResults)."""
        results: list[list[Any]] = []
        for node in self._root.nodes:
            results.append(self._walk([data], node))
        return results

    def execute(self, data: Any) -> str:
        """The template printed over ``data`` (client-go's Execute with its PrintResults)."""
        out: list[str] = []
        for values in self.find_results(data):
            texts = [_go_json(v) if isinstance(v, (dict, list)) else ("null" if v is None else format_value(v))
                     for v in values]
            out.append(" ".join(texts))
        return "".join(out)

    # -- evaluation ---------------------------------------------------------------------------

    def _walk(self, values: list[Any], node: Any) -> list[Any]:
        if isinstance(node, _List):
            for child in node.nodes:
                values = self._walk(values, child)
            return values
        if isinstance(node, _Text):
            return [node.text]
        if isinstance(node, _Field):
            return self._field(values, node)
        if isinstance(node, _Array):
            return self._array(values, node)
        if isinstance(node, _Filter):
            return self._filter(values, node)
        if isinstance(node, _Literal):
            return [node.value for _ in values]
        if isinstance(node, _Wildcard):
            return [child for value in values for child in _children(value)]
        if isinstance(node, _Recursive):
            return self._recursive(values)
        if isinstance(node, _Union):
            return [v for part in node.nodes for v in self._walk(values, part)]
        if isinstance(node, _Identifier):
            if node.name in ("range", "end"):
                raise JSONPathError(f"{node.name} is not supported here: give one expression")
            raise JSONPathError(f"unrecognized identifier {node.name}")
        raise JSONPathError(f"unexpected Node {node!r}")

    def _field(self, values: list[Any], node: _Field) -> list[Any]:
        results = [value[node.name] for value in values if isinstance(value, dict) and node.name in value]
        if not results and values and not self.allow_missing_keys:
            raise JSONPathError(f"{node.name} is not found")
        return results

    def _array(self, values: list[Any], node: _Array) -> list[Any]:
        results: list[Any] = []
        for value in values:
            if value is None:
                continue
            if not isinstance(value, list):
                raise JSONPathError(f"{_go_type(value)} is not array or slice")
            length = len(value)
            start = node.params[0].value if node.params[0].known else 0
            if start < 0:
                start += length
            end = node.params[1].value if node.params[1].known else length
            if end < 0 or (end == 0 and node.params[1].derived):
                end += length
            if end == start:
                return results
            if start >= length or start < 0:
                raise JSONPathError(f"array index out of bounds: index {start}, length {length}")
            if end > length or end < 0:
                raise JSONPathError(f"array index out of bounds: index {end - 1}, length {length}")
            if start > end:
                raise JSONPathError(f"starting index {start} is greater than ending index {end}")
            step = 1
            if node.params[2].known:
                if node.params[2].value <= 0:
                    raise JSONPathError("step must be > 0")
                step = node.params[2].value
            results.extend(value[start:end:step])
        return results

    def _filter(self, values: list[Any], node: _Filter) -> list[Any]:
        results: list[Any] = []
        for value in values:
            if not isinstance(value, list):
                raise JSONPathError(f"{format_value(value)} is not array or slice and cannot be filtered")
            for item in value:
                try:
                    lefts = self._walk([item], node.left)
                except JSONPathError:
                    if node.operator == "exists":
                        continue
                    raise
                if node.operator == "exists":
                    if lefts:
                        results.append(item)
                    continue
                if not lefts:
                    continue
                if len(lefts) > 1:
                    raise JSONPathError("can only compare one element at a time")
                rights = self._walk([item], node.right)
                if not rights:
                    continue
                if len(rights) > 1:
                    raise JSONPathError("can only compare one element at a time")
                if _compare(node.operator, lefts[0], rights[0]):
                    results.append(item)
        return results

    def _recursive(self, values: list[Any]) -> list[Any]:
        results: list[Any] = []
        for value in values:
            if value is None:
                continue
            children = _children(value)
            if children:
                results.append(value)
                results.extend(self._recursive(children))
        return results


def _children(value: Any) -> list[Any]:
    if isinstance(value, dict):
        return list(value.values())
    if isinstance(value, list):
        return list(value)
    if isinstance(value, str):
        return list(value.encode())  # Go indexes a string's bytes
    return []


def _go_type(value: Any) -> str:
    return {dict: "map[string]interface {}", str: "string", bool: "bool", int: "int64", float: "float64"}.get(
        type(value), "interface {}")
