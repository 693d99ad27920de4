"""client-go's gentype for Python: one generic client per resource, and the typed verb mixins
generated clients are built from.

``resource`` describes a resource (``ResourceInfo``, the codecs, ``PatchType``,
``PropagationPolicy``) and builds the request of each verb; ``client`` holds
``ResourceClient`` / ``AsyncResourceClient``, which send them (every verb for one group,
version and plural, over a codec: typed models or plain dicts); ``watch`` holds the open watch
streams; ``logs`` the pods' ``log`` verb; ``typed`` holds the per-verb mixins (``Get``, ``List``, ``Watch``, ...) a generated
typed client combines, exactly the verbs the server advertises.

See docs/architecture.md for the layers and where this package sits in them.
"""

from kgen.runtime.gentype import typed
from kgen.runtime.gentype.client import AsyncResourceClient, ResourceClient
from kgen.runtime.gentype.logs import AsyncPodLogs, PodLogs
from kgen.runtime.gentype.resource import (
    DEFAULT_PAGE_SIZE,
    WATCH_IDLE_TIMEOUT,
    Codec,
    DictCodec,
    PatchType,
    PropagationPolicy,
    ResourceInfo,
)
from kgen.runtime.gentype.watch import AsyncWatchStream, WatchStream

__all__ = [
    "DEFAULT_PAGE_SIZE", "WATCH_IDLE_TIMEOUT", "AsyncPodLogs", "AsyncResourceClient", "AsyncWatchStream", "Codec", "DictCodec",
    "PatchType", "PodLogs", "PropagationPolicy", "ResourceClient", "ResourceInfo", "WatchStream", "typed",
]
