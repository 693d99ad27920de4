"""client-go's dynamic client for Python: any resource as plain dicts, found through discovery.

See docs/architecture.md for the layers and where this package sits in them.
"""

from kgen.runtime.dynamic.client import AsyncDynamicClient, DynamicClient

__all__ = ["AsyncDynamicClient", "DynamicClient"]
