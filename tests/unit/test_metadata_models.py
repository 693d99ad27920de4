"""PartialObjectMetadata(List): the meta/v1 kinds the generator adds because no OpenAPI has them."""

from __future__ import annotations

import msgspec

from generator.sources import RawDefinition, SourceSet
from generator.sources.partial_metadata import add_partial_object_metadata
from kgen.kubernetes.models.meta.v1 import ObjectMeta, PartialObjectMetadata, PartialObjectMetadataList

META = "io.k8s.apimachinery.pkg.apis.meta.v1."

# The shape the apiserver answers to ``Accept: application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1``.
WIRE_LIST = (
    b'{"kind":"PartialObjectMetadataList","apiVersion":"meta.k8s.io/v1","metadata":{"resourceVersion":"42"},'
    b'"items":[{"kind":"PartialObjectMetadata","apiVersion":"meta.k8s.io/v1","metadata":{"name":"a",'
    b'"namespace":"ns","uid":"u1","resourceVersion":"41","creationTimestamp":"2026-01-01T00:00:00Z",'
    b'"labels":{"app":"x"}}}]}'
)


def test_partial_object_metadata_list_round_trips_the_wire_shape() -> None:
    lst = PartialObjectMetadataList.from_json(WIRE_LIST)
    assert lst.kind == "PartialObjectMetadataList" and lst.metadata is not None
    assert lst.metadata.resource_version == "42"
    item = lst.items[0]
    assert isinstance(item, PartialObjectMetadata) and isinstance(item.metadata, ObjectMeta)
    assert (item.metadata.name, item.metadata.labels) == ("a", {"app": "x"})
    assert msgspec.json.decode(lst.to_json()) == msgspec.json.decode(WIRE_LIST)


def test_kinds_are_registered_in_meta_k8s_io_v1() -> None:
    assert (PartialObjectMetadata.API_VERSION, PartialObjectMetadata.KIND) == ("meta.k8s.io/v1", "PartialObjectMetadata")
    assert (PartialObjectMetadataList.API_VERSION, PartialObjectMetadataList.KIND) == (
        "meta.k8s.io/v1", "PartialObjectMetadataList",
    )


def _with_meta() -> SourceSet:
    sources = SourceSet()
    for name in ("ObjectMeta", "ListMeta"):
        sources.add_definition(RawDefinition(META + name, {"type": "object"}, "test", ""))
    return sources


def test_added_next_to_object_meta_only() -> None:
    empty = SourceSet()
    add_partial_object_metadata(empty)
    assert empty.definitions == {}
    sources = _with_meta()
    add_partial_object_metadata(sources)
    assert {META + "PartialObjectMetadata", META + "PartialObjectMetadataList"} <= sources.definitions.keys()


def test_a_source_that_defines_them_wins() -> None:
    sources = _with_meta()
    own = RawDefinition(META + "PartialObjectMetadata", {"type": "object", "description": "theirs"}, "snapshot", "")
    sources.add_definition(own)
    add_partial_object_metadata(sources)
    assert sources.definitions[META + "PartialObjectMetadata"] is own
    assert META + "PartialObjectMetadataList" in sources.definitions
