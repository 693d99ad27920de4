"""Why reading a live cluster failed, said in one line with what to check.

``kgen generate --cluster`` and ``kgen snapshot`` read ``/version``, ``/openapi/v2``,
``/openapi/v3/*`` and discovery. What a user can do about a failure depends on its kind, so each
kind names what to check, the way kubectl's errors do ("error: You must be logged in to the
server (Unauthorized)", "... is forbidden: User ... cannot ..."):

- 401: the apiserver authenticated nobody: the kubeconfig user's credentials (token, client
  certificate, exec plugin) were refused or have expired.
- 403: an identity was established but RBAC refused it. These paths are non-resource URLs that
  the bootstrap ClusterRole ``system:discovery`` grants to every authenticated user
  (``system:public-info-viewer`` grants only ``/version`` to anonymous ones), so a 403 here
  usually means no credentials reached the server (``system:anonymous``) or a cluster that has
  narrowed those roles.
- any other status: the server's own ``Status.message`` when it sent one, not the raw JSON.
- no HTTP answer at all: the address, the network, or TLS (the cluster's certificate authority).

The kubeconfig file and the context are named so the user knows which entry to fix.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

#: The non-resource URLs kgen reads (as RBAC patterns): all within the bootstrap ClusterRole
#: system:discovery, bound to system:authenticated (checked against a real apiserver in tests).
READ_URLS = ("/version", "/openapi/*", "/api", "/api/*", "/apis", "/apis/*")
_RBAC_HINT = (
    "check the RBAC of the context's user: reading a cluster needs get on the non-resource URLs "
    f"{', '.join(READ_URLS[:-1])} and {READ_URLS[-1]}, which the system:discovery ClusterRole grants to "
    "authenticated users"
)
_AUTH_HINT = (
    "check the credentials of the context's user, its token, client certificate or exec plugin, "
    "and whether the token has expired"
)


class ClusterAccessError(RuntimeError):
    """A request to the cluster failed; ``str()`` is the one line a user sees."""

    def __init__(self, url: str, problem: str, hint: str, where: str = "") -> None:
        self.url = url
        self.problem = problem
        self.hint = hint
        self.where = where
        if url:
            at = f"GET {url}" + (f" ({where})" if where else "")
        else:  # no request was sent: credentials could not be produced
            at = where or "--cluster"
        super().__init__(f"{at}: {problem}" + (f" ({hint})" if hint else ""))

    def at(self, where: str) -> "ClusterAccessError":
        """The same error, naming the kubeconfig context it used."""
        return ClusterAccessError(self.url, self.problem, self.hint, where)


def _status_message(body: bytes) -> str:
    """The apiserver's ``Status.message``, else the start of the body, on one line."""
    try:
        doc: Any = json.loads(body)
    except ValueError:
        doc = None
    if isinstance(doc, dict) and isinstance(doc.get("message"), str) and doc["message"]:
        text = doc["message"]
    else:
        text = body[:200].decode("utf-8", "replace")
    return " ".join(text.split())


def http_error(url: str, status: int, reason: str, body: bytes) -> ClusterAccessError:
    """The error for an HTTP answer other than 200."""
    message = _status_message(body)
    if message.lower() == reason.lower():  # a 401's Status says only "Unauthorized"
        message = ""
    problem = f"HTTP {status} {reason}".rstrip() + (f": {message}" if message else "")
    if status == 401:
        return ClusterAccessError(url, problem, _AUTH_HINT)
    if status == 403:
        return ClusterAccessError(url, problem, _RBAC_HINT)
    if status == 404:
        return ClusterAccessError(url, problem, "is the kubeconfig's server a Kubernetes apiserver?")
    return ClusterAccessError(url, problem, "")


def not_json(url: str) -> ClusterAccessError:
    """The error for a 200 answer that is not JSON (a web page, a proxy's login form)."""
    return ClusterAccessError(url, "the answer is not JSON", "is the kubeconfig's server a Kubernetes apiserver?")


def transport_error(url: str, error: Exception) -> ClusterAccessError:
    """The error for a request that got no HTTP answer (refused, unreachable, TLS, timeout)."""
    text = " ".join(str(error).split()) or type(error).__name__
    if "CERTIFICATE_VERIFY_FAILED" in text or "SSL" in text:
        hint = "check the cluster's certificate-authority in the kubeconfig and the server address"
        return ClusterAccessError(url, f"TLS failed: {text}", hint)
    if "timed out" in text.lower() or "Timeout" in type(error).__name__:
        return ClusterAccessError(url, f"no answer: {text}", "is the server address right and the cluster running?")
    return ClusterAccessError(url, f"cannot connect: {text}", "is the server address right and the cluster running?")


def credential_error(error: Exception) -> ClusterAccessError:
    """The error for credentials the kubeconfig's user could not produce (an exec plugin that
    fails or prints no ExecCredential, an unreadable token file): nothing was sent."""
    text = " ".join(str(error).split()) or type(error).__name__
    return ClusterAccessError("", f"no credentials: {text}", "check the user's exec plugin or token file in the kubeconfig")


def context_description(kubeconfig: str | None, context: str | None) -> str:
    """``context "admin" of /path/kubeconfig``: which entry of which file a request used."""
    from kgen.runtime.rest import kubeconfig_paths

    files = [Path(kubeconfig)] if kubeconfig else [p for p in kubeconfig_paths() if p.exists()]
    name = context or _current_context(files)
    where = ", ".join(map(str, files)) or "no kubeconfig"
    return f"context {name!r} of {where}" if name else where


def _current_context(files: list[Path]) -> str:
    import yaml

    for path in files:
        try:
            doc = yaml.safe_load(path.read_text())
        except (OSError, UnicodeDecodeError, yaml.YAMLError):
            continue
        if isinstance(doc, dict) and isinstance(doc.get("current-context"), str) and doc["current-context"]:
            return str(doc["current-context"])
    return ""
