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

from typing import Any

from kgen.runtime.apimachinery.validation.refusal import refusal
from kgen.runtime.apimachinery.validation import FieldError, validate
from kgen.runtime.apimachinery.validation.objectmeta import (
    kube_finalizers_for, name_is_dns_subdomain, name_is_path_segment, name_rule_for, validate_object_meta,
)
from kgen.runtime.fake.errors import Failure
from kgen.runtime.fake.request import Route
from kgen.runtime.fake.schema.decode import model_for
from kgen.runtime.fake.store import builtin, meta


def check_valid(route: Route, new: dict[str, Any], stored: dict[str, Any] | None = None) -> None:
    """Raises the apiserver's refusal of ``new`` (``stored``: the object an update replaces)."""
    schema_errors = _errors(route, new, stored)
    if any(e.type == "BadRequest" for e in schema_errors):
        errors = schema_errors  # not decoded: nothing is validated
    else:
        meta_errors = _meta_errors(route, new, stored)
        if builtin(route.info.group):  # Go code validates a built-in's metadata, not its published schema
            schema_errors = [e for e in schema_errors if e.field != "metadata" and not e.field.startswith("metadata.")]
        errors = meta_errors + [e for e in schema_errors if e not in meta_errors]
    if errors:
        status = refusal({**new, "apiVersion": route.info.api_version, "kind": route.info.kind}, errors)
        raise Failure(int(status["code"]), str(status["reason"]), str(status["message"]), status.get("details"))


def _meta_errors(route: Route, new: dict[str, Any], stored: dict[str, Any] | None) -> list[FieldError]:
    """The metadata's errors as the apiserver's registry reports them. A create: the strategy's
    (ValidateObjectMeta with the kind's name rule; built-in kinds' also check finalizers against
    Kubernetes' own names). An update: the registry's common fields first (ValidateObjectMeta by
    the path-segment rule, then ValidateObjectMetaUpdate), then the strategy's
    ValidateObjectMetaUpdate again, so one mistake is reported up to three times on a custom
    resource; a built-in kind's answer has each distinct error once (as measured on 1.37)."""
    info = route.info
    is_builtin = builtin(info.group)
    kube = kube_finalizers_for(info.group, is_builtin)
    new_meta = meta(new)
    if stored is None:
        rule = name_rule_for(info.group, info.plural) if is_builtin else name_is_dns_subdomain
        return validate_object_meta(new_meta, namespaced=info.namespaced, name_rule=rule, kube_finalizers=kube)
    old_meta = meta(stored)
    errors = [
        *validate_object_meta(new_meta, namespaced=info.namespaced, name_rule=name_is_path_segment),
        *validate_object_meta(new_meta, namespaced=info.namespaced, old=old_meta),
        *validate_object_meta(new_meta, namespaced=info.namespaced, old=old_meta, kube_finalizers=kube),
    ]
    return list(dict.fromkeys(errors)) if is_builtin else errors


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
