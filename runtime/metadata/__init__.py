"""client-go's ``metadata`` client and ``metadatainformer`` for Python: any resource as PartialObjectMetadata.

Most controllers need only the metadata of what they own (names, labels, owner references,
finalizers); reading it as PartialObjectMetadata keeps each cached object a fraction of the size
of the full one. ``client`` (the verbs), ``requests`` (client-go's Accept headers), ``codec``
(client-go's check of the answer's kind) and ``informer`` (the shared informer factory). A
generated package binds them to its own models as ``<package>.metadata``.
See docs/architecture.md for the layers and where this package sits in them.
"""

from kgen.runtime.apimachinery.schema import GroupVersionResource
from kgen.runtime.metadata.client import (
    AsyncMetadataClient,
    AsyncMetadataResourceClient,
    MetadataClient,
    MetadataResourceClient,
)
from kgen.runtime.metadata.codec import LIST_KIND, OBJECT_KIND, MetadataCodec, UnexpectedObjectError
from kgen.runtime.metadata.informer import (
    AsyncMetadataInformer,
    AsyncMetadataSharedInformerFactory,
    MetadataInformer,
    MetadataSharedInformerFactory,
)
from kgen.runtime.metadata.requests import ACCEPT_LIST, ACCEPT_OBJECT

__all__ = [
    "ACCEPT_LIST", "ACCEPT_OBJECT", "LIST_KIND", "OBJECT_KIND", "AsyncMetadataClient", "AsyncMetadataResourceClient",
    "AsyncMetadataInformer",     "AsyncMetadataSharedInformerFactory", "GroupVersionResource", "MetadataClient", "MetadataCodec",
    "MetadataInformer", "MetadataResourceClient", "MetadataSharedInformerFactory", "UnexpectedObjectError",
]
