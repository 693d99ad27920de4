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

Every kind's metadata, built-in or custom, with or without a schema, is checked first, as the
apiserver's strategies do (``kgen.runtime.apimachinery.validation.objectmeta``): names and
generateName by the kind's name rule, labels, annotations, owner references, finalizer names;
on an update, no new finalizer once the object is being deleted. Those errors come first, in
apimachinery's order, then the schema's (sorted); a decode error (400) stands alone.
"""

from __future__ import annotations

import re
from typing import Any

from kgen.runtime.apimachinery.validation.refusal import refusal
from kgen.runtime.apimachinery.validation import FieldError, validate
from kgen.runtime.apimachinery.validation.objectmeta import finalizer_warnings, registry_meta_errors
from kgen.runtime.fake.errors import Failure
from kgen.runtime.fake.request import Route
from kgen.runtime.fake.schema.decode import model_for
from kgen.runtime.fake.schema.field_validation import header
from kgen.runtime.fake.store import builtin, meta


def check_valid(route: Route, new: dict[str, Any], stored: dict[str, Any] | None = None) -> list[str]:
    """Raises the apiserver's refusal of ``new`` (``stored``: the object an update replaces); else
    the ``Warning`` headers its strategy adds: a custom resource's main-resource write warns of
    each finalizer it adds that is not domain-qualified (``objectmeta.finalizer_warnings``)."""
    schema_errors = _errors(route, new, stored)
    if any(e.type == "BadRequest" for e in schema_errors):
        errors = schema_errors  # not decoded: nothing is validated
    else:
        info = route.info
        meta_errors = registry_meta_errors(meta(new), None if stored is None else meta(stored), group=info.group,
                                           resource=info.plural, namespaced=info.namespaced, builtin=builtin(info.group))
        if builtin(info.group):  # Go code validates a built-in's metadata, not its published schema
            schema_errors = [e for e in schema_errors if e.field != "metadata" and not e.field.startswith("metadata.")]
        errors = meta_errors + [e for e in schema_errors if e not in meta_errors]
    if route.subresource == "status" and not builtin(route.info.group):
        errors = [_status_relative(e) for e in errors]
    if errors:
        status = refusal({**new, "apiVersion": route.info.api_version, "kind": route.info.kind}, errors)
        raise Failure(int(status["code"]), str(status["reason"]), str(status["message"]), status.get("details"))
    if builtin(route.info.group) or route.subresource:
        return []
    return [header(w) for w in finalizer_warnings(meta(new), None if stored is None else meta(stored))]


_IN_BODY = re.compile(r"(^|: )status((?:[.\[]\S*)?) in body ")


def _status_relative(error: FieldError) -> FieldError:
    """A custom resource's ``/status`` write validates the status alone, with the status schema's
    own validator (apiextensions' ``ValidateStatusUpdate``), then puts ``status`` before the
    field paths: the schema's messages name the path below ``status`` (``count in body must be
    of type integer``, `` in body must be of type object`` for the status itself) while the
    cause's field is the whole path (``status.count``). Other messages (CEL rules, list types,
    metadata) are the whole object's and unchanged."""
    if error.field != "status" and not error.field.startswith(("status.", "status[")):
        return error
    message = _IN_BODY.sub(lambda m: f"{m.group(1)}{m.group(2).removeprefix('.')} in body ", error.message, count=1)
    return FieldError(error.type, error.field, message)


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
