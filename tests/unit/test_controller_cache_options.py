"""The manager cache's I/O-free parts: ``CacheOptions`` resolved per kind as controller-runtime's
``defaultOpts`` resolves ``cache.Options`` (a ByObject setting wins, an unset one takes the
default, a cluster-scoped kind has no namespaces), and field indexes keyed and read as
controller-runtime's ``indexByField``/``byIndexes`` do. What the real caches hold is compared with
controller-runtime's cache in tests/integration/test_controller_cache_options.py."""

from __future__ import annotations

import pytest

from kgen.kubernetes.models.core.v1 import ConfigMap, Namespace, Node, Pod, PodSpec
from kgen.kubernetes.models.meta.v1 import ObjectMeta
from kgen.runtime.controller.cluster.cache import cache_options
from kgen.runtime.controller.cluster.field_index import (
    IndexNotFoundError,
    by_fields,
    exact_fields,
    field_index_func,
    field_index_name,
    namespaced_key,
)
from kgen.runtime.controller.cluster.options import ByObject, CacheOptions, KindConfig
from kgen.runtime.tools.cache.store import Indexer
from kgen.runtime.tools.cache.transform import keep_objects, strip_managed_fields


def test_by_object_settings_win_and_unset_ones_take_the_defaults() -> None:
    options = CacheOptions(
        namespaces=["b", "a"], default_label_selector="team=x", default_field_selector="metadata.name=n",
        default_transform=strip_managed_fields,
        by_object={ConfigMap: ByObject(label_selector="app=web", namespaces=["c"], transform=keep_objects)},
    )
    assert options.for_kind(ConfigMap) == KindConfig(("c",), "app=web", "metadata.name=n", keep_objects)
    assert options.for_kind(Pod) == KindConfig(("a", "b"), "team=x", "metadata.name=n", strip_managed_fields)
    # A cluster-scoped kind is cached whole: the default namespaces do not apply to it.
    assert options.for_kind(Node).namespaces is None


def test_options_refuse_what_controller_runtime_refuses_or_cannot_mean() -> None:
    with pytest.raises(ValueError, match="type Namespace is not namespaced, but its ByObject.namespaces setting is not None"):
        CacheOptions(by_object={Namespace: ByObject(namespaces=["a"])})
    with pytest.raises(ValueError, match="an empty list caches nothing"):
        CacheOptions(namespaces=[])
    with pytest.raises(ValueError, match="'' \\(every namespace\\)"):
        CacheOptions(namespaces=["", "a"])
    with pytest.raises(TypeError, match="a list of namespace names, not the string 'abc'"):
        CacheOptions(namespaces="abc")
    with pytest.raises(TypeError, match="is not a kgen model class"):
        CacheOptions(by_object={dict: ByObject()})


def test_a_managers_namespace_is_one_cached_namespace() -> None:
    assert cache_options("a", None).namespaces == ["a"]
    assert cache_options(None, None) == CacheOptions()
    merged = cache_options("a", CacheOptions(default_label_selector="x=y"))
    assert (merged.namespaces, merged.default_label_selector) == (["a"], "x=y")
    with pytest.raises(ValueError, match="give one"):
        cache_options("a", CacheOptions(namespaces=["b"]))


def test_kind_config_sends_its_selectors_with_every_list_and_watch() -> None:
    config = KindConfig(None, "app=web", "status.phase=Running", None)
    assert config.list_options({"limit": 500}) == {
        "limit": 500, "label_selector": "app=web", "field_selector": "status.phase=Running"}
    assert KindConfig(None, None, None, None).list_options({"limit": 500}) == {"limit": 500}


def pod(namespace: str, name: str, node: str | None) -> Pod:
    return Pod(metadata=ObjectMeta(namespace=namespace, name=name), spec=PodSpec(node_name=node, containers=[]))


def nodes(p: Pod) -> list[str]:
    return [p.spec.node_name] if p.spec is not None and p.spec.node_name else []


def test_an_object_is_indexed_under_its_namespace_and_under_every_namespace() -> None:
    index = field_index_func(nodes)
    assert index(pod("ns", "p", "n1")) == ["ns/n1", "__all_namespaces/n1"]
    assert index(pod("ns", "p", None)) == []
    assert field_index_func(lambda n: [n.metadata.name])(Node(metadata=ObjectMeta(name="n1"))) == ["__all_namespaces/n1"]
    assert (namespaced_key("", "v"), namespaced_key("ns", "v"), field_index_name("spec.nodeName")) == (
        "__all_namespaces/v", "ns/v", "field:spec.nodeName")


