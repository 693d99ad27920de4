"""Version skew: a generated client for a group-version the server does not serve, and a server
too far from the Kubernetes version the package was generated from.

client-go's typed clients send to their path and hand back whatever comes: for a group-version
the server lacks, the apiserver's mux answers ``404 page not found`` in plain text, which reads as
a missing object. kubectl and the dynamic client find out beforehand, through discovery and a
RESTMapper ("no matches for kind"), at the price of discovery requests before the first call.
A typed client here asks discovery only after such an answer: a 404 whose body is not a
``Status``. A served resource never answers that way (a missing object is a Status with reason
NotFound), so the common path costs no discovery request. Then it reads the group-version's
resource list and raises ``VersionSkewError`` naming the group-version, the package's Kubernetes
version and the server's.

The skew window is client-go's: a client supports servers within one minor version of its own
(Kubernetes' version skew policy for kubectl and client-go, and client-go's compatibility
matrix), and ``kubectl version`` warns outside it. The first call a typed client of a package
with a Kubernetes version makes through a REST client reads ``/version`` first, once for that
REST client, and a server outside the window logs a warning and issues a ``UserWarning``, once
per process for each pair of versions. The check never fails the call it comes before: an
answer that is no version (403, no connection, a body that is not JSON) is swallowed and
remembered as unknown, and nothing is judged. Nothing is asked by a client whose package has
no Kubernetes version (the dynamic client's), nor behind a fake clientset (its REST client's
``watch_list_semantics_unsupported``, client-go's marker of its fakes), which has no server to
be skewed from.

Both answers are cached per REST client, as client-go's memory-cached discovery is: a loop of
failing calls asks once, and the 404 path reuses the version read before the first call. A
cached "not served" is trusted until the process ends; a cached "served" is contradicted by the
404 just seen, so it is asked again (a CRD deleted meanwhile).
"""

from __future__ import annotations

import logging
import re
import warnings
import weakref
from collections.abc import Generator
from dataclasses import dataclass, field
from typing import Any, TypeVar

import httpx
import msgspec

from kgen.runtime.apimachinery.errors import NotFound, VersionSkewError
from kgen.runtime.gentype.resource import ResourceInfo
from kgen.runtime.rest.client import AsyncRESTClient, Request, RESTClient

log = logging.getLogger("kgen.runtime.gentype.skew")

SKEW_WINDOW = 1
"""How many minor versions a server may be from the package's before kgen warns (client-go's ±1)."""

_MINOR = re.compile(r"^v?(\d+)\.(\d+)")
_warned: set[tuple[str, str]] = set()


@dataclass
class _Known:
    """What one REST client has learnt of its server: its version (None: not asked yet; "": asked,
    unknown), and the resources of each group-version asked about (None: the group-version is not
    served)."""

    server_version: str | None = None
    resources: dict[str, frozenset[str] | None] = field(default_factory=dict)


_known: weakref.WeakKeyDictionary[object, _Known] = weakref.WeakKeyDictionary()


def answered_by_no_handler(error: NotFound) -> bool:
    """Whether a 404 came from no handler at all (a plain-text body, not a ``Status``): the path's
    group-version or resource is not served, rather than the object missing."""
    return error.status.get("kind") != "Status" and not isinstance(error, VersionSkewError)


def minor_version(version: str) -> tuple[int, int] | None:
    """``(major, minor)`` of a version such as ``1.37.2``, ``v1.34.4+k3s1``; None if it is not one."""
    match = _MINOR.match(version)
    return (int(match.group(1)), int(match.group(2))) if match else None


def check_skew_window(generated_from: str, server_version: str) -> bool:
    """Warn (log and ``warnings``), once per process for this pair, when the server's minor
    version is more than ``SKEW_WINDOW`` from the package's; True when it is outside."""
    ours, theirs = minor_version(generated_from), minor_version(server_version)
    if ours is None or theirs is None:
        return False  # an unknown version cannot be judged: no warning rather than a wrong one
    if ours[0] == theirs[0] and abs(ours[1] - theirs[1]) <= SKEW_WINDOW:
        return False
    if (generated_from, server_version) not in _warned:
        _warned.add((generated_from, server_version))
        message = (f"the server runs Kubernetes {server_version}, outside the ±{SKEW_WINDOW} minor version "
                   f"window of this client, generated from Kubernetes {generated_from}: fields and "
                   "group-versions may differ; generate the package for the server's version")
        log.warning("%s", message)
        warnings.warn(message, UserWarning, stacklevel=2)
    return True


def _group_version_path(info: ResourceInfo) -> str:
    return f"/apis/{info.group}/{info.version}" if info.group else f"/api/{info.version}"


def _server_version(
    known: _Known, info: ResourceInfo, timeout: float | None = None,
) -> Generator[Request, httpx.Response | Exception, None]:
    """Reads ``/version`` into ``known`` unless it was asked already, and checks the window."""
    if known.server_version is not None:
        return
    known.server_version = ""  # taken before asking: a concurrent call, or one after a failure, asks no more
    answer = yield Request("GET", "/version", timeout=timeout)
    if not isinstance(answer, Exception):
        known.server_version = str(_json(answer.content).get("gitVersion") or "").removeprefix("v")
    check_skew_window(info.generated_from, known.server_version)


