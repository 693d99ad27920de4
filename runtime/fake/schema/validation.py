"""Validation: the 422 (or 400) the apiserver refuses an invalid object with, before storing it.

Every create, update, patch, apply and scale result is checked by
``kgen.runtime.apimachinery.validation.validate`` against the schemas of the generated package its
kind's model comes from (a kind with no loaded model or no schema is not checked), and refused
with the ``Status`` the apiserver sends (``kgen.runtime.apimachinery.validation.refusal``), as the typed clients' own
``validate=True`` refuses it. What that predicts: for a custom resource everything (structural
schema and CEL rules, measured against the real apiserver); for a built-in kind only what its
OpenAPI says (types, integer ranges, formats, enums), not Go validation.

It runs where the apiserver's strategy validates: after the server set what it sets (the name
from ``generateName``, a create's dropped status, an update's kept status) and before the
AlreadyExists check of a create. An update of a custom resource is judged against the stored
object as the apiserver judges it (``validate(new, old=stored)``): validation ratcheting
(``CRDValidationRatcheting``, GA since 1.33) drops the errors at what the update left unchanged,
so an object seeded invalid (``ObjectTracker.add``) can still be updated elsewhere, and
transition rules (``oldSelf``) run. Unknown fields are ``field_validation``'s business, not
checked here.
"""

from __future__ import annotations

from typing import Any

from kgen.runtime.apimachinery.validation.refusal import refusal
from kgen.runtime.apimachinery.validation import FieldError, validate
from kgen.runtime.fake.errors import Failure
from kgen.runtime.fake.request import Route
from kgen.runtime.fake.schema.decode import model_for


def check_valid(route: Route, new: dict[str, Any], stored: dict[str, Any] | None = None) -> None:
    """Raises the apiserver's refusal of ``new`` (``stored``: the object an update replaces)."""
    errors = _errors(route, new, stored)
    if errors:
        status = refusal(new, errors)
        raise Failure(int(status["code"]), str(status["reason"]), str(status["message"]), status.get("details"))


def _errors(route: Route, obj: dict[str, Any], stored: dict[str, Any] | None) -> list[FieldError]:
    info = route.info
    model = model_for(info.api_version, info.kind)
    if model is None:
        return []
    module = model.__module__
    package = module.split(".models.")[0] if ".models." in module else None
    body = {**obj, "apiVersion": info.api_version, "kind": info.kind}
    try:
        old = None if stored is None else {**stored, "apiVersion": info.api_version, "kind": info.kind}
        return validate(body, old=old, package=package, field_validation="Warn", subresource=route.subresource)
    except LookupError:  # the package has no schema for this kind
        return []
