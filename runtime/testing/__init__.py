"""A real kube-apiserver + etcd for tests — the envtest Python users did not have.

    from kgen.runtime.testing import KubeAPIServer

    with KubeAPIServer() as server:
        ...  # server.kubeconfig, server.restricted_kubeconfig, server.url, server.version

A whole cluster around the same apiserver (kube-controller-manager, kube-scheduler, kwok's
simulated nodes; ``kgen envtest --cluster`` builds it)::

    from kgen.runtime.testing import Cluster

    with Cluster(nodes=2) as cluster:
        ...  # what KubeAPIServer has, and cluster.kubectl(...), cluster.set_cluster_exec(...)

kwok makes every pod scheduled on its nodes Running and Ready at once, except a pod with a
container of the image ``NEVER_READY_IMAGE``: it stays Pending, never Ready (a stuck rollout).

With pytest, the session-scoped fixture ``kube_apiserver`` yields a started server, and
``kube_cluster`` a started Cluster (the plugin
is registered when kgen-runtime is installed). Needs the ``testing`` extra:
``pip install 'kgen-runtime[testing]'``; ``kgen envtest`` builds the binaries of the pinned
Kubernetes version (``PINNED``), the one the harness runs unless asked for another (see
find_assets).

See docs/architecture.md for the layers and where this package sits in them.
"""

from typing import TYPE_CHECKING

from kgen.runtime._lazy import lazy_exports

if TYPE_CHECKING:
    from kgen.runtime.testing._assets import PINNED, AssetsNotFound, EnvtestVersions, find_assets, find_cluster_assets
    from kgen.runtime.testing._cluster import NEVER_READY_IMAGE, Cluster
    from kgen.runtime.testing._kwok import cri_log_line
    from kgen.runtime.testing._server import RESTRICTED_NAMESPACE, TOKEN_USERS, KubeAPIServer, StartupError

# Names load on first use: finding the binaries (and `kgen envtest`, which shares the pinned
# versions) needs neither the `testing` extra's cryptography and PyYAML nor httpx.
__getattr__ = lazy_exports(
    __name__,
    {
        "_assets": ["AssetsNotFound", "EnvtestVersions", "PINNED", "find_assets", "find_cluster_assets"],
        "_cluster": ["Cluster", "NEVER_READY_IMAGE"],
        "_kwok": ["cri_log_line"],
        "_server": ["RESTRICTED_NAMESPACE", "TOKEN_USERS", "KubeAPIServer", "StartupError"],
    },
)

__all__ = [
    "AssetsNotFound",
    "Cluster",
    "EnvtestVersions",
    "KubeAPIServer",
    "NEVER_READY_IMAGE",
    "PINNED",
    "RESTRICTED_NAMESPACE",
    "StartupError",
    "TOKEN_USERS",
    "cri_log_line",
    "find_assets",
    "find_cluster_assets",
]
