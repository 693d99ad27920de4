"""The request's raw object, typed: controller-runtime's ``admission.Decoder`` for one model.

A webhook built for ``ConfigMap`` that is sent a Secret (a webhook configuration whose rules
are wider than the handler) must not judge it as a ConfigMap with every field unknown, so when
the model names its ``KIND`` and ``API_VERSION``, the request's ``kind`` must match them. A
CRD model or a user's own model without those class attributes is decoded as it comes.
The object is decoded into a fresh tree that shares nothing with the request (see below).
"""

from __future__ import annotations

from typing import Any, TypeVar

import msgspec

from kgen.runtime.apimachinery import Model, ModelError
from kgen.runtime.webhook.admission.review import AdmissionRequest

__all__ = ["DecodeError", "decode_object"]

M = TypeVar("M", bound=Model)


class DecodeError(ValueError):
    """The request does not hold a ``model`` where the handler needs one (answered 400)."""


def _api_version(group: str, version: str) -> str:
    return f"{group}/{version}" if group else version


def decode_object(model: type[M], request: AdmissionRequest, raw: dict[str, Any] | None, which: str) -> M:
    """``raw`` (the request's ``object`` or ``oldObject``, named by ``which``) as a ``model``."""
    kind = request.kind
    expected = (model.API_VERSION, model.KIND)
    if model.KIND is not None and (_api_version(kind.group, kind.version), kind.kind) != expected:
        raise DecodeError(
            f"this webhook handles {model.KIND} of {model.API_VERSION}, "
            f"the request is for {kind.kind} of {_api_version(kind.group, kind.version)}"
        )
    if raw is None:
        raise DecodeError(f"the {request.operation} request has no {which}")
    try:
        # From JSON text, not from the dict: ``msgspec.convert`` hands ``Any``-typed members
        # (unknown fields, preserve-unknown-fields subtrees) over by reference, and a defaulter
        # changing them in place would change the request's object too, hiding the change
        # from the patch.
        return model.from_json(msgspec.json.encode(raw))
    except ModelError as e:
        raise DecodeError(f"the request's {which} is not a {model.__name__}: {e}") from None
