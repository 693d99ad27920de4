"""The meta/v1 and authentication/v1 values the review objects carry.

``AdmissionRequest`` names its object's kind and resource with apimachinery's
``metav1.GroupVersionKind`` / ``metav1.GroupVersionResource`` (plain structs that no OpenAPI
document publishes, so the generated package has no model of them), and both reviews answer
with a ``metav1.Status``. The runtime may not import the generated ``kgen.kubernetes`` (the
``runtime-standalone`` import-linter contract), so the few types the reviews need are declared
here, field for field as k8s.io/apimachinery v0.37.2 ``pkg/apis/meta/v1/types.go`` and
k8s.io/api v0.37.2 ``authentication/v1/types.go`` declare them: a Go field without
``omitempty`` is a required ``T``, every other one ``T | None = None`` (model.py's contract), and
fields are listed in the Go struct's order so the JSON comes out in the order Go writes it.
"""

from __future__ import annotations

from kgen.runtime.apimachinery import Model, field

__all__ = ["GroupVersionKind", "GroupVersionResource", "ListMeta", "ShardInfo", "Status", "StatusCause", "StatusDetails", "UserInfo"]


class GroupVersionKind(Model, kw_only=True):
    """``metav1.GroupVersionKind``: all three fields are written, even when empty (core group)."""

    group: str
    version: str
    kind: str


class GroupVersionResource(Model, kw_only=True):
    """``metav1.GroupVersionResource``."""

    group: str
    version: str
    resource: str


class UserInfo(Model, kw_only=True):
    """``authenticationv1.UserInfo``: who sent the request the webhook is asked about."""

    username: str | None = None
    uid: str | None = None
    groups: list[str] | None = None
    extra: dict[str, list[str]] | None = None


class ListMeta(Model, kw_only=True):
    """``metav1.ListMeta`` (a ``Status`` carries one)."""

    self_link: str | None = field(default=None, name="selfLink")
    resource_version: str | None = field(default=None, name="resourceVersion")
    continue_: str | None = field(default=None, name="continue")
    remaining_item_count: int | None = field(default=None, name="remainingItemCount")
    shard_info: ShardInfo | None = field(default=None, name="shardInfo")


class ShardInfo(Model, kw_only=True):
    """``metav1.ShardInfo`` (alpha, ShardedListAndWatch): which shard a list response holds."""

    selector: str


class StatusCause(Model, kw_only=True):
    """``metav1.StatusCause``: one field's complaint (its Go field ``Type`` is the wire ``reason``)."""

    reason: str | None = None
    message: str | None = None
    field_: str | None = field(default=None, name="field")


class StatusDetails(Model, kw_only=True):
    """``metav1.StatusDetails``."""

    name: str | None = None
    group: str | None = None
    kind: str | None = None
    uid: str | None = None
    causes: list[StatusCause] | None = None
    retry_after_seconds: int | None = field(default=None, name="retryAfterSeconds")


class Status(Model, kw_only=True):
    """``metav1.Status``: an admission response's ``status`` (Go: ``Result``), a conversion
    response's ``result``. The apiserver shows ``message`` to the client and uses ``code`` as
    the HTTP status of a denied request."""

    API_VERSION = "v1"
    KIND = "Status"
    kind: str | None = None
    api_version: str | None = field(default=None, name="apiVersion")
    metadata: ListMeta | None = None
    status: str | None = None
    message: str | None = None
    reason: str | None = None
    details: StatusDetails | None = None
    code: int | None = None
