"""The manager's cache against the real apiserver, on threads and on asyncio: field indexes
(controller-runtime's IndexField), cache options (namespaces, per-kind selectors and transforms:
cache.Options/ByObject) and metadata-only watches (builder.OnlyMetadata).

What the cache should hold is the server's own answer to the same question, read in the test:
a list by field is compared with the server's list with that field selector (``spec.nodeName``
is a field the apiserver selects pods by), a label-selected kind with the server's list with that
label selector, a namespace-restricted cache with the server's lists of those namespaces, a
transform's result with the server's managedFields. Each comparison waits until the cache has
caught up with the writes before it (an answer that never matches fails the test).

controller-runtime's own cache answers beside kgen's (hack/controller-runtime/cache: cache.New
with the same options on the same apiserver): the same objects for every list and get, and its
errors (a read outside the cached namespaces, a field with no index) in the same words, which
kgen's field-index error extends with how to register the index.

Both flavours run one body: ``Running`` drives an ``AsyncManager`` on its own event loop thread,
calling its client's coroutines from the test.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import threading
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

from kgen.kubernetes import Clientset
from kgen.kubernetes.models.core.v1 import Binding, ConfigMap, Container, Namespace, ObjectReference, Pod, PodSpec, Secret
from kgen.kubernetes.models.meta.v1 import ObjectMeta, OwnerReference, PartialObjectMetadata
from kgen.runtime.apimachinery.errors import NotFound
from kgen.runtime.controller import AsyncManager, Manager, Request, async_controller_managed_by, controller_managed_by
from kgen.runtime.controller.cluster.cache import ResourceNotCachedError
from kgen.runtime.controller.cluster.field_index import IndexNotFoundError
from kgen.runtime.controller.cluster.informers import UnknownNamespaceError
from kgen.runtime.controller.cluster.options import ByObject, CacheOptions
from kgen.runtime.testing import KubeAPIServer
from kgen.runtime.tools.cache.transform import keep_objects, strip_managed_fields
from tests.support.apiserver import unthrottled_config, wait_for
from tests.support.controller.running import running_in_thread

pytestmark = pytest.mark.integration

FLAVOURS = ["threads", "asyncio"]
BUILD = Path(__file__).resolve().parents[2] / "hack" / "controller-runtime" / "build.sh"


@pytest.fixture(scope="module")
def cr_binary() -> Path:
    """hack/controller-runtime/cache, built once (cached outside the repository)."""
    done = subprocess.run([str(BUILD), "cache"], capture_output=True, text=True, timeout=1800)
    if done.returncode != 0:
        raise RuntimeError(f"building hack/controller-runtime/cache failed:\n{done.stderr[-4000:]}")
    return Path(done.stdout.strip().splitlines()[-1])


class ControllerRuntimeCache:
    """controller-runtime's cache in its own process: ``ask(op=..., kind=...)`` is its answer."""

    def __init__(self, process: subprocess.Popen[str]) -> None:
        self.process = process

    def ask(self, **read: Any) -> dict[str, Any]:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps(read) + "\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        assert line, f"controller-runtime's cache ended: {self.process.stderr.read() if self.process.stderr else ''}"
        answer: dict[str, Any] = json.loads(line)
        return answer

    def items(self, kind: str, namespace: str = "", **read: Any) -> set[tuple[str, str]]:
        """The (namespace, name) of what a list answers (an error fails the test)."""
        answer = self.ask(op="list", kind=kind, namespace=namespace, **read)
        assert "items" in answer, answer
        return {tuple(k.split("/", 1)) if "/" in k else ("", k) for k in answer["items"]}

    def error(self, **read: Any) -> str:
        """The error a read answers (an answer that is not one fails the test)."""
        answer = self.ask(**read)
        assert "error" in answer, answer
        error: str = answer["error"]
        return error


