"""Label selector matching (apimachinery pkg/labels): parse a selector once, match many label maps.

Grammar: comma-separated requirements, each ``key=value``, ``key==value``, ``key!=value``,
``key in (a,b)``, ``key notin (a,b)``, ``key`` (exists), ``!key`` (does not exist), or
``key>n`` / ``key<n`` (the label's value, an integer, compared with n). As in apimachinery,
``!=`` and ``notin`` also match objects without the label; an empty term (``a,,b`` or a
trailing comma) and an empty value set are errors.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass

_KEY = r"(?P<key>[^\s,=!()<>]+)"
_VALUE_CHARS = r"[A-Za-z0-9_.\-]*"
_SET_TERM = re.compile(rf"\s*{_KEY}\s+(?P<op>in|notin)\s*\((?P<values>[^()]*)\)\s*")
_COMPARE_TERM = re.compile(rf"\s*{_KEY}\s*(?P<op>==|=|!=|>|<)\s*(?P<value>{_VALUE_CHARS})\s*")
_EXISTS_TERM = re.compile(rf"\s*(?P<not>!?)\s*{_KEY}\s*")
_VALUE = re.compile(_VALUE_CHARS)


@dataclass(frozen=True)
class Requirement:
    """One requirement of a label selector: ``key``, the operator ``op`` ("=", "!=", "in", "notin",
    "exists", "!", "gt", "lt") and its ``values``."""

    key: str
    op: str  # "=", "!=", "in", "notin", "exists", "!", "gt", "lt"
    values: frozenset[str] = frozenset()

    def matches(self, labels: Mapping[str, str]) -> bool:
        """Whether ``labels`` satisfy the requirement."""
        present = self.key in labels
        if self.op == "exists":
            return present
        if self.op == "!":
            return not present
        if self.op in ("=", "in"):
            return present and labels[self.key] in self.values
        if self.op in ("gt", "lt"):
            if not present:
                return False
            try:
                have, limit = int(labels[self.key]), int(next(iter(self.values)))
            except ValueError:
                return False
            return have > limit if self.op == "gt" else have < limit
        return not present or labels[self.key] not in self.values  # "!=", "notin"


class SelectorError(ValueError):
    """A label selector that does not parse (the apiserver's 400 message)."""


def _terms(text: str) -> list[str]:
    """Splits on the commas outside parentheses."""
    terms, depth, start = [], 0, 0
    for i, char in enumerate(text):
        if char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
        elif char == "," and depth == 0:
            terms.append(text[start:i])
            start = i + 1
    terms.append(text[start:])
    return terms


def _requirement(term: str, text: str) -> Requirement:
    if match := _SET_TERM.fullmatch(term):
        values = [v.strip() for v in match["values"].split(",")]
        if not any(values) or not all(_VALUE.fullmatch(v) for v in values):
            raise SelectorError(f"invalid label selector {text!r}: {match['op']} needs a list of values")
        return Requirement(match["key"], match["op"], frozenset(values))
    if match := _COMPARE_TERM.fullmatch(term):
        op, value = match["op"], match["value"]
        if op in (">", "<"):
            if not re.fullmatch(r"-?[0-9]+", value):
                raise SelectorError(f"invalid label selector {text!r}: {op} needs an integer")
            return Requirement(match["key"], "gt" if op == ">" else "lt", frozenset([value]))
        return Requirement(match["key"], "!=" if op == "!=" else "=", frozenset([value]))
    if match := _EXISTS_TERM.fullmatch(term):
        return Requirement(match["key"], "!" if match["not"] else "exists")
    raise SelectorError(f"invalid label selector {text!r}: cannot parse {term.strip()!r}")


def parse_requirements(selector: str | object | None) -> list[Requirement]:
    """The requirements of a selector string (or of anything whose ``str()`` is one)."""
    text = "" if selector is None else str(selector).strip()
    if not text:
        return []
    return [_requirement(term, text) for term in _terms(text)]


def parse(selector: str | object | None) -> Callable[[Mapping[str, str]], bool]:
    """A predicate on label maps; None or "" selects everything."""
    requirements = parse_requirements(selector)
    return lambda labels: all(r.matches(labels) for r in requirements)


