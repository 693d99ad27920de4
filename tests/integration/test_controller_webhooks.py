"""The manager serves its webhooks to the real apiserver while its controller reconciles
(kgen.controller: ``webhook_managed_by`` and ``Manager.webhook_server``), on both flavours.

One manager holds a ConfigMap controller (it records, in an annotation, the ``mode`` it finds in
the object's data) and a validating and a mutating webhook for ConfigMaps at controller-runtime's
paths (``/validate--v1-configmap``, ``/mutate--v1-configmap``), served over TLS with a serving
certificate from the harness's CA in ``webhook_cert_dir``. Webhook configurations point the
apiserver at them, for this test's namespace only. Then, through the apiserver:
- a ConfigMap with a ``forbidden`` key is refused with the validator's message;
- a good one is stored with the defaulter's ``mode: default``, and the controller reconciles it
  (its annotation says ``default``: it saw the mutated object; its update passed the validator);
- the readiness probe lists the webhook check as passing;
- stopping the manager (``stop()``, and SIGTERM to a manager process) shuts the webhook server
  down with the controllers: the port refuses connections and the apiserver's next call fails.
"""

from __future__ import annotations

import asyncio
import base64
import signal
import socket
import subprocess
import sys
import threading
import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest

from kgen.controller import (
    AsyncClient,
    AsyncManager,
    Client,
    Manager,
    Request,
    async_controller_managed_by,
    controller_managed_by,
    webhook_managed_by,
)
from kgen.kubernetes import Clientset
from kgen.kubernetes.models.admissionregistration.v1 import (
    MutatingWebhook,
    MutatingWebhookConfiguration,
    RuleWithOperations,
    ValidatingWebhook,
    ValidatingWebhookConfiguration,
    WebhookClientConfig,
)
from kgen.kubernetes.models.core.v1 import ConfigMap
from kgen.kubernetes.models.meta.v1 import LabelSelector, ObjectMeta
from kgen.runtime.apimachinery import ApiError, Forbidden, NotFound
from kgen.runtime.rest import Config
from kgen.runtime.testing import KubeAPIServer
from kgen.webhook.admission import Denied
from tests.support.apiserver import unthrottled_config, wait_for
from tests.support.webhook.certs import write_pair

pytestmark = pytest.mark.integration

REPO = Path(__file__).resolve().parents[2]
JUDGED = {"kgen.test/webhooks": "yes"}  # the object label the webhook configurations select
RECONCILED = "kgen.test/reconciled-mode"


class NoForbiddenKey:
    def validate_create(self, obj: ConfigMap) -> Sequence[str] | None:
        if "forbidden" in (obj.data or {}):
            raise Denied("data.forbidden is not allowed here")
        return None

    def validate_update(self, old: ConfigMap, new: ConfigMap) -> Sequence[str] | None:
        return self.validate_create(new)

    def validate_delete(self, obj: ConfigMap) -> Sequence[str] | None:
        return None


class ModeDefault:
    def default(self, obj: ConfigMap) -> None:
        obj.data = {"mode": "default", **(obj.data or {})}


def _annotated(cm: ConfigMap) -> ConfigMap | None:
    """``cm`` with the reconciled annotation set from its data, or None if it has it already."""
    assert cm.metadata is not None
    annotations = cm.metadata.annotations or {}
    if RECONCILED in annotations:
        return None
    cm.metadata.annotations = {**annotations, RECONCILED: (cm.data or {}).get("mode", "(none)")}
    return cm


class ModeRecorder:
    def __init__(self, client: Client) -> None:
        self.client = client

    def reconcile(self, request: Request) -> None:
        try:
            cm = _annotated(self.client.get(ConfigMap, request.name, request.namespace))
        except NotFound:
            return
        if cm is not None:
            self.client.update(cm)


class AsyncModeRecorder:
    def __init__(self, client: AsyncClient) -> None:
        self.client = client

    async def reconcile(self, request: Request) -> None:
        try:
            cm = _annotated(await self.client.get(ConfigMap, request.name, request.namespace))
        except NotFound:
            return
        if cm is not None:
            await self.client.update(cm)


