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

The loop lives once, as a generator of I/O steps (``_apply_steps``, ``_delete_steps``); ``apply``
and ``async_apply`` (``delete``, ``async_delete``) only perform the steps.
"""

from __future__ import annotations

import math
import time
from collections.abc import Awaitable, Callable, Generator, Iterable
from dataclasses import dataclass, field
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
from kgen.runtime.discovery.restmapper import NoMatch, RESTMapper
from kgen.runtime.gentype.client import AsyncResourceClient, ResourceClient
from kgen.runtime.gentype.resource import DictCodec, ResourceInfo
from kgen.runtime.kubectl.manifests import Manifest, wire
from kgen.runtime.rest.client import AsyncRESTClient, Request, RESTClient
from kgen.runtime.rest.config import Config
from kgen.runtime.rest.watch import WatchEvent

APPLY_ORDER_FIRST = (
    "Namespace", "ResourceQuota", "StorageClass", "CustomResourceDefinition", "MutatingWebhookConfiguration",
    "ServiceAccount", "PodSecurityPolicy", "Role", "ClusterRole", "RoleBinding", "ClusterRoleBinding", "ConfigMap",
    "Secret", "Endpoints", "Service", "LimitRange", "PriorityClass", "PersistentVolume", "PersistentVolumeClaim",
    "Deployment", "StatefulSet", "CronJob", "PodDisruptionBudget",
)
"""kustomize's legacy order (``kubectl apply -k``): these kinds first, in this order."""
APPLY_ORDER_LAST = ("ValidatingWebhookConfiguration",)
"""... and these last; every other kind in between."""
_CRD_RANK = APPLY_ORDER_FIRST.index("CustomResourceDefinition")
_CRD = ("apiextensions.k8s.io", "CustomResourceDefinition")

DEFAULT_ESTABLISHED_TIMEOUT = 60.0
"""How long ``apply`` waits for a CRD it applied to be Established, in seconds."""


def apply_rank(kind: str) -> int:
    """An object's place in the apply order: smaller first (``APPLY_ORDER_FIRST``, others, ``APPLY_ORDER_LAST``)."""
    if kind in APPLY_ORDER_FIRST:
        return APPLY_ORDER_FIRST.index(kind)
    if kind in APPLY_ORDER_LAST:
        return len(APPLY_ORDER_FIRST) + 1 + APPLY_ORDER_LAST.index(kind)
    return len(APPLY_ORDER_FIRST)


@dataclass
class ApplyResult:
    """What became of one object: ``action`` as kubectl prints it (``serverside-applied``,
    ``deleted``) or None when it failed, then ``error`` says why; ``stored`` the object the server
    answered (for a delete: while finalizers keep it, else None)."""

    object: Manifest
    """The object as given."""
    kind: str
    group: str
    name: str
    namespace: str | None
    """The namespace it went to (None: cluster-scoped, or not known when the kind was not found)."""
    action: str | None = None
    stored: dict[str, Any] | None = None
    error: Exception | None = None
    dry_run: bool = False

    @property
    def ok(self) -> bool:
        """True when the server took the object."""
        return self.error is None

    @property
    def resource(self) -> str:
        """kubectl's name of the kind: ``deployment.apps``, ``namespace``, ``widget.example.com``."""
        return f"{self.kind.lower()}.{self.group}" if self.group else self.kind.lower()

    @property
    def line(self) -> str:
        """kubectl's line for the result: ``deployment.apps/web serverside-applied``,
        ``deployment.apps "web" deleted from demo namespace``, with `` (server dry run)`` on a dry run;
        the error otherwise."""
        if self.error is not None:
            return f"error: {self.resource}/{self.name}: {self.error}"
        suffix = " (server dry run)" if self.dry_run else ""
        if self.action == "deleted":
            where = f" from {self.namespace} namespace" if self.namespace else ""
            return f'{self.resource} "{self.name}" deleted{where}{suffix}'
        return f"{self.resource}/{self.name} {self.action}{suffix}"


class ManifestProblem(ValueError):
    """An object that cannot be sent as it is (no name, a generateName, a namespace against ``namespace``)."""


# -- the steps the core asks for ---------------------------------------------------------------


@dataclass(frozen=True)
class _Discover:
    refresh: bool  # forget what discovery found: a CRD was applied since


@dataclass(frozen=True)
class _Apply:
    resource: APIResource
    namespace: str | None
    body: dict[str, Any]


@dataclass(frozen=True)
class _Delete:
    resource: APIResource
    namespace: str | None
    name: str


@dataclass(frozen=True)
class _AwaitEstablished:
    crd: dict[str, Any]  # the apply's answer: its resourceVersion starts the watch
    timeout: float


