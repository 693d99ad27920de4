"""admission.k8s.io/v1 ``AdmissionReview``: what the apiserver sends a webhook and what it reads back.

Field for field as k8s.io/api v0.37.2 ``admission/v1/types.go`` (names, wire names, Go order);
a Go field without ``omitempty`` is a required ``T``, the others ``T | None = None``
(model.py's contract). The request's ``object``, ``oldObject`` and ``options`` are Go
``runtime.RawExtension`` values: the object's JSON as the apiserver serialized it, kept here as
the decoded JSON object (``dict``) so that a mutating webhook diffs against exactly what the
apiserver holds, and decoded into a typed model only by the handler that knows the type. Go
writes an empty RawExtension as ``null`` (``oldObject`` on CREATE): that reads as ``None``.
``AdmissionResponse.patch`` is Go ``[]byte``, base64 on the wire; msgspec encodes ``bytes``
the same way, so ``patch`` holds the JSON patch's own bytes.

admission.k8s.io/v1beta1 has the same shape; the HTTP layer accepts both and answers in the
version it was asked in, as controller-runtime does.
"""

from __future__ import annotations

from typing import Any, Literal

from kgen.runtime.apimachinery import Model, field
from kgen.runtime.webhook.review_meta import GroupVersionKind, GroupVersionResource, Status, UserInfo

__all__ = ["AdmissionRequest", "AdmissionResponse", "AdmissionReview", "Operation", "PATCH_TYPE_JSON_PATCH"]

Operation = Literal["CREATE", "UPDATE", "DELETE", "CONNECT"]
"""``admissionv1.Operation``: what the request does to the object."""

PATCH_TYPE_JSON_PATCH = "JSONPatch"
"""``admissionv1.PatchTypeJSONPatch``, the only patch type the apiserver accepts from a webhook."""


class AdmissionRequest(Model, kw_only=True):
    """``admissionv1.AdmissionRequest``: one API request the webhook is asked to admit."""

    uid: str
    """Identifies this call; the response must carry the same ``uid`` or the apiserver rejects it."""
    kind: GroupVersionKind
    """The kind of ``object``, in the version the webhook registered for (may differ from
    ``request_kind`` when the apiserver converted it for a ``matchPolicy: Equivalent`` rule)."""
    resource: GroupVersionResource
    sub_resource: str | None = field(default=None, name="subResource")
    request_kind: GroupVersionKind | None = field(default=None, name="requestKind")
    request_resource: GroupVersionResource | None = field(default=None, name="requestResource")
    request_sub_resource: str | None = field(default=None, name="requestSubResource")
    name: str | None = None
    namespace: str | None = None
    operation: str
    """One of ``Operation``'s values (kept a ``str``: a newer apiserver may send another)."""
    user_info: UserInfo = field(name="userInfo")
    object: dict[str, Any] | None = None
    """The object as it would be stored (CREATE, UPDATE); ``None`` on DELETE."""
    old_object: dict[str, Any] | None = field(default=None, name="oldObject")
    """The stored object (UPDATE, DELETE); ``None`` on CREATE."""
    dry_run: bool | None = field(default=None, name="dryRun")
    """True when the request is a dry run: a webhook with side effects must skip them."""
    options: dict[str, Any] | None = None
    """The request's options (``CreateOptions``, ``UpdateOptions``, ``DeleteOptions``), as JSON."""


class AdmissionResponse(Model, kw_only=True):
    """``admissionv1.AdmissionResponse``: the webhook's verdict."""

    uid: str
    allowed: bool
    status: Status | None = None
    """Go's ``Result``: on a denial, ``message`` and ``code`` are what the client sees."""
    patch: bytes | None = None
    """A JSON patch (RFC 6902) to apply to ``object``: mutating webhooks only."""
    patch_type: str | None = field(default=None, name="patchType")
    audit_annotations: dict[str, str] | None = field(default=None, name="auditAnnotations")
    warnings: list[str] | None = None
    """Shown to the client as ``Warning`` headers (kubectl prints them)."""


class AdmissionReview(Model, kw_only=True):
    """``admissionv1.AdmissionReview``: a request going in, a response coming out."""

    API_VERSION = "admission.k8s.io/v1"
    KIND = "AdmissionReview"
    kind: str | None = None
    api_version: str | None = field(default=None, name="apiVersion")
    request: AdmissionRequest | None = None
    response: AdmissionResponse | None = None
