"""Every code block of the workflow pages (docs/workflows/: exec, logs, port-forward, cp, wait,
rollout, apply, drain) runs on the whole cluster, as tests/docs/test_tutorials.py runs the
tutorials on an apiserver alone (tests/docs/runner.py says how blocks run).

Each page gets a fresh folder and a fresh namespace, named by ``KGEN_NAMESPACE``, in which kwok
answers the kubelet's endpoints from this machine: ``pods/exec`` runs the command as a local
process in the page's folder, ``pods/log`` reads the folder's ``app.log`` (three lines: one, two,
three) and port 80 of every pod reaches a local HTTP server answering ``hello from the pod``.
"""

from __future__ import annotations

import http.server
import threading
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from kgen.kubernetes import Clientset
from kgen.kubernetes.models.core.v1 import Namespace
from kgen.kubernetes.models.meta.v1 import ObjectMeta
from kgen.runtime.apimachinery import NotFound
from kgen.runtime.testing import Cluster, cri_log_line
from tests.docs.runner import REPO, run_page, workflow_pages

WORKFLOWS = {"exec", "logs", "port-forward", "cp", "wait", "rollout", "apply", "drain"}
PAGES = workflow_pages()


class _Hello(http.server.BaseHTTPRequestHandler):
    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        body = b"hello from the pod"
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def hello_port() -> Iterator[int]:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Hello)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield server.server_address[1]
    server.shutdown()
    server.server_close()


def test_every_workflow_has_its_page() -> None:
    """One page per workflow the issue names (issue 34), each with code that runs."""
    assert {p.stem for p in PAGES} >= WORKFLOWS, sorted(p.stem for p in PAGES)


@pytest.mark.timeout(400)
@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(REPO)) for p in PAGES])
def test_every_code_block_of_the_workflow_page_runs(
    page: Path, tmp_path: Path, kube_cluster: Cluster, cs: Clientset, hello_port: int
) -> None:
    ns = f"w-{page.stem[:20]}-{uuid.uuid4().hex[:6]}"
    folder = tmp_path / page.stem
    folder.mkdir()
    (folder / "app.log").write_text("".join(cri_log_line(text) for text in ("one", "two", "three")))
    cs.core_v1.namespaces().create(Namespace(metadata=ObjectMeta(name=ns)))
    kube_cluster.set_cluster_exec(ns, work_dir=folder, namespaces=[ns])
    kube_cluster.set_cluster_logs(ns, folder / "app.log", namespaces=[ns])
    kube_cluster.set_cluster_port_forward(ns, {80: hello_port}, namespaces=[ns])
    try:
        done = run_page(page, folder, str(kube_cluster.kubeconfig), env={"KGEN_NAMESPACE": ns})
    finally:
        for kind in ("ClusterExec", "ClusterLogs", "ClusterPortForward"):
            kube_cluster.delete_kwok_rule(kind, ns)
        try:
            cs.core_v1.namespaces().delete(ns)
        except NotFound:
            pass
    assert done.returncode == 0, f"{page.relative_to(REPO)} failed in {folder}:\n{done.stdout[-6000:]}"
