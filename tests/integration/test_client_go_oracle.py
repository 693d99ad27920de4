"""client-go as the oracle for informer event sequences.

client-go's shared informers (hack/oracle/informer, a Go program on client-go at the envtest
version) and kgen's generated informer factories watch the same namespace of the real
apiserver, side by side, while a seeded script of writes runs: creates, updates, no-op updates
(which the apiserver does not turn into events), label changes (which move objects in and out
of a label-selected informer), deletes, re-creates under the same name, a deletecollection and
a burst of concurrent updates. For every informer and every object, the ordered handler calls
(add, update, delete, with the object's resourceVersion) must be the same on both sides, and
both caches must equal what the server lists at the end. Run on threads and on asyncio, with
WatchList on and off (client-go's WatchListClient gate and kgen's ``watch_list`` option), for
ConfigMaps (client-go's typed informer factory, kgen's generated one) and for a custom resource
(client-go's dynamic informer factory, kgen's shared informer over its dynamic client). Both
sides' requests show they ran the mode asked for: one WatchList watch per informer and no list,
or a list, then a watch.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import httpx
import pytest

from kgen.kubernetes import AsyncClientset, Clientset
from kgen.kubernetes.informers.factory import AsyncSharedInformerFactory, SharedInformerFactory
from kgen.runtime.apimachinery.meta import name_of, resource_version_of
from kgen.runtime.dynamic import AsyncDynamicClient, DynamicClient
from kgen.runtime.rest import AsyncRESTClient, Config, RESTClient
from kgen.runtime.testing import KubeAPIServer
from kgen.runtime.tools.cache import AsyncSharedIndexInformer, SharedIndexInformer
from kgen.runtime.tools.cache.delta_fifo import DeletedFinalStateUnknown
from tests.support.apiserver import crd_manifest, install_crd, unthrottled_config, wait_for
from tests.support.flavours import Flavour
from tests.conftest import Figure
from tests.support.oracle import (GoInformer, HandlerCall, list_and_watch_list_requests, per_object,
                                  sequence_differences)

SEED = 20260801
#: informer name → label selector; each side runs one informer per entry, each from its own factory.
INFORMERS = {"all": "", "gold": "tier=gold"}
SENTINEL = "zz-sentinel"  # written last, gold: once both informers saw its add, they saw everything
TIMEOUT = 90.0  # generous: two cores shared by the apiserver, etcd, client-go and the tests
GROUP, PLURAL, KIND = "oracle.kgen.dev", "gadgets", "Gadget"


@dataclass(frozen=True)
class Resource:
    """What the writes and both sides' informers are about."""

    name: str
    api_version: str
    kind: str
    #: The path of the namespace's collection, given the namespace.
    collection: str
    #: The top-level field the writes change ("data" for ConfigMaps, "spec" for the CRD).
    field: str
    #: hack/oracle/informer's -resource: "configmaps" (typed factory) or group/version/plural.
    go_resource: str


CONFIGMAPS = Resource("configmaps", "v1", "ConfigMap", "/api/v1/namespaces/{}/configmaps", "data", "configmaps")
GADGETS = Resource("gadgets", f"{GROUP}/v1", KIND, f"/apis/{GROUP}/v1/namespaces/{{}}/{PLURAL}", "spec",
                   f"{GROUP}/v1/{PLURAL}")

JSON = dict[str, Any]


# -- the kgen side --------------------------------------------------------------------------


class CallLog:
    """kgen's handler calls in the oracle's form, with waits woken by each call."""

    def __init__(self) -> None:
        self.calls: list[HandlerCall] = []
        self._changed = threading.Condition()

    def handlers(self, informer: str) -> dict[str, Callable[..., None]]:
        def record(handler: str, obj: Any) -> None:
            with self._changed:
                self.calls.append(HandlerCall(informer, name_of(obj), handler, resource_version_of(obj)))
                self._changed.notify_all()

        def on_delete(obj: Any) -> None:
            if isinstance(obj, DeletedFinalStateUnknown):
                record("delete-tombstone", obj.obj)
            else:
                record("delete", obj)

        return {"on_add": lambda obj: record("add", obj), "on_update": lambda old, new: record("update", new),
                "on_delete": on_delete}

    def wait(self, condition: Callable[[list[HandlerCall]], bool], timeout: float, what: str) -> None:
        with self._changed:
            assert self._changed.wait_for(lambda: condition(self.calls), timeout), f"kgen informer: no {what}"

    def snapshot(self) -> list[HandlerCall]:
        with self._changed:
            return list(self.calls)


