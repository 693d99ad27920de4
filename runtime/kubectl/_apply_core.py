"""The I/O-free core of ``apply`` and ``delete`` (kgen.runtime.kubectl.apply): the order, the
namespace rules, the results, and the loops as generators of I/O steps that apply.py's sync and
asyncio drivers perform. apply.py's docstring says which kubectl rules they follow."""

from __future__ import annotations

from collections.abc import Generator, Iterable
from dataclasses import dataclass, field
from typing import Any

from kgen.runtime.discovery.discovery_client import APIResource
from kgen.runtime.discovery.restmapper import NoMatch, RESTMapper
from kgen.runtime.kubectl.manifests import Manifest, wire

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


@dataclass(repr=False)
class ApplyResult:
    """What became of one object: ``action`` as kubectl prints it (``serverside-applied``,
    ``deleted``) or None when it failed, then ``error`` says why; ``stored`` the object the server
    answered (for a delete: while finalizers keep it, else None). Its repr names the object and
    the outcome only: a Secret's data stays out of logs."""

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

    def __repr__(self) -> str:
        where = f" in {self.namespace}" if self.namespace else ""
        return f"ApplyResult({self.resource}/{self.name}{where}: {self.action or 'failed'})"

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
class Discover:
    refresh: bool  # forget what discovery found: a CRD was applied since


@dataclass(frozen=True)
class ApplyStep:
    resource: APIResource
    namespace: str | None
    body: dict[str, Any]


@dataclass(frozen=True)
class DeleteStep:
    resource: APIResource
    namespace: str | None
    name: str


@dataclass(frozen=True)
class AwaitEstablished:
    crd: dict[str, Any]  # the apply's answer: its resourceVersion starts the watch
    timeout: float


@dataclass(frozen=True)
class Pause:
    seconds: float  # discovery does not serve an Established CRD's group-version yet: ask again after


Step = Discover | ApplyStep | DeleteStep | AwaitEstablished | Pause

DISCOVERY_RETRY = 0.25
"""Seconds between two discoveries while an Established CRD's group-version is not listed yet: the
apiserver's discovery documents follow a CRD's Established condition by a moment."""


@dataclass
class Options:
    field_manager: str = "kgen"
    force: bool = False
    dry_run: bool = False
    namespace: str | None = None  # given: every namespaced object must be in it (kubectl's -n)
    default_namespace: str = "default"
    established_timeout: float = DEFAULT_ESTABLISHED_TIMEOUT
    propagation_policy: str = "Background"


@dataclass
class Item:
    result: ApplyResult
    body: dict[str, Any]
    rank: int = field(init=False)

    def __post_init__(self) -> None:
        self.rank = apply_rank(self.result.kind)


def items_of(objects: Iterable[Manifest], dry_run: bool) -> list[Item]:
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
        items.append(Item(result, body))
    return items


def established(crd: dict[str, Any]) -> bool:
    """True when a CRD's ``Established`` condition is True (its resources are served)."""
    conditions = (crd.get("status") or {}).get("conditions") or []
    return any(c.get("type") == "Established" and c.get("status") == "True" for c in conditions)


def _lookup(mapper: RESTMapper, result: ApplyResult, api_version: str) -> APIResource:
    return mapper.rest_mapping(result.kind, result.group, api_version.rpartition("/")[2])


def _no_match(result: ApplyResult, api_version: str, waited: dict[str, bool]) -> NoMatch:
    message = f'no matches for kind "{result.kind}" in version "{api_version}": ensure CRDs are installed first'
    late = [name for name, ok in waited.items() if not ok and name.partition(".")[2] == result.group]
    if late:
        message += f" (CustomResourceDefinition {late[0]} was not Established in time)"
    return NoMatch(message)


def _place(item: Item, resource: APIResource, options: Options) -> None:
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


def apply_steps(items: list[Item], options: Options) -> Generator[Step, Any, list[ApplyResult]]:
    """The apply loop, I/O-free: sorted by ``apply_rank``, CRDs awaited before what follows them."""
    mapper: RESTMapper = yield Discover(False)
    applied_crds: list[dict[str, Any]] = []
    crd_versions: set[str] = set()  # the group-versions the CRDs applied here serve, once Established
    waited: dict[str, bool] = {}
    refreshed = False
    for item in sorted(items, key=lambda i: i.rank):
        result = item.result
        if result.error is not None:
            continue
        if item.rank > _CRD_RANK and applied_crds:
            for crd in applied_crds:
                waited[crd["metadata"]["name"]] = yield AwaitEstablished(crd, options.established_timeout)
                if waited[crd["metadata"]["name"]]:
                    crd_versions |= _served_versions(crd)
            applied_crds = []
            mapper, refreshed = (yield Discover(True)), True
        api_version = item.body["apiVersion"]
        try:
            try:
                resource = _lookup(mapper, result, api_version)
            except NoMatch:
                served_here = api_version in crd_versions
                if refreshed and not served_here:
                    raise
                mapper, resource = yield from _rediscover(result, api_version, options.established_timeout if served_here else 0)
                refreshed = True
            _place(item, resource, options)
        except NoMatch:
            result.error = _no_match(result, api_version, waited)
            continue
        except ManifestProblem as e:
            result.error = e
            continue
        answer = yield ApplyStep(resource, result.namespace, item.body)
        if isinstance(answer, Exception):
            result.error = answer
            continue
        result.action, result.stored = "serverside-applied", answer
        if (result.group, result.kind) == _CRD and not options.dry_run:
            applied_crds.append(answer)
            refreshed = False
    return [i.result for i in items]


def _served_versions(crd: dict[str, Any]) -> set[str]:
    """The ``group/version``s a CRD serves."""
    spec = crd.get("spec") or {}
    return {f"{spec.get('group')}/{v.get('name')}" for v in spec.get("versions") or [] if v.get("served", True)}


def _rediscover(result: ApplyResult, api_version: str, patience: float) -> Generator[Step, Any, tuple[RESTMapper, APIResource]]:
    """Discovery asked again, and again every ``DISCOVERY_RETRY`` seconds for ``patience`` seconds
    while it does not list ``api_version`` (served by a CRD this call applied)."""
    waited = 0.0
    while True:
        mapper: RESTMapper = yield Discover(True)
        try:
            return mapper, _lookup(mapper, result, api_version)
        except NoMatch:
            if waited >= patience:
                raise
        yield Pause(DISCOVERY_RETRY)
        waited += DISCOVERY_RETRY


def delete_steps(items: list[Item], options: Options) -> Generator[Step, Any, list[ApplyResult]]:
    """The delete loop, I/O-free: the apply order reversed."""
    mapper: RESTMapper = yield Discover(False)
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
        answer = yield DeleteStep(resource, result.namespace, result.name)
        if isinstance(answer, Exception):
            result.error = answer
            continue
        result.action, result.stored = "deleted", answer
    return [i.result for i in items]
