"""kgen's manager's /metrics against controller-runtime's, on the same workload and apiserver.

The oracle is a controller-runtime v0.25.3 manager (hack/controller-runtime/metrics, built from
the Go module proxy): leader election on a Lease, one ConfigMap controller named ``configmap``
in the test's namespace, a validating webhook at ``/validate--v1-configmap`` served over TLS
from a certificate folder (so the webhook server's certificate watcher reads it), and its
metrics server. kgen's ``Manager`` and ``AsyncManager`` are set up the same way. Each side gets
the same workload: it wins its own Lease, reconciles a ConfigMap it is shown, answers one
AdmissionReview; then its /metrics body is read once every counter that workload moves has
moved (leading, a successful reconcile, a webhook answer with 200).

Every metric family controller-runtime exposes must be in kgen's body with the same type and the
same label names. The families this part of the issue added must also hold the same series with
the same values after the same workload (``SERIES_COMPARED``: the lease's gauge at 1, one
webhook request answered 200 and none 500, none in flight, one latency observation, no panics,
no certificate read errors); the count of certificate reads is compared as "at least one", as
controller-runtime's watcher also reads on file events. Left out, and why:
- ``go_*`` and ``process_*``: the Go runtime's and the process collector's series, which
  controller-runtime registers for the Go process itself (GC, goroutines, file descriptors);
  a Python process has none of these, and client_golang's names describe Go's runtime.
kgen may expose more (the REST client's latency histograms, which controller-runtime v0.25 made
opt-in); those are not compared.
"""

from __future__ import annotations

import json
import re
import socket
import ssl
import subprocess
import uuid
from collections.abc import Callable, Sequence
from pathlib import Path

import httpx
import pytest

from kgen.controller import (
    AsyncManager,
    Manager,
    Request,
    async_controller_managed_by,
    controller_managed_by,
    webhook_managed_by,
)
from kgen.kubernetes import Clientset
from kgen.kubernetes.models.core.v1 import ConfigMap, Namespace
from kgen.kubernetes.models.meta.v1 import ObjectMeta
from kgen.runtime.testing import KubeAPIServer
from tests.support.apiserver import unthrottled_config, wait_for
from tests.support.controller.running import running_in_thread
from tests.support.webhook.certs import write_pair

pytestmark = pytest.mark.integration

BUILD = Path(__file__).resolve().parents[2] / "hack" / "controller-runtime" / "build.sh"
WEBHOOK_PATH = "/validate--v1-configmap"
CONTROLLER = "configmap"
EXCLUDED_PREFIXES = ("go_", "process_")
"""The Go runtime's and the process collector's families (see the module's docstring)."""

# The families the issue names, so a rename on either side cannot pass unnoticed.
ISSUE_NAMES = {
    "leader_election_master_status", "controller_runtime_webhook_requests_total",
    "controller_runtime_webhook_latency_seconds", "controller_runtime_webhook_requests_in_flight",
    "certwatcher_read_certificate_total", "certwatcher_read_certificate_errors_total",
    "controller_runtime_reconcile_panics_total",
}

SERIES_COMPARED = (
    "leader_election_master_status", "controller_runtime_webhook_requests_total",
    "controller_runtime_webhook_requests_in_flight", "controller_runtime_webhook_latency_seconds_count",
    "controller_runtime_webhook_panics_total", "controller_runtime_conversion_webhook_panics_total",
    "certwatcher_read_certificate_errors_total",
)
"""Series compared with their labels and values (a histogram by its count)."""
LEASE = "metrics-lease"
"""Both sides' Lease (each in its own namespace), so the gauge's ``name`` label is the same."""

Families = dict[str, tuple[str, frozenset[str]]]
"""family name -> (type, label names over its series; a histogram's ``le`` left out)."""

