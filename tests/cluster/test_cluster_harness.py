"""The whole-cluster harness itself: the versions its binaries report, ``kgen envtest --cluster``,
a cluster's stop (every process gone, in an order that lets the apiserver stop at once), and the
pods kwok never makes Ready (NEVER_READY_IMAGE)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from kgen.kubernetes import Clientset
from kgen.kubernetes.models.apps.v1 import Deployment
from kgen.kubernetes.models.batch.v1 import Job
from kgen.kubernetes.models.core.v1 import Pod
from kgen.runtime.apimachinery import NotFound
from kgen.runtime.rest import load_kubeconfig
from kgen.runtime.testing import NEVER_READY_IMAGE, Cluster
from tests.cluster.conftest import some, wait_for

pytestmark = pytest.mark.timeout(240)

ROOT = Path(__file__).resolve().parents[2]


def test_kubectl_and_the_components_report_the_clusters_version(kube_cluster: Cluster) -> None:
    shown = kube_cluster.kubectl("version", "-o", "json")
    assert shown.returncode == 0, shown
    versions = json.loads(shown.stdout)
    # A plain `go build` of kubectl says v0.0.0-master (and `kubectl version` fails on it):
    # cluster.sh sets component-base's version variables.
    assert versions["clientVersion"]["gitVersion"] == kube_cluster.version
    assert versions["serverVersion"]["gitVersion"] == kube_cluster.version
    for binary in ("kube-controller-manager", "kube-scheduler"):
        out = subprocess.run([str(kube_cluster.assets / binary), "--version"], capture_output=True, text=True, check=True)
        assert out.stdout.strip() == f"Kubernetes {kube_cluster.version}"


def test_kgen_envtest_cluster_prints_the_folder_the_harness_runs(kube_cluster: Cluster) -> None:
    kgen = Path(sys.executable).with_name("kgen")
    printed = subprocess.run([str(kgen), "envtest", "--cluster", "--no-build"], capture_output=True, text=True)
    assert printed.returncode == 0, printed.stderr
    folder = Path(printed.stdout.strip())
    assert folder == kube_cluster.assets
    for name in ("etcd", "kube-apiserver", "kube-controller-manager", "kube-scheduler", "kubectl", "kwok"):
        assert (folder / name).is_file()
    assert {p.name for p in (folder / "kwok-stages").iterdir()} >= {"node-initialize.yaml", "pod-ready.yaml"}
    assert (folder / "kwok-crds" / "kwok.x-k8s.io_clusterexecs.yaml").is_file()


def test_a_built_cluster_is_reused_as_it_is_without_go(kube_cluster: Cluster) -> None:
    # Nothing is built again once the cache is complete: no Go on PATH, done in moments.
    path = os.pathsep.join(p for p in os.environ["PATH"].split(os.pathsep) if not (Path(p) / "go").exists())
    env = {**os.environ, "PATH": path, "KGEN_ENVTEST_KUBERNETES_VERSION": kube_cluster.version.lstrip("v")}
    started = time.monotonic()
    done = subprocess.run([str(ROOT / "hack" / "envtest" / "cluster.sh")], capture_output=True, text=True, env=env)
    assert (done.returncode, done.stderr) == (0, "")
    assert Path(done.stdout.strip()) == kube_cluster.assets.absolute()
    assert time.monotonic() - started < 5


def test_the_recipe_runs_as_installed_from_the_wheel_without_executable_bits(kube_cluster: Cluster, tmp_path: Path) -> None:
    """kgen's wheel ships hack/envtest/ as kgen/envtest/, where files lose their mode: cluster.sh
    must run build.sh through bash. A cache whose parts are the built ones (linked) needs no build."""
    recipe = tmp_path / "envtest"
    for source in (ROOT / "hack" / "envtest").rglob("*"):
        if source.is_file():
            target = recipe / source.relative_to(ROOT / "hack" / "envtest")
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(source.read_bytes())  # mode 0644
    built = kube_cluster.assets.resolve()
    cache = tmp_path / "cache"
    parts = {  # the three cache entries the folder's links point into
        "envtest": (built / "kube-apiserver").resolve().parent,
        "cluster": (built / "kubectl").resolve().parent,
        "kwok": (built / "kwok").resolve().parent,
    }
    for kind, part in parts.items():
        (cache / kind).mkdir(parents=True)
        (cache / kind / part.name).symlink_to(part)
    env = {**os.environ, "KGEN_CACHE_DIR": str(cache), "KGEN_ENVTEST_KUBERNETES_VERSION": kube_cluster.version.lstrip("v")}
    done = subprocess.run(["bash", str(recipe / "cluster.sh")], capture_output=True, text=True, env=env)
    assert (done.returncode, done.stderr) == (0, "")
    folder = Path(done.stdout.strip())
    assert folder.parent == cache / "cluster" and folder.name == kube_cluster.assets.name
    version = subprocess.run([str(folder / "kubectl"), "version", "--client", "-o", "json"], capture_output=True, text=True)
    assert json.loads(version.stdout)["clientVersion"]["gitVersion"] == kube_cluster.version


def test_a_stopped_cluster_leaves_no_process_or_folder_and_stops_at_once(tmp_path: Path) -> None:
    run_log = tmp_path / "run.log"
    cluster = Cluster(nodes=1, run_log=run_log).start()
    pids = cluster.pids
    assert set(pids) == {"etcd", "kube-apiserver", "kube-controller-manager", "kube-scheduler", "kwok"}
    started = time.monotonic()
    cluster.stop()
    # Stopped before its clients, the apiserver lingers ~60 s after SIGTERM (the harness would
    # then SIGKILL it after 10 s); stopped last, it ends at once.
    assert time.monotonic() - started < 8
    assert not cluster.running
    check = subprocess.run([str(ROOT / "hack" / "check-leftovers.sh"), str(run_log)], capture_output=True, text=True)
    assert check.returncode == 0, check.stderr
    assert "(5 envtest processes, 1 temp folders)" in check.stdout


def test_a_cluster_runs_only_the_controllers_and_the_scheduler_asked_for(tmp_path: Path) -> None:
    template = {"spec": {"containers": [{"name": "app", "image": "example.com/app:1"}]}}
    with Cluster(nodes=1, controllers=("*", "-deployment-controller"), scheduler=False, run_log=tmp_path / "run.log") as cluster:
        assert set(cluster.pids) == {"etcd", "kube-apiserver", "kube-controller-manager", "kwok"}
        config = load_kubeconfig(cluster.kubeconfig)
        config.qps = -1
        with Clientset(config) as cs:
            cs.apps_v1.deployments("default").create(
                Deployment.from_dict(
                    {
                        "metadata": {"name": "web"},
                        "spec": {"selector": {"matchLabels": {"app": "web"}},
                                 "template": {"metadata": {"labels": {"app": "web"}}, **template}},
                    }
                )
            )
            cs.batch_v1.jobs("default").create(
                Job.from_dict({"metadata": {"name": "work"}, "spec": {"template": {**template, "spec": {
                    **template["spec"], "restartPolicy": "Never"}}}})
            )
            # The Job controller runs: its pod is made; no scheduler binds it to the node.
            (pod,) = wait_for("the Job's pod", lambda: cs.core_v1.pods("default").list(label_selector="job-name=work").items)
            time.sleep(3)
            pod = cs.core_v1.pods("default").get(some(pod.metadata).name or "")
            assert some(pod.spec).node_name is None and some(pod.status).phase == "Pending"
            # The Deployment controller does not run: no ReplicaSet, though the controllers have
            # been at work for seconds.
            assert cs.apps_v1.replica_sets("default").list().items == []
            assert some(cs.apps_v1.deployments("default").get("web").status).observed_generation is None


def _ready(pod: Pod) -> bool:
    return any(c.type == "Ready" and c.status == "True" for c in some(pod.status).conditions or [])


def test_a_pod_with_the_never_ready_image_is_scheduled_but_never_ready(kube_cluster: Cluster, cs: Clientset, ns: str) -> None:
    pods = cs.core_v1.pods(ns)
    # One container of the image is enough, whatever the others are.
    containers = {"ready": [{"name": "app", "image": "example.com/app:1"}],
                  "never": [{"name": "app", "image": "example.com/app:1"}, {"name": "stuck", "image": NEVER_READY_IMAGE}]}
    for name, spec in containers.items():
        pods.create(Pod.from_dict({"metadata": {"name": name}, "spec": {"containers": spec}}))
    wait_for("the other pod Ready", lambda: _ready(pods.get("ready")))
    wait_for("the never-ready pod scheduled", lambda: some(pods.get("never").spec).node_name)
    time.sleep(2)  # kwok made the other pod Ready at once; give it time to do the same wrongly
    never = pods.get("never")
    assert not _ready(never)
    # kwok's pod-ready Stage is also what makes a pod Running: skipped, it stays Pending, without
    # container statuses or an IP.
    status = some(never.status)
    assert (status.phase, status.container_statuses, status.pod_ip) == ("Pending", None, None)
    assert [(c.type, c.status) for c in status.conditions or []] == [("PodScheduled", "True")]
    # kwok's pod-delete Stage still removes it.
    pods.delete("never")
    wait_for("the never-ready pod gone", lambda: _gone(cs, ns, "never"))


def _gone(cs: Clientset, ns: str, name: str) -> bool:
    try:
        cs.core_v1.pods(ns).get(name)
    except NotFound:
        return True
    return False
