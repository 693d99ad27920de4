"""Server-side apply of a set of manifests, and their deletion, as ``kubectl apply --server-side -f``.

Each object is resolved through the REST mapper (discovery) to its resource, defaulted to the
namespace as cli-runtime's builder defaults it, and sent as one apply patch (kubectl's
``helper.Patch(..., types.ApplyPatchType, ...)``), with the field manager, ``force`` (kubectl's
``--force-conflicts``) and server dry-run. A failure is that object's result: the others go on,
as kubectl goes on and reports every error at the end.

The order: ``kubectl apply -f`` sends objects in the order of its files, so a folder whose custom
resources sort before their CRD fails them ("ensure CRDs are installed first") and a namespace
that sorts after its objects fails those. ``kubectl apply -k`` sorts first, by kustomize's
legacy kind order (``Namespace``, ``ResourceQuota``, ``StorageClass``,
``CustomResourceDefinition``, ... ``PodDisruptionBudget``; every other kind, custom resources
among them, after those; ``ValidatingWebhookConfiguration`` last). Here the objects are sorted by
that order, stably, so objects of one rank keep their files' order; and the CRDs applied are
awaited until their ``Established`` condition is True (a watch from the apply's answer, no
polling), after which discovery is read anew, before the first object of a later rank. A kind
the mapper still does not know makes discovery be read once more (client-go's
DeferredDiscoveryRESTMapper resets on a miss). ``delete`` goes the opposite way: custom
resources before their CRDs, namespaces last.

The loop lives once, as a generator of I/O steps (``apply_steps``, ``delete_steps``); ``apply``
and ``async_apply`` (``delete``, ``async_delete``) only perform the steps.
"""

from __future__ import annotations

import json
import math
import asyncio
import time
from collections.abc import Awaitable, Callable, Generator, Iterable
from typing import Any

import httpx

from kgen.runtime.apimachinery.errors import ApiError, NotFound
from kgen.runtime.discovery.discovery_client import (
    AGGREGATED_ACCEPT,
    APIGroup,
    APIResource,
    Discovered,
    DiscoveryClient,
    parse_aggregated,
    parse_legacy_resources,
)
from kgen.runtime.discovery.restmapper import RESTMapper
from kgen.runtime.gentype.client import AsyncResourceClient, ResourceClient
from kgen.runtime.gentype.resource import DictCodec, ResourceInfo
from kgen.runtime.kubectl._apply_core import (
    APPLY_ORDER_FIRST,
    APPLY_ORDER_LAST,
    DEFAULT_ESTABLISHED_TIMEOUT,
    ApplyResult,
    ApplyStep,
    AwaitEstablished,
    Discover,
    ManifestProblem,
    Options,
    Pause,
    Step,
    apply_rank,
    apply_steps,
    delete_steps,
    established,
    items_of,
)
from kgen.runtime.kubectl.manifests import Manifest
from kgen.runtime.rest.client import AsyncRESTClient, Request, RESTClient
from kgen.runtime.rest.config import Config
from kgen.runtime.rest.watch import WatchEvent

__all__ = [
    "APPLY_ORDER_FIRST", "APPLY_ORDER_LAST", "DEFAULT_ESTABLISHED_TIMEOUT", "ApplyResult", "ManifestProblem", "apply",
    "apply_rank", "async_apply", "async_delete", "delete", "established",
]


# -- performing the steps ------------------------------------------------------------------------


def _info(resource: APIResource) -> ResourceInfo:
    return ResourceInfo(resource.group, resource.version, resource.plural, resource.namespaced, resource.kind)


def _client(rest: RESTClient, resource: APIResource, namespace: str | None) -> ResourceClient[dict[str, Any], dict[str, Any]]:
    info = _info(resource)
    return ResourceClient(rest, info, namespace, DictCodec(info.api_version, info.kind))


def _async_client(
    rest: AsyncRESTClient, resource: APIResource, namespace: str | None
) -> AsyncResourceClient[dict[str, Any], dict[str, Any]]:
    info = _info(resource)
    return AsyncResourceClient(rest, info, namespace, DictCodec(info.api_version, info.kind))


_CRDS = APIResource("apiextensions.k8s.io", "v1", "customresourcedefinitions", "customresourcedefinition",
                    "CustomResourceDefinition", False)


