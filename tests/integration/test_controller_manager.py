"""kgen.runtime.controller's Manager against the real apiserver (tests/support/controller/
secret_mirror.py: ConfigMaps labelled kgen.dev/mirror own a Secret each, and carry a finalizer).

- create → the reconcile writes the owned Secret (controller reference to the ConfigMap) and the
  finalizer; deleting the Secret re-enqueues its owner (``owns``), which writes it again;
  deleting the ConfigMap runs the reconcile that removes the finalizer, and it is gone;
- the probes and /metrics answer over HTTP, with controller-runtime's, the workqueue's and the
  REST client's series, counting what the test made happen;
- SIGTERM to a manager process while a reconcile is in flight: the reconcile finishes (its Secret
  is written), the process exits 0;
- two managers with leader election on one Lease: only the leader reconciles; when it stops (and
  releases the lease) the other takes over and reconciles.
"""

from __future__ import annotations

import re
import signal
import subprocess
import sys
import threading
import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from kgen.kubernetes import Clientset
from kgen.kubernetes.models.core.v1 import ConfigMap, Secret
from kgen.kubernetes.models.meta.v1 import ObjectMeta
from kgen.runtime.apimachinery.errors import NotFound
from kgen.runtime.controller import Manager, Request
from kgen.runtime.controller.manager.probes import ping
from kgen.runtime.testing import KubeAPIServer
from tests.support.apiserver import unthrottled_config, wait_for
from tests.support.controller.running import running_in_thread
from tests.support.controller.secret_mirror import FINALIZER, LABEL, SLOW, SecretMirror, mirror_controller, mirror_name

pytestmark = pytest.mark.integration

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def kube(kube_apiserver: KubeAPIServer) -> Iterator[Clientset]:
    with Clientset(unthrottled_config(kube_apiserver)) as cs:
        yield cs


def labelled_cm(name: str, namespace: str, **annotations: str) -> ConfigMap:
    return ConfigMap(
        metadata=ObjectMeta(name=name, namespace=namespace, labels={LABEL: "yes"}, annotations=annotations or None),
        data={"k": "v"},
    )


def secret_or_none(kube: Clientset, namespace: str, name: str) -> Secret | None:
    try:
        return kube.core_v1.secrets(namespace).get(name)
    except NotFound:
        return None


def test_owned_secret_is_created_recreated_through_owns_and_the_finalizer_removed_on_delete(
    kube_apiserver: KubeAPIServer, kube: Clientset, namespace: str
) -> None:
    manager = Manager(unthrottled_config(kube_apiserver), namespace=namespace)
    mirror = mirror_controller(manager)
    with running_in_thread(manager):
        cm = kube.core_v1.config_maps(namespace).create(labelled_cm("app", namespace))
        kube.core_v1.config_maps(namespace).create(ConfigMap(metadata=ObjectMeta(name="unlabelled", namespace=namespace)))
        secret = wait_for(lambda: secret_or_none(kube, namespace, mirror_name("app")))
        assert cm.metadata is not None and secret is not None and secret.metadata is not None
        (ref,) = secret.metadata.owner_references or []
        assert (ref.kind, ref.name, ref.uid, ref.controller, ref.block_owner_deletion) == (
            "ConfigMap", "app", cm.metadata.uid, True, True)
        assert secret.data == {"k": "dg=="}  # "v", base64
        def finalized() -> bool:
            c = kube.core_v1.config_maps(namespace).get("app")
            return c.metadata is not None and FINALIZER in (c.metadata.finalizers or [])

        wait_for(finalized)

        # owns(Secret): deleting the owned object enqueues its controller owner, which writes it again.
        kube.core_v1.secrets(namespace).delete(mirror_name("app"))
        first_uid = secret.metadata.uid

        def recreated() -> bool:
            s = secret_or_none(kube, namespace, mirror_name("app"))
            return s is not None and s.metadata is not None and s.metadata.uid != first_uid

        wait_for(recreated)

        # Deleting the ConfigMap: the reconcile sees deletionTimestamp and removes the finalizer.
        kube.core_v1.config_maps(namespace).delete("app")
        wait_for(lambda: secret_or_none_cm(kube, namespace, "app") is None)
    assert Request(namespace, "app") in mirror.reconciled
    assert Request(namespace, "unlabelled") not in mirror.reconciled  # filtered by the for_ predicate


def secret_or_none_cm(kube: Clientset, namespace: str, name: str) -> ConfigMap | None:
    try:
        return kube.core_v1.config_maps(namespace).get(name)
    except NotFound:
        return None


def metric(text: str, series: str) -> float:
    """The value of one exact series line (name with labels) in a /metrics body."""
    for line in text.splitlines():
        if line.startswith(series + " "):
            return float(line.rsplit(" ", 1)[1])
    raise AssertionError(f"no series {series} in /metrics:\n{text}")


