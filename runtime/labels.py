"""Label selector matching (apimachinery pkg/labels): parse a selector once, match many label maps.

Grammar: comma-separated requirements, each ``key=value``, ``key==value``, ``key!=value``,
``key in (a,b)``, ``key notin (a,b)``, ``key`` (exists) or ``!key`` (does not exist).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass

_TERM = re.compile(
    r"""\s*(?:
        (?P<not>!)\s*(?P<nkey>[^\s,=!()]+)
      | (?P<key>[^\s,=!()]+)\s*(?:
            (?P<op>==|=|!=)\s*(?P<value>[^\s,()]*)
          | \s+(?P<setop>in|notin)\s*\((?P<values>[^()]*)\)
        )?
    )\s*(?:,|$)""",
    re.VERBOSE,
)


@dataclass(frozen=True)
class Requirement:
    key: str
    op: str  # "=", "!=", "in", "notin", "exists", "!"
    values: frozenset[str] = frozenset()

    def matches(self, labels: Mapping[str, str]) -> bool:
        present = self.key in labels
        if self.op == "exists":
            return present
        if self.op == "!":
            return not present
        if self.op in ("=", "in"):
            return present and labels[self.key] in self.values
        return not present or labels[self.key] not in self.values  # "!=", "notin"


class SelectorError(ValueError):
    pass


def parse(selector: str | object | None) -> Callable[[Mapping[str, str]], bool]:
    """A predicate on label maps; None or "" selects everything."""
    text = "" if selector is None else str(selector).strip()
    if not text:
        return lambda labels: True
    requirements: list[Requirement] = []
    pos = 0
    while pos < len(text):
        match = _TERM.match(text, pos)
        if not match or match.end() == pos:
            raise SelectorError(f"invalid label selector {text!r} at position {pos}")
        pos = match.end()
        if match["not"]:
            requirements.append(Requirement(match["nkey"], "!"))
        elif match["op"]:
            op = "!=" if match["op"] == "!=" else "="
            requirements.append(Requirement(match["key"], op, frozenset([match["value"]])))
        elif match["setop"]:
            values = frozenset(v.strip() for v in match["values"].split(",") if v.strip())
            requirements.append(Requirement(match["key"], match["setop"], values))
        else:
            requirements.append(Requirement(match["key"], "exists"))
    return lambda labels: all(r.matches(labels) for r in requirements)


def labels_of(obj: object) -> Mapping[str, str]:
    if isinstance(obj, dict):
        return (obj.get("metadata") or {}).get("labels") or {}
    meta = getattr(obj, "metadata", None)
    found = getattr(meta, "labels", None) if meta is not None else None
    return found if isinstance(found, dict) else {}
