"""A request as the fake apiserver sees it, where it goes, and the answer.

``Call`` is the same for the sync and the async transport, so every verb is written once;
``Route`` is the apiserver's RequestInfo (resource, namespace, name, subresource) with the
resource already looked up; ``Reply`` is a status code and a JSON body.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import httpx
import msgspec

from kgen.runtime.fake.errors import bad_request
from kgen.runtime.fake.store import Key, Obj
from kgen.runtime.gentype.resource import ResourceInfo

DEFAULT_MANAGER = "kgen-fake"
"""The field manager of a write whose request names none and has no user agent."""


@dataclass
class Call:
    """One HTTP request, as the tracker sees it (the same for both transports)."""

    method: str
    path: str
    params: httpx.QueryParams
    body: bytes
    content_type: str
    user_agent: str
    read_timeout: float | None

    @classmethod
    def of(cls, request: httpx.Request, body: bytes) -> "Call":
        """The call of an httpx request whose body was read."""
        timeout = request.extensions.get("timeout") or {}
        read = timeout.get("read") if isinstance(timeout, Mapping) else None
        return cls(
            request.method, request.url.path, request.url.params, body,
            request.headers.get("Content-Type", "").split(";")[0].strip(), request.headers.get("User-Agent", ""),
            float(read) if isinstance(read, (int, float)) else None,
        )

    @property
    def dry_run(self) -> bool:
        """Whether the request asks for a dry run."""
        return bool(self.params.get("dryRun"))

    @property
    def manager(self) -> str:
        """The field manager: the query's, else the apiserver's default (the user agent's first word)."""
        return self.params.get("fieldManager") or self.user_agent.split("/")[0].strip() or DEFAULT_MANAGER

    def json(self) -> Any:
        """The body decoded as JSON (None for an empty body); a 400 if it is not JSON."""
        try:
            return msgspec.json.decode(self.body) if self.body else None
        except msgspec.DecodeError as e:
            raise bad_request(f"the body of the request could not be decoded: {e}") from None


@dataclass(frozen=True)
class Route:
    """What a request's path names: the resource, namespace, object name and subresource ("" where
    absent)."""

    info: ResourceInfo
    namespace: str
    name: str
    subresource: str

    @property
    def key(self) -> Key:
        """The object's store key: (namespace, name), namespace "" for a cluster-scoped resource."""
        return (self.namespace if self.info.namespaced else "", self.name)


@dataclass
class Reply:
    """The tracker's answer: the status code, the JSON body, and warnings."""

    code: int
    body: Obj | None = None
    warnings: list[str] = field(default_factory=list)
    """``Warning`` header values, in order (fieldValidation=Warn's unknown fields)."""


def parse_rv(value: str) -> int:
    """A ``resourceVersion`` query parameter: a non-negative integer, else 400 in the apiserver's words."""
    try:
        rv = int(value)
    except ValueError:
        rv = -1
    if rv < 0:
        raise bad_request(f'invalid resource version: resourceVersion: Invalid value: "{value}"')
    return rv
