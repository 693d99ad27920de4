"""Store and Indexer: ports of client-go's store_test.go, index_test.go and
thread_safe_store_test.go, plus key functions, add_indexers and thread safety."""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

import pytest

from kgen.runtime.tools.cache.delta_fifo import DeletedFinalStateUnknown
from kgen.runtime.tools.cache.store import (
    NAMESPACE_INDEX, Indexer, Store, deletion_handling_key, meta_namespace_index, meta_namespace_key, split_key,
)
from tests.support.fake_source import pod


@dataclass(frozen=True)
class StoreObj:
    id: str
    val: str


def store_key(obj: StoreObj) -> str:
    return obj.id


def by_val(obj: StoreObj) -> list[str]:
    return [obj.val]


def do_test_store(store: Store) -> None:
    store.add(StoreObj("foo", "bar"))
    assert store.get(StoreObj("foo", "")) == StoreObj("foo", "bar")
    store.update(StoreObj("foo", "baz"))
    assert store.get(StoreObj("foo", "")) == StoreObj("foo", "baz")
    store.delete(StoreObj("foo", ""))
    assert store.get(StoreObj("foo", "")) is None

    for obj in (StoreObj("a", "b"), StoreObj("c", "d"), StoreObj("e", "e")):
        store.add(obj)
    assert sorted(o.val for o in store.list()) == ["b", "d", "e"]

    store.replace([StoreObj("foo", "foo"), StoreObj("bar", "bar")], "0")
    assert sorted(o.val for o in store.list()) == ["bar", "foo"]


def test_cache() -> None:
    do_test_store(Store(store_key))


def test_index() -> None:
    indexer = Indexer(store_key, {"by_val": by_val})
    do_test_store(indexer)

    indexer = Indexer(store_key, {"by_val": by_val})
    for obj in (StoreObj("a", "b"), StoreObj("c", "b"), StoreObj("e", "f"), StoreObj("g", "h")):
        indexer.add(obj)
    expected = {"b": {"a", "c"}, "f": {"e"}, "h": {"g"}}
    for value, ids in expected.items():
        assert {o.id for o in indexer.index("by_val", StoreObj("", value))} == ids


def label_foo(obj: dict[str, Any]) -> list[str]:
    return [obj["metadata"]["labels"]["foo"]]


def test_get_index_func_values() -> None:
    indexer = Indexer(indexers={"testmodes": label_foo})
    indexer.add(pod("one", foo="bar"))
    indexer.add(pod("two", foo="bar"))
    indexer.add(pod("tre", foo="biz"))
    assert indexer.list_index_func_values("testmodes") == ["bar", "biz"]


def users(obj: dict[str, Any]) -> list[str]:
    return obj["metadata"]["annotations"]["users"].split(",")


def with_users(name: str, value: str) -> dict[str, Any]:
    obj = pod(name)
    obj["metadata"]["annotations"] = {"users": value}
    return obj


def test_multi_index_keys() -> None:
    indexer = Indexer(indexers={"byUser": users})
    pod1, pod2, pod3 = with_users("one", "ernie,bert"), with_users("two", "bert,oscar"), with_users("tre", "ernie,elmo")
    for p in (pod1, pod2, pod3):
        indexer.add(p)

    assert len(indexer.by_index("byUser", "ernie")) == 2
    assert len(indexer.by_index("byUser", "bert")) == 2
    assert len(indexer.by_index("byUser", "oscar")) == 1
    assert len(indexer.index("byUser", pod1)) == 3  # ernie's and bert's

    indexer.delete(pod3)
    assert len(indexer.by_index("byUser", "ernie")) == 1
    assert indexer.by_index("byUser", "elmo") == []

    indexer.update(with_users("two", "oscar"))
    assert len(indexer.by_index("byUser", "bert")) == 1
    assert indexer.index_keys("byUser", "bert") == ["one"]


def csv_index(obj: tuple[str, str]) -> list[str]:
    return obj[1].split(",")


def keyed(obj: tuple[str, str]) -> str:
    return obj[0]


def test_thread_safe_store_delete_removes_empty_sets_from_index() -> None:
    indexer = Indexer(keyed, {"testIndexer": lambda obj: [obj[1]]})
    indexer.add(("testKey", "testKey"))
    assert indexer.index_keys("testIndexer", "testKey") == ["testKey"]
    indexer.delete(("testKey", "testKey"))
    assert indexer.list_index_func_values("testIndexer") == []
    assert "testKey" not in indexer._indices["testIndexer"]


def test_thread_safe_store_add_keeps_non_empty_set_post_delete_from_index() -> None:
    indexer = Indexer(keyed, {"testIndexer": lambda obj: ["testIndex"]})
    indexer.add(("retain", "retain"))
    indexer.add(("delete", "delete"))
    assert indexer.index_keys("testIndexer", "testIndex") == ["delete", "retain"]
    indexer.delete(("delete", "delete"))
    assert indexer.index_keys("testIndexer", "testIndex") == ["retain"]


