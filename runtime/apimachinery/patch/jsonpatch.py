"""JSON patch exactly as the apiserver applies it, deviations included (merge patch: ``mergepatch``).

k8s.io/apiserver v0.37.2 (``pkg/endpoints/handlers/patch.go``, ``jsonPatcher.applyJSPatch``)
applies ``application/json-patch+json`` with ``jsonpatch.DecodePatch`` + ``Patch.Apply`` from
``gopkg.in/evanphx/json-patch.v4`` v4.13.0 (the version its go.mod requires), at most 10000
operations, ``AccumulatedCopySizeLimit`` = ``JSONPatchMaxCopyBytes`` (3 MiB, ``server/config.go``).
That library is not RFC 6902, and a fake that follows the RFC answers differently from the server.
What it does instead (function names from json-patch.v4's ``patch.go``; the engine itself is
``jsonpatch_v4``), and so this module:
- ``replace`` of a missing object member adds it (``Patch.replace``: ``partialDoc.get`` never fails).
- ``copy`` and ``move`` from a missing member read ``null`` (``partialDoc.get``); ``copy`` then adds
  ``null``, ``move`` fails at the remove. ``test`` of a missing member equals ``null`` and an
  absent ``value``.
- A path that does not start with ``/`` loses its first token (``findObject`` splits on ``/`` and
  drops element 0): ``a/b`` means ``/b``. A token is an index if ``strconv.Atoi`` takes it:
  ``01``, ``+1`` and negative indexes counted from the end (``SupportNegativeIndices``) work.
- ``move`` removes before it resolves ``path``, so moving into one's own child fails as a missing
  destination; moving onto itself is fine.
- ``add``/``replace`` without ``value`` write ``null``; a ``replace`` of the root needs an object
  or array value (absent ``value``: the library dereferences nil and panics, see ``PatchPanic``).
- ``test`` compares scalars by their JSON text (``lazyNode.equal``: ``bytes.Equal`` on compacted
  raw JSON): ``1`` is not ``true`` and not ``1.0``. Inputs reach this module decoded, so two
  spellings of one value (``1e0``/``1.0``, ``"\\u0041"``/``"A"``) compare equal here and not there.
- A ``null`` written by the patch and a ``null`` read from the document differ (a nil
  ``*json.RawMessage`` inside a node vs a nil node): ``test`` without ``value`` passes on the second
  only; a copied ``null`` becomes the text ``null``, which then ``test``-equals ``{}`` and, as a
  path's parent, is an empty object that panics on write (assignment to a nil Go map).
- ``test`` against an array holding ``null`` items dereferences nil (a panic). When an object compare
  could both panic and fail, Go's random map order decides; here key order decides.
- Operations without an ``op`` fail as ``Unexpected kind: unknown``; a ``null`` patch is no operations.
- The 3 MiB copy budget counts msgspec's encoding of each copied value (Go counts its own
  marshalling, which escapes ``<>&``); the two differ only for copies that near the limit.
- Before the library sees it, the apiserver decodes the body strictly (``kjson.UnmarshalStrict``
  into ``[]handlers.jsonPatchOp``) unless fieldValidation is Ignore; its default is Warn. So a
  non-string ``op``/``path``/``from`` is a 400 there (a 422 or ``unknown`` op under Ignore), and
  unknown members of an operation are warnings (Warn) or a 422 (Strict).
Errors carry the library's message text, so the fake's 422 bodies read like the server's.

Inputs are never modified: ``json_patch`` works on a private copy and returns a new value.
"""

from __future__ import annotations

from typing import Any

import msgspec

from kgen.runtime.apimachinery.patch.jsonpatch_v4 import MAX_COPY_BYTES, GoError, GoPanic, apply, go_quote, json_kind

__all__ = ["MAX_COPY_BYTES", "MAX_OPERATIONS", "PatchBadRequest", "PatchError", "PatchInternal", "PatchPanic",
           "PatchTooLarge", "json_equal", "json_patch", "json_patch_strict_errors"]

MAX_OPERATIONS = 10000
"""The most operations a JSON patch may hold (the apiserver's maxJSONPatchOperations)."""