class _SyncPerformer:
    def __init__(self, rest: RESTClient, options: Options) -> None:
        self.rest, self.options = rest, options
        self.discovery = DiscoveryClient(rest, cache_dir=None)

    def __call__(self, step: Step) -> Any:
        if isinstance(step, Discover):
            if step.refresh:
                self.discovery.invalidate()
            found = self.discovery.discover()
            return RESTMapper(found.groups, found.resources)
        if isinstance(step, AwaitEstablished):
            return self.await_established(step)
        if isinstance(step, Pause):
            return time.sleep(step.seconds)
        try:
            client = _client(self.rest, step.resource, step.namespace)
            if isinstance(step, ApplyStep):
                return client.apply(step.body, field_manager=self.options.field_manager, force=self.options.force,
                                    dry_run=self.options.dry_run or None)
            return client.delete(step.name, propagation_policy=self.options.propagation_policy, dry_run=self.options.dry_run)
        except (ApiError, ValueError, httpx.HTTPError) as e:
            return e

    def await_established(self, step: AwaitEstablished) -> bool:
        crds, name = _client(self.rest, _CRDS, None), step.crd["metadata"]["name"]
        deadline = time.monotonic() + step.timeout
        crd = step.crd
        while not established(crd):
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            try:
                crd = crds.get(name)  # the list of list+watch: the state the watch starts from
                if established(crd):
                    return True
                for event in crds.watch(field_selector=f"metadata.name={name}", timeout_seconds=math.ceil(left),
                                        resource_version=crd["metadata"]["resourceVersion"]):
                    if isinstance(event, WatchEvent):
                        crd = event.object if event.type != "DELETED" else {}
                    if established(crd) or not crd or time.monotonic() > deadline:
                        break
            except NotFound:
                return False
        return True


class _AsyncPerformer:
    def __init__(self, rest: AsyncRESTClient, options: Options) -> None:
        self.rest, self.options = rest, options

    async def __call__(self, step: Step) -> Any:
        if isinstance(step, Discover):
            found = await _async_discover(self.rest)
            return RESTMapper(found.groups, found.resources)
        if isinstance(step, AwaitEstablished):
            return await self.await_established(step)
        if isinstance(step, Pause):
            return await asyncio.sleep(step.seconds)
        try:
            client = _async_client(self.rest, step.resource, step.namespace)
            if isinstance(step, ApplyStep):
                return await client.apply(step.body, field_manager=self.options.field_manager, force=self.options.force,
                                          dry_run=self.options.dry_run or None)
            return await client.delete(step.name, propagation_policy=self.options.propagation_policy,
                                       dry_run=self.options.dry_run)
        except (ApiError, ValueError, httpx.HTTPError) as e:
            return e

    async def await_established(self, step: AwaitEstablished) -> bool:
        crds, name = _async_client(self.rest, _CRDS, None), step.crd["metadata"]["name"]
        deadline = time.monotonic() + step.timeout
        crd = step.crd
        while not established(crd):
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            try:
                crd = await crds.get(name)
                if established(crd):
                    return True
                async for event in crds.watch(field_selector=f"metadata.name={name}", timeout_seconds=math.ceil(left),
                                              resource_version=crd["metadata"]["resourceVersion"]):
                    if isinstance(event, WatchEvent):
                        crd = event.object if event.type != "DELETED" else {}
                    if established(crd) or not crd or time.monotonic() > deadline:
                        break
            except NotFound:
                return False
        return True


async def _async_discover(rest: AsyncRESTClient) -> Discovered:
    """Discovery on asyncio, never cached: aggregated (two requests), legacy when the server has none."""
    async def get(path: str, accept: str = "application/json") -> dict[str, Any]:
        doc: dict[str, Any] = json.loads((await rest.send(Request("GET", path, accept=accept))).content)
        return doc

    docs = [await get(root, AGGREGATED_ACCEPT) for root in ("/api", "/apis")]
    out = Discovered()
    if all(d.get("kind") == "APIGroupDiscoveryList" for d in docs):
        for doc in docs:
            parse_aggregated(doc, out)
        return out
    group_versions: list[tuple[str, list[str]]] = [("", list(docs[0].get("versions") or []))]
    for g in docs[1].get("groups") or []:
        preferred = (g.get("preferredVersion") or {}).get("version")
        group_versions.append((g["name"], sorted((v["version"] for v in g.get("versions") or []), key=lambda v: v != preferred)))
    for name, versions in group_versions:
        served = []
        for version in versions:
            try:
                out.resources += parse_legacy_resources(await get(f"/apis/{name}/{version}" if name else f"/api/{version}"))
                served.append(version)
            except ApiError as e:
                out.failed[f"{name}/{version}" if name else version] = str(e)
        if served:
            out.groups.append(APIGroup(name, tuple(served)))
    return out


