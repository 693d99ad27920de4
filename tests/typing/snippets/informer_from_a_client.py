"""An informer made straight from a typed resource client (client-go's NewSharedIndexInformer
over a ListerWatcher) is typed in the client's model without an annotation, both flavours."""

from __future__ import annotations

from typing import assert_type

from kgen.kubernetes.models.core.v1 import ConfigMap, ConfigMapList
from kgen.runtime.apimachinery.codec import ModelCodec
from kgen.runtime.gentype import AsyncResourceClient, ResourceClient, ResourceInfo
from kgen.runtime.rest import AsyncRESTClient, RESTClient
from kgen.runtime.tools.cache import AsyncSharedIndexInformer, DeletedFinalStateUnknown, SharedIndexInformer

CONFIGMAPS = ResourceInfo("", "v1", "configmaps", True, "ConfigMap")


def informers(rest: RESTClient, arest: AsyncRESTClient) -> None:
    codec = ModelCodec(ConfigMap, ConfigMapList)
    informer = SharedIndexInformer(ResourceClient(rest, CONFIGMAPS, "default", codec), 30.0)
    assert_type(informer, SharedIndexInformer[ConfigMap])

    def on_delete(obj: ConfigMap | DeletedFinalStateUnknown[ConfigMap]) -> None:
        print(obj.key if isinstance(obj, DeletedFinalStateUnknown) else obj.data)

    informer.add_event_handler(on_add=lambda cm: print(cm.data), on_delete=on_delete)
    assert_type(informer.indexer.list(), list[ConfigMap])

    async_informer = AsyncSharedIndexInformer(AsyncResourceClient(arest, CONFIGMAPS, "default", codec))
    assert_type(async_informer, AsyncSharedIndexInformer[ConfigMap])
    assert_type(async_informer.get_indexer().by_index("namespace", "default"), list[ConfigMap])
