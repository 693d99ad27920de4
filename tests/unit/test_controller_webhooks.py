"""The manager serves webhooks, as controller-runtime's does (kgen.runtime.controller.webhook_builder,
``Manager.webhook_server``), on both flavours: controller-runtime's paths, the webhook server
started with the manager and stopped with it, readiness that waits for it, and clear errors.

The managers here have no controllers (so no apiserver is needed: their cache has nothing to
sync); tests/integration/test_controller_webhooks.py has the apiserver calling them.
"""

from __future__ import annotations

import asyncio
import base64
import json
import socket
import tempfile
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

from kgen.controller import AsyncManager, Manager, webhook_managed_by
from kgen.kubernetes.models.apps.v1 import Deployment
from kgen.kubernetes.models.core.v1 import ConfigMap
from kgen.kubernetes.models.meta.v1 import ObjectMeta
from kgen.runtime.apimachinery import Model
from kgen.runtime.controller.manager import manager as manager_module
from kgen.runtime.controller.webhook_builder import mutate_path, validate_path
from kgen.runtime.rest import Config
from kgen.webhook import CertificateLoadError
from kgen.webhook.admission import Denied
from tests.support.webhook.certs import CertificateAuthority, client_context, write_pair

CONFIG = Config(host="https://127.0.0.1:1")  # never dialled: these managers have no controllers


class CronJob(Model, kw_only=True):
    """The kubebuilder tutorial's kind, for its documented webhook paths."""

    API_VERSION = "batch.tutorial.kubebuilder.io/v1"
    KIND = "CronJob"
    metadata: ObjectMeta | None = None


class WidgetV1(Model, kw_only=True):
    API_VERSION = "example.kgen.test/v1"
    KIND = "Widget"
    metadata: ObjectMeta | None = None
    size: int = 0


class WidgetV2(Model, kw_only=True):
    API_VERSION = "example.kgen.test/v2"
    KIND = "Widget"
    metadata: ObjectMeta | None = None
    replicas: int = 0


def v1_to_v2(w: WidgetV1) -> WidgetV2:
    return WidgetV2(metadata=w.metadata, replicas=w.size)


def v2_to_v1(w: WidgetV2) -> WidgetV1:
    return WidgetV1(metadata=w.metadata, size=w.replicas)


class NoForbiddenKey:
    def validate_create(self, obj: ConfigMap) -> Sequence[str] | None:
        if "forbidden" in (obj.data or {}):
            raise Denied("data.forbidden is not allowed")
        return None

    def validate_update(self, old: ConfigMap, new: ConfigMap) -> Sequence[str] | None:
        return self.validate_create(new)

    def validate_delete(self, obj: ConfigMap) -> Sequence[str] | None:
        return None


class ModeDefault:
    def default(self, obj: ConfigMap) -> None:
        obj.data = {"mode": "default", **(obj.data or {})}


@pytest.fixture
def ca() -> CertificateAuthority:
    return CertificateAuthority("manager-webhook-test-ca")


@pytest.fixture
def cert_dir(tmp_path: Path, ca: CertificateAuthority) -> Path:
    write_pair(ca.serving(["127.0.0.1"]), tmp_path)
    return tmp_path


Flavour = type[Manager] | type[AsyncManager]
FLAVOURS = [pytest.param(Manager, id="threads"), pytest.param(AsyncManager, id="asyncio")]


@contextmanager
def running(manager: Manager | AsyncManager) -> Iterator[None]:
    if isinstance(manager, AsyncManager):
        async_manager = manager
        thread = threading.Thread(target=lambda: asyncio.run(async_manager.start()), name="manager")
    else:
        thread = threading.Thread(target=manager.start, name="manager")
    thread.start()
    try:
        assert manager.elected.wait(10)
        yield
    finally:
        manager.stop()
        thread.join(15)
        assert not thread.is_alive(), "the manager did not stop"


def admission(operation: str, data: dict[str, str]) -> bytes:
    cm = {"kind": "ConfigMap", "apiVersion": "v1", "metadata": {"name": "cm", "namespace": "ns"}, "data": data}
    return json.dumps({
        "kind": "AdmissionReview", "apiVersion": "admission.k8s.io/v1",
        "request": {
            "uid": "u-1", "kind": {"group": "", "version": "v1", "kind": "ConfigMap"},
            "resource": {"group": "", "version": "v1", "resource": "configmaps"}, "name": "cm", "namespace": "ns",
            "operation": operation, "userInfo": {"username": "alice"}, "object": cm,
        },
    }).encode()


def post(client: httpx.Client, port: int, path: str, body: bytes) -> dict[str, Any]:
    reply = client.post(f"https://127.0.0.1:{port}{path}", content=body, headers={"Content-Type": "application/json"})
    assert reply.status_code == 200, reply.text
    answer: dict[str, Any] = reply.json()
    return answer


def test_paths_are_controller_runtimes() -> None:
    # pkg/builder/webhook.go: "/validate-" + group with dots as dashes + "-" + version + "-" + lower(kind)
    assert validate_path(ConfigMap) == "/validate--v1-configmap"  # core group: empty, two dashes
    assert mutate_path(ConfigMap) == "/mutate--v1-configmap"
    assert validate_path(Deployment) == "/validate-apps-v1-deployment"
    # the kubebuilder CronJob tutorial's markers
    assert mutate_path(CronJob) == "/mutate-batch-tutorial-kubebuilder-io-v1-cronjob"
    assert validate_path(CronJob) == "/validate-batch-tutorial-kubebuilder-io-v1-cronjob"