class PatchError(ValueError):
    """A patch that cannot be applied (bad operation, missing path, failed ``test``); the
    apiserver answers 422 unless a subclass below says otherwise. Shared by every patch format
    (``kgen.runtime.apimachinery.patch`` re-exports it); it lives here, in the lowest patch
    module, so that module can import this one without an import cycle."""


class PatchBadRequest(PatchError):
    """The patch body is not a patch at all (the apiserver answers 400 BadRequest)."""


class PatchTooLarge(PatchError):
    """More than ``MAX_OPERATIONS`` operations (the apiserver answers 413)."""


class PatchPanic(PatchError):
    """The apiserver's library panics on this input. A real apiserver (v1.37.2, tried with
    ``test`` of the root without ``value``) then drops the connection without any response."""


class PatchInternal(PatchError):
    """A merge-patch error the apiserver returns unwrapped (it answers 500)."""


def json_equal(a: Any, b: Any) -> bool:
    """Equality of JSON values as JSON sees them: ``1``, ``1.0`` and ``true`` are three values
    (Python's ``==`` makes them one)."""
    return bool(msgspec.json.encode(a, order="sorted") == msgspec.json.encode(b, order="sorted"))


def _fresh(value: Any) -> Any:
    return msgspec.json.decode(msgspec.json.encode(value))


_OP_FIELDS = ("op", "path", "from", "value")  # handlers.jsonPatchOp's JSON names


def _strict_decode(operations: Any) -> None:
    """``kjson.UnmarshalStrict(patch, &[]jsonPatchOp{})``'s error, as a 400: Strict and Warn only."""
    def bad(message: str) -> PatchBadRequest:
        return PatchBadRequest(f"error decoding patch: json: cannot unmarshal {message}")

    if operations is None:
        return
    if not isinstance(operations, list):
        raise bad(f"{json_kind(operations)} into Go value of type []handlers.jsonPatchOp")
    for op in operations:
        if op is not None and not isinstance(op, dict):
            raise bad(f"{json_kind(op)} into Go value of type handlers.jsonPatchOp")
        for name, value in (op or {}).items():
            if name in _OP_FIELDS[:3] and value is not None and not isinstance(value, str):
                raise bad(f"{json_kind(value)} into Go struct field jsonPatchOp.{name} of type string")


def json_patch_strict_errors(operations: Any) -> list[str]:
    """The strict-decoding complaints about a decodable JSON patch (unknown members of an
    operation, names compared case-sensitively), worded as the apiserver words them: warnings
    under fieldValidation=Warn, a 422 under Strict. Duplicate members cannot be seen here (the
    body arrives decoded)."""
    if not isinstance(operations, list):
        return []
    return [f"json patch unknown field {go_quote(f'[{i}].{name}')}"
            for i, op in enumerate(operations) if isinstance(op, dict) for name in op if name not in _OP_FIELDS]


def json_patch(doc: Any, operations: Any, *, field_validation: str = "Warn") -> Any:
    """``doc`` with the JSON patch ``operations`` applied as the apiserver applies them (see the
    module docstring), all or nothing. ``field_validation`` is the request's (the apiserver's
    default is Warn): under Strict and Warn the body is first decoded strictly, as the apiserver
    does; the strict complaints themselves are ``json_patch_strict_errors``. Raises
    ``PatchBadRequest`` (400), ``PatchTooLarge`` (413), ``PatchPanic`` (no response) or ``PatchError``
    (422, the library's message)."""
    if field_validation != "Ignore":
        _strict_decode(operations)
    if operations is not None and not isinstance(operations, list):  # jsonpatch.DecodePatch
        raise PatchBadRequest(f"json: cannot unmarshal {json_kind(operations)} into Go value of type jsonpatch.Patch")
    ops = [] if operations is None else _fresh(operations)
    for op in ops:
        if op is not None and not isinstance(op, dict):
            raise PatchBadRequest(f"json: cannot unmarshal {json_kind(op)} into Go value of type jsonpatch.Operation")
    if len(ops) > MAX_OPERATIONS:
        raise PatchTooLarge(f"The allowed maximum operations in a JSON patch is {MAX_OPERATIONS}, got {len(ops)}")
    try:
        patched = apply(_fresh(doc), ops)
    except GoError as e:
        raise PatchError(str(e)) from None
    except GoPanic as e:
        raise PatchPanic(f"runtime error: {e}") from None
    return _fresh(patched)  # fresh: a copy shares its raw value with its source