_Step = _Discover | _Apply | _Delete | _AwaitEstablished


@dataclass
class _Options:
    field_manager: str = "kgen"
    force: bool = False
    dry_run: bool = False
    namespace: str | None = None  # given: every namespaced object must be in it (kubectl's -n)
    default_namespace: str = "default"
    established_timeout: float = DEFAULT_ESTABLISHED_TIMEOUT
    propagation_policy: str = "Background"


@dataclass
class _Item:
    result: ApplyResult
    body: dict[str, Any]
    rank: int = field(init=False)

    def __post_init__(self) -> None:
        self.rank = apply_rank(self.result.kind)


def _items(objects: Iterable[Manifest], dry_run: bool) -> list[_Item]:
    items = []
    for obj in objects:
        body = dict(wire(obj))
        found = body.get("metadata")
        meta: dict[str, Any] = found if isinstance(found, dict) else {}
        api_version, kind = str(body.get("apiVersion") or ""), str(body.get("kind") or "")
        group = api_version.rpartition("/")[0]
        result = ApplyResult(obj, kind, group, str(meta.get("name") or ""), meta.get("namespace"), dry_run=dry_run)
        if not api_version or not kind:
            result.error = ManifestProblem("apiVersion and kind must be set (expected a Kubernetes object)")
        elif not result.name:
            generate = meta.get("generateName")
            result.error = ManifestProblem(
                f"from {generate}: cannot use generate name with apply" if generate else "metadata.name must be set"
            )
        items.append(_Item(result, body))
    return items


def established(crd: dict[str, Any]) -> bool:
    """True when a CRD's ``Established`` condition is True (its resources are served)."""
    conditions = (crd.get("status") or {}).get("conditions") or []
    return any(c.get("type") == "Established" and c.get("status") == "True" for c in conditions)


def _lookup(mapper: RESTMapper, result: ApplyResult, api_version: str) -> APIResource:
    version = api_version.rpartition("/")[2]
    resource = mapper.rest_mapping(result.kind, result.group, version)
    return resource


def _no_match(result: ApplyResult, api_version: str, waited: dict[str, bool]) -> NoMatch:
    message = f'no matches for kind "{result.kind}" in version "{api_version}": ensure CRDs are installed first'
    late = [name for name, ok in waited.items() if not ok and name.partition(".")[2] == result.group]
    if late:
        message += f" (CustomResourceDefinition {late[0]} was not Established in time)"
    return NoMatch(message)


def _place(item: _Item, resource: APIResource, options: _Options) -> None:
    """cli-runtime's namespace rules: a namespaced object without one gets the default (``-n`` or the
    kubeconfig's); with ``-n`` given, an object in another namespace is refused; cluster-scoped
    objects have none."""
    result, meta = item.result, item.body.setdefault("metadata", {})
    if not resource.namespaced:
        result.namespace = None
        return
    wanted = options.namespace or options.default_namespace
    if result.namespace and options.namespace and result.namespace != options.namespace:
        raise ManifestProblem(
            f'the namespace from the provided object "{result.namespace}" does not match the namespace '
            f'"{options.namespace}". You must pass \'--namespace={result.namespace}\' to perform this operation.'
        )
    result.namespace = result.namespace or wanted
    item.body["metadata"] = {**meta, "namespace": result.namespace}


def _apply_steps(items: list[_Item], options: _Options) -> Generator[_Step, Any, list[ApplyResult]]:
    """The apply loop, I/O-free: sorted by ``apply_rank``, CRDs awaited before what follows them."""
    mapper: RESTMapper = yield _Discover(False)
    applied_crds: list[dict[str, Any]] = []
    waited: dict[str, bool] = {}
    refreshed = False
    for item in sorted(items, key=lambda i: i.rank):
        result = item.result
        if result.error is not None:
            continue
        if item.rank > _CRD_RANK and applied_crds:
            for crd in applied_crds:
                waited[crd["metadata"]["name"]] = yield _AwaitEstablished(crd, options.established_timeout)
            applied_crds = []
            mapper, refreshed = (yield _Discover(True)), True
        api_version = item.body["apiVersion"]
        try:
            try:
                resource = _lookup(mapper, result, api_version)
            except NoMatch:
                if refreshed:
                    raise
                mapper, refreshed = (yield _Discover(True)), True
                resource = _lookup(mapper, result, api_version)
            _place(item, resource, options)
        except NoMatch:
            result.error = _no_match(result, api_version, waited)
            continue
        except ManifestProblem as e:
            result.error = e
            continue
        answer = yield _Apply(resource, result.namespace, item.body)
        if isinstance(answer, Exception):
            result.error = answer
            continue
        result.action, result.stored = "serverside-applied", answer
        if (result.group, result.kind) == _CRD and not options.dry_run:
            applied_crds.append(answer)
            refreshed = False
    return [i.result for i in items]


