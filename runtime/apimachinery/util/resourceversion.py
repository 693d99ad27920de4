"""Comparing resourceVersions: apimachinery's pkg/util/resourceversion (CompareResourceVersion).

Since Kubernetes 1.35 (KEP-5504, "comparable resource versions") the apiserver promises that
the resourceVersions of objects of *one resource* are decimal integers without leading zeros
that grow with every write, and apimachinery compares them so: by length, then as strings.
Anything else is not well formed and is refused, as apimachinery refuses it (a server that
does not keep the promise must not be compared, only checked for equality).
"""

from __future__ import annotations

__all__ = ["InvalidResourceVersion", "compare_resource_version"]


class InvalidResourceVersion(ValueError):
    """A resourceVersion that is not a well-formed one (not a non-negative integer)."""

    def __init__(self, rv: str) -> None:
        super().__init__(f"resource version is not well formed: {rv}")
        self.rv = rv


def _well_formed(rv: str) -> bool:
    return bool(rv) and rv[0] != "0" and rv.isascii() and rv.isdigit()


def compare_resource_version(a: str, b: str) -> int:
    """-1, 0 or 1 as ``a`` is older than, the same as, or newer than ``b`` (one resource's)."""
    for rv in (a, b):
        if not _well_formed(rv):
            raise InvalidResourceVersion(rv)
    if len(a) != len(b):
        return -1 if len(a) < len(b) else 1
    return (a > b) - (a < b)
