"""Label selector matching (apimachinery pkg/labels): parse a selector once, match many label maps.

Grammar: comma-separated requirements, each ``key=value``, ``key==value``, ``key!=value``,
``key in (a,b)``, ``key notin (a,b)``, ``key`` (exists), ``!key`` (does not exist), or
``key>n`` / ``key<n`` (the label's value, an integer, compared with n). As in apimachinery,
``!=`` and ``notin`` also match objects without the label. Parsing is apimachinery's lexer and
parser, ported with their error messages (the apiserver's 400 for a bad ``labelSelector`` quotes
them; tests/integration/test_fake_vs_server_meta.py compares them): ``unable to parse
requirement: found '', expected: ',' or ')'`` and the rest, keys and values checked as label keys
and values.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass


# -- what a name, label key or label value may be (apimachinery's util/validation and
#    pkg/api/validate/content at 1.37): the one implementation, here in the bottom layer so that
#    selectors, ObjectMeta validation and validation/content (which re-exports them) share it ----

_DNS1123_LABEL_FMT = "[a-z0-9]([-a-z0-9]*[a-z0-9])?"
DNS1123_SUBDOMAIN_FMT = _DNS1123_LABEL_FMT + "(\\." + _DNS1123_LABEL_FMT + ")*"
"""util/validation's dns1123SubDomainFmt, the regex its messages quote (content's wildcard subdomain builds on it)."""
_DNS1035_LABEL_FMT = "[a-z]([-a-z0-9]*[a-z0-9])?"
_LABEL_KEY_FMT = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]"
_LABEL_VALUE_FMT = f"({_LABEL_KEY_FMT})?"
_DNS1123_LABEL = re.compile(_DNS1123_LABEL_FMT)
_DNS1123_SUBDOMAIN = re.compile(DNS1123_SUBDOMAIN_FMT)
_DNS1035_LABEL = re.compile(_DNS1035_LABEL_FMT)
_LABEL_KEY = re.compile(_LABEL_KEY_FMT)
_LABEL_VALUE = re.compile(_LABEL_VALUE_FMT)
_LABEL_KEY_MSG = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"
_LABEL_VALUE_MSG = ("a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and "
                    "must start and end with an alphanumeric character")
_DNS1123_LABEL_MSG = ("a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must "
                      "start and end with an alphanumeric character")
_DNS1123_SUBDOMAIN_MSG = ("a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', "
                          "and must start and end with an alphanumeric character")
_DNS1035_LABEL_MSG = ("a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an "
                      "alphabetic character, and end with an alphanumeric character")


def regex_error(msg: str, fmt: str, *examples: str) -> str:
    """util/validation's RegexError: the message, its examples joined by ``,  or `` (two spaces, as
    Go writes them) and the regex quoted."""
    if not examples:
        return f"{msg} (regex used for validation is '{fmt}')"
    listed = " or ".join(f"'{e}', " for e in examples)
    return f"{msg} (e.g. {listed}regex used for validation is '{fmt}')"


def size(value: str) -> int:
    """Go's len() of a string: its UTF-8 bytes, not its characters."""
    return len(value.encode("utf-8", "surrogatepass"))


def is_dns1123_label(value: str) -> list[str]:
    """util/validation.IsDNS1123Label's messages (a namespace's name, a Service's)."""
    errors = []
    if size(value) > 63:
        errors.append("must be no more than 63 characters")
    if not _DNS1123_LABEL.fullmatch(value):
        if _DNS1123_SUBDOMAIN.fullmatch(value):
            errors.append("must not contain dots")
        else:
            errors.append(regex_error(_DNS1123_LABEL_MSG, _DNS1123_LABEL_FMT, "my-name", "123-abc"))
    return errors


def is_dns1123_subdomain(value: str, *, max_len_unit: str = "characters") -> list[str]:
    """util/validation.IsDNS1123Subdomain's messages (most kinds' names); ``max_len_unit``
    ``bytes`` as pkg/api/validate/content writes the too-long message (a label key's prefix)."""
    errors = []
    if size(value) > 253:
        errors.append(f"must be no more than 253 {max_len_unit}")
    if not _DNS1123_SUBDOMAIN.fullmatch(value):
        errors.append(regex_error(_DNS1123_SUBDOMAIN_MSG, DNS1123_SUBDOMAIN_FMT, "example.com"))
    return errors


def is_dns1035_label(value: str) -> list[str]:
    """util/validation.IsDNS1035Label's messages."""
    errors = []
    if size(value) > 63:
        errors.append("must be no more than 63 characters")
    if not _DNS1035_LABEL.fullmatch(value):
        errors.append(regex_error(_DNS1035_LABEL_MSG, _DNS1035_LABEL_FMT, "my-name", "abc-123"))
    return errors