@contextmanager
def controller_runtime_cache(binary: Path, server: KubeAPIServer, **setup: Any) -> Iterator[ControllerRuntimeCache]:
    """controller-runtime's cache set up with ``setup`` (hack/controller-runtime/cache/main.go's first line)."""
    process = subprocess.Popen([str(binary), f"-kubeconfig-path={server.kubeconfig}"], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        cache = ControllerRuntimeCache(process)
        assert cache.ask(**setup) == {"ready": True}
        yield cache
    finally:
        if process.stdin is not None:
            process.stdin.close()
        try:
            process.wait(30)
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()


class Running:
    """A started manager of either flavour, driven from the test's thread."""

    def __init__(self, flavour: str, manager: Manager | AsyncManager, loop: asyncio.AbstractEventLoop | None) -> None:
        self.flavour, self.manager, self.loop = flavour, manager, loop

    def on_loop(self, call: Callable[[], Any]) -> Any:
        """``call()``'s result (awaited if it is a coroutine), on the manager's loop for asyncio."""
        if self.loop is None:
            return call()

        async def run() -> Any:
            result = call()
            return await result if asyncio.iscoroutine(result) else result

        return asyncio.run_coroutine_threadsafe(run(), self.loop).result(60)

    def client(self, method: str, *args: Any, **kwargs: Any) -> Any:
        """The manager's client's ``method`` called (and awaited, for asyncio)."""
        return self.on_loop(lambda: getattr(self.manager.client, method)(*args, **kwargs))


@contextmanager
def running(
    flavour: str, config: Any, setup: Callable[[Running], None] = lambda r: None, **options: Any
) -> Iterator[Running]:
    """A manager made with ``options``, set up by ``setup`` before it starts, stopped at the end."""
    if flavour == "threads":
        thread_manager = Manager(config, **options)
        run = Running(flavour, thread_manager, None)
        setup(run)
        with running_in_thread(thread_manager):
            yield run
        return
    loop = asyncio.new_event_loop()
    loop_thread = threading.Thread(target=loop.run_forever, name="manager-loop", daemon=True)
    loop_thread.start()
    try:
        run = Running(flavour, None, loop)  # type: ignore[arg-type]
        async def make() -> AsyncManager:
            return AsyncManager(config, **options)

        run.manager = run.on_loop(make)
        setup(run)
        started = asyncio.run_coroutine_threadsafe(run.manager.start(), loop)  # type: ignore[arg-type]
        try:
            yield run
        finally:
            run.manager.stop()
            started.result(60)
    finally:
        loop.call_soon_threadsafe(loop.stop)
        loop_thread.join(10)
        loop.close()


@pytest.fixture
def kube(kube_apiserver: KubeAPIServer) -> Iterator[Clientset]:
    with Clientset(unthrottled_config(kube_apiserver)) as cs:
        yield cs


@pytest.fixture
def other_namespaces(admin: httpx.Client) -> Iterator[list[str]]:
    """Two more fresh namespaces."""
    names = [f"t-{uuid.uuid4().hex[:10]}" for _ in range(2)]
    for name in names:
        admin.post("/api/v1/namespaces", json={"metadata": {"name": name}}).raise_for_status()
    yield names
    for name in names:
        admin.delete(f"/api/v1/namespaces/{name}")


def keys(objects: list[Any]) -> set[tuple[str, str]]:
    return {(o.metadata.namespace or "", o.metadata.name) for o in objects}


def pod(name: str, namespace: str, node: str | None, **labels: str) -> Pod:
    return Pod(
        metadata=ObjectMeta(name=name, namespace=namespace, labels=labels or None),
        spec=PodSpec(node_name=node, containers=[Container(name="c", image="registry.k8s.io/pause:3.10")]),
    )


def node_of(p: Pod) -> list[str]:
    return [p.spec.node_name] if p.spec is not None and p.spec.node_name else []


@pytest.mark.parametrize("flavour", FLAVOURS)
def test_field_index_answers_pods_by_node_and_follows_binds_and_deletes(
    kube_apiserver: KubeAPIServer, kube: Clientset, namespace: str, other_namespaces: list[str], flavour: str,
    cr_binary: Path,
) -> None:
    ns1, ns2 = namespace, other_namespaces[0]
    n1, n2 = f"node-{uuid.uuid4().hex[:8]}", f"node-{uuid.uuid4().hex[:8]}"
    kube.core_v1.pods(ns1).create(pod("a1", ns1, n1, tier="web"))
    kube.core_v1.pods(ns1).create(pod("a2", ns1, n2, tier="web"))
    kube.core_v1.pods(ns2).create(pod("b1", ns2, n1, tier="db"))
    kube.core_v1.pods(ns1).create(pod("unbound", ns1, None, tier="web"))

    def server(node: str, namespace: str = "", labels: str | None = None) -> set[tuple[str, str]]:
        return keys(kube.core_v1.pods(namespace).list(field_selector=f"spec.nodeName={node}", label_selector=labels).items)

    def setup(run: Running) -> None:
        run.manager.index_field(Pod, "spec.nodeName", node_of)

    index = {"kind": "Pod", "field": "spec.nodeName"}
    with running(flavour, unthrottled_config(kube_apiserver), setup) as run, \
            controller_runtime_cache(cr_binary, kube_apiserver, indexes=[index]) as cr:
        def cached(node: str, namespace: str | None = None, **labels: str) -> set[tuple[str, str]]:
            return keys(run.client("list", Pod, namespace, matching_fields={"spec.nodeName": node},
                                   matching_labels=labels or None))

        def by_controller_runtime(node: str, namespace: str = "", **labels: str) -> set[tuple[str, str]]:
            return cr.items("Pod", namespace, fields={"spec.nodeName": node}, labels=labels or None)

        def agree() -> bool:
            return all(
                cached(node) == server(node) == by_controller_runtime(node)
                and cached(node, ns) == server(node, ns) == by_controller_runtime(node, ns)
                and cached(node, tier="web") == server(node, labels="tier=web") == by_controller_runtime(node, tier="web")
                for node in (n1, n2) for ns in (ns1, ns2))

        wait_for(agree, timeout=30)
        assert server(n1) == {(ns1, "a1"), (ns2, "b1")}  # the comparison is not between two empty answers
        assert server(n1, ns1) == {(ns1, "a1")} and server(n1, labels="tier=web") == {(ns1, "a1")}

        # The scheduler's write: binding sets spec.nodeName, the index follows the update.
        kube.core_v1.bindings(ns1).create(
            Binding(metadata=ObjectMeta(name="unbound", namespace=ns1), target=ObjectReference(kind="Node", name=n2)))
        assert server(n2, ns1) == {(ns1, "a2"), (ns1, "unbound")}
        wait_for(agree, timeout=30)

        kube.core_v1.pods(ns1).delete("a1", grace_period_seconds=0)
        wait_for(lambda: server(n1) == {(ns2, "b1")})
        wait_for(agree, timeout=30)

        # A field with no index: controller-runtime's error (client-go's ByIndex words), and how to add one.
        with pytest.raises(IndexNotFoundError) as refused:
            run.client("list", Pod, ns1, matching_fields={"spec.restartPolicy": "Always"})
        message = str(refused.value)
        words = cr.error(op="list", kind="Pod", namespace=ns1, fields={"spec.restartPolicy": "Always"})
        assert words == "Index with name field:spec.restartPolicy does not exist"  # the oracle's, pinned for the reader
        assert message.startswith(words + ": ")
        assert "manager.index_field(Pod, 'spec.restartPolicy', extract)" in message

        # A field selector (MatchingFieldsSelector) reads the same index when it is all equalities...
        n2_pods = cached(n2)
        assert keys(run.client("list", Pod, field_selector=f"spec.nodeName=={n2}")) == n2_pods \
            == cr.items("Pod", fieldSelector=f"spec.nodeName=={n2}")
        # ...and is controller-runtime's error otherwise.
        for selector in (f"spec.nodeName!={n2}", ""):
            words = cr.error(op="list", kind="Pod", fieldSelector=selector)
            assert words == "non-exact field matches are not supported by the cache"
            with pytest.raises(ValueError) as refused_selector:
                run.client("list", Pod, field_selector=selector)
            assert str(refused_selector.value).startswith(words + ": ")


@pytest.mark.parametrize("flavour", FLAVOURS)
def test_namespace_restricted_cache_holds_only_its_namespaces_and_refuses_reads_outside(
    kube_apiserver: KubeAPIServer, kube: Clientset, namespace: str, other_namespaces: list[str], flavour: str,
    cr_binary: Path,
) -> None:
    cached_in, outside = [namespace, other_namespaces[0]], other_namespaces[1]
    for ns in (*cached_in, outside):
        kube.core_v1.config_maps(ns).create(ConfigMap(metadata=ObjectMeta(name="cm", namespace=ns)))
    kube.core_v1.secrets(outside).create(Secret(metadata=ObjectMeta(name="s", namespace=outside)))
    options = CacheOptions(namespaces=cached_in, by_object={Secret: ByObject(namespaces=[outside])})

    def server(ns: str) -> set[tuple[str, str]]:
        return keys(kube.core_v1.config_maps(ns).list().items)

    cr_setup = {"namespaces": cached_in, "byObject": {"Secret": {"namespaces": [outside]}},
                "indexes": [{"kind": "ConfigMap", "field": "metadata.name"}]}

    def setup(run: Running) -> None:
        run.manager.index_field(ConfigMap, "metadata.name", lambda cm: [cm.metadata.name])

    with running(flavour, unthrottled_config(kube_apiserver), setup, cache_options=options) as run, \
            controller_runtime_cache(cr_binary, kube_apiserver, **cr_setup) as cr:
        expected = server(cached_in[0]) | server(cached_in[1])
        assert (namespace, "cm") in expected and not server(outside) & expected
        wait_for(lambda: keys(run.client("list", ConfigMap)) == expected == cr.items("ConfigMap"), timeout=30)
        for ns in cached_in:
            assert keys(run.client("list", ConfigMap, ns)) == server(ns) == cr.items("ConfigMap", ns)
            assert run.client("get", ConfigMap, "cm", ns).metadata.namespace == ns
            assert cr.ask(op="get", kind="ConfigMap", namespace=ns, name="cm")["item"] == f"{ns}/cm"

        # controller-runtime's multiNamespaceCache: a read in another namespace is an error, not "not found".
        words = cr.error(op="get", kind="ConfigMap", namespace=outside, name="cm")
        assert words == f"unable to get: {outside}/cm because of unknown namespace for the cache"
        with pytest.raises(UnknownNamespaceError) as refused:
            run.client("get", ConfigMap, "cm", outside)
        assert str(refused.value) == words
        words = cr.error(op="list", kind="ConfigMap", namespace=outside)
        assert words == f"unable to list: {outside} because of unknown namespace for the cache"
        with pytest.raises(UnknownNamespaceError) as refused:
            run.client("list", ConfigMap, outside)
        assert str(refused.value) == words

        # A field index on each namespace's informer: a list by field across them, or in one.
        by_name = {"metadata.name": "cm"}
        assert keys(run.client("list", ConfigMap, matching_fields=by_name)) == {(ns, "cm") for ns in cached_in} \
            == cr.items("ConfigMap", fields=by_name)
        assert keys(run.client("list", ConfigMap, cached_in[1], matching_fields=by_name)) == {(cached_in[1], "cm")} \
            == cr.items("ConfigMap", cached_in[1], fields=by_name)
        with pytest.raises(UnknownNamespaceError) as refused:
            run.client("list", ConfigMap, outside, matching_fields=by_name)
        assert str(refused.value) == cr.error(op="list", kind="ConfigMap", namespace=outside, fields=by_name)

        # One informer per namespace, as controller-runtime's multiNamespaceCache.
        assert sorted(run.manager.cache.informer_for(ConfigMap).informers) == sorted(cached_in)

        # ByObject.namespaces overrides the default for its kind; cluster-scoped kinds are not restricted.
        assert keys(run.client("list", Secret)) == keys(kube.core_v1.secrets(outside).list().items) == cr.items("Secret")
        with pytest.raises(UnknownNamespaceError) as refused:
            run.client("list", Secret, namespace)
        assert str(refused.value) == cr.error(op="list", kind="Secret", namespace=namespace)
        assert run.client("get", Namespace, outside).metadata.name == outside
        assert cr.ask(op="get", kind="Namespace", name=outside)["item"] == outside

        # A write in a cached namespace reaches the cache; one outside does not.
        kube.core_v1.config_maps(cached_in[1]).create(ConfigMap(metadata=ObjectMeta(name="late", namespace=cached_in[1])))
        kube.core_v1.config_maps(outside).create(ConfigMap(metadata=ObjectMeta(name="late", namespace=outside)))
        wait_for(lambda: keys(run.client("list", ConfigMap)) == server(cached_in[0]) | server(cached_in[1])
                 == cr.items("ConfigMap"), timeout=30)
        assert (outside, "late") not in keys(run.client("list", ConfigMap))

    with pytest.raises(ValueError, match="is not namespaced, but its ByObject.namespaces setting is not None"):
        CacheOptions(by_object={Namespace: ByObject(namespaces=[namespace])})


@pytest.mark.parametrize("flavour", FLAVOURS)
def test_label_selected_by_object_cache_holds_only_matching_objects(
    kube_apiserver: KubeAPIServer, kube: Clientset, namespace: str, flavour: str, cr_binary: Path
) -> None:
    cms = kube.core_v1.config_maps(namespace)
    for name, team in (("a1", "a"), ("a2", "a"), ("b1", "b")):
        cms.create(ConfigMap(metadata=ObjectMeta(name=name, namespace=namespace, labels={"team": team})))
    kube.core_v1.secrets(namespace).create(Secret(metadata=ObjectMeta(name="tls", namespace=namespace), type="kubernetes.io/tls",
                                                  data={"tls.crt": "", "tls.key": ""}))
    kube.core_v1.secrets(namespace).create(Secret(metadata=ObjectMeta(name="plain", namespace=namespace)))
    options = CacheOptions(namespaces=[namespace], by_object={
        ConfigMap: ByObject(label_selector="team=a"), Secret: ByObject(field_selector="type=kubernetes.io/tls")})

    def server() -> set[tuple[str, str]]:
        return keys(cms.list(label_selector="team=a").items)

    cr_setup = {"namespaces": [namespace], "byObject": {"ConfigMap": {"label": "team=a"},
                                                         "Secret": {"field": "type=kubernetes.io/tls"}}}
    with running(flavour, unthrottled_config(kube_apiserver), cache_options=options) as run, \
            controller_runtime_cache(cr_binary, kube_apiserver, **cr_setup) as cr:
        assert server() == {(namespace, "a1"), (namespace, "a2")}
        wait_for(lambda: keys(run.client("list", ConfigMap, namespace)) == server() == cr.items("ConfigMap", namespace),
                 timeout=30)
        with pytest.raises(NotFound):
            run.client("get", ConfigMap, "b1", namespace)  # on the server, but not selected
        assert cr.ask(op="get", kind="ConfigMap", namespace=namespace, name="b1")["notFound"] is True
        tls = keys(kube.core_v1.secrets(namespace).list(field_selector="type=kubernetes.io/tls").items)
        assert tls == {(namespace, "tls")}
        assert keys(run.client("list", Secret, namespace)) == tls == cr.items("Secret", namespace)

        # The selector is the server's: an object relabelled into it arrives, one relabelled out leaves.
        cms.patch("b1", {"metadata": {"labels": {"team": "a"}}})
        cms.patch("a1", {"metadata": {"labels": {"team": "b"}}})
        assert server() == {(namespace, "a2"), (namespace, "b1")}
        wait_for(lambda: keys(run.client("list", ConfigMap, namespace)) == server() == cr.items("ConfigMap", namespace),
                 timeout=30)


@pytest.mark.parametrize("flavour", FLAVOURS)
def test_default_transform_strips_managed_fields_and_by_object_transform_overrides_it(
    kube_apiserver: KubeAPIServer, kube: Clientset, namespace: str, flavour: str, cr_binary: Path
) -> None:
    kube.core_v1.config_maps(namespace).create(ConfigMap(metadata=ObjectMeta(name="cm", namespace=namespace), data={"k": "v"}))
    kube.core_v1.secrets(namespace).create(Secret(metadata=ObjectMeta(name="s", namespace=namespace), string_data={"k": "v"}))
    server_cm, server_secret = kube.core_v1.config_maps(namespace).get("cm"), kube.core_v1.secrets(namespace).get("s")
    assert server_cm.metadata is not None and server_cm.metadata.managed_fields  # there is something to strip
    assert server_secret.metadata is not None and server_secret.metadata.managed_fields
    options = CacheOptions(namespaces=[namespace], default_transform=strip_managed_fields,
                           by_object={Secret: ByObject(transform=keep_objects)})

    with running(flavour, unthrottled_config(kube_apiserver), cache_options=options) as run, \
            controller_runtime_cache(cr_binary, kube_apiserver, namespaces=[namespace], stripManagedFields=True) as cr:
        cm = run.client("get", ConfigMap, "cm", namespace)
        assert cm.metadata.managed_fields is None and cm.data == server_cm.data
        assert cr.ask(op="get", kind="ConfigMap", namespace=namespace, name="cm") == {"item": f"{namespace}/cm", "managedFields": 0}
        assert cm.metadata.resource_version == server_cm.metadata.resource_version
        secret = run.client("get", Secret, "s", namespace)
        assert secret.metadata.managed_fields == server_secret.metadata.managed_fields


@pytest.mark.parametrize("flavour", FLAVOURS)
def test_owns_only_metadata_is_triggered_by_owned_changes_and_caches_metadata_only(
    kube_apiserver: KubeAPIServer, kube: Clientset, namespace: str, flavour: str
) -> None:
    seen: list[Request] = []
    lock = threading.Lock()

    def record(request: Request) -> None:
        with lock:
            seen.append(request)

    def count(name: str) -> int:
        with lock:
            return seen.count(Request(namespace, name))

    secrets_seen: list[Request] = []  # for_(Secret, only_metadata=True): the owned objects themselves

    def setup(run: Running) -> None:
        run.manager.index_field(Secret, "metadata.name", lambda m: [m.metadata.name], only_metadata=True)
        if flavour == "threads":
            controller_managed_by(run.manager).for_(ConfigMap).owns(Secret, only_metadata=True).complete(record)  # type: ignore[arg-type]
            controller_managed_by(run.manager).named("secrets").for_(Secret, only_metadata=True).complete(  # type: ignore[arg-type]
                secrets_seen.append)
            return

        async def reconcile(request: Request) -> None:
            record(request)

        async def reconcile_secret(request: Request) -> None:
            secrets_seen.append(request)

        run.on_loop(lambda: async_controller_managed_by(run.manager).for_(ConfigMap)  # type: ignore[arg-type]
                    .owns(Secret, only_metadata=True).complete(reconcile))
        run.on_loop(lambda: async_controller_managed_by(run.manager).named("secrets")  # type: ignore[arg-type]
                    .for_(Secret, only_metadata=True).complete(reconcile_secret))

    with running(flavour, unthrottled_config(kube_apiserver), setup, cache_options=CacheOptions(namespaces=[namespace])) as run:
        owner = kube.core_v1.config_maps(namespace).create(ConfigMap(metadata=ObjectMeta(name="owner", namespace=namespace)))
        assert owner.metadata is not None
        wait_for(lambda: count("owner") >= 1)
        ref = OwnerReference(api_version="v1", kind="ConfigMap", name="owner", uid=owner.metadata.uid or "", controller=True)
        secrets = kube.core_v1.secrets(namespace)
        before = count("owner")
        secrets.create(Secret(metadata=ObjectMeta(name="owned", namespace=namespace, owner_references=[ref]), string_data={"k": "v"}))
        wait_for(lambda: count("owner") > before)  # the owned object's create enqueued its owner
        before = count("owner")
        secrets.patch("owned", {"metadata": {"labels": {"changed": "yes"}}})
        wait_for(lambda: count("owner") > before)  # and its update

        # The cache holds the Secret's metadata alone, as the server's PartialObjectMetadata.
        server_meta = kube.core_v1.secrets(namespace).get("owned").metadata
        assert server_meta is not None
        wait_for(lambda: run.client("get_metadata", Secret, "owned", namespace).metadata.labels == {"changed": "yes"})
        cached = run.client("get_metadata", Secret, "owned", namespace)
        assert type(cached) is PartialObjectMetadata and not hasattr(cached, "data") and cached.metadata is not None
        assert (cached.metadata.uid, cached.metadata.resource_version) == (server_meta.uid, server_meta.resource_version)
        assert keys(run.client("list_metadata", Secret, namespace)) == keys(secrets.list().items)
        assert keys(run.client("list_metadata", Secret, namespace, matching_fields={"metadata.name": "owned"})) \
            == {(namespace, "owned")}  # an index on the metadata informer
        assert (Secret, False) not in run.manager.cache._kinds  # no full Secret informer was started
        assert Request(namespace, "owned") in secrets_seen
        with pytest.raises(IndexNotFoundError, match=r"index_field\(Secret, 'metadata.name', extract\)"):
            run.client("list", Secret, namespace, matching_fields={"metadata.name": "owned"})  # the full informer has none

        before = count("owner")
        secrets.delete("owned")
        wait_for(lambda: count("owner") > before)  # and its delete


@pytest.mark.parametrize("flavour", FLAVOURS)
def test_reader_fail_on_missing_informer_refuses_kinds_nothing_watches(
    kube_apiserver: KubeAPIServer, kube: Clientset, namespace: str, flavour: str, cr_binary: Path
) -> None:
    kube.core_v1.config_maps(namespace).create(ConfigMap(metadata=ObjectMeta(name="cm", namespace=namespace)))
    kube.core_v1.secrets(namespace).create(Secret(metadata=ObjectMeta(name="s", namespace=namespace)))
    options = CacheOptions(namespaces=[namespace], reader_fail_on_missing_informer=True)

    def setup(run: Running) -> None:
        run.manager.index_field(ConfigMap, "metadata.name", lambda cm: [cm.metadata.name])  # makes its informer

    cr_setup = {"namespaces": [namespace], "readerFailOnMissingInformer": True,
                "indexes": [{"kind": "ConfigMap", "field": "metadata.name"}]}
    with running(flavour, unthrottled_config(kube_apiserver), setup, cache_options=options) as run, \
            controller_runtime_cache(cr_binary, kube_apiserver, **cr_setup) as cr:
        assert run.client("get", ConfigMap, "cm", namespace).metadata.name == "cm"
        assert cr.ask(op="get", kind="ConfigMap", namespace=namespace, name="cm")["item"] == f"{namespace}/cm"
        words = cr.error(op="get", kind="Secret", namespace=namespace, name="s")
        assert words == "/v1, Kind=Secret is not cached"
        for method, args in (("get", (Secret, "s", namespace)), ("list", (Secret, namespace)),
                             ("get_metadata", (ConfigMap, "cm", namespace))):
            with pytest.raises(ResourceNotCachedError) as refused:
                run.client(method, *args)
            expected = "/v1, Kind=ConfigMap is not cached" if method == "get_metadata" else words  # no metadata informer
            assert str(refused.value).startswith(expected + ": ")
        assert cr.error(op="list", kind="Secret", namespace=namespace) == words
        assert (Secret, False) not in run.manager.cache._kinds  # no informer was started by the reads
