"""The metadata client and informer factory (``<package>.metadata``) are typed in the package's
PartialObjectMetadata: lists, gets, watch events, informers, handlers and listers, both flavours;
a partial object has no spec, and its metadata is narrowed like any model's."""

from __future__ import annotations

from typing import assert_type

from kgen.kubernetes.metadata import (
    AsyncMetadataClient,
    AsyncMetadataSharedInformerFactory,
    GroupVersionResource,
    MetadataClient,
    MetadataSharedInformerFactory,
)
from kgen.kubernetes.models.meta.v1 import PartialObjectMetadata, PartialObjectMetadataList
from kgen.runtime.rest import Config
from kgen.runtime.rest.watch import Bookmark
from kgen.runtime.tools.cache import AsyncSharedIndexInformer, DeletedFinalStateUnknown, SharedIndexInformer

PODS = GroupVersionResource("", "v1", "pods")


def client(config: Config) -> list[str]:
    with MetadataClient(config) as metadata:
        pods = metadata.resource(PODS).namespace("default")
        assert_type(pods.list(label_selector="app=web"), PartialObjectMetadataList)
        assert_type(pods.get("web"), PartialObjectMetadata)
        for item in metadata.resource(PODS).watch(bookmarks=True):
            if not isinstance(item, Bookmark):
                assert_type(item.object, PartialObjectMetadata)
        web = pods.patch("web", {"metadata": {"labels": {"a": "b"}}})
        web.spec  # E: attr-defined
        web.metadata.name  # E: union-attr
        return [obj.metadata.name or "" for obj in pods.list().items if obj.metadata]


def informer(metadata: MetadataClient) -> str | None:
    factory = MetadataSharedInformerFactory(metadata, resync=0, namespace="default")
    pods = factory.for_resource(PODS)
    assert_type(pods.informer(), SharedIndexInformer[PartialObjectMetadata])

    def on_delete(obj: PartialObjectMetadata | DeletedFinalStateUnknown[PartialObjectMetadata]) -> None:
        print(obj.key if isinstance(obj, DeletedFinalStateUnknown) else obj.metadata)

    pods.informer().add_event_handler(on_add=lambda o: print(o.metadata), on_delete=on_delete)
    factory.start()
    factory.wait_for_cache_sync(timeout=30)
    assert_type(pods.lister().list("app=web"), list[PartialObjectMetadata])
    web = pods.lister().namespaced("default").get("web")
    factory.shutdown()
    return web.metadata.name if web.metadata else None


async def async_informer(config: Config) -> list[PartialObjectMetadata]:
    async with AsyncMetadataClient(config) as metadata:
        assert_type(await metadata.resource(PODS).get("web"), PartialObjectMetadata)
        factory = AsyncMetadataSharedInformerFactory(metadata)
        pods = factory.for_resource(PODS)
        assert_type(pods.informer(), AsyncSharedIndexInformer[PartialObjectMetadata])
        factory.start()
        await factory.wait_for_cache_sync(timeout=30)
        await factory.shutdown()
        return pods.lister().list()
