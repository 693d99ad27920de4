"""Operator bench (issues 14 and 36): the same workload on kgen's manager, on controller-runtime and
on kopf (as shipped, and tuned to keep its records in the status), one real apiserver.

Each operator (bench/operator_kgen.py; hack/controller-runtime/operator, built from the Go module
proxy by hack/controller-runtime/build.sh; bench/operator_kopf.py, and with
bench/operator_kopf_tuned.py beside it) runs as its own process against its own fresh
namespace, one after the other, so that only it and this driver write during its phases. The
driver writes the Widgets through kgen's async clientset and reads the outcome with lists, every
``POLL`` seconds (so times are to within that):

0. warm-up: one Widget, waited for, so the operator is watching before the clock starts;
1. ``objects`` Widgets created 8 at a time; timed until every ConfigMap holds its Widget's
   ``spec.data`` and every ``status.observed`` equals its ``metadata.generation``;
2. churn: ``rounds`` passes over all Widgets in a seeded random order, each a merge patch of
   ``spec.data`` (8 at a time, no waiting between passes); timed from the first patch until
   converged again; the rate is the updates absorbed per second;
3. the operator's VmHWM (peak) and VmRSS (after churn) from /proc/<pid>/status;
4. the CPU time (/proc/<pid>/stat) each process spent in the churn phase: the operator, the
   kube-apiserver, etcd, and this driver (which also polls): how much the operator costs per
   update, and whether the machine, not the operator, set the churn rate;
5. the API writes the operator made in the churn phase, counted at the apiserver: its /metrics
   (``apiserver_request_total`` by verb, resource, subresource and code) read before the first
   churn patch and after convergence, less the driver's own patches (bench/operator_report.py);
6. the Widgets and ConfigMaps are deleted (envtest runs no garbage collector), so the next
   implementation meets an apiserver holding the same objects.

``BENCH_PROFILE=PATH`` makes kgen's operator write a cProfile of all its threads to PATH
(bench/operator_kgen.py).

    python -m bench --only operator [--operator-objects 1000] [--operator-rounds 3]
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable

from .generation import REPO
from .operator_report import IMPLEMENTATIONS, OperatorRun, file_lines, operator_writes, write_breakdown

CONCURRENCY = 8
POLL = 0.25
TIMEOUT = 900.0
CRD = REPO / "bench" / "widget_crd" / "bench.kgen.dev_widgets.yaml"
CONTROLLER_RUNTIME = REPO / "hack" / "controller-runtime"
#: The user code of each implementation, for the lines-of-code row.
SOURCES = {
    "kgen": [REPO / "bench" / "operator_kgen.py"],
    "controller-runtime": [CONTROLLER_RUNTIME / "operator" / "main.go"],
    "kopf": [REPO / "bench" / "operator_kopf.py"],
    "kopf-status": [REPO / "bench" / "operator_kopf.py", REPO / "bench" / "operator_kopf_tuned.py"],
}


def build_controller_runtime() -> str:
    """The controller-runtime operator's binary, built from the Go module proxy on first use."""
    built = subprocess.run([str(CONTROLLER_RUNTIME / "build.sh"), "operator"], capture_output=True, text=True)
    if built.returncode != 0:
        raise RuntimeError(f"hack/controller-runtime/build.sh operator failed:\n{built.stderr[-3000:]}")
    return built.stdout.strip().splitlines()[-1]


def _command(name: str, kubeconfig: str, namespace: str, workers: int, go_binary: str) -> list[str]:
    if name == "kgen":
        return [sys.executable, "-m", "bench.operator_kgen", "--kubeconfig", kubeconfig, "--namespace", namespace,
                "--workers", str(workers)]
    if name == "controller-runtime":
        return [go_binary, "-kubeconfig", kubeconfig, "-namespace", namespace, "-workers", str(workers)]
    return [sys.executable, "-m", "kopf", "run", "--standalone", "--namespace", namespace,
            *(str(path) for path in SOURCES[name])]


def _metrics(kubeconfig: str) -> str:
    """The apiserver's /metrics body, read as the admin."""
    from kgen.runtime.rest import RESTClient, Request, load_kubeconfig

    with RESTClient(load_kubeconfig(kubeconfig)) as rest:
        response = rest.send(Request("GET", "/metrics", accept="text/plain"))
        response.raise_for_status()
        return response.text


def _clean(kubeconfig: str, namespace: str) -> None:
    """Deletes the namespace's Widgets and ConfigMaps (no garbage collector runs in envtest)."""
    from kgen.runtime.rest import RESTClient, Request, load_kubeconfig

    with RESTClient(load_kubeconfig(kubeconfig)) as rest:
        for path in (f"/apis/bench.kgen.dev/v1/namespaces/{namespace}/widgets",
                     f"/api/v1/namespaces/{namespace}/configmaps"):
            rest.send(Request("DELETE", path)).raise_for_status()


