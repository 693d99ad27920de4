"""A kind's plural as controller-gen makes it: ``strings.ToLower(flect.Pluralize(kind))``.

controller-gen (``pkg/crd/spec.go``) names a CRD's resource with github.com/gobuffalo/flect's
English pluralization, which is more than ``-s``: ``Gizmo`` -> ``gizmoes``, ``Policy`` ->
``policies``, ``Index`` -> ``indices``, ``Person`` -> ``people``, ``Data`` -> ``data``. flect
splits a CamelCase name into words (``CronJob``: ``Cron``, ``Job``; an acronym it knows, such as
``API``, is one word), pluralizes the last one by its dictionary, then by its suffix rules (the
first that matches, dictionary words first), else adds ``s`` unless the word ends in ``s``.
The word lists are flect's own (flect_tables.py, extracted from its source by
hack/controller-gen/flect_tables.py); tests/integration/test_manifests_plural_vs_flect.py compares
this with flect itself.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable

from .flect_tables import ACRONYMS, DICTIONARY, SUFFIXES

_SPACES = "_ :-/"


def _tables() -> tuple[dict[str, str], dict[str, str], list[tuple[str, Callable[[str], str]]]]:
    single_to_plural: dict[str, str] = {}
    plural_to_single: dict[str, str] = {}
    for singular, plural, alternative, unidirectional, uncountable, _exact in DICTIONARY:
        plural = singular if uncountable and not plural else plural
        single_to_plural[singular] = plural
        if not unidirectional:
            plural_to_single[plural] = singular
            if alternative:
                plural_to_single[alternative] = singular
    rules: list[tuple[str, Callable[[str], str]]] = []

    def insert(suffix: str, repl: str) -> None:  # flect's InsertPluralRule: both put first
        rules[:0] = [(repl, lambda s: s), (suffix, lambda s: s[: len(s) - len(suffix)] + repl)]

    for singular, plural in reversed(SUFFIXES):
        insert(singular, plural)
    for singular, plural, _alternative, _unidirectional, uncountable, exact in DICTIONARY:
        if not exact:
            insert(singular, singular if uncountable and not plural else plural)
    return single_to_plural, plural_to_single, rules


_SINGLE_TO_PLURAL, _PLURAL_TO_SINGLE, _RULES = _tables()


def _is_space(c: str) -> bool:
    return c in _SPACES or c.isspace()


def _append(parts: list[str], word: str) -> None:
    word = word.strip()
    for c in _SPACES:
        word = word.strip(c)
    if word.upper() in ACRONYMS:
        word = word.upper()
    if word:
        parts.append(word)


def _parts(text: str) -> list[str]:
    """flect's toParts: words at spaces and at upper-case letters after a non-upper-case one (or
    after a known acronym)."""
    parts: list[str] = []
    text = text.strip()
    if not text:
        return parts
    if text.upper() in ACRONYMS:
        return [text.upper()]
    prev, word = "", ""
    for c in text:
        if _is_space(c) or (c.isupper() and not prev.isupper()) or (c.isupper() and word.upper() in ACRONYMS):
            _append(parts, word)
            word, prev = c, c
        elif c.isalpha() or c.isdigit() or unicodedata.category(c).startswith("P") or c == "`":
            prev, word = c, word + c
        else:
            _append(parts, word)
            word, prev = "", c
    _append(parts, word)
    return parts


def _capitalize(text: str) -> str:
    return text[:1].upper() + text[1:] if _parts(text) else ""


def pluralize(original: str) -> str:
    """flect.Pluralize(original)."""
    parts = _parts(original)
    if not parts:
        return ""
    last = parts[-1]
    if original in _SINGLE_TO_PLURAL:
        return _SINGLE_TO_PLURAL[original]
    if original in _PLURAL_TO_SINGLE or last.lower() in _PLURAL_TO_SINGLE:
        return original
    lower = last.lower()
    if lower in _SINGLE_TO_PLURAL:
        plural = _SINGLE_TO_PLURAL[lower]
        if last == _capitalize(last):
            plural = _capitalize(plural)
        return original.removesuffix(last) + plural
    for suffix, rule in _RULES:
        if last.endswith(suffix):
            return original.removesuffix(last) + rule(last)
    if lower.endswith("s"):
        return original
    return original + "s"


def plural_of(kind: str) -> str:
    """The CRD's plural for ``kind``, as controller-gen defaults it."""
    return pluralize(kind).lower()
