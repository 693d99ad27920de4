"""client-go's dynamic client for Python: any resource as plain dicts, found through discovery."""

from kgen.runtime.dynamic.client import AsyncDynamicClient, DynamicClient

__all__ = ["AsyncDynamicClient", "DynamicClient"]