def is_qualified_name(value: str) -> list[str]:
    """IsQualifiedName (content.IsLabelKey): a label or annotation key, a finalizer name."""
    errors: list[str] = []
    parts = value.split("/")
    if len(parts) == 1:
        name = parts[0]
    elif len(parts) == 2:
        prefix, name = parts
        if not prefix:
            errors.append("prefix part must be non-empty")
        else:
            errors.extend("prefix part " + m for m in is_dns1123_subdomain(prefix, max_len_unit="bytes"))
    else:
        return [f"a valid label key {regex_error(_LABEL_KEY_MSG, _LABEL_KEY_FMT, 'MyName', 'my.name', '123-abc')} "
                "with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"]
    if not name:
        errors.append("name part must be non-empty")
    elif size(name) > 63:
        errors.append("name part must be no more than 63 bytes")
    if not _LABEL_KEY.fullmatch(name):
        errors.append("name part " + regex_error(_LABEL_KEY_MSG, _LABEL_KEY_FMT, "MyName", "my.name", "123-abc"))
    return errors


def is_label_value(value: str) -> list[str]:
    """IsValidLabelValue (content.IsLabelValue)."""
    errors = []
    if size(value) > 63:
        errors.append("must be no more than 63 bytes")
    if not _LABEL_VALUE.fullmatch(value):
        errors.append(regex_error(_LABEL_VALUE_MSG, _LABEL_VALUE_FMT, "MyValue", "my_value", "12345"))
    return errors



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


# -- apimachinery's lexer and parser (pkg/labels/selector.go), with its error messages ------------

_WHITESPACE = " \t\r\n"
_SPECIAL = "=!(),><"
_TOKENS = {")": "closed-par", ",": "comma", "!": "does-not-exist", "==": "double-equals", "=": "equals",
           ">": "greater-than", "in": "in", "<": "less-than", "!=": "not-equals", "notin": "not-in", "(": "open-par"}
_BINARY_OPERATORS = "in, notin, =, ==, !=, gt, lt"
"""binaryOperators joined as parseOperator's error lists them (selection.GreaterThan is "gt")."""
_OPERATORS = {"in": "in", "not-in": "notin", "equals": "=", "double-equals": "=", "not-equals": "!=",
              "greater-than": "gt", "less-than": "lt"}


def _lex(text: str) -> list[tuple[str, str]]:
    """Lexer.Lex until the end: (token, literal) pairs, the last ``("end", "")``."""
    items: list[tuple[str, str]] = []
    pos = 0
    while True:
        while pos < len(text) and text[pos] in _WHITESPACE:
            pos += 1
        if pos >= len(text):
            items.append(("end", ""))
            return items
        if text[pos] in _SPECIAL:  # scanSpecialSymbol: the longest run that is still a token
            buffer, last = "", None
            while pos < len(text) and text[pos] in _SPECIAL:
                buffer += text[pos]
                if buffer in _TOKENS:
                    last = (_TOKENS[buffer], buffer)
                    pos += 1
                elif last is not None:
                    break
                else:
                    pos += 1
            items.append(last or ("error", f"error expected: keyword found '{buffer}'"))
        else:  # scanIDOrKeyword
            start = pos
            while pos < len(text) and text[pos] not in _SPECIAL and text[pos] not in _WHITESPACE:
                pos += 1
            word = text[start:pos]
            items.append((_TOKENS.get(word, "identifier"), word))


