"""The dynamic client: every verb on any group/version/resource, with plain-dict objects.

    dyn = DynamicClient(rest)
    cms = dyn.resource("", "v1", "configmaps", namespace="default")
    cm = cms.get("settings"); set_nested(cm, "on", "data", "feature"); cms.update(cm)
    dyn.for_kind("Deployment").list()          # resolved through discovery (RESTMapper)
"""

from __future__ import annotations

from typing import Any

from kgen.runtime.discovery.discovery_client import APIResource, Discovered, DiscoveryClient
from kgen.runtime.gentype.client import AsyncResourceClient, ResourceClient
from kgen.runtime.gentype.resource import DictCodec, ResourceInfo
from kgen.runtime.rest.client import AsyncRESTClient, RESTClient
from kgen.runtime.discovery.restmapper import RESTMapper

Unstructured = dict[str, Any]
"""An object as the server sent it: a plain dict."""


def _info(resource: APIResource) -> ResourceInfo:
    return ResourceInfo(resource.group, resource.version, resource.plural, resource.namespaced, resource.kind)


class DynamicClient:
    """client-go's dynamic client: plain-dict clients of any resource, named by group/version/plural, by
    kubectl's short names, or by kind (through discovery and a ``RESTMapper``)."""

    def __init__(self, rest: RESTClient, discovery: DiscoveryClient | None = None) -> None:
        self.rest = rest
        self._discovery = discovery
        self._mapper: RESTMapper | None = None
        self._mapped: Discovered | None = None  # what the mapper was built from

    @property
    def discovery(self) -> DiscoveryClient:
        """The discovery client (made from ``rest`` unless one was given)."""
        if self._discovery is None:
            self._discovery = DiscoveryClient(self.rest)
        return self._discovery

    @property
    def mapper(self) -> RESTMapper:
        """Follows discovery: rebuilt when discovery fetched anew (after ``invalidate()`` or its
        TTL), so a CRD installed since is found once discovery has been invalidated."""
        found = self.discovery.discover()
        if self._mapper is None or found is not self._mapped:
            self._mapper, self._mapped = RESTMapper(found.groups, found.resources), found
        return self._mapper

    def resource(
        self, group: str, version: str, plural: str, namespace: str | None = None, *, namespaced: bool | None = None,
        kind: str = "",
    ) -> ResourceClient[Unstructured, Unstructured]:
        """A client for group/version/plural; scope is looked up in discovery unless given."""
        if namespaced is None:
            found = [r for r in self.mapper.resources if (r.group, r.version, r.plural) == (group, version, plural)]
            namespaced = found[0].namespaced if found else namespace is not None
            kind = kind or (found[0].kind if found else "")
        info = ResourceInfo(group, version, plural, namespaced, kind)
        return ResourceClient(self.rest, info, namespace, DictCodec(info.api_version, kind))

    def for_name(self, text: str, namespace: str | None = None) -> ResourceClient[Unstructured, Unstructured]:
        """``"deploy"``, ``"deployments.apps"``, ``"Deployment"``: resolved like kubectl does."""
        resource = self.mapper.resource_for(text)
        info = _info(resource)
        return ResourceClient(self.rest, info, namespace if resource.namespaced else None, DictCodec(info.api_version, info.kind))

    def for_kind(self, kind: str, group: str | None = None, namespace: str | None = None) -> ResourceClient[Unstructured, Unstructured]:
        """A client of ``kind`` (in ``group`` if given) at its preferred version; ``NoMatch`` or
        ``Ambiguous`` from the mapper otherwise."""
        resource = self.mapper.rest_mapping(kind, group)
        info = _info(resource)
        return ResourceClient(self.rest, info, namespace if resource.namespaced else None, DictCodec(info.api_version, info.kind))


class AsyncDynamicClient:
    """The dynamic client on asyncio; scope must be given (no discovery round-trip hidden in a constructor)."""

    def __init__(self, rest: AsyncRESTClient) -> None:
        self.rest = rest

    def resource(
        self, group: str, version: str, plural: str, namespace: str | None = None, *, namespaced: bool = True, kind: str = ""
    ) -> AsyncResourceClient[Unstructured, Unstructured]:
        """A client for group/version/plural; ``namespaced`` and ``kind`` as given (no discovery)."""
        info = ResourceInfo(group, version, plural, namespaced, kind)
        return AsyncResourceClient(self.rest, info, namespace, DictCodec(info.api_version, kind))
