"""``SchemaValidator``: a validating webhook's first check is the apiserver's own schema validation.

The apiserver runs a kind's validating webhooks after its schema validation, so a webhook for
that very kind sees schema-valid objects only. Where that is not so (a webhook judging objects
of another schema, or served by something other than the apiserver, a test calling the handler
directly) the schema's verdict comes first: the errors
``kgen.runtime.apimachinery.validation.validate`` predicts (for a custom resource its structural
schema and CEL rules; an update judged against the old object, ratcheting and transition rules
included), refused with the 422 Status the apiserver would send. When the object passes, the
wrapped validator judges it. An object of the wrong JSON types is refused before, by the typed
decode (400):

    server.register("/validate-ledger", with_validator(Ledger, SchemaValidator(LedgerPolicy())))
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Generic, TypeVar

from kgen.runtime.apimachinery import Model
from kgen.runtime.apimachinery.errors import error_from_status
from kgen.runtime.apimachinery.validation.refusal import refusal
from kgen.runtime.apimachinery.validation import FieldValidation, validate
from kgen.runtime.webhook.admission.validator import Validator

__all__ = ["SchemaValidator"]

T = TypeVar("T", bound=Model)


class SchemaValidator(Generic[T]):
    """A ``Validator`` that refuses what the apiserver's schema validation refuses (an
    ``Invalid``: code 422, the apiserver's causes), then asks ``then`` (if given). Deletes are
    not schema-checked."""

    def __init__(self, then: Validator[T] | None = None, *, field_validation: FieldValidation = "Warn") -> None:
        self.then = then
        self.field_validation: FieldValidation = field_validation

    def validate_create(self, obj: T) -> Sequence[str] | None:
        """Refuse ``obj`` as the apiserver's schema validation would, then ask the wrapped validator."""
        self._check(obj, None)
        return self.then.validate_create(obj) if self.then is not None else None

    def validate_update(self, old: T, new: T) -> Sequence[str] | None:
        """Refuse ``new`` as the apiserver's validation of an update from ``old`` would, then ask the wrapped
        validator."""
        self._check(new, old)
        return self.then.validate_update(old, new) if self.then is not None else None

    def validate_delete(self, obj: T) -> Sequence[str] | None:
        """The wrapped validator's answer (the schema does not judge deletes)."""
        return self.then.validate_delete(obj) if self.then is not None else None

    def _check(self, obj: T, old: T | None) -> None:
        errors = validate(obj, old=old, field_validation=self.field_validation)
        if errors:
            raise error_from_status(refusal(obj.to_dict(), errors), 422)
