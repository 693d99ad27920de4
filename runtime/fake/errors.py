"""Failures as the apiserver reports them: a ``Status`` body with its code, reason and wording.

Clients match on more than the code: client-go's ``errors.IsNotFound`` and friends read the
reason, kgen's ``error_from_status`` builds its exception from the whole body, and users' tests
assert on the message. So every failure the fake answers is raised as a ``Failure`` carrying
the exact ``Status`` the apiserver would send (``tests/contract`` compares them).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kgen.runtime.gentype.resource import ResourceInfo

_CONFLICT = "the object has been modified; please apply your changes to the latest version and try again"


class Failure(Exception):
    """A request the apiserver refuses; ``status`` is the body it answers with."""

    def __init__(
        self, code: int, reason: str, message: str, details: Mapping[str, Any] | None = None,
        metadata: Mapping[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.status: dict[str, Any] = {
            "kind": "Status", "apiVersion": "v1", "metadata": dict(metadata or {}), "status": "Failure",
            "message": message, "reason": reason, **({} if details is None else {"details": dict(details)}), "code": code,
        }
        self.code = code
        self.warnings: list[str] = []
        """``Warning`` headers gathered before the refusal (the apiserver sends them with it)."""


def qualified(info: ResourceInfo) -> str:
    """``plural.group``: how the apiserver names a resource in its messages."""
    return f"{info.plural}.{info.group}" if info.group else info.plural


def details(info: ResourceInfo, name: str) -> dict[str, Any]:
    """A Status's details for object ``name`` of the resource."""
    return {"name": name, **({"group": info.group} if info.group else {}), "kind": info.plural}


def not_found(info: ResourceInfo, name: str) -> Failure:
    """The apiserver's 404 NotFound for object ``name``."""
    return Failure(404, "NotFound", f'{qualified(info)} "{name}" not found', details(info, name))


def already_exists(info: ResourceInfo, name: str) -> Failure:
    """The apiserver's 409 AlreadyExists for object ``name``."""
    return Failure(409, "AlreadyExists", f'{qualified(info)} "{name}" already exists', details(info, name))


def conflict(info: ResourceInfo, name: str) -> Failure:
    """The apiserver's 409 Conflict for object ``name`` (a stale resourceVersion)."""
    message = f'Operation cannot be fulfilled on {qualified(info)} "{name}": {_CONFLICT}'
    return Failure(409, "Conflict", message, details(info, name))


def expired(message: str, metadata: Mapping[str, Any] | None = None) -> Failure:
    """A 410 Expired with ``message`` (a continue token or resourceVersion too old)."""
    return Failure(410, "Expired", message, metadata=metadata)


def bad_request(message: str) -> Failure:
    """A 400 BadRequest with ``message``."""
    return Failure(400, "BadRequest", message)


def no_route() -> Failure:
    """The apiserver's 404 for a path it does not serve."""
    return Failure(404, "NotFound", "the server could not find the requested resource", {})


def method_not_allowed() -> Failure:
    """The apiserver's 405 for a verb the resource does not allow."""
    return Failure(405, "MethodNotAllowed", "the server does not allow this method on the requested resource", {})


def invalid(kind: str, name: str, field_path: str, reason: str, message: str) -> Failure:
    """A 422 Invalid of object ``name`` with one cause at ``field_path``, in the apiserver's words."""
    return Failure(
        422, "Invalid", f'{kind} "{name}" is invalid: {field_path}: {message}',
        {"name": name, "kind": kind, "causes": [{"reason": reason, "message": message, "field": field_path}]},
    )


def unsupported_patch(custom_resource: bool) -> Failure:
    """A patch type the resource does not take: built-in resources and CRDs word it differently."""
    if not custom_resource:
        return Failure(415, "UnsupportedMediaType", "415: Unsupported Media Type", {})
    return Failure(
        415, "UnsupportedMediaType",
        "the body of the request was in an unknown format - accepted media types include: "
        "application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml",
    )  # no details: the apiextensions handler builds this Status itself
