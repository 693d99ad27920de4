"""Counting narrowing sites: the constructs in user code that exist only to satisfy the type
checker, found by walking the AST (and the comments), never by hand marks.

A site is one of:

- ``x is None`` / ``x is not None`` (one per comparison);
- ``assert ...``;
- a fallback ``x or <literal>``: ``or []``, ``or {}``, ``or ""``, ``or 0``, any other literal
  constant, or an empty ``list()``/``dict()``/``set()``/``tuple()`` (one per fallback operand);
- ``cast(...)`` / ``typing.cast(...)``;
- ``isinstance(...)``;
- a bare attribute tested for truth (``if d.metadata:``, ``d.metadata.name if d.metadata else ""``,
  ``a.b and a.b.c``): the truthiness spelling of ``is not None``, counted so that writing it
  that way does not hide a site;
- a ``# type: ignore`` comment.

The same counter runs over every client's version of a task (tests/typing/test_peers.py), so a
construct counts the same whichever client needs it.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from collections import Counter

_IGNORE = re.compile(r"#\s*type:\s*ignore")
_EMPTY_CALLS = {"list", "dict", "set", "tuple"}


def _is_fallback(node: ast.expr) -> bool:
    if isinstance(node, ast.Constant):
        return node.value is not None
    if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
        return not node.elts
    if isinstance(node, ast.Dict):
        return not node.keys
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _EMPTY_CALLS
            and not node.args and not node.keywords)


def _called(node: ast.Call) -> str | None:
    if isinstance(node.func, ast.Name):
        return node.func.id
    if isinstance(node.func, ast.Attribute):
        return node.func.attr
    return None


def _truth_tests(tree: ast.AST) -> list[ast.expr]:
    """The expressions tested for truth: conditions of if/while/ternaries/comprehension filters,
    operands of ``and``/``or``/``not``."""
    tests: list[ast.expr] = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.If, ast.While, ast.IfExp)):
            tests.append(node.test)
        elif isinstance(node, ast.comprehension):
            tests.extend(node.ifs)
        elif isinstance(node, ast.BoolOp):
            # ``a or <literal>`` is a fallback, counted as such; its left operand is not a test.
            tests.extend(v for v in node.values if not (isinstance(node.op, ast.Or) and len(node.values) == 2
                                                        and _is_fallback(node.values[1])))
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            tests.append(node.operand)
    return tests


def narrowing_sites(source: str) -> Counter[str]:
    """The narrowing sites of ``source``, by kind (see the module docstring)."""
    tree = ast.parse(source)
    sites: Counter[str] = Counter()
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            for op, left, right in zip(node.ops, operands, operands[1:]):
                if isinstance(op, (ast.Is, ast.IsNot)) and any(
                    isinstance(x, ast.Constant) and x.value is None for x in (left, right)
                ):
                    sites["is None"] += 1
        elif isinstance(node, ast.Assert):
            sites["assert"] += 1
        elif isinstance(node, ast.BoolOp) and isinstance(node.op, ast.Or):
            sites["or fallback"] += sum(_is_fallback(v) for v in node.values[1:])
        elif isinstance(node, ast.Call) and _called(node) == "cast":
            sites["cast"] += 1
        elif isinstance(node, ast.Call) and _called(node) == "isinstance":
            sites["isinstance"] += 1
    sites["truthiness"] += sum(isinstance(t, ast.Attribute) for t in _truth_tests(tree))
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT and _IGNORE.search(token.string):
            sites["type: ignore"] += 1
    return +sites
