"""client-go's util/jsonpath (jsonpath.go): the JSONPath dialect of ``kubectl get -o jsonpath=``
and ``kubectl wait --for=jsonpath=``, over plain JSON data (dicts, lists, str, int, float, bool, None).

Kubernetes' dialect is a template, not Goessner's JSONPath (which jsonpath-ng and the other PyPI
libraries implement): text outside ``{...}`` is printed as it is; inside, ``.field``, ``..field``
(recursive), ``*``, ``[n]``, ``[start:end:step]`` (negative ends count from the end), ``['key']``
(single quotes only, and read as a path: ``['a.b']`` is ``.a.b``, as client-go reads it; escape a
dot as ``\\.``), unions ``[a,b]``, filters ``[?(@.type=="Ready")]`` with ``== != < > <= >=`` or bare
existence, string, number and boolean literals, and ``{range X}...{end}`` loops.

The rules are client-go's, down to its quirks: a missing key is an error unless
``allow_missing_keys`` (kubectl get's ``--allow-missing-template-keys``, true by default; kubectl
wait always allows them); an index out of bounds is an
error either way; a field of a list is not found; comparing a string with a number is an error;
maps and lists print as compact JSON with sorted keys and Go's HTML escapes, scalars as Go's
``fmt`` prints them (``true``, ``3``, ``0.5``, ``null``)."""

from __future__ import annotations

import json
import math
from typing import Any

from kgen.runtime.util.jsonpath.parser import (
    ArrayNode,
    FieldNode,
    FilterNode,
    IdentifierNode,
    JSONPathError,
    ListNode,
    LiteralNode,
    RecursiveNode,
    TextNode,
    UnionNode,
    WildcardNode,
    parse,
)

__all__ = ["JSONPath", "format_value"]


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
        self._root = parse(template)

    def find_results(self, data: Any) -> list[list[Any]]:
        """The values each node of the template selects (client-go's FindResults); the nodes between
        ``{range X}`` and its ``{end}`` once for each value X selects."""
        return self._find(data, self._root.nodes)

    def _find(self, data: Any, nodes: list[Any]) -> list[list[Any]]:
        results: list[list[Any]] = []
        i = 0
        while i < len(nodes):
            node = nodes[i]
            if _action(node) == "end":
                raise JSONPathError("not in range, nothing to end")
            if _action(node) != "range":
                results.append(self._walk([data], node))
                i += 1
                continue
            end, depth = i + 1, 1
            while end < len(nodes):
                depth += {"range": 1, "end": -1}.get(_action(nodes[end]), 0)
                if depth == 0:
                    break
                end += 1
            body = nodes[i + 1:end]
            for value in self._walk([data], ListNode(node.nodes[1:])):
                results.extend(self._find(value, body))
            i = end + 1
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
        if isinstance(node, ListNode):
            for child in node.nodes:
                values = self._walk(values, child)
            return values
        if isinstance(node, TextNode):
            return [node.text]
        if isinstance(node, FieldNode):
            return self._field(values, node)
        if isinstance(node, ArrayNode):
            return self._array(values, node)
        if isinstance(node, FilterNode):
            return self._filter(values, node)
        if isinstance(node, LiteralNode):
            return [node.value for _ in values]
        if isinstance(node, WildcardNode):
            return [child for value in values for child in _children(value)]
        if isinstance(node, RecursiveNode):
            return self._recursive(values)
        if isinstance(node, UnionNode):
            return [v for part in node.nodes for v in self._walk(values, part)]
        if isinstance(node, IdentifierNode):
            if node.name == "end":
                raise JSONPathError("not in range, nothing to end")
            raise JSONPathError(f"unrecognized identifier {node.name}")
        raise JSONPathError(f"unexpected Node {node!r}")

    def _field(self, values: list[Any], node: FieldNode) -> list[Any]:
        results = [value[node.name] for value in values if isinstance(value, dict) and node.name in value]
        if not results and values and not self.allow_missing_keys:
            raise JSONPathError(f"{node.name} is not found")
        return results

    def _array(self, values: list[Any], node: ArrayNode) -> list[Any]:
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

    def _filter(self, values: list[Any], node: FilterNode) -> list[Any]:
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


def _action(node: Any) -> str:
    """"range" or "end" for the action ``{range ...}`` or ``{end}``, else ""."""
    if isinstance(node, ListNode) and node.nodes and isinstance(node.nodes[0], IdentifierNode):
        return node.nodes[0].name if node.nodes[0].name in ("range", "end") else ""
    return ""


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
