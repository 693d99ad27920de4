"""controller-runtime's stock predicates (pkg/predicate) and event handlers (pkg/handler)."""

from __future__ import annotations

from kgen.kubernetes.models.apps.v1 import Deployment
from kgen.kubernetes.models.core.v1 import ConfigMap, Node
from kgen.kubernetes.models.meta.v1 import ObjectMeta, OwnerReference
from kgen.runtime.controller import (
    AnnotationChangedPredicate,
    CreateEvent,
    DeleteEvent,
    EnqueueRequestForObject,
    EnqueueRequestForOwner,
    EnqueueRequestsFromMapFunc,
    Funcs,
    GenerationChangedPredicate,
    GenericEvent,
    LabelChangedPredicate,
    Predicate,
    Request,
    ResourceVersionChangedPredicate,
    UpdateEvent,
    and_,
    new_predicate_funcs,
    not_,
    or_,
)


def cm(generation: int | None = 1, rv: str = "1", labels: dict[str, str] | None = None,
       annotations: dict[str, str] | None = None, name: str = "a") -> ConfigMap:
    return ConfigMap(metadata=ObjectMeta(name=name, namespace="ns", generation=generation, resource_version=rv,
                                         labels=labels, annotations=annotations))


def test_generation_changed_passes_spec_changes_only() -> None:
    p = GenerationChangedPredicate()
    assert p.update(UpdateEvent(cm(1), cm(2)))
    assert not p.update(UpdateEvent(cm(1, rv="1"), cm(1, rv="2")))  # a status or metadata write
    assert p.create(CreateEvent(cm())) and p.delete(DeleteEvent(cm())) and p.generic(GenericEvent(cm()))


def test_label_and_annotation_changed_compare_as_stored() -> None:
    labels, annotations = LabelChangedPredicate(), AnnotationChangedPredicate()
    assert labels.update(UpdateEvent(cm(labels={"a": "1"}), cm(labels={"a": "2"})))
    assert not labels.update(UpdateEvent(cm(labels={"a": "1"}), cm(labels={"a": "1"}, rv="2")))
    assert labels.update(UpdateEvent(cm(labels=None), cm(labels={})))  # Go's DeepEqual: nil != empty map
    assert annotations.update(UpdateEvent(cm(annotations={"x": "1"}), cm(annotations=None)))
    assert not annotations.update(UpdateEvent(cm(labels={"a": "1"}), cm(labels={"a": "2"})))


def test_resource_version_changed_drops_resyncs() -> None:
    p = ResourceVersionChangedPredicate()
    assert not p.update(UpdateEvent(cm(rv="5"), cm(rv="5")))
    assert p.update(UpdateEvent(cm(rv="5"), cm(rv="6")))


def test_custom_funcs_and_combinators() -> None:
    only_b: Funcs[ConfigMap] = new_predicate_funcs(lambda obj: obj.metadata is not None and obj.metadata.name == "b")
    assert only_b.create(CreateEvent(cm(name="b"))) and not only_b.create(CreateEvent(cm(name="a")))
    assert only_b.update(UpdateEvent(cm(name="a"), cm(name="b")))  # judged on the new object
    no_deletes: Funcs[ConfigMap] = Funcs(delete=lambda e: False)
    assert no_deletes.create(CreateEvent(cm())) and not no_deletes.delete(DeleteEvent(cm()))
    changed = UpdateEvent(cm(1), cm(2))
    assert and_(GenerationChangedPredicate(), no_deletes).update(changed)
    assert not and_(GenerationChangedPredicate(), not_(no_deletes)).update(changed)
    assert or_(LabelChangedPredicate(), GenerationChangedPredicate()).update(changed)
    nothing: Predicate[ConfigMap] = or_()
    everything: Predicate[ConfigMap] = and_()
    assert not nothing.create(CreateEvent(cm())) and everything.create(CreateEvent(cm()))


class Queue:
    def __init__(self) -> None:
        self.added: list[Request] = []

    def add(self, item: Request) -> None:
        self.added.append(item)


def owned(*refs: OwnerReference, namespace: str = "ns") -> ConfigMap:
    return ConfigMap(metadata=ObjectMeta(name="child", namespace=namespace, owner_references=list(refs)))


def ref(kind: str, name: str, api_version: str = "apps/v1", controller: bool | None = None) -> OwnerReference:
    return OwnerReference(api_version=api_version, kind=kind, name=name, uid=f"uid-{name}", controller=controller)


def test_enqueue_for_owner_takes_the_controller_of_the_owner_kind_only() -> None:
    queue = Queue()
    handler = EnqueueRequestForOwner(Deployment)
    obj = owned(ref("Deployment", "plain"), ref("Deployment", "boss", controller=True), ref("ReplicaSet", "rs", controller=True))
    handler.create(CreateEvent(obj), queue)
    assert queue.added == [Request("ns", "boss")]


def test_enqueue_for_owner_without_only_controller_takes_every_owner_of_the_group_and_kind() -> None:
    queue = Queue()
    handler = EnqueueRequestForOwner(Deployment, only_controller=False)
    obj = owned(ref("Deployment", "a"), ref("Deployment", "b", api_version="apps/v1beta2", controller=True),
                ref("Deployment", "other-group", api_version="example.com/v1"))
    handler.delete(DeleteEvent(obj, delete_state_unknown=True), queue)
    assert queue.added == [Request("ns", "a"), Request("ns", "b")]


def test_enqueue_for_owner_update_wakes_old_and_new_owner_and_cluster_scoped_owner_has_no_namespace() -> None:
    queue = Queue()
    handler = EnqueueRequestForOwner(Node)
    old = owned(ref("Node", "n1", api_version="v1", controller=True))
    new = owned(ref("Node", "n2", api_version="v1", controller=True))
    handler.update(UpdateEvent(old, new), queue)
    assert queue.added == [Request("", "n1"), Request("", "n2")]


def test_enqueue_for_object_and_map_func() -> None:
    queue = Queue()
    EnqueueRequestForObject().update(UpdateEvent(cm(name="old"), cm(name="new")), queue)
    def mapper(obj: ConfigMap) -> list[Request]:
        return [Request("x", "1"), Request("x", "1"), Request("y", "2")]

    EnqueueRequestsFromMapFunc(mapper).generic(GenericEvent(cm()), queue)
    assert queue.added == [Request("ns", "new"), Request("x", "1"), Request("y", "2")]
    assert str(Request("ns", "a")) == "ns/a" and str(Request("", "node")) == "node"
