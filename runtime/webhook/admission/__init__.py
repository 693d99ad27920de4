"""Admission webhooks (controller-runtime's ``pkg/webhook/admission``): typed
``AdmissionReview`` models, ``Validator[T]`` and ``Defaulter[T]`` handlers, and the
``Webhook`` endpoint that serves one handler.

    server.register("/validate-v1-configmap", with_validator(ConfigMap, MyValidator()))
    server.register("/mutate-v1-configmap", with_defaulter(ConfigMap, MyDefaulter()))
    server.register("/validate-ledger", with_validator(Ledger, SchemaValidator(MyLedgerPolicy())))
"""

from kgen.runtime.webhook.admission.decode import DecodeError
from kgen.runtime.webhook.admission.defaulter import Defaulter, MutatingHandler, with_defaulter
from kgen.runtime.webhook.admission.denied import Denied
from kgen.runtime.webhook.admission.request_context import current_request
from kgen.runtime.webhook.admission.response import allowed, denied, errored, patch_response, validation_response
from kgen.runtime.webhook.admission.review import (
    PATCH_TYPE_JSON_PATCH,
    AdmissionRequest,
    AdmissionResponse,
    AdmissionReview,
    Operation,
)
from kgen.runtime.webhook.admission.schema import SchemaValidator
from kgen.runtime.webhook.admission.validator import ValidatingHandler, Validator, with_validator
from kgen.runtime.webhook.admission.webhook import Handler, Webhook

__all__ = [
    "AdmissionRequest", "AdmissionResponse", "AdmissionReview", "DecodeError", "Defaulter", "Denied", "Handler",
    "MutatingHandler", "Operation", "PATCH_TYPE_JSON_PATCH", "SchemaValidator", "ValidatingHandler", "Validator", "Webhook", "allowed",
    "current_request", "denied", "errored", "patch_response", "validation_response", "with_defaulter", "with_validator",
]
