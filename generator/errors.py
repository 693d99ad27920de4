"""The one error a user sees for bad input: which file (and where in it), what is wrong, what was
expected.

Rendered as one line, in the shape compilers and linters use so editors can jump to it:

    crd.yaml:12:3: could not parse YAML: mapping values are not allowed here
    crd.yaml (document 2): at /spec/names/kind: a str here (it is missing)
    out/pkg: is a file (expected a folder kgen generated, or nothing there)

A position in a file is ``line:column`` (1-based) when the file could not be parsed, and a JSON
pointer (RFC 6901) into the parsed document otherwise.
"""

from __future__ import annotations


def pointer(*parts: object) -> str:
    """A JSON pointer (RFC 6901) from path parts."""
    escaped = (str(p).replace("~", "~0").replace("/", "~1") for p in parts)
    return "/" + "/".join(escaped) if parts else ""


class InputError(Exception):
    """Malformed or unsupported input. Rendered as one line; nothing has been written.

    ``InputError(source, ptr, expected)`` says what the value at ``ptr`` should have been.
    With ``problem`` it says what is wrong first and what was expected in parentheses (an empty
    ``expected`` leaves them out); ``line`` and ``column`` (1-based) place it in the text.
    """

    def __init__(
        self,
        source: object,
        ptr: str,
        expected: str,
        *,
        problem: str = "",
        line: int | None = None,
        column: int | None = None,
    ) -> None:
        self.source = str(source)
        self.pointer = ptr
        self.expected = expected
        self.problem = problem
        self.line = line
        self.column = column
        where = self.source if line is None else f"{self.source}:{line}:{column or 1}"
        if problem:
            message = f"{where}: {f'at {ptr}: ' if ptr else ''}{problem}"
            message += f" (expected {expected})" if expected else ""
        else:
            message = f"{where}: at {ptr or '/'}: {expected}"
        super().__init__(message)
