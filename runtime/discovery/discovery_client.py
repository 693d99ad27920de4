"""Discovery: which groups, versions and resources a server serves, and its version.

Aggregated discovery (``apidiscovery.k8s.io/v2``, two requests for everything) with a
fallback to legacy discovery (``/api``, ``/apis``, one request per group-version). Results are
cached in memory and on disk (kubectl's cache folder, ``~/.kube/cache/discovery/<host>``) for
``ttl`` seconds. A group-version that cannot be discovered — an aggregated API whose backend
is down — is recorded in ``failed`` and left out; it does not fail discovery as a whole.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kgen.runtime.apimachinery.errors import ApiError
from kgen.runtime.rest.client import Request, RESTClient

AGGREGATED_ACCEPT = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json"
"""The Accept of aggregated discovery (apidiscovery.k8s.io/v2), legacy JSON as fallback."""
DEFAULT_TTL = 6 * 3600.0
"""How long a discovery result is used, in memory and on disk, in seconds (kubectl's 6 hours)."""


@dataclass(frozen=True)
class APIResource:
    """One resource the server serves at one group/version: its names, scope, verbs and subresources."""

    group: str
    version: str
    plural: str
    singular: str
    kind: str
    namespaced: bool
    verbs: tuple[str, ...] = ()
    short_names: tuple[str, ...] = ()
    categories: tuple[str, ...] = ()
    subresources: tuple[tuple[str, tuple[str, ...]], ...] = ()

    @property
    def group_version(self) -> str:
        """``group/version``, or ``version`` for the core group."""
        return f"{self.group}/{self.version}" if self.group else self.version


@dataclass(frozen=True)
class APIGroup:
    """An API group and its versions, the preferred one first."""

    name: str
    versions: tuple[str, ...]  # preferred first

    @property
    def preferred_version(self) -> str:
        """The server's preferred version of the group."""
        return self.versions[0]


@dataclass
class Discovered:
    """What discovery found: the groups, the resources, and the group/versions that failed (with why)."""

    groups: list[APIGroup] = field(default_factory=list)
    resources: list[APIResource] = field(default_factory=list)
    failed: dict[str, str] = field(default_factory=dict)  # group/version -> why


def parse_aggregated(doc: dict[str, Any], into: Discovered | None = None) -> Discovered:
    """An ``APIGroupDiscoveryList`` (one of /api, /apis) into groups and resources."""
    out = into or Discovered()
    for group in doc.get("items") or []:
        name = (group.get("metadata") or {}).get("name", "")
        versions = []
        for version in group.get("versions") or []:
            gv = f"{name}/{version['version']}" if name else version["version"]
            if version.get("freshness") == "Stale":
                out.failed[gv] = "stale: the aggregated API did not answer discovery"
                continue
            versions.append(version["version"])
            for r in version.get("resources") or []:
                out.resources.append(
                    APIResource(
                        group=name,
                        version=version["version"],
                        plural=r["resource"],
                        singular=r.get("singularResource") or "",
                        kind=(r.get("responseKind") or {}).get("kind", ""),
                        namespaced=r.get("scope") == "Namespaced",
                        verbs=tuple(sorted(r.get("verbs") or [])),
                        short_names=tuple(r.get("shortNames") or []),
                        categories=tuple(r.get("categories") or []),
                        subresources=tuple(
                            sorted((s["subresource"], tuple(sorted(s.get("verbs") or []))) for s in r.get("subresources") or [])
                        ),
                    )
                )
        if versions:
            out.groups.append(APIGroup(name, tuple(versions)))
    return out


def parse_legacy_resources(doc: dict[str, Any]) -> list[APIResource]:
    """One ``APIResourceList`` (``/api/v1``, ``/apis/<g>/<v>``)."""
    group, _, version = str(doc.get("groupVersion", "")).rpartition("/")
    subs: dict[str, list[tuple[str, tuple[str, ...]]]] = {}
    for r in doc.get("resources") or []:
        parent, _, sub = r["name"].partition("/")
        if sub:
            subs.setdefault(parent, []).append((sub, tuple(sorted(r.get("verbs") or []))))
    return [
        APIResource(
            group=group,
            version=version,
            plural=r["name"],
            singular=r.get("singularName") or "",
            kind=r.get("kind", ""),
            namespaced=bool(r.get("namespaced")),
            verbs=tuple(sorted(r.get("verbs") or [])),
            short_names=tuple(r.get("shortNames") or []),
            categories=tuple(r.get("categories") or []),
            subresources=tuple(sorted(subs.get(r["name"], []))),
        )
        for r in doc.get("resources") or []
        if "/" not in r["name"]
    ]


def default_cache_dir(host: str) -> Path:
    """kubectl's layout: ~/.kube/cache/discovery/<host_port>, with unsafe characters as ``_``."""
    safe = re.sub(r"[^A-Za-z0-9.]", "_", re.sub(r"^https?://", "", host))
    return Path(os.environ.get("KUBECACHEDIR") or Path.home() / ".kube" / "cache") / "discovery" / safe


class DiscoveryClient:
    """``aggregated=False`` asks for legacy discovery only, as for servers older than 1.26 or
    proxies that drop the aggregated content type."""

    def __init__(
        self, rest: RESTClient, *, cache_dir: Path | None | str = "default", ttl: float = DEFAULT_TTL,
        aggregated: bool = True,
    ) -> None:
        self._rest = rest
        self._aggregated = aggregated
        self._cache = default_cache_dir(rest.config.host) / "kgen" if cache_dir == "default" else (
            Path(cache_dir) if cache_dir else None
        )
        self._ttl = ttl
        self._memory: tuple[float, Discovered] | None = None

    def server_version(self) -> dict[str, Any]:
        """The server's /version answer (gitVersion, major, minor, ...)."""
        result: dict[str, Any] = json.loads(self._rest.send(Request("GET", "/version")).content)
        return result

    def invalidate(self) -> None:
        """Forget the discovery result, in memory and on disk: the next ``discover`` asks the server."""
        self._memory = None
        if self._cache is not None:
            (self._cache / "discovery.json").unlink(missing_ok=True)

    def discover(self) -> Discovered:
        """The server's groups and resources: from memory or the disk cache while younger than the TTL,
        else fetched (and cached)."""
        now = time.time()
        if self._memory and now - self._memory[0] < self._ttl:
            return self._memory[1]
        found = self._read_cache(now)
        if found is None:
            found = self._fetch()
            self._write_cache(found)
        self._memory = (now, found)
        return found

    def resources(self) -> list[APIResource]:
        """Every resource of every group/version (``discover().resources``)."""
        return self.discover().resources

    def groups(self) -> list[APIGroup]:
        """Every group (``discover().groups``)."""
        return self.discover().groups

    # -- fetching ------------------------------------------------------------------------

    def _get(self, path: str, accept: str = "application/json") -> dict[str, Any]:
        result: dict[str, Any] = json.loads(self._rest.send(Request("GET", path, accept=accept)).content)
        return result

    def _fetch(self) -> Discovered:
        if not self._aggregated:
            return self._fetch_legacy()
        docs = [self._get(root, AGGREGATED_ACCEPT) for root in ("/api", "/apis")]
        if all(d.get("kind") == "APIGroupDiscoveryList" for d in docs):
            out = Discovered()
            for doc in docs:
                parse_aggregated(doc, out)
            return out
        return self._fetch_legacy()

    def _fetch_legacy(self) -> Discovered:
        out = Discovered()
        core = self._get("/api")
        group_versions: list[tuple[str, tuple[str, ...]]] = [("", tuple(core.get("versions") or []))]
        for g in self._get("/apis").get("groups") or []:
            preferred = (g.get("preferredVersion") or {}).get("version")
            listed = [v["version"] for v in g.get("versions") or []]
            group_versions.append((g["name"], tuple(sorted(listed, key=lambda v: v != preferred))))
        for name, versions in group_versions:
            served = []
            for version in versions:
                path = f"/apis/{name}/{version}" if name else f"/api/{version}"
                try:
                    out.resources += parse_legacy_resources(self._get(path))
                    served.append(version)
                except ApiError as e:
                    out.failed[f"{name}/{version}" if name else version] = str(e)
            if served:
                out.groups.append(APIGroup(name, tuple(served)))
        return out

    # -- the disk cache --------------------------------------------------------------------

    def _read_cache(self, now: float) -> Discovered | None:
        if self._cache is None:
            return None
        path = self._cache / "discovery.json"
        try:
            if now - path.stat().st_mtime >= self._ttl:
                return None
            data = json.loads(path.read_text())
            return Discovered(
                groups=[APIGroup(g["name"], tuple(g["versions"])) for g in data["groups"]],
                resources=[
                    APIResource(**{**r, **{k: tuple(r[k]) for k in ("verbs", "short_names", "categories")},
                                   "subresources": tuple((s, tuple(v)) for s, v in r["subresources"])})
                    for r in data["resources"]
                ],
                failed=dict(data["failed"]),
            )
        except (OSError, ValueError, KeyError, TypeError):
            return None  # no cache, an old one, or a damaged one: fetch again

    def _write_cache(self, found: Discovered) -> None:
        if self._cache is None or found.failed:
            return  # never cache a partial answer
        data = {
            "groups": [{"name": g.name, "versions": list(g.versions)} for g in found.groups],
            "resources": [r.__dict__ for r in found.resources],
            "failed": found.failed,
        }
        try:
            self._cache.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=self._cache)
            with os.fdopen(fd, "w") as f:
                json.dump(data, f)
            os.replace(tmp, self._cache / "discovery.json")
        except OSError:
            pass  # a cache that cannot be written only costs a request