class KgenInformers:
    """kgen's informers, one per entry of INFORMERS, on this flavour: for ConfigMaps each from
    its own generated informer factory, for the CRD shared informers over the dynamic client."""

    def __init__(self, flavour: Flavour, config: Config, namespace: str, resource: Resource, watch_list: bool) -> None:
        self.flavour, self.config, self.namespace, self.watch_list = flavour, config, namespace, watch_list
        self.resource = resource
        self.log = CallLog()
        self.informers: dict[str, Any] = {}
        self.registrations: list[Any] = []
        self.factories: list[Any] = []
        self.closers: list[Any] = []
        self.requests: list[str] = []  # "GET /path?query", as the oracle reports client-go's

    def _record_requests(self, http: httpx.Client | httpx.AsyncClient) -> None:
        def record(request: httpx.Request) -> None:
            self.requests.append(f"{request.method} {request.url.raw_path.decode()}")

        async def record_async(request: httpx.Request) -> None:
            record(request)

        http.event_hooks["request"].append(record_async if isinstance(http, httpx.AsyncClient) else record)

    @staticmethod
    def _tweak(selector: str) -> Callable[[dict[str, Any]], dict[str, Any]] | None:
        return (lambda options: {**options, "label_selector": selector}) if selector else None

    def _register(self, name: str, informer: Any) -> None:
        self.registrations.append(informer.add_event_handler(**self.log.handlers(name)))
        self.informers[name] = informer

    def _configmaps(self, clientset: Any, factory_class: Any) -> None:
        self.closers.append(clientset)
        self._record_requests(clientset.rest.http)
        for name, selector in INFORMERS.items():
            factory = factory_class(clientset, namespace=self.namespace, tweak_list_options=self._tweak(selector),
                                    watch_list=self.watch_list)
            self._register(name, factory.core_v1.config_maps().informer)
            self.factories.append(factory)
            factory.start()

    def _gadgets(self, rest: Any, dynamic: Any, informer_class: Any) -> None:
        self.closers.append(rest)
        self._record_requests(rest.http)
        for name, selector in INFORMERS.items():
            client = dynamic.resource(GROUP, "v1", PLURAL, self.namespace, namespaced=True, kind=KIND)
            informer = informer_class(client, list_options=self._tweak(selector), watch_list=self.watch_list)
            self._register(name, informer)
            informer.start()

    def start(self) -> None:
        if not self.flavour.is_async:
            if self.resource is CONFIGMAPS:
                self._configmaps(Clientset(self.config), SharedInformerFactory)
            else:
                rest = RESTClient(self.config)
                self._gadgets(rest, DynamicClient(rest), SharedIndexInformer)
            return

        async def start_on_the_loop() -> None:
            if self.resource is CONFIGMAPS:
                self._configmaps(AsyncClientset(self.config), AsyncSharedInformerFactory)
            else:
                rest = AsyncRESTClient(self.config)
                self._gadgets(rest, AsyncDynamicClient(rest), AsyncSharedIndexInformer)

        self.flavour.call(start_on_the_loop)

    def wait_synced(self) -> None:
        for informer in self.informers.values():
            synced = self.flavour.call(lambda i=informer: i.wait_for_cache_sync(timeout=TIMEOUT), timeout=TIMEOUT + 5)
            assert synced, "a kgen informer never synced"
        deadline = time.monotonic() + TIMEOUT
        while not all(self.flavour.do(registration.has_synced) for registration in self.registrations):
            assert time.monotonic() < deadline, "kgen handlers never synced"
            time.sleep(0.02)

    def caches(self) -> dict[str, dict[str, str]]:
        def contents() -> dict[str, dict[str, str]]:
            return {name: {name_of(o): resource_version_of(o) for o in informer.indexer.list()}
                    for name, informer in self.informers.items()}

        return dict(self.flavour.do(contents))

    def stop(self) -> None:
        informers = list(self.informers.values())
        if not self.flavour.is_async:
            for informer in informers:
                informer.stop()
            for closer in self.closers:
                closer.close()
            return

        async def stop_on_the_loop() -> None:
            for informer in informers:
                await informer.stop()
            for closer in self.closers:
                await closer.close()

        self.flavour.call(stop_on_the_loop, timeout=30)


