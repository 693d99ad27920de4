"""Go's ``regexp`` for the patterns Kubernetes schemas carry: RE2 syntax and semantics, linear time.

An OpenAPI ``pattern`` in a CRD is compiled by the apiserver with Go's ``regexp.Compile`` and
matched with ``MatchString`` (kube-openapi's string validator); CEL's ``matches()`` is RE2 as well.
Python's ``re`` is a different language: it refuses ``^(?i)(abort|warn)?$`` (global flags not at
the start), its ``$`` also matches before a final newline where Go's does not, and it backtracks,
so a hostile pattern from an untrusted CRD can hang it. This module matches with Google's RE2
(the ``google-re2`` wheel, module ``re2``, imported on the first pattern compiled), which Go's
package reimplements; tests/integration/test_regexp_oracle.py compares both, compile errors and
match results, on every pattern of the CRDs of fourteen real projects against a Go program
(hack/oracle/goregexp).

Where RE2 and Go differ, Go wins here: RE2's ``\\C`` (any byte) is refused as Go refuses it, a
string holding lone surrogates (JSON ``"\\ud800"``) is matched as Go's JSON decoder leaves it
(each surrogate a U+FFFD), and RE2's memory budget is raised so a pattern Go compiles is not
refused for its size.

    compile_pattern("^(?i)(abort|warn)?$").search("Abort")      # True
    compile_pattern("(?=x)")                                    # PatternError: Go refuses it
"""

from __future__ import annotations

import functools
import re
from typing import Any

__all__ = ["Pattern", "PatternError", "compile_pattern", "INSTALL_HINT"]

INSTALL_HINT = "matching Kubernetes patterns needs RE2, a dependency of kgen-runtime: pip install google-re2"
"""The ImportError's message when google-re2 (module ``re2``) is missing."""
_MAX_MEM = 256 << 20
"""RE2's memory budget for one compiled pattern (its default, 8 MiB, refuses large counted
repetitions that Go compiles)."""
_BYTE_ESCAPE = re.compile(r"(?<!\\)(?:\\\\)*\\C")
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


class PatternError(ValueError):
    """A pattern Go's ``regexp.Compile`` refuses (and the apiserver with it: a CRD holding one is
    invalid). ``pattern`` is the pattern, ``reason`` RE2's words for what is wrong."""

    def __init__(self, pattern: str, reason: str) -> None:
        super().__init__(f"{pattern!r} is not a valid Go (RE2) regular expression: {reason}")
        self.pattern = pattern
        self.reason = reason


class Pattern:
    """One compiled pattern: ``search(text)`` is Go's ``MatchString`` (a match anywhere)."""

    __slots__ = ("pattern", "_regexp")

    def __init__(self, pattern: str, regexp: Any) -> None:
        self.pattern = pattern
        self._regexp = regexp

    def search(self, text: str) -> bool:
        """Whether the pattern matches somewhere in ``text``, as Go's ``MatchString``."""
        try:
            return self._regexp.search(text) is not None
        except UnicodeEncodeError:  # lone surrogates: Go's JSON decoder made each a U+FFFD
            return self._regexp.search(_LONE_SURROGATE.sub("\ufffd", text)) is not None

    def __repr__(self) -> str:
        return f"Pattern({self.pattern!r})"


@functools.lru_cache(maxsize=4096)
def compile_pattern(pattern: str) -> Pattern:
    """``pattern`` compiled as Go compiles it (cached: a schema's patterns are compiled once).

    PatternError: Go refuses the pattern. ImportError: google-re2 is not installed."""
    try:
        import re2  # type: ignore[import-untyped, import-not-found, unused-ignore]
    except ImportError as e:
        raise ImportError(INSTALL_HINT) from e
    if _BYTE_ESCAPE.search(_outside_quotes(pattern)):
        raise PatternError(pattern, r"invalid escape sequence: \C")
    options = re2.Options()
    options.log_errors = False  # RE2 would also print each refusal on stderr
    options.max_mem = _MAX_MEM
    try:
        regexp = re2.compile(pattern.encode("utf-8", "surrogatepass").decode("utf-8", "replace"), options)
    except re2.error as e:
        reason = e.args[0] if e.args else str(e)
        raise PatternError(pattern, reason.decode("utf-8", "replace") if isinstance(reason, bytes) else str(reason)) from None
    return Pattern(pattern, regexp)


def _outside_quotes(pattern: str) -> str:
    r"""``pattern`` without its ``\Q...\E`` literal spans, where ``\C`` is two plain characters."""
    return re.sub(r"\\Q.*?(?:\\E|$)", "", pattern, flags=re.DOTALL)