def _drive(steps: Generator[Step, Any, list[ApplyResult]], perform: Callable[[Step], Any]) -> list[ApplyResult]:
    try:
        step = next(steps)
        while True:
            step = steps.send(perform(step))
    except StopIteration as done:
        results: list[ApplyResult] = done.value
        return results


async def _adrive(steps: Generator[Step, Any, list[ApplyResult]], perform: Callable[[Step], Awaitable[Any]]) -> list[ApplyResult]:
    try:
        step = next(steps)
        while True:
            step = steps.send(await perform(step))
    except StopIteration as done:
        results: list[ApplyResult] = done.value
        return results


def _options(config: Config, field_manager: str, force: bool, dry_run: bool, namespace: str | None,
             timeout: float) -> Options:
    if not field_manager:
        raise ValueError("apply needs a field_manager (kubectl's is \"kubectl\"; kgen's default \"kgen\")")
    return Options(field_manager, force, dry_run, namespace or None, config.namespace or "default", timeout)


# -- the API -------------------------------------------------------------------------------------------


def apply(
    target: Config | RESTClient, objects: Iterable[Manifest], *, field_manager: str = "kgen", force: bool = False,
    dry_run: bool = False, namespace: str | None = None, wait_established_timeout: float = DEFAULT_ESTABLISHED_TIMEOUT,
) -> list[ApplyResult]:
    """Server-side apply of ``objects`` (models or dicts, e.g. from ``load_all_yaml``) in kubectl's
    order; one ``ApplyResult`` per object, in the order given.

    ``target``: a ``Config`` (a REST client is made and closed) or a ``RESTClient``.
    ``field_manager`` comes to own the fields each object sets; ``force`` takes those other managers
    own (kubectl's ``--force-conflicts``); ``dry_run`` asks the server to check and not store
    (``--dry-run=server``; CRDs are then not created, so their custom resources are not found).
    ``namespace``: where namespaced objects without one go, and the only one allowed (kubectl's
    ``-n``); by default the config's namespace. CRDs are awaited up to ``wait_established_timeout``
    seconds each."""
    rest = RESTClient(target) if isinstance(target, Config) else target
    try:
        options = _options(rest.config, field_manager, force, dry_run, namespace, wait_established_timeout)
        return _drive(apply_steps(items_of(objects, dry_run), options), _SyncPerformer(rest, options))
    finally:
        if rest is not target:
            rest.close()


async def async_apply(
    target: Config | AsyncRESTClient, objects: Iterable[Manifest], *, field_manager: str = "kgen", force: bool = False,
    dry_run: bool = False, namespace: str | None = None, wait_established_timeout: float = DEFAULT_ESTABLISHED_TIMEOUT,
) -> list[ApplyResult]:
    """``apply`` on asyncio (``target``: a ``Config`` or an ``AsyncRESTClient``)."""
    rest = AsyncRESTClient(target) if isinstance(target, Config) else target
    try:
        options = _options(rest.config, field_manager, force, dry_run, namespace, wait_established_timeout)
        return await _adrive(apply_steps(items_of(objects, dry_run), options), _AsyncPerformer(rest, options))
    finally:
        if rest is not target:
            await rest.close()


def delete(
    target: Config | RESTClient, objects: Iterable[Manifest], *, dry_run: bool = False, namespace: str | None = None,
    propagation_policy: str = "Background",
) -> list[ApplyResult]:
    """Deletes ``objects`` in the reverse of ``apply``'s order (custom resources before their CRDs,
    namespaces last), as ``kubectl delete -f`` with ``--cascade=background`` (the default
    ``propagation_policy``) and ``--wait=false``: one ``ApplyResult`` per object, in the order given,
    ``stored`` the object while finalizers keep it. A missing object is that object's ``NotFound``."""
    rest = RESTClient(target) if isinstance(target, Config) else target
    try:
        options = _options(rest.config, "kgen", False, dry_run, namespace, 0)
        options.propagation_policy = propagation_policy
        return _drive(delete_steps(items_of(objects, dry_run), options), _SyncPerformer(rest, options))
    finally:
        if rest is not target:
            rest.close()


async def async_delete(
    target: Config | AsyncRESTClient, objects: Iterable[Manifest], *, dry_run: bool = False, namespace: str | None = None,
    propagation_policy: str = "Background",
) -> list[ApplyResult]:
    """``delete`` on asyncio."""
    rest = AsyncRESTClient(target) if isinstance(target, Config) else target
    try:
        options = _options(rest.config, "kgen", False, dry_run, namespace, 0)
        options.propagation_policy = propagation_policy
        return await _adrive(delete_steps(items_of(objects, dry_run), options), _AsyncPerformer(rest, options))
    finally:
        if rest is not target:
            await rest.close()
