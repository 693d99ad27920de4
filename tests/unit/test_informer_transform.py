"""The informers' default transform (tools/cache/transform.py): managedFields dropped as
controller-runtime's TransformStripManagedFields drops them, repeated metadata strings interned
with values unchanged, and the opt-outs (a factory's ``transform=keep_objects``, an informer's
``set_transform(None)``). The informer tests run on both flavours against the fake clientset."""

from __future__ import annotations

import copy
from typing import Any

import msgspec

from kgen.kubernetes.fake import AsyncFakeClientset, FakeClientset
from kgen.kubernetes.informers.factory import AsyncSharedInformerFactory, SharedInformerFactory
from kgen.kubernetes.models.core.v1 import ConfigMap
from kgen.kubernetes.models.meta.v1 import ManagedFieldsEntry, ObjectMeta, OwnerReference
from kgen.runtime.tools.cache.transform import (
    chain,
    default_transform,
    intern_metadata,
    intern_strings,
    keep_objects,
    strip_managed_fields,
)
from tests.support.flavours import Flavour


def _wire(name: str) -> dict[str, Any]:
    return {
        "apiVersion": "v1", "kind": "ConfigMap",
        "metadata": {
            "name": name, "namespace": "team-" + "alpha", "resourceVersion": "7",
            "labels": {"app.kubernetes.io/name": "check" + "out", "tier": "front" + "end"},
            "annotations": {"checksum/config": "abc" + name},
            "ownerReferences": [{"apiVersion": "apps/" + "v1", "kind": "Replica" + "Set", "name": "rs",
                                 "uid": "u-1"}],
            "managedFields": [{"manager": "kubectl", "operation": "Update", "apiVersion": "v1",
                               "fieldsType": "FieldsV1", "fieldsV1": {"f:data": {"f:k": {}}}}],
        },
        "data": {"k": "v"},
    }


def _without_managed_fields(wire: dict[str, Any]) -> dict[str, Any]:
    expected = copy.deepcopy(wire)
    del expected["metadata"]["managedFields"]
    return expected


def test_strip_managed_fields_drops_only_managed_fields_of_a_model_and_of_a_dict() -> None:
    wire = _wire("a")
    model = strip_managed_fields(ConfigMap.from_json(msgspec.json.encode(wire)))
    assert model.metadata is not None and model.metadata.managed_fields is None
    assert model.to_dict() == _without_managed_fields(wire)
    plain = strip_managed_fields(copy.deepcopy(wire))
    assert plain == _without_managed_fields(wire)
    assert strip_managed_fields({"kind": "NoMeta"}) == {"kind": "NoMeta"}


def test_interning_shares_repeated_metadata_strings_and_keeps_their_values() -> None:
    # Decoded separately, equal strings are distinct objects: what interning is for.
    a, b = (ConfigMap.from_json(msgspec.json.encode(_wire(name))) for name in ("a", "b"))
    assert a.metadata is not None and b.metadata is not None and a.metadata.labels and b.metadata.labels
    assert a.metadata.labels["tier"] is not b.metadata.labels["tier"]
    before = (a.to_dict(), b.to_dict())
    for obj in (a, b):
        intern_metadata(obj)
    assert (a.to_dict(), b.to_dict()) == before
    assert a.metadata.labels and b.metadata.labels and a.metadata.owner_references and b.metadata.owner_references
    assert a.metadata.namespace is b.metadata.namespace
    assert a.metadata.labels["tier"] is b.metadata.labels["tier"]
    assert [k for k in a.metadata.labels][0] is [k for k in b.metadata.labels][0]  # msgspec shares keys
    assert a.metadata.owner_references[0].kind is b.metadata.owner_references[0].kind
    assert isinstance(a.metadata.owner_references[0], OwnerReference)


def test_interning_a_dict_keeps_its_values() -> None:
    a, b = (msgspec.json.decode(msgspec.json.encode(_wire(name))) for name in ("a", "b"))
    expected = copy.deepcopy(a)
    intern_metadata(a)
    intern_metadata(b)
    assert a == expected
    assert a["metadata"]["labels"]["tier"] is b["metadata"]["labels"]["tier"]
    assert a["metadata"]["ownerReferences"][0]["kind"] is b["metadata"]["ownerReferences"][0]["kind"]


def test_default_transform_is_strip_then_intern_and_chain_runs_in_order() -> None:
    obj = default_transform(ConfigMap.from_json(msgspec.json.encode(_wire("a"))))
    assert obj.metadata is not None and obj.metadata.managed_fields is None
    seen: list[str] = []
    both = chain(lambda o: seen.append("first") or o, lambda o: seen.append("second") or o)
    assert both(obj) is obj and seen == ["first", "second"]
    assert keep_objects(obj) is obj


# -- in an informer, from a factory ----------------------------------------------------------


