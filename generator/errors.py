"""The one error a user sees for bad input: which file, which JSON pointer, what was expected."""

from __future__ import annotations


def pointer(*parts: object) -> str:
    """A JSON pointer (RFC 6901) from path parts."""
    escaped = (str(p).replace("~", "~0").replace("/", "~1") for p in parts)
    return "/" + "/".join(escaped) if parts else ""


class InputError(Exception):
    """Malformed or unsupported input. Rendered as one line; nothing has been written."""

    def __init__(self, source: object, ptr: str, expected: str) -> None:
        self.source = str(source)
        self.pointer = ptr
        self.expected = expected
        super().__init__(f"{self.source}: at {ptr or '/'}: {expected}")