_LABEL = re.compile(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"')


def parse_families(text: str) -> Families:
    """The families of a Prometheus text exposition body, with each one's type and label names."""
    types: dict[str, str] = {}
    labels: dict[str, set[str]] = {}
    for line in text.splitlines():
        if line.startswith("# TYPE "):
            _, _, name, kind = line.split(" ", 3)
            types[name] = kind
            labels.setdefault(name, set())
        elif line and not line.startswith("#"):
            series = line.split("{", 1)[0].split(" ", 1)[0]
            family = series if series in types else re.sub(r"_(bucket|sum|count)$", "", series)
            assert family in types, f"series {series} has no # TYPE line"
            body = line[len(series):]
            names = {m.group(1) for m in _LABEL.finditer(body.split("}", 1)[0])} if body.startswith("{") else set()
            labels[family] |= names - {"le"}
    return {name: (kind, frozenset(labels[name])) for name, kind in types.items()}


def series(text: str, names: Sequence[str]) -> dict[tuple[str, frozenset[tuple[str, str]]], float]:
    """The series of ``names`` (exact series names) in a body: (name, labels) -> value."""
    found = {}
    for line in text.splitlines():
        name = line.split("{", 1)[0].split(" ", 1)[0]
        if name in names:
            labels = frozenset(_LABEL.findall(line.rsplit(" ", 1)[0]))
            found[(name, labels)] = float(line.rsplit(" ", 1)[1])
    return found


def value(text: str, family: str, **labels: str) -> float | None:
    """The value of the series of ``family`` carrying (at least) ``labels``, or None."""
    for line in text.splitlines():
        if not line.startswith(family + "{") and not line.startswith(family + " "):
            continue
        found = dict(_LABEL.findall(line.rsplit(" ", 1)[0]))
        if all(found.get(k) == v for k, v in labels.items()):
            return float(line.rsplit(" ", 1)[1])
    return None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def admission_review(namespace: str) -> dict[str, object]:
    obj = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "reviewed", "namespace": namespace}}
    return {
        "apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview",
        "request": {
            "uid": str(uuid.uuid4()), "kind": {"group": "", "version": "v1", "kind": "ConfigMap"},
            "resource": {"group": "", "version": "v1", "resource": "configmaps"}, "name": "reviewed",
            "namespace": namespace, "operation": "CREATE", "userInfo": {"username": "test"}, "object": obj,
        },
    }


def review(port: int, ca: ssl.SSLContext, namespace: str) -> None:
    """One AdmissionReview to the webhook, allowed."""
    answer = httpx.post(f"https://127.0.0.1:{port}{WEBHOOK_PATH}", json=admission_review(namespace), verify=ca, timeout=10)
    assert answer.status_code == 200, answer.text
    assert answer.json()["response"]["allowed"] is True


def worked(metrics_url: str, lease: str) -> Callable[[], str]:
    """A condition: the /metrics body once the workload shows in it (leading on ``lease``, a
    successful reconcile of ``configmap``, a webhook answer counted with 200), or "" until then."""

    def check() -> str:
        try:
            text = httpx.get(metrics_url, timeout=5).text
        except httpx.TransportError:
            return ""
        done = (
            value(text, "leader_election_master_status", name=lease) == 1
            and (value(text, "controller_runtime_reconcile_total", controller=CONTROLLER, result="success") or 0) >= 1
            and (value(text, "controller_runtime_webhook_requests_total", webhook=WEBHOOK_PATH, code="200") or 0) >= 1
        )
        return text if done else ""

    return check


@pytest.fixture
def cert_dir(kube_apiserver: KubeAPIServer, tmp_path: Path) -> Path:
    write_pair(kube_apiserver.issue_serving_cert(["127.0.0.1"]), tmp_path)
    return tmp_path


@pytest.fixture
def ca(kube_apiserver: KubeAPIServer) -> ssl.SSLContext:
    return ssl.create_default_context(cadata=kube_apiserver.ca_pem.decode())


