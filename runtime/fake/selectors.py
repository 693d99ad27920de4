"""Label and field selectors on lists, watches and deletecollection, as the apiserver reads them.

Label selectors use apimachinery's parser (``kgen.runtime.apimachinery.labels``), so a selector
the apiserver refuses is a 400 here too. Field selectors are looser than the apiserver's, on
purpose: any dotted path works (the apiserver allows only a few fields per resource), with the
same syntax and escaping (``fields.EscapeValue``), so tests need not know each resource's list.
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
    """A predicate from a field selector: ``a.b=v``, ``a.b==v``, ``a.b!=v``, comma-separated,
    values escaped as fields.EscapeValue does (``\\,``, ``\\=``, ``\\\\``)."""
    terms: list[tuple[str, bool, str]] = []
    for term in _split_unescaped((text or "").strip(), ",") if (text or "").strip() else []:
        for op in ("!=", "==", "="):
            at = term.find(op)
            if at > 0:
                terms.append((term[:at].strip(), op != "!=", _unescape(term[at + len(op):])))
                break
        else:
            raise SelectorError(f"invalid selector: '{text}'; can't understand '{term}'")
    return lambda obj: all((_field_value(obj, path) == value) == equal for path, equal, value in terms)


def _field_value(obj: Mapping[str, Any], path: str) -> str:
    node: Any = obj
    for part in path.split("."):
        node = node.get(part) if isinstance(node, Mapping) else None
    if node is None:
        return ""
    if isinstance(node, bool):
        return "true" if node else "false"
    return str(node)


def _split_unescaped(text: str, sep: str) -> list[str]:
    parts, current, escaped = [], "", False
    for char in text:
        if escaped:
            current += "\\" + char
            escaped = False
        elif char == "\\":
            escaped = True
        elif char == sep:
            parts.append(current)
            current = ""
        else:
            current += char
    parts.append(current + ("\\" if escaped else ""))
    return parts


def _unescape(value: str) -> str:
    out, escaped = "", False
    for char in value:
        if escaped:
            out += char
            escaped = False
        elif char == "\\":
            escaped = True
        else:
            out += char
    return out
