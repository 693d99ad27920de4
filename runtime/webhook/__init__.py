"""Webhooks the apiserver calls: admission (validating, mutating) and CRD conversion, served
over HTTPS with a certificate reloaded from its files (controller-runtime's ``pkg/webhook`` and
``pkg/certwatcher``, in snake_case).

- ``admission``: typed ``AdmissionReview``; ``Validator[T]`` (``with_validator``) and
  ``Defaulter[T]`` (``with_defaulter``, answering with the JSON patch to the mutated object).
- ``conversion``: typed ``ConversionReview``; ``ConversionWebhook`` with typed functions
  between a CRD's versions.
- ``WebhookServer``: HTTPS on threads, one endpoint per path, graceful stop; ``CertWatcher``.
- ``create_patch``: the JSON patch (RFC 6902) between two JSON documents.

It stands on the values layer (``kgen.runtime.apimachinery``) only: a webhook needs no client.
"""

from kgen.runtime.webhook.cert_watcher import CertificateLoadError, CertWatcher
from kgen.runtime.webhook.endpoint import Endpoint, Reply
from kgen.runtime.webhook.json_patch_diff import create_patch
from kgen.runtime.webhook.server import DEFAULT_MAX_REQUEST_BYTES, DEFAULT_PORT, WebhookServer

__all__ = [
    "CertWatcher", "CertificateLoadError", "DEFAULT_MAX_REQUEST_BYTES", "DEFAULT_PORT", "Endpoint", "Reply",
    "WebhookServer", "create_patch",
]
