"""Fixtures for the whole-cluster tests: kgen's typed clientset on the session's ``kube_cluster``
(kgen's pytest plugin) and a namespace per test that the namespace controller really deletes.

These tests need the cluster's binaries (hack/envtest/cluster.sh builds them on first use) and
belong to the compatibility suite: ``make test`` runs them on the 1.37 cluster and on the
1.34 one, ``make test-matrix`` on every supported release, ``make test-cluster`` alone.
"""

from __future__ import annotations

import contextlib
import http.server
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from typing import TypeVar

import pytest

from kgen.kubernetes import Clientset
from kgen.kubernetes.models.core.v1 import Namespace
from kgen.kubernetes.models.meta.v1 import ObjectMeta
from kgen.runtime.apimachinery import NotFound
from kgen.runtime.rest import load_kubeconfig
from kgen.runtime.testing import Cluster

T = TypeVar("T")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test in this folder carries the ``cluster`` marker (``-m cluster`` selects them)."""
    for item in items:
        if "tests/cluster/" in item.nodeid:
            item.add_marker(pytest.mark.cluster)


@pytest.fixture(scope="session")
def cs(kube_cluster: Cluster) -> Iterator[Clientset]:
    """kgen's typed clientset as the admin; unthrottled, as the tests poll."""
    config = load_kubeconfig(kube_cluster.kubeconfig)
    config.qps = -1
    with Clientset(config) as clientset:
        yield clientset


@contextlib.contextmanager
def fresh_namespace(cs: Clientset, prefix: str = "c") -> Iterator[str]:
    """A new namespace named ``<prefix>-<random>``, deleted on leaving (the namespace controller
    empties and removes it)."""
    name = f"{prefix}-{uuid.uuid4().hex[:10]}"
    cs.core_v1.namespaces().create(Namespace(metadata=ObjectMeta(name=name)))
    try:
        yield name
    finally:
        try:
            cs.core_v1.namespaces().delete(name)
        except NotFound:
            pass


@pytest.fixture
def ns(cs: Clientset) -> Iterator[str]:
    """A fresh namespace; deleted afterwards."""
    with fresh_namespace(cs) as name:
        yield name


@contextlib.contextmanager
def hello_server(body: Callable[[str], bytes]) -> Iterator[int]:
    """A local HTTP server (its port) answering every GET 200 with ``body(path)``: what a pod's
    port reaches through kwok's port-forward rule."""

    class Hello(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 (http.server's name)
            answer = body(self.path)
            self.send_response(200)
            self.send_header("Content-Length", str(len(answer)))
            self.end_headers()
            self.wfile.write(answer)

        def log_message(self, format: str, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Hello)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield server.server_address[1]
    finally:
        server.shutdown()
        server.server_close()


def some(value: T | None) -> T:
    """``value``, which the server always sets here (the models type most fields optional)."""
    assert value is not None
    return value


def wait_for(what: str, check: Callable[[], T | None], timeout: float = 60.0, interval: float = 0.25) -> T:
    """Polls ``check`` until it returns something true (not None, False or an empty list: a
    list that has no items yet is not there yet); fails naming ``what`` and the last value seen."""
    deadline = time.monotonic() + timeout
    last: object = None
    while True:
        last = check()
        if last:
            return last
        if time.monotonic() > deadline:
            pytest.fail(f"timed out after {timeout:.0f}s waiting for {what} (last: {last!r})")
        time.sleep(interval)
