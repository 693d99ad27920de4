"""A small controller on kgen.runtime.controller for the integration tests: every ConfigMap
labelled ``kgen.dev/mirror`` gets a Secret ``<name>-mirror`` holding its data, controlled by the
ConfigMap, and a finalizer that is removed when the ConfigMap is deleted.

A ConfigMap annotated ``kgen.dev/slow: "<seconds>"`` makes the reconcile wait that long before it
writes the Secret, so a test can stop the manager while a reconcile is in flight.

``python -m tests.support.controller.secret_mirror --kubeconfig K --namespace NS`` runs it as a
process (SIGTERM to stop), printing ``probe-port <port>`` once listening and
``reconciling <name>`` / ``reconciled <name>`` around each reconcile.
"""

from __future__ import annotations

import argparse
import logging
import threading
import time

from kgen.kubernetes.models.core.v1 import ConfigMap, Secret
from kgen.kubernetes.models.meta.v1 import ObjectMeta
from kgen.runtime.apimachinery.errors import AlreadyExists, NotFound
from kgen.runtime.controller import (
    AsyncClient,
    AsyncManager,
    Client,
    Manager,
    Request,
    Result,
    add_finalizer_and_update,
    async_add_finalizer_and_update,
    async_controller_managed_by,
    async_remove_finalizer_and_update,
    controller_managed_by,
    is_controlled_by,
    new_predicate_funcs,
    remove_finalizer_and_update,
    set_controller_reference,
)
from kgen.runtime.controller.manager.probes import ping
from kgen.runtime.rest import load_config

LABEL = "kgen.dev/mirror"
SLOW = "kgen.dev/slow"
FINALIZER = "kgen.dev/mirror-cleanup"


def mirror_name(name: str) -> str:
    return f"{name}-mirror"


class SecretMirror:
    def __init__(self, client: Client, *, verbose: bool = False) -> None:
        self.client = client
        self.verbose = verbose
        self.lock = threading.Lock()
        self.reconciled: list[Request] = []

    def reconcile(self, request: Request) -> Result | None:
        try:
            cm = self.client.get(ConfigMap, request.name, request.namespace)
        except NotFound:
            return None  # gone: its Secret goes with it (the garbage collector, where one runs)
        with self.lock:
            self.reconciled.append(request)
        self._say(f"reconciling {request.name}")
        assert cm.metadata is not None
        if cm.metadata.deletion_timestamp:
            remove_finalizer_and_update(self.client, cm, FINALIZER)
            return None
        cm = add_finalizer_and_update(self.client, cm, FINALIZER)
        slow = (cm.metadata.annotations or {}).get(SLOW) if cm.metadata else None
        if slow:
            time.sleep(float(slow))
        self._ensure_secret(cm, request)
        self._say(f"reconciled {request.name}")
        return None

    def _ensure_secret(self, cm: ConfigMap, request: Request) -> None:
        name = mirror_name(request.name)
        try:
            secret = self.client.get(Secret, name, request.namespace)
        except NotFound:
            secret = set_controller_reference(
                cm, Secret(metadata=ObjectMeta(name=name, namespace=request.namespace), string_data=dict(cm.data or {}))
            )
            try:
                self.client.create(secret)
            except AlreadyExists:
                pass  # created by an earlier reconcile the cache has not seen yet
            return
        if not is_controlled_by(secret, cm):
            raise RuntimeError(f"Secret {name} exists and is not controlled by ConfigMap {request.name}")

    def _say(self, line: str) -> None:
        if self.verbose:
            print(line, flush=True)


def mirror_controller(manager: Manager, *, verbose: bool = False, name: str | None = None) -> SecretMirror:
    reconciler = SecretMirror(manager.client, verbose=verbose)
    builder = controller_managed_by(manager).for_(ConfigMap, predicates=[
        new_predicate_funcs(lambda cm: cm.metadata is not None and LABEL in (cm.metadata.labels or {}))
    ]).owns(Secret)
    if name:
        builder = builder.named(name)
    builder.with_options(max_concurrent_reconciles=2).complete(reconciler)
    return reconciler


class AsyncSecretMirror:
    """``SecretMirror`` for the AsyncManager: the same steps, awaited."""

    def __init__(self, client: AsyncClient) -> None:
        self.client = client
        self.reconciled: list[Request] = []

    async def reconcile(self, request: Request) -> Result | None:
        try:
            cm = await self.client.get(ConfigMap, request.name, request.namespace)
        except NotFound:
            return None
        self.reconciled.append(request)
        assert cm.metadata is not None
        if cm.metadata.deletion_timestamp:
            await async_remove_finalizer_and_update(self.client, cm, FINALIZER)
            return None
        cm = await async_add_finalizer_and_update(self.client, cm, FINALIZER)
        name = mirror_name(request.name)
        try:
            await self.client.get(Secret, name, request.namespace)
        except NotFound:
            secret = set_controller_reference(
                cm, Secret(metadata=ObjectMeta(name=name, namespace=request.namespace), string_data=dict(cm.data or {}))
            )
            try:
                await self.client.create(secret)
            except AlreadyExists:
                pass
        return None


def async_mirror_controller(manager: AsyncManager) -> AsyncSecretMirror:
    reconciler = AsyncSecretMirror(manager.client)
    async_controller_managed_by(manager).for_(ConfigMap, predicates=[
        new_predicate_funcs(lambda cm: cm.metadata is not None and LABEL in (cm.metadata.labels or {}))
    ]).owns(Secret).with_options(max_concurrent_reconciles=2).complete(reconciler)
    return reconciler


def main() -> None:
    parser = argparse.ArgumentParser(prog="secret-mirror")
    parser.add_argument("--kubeconfig", required=True)
    parser.add_argument("--namespace", required=True)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    config = load_config(args.kubeconfig)
    config.qps = -1
    manager = Manager(config, namespace=args.namespace, health_probe_address="127.0.0.1:0")
    manager.add_healthz_check("ping", ping)
    manager.add_readyz_check("cache", manager.cache_synced)
    mirror_controller(manager, verbose=True)
    print(f"probe-port {manager.health_probe_port}", flush=True)
    manager.start()
    print("stopped", flush=True)


if __name__ == "__main__":
    main()