def build(manager: Manager | AsyncManager) -> None:
    """The controller and the webhooks this module's managers run."""
    if isinstance(manager, AsyncManager):
        async_controller_managed_by(manager).for_(ConfigMap).complete(AsyncModeRecorder(manager.client))
    else:
        controller_managed_by(manager).for_(ConfigMap).complete(ModeRecorder(manager.client))
    webhook_managed_by(manager).for_(ConfigMap).with_validator(NoForbiddenKey()).with_defaulter(ModeDefault()).complete()


def new_manager(flavour: type[Manager] | type[AsyncManager], config: Config, namespace: str, cert_dir: Path) -> Manager | AsyncManager:
    return flavour(config, namespace=namespace, webhook_host="127.0.0.1", webhook_port=0, webhook_cert_dir=cert_dir,
                   health_probe_address="127.0.0.1:0")


@pytest.fixture
def kube(kube_apiserver: KubeAPIServer) -> Iterator[Clientset]:
    with Clientset(unthrottled_config(kube_apiserver)) as cs:
        yield cs


@pytest.fixture
def cert_dir(kube_apiserver: KubeAPIServer, tmp_path: Path) -> Path:
    write_pair(kube_apiserver.issue_serving_cert(["127.0.0.1"]), tmp_path)
    return tmp_path


@contextmanager
def webhook_configurations(kube_apiserver: KubeAPIServer, kube: Clientset, namespace: str, port: int) -> Iterator[str]:
    """Both configurations, pointing at 127.0.0.1:<port>, in effect for ``namespace``'s labelled
    ConfigMaps; yields the validating webhook's name."""
    name = f"{uuid.uuid4().hex[:8]}.kgen.test"
    ca_bundle = base64.b64encode(kube_apiserver.ca_pem).decode()

    def client_config(path: str) -> WebhookClientConfig:
        return WebhookClientConfig(url=f"https://127.0.0.1:{port}{path}", ca_bundle=ca_bundle)

    def rules(*operations: str) -> list[RuleWithOperations]:
        return [RuleWithOperations(operations=list(operations), api_groups=[""], api_versions=["v1"], resources=["configmaps"])]

    in_namespace = LabelSelector(match_labels={"kubernetes.io/metadata.name": namespace})
    labelled = LabelSelector(match_labels=JUDGED)
    admission = kube.admissionregistration_v1
    admission.validating_webhook_configurations().create(ValidatingWebhookConfiguration(
        metadata=ObjectMeta(name=f"validate-{name}"),
        webhooks=[ValidatingWebhook(
            name=f"validate-{name}", client_config=client_config("/validate--v1-configmap"), rules=rules("CREATE", "UPDATE"),
            admission_review_versions=["v1"], side_effects="None", failure_policy="Fail", timeout_seconds=10,
            namespace_selector=in_namespace, object_selector=labelled,
        )],
    ))
    admission.mutating_webhook_configurations().create(MutatingWebhookConfiguration(
        metadata=ObjectMeta(name=f"mutate-{name}"),
        webhooks=[MutatingWebhook(
            name=f"mutate-{name}", client_config=client_config("/mutate--v1-configmap"), rules=rules("CREATE"),
            admission_review_versions=["v1"], side_effects="None", failure_policy="Fail", timeout_seconds=10,
            reinvocation_policy="Never", namespace_selector=in_namespace, object_selector=labelled,
        )],
    ))
    configmaps = kube.core_v1.config_maps(namespace)

    def in_effect() -> bool:
        # The apiserver picks new configurations up a moment after the create: dry runs tell.
        try:
            defaulted = configmaps.create(ConfigMap(metadata=ObjectMeta(name="probe", labels=JUDGED)), dry_run=True)
            configmaps.create(ConfigMap(metadata=ObjectMeta(name="probe", labels=JUDGED), data={"forbidden": "x"}),
                              dry_run=True)
        except Forbidden as e:
            return f"validate-{name}" in e.message and (defaulted.data or {}).get("mode") == "default"
        return False

    try:
        wait_for(in_effect, timeout=60)
        yield f"validate-{name}"
    finally:
        admission.validating_webhook_configurations().delete(f"validate-{name}")
        admission.mutating_webhook_configurations().delete(f"mutate-{name}")


