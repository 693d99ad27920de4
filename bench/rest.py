"""REST throughput against the real apiserver: GETs per second, sequential, one connection.

kgen with client-side throttling disabled (``qps = -1``) and with client-go's default
(5 QPS, burst 10), against lightkube and the official client doing the same GETs in the same
run. The apiserver is kgen's envtest harness (``KUBEBUILDER_ASSETS``, see ``make bench``).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from .report import Row, Table

NAMESPACE = "default"
NAME = "bench"


@dataclass(frozen=True)
class Throughput:
    kgen_unthrottled: float
    kgen_default_qps: float
    lightkube: float
    official: float


def _rate(call: Callable[[], object], requests: int) -> float:
    call()  # connect first: measure requests, not the TLS handshake
    started = time.perf_counter()
    for _ in range(requests):
        call()
    return requests / (time.perf_counter() - started)


def measure(requests: int) -> Throughput:
    from kgen.kubernetes import Clientset
    from kgen.kubernetes.models.core.v1 import ConfigMap
    from kgen.kubernetes.models.meta.v1 import ObjectMeta
    from kgen.runtime.rest import load_kubeconfig
    from kgen.runtime.testing import KubeAPIServer

    with KubeAPIServer() as server:
        fast = load_kubeconfig(server.kubeconfig)
        fast.qps = -1
        with Clientset(fast) as cs:
            cms = cs.core_v1.config_maps(NAMESPACE)
            cms.create(ConfigMap(metadata=ObjectMeta(name=NAME), data={"k": "v" * 256}))
            unthrottled = _rate(lambda: cms.get(NAME), requests)
        with Clientset(load_kubeconfig(server.kubeconfig)) as cs:
            throttled_cms = cs.core_v1.config_maps(NAMESPACE)
            default_qps = _rate(lambda: throttled_cms.get(NAME), 30)  # past the burst of 10: ~5/s

        import lightkube
        from lightkube.config.kubeconfig import KubeConfig
        from lightkube.resources.core_v1 import ConfigMap as LkConfigMap

        lk = lightkube.Client(KubeConfig.from_file(server.kubeconfig))
        lightkube_rate = _rate(lambda: lk.get(LkConfigMap, NAME, namespace=NAMESPACE), requests)

        from kubernetes import client as k8s_client
        from kubernetes import config as k8s_config

        api = k8s_client.CoreV1Api(k8s_config.new_client_from_config(config_file=server.kubeconfig))  # type: ignore[no-untyped-call, unused-ignore]
        official_rate = _rate(lambda: api.read_namespaced_config_map(NAME, NAMESPACE), requests)
    return Throughput(unthrottled, default_qps, lightkube_rate, official_rate)


def _per_s(rate: float) -> str:
    return f"{rate:.0f}/s"


def table(result: Throughput, requests: int) -> Table:
    per_s = _per_s
    ratio = result.kgen_unthrottled / result.lightkube
    rows = [
        Row(f"GET a ConfigMap, {requests} sequential, QPS limit disabled",
            (per_s(result.kgen_unthrottled), per_s(result.lightkube), per_s(result.official)),
            f"{ratio:.2f}×", "(info: kgen / lightkube)", None),
        Row("the same with client-go's default limiter (5 QPS, burst 10)",
            (per_s(result.kgen_default_qps), "", ""), "", "≈ 5/s after the burst", 4.0 <= result.kgen_default_qps <= 8.0),
    ]
    return Table("REST throughput against the real apiserver (requests per second, higher is better)",
                 ("kgen", "lightkube", "official"), rows)
