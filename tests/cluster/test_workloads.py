"""What the controller-manager and the scheduler do, on the whole cluster (kgen.runtime.testing.Cluster):
Deployment rollouts, garbage collection, Jobs, CronJobs, namespaces.

kgen's typed clients do every write and read; kubectl of the same version checks the rollouts as
an independent client (``kubectl rollout status`` reads the Deployment's conditions by its own
rules).
"""

from __future__ import annotations

import pytest

from kgen.kubernetes import Clientset
from kgen.kubernetes.models.apps.v1 import Deployment
from kgen.kubernetes.models.batch.v1 import CronJob, Job
from kgen.kubernetes.models.core.v1 import ConfigMap, Namespace, Pod
from kgen.kubernetes.models.meta.v1 import ObjectMeta
from kgen.runtime.apimachinery import NotFound
from kgen.runtime.gentype import PatchType, PropagationPolicy
from kgen.runtime.testing import Cluster
from tests.cluster.conftest import some, wait_for

pytestmark = pytest.mark.timeout(240)


def _deployment(name: str, image: str, replicas: int) -> Deployment:
    return Deployment.from_dict(
        {
            "metadata": {"name": name},
            "spec": {
                "replicas": replicas,
                "selector": {"matchLabels": {"app": name}},
                "template": {
                    "metadata": {"labels": {"app": name}},
                    "spec": {"containers": [{"name": "app", "image": image}]},
                },
            },
        }
    )


def _pods(cs: Clientset, ns: str, selector: str) -> list[Pod]:
    return list(cs.core_v1.pods(ns).list(label_selector=selector).items)


def _ready(pod: Pod) -> bool:
    conditions = pod.status.conditions if pod.status and pod.status.conditions else []
    return any(c.type == "Ready" and c.status == "True" for c in conditions)


def _rolled_out(cs: Clientset, ns: str, name: str, image: str, replicas: int) -> list[Pod] | None:
    """The Deployment's pods once it is fully rolled out to ``image``: the controller has seen
    the latest spec, every replica is updated, ready and available, and no other pod is left."""
    d = cs.apps_v1.deployments(ns).get(name)
    s = d.status
    if s is None or s.observed_generation != some(d.metadata).generation:
        return None
    counts = (s.replicas or 0, s.updated_replicas or 0, s.ready_replicas or 0, s.available_replicas or 0)
    if counts != (replicas,) * 4:
        return None
    pods = [p for p in _pods(cs, ns, f"app={name}") if some(p.metadata).deletion_timestamp is None]
    if len(pods) != replicas or not all(_ready(p) and some(p.spec).containers[0].image == image for p in pods):
        return None
    return pods


def test_a_deployment_rolls_out_then_rolls_out_a_new_image_then_scales_to_zero(
    cs: Clientset, ns: str, kube_cluster: Cluster
) -> None:
    deployments = cs.apps_v1.deployments(ns)
    deployments.create(_deployment("web", "example.com/web:1", 3))

    pods = wait_for("3 ready pods of web:1", lambda: _rolled_out(cs, ns, "web", "example.com/web:1", 3))
    (rs,) = cs.apps_v1.replica_sets(ns).list(label_selector="app=web").items
    owner = (some(rs.metadata).owner_references or [])[0]
    assert (owner.kind, owner.name, owner.controller) == ("Deployment", "web", True)
    # The ReplicaSet and the pods are the controller-manager's work, the binding the scheduler's.
    assert {m.manager for m in some(rs.metadata).managed_fields or []} == {"kube-controller-manager"}
    assert all(some(p.spec).node_name in kube_cluster.node_names for p in pods)
    assert all(some(p.status).phase == "Running" and some(p.status).pod_ip for p in pods)
    rollout = kube_cluster.kubectl("rollout", "status", "deployment/web", "-n", ns, "--timeout=60s")
    assert rollout.returncode == 0 and "successfully rolled out" in rollout.stdout, rollout

    deployments.patch(
        "web",
        {"spec": {"template": {"spec": {"containers": [{"name": "app", "image": "example.com/web:2"}]}}}},
        PatchType.STRATEGIC,
    )
    wait_for("3 ready pods of web:2 and none of web:1", lambda: _rolled_out(cs, ns, "web", "example.com/web:2", 3))
    rollout = kube_cluster.kubectl("rollout", "status", "deployment/web", "-n", ns, "--timeout=60s")
    assert rollout.returncode == 0 and "successfully rolled out" in rollout.stdout, rollout
    replica_sets = {
        some(some(some(r.spec).template).spec).containers[0].image: some(r.status).replicas
        for r in cs.apps_v1.replica_sets(ns).list(label_selector="app=web").items
    }
    assert replica_sets == {"example.com/web:1": 0, "example.com/web:2": 3}

    scale = deployments.scale("web")
    some(scale.spec).replicas = 0
    deployments.update_scale("web", scale)
    wait_for("web at 0 replicas and no pod", lambda: _rolled_out(cs, ns, "web", "example.com/web:2", 0) == [])
    assert kube_cluster.kubectl("get", "deployment", "web", "-n", ns, "-o", "jsonpath={.spec.replicas}").stdout == "0"