def check_webhooks_and_controller(kube: Clientset, namespace: str, validating: str) -> None:
    configmaps = kube.core_v1.config_maps(namespace)
    with pytest.raises(Forbidden) as denied:
        configmaps.create(ConfigMap(metadata=ObjectMeta(name="bad", labels=JUDGED), data={"forbidden": "yes"}))
    assert denied.value.message == f'admission webhook "{validating}" denied the request: data.forbidden is not allowed here'
    created = configmaps.create(ConfigMap(metadata=ObjectMeta(name="good", labels=JUDGED), data={"k": "v"}))
    assert created.data == {"mode": "default", "k": "v"}  # the defaulter's change, stored

    def reconciled() -> str | None:
        cm = configmaps.get("good")
        return (cm.metadata.annotations or {}).get(RECONCILED) if cm.metadata else None

    assert wait_for(reconciled, timeout=30) == "default"  # the controller saw the mutated object
    with pytest.raises(NotFound):
        configmaps.get("bad")


def assert_webhook_down(kube: Clientset, namespace: str, port: int) -> None:
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", port), timeout=2).close()
    with pytest.raises(ApiError, match="failed calling webhook"):  # failurePolicy Fail, nobody answering
        kube.core_v1.config_maps(namespace).create(ConfigMap(metadata=ObjectMeta(name="after", labels=JUDGED)))


@pytest.mark.parametrize("flavour", [Manager, AsyncManager], ids=["threads", "asyncio"])
def test_manager_serves_the_apiservers_webhook_calls_while_its_controller_reconciles(
    kube_apiserver: KubeAPIServer, kube: Clientset, namespace: str, cert_dir: Path,
    flavour: type[Manager] | type[AsyncManager],
) -> None:
    manager = new_manager(flavour, unthrottled_config(kube_apiserver), namespace, cert_dir)
    build(manager)
    if isinstance(manager, AsyncManager):
        async_manager = manager
        thread = threading.Thread(target=lambda: asyncio.run(async_manager.start()), name="manager")
    else:
        thread = threading.Thread(target=manager.start, name="manager")
    thread.start()
    try:
        assert manager.elected.wait(30)
        port = manager.webhook_server.port
        readyz = httpx.get(f"http://127.0.0.1:{manager.health_probe_port}/readyz?verbose")
        assert (readyz.status_code, readyz.text) == (200, "[+]webhook ok\nreadyz check passed\n")
        with webhook_configurations(kube_apiserver, kube, namespace, port) as validating:
            check_webhooks_and_controller(kube, namespace, validating)
            manager.stop()
            thread.join(60)
            assert not thread.is_alive(), "the manager did not stop"
            assert_webhook_down(kube, namespace, port)
    finally:
        manager.stop()
        thread.join(60)


PROCESS = """\
import sys, threading
from pathlib import Path
from kgen.controller import Manager
from kgen.runtime.rest import load_kubeconfig
from tests.integration.test_controller_webhooks import build, new_manager

manager = new_manager(Manager, load_kubeconfig(sys.argv[1]), sys.argv[2], Path(sys.argv[3]))
build(manager)
def announce() -> None:
    manager.elected.wait()
    print("webhook-port", manager.webhook_server.port, flush=True)
threading.Thread(target=announce, daemon=True).start()
manager.start()
print("stopped", flush=True)
"""


def test_sigterm_stops_the_webhook_server_with_the_controllers(
    kube_apiserver: KubeAPIServer, kube: Clientset, namespace: str, cert_dir: Path
) -> None:
    process = subprocess.Popen(
        [sys.executable, "-c", PROCESS, kube_apiserver.kubeconfig, namespace, str(cert_dir)],
        cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        assert process.stdout is not None
        words = process.stdout.readline().split()
        assert words[:1] == ["webhook-port"], words
        port = int(words[1])
        with webhook_configurations(kube_apiserver, kube, namespace, port) as validating:
            check_webhooks_and_controller(kube, namespace, validating)
            process.send_signal(signal.SIGTERM)
            out, err = process.communicate(timeout=60)
            assert (process.returncode, out) == (0, "stopped\n"), err
            assert_webhook_down(kube, namespace, port)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