def test_thread_safe_store_indexing_functions_with_multiple_values() -> None:
    indexer = Indexer(keyed, {"testIndexer": csv_index})

    def check(value: str, keys: list[str]) -> None:
        assert indexer.index_keys("testIndexer", value) == keys

    indexer.add(("key1", "foo"))
    indexer.add(("key2", "bar"))
    check("foo", ["key1"])
    check("bar", ["key2"])
    indexer.update(("key2", "foo,bar"))
    check("foo", ["key1", "key2"])
    check("bar", ["key2"])
    indexer.update(("key1", "foo,bar"))
    check("foo", ["key1", "key2"])
    check("bar", ["key1", "key2"])
    indexer.add(("key3", "foo,bar,baz"))
    check("foo", ["key1", "key2", "key3"])
    check("bar", ["key1", "key2", "key3"])
    check("baz", ["key3"])
    indexer.update(("key1", "foo"))
    check("foo", ["key1", "key2", "key3"])
    check("bar", ["key2", "key3"])
    indexer.update(("key2", "bar"))
    check("foo", ["key1", "key3"])
    check("bar", ["key2", "key3"])
    indexer.delete(("key1", ""))
    check("foo", ["key3"])
    check("bar", ["key2", "key3"])
    indexer.delete(("key3", ""))
    check("foo", [])
    check("bar", ["key2"])
    check("baz", [])


def test_add_indexers_indexes_objects_already_stored() -> None:
    indexer = Indexer(indexers={NAMESPACE_INDEX: meta_namespace_index})
    indexer.add(pod("a", namespace="ns1", app="web"))
    indexer.add(pod("b", namespace="ns2", app="db"))
    indexer.add_indexers({"app": lambda obj: [obj["metadata"]["labels"]["app"]]})
    assert [o["metadata"]["name"] for o in indexer.by_index("app", "web")] == ["a"]
    assert indexer.list_index_func_values("app") == ["db", "web"]
    assert set(indexer.get_indexers()) == {NAMESPACE_INDEX, "app"}
    with pytest.raises(ValueError, match="conflict"):
        indexer.add_indexers({"app": lambda obj: []})
    with pytest.raises(KeyError, match="does not exist"):
        indexer.by_index("missing", "x")


def test_namespace_index_follows_replace_and_delete() -> None:
    indexer = Indexer(indexers={NAMESPACE_INDEX: meta_namespace_index})
    indexer.add(pod("a", namespace="ns1"))
    indexer.add(pod("b", namespace="ns1"))
    indexer.replace([pod("c", namespace="ns2"), pod("b", namespace="ns1")], "9")
    assert indexer.index_keys(NAMESPACE_INDEX, "ns1") == ["ns1/b"]
    assert indexer.index_keys(NAMESPACE_INDEX, "ns2") == ["ns2/c"]
    indexer.delete(DeletedFinalStateUnknown("ns2/c", None))  # a tombstone deletes by its key
    assert indexer.list_index_func_values(NAMESPACE_INDEX) == ["ns1"]
    assert indexer.list_keys() == ["ns1/b"]


def test_meta_namespace_key_functions() -> None:
    assert meta_namespace_key(pod("a", namespace="ns")) == "ns/a"
    assert meta_namespace_key(pod("node-1")) == "node-1"
    assert deletion_handling_key(DeletedFinalStateUnknown("ns/a", None)) == "ns/a"
    assert split_key("ns/a") == ("ns", "a")
    assert split_key("node-1") == ("", "node-1")
    with pytest.raises(ValueError, match="unexpected key format"):
        split_key("a/b/c")  # client-go's SplitMetaNamespaceKey refuses it too
    with pytest.raises(ValueError, match="metadata.name"):
        meta_namespace_key({"metadata": {}})


def test_indexer_is_consistent_under_concurrent_writers_and_readers() -> None:
    indexer = Indexer(keyed, {"testIndexer": csv_index})
    errors: list[BaseException] = []

    def writer(n: int) -> None:
        for i in range(300):
            key = f"w{n}-{i % 20}"
            indexer.update((key, "even" if i % 2 else "odd,all"))
            if i % 7 == 0:
                indexer.delete((key, ""))

    def reader() -> None:
        try:
            for _ in range(300):
                for obj in indexer.by_index("testIndexer", "all"):
                    assert "all" in obj[1]
        except BaseException as e:  # noqa: BLE001
            errors.append(e)

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(4)] + [threading.Thread(target=reader)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    for value in ("odd", "all", "even"):
        assert indexer.index_keys("testIndexer", value) == sorted(
            key for key in indexer.list_keys() if value in indexer.get_by_key(key)[1].split(",")
        )
