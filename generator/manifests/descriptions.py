"""Descriptions from docstrings, as controller-gen takes them from Go doc comments.

A class's docstring describes its type; the string literal right after a field (the attribute
docstring kgen's generated models use too) describes the field. Python keeps no attribute
docstrings at run time, so they are read from the module's source (parsed once per module); a
class whose source cannot be read (built at run time, a .pyc only) or that is defined inside a
function simply has none.

Paragraphs kgen's own generator appends to generated models' field docstrings ("Required.",
"Default: ... (applied by the server, not by this client).") are facts the schema states
itself, so they are dropped rather than repeated in the description.
"""

from __future__ import annotations

import ast
import functools
import inspect
import re
import sys

_GENERATED_PARAGRAPH = re.compile(r"^(Required\.|Default: .* \(applied by the server, not by this client\)\.)$", re.S)


def type_description(cls: type) -> str:
    doc = cls.__dict__.get("__doc__")
    return _clean(doc) if isinstance(doc, str) else ""


def field_descriptions(cls: type) -> dict[str, str]:
    """Python field name -> its attribute docstring, for the fields ``cls`` itself declares."""
    return _module_docs(cls.__module__).get(cls.__qualname__, {})


@functools.cache
def _module_docs(module_name: str) -> dict[str, dict[str, str]]:
    """Class qualname -> its fields' docstrings, for every class of a module, read in one parse
    (a generated models module holds hundreds of classes; inspect.getsource per class would
    parse it once each)."""
    module = sys.modules.get(module_name)
    try:
        source = inspect.getsource(module) if module is not None else ""
        tree = ast.parse(source)
    except (OSError, TypeError, SyntaxError):
        return {}
    found: dict[str, dict[str, str]] = {}

    def visit(body: list[ast.stmt], prefix: str) -> None:
        for node in body:
            if isinstance(node, ast.ClassDef):
                found[prefix + node.name] = _attribute_docs(node.body)
                visit(node.body, f"{prefix}{node.name}.")

    visit(tree.body, "")
    return found


def _attribute_docs(body: list[ast.stmt]) -> dict[str, str]:
    docs: dict[str, str] = {}
    for statement, following in zip(body, body[1:], strict=False):
        if (
            isinstance(statement, ast.AnnAssign)
            and isinstance(statement.target, ast.Name)
            and isinstance(following, ast.Expr)
            and isinstance(following.value, ast.Constant)
            and isinstance(following.value.value, str)
        ):
            docs[statement.target.id] = _clean(following.value.value)
    return docs


def _clean(doc: str) -> str:
    paragraphs = [p for p in inspect.cleandoc(doc).split("\n\n") if not _GENERATED_PARAGRAPH.match(p.strip())]
    return "\n\n".join(paragraphs).strip()
