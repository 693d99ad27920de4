"""Descriptions from docstrings, as controller-gen takes them from Go doc comments.

A class's docstring describes its type; the string literal right after a field (the attribute
docstring kgen's generated models use too) describes the field. Python keeps no attribute
docstrings at run time, so they are read from the class's source; a class whose source cannot
be read (built at run time, a .pyc only) simply has none.

Paragraphs kgen's own generator appends to generated models' field docstrings ("Required.",
"Default: ... (applied by the server, not by this client).") are facts the schema states
itself, so they are dropped rather than repeated in the description.
"""

from __future__ import annotations

import ast
import inspect
import re
import textwrap

_GENERATED_PARAGRAPH = re.compile(r"^(Required\.|Default: .* \(applied by the server, not by this client\)\.)$", re.S)


def type_description(cls: type) -> str:
    doc = cls.__dict__.get("__doc__")
    return _clean(doc) if isinstance(doc, str) else ""


def field_descriptions(cls: type) -> dict[str, str]:
    """Python field name -> its attribute docstring, for the fields ``cls`` itself declares."""
    try:
        source = textwrap.dedent(inspect.getsource(cls))
        tree = ast.parse(source)
    except (OSError, TypeError, SyntaxError):
        return {}
    if not tree.body or not isinstance(tree.body[0], ast.ClassDef):
        return {}
    found: dict[str, str] = {}
    body = tree.body[0].body
    for statement, following in zip(body, body[1:]):
        if (
            isinstance(statement, ast.AnnAssign)
            and isinstance(statement.target, ast.Name)
            and isinstance(following, ast.Expr)
            and isinstance(following.value, ast.Constant)
            and isinstance(following.value.value, str)
        ):
            found[statement.target.id] = _clean(following.value.value)
    return found


def _clean(doc: str) -> str:
    paragraphs = [p for p in inspect.cleandoc(doc).split("\n\n") if not _GENERATED_PARAGRAPH.match(p.strip())]
    return "\n\n".join(paragraphs).strip()
