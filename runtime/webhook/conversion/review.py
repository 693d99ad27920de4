"""apiextensions.k8s.io/v1 ``ConversionReview``: a CRD conversion webhook's request and answer.

Field for field as k8s.io/apiextensions-apiserver v0.37.2 ``pkg/apis/apiextensions/v1/types.go``
(names, wire names, Go order). The stock generated package has no model of these (no OpenAPI
document publishes them), and the runtime may not import it anyway. ``objects`` and
``convertedObjects`` are Go ``[]runtime.RawExtension``: each a custom resource's JSON, kept as
the decoded JSON object and typed by the conversion handler, which knows the models.
"""

from __future__ import annotations

from typing import Any

from kgen.runtime.apimachinery import Model, field
from kgen.runtime.webhook.review_meta import Status

__all__ = ["ConversionRequest", "ConversionResponse", "ConversionReview"]


class ConversionRequest(Model, kw_only=True):
    """``ConversionRequest``: convert every object to ``desired_api_version``."""

    uid: str
    desired_api_version: str = field(name="desiredAPIVersion")
    objects: list[dict[str, Any]]


class ConversionResponse(Model, kw_only=True):
    """``ConversionResponse``: the objects converted, in the request's order, or a failure.

    The apiserver checks the answer: as many objects as it sent, each in the desired version,
    with the same ``metadata`` apart from labels and annotations."""

    uid: str
    converted_objects: list[dict[str, Any]] = field(name="convertedObjects")
    result: Status
    """``status: "Success"``, or ``"Failure"`` with a ``message`` the client is shown."""


class ConversionReview(Model, kw_only=True):
    """``ConversionReview``: a request going in, a response coming out."""

    API_VERSION = "apiextensions.k8s.io/v1"
    KIND = "ConversionReview"
    kind: str | None = None
    api_version: str | None = field(default=None, name="apiVersion")
    request: ConversionRequest | None = None
    response: ConversionResponse | None = None