def _first_call(rest: RESTClient | AsyncRESTClient, info: ResourceInfo) -> _Known | None:
    """What ``rest`` knows, when a call of ``info``'s resource is to read ``/version`` before it goes;
    None (the common case, one look-up) when it is not."""
    if not info.generated_from or getattr(rest, "watch_list_semantics_unsupported", False):
        return None  # nothing to compare with, or no server behind (a fake clientset)
    known = _known.get(rest)
    if known is None:
        known = _known.setdefault(rest, _Known())
    return known if known.server_version is None else None


def _skew(
    rest: RESTClient | AsyncRESTClient, info: ResourceInfo, error: NotFound,
) -> Generator[Request, httpx.Response | Exception, VersionSkewError | None]:
    """The check without I/O: yields the requests to send and is sent back each answer (or the
    error it raised); returns the error to raise, or None to let the original 404 stand."""
    known = _known.setdefault(rest, _Known())
    gv = info.api_version
    plurals = known.resources.get(gv)
    # A cached "not served" (the group-version, or the resource in it) agrees with the 404 and is
    # trusted; a cached "served" is contradicted by it, or there is none: ask.
    if gv not in known.resources or (plurals is not None and info.plural in plurals):
        answer = yield Request("GET", _group_version_path(info))
        if isinstance(answer, NotFound):
            plurals = None
        elif isinstance(answer, Exception):
            return None  # discovery itself failed (403, 503, no connection): the 404 stands
        else:
            doc = _json(answer.content)
            plurals = frozenset(str(r.get("name", "")) for r in doc.get("resources") or [] if isinstance(r, dict))
        known.resources[gv] = plurals
    if plurals is not None and info.plural in plurals:
        return None  # served after all: a 404 of something else
    yield from _server_version(known, info)
    return VersionSkewError(
        gv, info.plural, info.generated_from, known.server_version or "", group_version_served=plurals is not None,
        request=error.request,
    )


def _json(body: bytes) -> dict[str, Any]:
    try:
        doc = msgspec.json.decode(body)
    except msgspec.DecodeError:
        return {}
    return doc if isinstance(doc, dict) else {}


_S = TypeVar("_S")


def _run(rest: RESTClient, steps: Generator[Request, httpx.Response | Exception, _S]) -> _S:
    """Sends each request ``steps`` yields through ``rest`` and returns what it returns. Any failure
    of a request is sent back as the answer: these look-ups never fail the call they serve."""
    try:
        req = next(steps)
        while True:
            answer: httpx.Response | Exception
            try:
                answer = rest.send(req)
            except Exception as e:  # ApiError, httpx's, an auth plugin's, a test transport's own
                answer = e
            req = steps.send(answer)
    except StopIteration as done:
        result: _S = done.value
        return result


async def _async_run(rest: AsyncRESTClient, steps: Generator[Request, httpx.Response | Exception, _S]) -> _S:
    """``_run`` for the asyncio REST client."""
    try:
        req = next(steps)
        while True:
            answer: httpx.Response | Exception
            try:
                answer = await rest.send(req)
            except Exception as e:
                answer = e
            req = steps.send(answer)
    except StopIteration as done:
        result: _S = done.value
        return result


def check_server_version(rest: RESTClient, info: ResourceInfo, timeout: float | None = None) -> None:
    """Before the first call of a typed client through ``rest``: read ``/version`` (once per
    ``rest``; bounded by ``timeout``, the calling client's ``with_timeout``) and warn if the server
    is outside the skew window of ``info``'s package."""
    known = _first_call(rest, info)
    if known is not None:
        _run(rest, _server_version(known, info, timeout))


async def async_check_server_version(rest: AsyncRESTClient, info: ResourceInfo, timeout: float | None = None) -> None:
    """``check_server_version`` for the asyncio REST client."""
    known = _first_call(rest, info)
    if known is not None:
        await _async_run(rest, _server_version(known, info, timeout))


def version_skew(rest: RESTClient, info: ResourceInfo, error: NotFound) -> VersionSkewError | None:
    """The ``VersionSkewError`` a no-handler 404 of ``info``'s resource stands for, asking discovery
    (cached per ``rest``); None when the server does serve it."""
    return _run(rest, _skew(rest, info, error))


async def async_version_skew(rest: AsyncRESTClient, info: ResourceInfo, error: NotFound) -> VersionSkewError | None:
    """``version_skew`` for the asyncio REST client."""
    return await _async_run(rest, _skew(rest, info, error))


__all__ = [
    "SKEW_WINDOW", "answered_by_no_handler", "async_check_server_version", "async_version_skew", "check_server_version",
    "check_skew_window", "minor_version", "version_skew",
]