def test_by_fields_reads_the_first_index_and_filters_by_the_others() -> None:
    indexer: Indexer[Pod] = Indexer()
    indexer.add_indexers({field_index_name("spec.nodeName"): field_index_func(nodes),
                          field_index_name("metadata.name"): field_index_func(lambda p: [p.metadata.name])})
    for p in (pod("a", "p1", "n1"), pod("a", "p2", "n2"), pod("b", "p1", "n1"), pod("b", "p3", "n1")):
        indexer.add(p)

    def names(found: list[Pod]) -> set[str]:
        return {f"{p.metadata.namespace}/{p.metadata.name}" for p in found if p.metadata is not None}

    assert names(by_fields(indexer, {"spec.nodeName": "n1"}, "", "Pod")) == {"a/p1", "b/p1", "b/p3"}
    assert names(by_fields(indexer, {"spec.nodeName": "n1"}, "b", "Pod")) == {"b/p1", "b/p3"}
    assert names(by_fields(indexer, {"spec.nodeName": "n1", "metadata.name": "p1"}, "", "Pod")) == {"a/p1", "b/p1"}
    assert by_fields(indexer, {"spec.nodeName": "n9"}, "", "Pod") == []
    # An update moves the object from one value to the other.
    indexer.update(pod("a", "p2", "n1"))
    assert names(by_fields(indexer, {"spec.nodeName": "n1"}, "a", "Pod")) == {"a/p1", "a/p2"}
    indexer.delete(pod("a", "p1", "n1"))
    assert names(by_fields(indexer, {"spec.nodeName": "n1"}, "a", "Pod")) == {"a/p2"}


def test_a_field_with_no_index_is_an_error_naming_it_and_how_to_register_it() -> None:
    indexer: Indexer[Pod] = Indexer()
    indexer.add_indexers({field_index_name("spec.nodeName"): field_index_func(nodes)})
    # Every field is checked, also behind one that matches nothing (controller-runtime would stop there).
    with pytest.raises(IndexNotFoundError) as refused:
        by_fields(indexer, {"spec.nodeName": "n9", "status.phase": "Running"}, "", "Pod")
    assert str(refused.value) == (
        "Index with name field:status.phase does not exist: no field index for 'status.phase' on the cache's Pod; "
        "register one with manager.index_field(Pod, 'status.phase', extract) before reading by it")
    how = r"Pod metadata; register one with manager.index_field\(Pod, 'x', extract, only_metadata=True\)"
    with pytest.raises(IndexNotFoundError, match=how):
        by_fields(indexer, {"x": "y"}, "", "Pod", only_metadata=True)
    with pytest.raises(ValueError, match="matching_fields is empty"):
        by_fields(indexer, {}, "", "Pod")


def test_a_field_selector_is_read_as_its_equalities_or_refused_as_controller_runtime_refuses_it() -> None:
    assert exact_fields("spec.nodeName=n1,metadata.name==p\\,1") == {"spec.nodeName": "n1", "metadata.name": "p,1"}
    for selector in ("spec.nodeName!=n1", "a=b,c!=d", "", ","):
        with pytest.raises(ValueError, match="^non-exact field matches are not supported by the cache: "):
            exact_fields(selector)
    with pytest.raises(ValueError, match="^invalid selector: 'nodeName'; can't understand 'nodeName'$"):
        exact_fields("nodeName")
    with pytest.raises(ValueError, match="unescaped character in value: 61"):
        exact_fields("a=b=c")


def test_a_manager_on_the_fake_serves_field_indexes_namespaces_and_metadata_only_watches() -> None:
    """The cache's options on a fake clientset's in-memory apiserver (a controller's unit test)."""
    import threading
    import time

    from kgen.kubernetes.fake import FakeClientset
    from kgen.kubernetes.models.core.v1 import Container
    from kgen.runtime.controller import Manager, Request, UnknownNamespaceError, controller_managed_by

    cs = FakeClientset(
        ConfigMap(metadata=ObjectMeta(name="cm", namespace="ns")),
        *(Pod(metadata=ObjectMeta(name=n, namespace=ns), spec=PodSpec(node_name=node, containers=[Container(name="c", image="x")]))
          for n, ns, node in (("p1", "ns", "n1"), ("p2", "ns", "n2"), ("p3", "other", "n1"))),
    )
    manager = Manager(cs.config, transport=cs.tracker.transport(), cache_options=CacheOptions(namespaces=["ns"]))
    seen: list[Request] = []
    controller_managed_by(manager).for_(ConfigMap, only_metadata=True).complete(seen.append)
    manager.index_field(Pod, "spec.nodeName", nodes)
    runner = threading.Thread(target=manager.start)
    runner.start()
    try:
        deadline = time.monotonic() + 20
        while not seen:
            assert time.monotonic() < deadline, "the metadata-only controller never reconciled"
            time.sleep(0.05)
        assert seen == [Request("ns", "cm")]
        assert [p.metadata.name for p in manager.client.list(Pod, matching_fields={"spec.nodeName": "n1"}) if p.metadata] == ["p1"]
        assert type(manager.client.get_metadata(ConfigMap, "cm", "ns")).__name__ == "PartialObjectMetadata"
        with pytest.raises(UnknownNamespaceError):
            manager.client.get(Pod, "p3", "other")
    finally:
        manager.stop()
        runner.join(30)