# -- garbage collection --------------------------------------------------------------------------


def _owned(cs: Clientset, ns: str, owner: ConfigMap, hold: bool = False) -> None:
    """Two ConfigMaps and a Pod owned by ``owner`` (blockOwnerDeletion set); ``hold`` puts a
    finalizer of the test's own on the Pod, which keeps it (and a foreground owner) in place."""
    ref = {
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "name": some(owner.metadata).name,
        "uid": some(owner.metadata).uid,
        "blockOwnerDeletion": True,
    }
    for name in ("owned-a", "owned-b"):
        cs.core_v1.config_maps(ns).create(ConfigMap.from_dict({"metadata": {"name": name, "ownerReferences": [ref]}}))
    finalizers = ["kgen.dev/hold"] if hold else []
    cs.core_v1.pods(ns).create(
        Pod.from_dict(
            {
                "metadata": {"name": "owned-pod", "ownerReferences": [ref], "finalizers": finalizers},
                "spec": {"containers": [{"name": "app", "image": "example.com/app:1"}]},
            }
        )
    )


def _gone(get: object, name: str) -> bool:
    try:
        get(name)  # type: ignore[operator]
    except NotFound:
        return True
    return False


def _dependents(cs: Clientset, ns: str) -> list[str]:
    names = [some(some(c.metadata).name) for c in cs.core_v1.config_maps(ns).list().items]
    return sorted([n for n in names if n.startswith("owned-")] + [some(some(p.metadata).name) for p in cs.core_v1.pods(ns).list().items])


def test_background_deletion_removes_the_owner_then_the_garbage_collector_its_dependents(cs: Clientset, ns: str) -> None:
    owner = cs.core_v1.config_maps(ns).create(ConfigMap(metadata=ObjectMeta(name="owner")))
    _owned(cs, ns, owner)
    assert cs.core_v1.config_maps(ns).delete("owner", propagation_policy=PropagationPolicy.BACKGROUND) is None
    assert _gone(cs.core_v1.config_maps(ns).get, "owner")
    wait_for("the garbage collector to delete the dependents", lambda: _dependents(cs, ns) == [])


def test_foreground_deletion_waits_for_dependents_that_block_it(cs: Clientset, ns: str) -> None:
    owner = cs.core_v1.config_maps(ns).create(ConfigMap(metadata=ObjectMeta(name="owner")))
    _owned(cs, ns, owner, hold=True)
    deleting = cs.core_v1.config_maps(ns).delete("owner", propagation_policy=PropagationPolicy.FOREGROUND)
    assert deleting is not None and some(deleting.metadata).deletion_timestamp is not None
    assert "foregroundDeletion" in (some(deleting.metadata).finalizers or [])
    # The ConfigMaps go; the held Pod is marked for deletion but stays, and blocks its owner.
    wait_for("the owned ConfigMaps deleted", lambda: _dependents(cs, ns) == ["owned-pod"])
    pod = wait_for(
        "the held pod marked for deletion",
        lambda: p if some((p := cs.core_v1.pods(ns).get("owned-pod")).metadata).deletion_timestamp else None,
    )
    assert some(pod.metadata).finalizers == ["kgen.dev/hold"]
    still = some(cs.core_v1.config_maps(ns).get("owner").metadata)
    assert still.finalizers == ["foregroundDeletion"] and still.deletion_timestamp is not None

    cs.core_v1.pods(ns).patch("owned-pod", {"metadata": {"finalizers": None}}, PatchType.MERGE)
    wait_for("the owner deleted once its last dependent is", lambda: _gone(cs.core_v1.config_maps(ns).get, "owner"))
    assert _dependents(cs, ns) == []


