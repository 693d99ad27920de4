"""RESTMapper: kinds <-> resources, as kubectl resolves what you type.

Resolves plural, singular, short names and kinds, case-insensitively, optionally qualified
by group (``deployments.apps``) or version and group (``deployments.v1.apps``); prefers each
group's preferred version; expands categories (``all``).
"""

from __future__ import annotations

from collections.abc import Iterable

from kgen.runtime.discovery.discovery_client import APIGroup, APIResource, DiscoveryClient


class NoMatch(LookupError):
    """No resource matches the name or kind."""


class Ambiguous(LookupError):
    """A kind is served by several groups and none was named."""


class RESTMapper:
    """client-go's RESTMapper over discovery: names and kinds to resources, preferred versions first."""

    def __init__(self, groups: Iterable[APIGroup], resources: Iterable[APIResource]) -> None:
        self._rank: dict[tuple[str, str], int] = {}
        for g in groups:
            for i, v in enumerate(g.versions):
                self._rank[(g.name, v)] = i
        self.resources = sorted(resources, key=lambda r: (self._rank.get((r.group, r.version), 99), r.group, r.plural))

    @classmethod
    def from_discovery(cls, discovery: DiscoveryClient) -> "RESTMapper":
        """A mapper over what ``discovery`` finds."""
        found = discovery.discover()
        return cls(found.groups, found.resources)

    def _names(self, r: APIResource) -> set[str]:
        return {n.lower() for n in (r.plural, r.singular, r.kind, *r.short_names) if n}

    def resource_for(self, text: str) -> APIResource:
        """``deploy``, ``Deployment``, ``deployments.apps``, ``deployment.v1.apps`` -> the resource."""
        name, _, qualifier = text.lower().partition(".")
        version, group = None, qualifier
        if qualifier:
            first, _, rest = qualifier.partition(".")
            if any(r.version.lower() == first for r in self.resources) and rest:
                version, group = first, rest
        matches = [
            r for r in self.resources
            if name in self._names(r)
            and (not qualifier or r.group.lower() == group or (group and r.group.lower().startswith(group + ".")))
            and (version is None or r.version.lower() == version)
        ]
        if not matches:
            raise NoMatch(f"the server has no resource type {text!r}")
        best = [r for r in matches if (r.group, r.plural) == (matches[0].group, matches[0].plural)]
        others = {(r.group, r.plural) for r in matches} - {(best[0].group, best[0].plural)}
        if others and not qualifier:
            # kubectl prefers the core group, then the first in discovery order.
            core = [r for r in matches if r.group == ""]
            if core:
                return core[0]
        return best[0]

    def kind_for(self, text: str) -> str:
        """The kind of the resource ``text`` names (as ``resource_for``)."""
        return self.resource_for(text).kind

    def rest_mapping(self, kind: str, group: str | None = None, version: str | None = None) -> APIResource:
        """The resource of ``kind`` (in ``group``/``version`` if given), at the preferred version."""
        matches = [
            r for r in self.resources
            if r.kind.lower() == kind.lower()
            and (group is None or r.group == group)
            and (version is None or r.version == version)
        ]
        if not matches:
            where = f" in group {group!r}" if group is not None else ""
            raise NoMatch(f"no resource for kind {kind!r}{where}")
        groups = {r.group for r in matches}
        if len(groups) > 1 and group is None:
            served = ", ".join(f"{g!r}" + (" (core)" if not g else "") for g in sorted(groups))
            raise Ambiguous(f"kind {kind!r} is served by several groups: {served}; name one")
        return matches[0]

    def category(self, name: str) -> list[APIResource]:
        """The resources in a category (``all``), one version each."""
        seen: set[tuple[str, str]] = set()
        out = []
        for r in self.resources:
            if name.lower() in (c.lower() for c in r.categories) and (r.group, r.plural) not in seen:
                seen.add((r.group, r.plural))
                out.append(r)
        return out
