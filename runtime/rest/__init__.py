"""client-go's rest for Python: configuration, credentials and the request pipeline.

``config`` (rest.Config, in-cluster, client-go's defaults), ``kubeconfig`` (clientcmd: loading
and merging kubeconfig files), ``url_utils`` (a kubeconfig's server URL, checked at load),
``auth`` (the credentials protocol, static and file tokens, the bearer-token httpx auth),
``exec_plugin`` (exec credential plugins; ``auth`` holds the oidc provider), ``client``
(RESTClient / AsyncRESTClient over httpx: rate limiting, retries, errors, request logging),
``with_retry`` and ``urlbackoff`` (client-go's retry rules and backoff manager), ``transport``
(connection defaults and time bounds), ``metrics`` (client-go's tools/metrics) and ``watch``
(the watch stream decoder), ``websocket`` (the upgrades exec, attach and port-forward use).
See docs/architecture.md for the request path. Names load on first use, so reading a kubeconfig
does not import httpx.
"""

from typing import TYPE_CHECKING

from kgen.runtime._lazy import lazy_exports

if TYPE_CHECKING:
    from kgen.runtime.rest.auth import (
        BearerTokenAuth,
        CredentialError,
        Credentials,
        OIDCIdToken,
        StaticToken,
        TokenFile,
        service_account_token,
    )
    from kgen.runtime.rest.client import MAX_RETRIES, AsyncRESTClient, Request, RESTClient, retry_after
    from kgen.runtime.rest.config import (
        DEFAULT_BURST, DEFAULT_QPS, Config, ConfigError, NoConfigurationError, in_cluster_config,
    )
    from kgen.runtime.rest.exec_plugin import ExecCredential
    from kgen.runtime.rest.kubeconfig import kubeconfig_paths, load_config, load_kubeconfig
    from kgen.runtime.rest.metrics import InMemoryRESTMetrics, RESTMetrics, prometheus_rest_metrics
    from kgen.runtime.rest.watch import (
        ADDED, BOOKMARK, DELETED, ERROR, MODIFIED, Bookmark, EventType, WatchDecodeError, WatchDecoder, WatchEvent,
    )

_EXPORTS = {
    "auth": [
        "BearerTokenAuth", "CredentialError", "Credentials", "OIDCIdToken", "StaticToken", "TokenFile", "service_account_token",
    ],
    "client": ["MAX_RETRIES", "AsyncRESTClient", "RESTClient", "Request", "retry_after"],
    "config": ["DEFAULT_BURST", "DEFAULT_QPS", "Config", "ConfigError", "NoConfigurationError", "in_cluster_config"],
    "exec_plugin": ["ExecCredential"],
    "kubeconfig": ["kubeconfig_paths", "load_config", "load_kubeconfig"],
    "metrics": ["InMemoryRESTMetrics", "RESTMetrics", "prometheus_rest_metrics"],
    "watch": [
        "ADDED", "BOOKMARK", "DELETED", "ERROR", "MODIFIED", "Bookmark", "EventType", "WatchDecodeError", "WatchDecoder",
        "WatchEvent",
    ],
}
__getattr__ = lazy_exports(__name__, _EXPORTS)
__all__ = [
    "ADDED", "BOOKMARK", "DEFAULT_BURST", "DEFAULT_QPS", "DELETED", "ERROR", "MODIFIED", "MAX_RETRIES",
    "AsyncRESTClient", "BearerTokenAuth", "Bookmark", "Config", "ConfigError", "CredentialError", "Credentials",
    "EventType", "ExecCredential", "InMemoryRESTMetrics", "NoConfigurationError", "OIDCIdToken", "RESTClient", "RESTMetrics", "Request",
    "StaticToken", "TokenFile", "WatchDecodeError", "WatchDecoder",
    "WatchEvent", "in_cluster_config", "kubeconfig_paths", "load_config", "load_kubeconfig", "prometheus_rest_metrics", "retry_after",
    "service_account_token",
]