def controller_runtime_binary() -> Path:
    done = subprocess.run([str(BUILD), "metrics"], capture_output=True, text=True, timeout=1800)
    if done.returncode != 0:
        raise RuntimeError(f"building hack/controller-runtime/metrics failed:\n{done.stderr[-4000:]}")
    return Path(done.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def controller_runtime_metrics(kube_apiserver: KubeAPIServer, tmp_path_factory: pytest.TempPathFactory) -> str:
    """controller-runtime's /metrics body after the workload (run once for the module)."""
    binary = controller_runtime_binary()
    namespace = f"cr-metrics-{uuid.uuid4().hex[:6]}"
    with Clientset(unthrottled_config(kube_apiserver)) as kube:
        kube.core_v1.namespaces().create(Namespace(metadata=ObjectMeta(name=namespace)))
        certs = tmp_path_factory.mktemp("cr-certs")
        write_pair(kube_apiserver.issue_serving_cert(["127.0.0.1"]), certs)
        ca = ssl.create_default_context(cadata=kube_apiserver.ca_pem.decode())
        lease, metrics_port, webhook_port = LEASE, free_port(), free_port()
        process = subprocess.Popen(
            [str(binary), f"-kubeconfig-path={kube_apiserver.kubeconfig}", f"-namespace={namespace}", f"-lease={lease}",
             f"-metrics-addr=127.0.0.1:{metrics_port}", f"-webhook-port={webhook_port}", f"-cert-dir={certs}"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )
        try:
            assert process.stdout is not None and process.stdin is not None
            started = json.loads(process.stdout.readline() or "{}")
            assert started.get("controllerRuntime") == "v0.25.3", (started, process.stderr.read() if process.stderr else "")
            kube.core_v1.config_maps(namespace).create(ConfigMap(metadata=ObjectMeta(name="shown", namespace=namespace)))
            wait_for(lambda: _reviewed(webhook_port, ca, namespace), timeout=60)
            text: str = wait_for(worked(f"http://127.0.0.1:{metrics_port}/metrics", lease), timeout=60)
            process.stdin.close()
            assert json.loads(process.stdout.readline() or "{}") == {"done": True}
            assert process.wait(30) == 0
            return text
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()
            kube.core_v1.namespaces().delete(namespace)


def _reviewed(port: int, ca: ssl.SSLContext, namespace: str) -> bool:
    try:
        review(port, ca, namespace)
    except httpx.TransportError:
        return False  # not listening yet
    return True


class AllowAll:
    def validate_create(self, obj: ConfigMap) -> Sequence[str] | None:
        return None

    def validate_update(self, old: ConfigMap, new: ConfigMap) -> Sequence[str] | None:
        return None

    def validate_delete(self, obj: ConfigMap) -> Sequence[str] | None:
        return None


class _Reconciler:
    def reconcile(self, request: Request) -> None:
        return None


class _AsyncReconciler:
    async def reconcile(self, request: Request) -> None:
        return None


@pytest.mark.parametrize("flavour", [Manager, AsyncManager], ids=["threads", "asyncio"])
def test_kgen_metrics_have_controller_runtime_families_and_workload_series(
    flavour: type[Manager] | type[AsyncManager], kube_apiserver: KubeAPIServer, namespace: str, cert_dir: Path,
    ca: ssl.SSLContext, controller_runtime_metrics: str,
) -> None:
    lease = LEASE
    manager = flavour(
        unthrottled_config(kube_apiserver), namespace=namespace, leader_election=True, leader_election_id=lease,
        leader_election_namespace=namespace, metrics_address="127.0.0.1:0", webhook_host="127.0.0.1", webhook_port=0,
        webhook_cert_dir=cert_dir,
    )
    if isinstance(manager, AsyncManager):
        async_controller_managed_by(manager).for_(ConfigMap).named(CONTROLLER).complete(_AsyncReconciler())
    else:
        controller_managed_by(manager).for_(ConfigMap).named(CONTROLLER).complete(_Reconciler())
    webhook_managed_by(manager).for_(ConfigMap).with_validator(AllowAll()).complete()
    with Clientset(unthrottled_config(kube_apiserver)) as kube, running_in_thread(manager):
        kube.core_v1.config_maps(namespace).create(ConfigMap(metadata=ObjectMeta(name="shown", namespace=namespace)))
        wait_for(lambda: _reviewed(manager.webhook_server.port, ca, namespace), timeout=60)
        text: str = wait_for(worked(f"http://127.0.0.1:{manager.metrics_port}/metrics", lease), timeout=60)

    ours, theirs = parse_families(text), parse_families(controller_runtime_metrics)
    compared = {name: shape for name, shape in theirs.items() if not name.startswith(EXCLUDED_PREFIXES)}
    assert ISSUE_NAMES <= set(compared), f"controller-runtime no longer exposes {sorted(ISSUE_NAMES - set(compared))}"
    missing = sorted(set(compared) - set(ours))
    different = {name: (ours[name], shape) for name, shape in compared.items() if name in ours and ours[name] != shape}
    assert not missing and not different, (
        f"families controller-runtime exposes and kgen does not: {missing}\n"
        f"(kgen's, controller-runtime's) type and label names that differ: {different}"
    )
    assert series(text, SERIES_COMPARED) == series(controller_runtime_metrics, SERIES_COMPARED)
    assert (value(text, "certwatcher_read_certificate_total") or 0) >= 1
    assert (value(controller_runtime_metrics, "certwatcher_read_certificate_total") or 0) >= 1
    print(f"\n{flavour.__name__}: {len(compared)} controller-runtime families compared "
          f"({len(theirs) - len(compared)} go_/process_ left out), kgen exposes {len(ours)}; "
          f"{len(series(text, SERIES_COMPARED))} series equal")
