"""A JSON patch (RFC 6902) that turns one JSON document into another: a mutating webhook's answer.

controller-runtime's ``PatchResponseFromRaw`` diffs the request's raw object against the
mutated object's JSON with gomodules.xyz/jsonpatch's ``CreatePatch``; this is that diff, written
small: objects are compared member by member (removals, then additions and changes, each at its
own path), arrays element by element over their common prefix, then shortened from the end
(highest index first, so every index is still valid when its ``remove`` applies) or extended at
the end. Anything else that differs is one ``replace``. Scalars are compared as JSON compares
them (``json_equal``: ``1``, ``1.0`` and ``true`` are three values, as Python's ``==`` would not
say). The result is correct, not minimal: an insertion at an array's front rewrites every
element after it, where a longest-common-subsequence diff would write one ``add``.

Only ``add``, ``remove`` and ``replace`` are emitted, each writing a whole value, so the patch
never writes into a value it wrote itself; the apiserver applies it with evanphx/json-patch v4
(``kgen.runtime.apimachinery.patch.jsonpatch`` reproduces that library, and the tests apply every
diff back with it). Object keys are escaped as JSON pointers require (``~`` → ``~0``, ``/`` → ``~1``).
"""

from __future__ import annotations

from typing import Any

from kgen.runtime.apimachinery.patch.jsonpatch import json_equal

__all__ = ["create_patch", "escape_pointer_token"]


def escape_pointer_token(token: str) -> str:
    """One JSON-pointer reference token (RFC 6901 §4): ``~`` first, so ``/``'s escape stays."""
    return token.replace("~", "~0").replace("/", "~1")


def create_patch(original: Any, modified: Any) -> list[dict[str, Any]]:
    """The operations that turn ``original`` into ``modified`` (both decoded JSON); ``[]`` when
    they are equal. Neither input is modified; the operations share no mutable value with them
    that they did not share before (added and replacing values are ``modified``'s own)."""
    operations: list[dict[str, Any]] = []
    _diff(original, modified, "", operations)
    return operations


def _diff(a: Any, b: Any, path: str, out: list[dict[str, Any]]) -> None:
    if isinstance(a, dict) and isinstance(b, dict):
        for key in a:
            if key not in b:
                out.append({"op": "remove", "path": f"{path}/{escape_pointer_token(key)}"})
        for key, value in b.items():
            where = f"{path}/{escape_pointer_token(key)}"
            if key in a:
                _diff(a[key], value, where, out)
            else:
                out.append({"op": "add", "path": where, "value": value})
    elif isinstance(a, list) and isinstance(b, list):
        common = min(len(a), len(b))
        for i in range(common):
            _diff(a[i], b[i], f"{path}/{i}", out)
        for i in range(len(a) - 1, common - 1, -1):
            out.append({"op": "remove", "path": f"{path}/{i}"})
        for i in range(common, len(b)):
            out.append({"op": "add", "path": f"{path}/{i}", "value": b[i]})
    elif not json_equal(a, b):
        out.append({"op": "replace", "path": path, "value": b})