def _memory(pid: int) -> tuple[int, int]:
    """(VmHWM, VmRSS) in bytes."""
    fields: dict[str, int] = {}
    with open(f"/proc/{pid}/status", encoding="ascii") as status:
        for line in status:
            key, _, value = line.partition(":")
            if key in ("VmHWM", "VmRSS"):
                fields[key] = int(value.split()[0]) * 1024
    return fields["VmHWM"], fields["VmRSS"]


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (utime and stime of /proc/<pid>/stat)."""
    with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
        after_name = stat.read().rpartition(")")[2].split()  # fields from the 3rd (state) on
    return (int(after_name[11]) + int(after_name[12])) / os.sysconf("SC_CLK_TCK")


def _cpu_now(pids: dict[str, int]) -> dict[str, float]:
    return {**{name: cpu_seconds(pid) for name, pid in pids.items()}, "driver": time.process_time()}


def install_crd(kubeconfig: str) -> None:
    import yaml

    from kgen.kubernetes import Clientset
    from kgen.kubernetes.models.apiextensions.v1 import CustomResourceDefinition

    cs = Clientset.from_kubeconfig(kubeconfig)
    crds = cs.apiextensions_v1.custom_resource_definitions()
    crds.create(CustomResourceDefinition.from_dict(yaml.safe_load(CRD.read_text(encoding="utf-8"))))
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        conditions = crds.get("widgets.bench.kgen.dev").status
        if conditions and any(c.type == "Established" and c.status == "True" for c in conditions.conditions or []):
            time.sleep(1.0)  # discovery and the apiserver's handlers catch up
            return
        time.sleep(0.2)
    raise RuntimeError("the Widget CRD was not Established within 60 s")


class _Driver:
    def __init__(self, kubeconfig: str, namespace: str) -> None:
        from kgen.runtime.rest import load_kubeconfig

        self.config = load_kubeconfig(kubeconfig)
        self.config.qps = -1
        self.config.user_agent = "kgen-bench-operator-driver"
        self.namespace = namespace
        #: name -> the spec.data last written
        self.expected: dict[str, dict[str, str]] = {}

    async def converged_after(self, started: float, deadline: float, operator: subprocess.Popen[bytes]) -> float:
        from widget_client import AsyncClientset as WidgetClientset

        from kgen.kubernetes import AsyncClientset

        async with AsyncClientset(self.config) as core, WidgetClientset(self.config) as bench:
            while time.monotonic() < deadline:
                widgets = (await bench.bench_kgen_dev_v1.widgets(self.namespace).list()).items
                maps = {cm.metadata.name: cm.data or {} for cm in
                        (await core.core_v1.config_maps(self.namespace).list()).items if cm.metadata}
                done = sum(1 for w in widgets if w.metadata and w.metadata.name in self.expected
                           and w.status and w.status.observed == w.metadata.generation
                           and maps.get(w.metadata.name) == self.expected[w.metadata.name])
                if done == len(self.expected):
                    return time.monotonic() - started
                if operator.poll() is not None:
                    raise RuntimeError(f"the operator exited with status {operator.returncode} before converging")
                await asyncio.sleep(POLL)
        raise RuntimeError(f"the operator did not converge within {deadline - started:.0f} s")

    async def write(self, names: list[str], create: bool, rng: random.Random) -> None:
        from widget_client import AsyncClientset as WidgetClientset
        from widget_client.models.bench_kgen_dev.v1 import Widget, WidgetSpec
        from widget_client.models.meta.v1 import ObjectMeta

        datas = {name: {"a": str(rng.randrange(10**9)), "b": str(rng.randrange(10**9))} for name in names}
        gate = asyncio.Semaphore(CONCURRENCY)
        async with WidgetClientset(self.config) as bench:
            widgets = bench.bench_kgen_dev_v1.widgets(self.namespace)

            async def one(name: str) -> None:
                async with gate:
                    if create:
                        await widgets.create(Widget(metadata=ObjectMeta(name=name), spec=WidgetSpec(data=datas[name])))
                    else:
                        await widgets.patch(name, {"spec": {"data": datas[name]}})
                self.expected[name] = datas[name]

            await asyncio.gather(*(one(name) for name in names))


def run_one(name: str, kubeconfig: str, server_pids: dict[str, int], objects: int, rounds: int, seed: int,
            workers: int, env: dict[str, str], progress: Callable[[str], None], go_binary: str = "") -> OperatorRun:
    from kgen.kubernetes import Clientset
    from kgen.kubernetes.models.core.v1 import Namespace
    from kgen.kubernetes.models.meta.v1 import ObjectMeta

    namespace = f"bench-operator-{name}-{objects}"
    Clientset.from_kubeconfig(kubeconfig).core_v1.namespaces().create(Namespace(metadata=ObjectMeta(name=namespace)))
    driver = _Driver(kubeconfig, namespace)
    rng = random.Random(seed)
    names = [f"widget-{i:06d}" for i in range(objects)]
    with tempfile.TemporaryFile() as log:
        proc = subprocess.Popen(_command(name, kubeconfig, namespace, workers, go_binary), cwd=REPO, stdout=subprocess.PIPE,
                                stderr=log, env={**env, "KUBECONFIG": kubeconfig, "BENCH_WORKERS": str(workers)})
        try:
            progress(f"operator {name}: warm-up Widget")
            asyncio.run(driver.write(["warmup"], True, rng))
            asyncio.run(driver.converged_after(time.monotonic(), time.monotonic() + 120, proc))
            progress(f"operator {name}: creating {objects:,} Widgets")
            started = time.monotonic()
            asyncio.run(driver.write(names, True, rng))
            all_seconds = asyncio.run(driver.converged_after(started, started + TIMEOUT, proc))
            progress(f"operator {name}: churn, {rounds} passes of {objects:,} spec updates")
            pids = {"operator": proc.pid, **server_pids}
            metrics_before = _metrics(kubeconfig)
            cpu_before = _cpu_now(pids)
            started = time.monotonic()
            for _ in range(rounds):
                asyncio.run(driver.write(rng.sample(names, len(names)), False, rng))
            send_seconds = time.monotonic() - started
            churn_seconds = asyncio.run(driver.converged_after(started, started + TIMEOUT, proc))
            churn_cpu = {key: value - cpu_before[key] for key, value in _cpu_now(pids).items()}
            writes = operator_writes(metrics_before, _metrics(kubeconfig), rounds * objects)
            peak, steady = _memory(proc.pid)
        except BaseException:
            proc.kill()
            proc.wait()
            log.seek(0)
            sys.stderr.write(log.read().decode(errors="replace")[-3000:])
            raise
        proc.send_signal(signal.SIGTERM)
        out, _ = proc.communicate(timeout=60)
        if proc.returncode != 0:
            log.seek(0)
            sys.stderr.write(log.read().decode(errors="replace")[-3000:])
            raise RuntimeError(f"the {name} operator exited with status {proc.returncode} on SIGTERM")
    _clean(kubeconfig, namespace)
    counted = json.loads(out.decode().strip().splitlines()[-1])["reconciles"]
    return OperatorRun(objects, all_seconds, rounds * objects, churn_seconds, send_seconds, peak, steady, int(counted),
                       sum(file_lines(path) for path in SOURCES[name]), churn_cpu, os.cpu_count() or 1, writes)


def measure(objects: int, rounds: int, seed: int, workers: int,
            progress: Callable[[str], None]) -> dict[str, OperatorRun]:
    """Every implementation's run, one after the other on one apiserver, by IMPLEMENTATIONS key."""
    from kgen.runtime.testing import KubeAPIServer

    from .env import subprocess_env
    from .widget import importable

    client = importable()  # widget_client, generated at bench time (bench/widget.py)
    go_binary = build_controller_runtime()
    runs: dict[str, OperatorRun] = {}
    with KubeAPIServer() as server, subprocess_env() as env:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(client), env.get("PYTHONPATH", "")]))
        install_crd(server.kubeconfig)
        for name in IMPLEMENTATIONS:
            runs[name] = run_one(name, server.kubeconfig, server.pids, objects, rounds, seed, workers, env, progress,
                                 go_binary)
    return runs