# -- the writes -----------------------------------------------------------------------------


class Writer:
    """Writes objects of ``resource`` with plain httpx (not kgen's client), keeping what exists
    in mind."""

    def __init__(self, admin: httpx.Client, namespace: str, resource: Resource, rng: random.Random) -> None:
        self.admin, self.rng, self.resource = admin, rng, resource
        self.base = resource.collection.format(namespace)
        self.field = resource.field
        self.existing: dict[str, JSON] = {}  # name → the last object the server returned
        self.writes = 0
        self.no_ops = 0

    def _ok(self, response: httpx.Response) -> JSON:
        assert response.status_code in (200, 201), response.text
        self.writes += 1
        body: JSON = response.json()
        return body

    def create(self, name: str, tier: str | None = None, batch: str | None = None) -> None:
        labels = {"tier": tier or self.rng.choice(["gold", "silver"]), "batch": batch or self.rng.choice("ab")}
        body = {"apiVersion": self.resource.api_version, "kind": self.resource.kind,
                "metadata": {"name": name, "labels": labels}, self.field: {"v": str(self.rng.random())}}
        self.existing[name] = self._ok(self.admin.post(self.base, json=body))

    def update_data(self, name: str) -> None:
        patch = {self.field: {"v": str(self.rng.random())}}
        self.existing[name] = self._ok(self.admin.patch(f"{self.base}/{name}", json=patch, headers=MERGE))

    def flip_tier(self, name: str) -> None:
        tier = "silver" if self.existing[name]["metadata"]["labels"]["tier"] == "gold" else "gold"
        patch = {"metadata": {"labels": {"tier": tier}}}
        self.existing[name] = self._ok(self.admin.patch(f"{self.base}/{name}", json=patch, headers=MERGE))

    def no_op(self, name: str) -> None:
        """An update (PUT of the object as read) or a patch that changes nothing: no new
        resourceVersion, so no watch event and no handler call on either side."""
        before = self.existing[name]
        if self.rng.random() < 0.5:
            response = self.admin.put(f"{self.base}/{name}", json=before)
        else:
            patch = {self.field: before[self.field], "metadata": {"labels": before["metadata"]["labels"]}}
            response = self.admin.patch(f"{self.base}/{name}", json=patch, headers=MERGE)
        after = self._ok(response)
        assert after["metadata"]["resourceVersion"] == before["metadata"]["resourceVersion"], "not a no-op"
        self.no_ops += 1

    def delete(self, name: str) -> None:
        self._ok(self.admin.delete(f"{self.base}/{name}"))
        del self.existing[name]

    def delete_collection(self, selector: str) -> None:
        self._ok(self.admin.delete(self.base, params={"labelSelector": selector}))
        key, value = selector.split("=")
        for name in [n for n, o in self.existing.items() if o["metadata"]["labels"][key] == value]:
            del self.existing[name]

    def burst(self, names: list[str], updates: int, workers: int) -> None:
        """``updates`` concurrent merge patches over ``names``: new data each, half of them also
        setting the tier (moving objects in and out of the gold informer)."""
        plan = [(self.rng.choice(names), self.rng.choice([None, "gold", "silver"]), i) for i in range(updates)]

        def patch(name: str, tier: str | None, i: int) -> JSON:
            body: JSON = {self.field: {"burst": str(i)}}
            if tier:
                body["metadata"] = {"labels": {"tier": tier}}
            response = self.admin.patch(f"{self.base}/{name}", json=body, headers=MERGE)
            assert response.status_code == 200, response.text
            result: JSON = response.json()
            return result

        with ThreadPoolExecutor(workers) as pool:
            results = list(pool.map(lambda step: patch(*step), plan))
        self.writes += len(results)
        for name in names:
            newest = max((r for r in results if r["metadata"]["name"] == name),
                         key=lambda r: int(r["metadata"]["resourceVersion"]), default=None)
            if newest is not None:
                self.existing[name] = newest

    def script(self, steps: int) -> None:
        """The seeded part: ``steps`` random writes on a pool of twelve names."""
        pool = [f"obj-{i:02d}" for i in range(12)]
        for _ in range(steps):
            name = self.rng.choice(pool)
            if name not in self.existing:
                self.create(name)  # a re-create when the name existed before
                continue
            action = self.rng.choice([self.update_data, self.update_data, self.flip_tier, self.no_op, self.delete])
            action(name)


