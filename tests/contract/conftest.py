"""The contract suite: every test runs twice, against the real kube-apiserver and against the
fake (``kgen.kubernetes.fake``), through the same typed ``Clientset``. What the fake answers is
pinned to what the apiserver answers; a test that only one side passes is a bug in the fake."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

import pytest

from kgen.kubernetes import AsyncClientset, Clientset
from kgen.kubernetes.fake import AsyncFakeClientset, FakeClientset
from kgen.kubernetes.models.core.v1 import Namespace
from kgen.kubernetes.models.meta.v1 import ObjectMeta
from kgen.runtime.rest import Config, load_kubeconfig
from kgen.runtime.apimachinery.errors import ApiError


@dataclass
class Backend:
    name: str
    cs: Clientset
    #: A new asyncio clientset on the same backend (the fake's shares the sync one's tracker).
    async_clientset: Callable[[], AsyncClientset]


@pytest.fixture(params=[pytest.param("real", marks=pytest.mark.integration), "fake"])
def backend(request: pytest.FixtureRequest) -> Iterator[Backend]:
    if request.param == "real":
        kubeconfig = str(request.getfixturevalue("kube_apiserver").kubeconfig)

        def config() -> Config:
            # RESTClient builds its rate limiter when constructed: switch it off in the Config first.
            cfg = load_kubeconfig(kubeconfig)
            cfg.qps = -1
            return cfg

        backend = Backend("real", Clientset(config()), lambda: AsyncClientset(config()))
    else:
        fake = FakeClientset()
        backend = Backend("fake", fake, lambda: AsyncFakeClientset(tracker=fake.tracker))
    yield backend
    backend.cs.close()


@dataclass
class CompactingBackend:
    cs: Clientset
    #: Drops the history before the current resourceVersion (etcd compaction; the tracker's compact()).
    compact: Callable[[], object]


@pytest.fixture(params=[pytest.param("real", marks=pytest.mark.integration), "fake"])
def compacting(request: pytest.FixtureRequest) -> Iterator[CompactingBackend]:
    """A backend whose history can be dropped: the real one serves watches and lists from etcd
    (no watch cache), so a compaction there is what clients see."""
    if request.param == "real":
        server = request.getfixturevalue("kube_apiserver_without_watch_cache")
        config = load_kubeconfig(str(server.kubeconfig))
        config.qps = -1
        backend = CompactingBackend(Clientset(config), server.compact_etcd)
    else:
        fake = FakeClientset()
        backend = CompactingBackend(fake, fake.tracker.compact)
    yield backend
    backend.cs.close()


@pytest.fixture
def cs(backend: Backend) -> Clientset:
    return backend.cs


@pytest.fixture
def ns(cs: Clientset) -> Iterator[str]:
    """A fresh namespace per test. The real one is never finalized (no namespace controller runs)."""
    yield from _namespace(cs)


def _namespace(cs: Clientset) -> Iterator[str]:
    created = cs.core_v1.namespaces().create(Namespace(metadata=ObjectMeta(generate_name="contract-")))
    name = str(created.metadata.name)
    yield name
    try:
        cs.core_v1.namespaces().delete(name)
    except ApiError:
        pass


@pytest.fixture
def compacting_ns(compacting: CompactingBackend) -> Iterator[str]:
    yield from _namespace(compacting.cs)
