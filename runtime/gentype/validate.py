"""``validate=True`` on a typed client's write: the body about to be sent checked as the
apiserver would check it, and refused as it would refuse it, before any request."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import msgspec

from kgen.runtime.apimachinery.apply import ApplyConfiguration
from kgen.runtime.apimachinery.errors import error_from_status
from kgen.runtime.apimachinery.model import Model
from kgen.runtime.apimachinery.validation.refusal import refusal
from kgen.runtime.apimachinery.validation.validation import errors_under, validate
from kgen.runtime.gentype.resource import Codec
from kgen.runtime.rest.client import Request


def check_request(
    req: Request, obj: Any, codec: Codec[Any, Any], options: Mapping[str, Any], *, apply: bool = False,
    status: bool = False,
) -> None:
    """``validate=True``: refuse what the apiserver would refuse, as it would, sending nothing.

    The body about to be sent is checked by ``kgen.runtime.apimachinery.validation.validate``
    under the request's ``field_validation`` (``Strict`` when none is given, as kubectl sends it)
    against the schemas of the package the model comes from; its errors raise the exception the
    apiserver's answer would (``Invalid``, a 422 with its causes, or ``BadRequest``), built from
    the ``Status`` it would send (``kgen.runtime.apimachinery.validation.refusal``). A kind without a schema in that package
    raises LookupError: asked to validate, the client does not send unchecked.

    Server-side apply validates the object *merged* with what the server holds, which the client
    does not know. A full model of the kind is checked whole. An apply configuration or mapping is
    partial: only what the merge cannot undo is checked, the errors at the scalar values it sets
    (a wrong type, format, pattern, enum, bound or length), with its unknown fields ignored and no
    CEL rule, required field, list size or duplicate judged (they depend on the merged object).
    Those errors' list indexes are the configuration's; in a list-map the merged item may sit
    at another index in the server's answer.

    A write to ``status`` keeps the stored object but its status (and metadata): only the errors
    there count (``status=True``); a rule on a node above ``status`` is not judged.
    """
    body = msgspec.json.decode(req.body or b"{}")
    model = getattr(codec, "cls", None) or type(obj)
    module = model.__module__
    package = module.split(".models.")[0] if ".models." in module else None
    partial = apply and not (isinstance(obj, Model) and not isinstance(obj, ApplyConfiguration))
    if partial:
        scalars = set(_scalar_paths(body, ""))
        errors = [e for e in validate(body, package=package, field_validation="Ignore", cel=False)
                  if e.type in _SCALAR_ERRORS and e.field in scalars]
    else:
        errors = validate(body, package=package, field_validation=options.get("field_validation") or "Strict",
                          subresource="status" if status else None)
    if status:
        errors = errors_under(errors, ("status", "metadata"))
    if errors:
        raise error_from_status(refusal(body, errors), 0, req.describe())


_SCALAR_ERRORS = frozenset({"FieldValueInvalid", "FieldValueNotSupported", "FieldValueTypeInvalid", "FieldValueTooLong"})
"""The errors about one scalar value, which an apply's merge keeps wherever the value lands."""


def _scalar_paths(value: Any, path: str) -> Iterator[str]:
    """The field paths (as the apiserver writes them) of every scalar ``value`` holds."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _scalar_paths(item, f"{path}.{key}" if path else str(key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _scalar_paths(item, f"{path}[{i}]")
    else:
        yield path


