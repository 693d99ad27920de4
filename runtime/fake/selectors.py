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
from kgen.runtime.apimachinery.selectors import parse_fields
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
    """A predicate from a field selector, parsed as apimachinery's fields.ParseSelector does
    (``parse_fields``: syntax, escaping, error messages; tests/integration/test_fake_vs_server_meta.py)."""
    terms = parse_fields(text)
    return lambda obj: all((_field_value(obj, term.field) == term.value) == term.equal for term in terms)


def _field_value(obj: Mapping[str, Any], path: str) -> str:
    node: Any = obj
    for part in path.split("."):
        node = node.get(part) if isinstance(node, Mapping) else None
    if node is None:
        return ""
    if isinstance(node, bool):
        return "true" if node else "false"
    return str(node)
