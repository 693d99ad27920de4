"""pytest plugin: the session-scoped ``kube_apiserver`` and ``kube_cluster`` fixtures.

Registered through the ``pytest11`` entry point, so it loads in every pytest run where kgen is
installed; it imports nothing heavy until a test asks for the fixture.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from types import FrameType
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from kgen.runtime.testing import Cluster, KubeAPIServer


def _sigterm_as_interrupt(signum: int, frame: FrameType | None) -> None:
    # pytest turns KeyboardInterrupt into an orderly stop that still runs fixture teardown,
    # so a CI runner's SIGTERM stops the apiserver and removes its files like Ctrl-C does.
    raise KeyboardInterrupt(f"signal {signum}")


def pytest_configure(config: pytest.Config) -> None:
    """pytest hook: on the main thread, a SIGTERM stops the run as Ctrl-C does, so teardown stops the
    apiserver."""
    if threading.current_thread() is threading.main_thread():
        if signal.getsignal(signal.SIGTERM) is signal.SIG_DFL:
            signal.signal(signal.SIGTERM, _sigterm_as_interrupt)


_startups: list[float] = []


@pytest.fixture(scope="session")
def kube_apiserver() -> Iterator["KubeAPIServer"]:
    """A real kube-apiserver + etcd, started once for the test session."""
    from kgen.runtime.testing import KubeAPIServer

    with KubeAPIServer() as server:
        _startups.append(server.startup_seconds)
        yield server


@pytest.fixture(scope="session")
def kube_apiserver_without_watch_cache() -> Iterator["KubeAPIServer"]:
    """A second server whose watches reach etcd: ``compact_etcd()`` then forces 410 Gone."""
    from kgen.runtime.testing import KubeAPIServer

    with KubeAPIServer(watch_cache=False) as server:
        _startups.append(server.startup_seconds)
        yield server


_cluster_startups: list[tuple[str, float]] = []


@pytest.fixture(scope="session")
def kube_cluster() -> Iterator["Cluster"]:
    """A whole cluster, started once for the test session: kube-apiserver + etcd,
    kube-controller-manager, kube-scheduler and kwok with 3 simulated Nodes (see
    ``kgen.runtime.testing.Cluster``). Slower to start than ``kube_apiserver`` (~10 s) and
    heavier (~600 MB): for tests that need controllers, scheduling or a kubelet's endpoints."""
    from kgen.runtime.testing import Cluster

    with Cluster(nodes=3) as cluster:
        _cluster_startups.append((cluster.version, cluster.cluster_startup_seconds))
        yield cluster


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """pytest hook: reports how long each kube-apiserver + etcd (and whole cluster) start took."""
    for seconds in _startups:
        terminalreporter.write_line(f"kgen envtest: kube-apiserver + etcd ready in {seconds:.1f}s")
    for version, seconds in _cluster_startups:
        terminalreporter.write_line(
            f"kgen envtest: cluster {version} (apiserver, controllers, scheduler, kwok nodes) ready in {seconds:.1f}s"
        )
