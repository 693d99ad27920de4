"""Validation: the 422 (or 400) the apiserver refuses an invalid object with, before storing it.

Every create, update, patch, apply and scale result is checked by
``kgen.runtime.apimachinery.validation.validate`` against the schemas of the generated package its
kind's model comes from (a kind with no loaded model or no schema is not checked), and refused
with the ``Status`` the apiserver sends (``kgen.runtime.apimachinery.refusal``), as the typed clients' own
``validate=True`` refuses it. What that predicts: for a custom resource everything (structural
schema and CEL rules, measured against the real apiserver); for a built-in kind only what its
OpenAPI says (types, integer ranges, formats, enums), not Go validation.

It runs where the apiserver's strategy validates: after the server set what it sets (the name
from ``generateName``, a create's dropped status, an update's kept status) and before the
AlreadyExists check of a create. An update is checked with the apiserver's ratcheting
(``CRDValidationRatcheting``, on by default since 1.30): an error at a value the update left as
the stored object has it is not reported, so an object seeded invalid (``ObjectTracker.add``)
can still be updated elsewhere. Transition rules (``oldSelf``) are not evaluated (``validate``
judges one object). Unknown fields are ``field_validation``'s business, not checked here.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from kgen.runtime.apimachinery.refusal import refusal
from kgen.runtime.apimachinery.validation import FieldError, blocks_rules, validate
from kgen.runtime.fake.errors import Failure
from kgen.runtime.fake.request import Route
from kgen.runtime.fake.schema import model_for


_RULES_NOT_CHECKED = "Invalid value: null: some validation rules were not checked"


def check_valid(route: Route, new: dict[str, Any], stored: dict[str, Any] | None = None) -> None:
    """Raises the apiserver's refusal of ``new`` (``stored``: the object an update replaces)."""
    errors = _errors(route, new)
    if errors and stored is not None:
        unchanged = set(_unchanged(new, stored, ""))
        errors = [e for e in errors if e.field not in unchanged]
        if not any(blocks_rules(e) for e in errors):  # "rules were not checked" no longer holds
            errors = [e for e in errors if not e.message.startswith(_RULES_NOT_CHECKED)]
    if errors:
        status = refusal(new, errors)
        raise Failure(int(status["code"]), str(status["reason"]), str(status["message"]), status.get("details"))


def _errors(route: Route, obj: dict[str, Any]) -> list[FieldError]:
    info = route.info
    model = model_for(info.api_version, info.kind)
    if model is None:
        return []
    module = model.__module__
    package = module.split(".models.")[0] if ".models." in module else None
    body = {**obj, "apiVersion": info.api_version, "kind": info.kind}
    try:
        return validate(body, package=package, field_validation="Warn")
    except LookupError:  # the package has no schema for this kind
        return []


def _unchanged(new: Any, old: Any, path: str) -> Iterator[str]:
    """The field paths (as the apiserver writes them) where ``new`` holds what ``old`` holds."""
    if new == old and type(new) is type(old):
        yield path
    if isinstance(new, dict) and isinstance(old, dict):
        for key, value in new.items():
            if key in old:
                yield from _unchanged(value, old[key], f"{path}.{key}" if path else str(key))
    elif isinstance(new, list) and isinstance(old, list):
        for i, (value, was) in enumerate(zip(new, old)):
            yield from _unchanged(value, was, f"{path}[{i}]")
