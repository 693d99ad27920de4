"""A real kube-apiserver + etcd for tests — the envtest Python users did not have.

    from kgen.runtime.testing import KubeAPIServer

    with KubeAPIServer() as server:
        ...  # server.kubeconfig, server.restricted_kubeconfig, server.url, server.version

With pytest, the session-scoped fixture ``kube_apiserver`` yields a started server (the plugin
is registered when kgen-runtime is installed). Needs the ``testing`` extra:
``pip install 'kgen-runtime[testing]'``; ``kgen envtest`` builds the binaries (see find_assets).

See docs/architecture.md for the layers and where this package sits in them.
"""

from kgen.runtime.testing._assets import AssetsNotFound, find_assets
from kgen.runtime.testing._server import RESTRICTED_NAMESPACE, TOKEN_USERS, KubeAPIServer, StartupError

__all__ = [
    "AssetsNotFound",
    "KubeAPIServer",
    "RESTRICTED_NAMESPACE",
    "StartupError",
    "TOKEN_USERS",
    "find_assets",
]
