"""Label and field selectors: strings, or built with a small typed builder.

    labels(app="web").in_("tier", ["fe", "be"]).exists("canary")   # app=web,tier in (be,fe),canary
    fields(**{"metadata.name": "x"}).ne("status.phase", "Running")  # metadata.name=x,status.phase!=Running

Anything that takes a selector takes a string too; ``str(selector)`` is the wire form.
``parse_fields`` reads a field selector back as apimachinery's fields.ParseSelector does (the
fake apiserver's field selectors and the controller cache's exact field reads share it).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import NamedTuple

from kgen.runtime.apimachinery.labels import SelectorError

_LABEL_VALUE = re.compile(r"^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$")


def _check_value(value: str) -> str:
    if len(value) > 63 or not _LABEL_VALUE.match(value):
        raise ValueError(f"invalid label value {value!r}")
    return value


def _value_set(key: str, values: Iterable[str]) -> str:
    checked = sorted(_check_value(v) for v in values)
    if not checked:
        raise ValueError(f"{key}: in and notin need at least one value")  # the server would refuse it
    return ",".join(checked)


class LabelSelector:
    """A label selector built term by term: ``LabelSelector().eq("app", "web").exists("tier")``; its
    ``str()`` is what the server is sent. Values are checked as label values."""

    def __init__(self) -> None:
        self._terms: list[str] = []

    def eq(self, key: str, value: str) -> "LabelSelector":
        """Add ``key=value``; returns the selector."""
        self._terms.append(f"{key}={_check_value(value)}")
        return self

    def ne(self, key: str, value: str) -> "LabelSelector":
        """Add ``key!=value``; returns the selector."""
        self._terms.append(f"{key}!={_check_value(value)}")
        return self

    def in_(self, key: str, values: Iterable[str]) -> "LabelSelector":
        """Add ``key in (values)`` (at least one value); returns the selector."""
        self._terms.append(f"{key} in ({_value_set(key, values)})")
        return self

    def not_in(self, key: str, values: Iterable[str]) -> "LabelSelector":
        """Add ``key notin (values)`` (at least one value); returns the selector."""
        self._terms.append(f"{key} notin ({_value_set(key, values)})")
        return self

    def exists(self, key: str) -> "LabelSelector":
        """Add ``key`` (the label is present); returns the selector."""
        self._terms.append(key)
        return self

    def does_not_exist(self, key: str) -> "LabelSelector":
        """Add ``!key`` (the label is absent); returns the selector."""
        self._terms.append(f"!{key}")
        return self

    def __str__(self) -> str:
        return ",".join(self._terms)

    def __repr__(self) -> str:
        return f"LabelSelector({str(self)!r})"


class FieldSelector:
    """A field selector built term by term: ``FieldSelector().eq("metadata.name", "web")``; its
    ``str()`` is what the server is sent, values escaped."""

    def __init__(self) -> None:
        self._terms: list[str] = []

    @staticmethod
    def _escape(value: str) -> str:
        # fields.EscapeValue: backslash, comma and equals are escaped
        return value.replace("\\", "\\\\").replace(",", "\\,").replace("=", "\\=")

    def eq(self, field: str, value: str) -> "FieldSelector":
        """Add ``field=value``; returns the selector."""
        self._terms.append(f"{field}={self._escape(value)}")
        return self

    def ne(self, field: str, value: str) -> "FieldSelector":
        """Add ``field!=value``; returns the selector."""
        self._terms.append(f"{field}!={self._escape(value)}")
        return self

    def __str__(self) -> str:
        return ",".join(self._terms)

    def __repr__(self) -> str:
        return f"FieldSelector({str(self)!r})"


def labels(**equal: str) -> LabelSelector:
    """A label selector of equalities: ``labels(app="web")``."""
    selector = LabelSelector()
    for key, value in equal.items():
        selector.eq(key, value)
    return selector


def fields(**equal: str) -> FieldSelector:
    """A field selector of equalities (names with dots need ``FieldSelector().eq``)."""
    selector = FieldSelector()
    for key, value in equal.items():
        selector.eq(key, value)
    return selector


# -- apimachinery's fields.ParseSelector (pkg/fields/selector.go), with its error messages --------


class FieldRequirement(NamedTuple):
    """One term of a parsed field selector: ``field``, its operator as written (``=``, ``==`` or
    ``!=``) and the unescaped value."""

    field: str
    operator: str
    value: str

    @property
    def equal(self) -> bool:
        """Whether the term asks for equality (``=`` or ``==``), not inequality (``!=``)."""
        return self.operator != "!="


def parse_fields(selector: str | object | None) -> list[FieldRequirement]:
    """The terms of a field selector (a string, or anything whose ``str()`` is one) as
    fields.ParseSelector reads them: cut at the commas no backslash escapes, sorted, empty terms
    skipped, each split at its first ``!=``, ``==`` or ``=``, the value unescaped (fields.EscapeValue's
    ``\\,``, ``\\=``, ``\\\\``). ``SelectorError`` (a ``ValueError``) with apimachinery's words for
    a selector that does not parse (tests/integration/test_fake_vs_server_meta.py compares them)."""
    text = "" if selector is None else str(selector)
    requirements: list[FieldRequirement] = []
    for term in sorted(_split_terms(text)):
        if not term:
            continue
        at, op = next(((i, op) for i in range(len(term)) for op in ("!=", "==", "=") if term.startswith(op, i)),
                      (-1, ""))
        if at < 0:
            raise SelectorError(f"invalid selector: '{text}'; can't understand '{term}'")
        requirements.append(FieldRequirement(term[:at], op, _unescape_value(term[at + len(op):])))
    return requirements


def _split_terms(selector: str) -> list[str]:
    """fields' splitTerms: the selector cut at the commas no backslash escapes."""
    terms, start, escaped = [], 0, False
    for i, char in enumerate(selector):
        if escaped:
            escaped = False
        elif char == "\\":
            escaped = True
        elif char == ",":
            terms.append(selector[start:i])
            start = i + 1
    terms.append(selector[start:])
    return terms


def _unescape_value(value: str) -> str:
    """fields.UnescapeValue: a backslash before a backslash, a comma or an equals sign stands for it."""
    out, escaped = [], False
    for char in value:
        if escaped:
            if char not in "\\,=":
                raise SelectorError(f"invalid field selector: invalid escape sequence: \\{char}")
            out.append(char)
            escaped = False
        elif char == "\\":
            escaped = True
        elif char in ",=":
            raise SelectorError(f"invalid field selector: unescaped character in value: {ord(char)}")
        else:
            out.append(char)
    if escaped:
        raise SelectorError("invalid field selector: invalid escape sequence: \\")
    return "".join(out)
