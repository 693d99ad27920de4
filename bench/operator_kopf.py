"""The operator bench's workload on kopf: the same API work as bench/operator_kgen.py.

For every Widget: a ConfigMap of the Widget's name, owned by it as controller
(``kopf.adopt``), whose data is ``spec.data``; then ``status.observed`` = the Widget's
``metadata.generation``, written through kopf's ``patch`` (kopf sends it with its own patch
after the handler returns). The ConfigMap is written with the official client, the one kopf's
documentation and examples use; its calls are synchronous, so the handlers are plain functions,
which kopf runs in its thread pool.

Settings, and why (kopf's defaults unless listed):

- ``kopf run --standalone --namespace NS``: no peering (kgen's manager runs without leader
  election), and only the bench's namespace is watched, as kgen's ``Manager(namespace=...)``.
- ``settings.posting.enabled = False``: kopf would otherwise post Kubernetes Events for what its
  handlers log; kgen's reconciler records no Event either.
- ``settings.execution.max_workers``: the bench's ``--workers`` (``$BENCH_WORKERS``), the
  threads that run sync handlers, as kgen's ``max_concurrent_reconciles``.
- Kept as kopf ships them: its progress and diff-base storage (the
  ``kopf.zalando.org/last-handled-configuration`` annotation, written on every handled change,
  is how kopf tells an update from a resync; bench/operator_kopf_tuned.py, loaded beside this
  file for the bench's second kopf row, keeps both in the status instead), its per-object workers and its 0.1 s batch window,
  and its INFO logging (``kopf run`` without ``-q``), which the bench sends to /dev/null.

Lines ending in ``# bench-only`` (the reconcile counter, the worker setting read from the
bench's environment) are the bench's harness, not user code; bench/operator_report.py leaves
them out of the line count.

    KUBECONFIG=PATH BENCH_WORKERS=N kopf run --standalone --namespace NS bench/operator_kopf.py
"""

from __future__ import annotations

import itertools
import json
import os
from typing import Any

import kopf
import kubernetes

GROUP, VERSION, PLURAL = "bench.kgen.dev", "v1", "widgets"
RECONCILES = itertools.count()  # bench-only
core: kubernetes.client.CoreV1Api


@kopf.on.startup()
def configure(settings: kopf.OperatorSettings, **_: Any) -> None:
    global core
    settings.posting.enabled = False
    settings.execution.max_workers = int(os.environ.get("BENCH_WORKERS", "4"))  # bench-only
    kubernetes.config.load_kube_config()
    core = kubernetes.client.CoreV1Api()


def config_map(name: str, spec: kopf.Spec, body: kopf.Body) -> dict[str, Any]:
    child = {"metadata": {"name": name}, "data": dict(spec.get("data") or {})}
    kopf.adopt(child, owner=body)
    return child


@kopf.on.resume(GROUP, VERSION, PLURAL)
@kopf.on.create(GROUP, VERSION, PLURAL)
def created(name: str, namespace: str, spec: kopf.Spec, body: kopf.Body, meta: kopf.Meta, patch: kopf.Patch,
            **_: Any) -> None:
    next(RECONCILES)  # bench-only
    try:
        core.create_namespaced_config_map(namespace, config_map(name, spec, body))
    except kubernetes.client.ApiException as e:
        if e.status != 409:
            raise
        core.replace_namespaced_config_map(name, namespace, config_map(name, spec, body))
    patch.status["observed"] = meta["generation"]
    patch.status["configMap"] = name


@kopf.on.update(GROUP, VERSION, PLURAL)
def updated(name: str, namespace: str, spec: kopf.Spec, body: kopf.Body, meta: kopf.Meta, patch: kopf.Patch,
            **_: Any) -> None:
    next(RECONCILES)  # bench-only
    try:
        core.replace_namespaced_config_map(name, namespace, config_map(name, spec, body))
    except kubernetes.client.ApiException as e:
        if e.status != 404:
            raise
        core.create_namespaced_config_map(namespace, config_map(name, spec, body))
    patch.status["observed"] = meta["generation"]
    patch.status["configMap"] = name


@kopf.on.cleanup()  # bench-only
def report(**_: Any) -> None:  # bench-only
    print(json.dumps({"reconciles": next(RECONCILES)}), flush=True)  # bench-only