def notes(workers: int, runs: dict[str, OperatorRun] | None = None) -> list[str]:
    lines = [
        f"- operator: each operator in its own process and namespace, one after the other, {workers} workers (kgen "
        "max_concurrent_reconciles, controller-runtime MaxConcurrentReconciles, kopf's sync-handler thread pool); "
        "no leader election / kopf --standalone; no Events (kopf posting off); kgen and controller-runtime "
        "(hack/controller-runtime/operator, typed Widget struct) read from their caches; kopf writes the ConfigMap "
        "with the official client (create or replace) and the status through its own patch; as shipped it keeps "
        "its last-handled-configuration in an annotation (a patch of the Widget besides the status patch), the "
        "status-storage row keeps it and its progress in status.kopf (bench/operator_kopf_tuned.py); lines of user "
        "code leave out docstrings, comments, the Go types (types.go) and `bench-only` harness lines",
        "- operator: API writes are counted at the apiserver (apiserver_request_total on Widgets and ConfigMaps "
        "around the churn phase, the driver's patches taken out); reconciles/s under churn is printed without a "
        "bar: on this machine the apiserver and etcd bound it",
        f"- operator: the driver polls lists every {POLL} s, so times are within that; "
        f"load average now {os.getloadavg()[0]:.2f} (the machine may be shared)",
    ]
    for name, run in (runs or {}).items():
        lines.append(f"- operator: {IMPLEMENTATIONS[name]}'s writes per churn update: {write_breakdown(run)}")
    return lines