def test_default_webhook_options_are_controller_runtimes(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, ca: CertificateAuthority
) -> None:
    assert Path(tempfile.gettempdir()) / "k8s-webhook-server" / "serving-certs" == manager_module.DEFAULT_WEBHOOK_CERT_DIR
    default_dir = tmp_path / "k8s-webhook-server" / "serving-certs"
    monkeypatch.setattr(manager_module, "DEFAULT_WEBHOOK_CERT_DIR", default_dir)
    with pytest.raises(CertificateLoadError, match=r"serving-certs/tls\.crt with key .*serving-certs/tls\.key"):
        _ = Manager(CONFIG).webhook_server  # no certificate there: the error names the files
    default_dir.mkdir(parents=True)
    write_pair(ca.serving(["127.0.0.1"]), default_dir)
    server = Manager(CONFIG).webhook_server
    assert server.port == 9443 and server.host == ""
    assert server.cert_watcher.cert_file == default_dir / "tls.crt"
    assert server.cert_watcher.key_file == default_dir / "tls.key"


@pytest.mark.parametrize("flavour", FLAVOURS)
def test_manager_serves_its_webhooks_while_running_and_readiness_waits_for_them(
    flavour: Flavour, cert_dir: Path, ca: CertificateAuthority
) -> None:
    manager = flavour(CONFIG, webhook_host="127.0.0.1", webhook_port=0, webhook_cert_dir=cert_dir)
    webhook_managed_by(manager).for_(ConfigMap).with_validator(NoForbiddenKey()).with_defaulter(ModeDefault()).complete()
    webhook_managed_by(manager).for_(WidgetV1).with_conversion(WidgetV2, v1_to_v2, v2_to_v1).complete()
    status, body = manager.probes.answer("/readyz", verbose=True)
    assert (status, body.splitlines()[0]) == (500, "[-]webhook failed: reason withheld")  # not started yet
    with running(manager), httpx.Client(verify=client_context(ca)) as client:
        port = manager.webhook_server.port
        assert manager.probes.answer("/readyz") == (200, "ok")
        denied = post(client, port, "/validate--v1-configmap", admission("CREATE", {"forbidden": "x"}))["response"]
        assert (denied["allowed"], denied["status"]["message"]) == (False, "data.forbidden is not allowed")
        assert post(client, port, "/validate--v1-configmap", admission("CREATE", {"a": "b"}))["response"]["allowed"]
        mutated = post(client, port, "/mutate--v1-configmap", admission("CREATE", {"a": "b"}))["response"]
        assert json.loads(base64.b64decode(mutated["patch"])) == [{"op": "add", "path": "/data/mode", "value": "default"}]
        conversion = {
            "kind": "ConversionReview", "apiVersion": "apiextensions.k8s.io/v1",
            "request": {"uid": "c-1", "desiredAPIVersion": "example.kgen.test/v2", "objects": [
                {"apiVersion": "example.kgen.test/v1", "kind": "Widget", "metadata": {"name": "w"}, "size": 3}]},
        }
        converted = post(client, port, "/convert", json.dumps(conversion).encode())["response"]
        assert converted["convertedObjects"] == [
            {"apiVersion": "example.kgen.test/v2", "kind": "Widget", "metadata": {"name": "w"}, "replicas": 3}]
    with pytest.raises(OSError):  # stopped with the manager: the port is closed
        socket.create_connection(("127.0.0.1", port), timeout=2).close()


@pytest.mark.parametrize("flavour", FLAVOURS)
def test_a_manager_without_webhooks_opens_no_webhook_port(flavour: Flavour, tmp_path: Path) -> None:
    manager = flavour(CONFIG, webhook_cert_dir=tmp_path)  # no certificate: fine, nothing asks for the server
    with running(manager):
        assert manager.probes.answer("/readyz") == (200, "ok")  # no webhook check either
        with pytest.raises(RuntimeError, match="started without a webhook server: register webhooks before start"):
            _ = manager.webhook_server


def test_custom_paths_and_the_errors_a_builder_gives(cert_dir: Path) -> None:
    manager = Manager(CONFIG, webhook_port=0, webhook_cert_dir=cert_dir)
    with pytest.raises(TypeError, match="ObjectMeta has no API_VERSION and KIND"):
        webhook_managed_by(manager).for_(ObjectMeta)
    with pytest.raises(ValueError, match=r"for_\(ConfigMap\) has nothing to serve"):
        webhook_managed_by(manager).for_(ConfigMap).complete()
    with pytest.raises(ValueError, match="does not match"):
        webhook_managed_by(manager).for_(ConfigMap).with_validator_custom_path("no-slash")
    webhook_managed_by(manager).for_(ConfigMap).with_validator(NoForbiddenKey()).with_validator_custom_path(
        "/configmaps/validate").with_defaulter(ModeDefault()).complete()
    with pytest.raises(ValueError, match=r"'/mutate--v1-configmap' is already registered"):
        webhook_managed_by(manager).for_(ConfigMap).with_defaulter(ModeDefault()).complete()
    server = manager.webhook_server
    assert server._endpoint("/configmaps/validate") is not None and server._endpoint("/validate--v1-configmap") is None
    with pytest.raises(ValueError, match="readyz check 'webhook' is already added"):
        manager.add_readyz_check("webhook", lambda: None)  # the manager added it with the server
