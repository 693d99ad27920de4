"""Every code block of the workflow pages (docs/workflows/: exec, logs, port-forward, cp, wait,
rollout, apply, drain) runs on the whole cluster, as tests/docs/test_tutorials.py runs the
tutorials on an apiserver alone (tests/docs/runner.py says how blocks run).

Each page gets a fresh folder and a fresh namespace, named by ``KGEN_NAMESPACE``, in which kwok
answers the kubelet's endpoints from this machine: ``pods/exec`` runs the command as a local
process in the page's folder, ``pods/log`` reads the folder's ``app.log`` (three lines: one, two,
three) and port 80 of every pod reaches a local HTTP server answering ``hello from the pod``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from kgen.kubernetes import Clientset
from kgen.runtime.testing import Cluster, cri_log_line
from tests.cluster.conftest import fresh_namespace, hello_server
from tests.docs.runner import REPO, run_page, workflow_pages

WORKFLOWS = {"exec", "logs", "port-forward", "cp", "wait", "rollout", "apply", "drain"}
PAGES = workflow_pages()


@pytest.fixture(scope="module")
def hello_port() -> Iterator[int]:
    with hello_server(lambda path: b"hello from the pod") as port:
        yield port


def test_every_workflow_has_its_page() -> None:
    """One page per workflow the issue names (issue 34), each with code that runs."""
    assert {p.stem for p in PAGES} >= WORKFLOWS, sorted(p.stem for p in PAGES)


@pytest.mark.timeout(400)
@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(REPO)) for p in PAGES])
def test_every_code_block_of_the_workflow_page_runs(
    page: Path, tmp_path: Path, kube_cluster: Cluster, cs: Clientset, hello_port: int
) -> None:
    folder = tmp_path / page.stem
    folder.mkdir()
    (folder / "app.log").write_text("".join(cri_log_line(text) for text in ("one", "two", "three")))
    with fresh_namespace(cs, prefix=f"w-{page.stem[:20]}") as ns:
        kube_cluster.set_cluster_exec(ns, work_dir=folder, namespaces=[ns])
        kube_cluster.set_cluster_logs(ns, folder / "app.log", namespaces=[ns])
        kube_cluster.set_cluster_port_forward(ns, {80: hello_port}, namespaces=[ns])
        try:
            done = run_page(page, folder, str(kube_cluster.kubeconfig), env={"KGEN_NAMESPACE": ns})
        finally:
            for kind in ("ClusterExec", "ClusterLogs", "ClusterPortForward"):
                kube_cluster.delete_kwok_rule(kind, ns)
    assert done.returncode == 0, f"{page.relative_to(REPO)} failed in {folder}:\n{done.stdout[-6000:]}"
