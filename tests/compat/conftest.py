"""The compatibility tests of this folder run on the session's cluster (``kube_cluster``) or an
apiserver of their own, of the release ``$KGEN_ENVTEST_KUBERNETES_VERSION`` names, else
the pinned 1.37 (``make test`` runs them on 1.37 and on 1.34, ``make test-matrix`` on every
supported release). Every test here belongs to the compatibility suite (tests/conftest.py marks
them ``compat``)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from kgen.runtime.testing import Cluster, KubeAPIServer
from kgen.runtime.testing._assets import requested_versions


def _of_the_release_asked_for(server: KubeAPIServer) -> None:
    # $KUBEBUILDER_ASSETS or $KGEN_CLUSTER_ASSETS of another release would pass for it unnoticed.
    asked = requested_versions().kubernetes
    if server.version.removeprefix("v") != asked:
        pytest.fail(f"asked for Kubernetes {asked}, the server runs {server.version} "
                    "(is $KUBEBUILDER_ASSETS or $KGEN_CLUSTER_ASSETS of another release set?)")


@pytest.fixture(scope="session")
def compat_cluster(kube_cluster: Cluster) -> Cluster:
    """The session's whole cluster, checked to be of the release asked for."""
    _of_the_release_asked_for(kube_cluster)
    return kube_cluster


@pytest.fixture(scope="session")
def compat_apiserver() -> Iterator[KubeAPIServer]:
    """An apiserver of the release asked for with nothing installed in it: the session's
    ``kube_apiserver`` holds the CRDs other tests create, the cluster kwok's."""
    with KubeAPIServer() as server:
        _of_the_release_asked_for(server)
        yield server
