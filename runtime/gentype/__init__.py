"""client-go's gentype for Python: one generic client per resource, and the typed verb mixins
generated clients are built from.

``resource`` holds ``ResourceClient`` / ``AsyncResourceClient`` (every verb for one group,
version and plural, over a codec: typed models or plain dicts); ``typed`` holds the per-verb
mixins (``Get``, ``List``, ``Watch``, ...) a generated typed client combines, exactly the verbs
the server advertises.
"""

from kgen.runtime.gentype import typed
from kgen.runtime.gentype.resource import (
    AsyncResourceClient,
    AsyncWatchStream,
    Codec,
    DictCodec,
    PatchType,
    PropagationPolicy,
    ResourceClient,
    ResourceInfo,
    WatchStream,
)

__all__ = [
    "AsyncResourceClient", "AsyncWatchStream", "Codec", "DictCodec", "PatchType", "PropagationPolicy",
    "ResourceClient", "ResourceInfo", "WatchStream", "typed",
]