class _Parser:
    """apimachinery's Parser; in the Values context ``in`` and ``notin`` are identifiers."""

    def __init__(self, text: str) -> None:
        self.items = _lex(text)
        self.position = 0

    def lookahead(self, values: bool = True) -> tuple[str, str]:
        tok, lit = self.items[self.position]
        return ("identifier" if values and tok in ("in", "not-in") else tok), lit

    def consume(self, values: bool = True) -> tuple[str, str]:
        found = self.lookahead(values)
        self.position += 1
        return found

    def parse(self) -> list[Requirement]:
        requirements: list[Requirement] = []
        while True:
            tok, lit = self.lookahead()
            if tok == "end":
                return requirements
            if tok not in ("identifier", "does-not-exist"):
                raise SelectorError(f"found '{lit}', expected: !, identifier, or 'end of string'")
            try:
                requirements.append(self.requirement())
            except SelectorError as e:
                raise SelectorError(f"unable to parse requirement: {e}") from None
            tok, lit = self.consume()
            if tok == "end":
                return requirements
            if tok != "comma":
                raise SelectorError(f"found '{lit}', expected: ',' or 'end of string'")
            tok2, lit2 = self.lookahead()
            if tok2 not in ("identifier", "does-not-exist"):
                raise SelectorError(f"found '{lit2}', expected: identifier after ','")

    def requirement(self) -> Requirement:
        tok, key = self.consume()
        operator = None
        if tok == "does-not-exist":
            operator = "!"
            tok, key = self.consume()
        if tok != "identifier":
            raise SelectorError(f"found '{key}', expected: identifier")
        errors = is_qualified_name(key)
        if errors:
            raise SelectorError(f'<nil>: Invalid value: "{_go_quote(key)}": {"; ".join(errors)}')
        if operator == "!" or self.lookahead()[0] in ("end", "comma"):
            return _new_requirement(key, operator or "exists", [])
        tok, lit = self.consume(values=False)
        if tok not in _OPERATORS:
            raise SelectorError(f"found '{lit}', expected: {_BINARY_OPERATORS}")
        operator = _OPERATORS[tok]
        return _new_requirement(key, operator, self.values() if operator in ("in", "notin") else self.exact_value())

    def values(self) -> list[str]:
        tok, lit = self.consume()
        if tok != "open-par":
            raise SelectorError(f"found '{lit}' expected: '('")
        tok, lit = self.lookahead()
        if tok == "closed-par":
            self.consume()
            return [""]
        if tok not in ("identifier", "comma"):
            raise SelectorError(f"found '{lit}', expected: ',', ')' or identifier")
        found = self.identifiers()
        if self.consume()[0] != "closed-par":
            raise SelectorError(f"found '{lit}', expected: ')'")
        return found

    def identifiers(self) -> list[str]:
        found: set[str] = set()
        while True:
            tok, lit = self.consume()
            if tok == "identifier":
                found.add(lit)
                tok2, lit2 = self.lookahead()
                if tok2 == "closed-par":
                    return sorted(found)
                if tok2 != "comma":
                    raise SelectorError(f"found '{lit2}', expected: ',' or ')'")
            elif tok == "comma":
                if not found:
                    found.add("")  # "(,"
                tok2 = self.lookahead()[0]
                if tok2 == "closed-par":
                    found.add("")  # ",)"
                    return sorted(found)
                if tok2 == "comma":
                    found.add("")  # ",,"
            else:
                raise SelectorError(f"found '{lit}', expected: ',', or identifier")

    def exact_value(self) -> list[str]:
        if self.lookahead()[0] in ("end", "comma"):
            return [""]
        tok, lit = self.consume()
        if tok == "identifier":
            return [lit]
        raise SelectorError(f"found '{lit}', expected: identifier")


def _go_quote(text: str) -> str:
    """The inside of Go's %q (strconv.Quote) for the printable text selectors hold."""
    return json.dumps(text, ensure_ascii=False)[1:-1]


def _new_requirement(key: str, op: str, values: list[str]) -> Requirement:
    """NewRequirement's checks (the key is checked again at ``key``, the values at
    ``values[i][<key>]``); several errors are one aggregate ``[a, b]``."""
    errors: list[str] = []
    if op in ("gt", "lt"):
        if len(values) != 1:
            errors.append(f"values: Invalid value: {_go_list(values)}: for 'Gt', 'Lt' operators, exactly one value is required")
        for i, value in enumerate(values):
            if not re.fullmatch(r"[+-]?[0-9]+", value) or not -(2**63) <= int(value) < 2**63:
                errors.append(f'values[{i}]: Invalid value: "{_go_quote(value)}": for \'Gt\', \'Lt\' operators, the value '
                              "must be an integer")
    for i, value in enumerate(values):
        found = is_label_value(value)
        if found:
            errors.append(f'values[{i}][{key}]: Invalid value: "{_go_quote(value)}": {"; ".join(found)}')
    if errors:
        unique = list(dict.fromkeys(errors))
        raise SelectorError(unique[0] if len(unique) == 1 else f"[{', '.join(unique)}]")
    return Requirement(key, op, frozenset(values))


def _go_list(values: list[str]) -> str:
    return json.dumps(values, separators=(",", ":"), ensure_ascii=False)


def parse_requirements(selector: str | object | None) -> list[Requirement]:
    """The requirements of a selector string (or of anything whose ``str()`` is one), parsed as
    apimachinery's ``labels.Parse`` does; SelectorError with its message if it does not parse."""
    text = "" if selector is None else str(selector)
    return _Parser(text).parse()


def parse(selector: str | object | None) -> Callable[[Mapping[str, str]], bool]:
    """A predicate on label maps; None or "" selects everything."""
    requirements = parse_requirements(selector)
    return lambda labels: all(r.matches(labels) for r in requirements)


