"""client-go's rest for Python: configuration, credentials and the request pipeline.

``config`` (kubeconfig, in-cluster, client-go's defaults), ``auth`` (static and file tokens,
exec plugins, OIDC), ``client`` (RESTClient / AsyncRESTClient over httpx: rate limiting,
retries, errors) and ``watch`` (the watch stream decoder). See docs/architecture.md for the
request path. Names load on first use, so reading a kubeconfig does not import httpx.
"""

from typing import TYPE_CHECKING

from kgen.runtime._lazy import lazy_exports

if TYPE_CHECKING:
    from kgen.runtime.rest.client import MAX_RETRIES, AsyncRESTClient, Request, RESTClient, retry_after
    from kgen.runtime.rest.config import Config, ConfigError, in_cluster_config, load_config, load_kubeconfig
    from kgen.runtime.rest.watch import ADDED, BOOKMARK, DELETED, ERROR, MODIFIED, WatchDecoder, WatchEvent

_EXPORTS = {
    "client": ["MAX_RETRIES", "AsyncRESTClient", "RESTClient", "Request", "retry_after"],
    "config": ["Config", "ConfigError", "in_cluster_config", "load_config", "load_kubeconfig"],
    "watch": ["ADDED", "BOOKMARK", "DELETED", "ERROR", "MODIFIED", "WatchDecoder", "WatchEvent"],
}
__getattr__ = lazy_exports(__name__, _EXPORTS)
__all__ = [
    "ADDED", "BOOKMARK", "DELETED", "ERROR", "MODIFIED", "MAX_RETRIES", "AsyncRESTClient", "Config",
    "ConfigError", "RESTClient", "Request", "WatchDecoder", "WatchEvent", "in_cluster_config", "load_config",
    "load_kubeconfig", "retry_after",
]