MERGE = {"Content-Type": "application/merge-patch+json"}


def server_state(admin: httpx.Client, collection: str, selector: str, resource_version: str = "") -> dict[str, str]:
    params = {"labelSelector": selector} if selector else {}
    if resource_version:
        params["resourceVersion"] = resource_version
    items = admin.get(collection, params=params).json()["items"]
    return {o["metadata"]["name"]: o["metadata"]["resourceVersion"] for o in items}


def saw_sentinel(calls: list[HandlerCall]) -> bool:
    return {c.informer for c in calls if c.name == SENTINEL and c.handler == "add"} >= INFORMERS.keys()


# -- the comparison and its self-check ------------------------------------------------------


def assert_planted_differences_are_caught(calls: list[HandlerCall], rng: random.Random) -> None:
    """The comparator is not blind: one dropped call, two swapped calls of one object, or one
    changed resourceVersion on one side is reported, naming the object."""
    assert sequence_differences(calls, list(calls)) == []
    dropped = rng.randrange(len(calls))
    without_one = calls[:dropped] + calls[dropped + 1:]
    report = sequence_differences(calls, without_one)
    assert len(report) == 1 and repr(calls[dropped].name) in report[0], report

    long_enough = [key for key, seq in per_object(calls).items() if len(set(seq)) >= 2]
    informer, name = rng.choice(sorted(long_enough))
    mine = [i for i, c in enumerate(calls) if (c.informer, c.name) == (informer, name)]
    first, second = mine[0], next(i for i in mine[1:] if calls[i] != calls[mine[0]])
    swapped = list(calls)
    swapped[first], swapped[second] = swapped[second], swapped[first]
    assert len(sequence_differences(calls, swapped)) == 1

    changed = list(calls)
    target = changed[dropped]
    changed[dropped] = HandlerCall(target.informer, target.name, target.handler, target.resource_version + "0")
    assert len(sequence_differences(calls, changed)) == 1


def test_comparator_reports_a_planted_difference() -> None:
    """The comparator alone, on a hand-made log (the server test plants into real ones too)."""
    calls = [HandlerCall("all", "a", "add", "1"), HandlerCall("all", "b", "add", "2"),
             HandlerCall("all", "a", "update", "3"), HandlerCall("gold", "a", "add", "3"),
             HandlerCall("all", "a", "delete", "4"), HandlerCall("gold", "a", "delete", "4")]
    interleaved = [calls[1], calls[0], calls[3], calls[2], calls[5], calls[4]]
    assert sequence_differences(calls, interleaved) == [], "only the order per object counts"
    report = sequence_differences(calls, [c for c in calls if c != calls[2]])
    assert report == ["informer 'all', object 'a': client-go [('add', '1'), ('update', '3'), ('delete', '4')]"
                      " != kgen [('add', '1'), ('delete', '4')]"]
    tombstone = [*calls[:4], HandlerCall("all", "a", "delete-tombstone", "4"), calls[5]]
    assert len(sequence_differences(calls, tombstone)) == 1
    assert_planted_differences_are_caught(calls, random.Random(SEED))


# -- the differential run -------------------------------------------------------------------


@pytest.fixture(scope="module")
def gadgets_crd(admin: httpx.Client) -> None:
    """A namespaced CRD whose spec has the two string fields the writes set."""
    crd = crd_manifest(GROUP, KIND, PLURAL, {"v": {"type": "string"}, "burst": {"type": "string"}})
    if admin.get(f"/apis/apiextensions.k8s.io/v1/customresourcedefinitions/{PLURAL}.{GROUP}").status_code == 404:
        install_crd(admin, crd)
    wait_for(lambda: admin.get(f"/apis/{GROUP}/v1/{PLURAL}").status_code == 200)


@pytest.fixture(params=["configmaps", "gadgets"])
def resource(request: pytest.FixtureRequest) -> Resource:
    if request.param == "gadgets":
        request.getfixturevalue("gadgets_crd")
        return GADGETS
    return CONFIGMAPS