def _cm(name: str) -> ConfigMap:
    return ConfigMap(
        metadata=ObjectMeta(
            name=name, namespace="ns", labels={"team": "a"},
            managed_fields=[ManagedFieldsEntry(manager="m", operation="Update", api_version="v1",
                                               fields_type="FieldsV1", fields_v1={"f:data": {}})],
        ),
        data={"k": name},
    )


def _synced_cache(flavour: Flavour, **factory_options: Any) -> list[ConfigMap]:
    """The lister's ConfigMaps once a factory's informer (with ``factory_options``) synced."""
    cs = flavour.pick(FakeClientset, AsyncFakeClientset)(_cm("a"), _cm("b"))
    factory = flavour.pick(SharedInformerFactory, AsyncSharedInformerFactory)(cs, namespace="ns", **factory_options)
    informer = factory.core_v1.config_maps()
    informer.informer  # made before the start, as a controller does

    async def run_async() -> None:
        factory.start()
        try:
            assert all((await factory.wait_for_cache_sync(timeout=20)).values())
        finally:
            await factory.shutdown()

    if flavour.is_async:
        flavour.call(run_async, timeout=60)
    else:
        factory.start()
        try:
            assert all(factory.wait_for_cache_sync(timeout=20).values())
        finally:
            factory.shutdown()
    listed = informer.lister.config_maps("ns").list()
    assert sorted(o.metadata.name for o in listed if o.metadata) == ["a", "b"]
    assert all(isinstance(o, ConfigMap) for o in listed)
    return listed


def test_a_factory_informer_drops_managed_fields_by_default_and_its_lister_stays_typed(flavour: Flavour) -> None:
    listed = _synced_cache(flavour)
    assert all(o.metadata and o.metadata.managed_fields is None for o in listed)
    assert all(o.metadata and o.metadata.labels == {"team": "a"} for o in listed)
    assert sorted((o.data or {})["k"] for o in listed) == ["a", "b"]


def test_a_factory_with_keep_objects_keeps_managed_fields(flavour: Flavour) -> None:
    listed = _synced_cache(flavour, transform=keep_objects)
    assert all(o.metadata and o.metadata.managed_fields and o.metadata.managed_fields[0].manager == "m"
               for o in listed)


def test_an_informer_set_transform_none_keeps_managed_fields() -> None:
    cs = FakeClientset(_cm("a"))
    factory = SharedInformerFactory(cs, namespace="ns")
    informer = factory.core_v1.config_maps().informer
    assert informer.fifo.transformer is default_transform
    informer.set_transform(None)
    factory.start()
    try:
        assert all(factory.wait_for_cache_sync(timeout=20).values())
    finally:
        factory.shutdown()
    (obj,) = informer.indexer.list()
    assert obj.metadata is not None and obj.metadata.managed_fields is not None



def test_intern_strings_shares_every_repeated_string_of_a_pod_and_keeps_it_equal() -> None:
    from bench.pods import pod_list_json
    from kgen.kubernetes.models.core.v1 import PodList

    pods = PodList.from_json(pod_list_json(2, 1)).items
    a, b = pods[0], pods[1]
    before = (a.to_dict(), b.to_dict())
    assert a.spec and b.spec and a.spec.containers[0].image_pull_policy is not b.spec.containers[0].image_pull_policy
    for pod in (a, b):
        intern_strings(pod)
    assert (a.to_dict(), b.to_dict()) == before
    assert a.spec and b.spec
    assert a.spec.containers[0].image_pull_policy is b.spec.containers[0].image_pull_policy
    assert a.spec.dns_policy is b.spec.dns_policy
    plain = msgspec.json.decode(msgspec.json.encode([before[0], before[1]]))
    intern_strings(plain)
    assert plain == [before[0], before[1]]
    assert plain[0]["spec"]["dnsPolicy"] is plain[1]["spec"]["dnsPolicy"]


def test_a_watch_list_transforms_each_object_as_it_arrives_as_client_go_transforming_store_does() -> None:
    """client-go's TransformingStore: the watch-list's temporary store takes the DeltaFIFO's
    transform, so a cache that drops managedFields never holds all of them at once."""
    from kgen.runtime.tools.cache.delta_fifo import DeltaFIFO
    from kgen.runtime.tools.cache.reflector_core import ReflectorCore
    from kgen.runtime.tools.cache.reflector_steps import Consume, OpenWatch

    fifo = DeltaFIFO(transformer=default_transform)
    core = ReflectorCore(object(), fifo, watch_list=True)
    steps = core.watch_list_steps()
    assert isinstance(next(steps), OpenWatch)
    consume = steps.send(object())
    assert isinstance(consume, Consume)
    wire = _wire("a")
    consume.session.store.add(copy.deepcopy(wire))
    (held,) = consume.session.store.list()
    assert held == _without_managed_fields(wire)
    steps.close()
