"""Errors from the apiserver, typed by what they mean, built from the server's ``Status``.

    ApiError
    ├── BadRequest (400)            ├── Gone (410) ── Expired (410, reason Expired)
    ├── Unauthorized (401)          ├── Invalid (422; .causes lists the fields)
    ├── Forbidden (403)             ├── TooManyRequests (429)
    ├── NotFound (404)              ├── InternalError (500)
    │   └── VersionSkewError (404: the server does not serve the client's group-version)
    ├── MethodNotAllowed (405)      ├── ServiceUnavailable (503)
    ├── Conflict (409)              └── ServerTimeout (504, or reason Timeout/ServerTimeout)
    │   └── AlreadyExists (409, reason AlreadyExists)

Every error carries ``code``, ``reason``, ``message`` and ``details`` (the Status' own fields).
The message is the server's; the request is described by method and path only, never headers.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import msgspec


@dataclass(frozen=True)
class StatusCause:
    """One cause of a Status: the field, the reason, and the message."""

    field: str
    reason: str
    message: str


class ApiError(Exception):
    """The apiserver answered with an error ``Status`` (HTTP status >= 400, or a watch ERROR)."""

    def __init__(self, status: dict[str, Any], code: int, request: str = "") -> None:
        self.status = status
        self.code = int(status.get("code") or code)
        self.reason = str(status.get("reason") or "")
        self.message = str(status.get("message") or "")
        self.details: dict[str, Any] = status.get("details") or {}
        self.request = request
        where = f"{request}: " if request else ""
        super().__init__(f"{where}{self.code} {self.reason or 'Error'}: {self.message}".rstrip(": "))

    @property
    def causes(self) -> list[StatusCause]:
        """The Status's details.causes (a 422's field errors)."""
        return [
            StatusCause(str(c.get("field", "")), str(c.get("reason", "")), str(c.get("message", "")))
            for c in self.details.get("causes") or []
        ]


class BadRequest(ApiError):
    """400 Bad Request."""


class Unauthorized(ApiError):
    """401 Unauthorized: no credentials, or the server did not accept them."""


class Forbidden(ApiError):
    """403 Forbidden: the user may not do this (RBAC), or admission refused it."""


class NotFound(ApiError):
    """404 Not Found: no such object (or resource)."""


class VersionSkewError(NotFound):
    """The server does not serve the group-version (or the resource in it) a generated client was
    written for: the package was generated from another Kubernetes version than the server runs.

    Raised instead of the bare ``404 page not found`` the apiserver answers for a path no handler
    serves; ``group_version``, ``resource``, ``generated_from`` (the package's Kubernetes version,
    "" if unknown) and ``server_version`` (the server's /version ``gitVersion``, "" if it could not
    be read) say which. A ``NotFound``, so ``except NotFound`` still catches it."""

    def __init__(
        self, group_version: str, resource: str, generated_from: str, server_version: str, *,
        group_version_served: bool, request: str = "",
    ) -> None:
        self.group_version = group_version
        self.resource = resource
        self.generated_from = generated_from
        self.server_version = server_version
        self.group_version_served = group_version_served
        server = f"Kubernetes {server_version}" if server_version else "a server of unknown version"
        client = f"Kubernetes {generated_from}" if generated_from else "an unknown Kubernetes version"
        what = (f"{group_version} on this server ({server}) does not serve {resource}" if group_version_served
                else f"{group_version} is not served by this server ({server})")
        message = (f"{what}; the client was generated from {client}. Generate the package for the "
                   "server's version, or use a group-version it serves (kubectl api-versions lists them)")
        super().__init__({"kind": "Status", "code": 404, "reason": "NotFound", "message": message}, 404, request)


class MethodNotAllowed(ApiError):
    """405 Method Not Allowed: the resource does not serve this verb."""


class Conflict(ApiError):
    """409 Conflict: the object changed since it was read (a stale resourceVersion); read it again and
    retry."""


class AlreadyExists(Conflict):
    """409 AlreadyExists: an object of that name exists."""


class Gone(ApiError):
    """410 Gone: the resourceVersion asked for is no longer available (``Expired`` for a too old one)."""


class Expired(Gone):
    """A resourceVersion or continue token the server no longer has: list again."""

    @property
    def continue_token(self) -> str | None:
        """The inconsistent continue token a 410 on a paged list offers, if any."""
        token = (self.status.get("metadata") or {}).get("continue")
        return str(token) if token else None


class Invalid(ApiError):
    """422 Invalid: the object fails validation; ``causes`` names the fields."""


class TooManyRequests(ApiError):
    """429 Too Many Requests: the server (API priority and fairness) asks the client to back off."""


class InternalError(ApiError):
    """500 Internal Server Error."""


class ServiceUnavailable(ApiError):
    """503 Service Unavailable."""


class ServerTimeout(ApiError):
    """504, or reason Timeout/ServerTimeout: the server did not answer in time."""


_BY_CODE: dict[int, type[ApiError]] = {
    400: BadRequest, 401: Unauthorized, 403: Forbidden, 404: NotFound, 405: MethodNotAllowed,
    409: Conflict, 410: Gone, 422: Invalid, 429: TooManyRequests, 500: InternalError,
    503: ServiceUnavailable, 504: ServerTimeout,
}
_BY_REASON: dict[str, type[ApiError]] = {
    "AlreadyExists": AlreadyExists, "Expired": Expired, "Gone": Gone, "Timeout": ServerTimeout,
    "ServerTimeout": ServerTimeout, "Invalid": Invalid, "NotFound": NotFound, "Forbidden": Forbidden,
    "Unauthorized": Unauthorized, "Conflict": Conflict, "TooManyRequests": TooManyRequests,
}


def error_from_status(status: dict[str, Any], code: int = 0, request: str = "") -> ApiError:
    """An ``ApiError`` from a Status, of the class its reason names, else its code's (``code`` when
    the Status has none); a 410 of another reason than Gone is ``Expired``."""
    code = int(status.get("code") or code)
    reason = str(status.get("reason") or "")
    cls = _BY_REASON.get(reason) or _BY_CODE.get(code) or ApiError
    if code == 410 and cls is Gone and reason != "Gone":
        cls = Expired  # "too old resource version" comes as 410 with reason Expired or none
    return cls(status, code, request)


def error_from_response(code: int, body: bytes, request: str = "") -> ApiError:
    """An ApiError from an HTTP error response, whether or not its body is a Status."""
    try:
        status = msgspec.json.decode(body) if body else {}
    except msgspec.DecodeError:
        status = {}
    if not isinstance(status, dict) or status.get("kind") != "Status":
        text = body[:500].decode("utf-8", "replace").strip()
        status = {"code": code, "message": text or f"HTTP {code}"}
    return error_from_status(status, code, request)