@pytest.fixture
def kgen_informers(flavour: Flavour, kube_apiserver: KubeAPIServer, namespace: str,
                   resource: Resource) -> Iterator[Callable[[bool], KgenInformers]]:
    made: list[KgenInformers] = []

    def make(watch_list: bool) -> KgenInformers:
        made.append(KgenInformers(flavour, unthrottled_config(kube_apiserver), namespace, resource, watch_list))
        return made[-1]

    yield make
    for informers in made:
        informers.stop()


@pytest.mark.parametrize("watch_list", [True, False], ids=["watchlist", "list-then-watch"])
def test_kgen_informers_see_the_event_sequences_client_go_sees(
    kube_apiserver: KubeAPIServer, admin: httpx.Client, namespace: str, flavour: Flavour, resource: Resource,
    kgen_informers: Callable[[bool], KgenInformers], watch_list: bool, figure: Figure,
) -> None:
    rng = random.Random(SEED)
    writer = Writer(admin, namespace, resource, rng)
    preexisting = [f"obj-{i:02d}" for i in range(6)]
    for name in preexisting:
        writer.create(name)
    # An informer's first list (resourceVersion "0") comes from the watch cache, which may lag
    # the writes by a moment; wait until it holds them, so both sides' initial lists are these six.
    wait_for(lambda: server_state(admin, writer.base, "", resource_version="0").keys() >= set(preexisting))

    kgen = kgen_informers(watch_list)
    with GoInformer(kube_apiserver.kubeconfig, namespace, INFORMERS, watch_list=watch_list,
                    resource=resource.go_resource) as go:
        assert go.watch_list is watch_list
        kgen.start()
        go.wait_synced(TIMEOUT)
        kgen.wait_synced()
        # Both listed the same six objects before any write below, so from here both see one stream.
        initially_gold = {n for n in preexisting if writer.existing[n]["metadata"]["labels"]["tier"] == "gold"}
        assert go.initial_list("all") == set(preexisting) and go.initial_list("gold") == initially_gold

        for i in range(6, 12):
            writer.create(f"obj-{i:02d}")
        writer.script(steps=60)
        writer.delete_collection("batch=a")
        for name in ("obj-00", "obj-03", "obj-07"):  # re-created under names deletecollection may have freed
            if name not in writer.existing:
                writer.create(name, batch="b")
        writer.burst(sorted(writer.existing)[:4], updates=40, workers=8)
        writer.create(SENTINEL, tier="gold")

        go.wait_calls(saw_sentinel, TIMEOUT, "add of the sentinel in every informer")
        kgen.log.wait(saw_sentinel, TIMEOUT, "add of the sentinel in every informer")
        go_caches, kgen_caches = go.dump(), kgen.caches()
        go_calls, kgen_calls = go.calls(), kgen.log.snapshot()
        go_requests = go.requests()

    # Each side did what the mode says: one WatchList watch per informer and no list, or lists.
    for side, requests in (("client-go", go_requests), ("kgen", list(kgen.requests))):
        lists, watch_lists = list_and_watch_list_requests(requests, writer.base)
        if watch_list:
            assert (lists, watch_lists) == (0, len(INFORMERS)), f"{side} did not use WatchList: {requests}"
        else:
            assert lists >= len(INFORMERS) and watch_lists == 0, f"{side} did not list, then watch: {requests}"

    mismatches = sequence_differences(go_calls, kgen_calls)
    objects = len(per_object(go_calls))
    figure(f"seed {SEED}, {resource.name}, WatchList {'on' if watch_list else 'off'}, {flavour.name}: "
          f"{writer.writes} writes ({writer.no_ops} no-ops), {len(go_calls)} handler calls from client-go and "
          f"{len(kgen_calls)} from kgen over {objects} (informer, object) pairs, {len(mismatches)} mismatches")
    assert mismatches == [], "\n".join(mismatches)
    # The run had substance: every handler kind on both informers, no-ops skipped.
    kinds = {(c.informer, c.handler) for c in go_calls}
    assert kinds >= {(i, h) for i in INFORMERS for h in ("add", "update", "delete")}, kinds
    assert writer.no_ops > 0 and len(go_calls) > 100
    for name, selector in INFORMERS.items():
        on_server = server_state(admin, writer.base, selector)
        assert go_caches[name] == on_server, f"client-go's {name!r} cache"
        assert kgen_caches[name] == on_server, f"kgen's {name!r} cache"
    assert_planted_differences_are_caught(kgen_calls, rng)