def test_probes_and_metrics_answer_over_http(kube_apiserver: KubeAPIServer, kube: Clientset, namespace: str) -> None:
    manager = Manager(unthrottled_config(kube_apiserver), namespace=namespace,
                      health_probe_address="127.0.0.1:0", metrics_address="127.0.0.1:0")
    manager.add_healthz_check("ping", ping)
    manager.add_readyz_check("cache", manager.cache_synced)
    mirror_controller(manager)
    with running_in_thread(manager):
        probes = f"http://127.0.0.1:{manager.health_probe_port}"
        wait_for(lambda: httpx.get(f"{probes}/readyz").status_code == 200)
        assert httpx.get(f"{probes}/healthz").text == "ok"
        assert httpx.get(f"{probes}/readyz/cache?verbose").text == "[+]cache ok\nreadyz check passed\n"
        for i in range(3):
            kube.core_v1.config_maps(namespace).create(labelled_cm(f"m{i}", namespace))
        for i in range(3):
            wait_for(lambda: secret_or_none(kube, namespace, mirror_name(f"m{i}")))
        url = f"http://127.0.0.1:{manager.metrics_port}/metrics"

        def three_successes() -> str | None:
            body = httpx.get(url).text
            success = 'controller_runtime_reconcile_total{controller="configmap",result="success"}'
            return body if metric(body, success) >= 3 else None

        text = wait_for(three_successes)
        assert text is not None
    assert metric(text, 'controller_runtime_reconcile_errors_total{controller="configmap"}') >= 0
    assert metric(text, 'controller_runtime_max_concurrent_reconciles{controller="configmap"}') == 2
    assert metric(text, 'controller_runtime_reconcile_time_seconds_count{controller="configmap"}') >= 3
    assert metric(text, 'workqueue_adds_total{name="configmap",controller="configmap"}') >= 3
    assert "# TYPE workqueue_depth gauge" in text
    host = re.escape(manager.rest.host)
    created = [line for line in text.splitlines()
               if re.match(rf'rest_client_requests_total{{code="201",method="POST",host="{host}"}} ', line)]
    assert created and float(created[0].rsplit(" ", 1)[1]) >= 3  # three Secrets at least
    assert "rest_client_request_duration_seconds_bucket" in text


def test_sigterm_drains_the_reconcile_in_flight_and_exits_0(
    kube_apiserver: KubeAPIServer, kube: Clientset, namespace: str
) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "tests.support.controller.secret_mirror",
         "--kubeconfig", kube_apiserver.kubeconfig, "--namespace", namespace],
        cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    lines: list[str] = []

    def read() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.append(line)

    reader = threading.Thread(target=read)
    reader.start()
    try:
        port = wait_for(lambda: next((l.split()[1] for l in list(lines) if l.startswith("probe-port ")), None))
        wait_for(lambda: httpx.get(f"http://127.0.0.1:{port}/readyz").status_code == 200)
        kube.core_v1.config_maps(namespace).create(labelled_cm("slow", namespace, **{SLOW: "3"}))
        wait_for(lambda: "reconciling slow\n" in lines)
        assert secret_or_none(kube, namespace, mirror_name("slow")) is None  # still in flight
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(60) == 0, "".join(lines)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        reader.join(10)
    assert "reconciled slow\n" in lines, "".join(lines)
    assert secret_or_none(kube, namespace, mirror_name("slow")) is not None
    assert "stopped\n" in lines


def test_two_managers_elect_one_leader_and_the_other_takes_over(
    kube_apiserver: KubeAPIServer, kube: Clientset, namespace: str
) -> None:
    lease = f"mirror-{uuid.uuid4().hex[:8]}"

    def manager(identity: str) -> tuple[Manager, SecretMirror]:
        m = Manager(
            unthrottled_config(kube_apiserver), namespace=namespace, leader_election=True,
            leader_election_id=lease, leader_election_namespace=namespace, identity=identity,
            leader_election_release_on_cancel=True, lease_duration=4.0, renew_deadline=3.0, retry_period=0.5,
        )
        return m, mirror_controller(m)

    (a, mirror_a), (b, mirror_b) = manager("a"), manager("b")
    with running_in_thread(a):
        assert a.elected.wait(30)
        with running_in_thread(b):
            kube.core_v1.config_maps(namespace).create(labelled_cm("one", namespace))
            wait_for(lambda: secret_or_none(kube, namespace, mirror_name("one")))
            assert not b.elected.is_set()
            assert mirror_b.reconciled == [] and Request(namespace, "one") in mirror_a.reconciled
            holder = kube.coordination_v1.leases(namespace).get(lease).spec
            assert holder is not None and holder.holder_identity == "a"
            a.stop()  # releases the lease on the way out
            assert b.elected.wait(30)
            kube.core_v1.config_maps(namespace).create(labelled_cm("two", namespace))
            wait_for(lambda: secret_or_none(kube, namespace, mirror_name("two")))
            assert Request(namespace, "two") in mirror_b.reconciled
            assert Request(namespace, "two") not in mirror_a.reconciled