def _delete_steps(items: list[_Item], options: _Options) -> Generator[_Step, Any, list[ApplyResult]]:
    """The delete loop, I/O-free: the apply order reversed."""
    mapper: RESTMapper = yield _Discover(False)
    ordered = list(reversed(sorted(items, key=lambda i: i.rank)))
    for item in ordered:
        result = item.result
        if result.error is not None:
            continue
        api_version = item.body["apiVersion"]
        try:
            resource = _lookup(mapper, result, api_version)
            _place(item, resource, options)
        except NoMatch:
            result.error = NoMatch(f'the server doesn\'t have a resource type "{result.kind}" in version "{api_version}"')
            continue
        except ManifestProblem as e:
            result.error = e
            continue
        answer = yield _Delete(resource, result.namespace, result.name)
        if isinstance(answer, Exception):
            result.error = answer
            continue
        result.action, result.stored = "deleted", answer
    return [i.result for i in items]


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
    def __init__(self, rest: RESTClient, options: _Options) -> None:
        self.rest, self.options = rest, options
        self.discovery = DiscoveryClient(rest, cache_dir=None)

    def __call__(self, step: _Step) -> Any:
        if isinstance(step, _Discover):
            if step.refresh:
                self.discovery.invalidate()
            found = self.discovery.discover()
            return RESTMapper(found.groups, found.resources)
        if isinstance(step, _AwaitEstablished):
            return self.await_established(step)
        try:
            client = _client(self.rest, step.resource, step.namespace)
            if isinstance(step, _Apply):
                return client.apply(step.body, field_manager=self.options.field_manager, force=self.options.force,
                                    dry_run=self.options.dry_run or None)
            return client.delete(step.name, propagation_policy=self.options.propagation_policy, dry_run=self.options.dry_run)
        except (ApiError, ValueError, httpx.HTTPError) as e:
            return e

    def await_established(self, step: _AwaitEstablished) -> bool:
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
    def __init__(self, rest: AsyncRESTClient, options: _Options) -> None:
        self.rest, self.options = rest, options

    async def __call__(self, step: _Step) -> Any:
        if isinstance(step, _Discover):
            found = await _async_discover(self.rest)
            return RESTMapper(found.groups, found.resources)
        if isinstance(step, _AwaitEstablished):
            return await self.await_established(step)
        try:
            client = _async_client(self.rest, step.resource, step.namespace)
            if isinstance(step, _Apply):
                return await client.apply(step.body, field_manager=self.options.field_manager, force=self.options.force,
                                          dry_run=self.options.dry_run or None)
            return await client.delete(step.name, propagation_policy=self.options.propagation_policy,
                                       dry_run=self.options.dry_run)
        except (ApiError, ValueError, httpx.HTTPError) as e:
            return e

    async def await_established(self, step: _AwaitEstablished) -> bool:
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
    import json

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


def _drive(steps: Generator[_Step, Any, list[ApplyResult]], perform: Callable[[_Step], Any]) -> list[ApplyResult]:
    try:
        step = next(steps)
        while True:
            step = steps.send(perform(step))
    except StopIteration as done:
        results: list[ApplyResult] = done.value
        return results


async def _adrive(steps: Generator[_Step, Any, list[ApplyResult]], perform: Callable[[_Step], Awaitable[Any]]) -> list[ApplyResult]:
    try:
        step = next(steps)
        while True:
            step = steps.send(await perform(step))
    except StopIteration as done:
        results: list[ApplyResult] = done.value
        return results


def _options(config: Config, field_manager: str, force: bool, dry_run: bool, namespace: str | None,
             timeout: float) -> _Options:
    if not field_manager:
        raise ValueError("apply needs a field_manager (kubectl's is \"kubectl\"; kgen's default \"kgen\")")
    return _Options(field_manager, force, dry_run, namespace or None, config.namespace or "default", timeout)


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
        return _drive(_apply_steps(_items(objects, dry_run), options), _SyncPerformer(rest, options))
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
        return await _adrive(_apply_steps(_items(objects, dry_run), options), _AsyncPerformer(rest, options))
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
        return _drive(_delete_steps(_items(objects, dry_run), options), _SyncPerformer(rest, options))
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
        return await _adrive(_delete_steps(_items(objects, dry_run), options), _AsyncPerformer(rest, options))
    finally:
        if rest is not target:
            await rest.close()
