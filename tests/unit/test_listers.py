"""Listers read the informer's cache (client-go listers.go ListAll / ListAllByNamespace)."""

from __future__ import annotations

import pytest

from kgen.runtime.tools.cache.listers import Lister
from kgen.runtime.tools.cache.store import NAMESPACE_INDEX, Indexer, meta_namespace_index
from kgen.runtime.apimachinery.errors import NotFound
from tests.support.fake_source import name_of, pod


def indexer(with_namespace_index: bool = True) -> Indexer:
    idx = Indexer(indexers={NAMESPACE_INDEX: meta_namespace_index} if with_namespace_index else {})
    for obj in (pod("web-1", namespace="a", app="web"), pod("db-1", namespace="a", app="db"),
                pod("web-2", namespace="b", app="web"), pod("plain", namespace="b")):
        idx.add(obj)
    return idx


def names(objs: list[dict]) -> list[str]:  # type: ignore[type-arg]
    return sorted(name_of(o) for o in objs)


@pytest.mark.parametrize("with_namespace_index", [True, False])
def test_list_all_and_by_namespace_with_a_label_selector(with_namespace_index: bool) -> None:
    lister: Lister[dict] = Lister(indexer(with_namespace_index), "pods")  # type: ignore[type-arg]
    assert names(lister.list()) == ["db-1", "plain", "web-1", "web-2"]
    assert names(lister.list("app=web")) == ["web-1", "web-2"]
    assert names(lister.namespaced("a").list()) == ["db-1", "web-1"]
    assert names(lister.namespaced("b").list("app")) == ["web-2"]
    assert names(lister.namespaced("").list("app in (db)")) == ["db-1"]  # NamespaceAll
    assert lister.namespaced("c").list() == []


def test_get_by_name_raises_not_found_like_the_server() -> None:
    lister: Lister[dict] = Lister(indexer(), "pods")  # type: ignore[type-arg]
    assert name_of(lister.namespaced("b").get("plain")) == "plain"
    with pytest.raises(NotFound) as missing:
        lister.namespaced("a").get("plain")
    assert missing.value.code == 404 and missing.value.message == 'pods "plain" not found'
    with pytest.raises(TypeError, match="namespaced"):
        lister.get("plain")


def test_cluster_scoped_get() -> None:
    nodes = Indexer(indexers={NAMESPACE_INDEX: meta_namespace_index})
    nodes.add(pod("node-1"))
    lister: Lister[dict] = Lister(nodes, "nodes", namespaced=False)  # type: ignore[type-arg]
    assert name_of(lister.get("node-1")) == "node-1"
    with pytest.raises(NotFound):
        lister.get("node-2")
