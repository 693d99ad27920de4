"""Label and field selectors on lists, watches and deletecollection, as the apiserver reads them.

Label selectors use apimachinery's parser (``kgen.runtime.apimachinery.labels``), so a selector
the apiserver refuses is a 400 here too, in its words. Field selectors are parsed as
apimachinery's fields.ParseSelector parses them (syntax, escaping, error messages) but are
looser than the apiserver's on purpose: any dotted path works (the apiserver allows only a few
fields per resource), so tests need not know each resource's list.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import httpx

from kgen.runtime.apimachinery.labels import SelectorError, parse
from kgen.runtime.apimachinery.meta import labels_of
from kgen.runtime.fake.errors import bad_request

Predicate = Callable[[Mapping[str, Any]], bool]
"""Whether an object matches (a label or field selector)."""


def selector(params: httpx.QueryParams) -> Predicate:
    """The request's ``labelSelector`` and ``fieldSelector`` as one predicate; 400 if either is invalid."""
    try:
        by_labels = parse(params.get("labelSelector"))
        by_fields = _field_selector(params.get("fieldSelector"))
    except SelectorError as e:
        raise bad_request(str(e)) from None
    return lambda obj: by_labels(labels_of(obj)) and by_fields(obj)


def _field_selector(text: str | None) -> Predicate:
    """A predicate from a field selector, parsed as apimachinery's fields.ParseSelector does:
    comma-separated terms (``\\,`` escapes a comma), empty terms skipped, each split at its
    first ``!=``, ``==`` or ``=``, the value unescaped (fields.EscapeValue's ``\\,``, ``\\=``,
    ``\\\\``), with its error messages (tests/integration/test_fake_vs_server_meta.py)."""
    selector = text or ""
    terms: list[tuple[str, bool, str]] = []
    for term in sorted(_split_terms(selector)):
        if not term:
            continue
        for at in range(len(term)):
            op = next((op for op in ("!=", "==", "=") if term.startswith(op, at)), None)
            if op is not None:
                terms.append((term[:at], op != "!=", _unescape_value(term[at + len(op):])))
                break
        else:
            raise SelectorError(f"invalid selector: '{selector}'; can't understand '{term}'")
    return lambda obj: all((_field_value(obj, path) == value) == equal for path, equal, value in terms)


def _split_terms(selector: str) -> list[str]:
    """fields' splitTerms: split at the commas no backslash escapes."""
    if not selector:
        return []
    terms, start, in_slash = [], 0, False
    for i, char in enumerate(selector):
        if in_slash:
            in_slash = False
        elif char == "\\":
            in_slash = True
        elif char == ",":
            terms.append(selector[start:i])
            start = i + 1
    terms.append(selector[start:])
    return terms


def _unescape_value(value: str) -> str:
    """fields.UnescapeValue, with its errors."""
    if not any(c in value for c in "\\,="):
        return value
    out, in_slash = "", False
    for char in value:
        if in_slash:
            if char not in "\\,=":
                raise SelectorError(f"invalid field selector: invalid escape sequence: \\{char}")
            out += char
            in_slash = False
        elif char == "\\":
            in_slash = True
        elif char in ",=":
            raise SelectorError(f"invalid field selector: unescaped character in value: {ord(char)}")
        else:
            out += char
    if in_slash:
        raise SelectorError("invalid field selector: invalid escape sequence: \\")
    return out


def _field_value(obj: Mapping[str, Any], path: str) -> str:
    node: Any = obj
    for part in path.split("."):
        node = node.get(part) if isinstance(node, Mapping) else None
    if node is None:
        return ""
    if isinstance(node, bool):
        return "true" if node else "false"
    return str(node)
