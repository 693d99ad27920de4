"""Admission verdicts, as controller-runtime's ``admission/response.go`` builds them.

- ``allowed(message)``: ``allowed: true``, status code 200.
- ``denied(message)``: ``allowed: false``, code 403, reason ``Forbidden``. The apiserver
  answers the client with that code and ``admission webhook "<name>" denied the request: <message>``.
- ``errored(code, message)``: ``allowed: false`` with the given code and no reason: the webhook
  could not judge (a body it cannot decode is 400, a handler that failed is 500).
- ``patch_response(original, mutated)``: allowed, with the JSON patch between the two
  (``json_patch_diff.create_patch``) and ``patchType: JSONPatch``; no patch at all when nothing
  changed, so the apiserver does not count the call as a mutation.

The ``uid`` is left empty: the admission ``Webhook`` copies the request's into every response,
as controller-runtime's ``Webhook.Handle`` does, so a handler cannot get it wrong.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from kgen.runtime.webhook.admission.review import PATCH_TYPE_JSON_PATCH, AdmissionResponse
from kgen.runtime.webhook.json_patch_diff import create_patch
from kgen.runtime.webhook.review_meta import Status

__all__ = ["allowed", "denied", "errored", "patch_response", "validation_response"]


def validation_response(is_allowed: bool, message: str = "", warnings: Sequence[str] = ()) -> AdmissionResponse:
    """controller-runtime's ``ValidationResponse``: 200 when allowed, 403 Forbidden when not."""
    status = Status(code=200) if is_allowed else Status(code=403, reason="Forbidden")
    if message:
        status.message = message
    return AdmissionResponse(uid="", allowed=is_allowed, status=status, warnings=_warning_list(warnings))


def _warning_list(warnings: Sequence[str]) -> list[str] | None:
    """The warnings as a list; one string is one warning (a ``str`` is a ``Sequence[str]`` too,
    and ``list("text")`` would make a warning of every letter)."""
    if isinstance(warnings, str):
        return [warnings] if warnings else None
    return list(warnings) or None


def allowed(message: str = "", warnings: Sequence[str] = ()) -> AdmissionResponse:
    """A response that admits the request, with an optional message and warnings for the client."""
    return validation_response(True, message, warnings)


def denied(message: str, warnings: Sequence[str] = ()) -> AdmissionResponse:
    """A response that refuses the request (403) with ``message``, and optional warnings."""
    return validation_response(False, message, warnings)


def errored(code: int, message: str) -> AdmissionResponse:
    """The webhook could not judge the request: ``allowed: false`` with ``code``."""
    return AdmissionResponse(uid="", allowed=False, status=Status(code=code, message=message))


def patch_response(original: dict[str, Any], mutated: dict[str, Any], warnings: Sequence[str] = ()) -> AdmissionResponse:
    """Allowed, with the patch that turns the request's ``original`` object into ``mutated``."""
    operations = create_patch(original, mutated)
    response = allowed(warnings=warnings)
    if operations:
        response.patch = msgspec.json.encode(operations)
        response.patch_type = PATCH_TYPE_JSON_PATCH
    return response
