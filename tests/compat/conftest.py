"""The compatibility tests: kgen against a kube-apiserver of an older supported release.

Every test in this folder carries the ``compat`` marker. They run on the release named by
``$KGEN_ENVTEST_KUBERNETES_VERSION``, else the oldest embedded snapshot's (1.34.4), whose
apiserver hack/envtest/build.sh builds on first use (minutes, cold): so they are not part of
``make test``, and ``make test-matrix`` runs them.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from kgen.generator.generate import embedded_versions
from kgen.runtime.testing import KubeAPIServer


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test in this folder carries the ``compat`` marker (``-m compat`` selects them)."""
    for item in items:
        if "tests/compat/" in item.nodeid:
            item.add_marker(pytest.mark.compat)


@pytest.fixture(scope="session")
def compat_apiserver() -> Iterator[KubeAPIServer]:
    """A kube-apiserver of the release under test (not the session's pinned ``kube_apiserver``)."""
    version = os.environ.get("KGEN_ENVTEST_KUBERNETES_VERSION") or embedded_versions()[0]
    with KubeAPIServer(kubernetes_version=version) as server:
        # $KUBEBUILDER_ASSETS (make test sets it) would start its binaries whatever is asked.
        release = server.version.removeprefix("v")
        if release != version and not release.startswith(version + "."):
            pytest.fail(f"asked for kube-apiserver {version}, got {server.version} (is $KUBEBUILDER_ASSETS set?)")
        yield server
