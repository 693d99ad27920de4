"""The admission ``Webhook``: an AdmissionReview body in, an AdmissionReview body out.

controller-runtime's ``admission.Webhook`` (``webhook.go`` + ``http.go``), what it does and
where this differs:
- The body must be JSON (``Content-Type: application/json``; parameters such as a charset are
  ignored) holding an ``AdmissionReview`` of admission.k8s.io/v1 or v1beta1 with a ``request``.
  Anything else is answered with a plain-text 400, not with a review: without the request's
  ``uid`` no review answer is valid, and the apiserver reports any non-2xx answer as a failed
  call, message included, and applies the webhook's ``failurePolicy``. (controller-runtime
  writes an errored review with an empty uid, which the apiserver rejects as not matching.)
- The handler's response gets the request's ``uid``, and ``status.code`` 200 when it allows
  without saying more (controller-runtime's ``Response.Complete``).
- The answer is an ``AdmissionReview`` in the apiVersion the request came in.
- A handler that raises is answered ``allowed: false``, code 500 (``errored``), and logged with
  its traceback; controller-runtime answers a recovered panic the same way (RecoverPanic), and
  counts it (``controller_runtime_webhook_panics_total``, through ``report_panics_to``).
- Nothing here logs a request's body or object: admission requests carry Secrets.
"""

from __future__ import annotations

import logging
from typing import Protocol

import msgspec

from kgen.runtime.apimachinery import ApiError
from kgen.runtime.webhook.admission.denied import Denied
from kgen.runtime.webhook.admission.request_context import reset_request, set_request
from kgen.runtime.webhook.admission.response import denied, errored
from kgen.runtime.webhook.admission.review import AdmissionRequest, AdmissionResponse, AdmissionReview
from kgen.runtime.webhook.endpoint import Reply, read_review
from kgen.runtime.webhook.metrics import NO_WEBHOOK_METRICS, WebhookMetrics
from kgen.runtime.webhook.review_meta import Status, StatusCause, StatusDetails

__all__ = ["Handler", "Webhook", "response_from_exception"]

_log = logging.getLogger("kgen.webhook.admission")

REVIEW_VERSIONS = ("admission.k8s.io/v1", "admission.k8s.io/v1beta1")
"""The review versions the apiserver may send (``admissionReviewVersions``); same shape."""


class Handler(Protocol):
    """Judges one admission request (controller-runtime's ``admission.Handler``)."""

    def handle(self, request: AdmissionRequest) -> AdmissionResponse:
        """The verdict on one admission request. May raise ``Denied`` or ``ApiError``: ``Webhook`` answers them."""


class Webhook:
    """An ``Endpoint`` serving one admission ``Handler`` (``ValidatingWebhook``,
    ``MutatingWebhook``, or any object with ``handle``)."""

    def __init__(self, handler: Handler, name: str = "") -> None:
        self.handler = handler
        self.name = name or type(handler).__name__
        self._metrics: WebhookMetrics = NO_WEBHOOK_METRICS

    def report_panics_to(self, metrics: WebhookMetrics) -> None:
        """Count a handler's unexpected exceptions in ``metrics`` (the server serving it calls this)."""
        self._metrics = metrics

    def serve(self, body: bytes, content_type: str) -> Reply:
        """Answer one POSTed AdmissionReview with the handler's response, in the review's version."""
        review = read_review(body, content_type, AdmissionReview, REVIEW_VERSIONS)
        if isinstance(review, Reply):
            return review
        assert review.request is not None  # read_review answers a review without one
        response = self.handle(review.request)
        answer = AdmissionReview(api_version=review.api_version, kind="AdmissionReview", response=response)
        return Reply(200, answer.to_json())

    def handle(self, request: AdmissionRequest) -> AdmissionResponse:
        """The handler's verdict on ``request``, with its uid; never raises."""
        token = set_request(request)
        try:
            response = self.handler.handle(request)
        except Exception as e:  # the handler's own Denied/ApiError are answered by response_from_exception
            if not isinstance(e, (Denied, ApiError)):
                self._metrics.webhook_panic()
            response = response_from_exception(e, self.name, request)
        finally:
            reset_request(token)
        # A copy: a handler may hand out one response object to concurrent requests.
        status = Status(code=200) if response.allowed and response.status is None else response.status
        return msgspec.structs.replace(response, uid=request.uid, status=status)


def response_from_exception(error: Exception, name: str, request: AdmissionRequest) -> AdmissionResponse:
    """``Denied`` → 403 with its message; ``ApiError`` → its own Status; anything else → 500
    naming only the exception's type (its text and traceback go to the log, not to the client)."""
    if isinstance(error, Denied):
        return denied(error.message, error.warnings)
    if isinstance(error, ApiError):
        causes = [StatusCause(reason=c.reason or None, message=c.message or None, field_=c.field or None) for c in error.causes]
        status = Status(
            status="Failure", code=error.code, reason=error.reason or None, message=error.message or None,
            details=StatusDetails(causes=causes) if causes else None,
        )
        return AdmissionResponse(uid="", allowed=False, status=status)
    _log.error(
        "admission webhook %s failed on %s %s %s/%s (uid %s)", name, request.operation, request.kind.kind,
        request.namespace or "", request.name or "", request.uid, exc_info=error,
    )
    return errored(500, f"admission webhook {name} failed: {type(error).__name__}")