def test_orphan_deletion_keeps_the_dependents_without_their_owner_reference(cs: Clientset, ns: str) -> None:
    owner = cs.core_v1.config_maps(ns).create(ConfigMap(metadata=ObjectMeta(name="owner")))
    _owned(cs, ns, owner)
    cs.core_v1.config_maps(ns).delete("owner", propagation_policy=PropagationPolicy.ORPHAN)
    wait_for("the owner deleted", lambda: _gone(cs.core_v1.config_maps(ns).get, "owner"))
    assert _dependents(cs, ns) == ["owned-a", "owned-b", "owned-pod"]
    assert all(not some(cs.core_v1.config_maps(ns).get(n).metadata).owner_references for n in ("owned-a", "owned-b"))
    assert not some(cs.core_v1.pods(ns).get("owned-pod").metadata).owner_references


# -- Jobs, CronJobs, namespaces ------------------------------------------------------------------


_JOB_TEMPLATE = {
    "spec": {
        "completions": 2,
        "parallelism": 2,
        "backoffLimit": 0,
        "template": {"spec": {"restartPolicy": "Never", "containers": [{"name": "work", "image": "example.com/work:1"}]}},
    }
}


def test_a_job_runs_to_completion(cs: Clientset, ns: str) -> None:
    cs.batch_v1.jobs(ns).create(Job.from_dict({"metadata": {"name": "work"}, **_JOB_TEMPLATE}))

    def complete() -> Job | None:
        job = cs.batch_v1.jobs(ns).get("work")
        conditions = job.status.conditions if job.status and job.status.conditions else []
        return job if any(c.type == "Complete" and c.status == "True" for c in conditions) else None

    job = wait_for("the Job Complete", complete)
    assert some(job.status).succeeded == 2 and not some(job.status).failed
    pods = _pods(cs, ns, "job-name=work")
    assert len(pods) == 2 and {some(p.status).phase for p in pods} == {"Succeeded"}


@pytest.mark.timeout(180)
def test_the_cronjob_controller_creates_jobs_on_schedule(cs: Clientset, ns: str) -> None:
    # Every minute: the first Job is due at the next minute boundary, so within ~60 s.
    cron = CronJob.from_dict(
        {"metadata": {"name": "tick"}, "spec": {"schedule": "* * * * *", "jobTemplate": _JOB_TEMPLATE}}
    )
    created = cs.batch_v1.cron_jobs(ns).create(cron)
    jobs = wait_for("a Job made by the CronJob", lambda: cs.batch_v1.jobs(ns).list().items or None, timeout=90)
    (job,) = jobs
    owner = (some(job.metadata).owner_references or [])[0]
    assert (owner.kind, owner.name, owner.uid, owner.controller) == ("CronJob", "tick", some(created.metadata).uid, True)
    assert some(some(job.metadata).name).startswith("tick-")
    wait_for(
        "the CronJob's lastScheduleTime",
        lambda: (c := cs.batch_v1.cron_jobs(ns).get("tick")).status and c.status.last_schedule_time,
    )


def test_a_namespace_deletion_completes_and_new_namespaces_get_kube_root_ca(cs: Clientset, kube_cluster: Cluster) -> None:
    name = "c-doomed"
    cs.core_v1.namespaces().create(Namespace(metadata=ObjectMeta(name=name)))
    root_ca = wait_for(
        "kube-root-ca.crt in the new namespace",
        lambda: next((c for c in cs.core_v1.config_maps(name).list().items if some(c.metadata).name == "kube-root-ca.crt"), None),
    )
    assert (root_ca.data or {})["ca.crt"].encode() == kube_cluster.ca_pem
    cs.core_v1.config_maps(name).create(ConfigMap(metadata=ObjectMeta(name="content")))
    cs.apps_v1.deployments(name).create(_deployment("web", "example.com/web:1", 2))
    wait_for("the pods running", lambda: len([p for p in _pods(cs, name, "app=web") if _ready(p)]) == 2)

    deleting = cs.core_v1.namespaces().delete(name)
    assert deleting is not None and some(deleting.status).phase == "Terminating"
    # The namespace controller deletes everything in it, pods included (kwok finishes them), then
    # removes its `kubernetes` finalizer.
    wait_for("the namespace gone", lambda: _gone(cs.core_v1.namespaces().get, name), timeout=90)
