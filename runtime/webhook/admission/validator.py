"""``Validator[T]`` and the validating webhook around it (controller-runtime's ``CustomValidator``
and ``WithCustomValidator``, ``validator_custom.go``).

A validator judges typed objects: ``validate_create(obj)``, ``validate_update(old, new)``,
``validate_delete(obj)`` (the stored object, from the request's ``oldObject``, as
controller-runtime decodes it). Each returns warnings (or ``None``) to allow, or raises
``Denied`` to refuse (``denied.py`` says why a plain exception is not a denial here). As in
controller-runtime, an operation other than CREATE, UPDATE and DELETE (CONNECT) is an error
(400): a webhook configuration that sends it to a validator is misconfigured.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Generic, Protocol, TypeVar

from kgen.runtime.apimachinery import Model
from kgen.runtime.webhook.admission.decode import DecodeError, decode_object
from kgen.runtime.webhook.admission.response import allowed, errored
from kgen.runtime.webhook.admission.review import AdmissionRequest, AdmissionResponse
from kgen.runtime.webhook.admission.webhook import Webhook

__all__ = ["ValidatingHandler", "Validator", "with_validator"]

T = TypeVar("T", bound=Model)
T_contra = TypeVar("T_contra", bound=Model, contravariant=True)


class Validator(Protocol[T_contra]):
    """Judges objects of one model. Return warnings to allow; raise ``Denied`` to refuse."""

    def validate_create(self, obj: T_contra) -> Sequence[str] | None:
        """Judge a created object: return warnings (or ``None``) to admit it; raise ``Denied`` to refuse it."""

    def validate_update(self, old: T_contra, new: T_contra) -> Sequence[str] | None:
        """Judge an update from ``old`` to ``new``: return warnings (or ``None``) to admit it; raise ``Denied``
        to refuse it."""

    def validate_delete(self, obj: T_contra) -> Sequence[str] | None:
        """Judge a deleted object (the request's old object): return warnings (or ``None``) to admit it; raise
        ``Denied`` to refuse it."""


class ValidatingHandler(Generic[T]):
    """The admission ``Handler`` that decodes the request's objects as ``model`` and asks
    ``validator``."""

    def __init__(self, model: type[T], validator: Validator[T]) -> None:
        self.model = model
        self.validator = validator

    def handle(self, request: AdmissionRequest) -> AdmissionResponse:
        """Decode the request's object(s) as the model and ask the validator for the operation; allowed with
        its warnings. An object that does not decode, or an unknown operation, is a 400."""
        try:
            if request.operation == "CREATE":
                warnings = self.validator.validate_create(decode_object(self.model, request, request.object, "object"))
            elif request.operation == "UPDATE":
                new = decode_object(self.model, request, request.object, "object")
                old = decode_object(self.model, request, request.old_object, "oldObject")
                warnings = self.validator.validate_update(old, new)
            elif request.operation == "DELETE":
                warnings = self.validator.validate_delete(decode_object(self.model, request, request.old_object, "oldObject"))
            else:
                return errored(400, f"unknown operation {request.operation!r}")
        except DecodeError as e:
            return errored(400, str(e))
        return allowed(warnings=warnings or ())


def with_validator(model: type[T], validator: Validator[T], name: str = "") -> Webhook:
    """A validating admission webhook for ``model``, ready to register on a ``WebhookServer``."""
    return Webhook(ValidatingHandler(model, validator), name or f"validate-{model.__name__}")
