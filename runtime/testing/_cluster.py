"""A whole cluster on one machine for tests: the envtest apiserver plus kube-controller-manager,
kube-scheduler and kwok's simulated nodes.

Where ``KubeAPIServer`` is an apiserver with nothing around it (no Deployment ever rolls out,
no owner's deletion reaches what it owns, ``pods/log`` answers 204), ``Cluster`` runs what users'
clusters run around it, so rollouts, garbage collection, Jobs, CronJobs, namespace deletion, exec,
logs and port-forward can be tested for real. kwok stands in for the kubelets: it moves pods
through their phases by its Stage documents (no containers) and answers the kubelet's exec, logs
and port-forward endpoints with local processes and files, as its ClusterExec, ClusterLogs and
ClusterPortForward rules say (``set_cluster_exec`` and friends write those).

Every process is started through the apiserver harness: tied to this process's life
(``PR_SET_PDEATHSIG``), written to the run log ``hack/check-leftovers.sh`` reads, and stopped in
the reverse order of their start: kwok, the scheduler, the controller-manager, then the apiserver
and etcd (an apiserver stopped while its clients still watch it lingers ~60 s after SIGTERM).
"""

from __future__ import annotations

import os
import secrets
import subprocess
import time
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import httpx
import yaml

from kgen.runtime.testing._assets import find_cluster_assets
from kgen.runtime.testing._kwok import PLURALS, KWOK_API_VERSION, KWOK_CRDS, KWOK_GROUP, NODE_LABEL, condition_true, rule_selector
from kgen.runtime.testing._server import KubeAPIServer, StartupError, _free_port, _tail

NEVER_READY_IMAGE = "kgen.dev/never-ready"
"""A container image kwok never makes Ready, for a stuck rollout: a pod with a container of this
image (this exact string) is scheduled, then stays Pending, with no container statuses and no IP,
until deleted. ``Cluster`` makes kwok's pod-ready Stage (which makes a pod Running and Ready) skip it."""


class _StagesDumper(yaml.SafeDumper):
    """Multi-line strings (the Stages' templates) as literal blocks, as in kwok's own files."""


_StagesDumper.add_representer(str, lambda d, v: d.represent_scalar("tag:yaml.org,2002:str", v, style="|" if "\n" in v else None))


class Cluster(KubeAPIServer):
    """etcd + kube-apiserver + kube-controller-manager + kube-scheduler + kwok with ``nodes``
    simulated Nodes, on 127.0.0.1, for one Kubernetes version.

    Usage::

        with Cluster(nodes=2) as cluster:
            cluster.kubeconfig, cluster.url, cluster.version   # as KubeAPIServer
            cluster.node_names                                 # the kwok Nodes, Ready
            cluster.kubectl("get", "pods", "-A")               # kubectl of the same version
            cluster.set_cluster_exec("all")                    # exec runs local commands

    ``controllers``: kube-controller-manager's ``--controllers`` (default ``*``, all that are
    on by default); ``scheduler=False`` runs none. ``node_monitor_grace_period``: how long a
    Node may go without a heartbeat before the node lifecycle controller marks it NotReady
    (production's 50 s is long for a test). ``assets``: a folder as ``kgen envtest --cluster``
    prints (default: ``find_cluster_assets`` for ``kubernetes_version``/``etcd_version``).

    Ready, as ``start()`` returns: every Node is Ready, and a new namespace got its ``default``
    ServiceAccount (the controller-manager answers /healthz ~5 s before its controllers run).
    """

    def __init__(
        self,
        assets: str | os.PathLike[str] | None = None,
        *,
        kubernetes_version: str | None = None,
        etcd_version: str | None = None,
        nodes: int = 2,
        controllers: Sequence[str] = ("*",),
        scheduler: bool = True,
        node_monitor_grace_period: float = 20.0,
        apiserver_flags: tuple[str, ...] = (),
        startup_timeout: float = 120.0,
        run_log: str | os.PathLike[str] | None = None,
    ) -> None:
        super().__init__(
            assets,
            kubernetes_version=kubernetes_version,
            etcd_version=etcd_version,
            apiserver_flags=apiserver_flags,
            startup_timeout=startup_timeout,
            run_log=run_log,
        )
        if nodes < 0:
            raise ValueError(f"nodes: expected 0 or more, got {nodes}")
        self.node_names: tuple[str, ...] = tuple(f"kwok-node-{i}" for i in range(nodes))
        self.controllers = tuple(controllers)
        self.scheduler = scheduler
        self.node_monitor_grace_period = node_monitor_grace_period
        self.kubelet_port = 0
        self.cluster_startup_seconds = 0.0
        """From start() to ready, all of it (``startup_seconds``: the apiserver's part)."""

    # -- lifecycle -------------------------------------------------------------------------

    def start(self) -> "Cluster":
        """Starts etcd, the apiserver, then the chosen controllers, the scheduler and kwok's nodes;
        returns once every Node is Ready and a new namespace gets its ``default`` ServiceAccount
        (the controller-manager answers /healthz seconds before its controllers run)."""
        started = time.monotonic()
        if self._assets is None:
            self._assets = find_cluster_assets(*self._versions)
        super().start()
        try:
            self._write_cluster_files()
            self._install_kwok_crds()
            self._start_controller_manager()
            if self.scheduler:
                self._start_scheduler()
            for name in self.node_names:
                self.add_node(name)
            self._start_kwok()
            self._wait_cluster_ready(started)
        except BaseException:
            self.stop()
            raise
        self.cluster_startup_seconds = time.monotonic() - started
        return self

    def __enter__(self) -> "Cluster":
        return self.start()

    def restart_apiserver(self) -> None:
        """Refused on a Cluster: its controllers, scheduler and kwok hold the apiserver's URL."""
        raise RuntimeError("restart_apiserver: not supported on a Cluster (its controllers would hold the old URL)")

    @property
    def assets(self) -> Path:
        """The folder of the binaries this cluster runs (kubectl among them)."""
        assert self._assets is not None, "start() the cluster first"
        return self._assets

    @property
    def pids(self) -> dict[str, int]:
        """The process id of each process the cluster started, by name (``kube-scheduler``, ...)."""
        names = ("etcd", "kube-apiserver", *self._started_names)
        return dict(zip(names, (p.pid for p in self._procs), strict=False))

    # -- the apiserver as a cluster's -------------------------------------------------------

    def _default_apiserver_flags(self, port: int) -> list[str]:
        envtest_only = ("--disable-admission-plugins=", "--authorization-mode=")
        flags = [f for f in super()._default_apiserver_flags(port) if not f.startswith(envtest_only)]
        return [
            *flags,
            # As kubeadm's: kubelets (here kwok) authorize as nodes, everything else by RBAC; the
            # default admission plugins, ServiceAccount among them (the controller-manager makes
            # the `default` ServiceAccounts that envtest lacks).
            "--authorization-mode=Node,RBAC",
            # kwok's Nodes all answer at 127.0.0.1:<kubelet_port>, their InternalIP.
            "--kubelet-preferred-address-types=InternalIP,Hostname",
            f"--kubelet-client-certificate={self._path('apiserver-kubelet-client.crt')}",
            f"--kubelet-client-key={self._path('apiserver-kubelet-client.key')}",
            f"--kubelet-certificate-authority={self._path('ca.crt')}",
        ]

    def _write_pki(self) -> None:
        super()._write_pki()
        ca = self._ca
        self._write("ca.key", ca.key_pem)
        kubelet_client = ca.client("kube-apiserver-kubelet-client", "kubeadm:cluster-admins")
        self._write("apiserver-kubelet-client.crt", kubelet_client.cert_pem)
        self._write("apiserver-kubelet-client.key", kubelet_client.key_pem)
        kubelet_serving = ca.serving(["127.0.0.1", "localhost"])
        self._write("kwok-serving.crt", kubelet_serving.cert_pem)
        self._write("kwok-serving.key", kubelet_serving.key_pem)

    # -- the other components ---------------------------------------------------------------

    _started_names: tuple[str, ...] = ()

    def _spawn_component(self, name: str, args: list[str], env: dict[str, str] | None = None) -> None:
        self._spawn(name, args, env)
        self._started_names = (*self._started_names, name)

    def stop(self) -> None:
        """Stops every process, the apiserver after its clients (else it lingers ~60 s)."""
        super().stop()  # kwok, scheduler, controller-manager, apiserver, etcd: the reverse of their start
        self._started_names = ()

    def _identity_kubeconfig(self, name: str, user: str, group: str | None = None) -> str:
        pair = self._ca.client(user, group)
        return self._write(f"{name}.kubeconfig", yaml.safe_dump(self._kubeconfig(user, pair)).encode())

    def _write_cluster_files(self) -> None:
        # Each component as kubeadm sets it up: its own identity, bound by the apiserver's
        # bootstrap RBAC roles (kwok, a stand-in for many kubelets, is an admin).
        self._kcm_kubeconfig = self._identity_kubeconfig("kube-controller-manager", "system:kube-controller-manager")
        self._scheduler_kubeconfig = self._identity_kubeconfig("kube-scheduler", "system:kube-scheduler")
        self._kwok_kubeconfig = self._identity_kubeconfig("kwok", "kgen-kwok", "system:masters")
        # kwok's Stages, the pod-ready one made to skip NEVER_READY_IMAGE's pods. A selector key is
        # a jq query; NotIn matches when none of the values it yields is listed (kwok v0.8.0,
        # pkg/utils/expression/selector.go): here, when no container has the image.
        paths = sorted((self.assets / "kwok-stages").glob("*.yaml"))
        stages = [stage for path in paths for stage in yaml.safe_load_all(path.read_text()) if stage]
        ready = [s for s in stages if s.get("kind") == "Stage" and s.get("metadata", {}).get("name") == "pod-ready"]
        if len(ready) != 1:
            raise StartupError(f"{self.assets / 'kwok-stages'}: expected one Stage named pod-ready, found {len(ready)}")
        ready[0]["spec"].setdefault("selector", {}).setdefault("matchExpressions", []).append(
            {"key": ".spec.containers.[].image", "operator": "NotIn", "values": [NEVER_READY_IMAGE]})
        self._path("kwok").mkdir()
        self._kwok_config = self._write("kwok/stages.yaml", yaml.dump_all(stages, Dumper=_StagesDumper, sort_keys=False).encode())

    def _start_controller_manager(self) -> None:
        kubeconfig = self._kcm_kubeconfig
        grace = self.node_monitor_grace_period
        self._spawn_component(
            "kube-controller-manager",
            [
                str(self.assets / "kube-controller-manager"),
                f"--kubeconfig={kubeconfig}",
                f"--authentication-kubeconfig={kubeconfig}",
                f"--authorization-kubeconfig={kubeconfig}",
                "--bind-address=127.0.0.1",
                f"--secure-port={_free_port()}",
                f"--cert-dir={self._path('kcm-certs')}",
                f"--controllers={','.join(self.controllers)}",
                "--leader-elect=false",
                "--use-service-account-credentials=true",
                f"--service-account-private-key-file={self._path('sa.key')}",
                f"--root-ca-file={self._path('ca.crt')}",
                f"--cluster-signing-cert-file={self._path('ca.crt')}",
                f"--cluster-signing-key-file={self._path('ca.key')}",
                "--node-monitor-period=2s",
                f"--node-monitor-grace-period={grace:g}s",
                "--profiling=false",
            ],
        )

    def _start_scheduler(self) -> None:
        kubeconfig = self._scheduler_kubeconfig
        self._spawn_component(
            "kube-scheduler",
            [
                str(self.assets / "kube-scheduler"),
                f"--kubeconfig={kubeconfig}",
                f"--authentication-kubeconfig={kubeconfig}",
                f"--authorization-kubeconfig={kubeconfig}",
                "--bind-address=127.0.0.1",
                f"--secure-port={_free_port()}",
                f"--cert-dir={self._path('scheduler-certs')}",
                "--leader-elect=false",
                "--profiling=false",
            ],
        )

    def _start_kwok(self) -> None:
        self.kubelet_port = _free_port()
        # A lease renewed every few seconds (kwok renews at a quarter of its duration), well
        # inside the node monitor's grace period, even on a loaded machine.
        lease = max(4, int(self.node_monitor_grace_period / 2))
        self._spawn_component(
            "kwok",
            [
                str(self.assets / "kwok"),
                f"--kubeconfig={self._kwok_kubeconfig}",
                f"--config={self._kwok_config}",
                f"--manage-nodes-with-label-selector={NODE_LABEL}=true",
                "--node-ip=127.0.0.1",
                f"--node-port={self.kubelet_port}",
                # kwok's server answers exec with local commands and has no authentication of its
                # own: it listens on loopback only.
                f"--server-address=127.0.0.1:{self.kubelet_port}",
                f"--tls-cert-file={self._path('kwok-serving.crt')}",
                f"--tls-private-key-file={self._path('kwok-serving.key')}",
                # Its default pod range, 10.0.0.0/24, is the apiserver's service range.
                "--cidr=10.244.0.0/16",
                f"--node-lease-duration-seconds={lease}",
                f"--enable-crds={','.join(KWOK_CRDS)}",
            ],
            # kwok reads and writes ~/.kwok unless told otherwise.
            env={"KWOK_WORKDIR": str(self._path("kwok"))},
        )

    def _install_kwok_crds(self) -> None:
        wanted = {f"{PLURALS[kind]}.{KWOK_GROUP}" for kind in KWOK_CRDS}
        with self.admin_client(timeout=30.0) as client:
            found = set()
            for path in sorted((self.assets / "kwok-crds").glob("*.yaml")):
                crd = yaml.safe_load(path.read_text())
                if crd["metadata"]["name"] not in wanted:
                    continue
                found.add(crd["metadata"]["name"])
                response = client.post("/apis/apiextensions.k8s.io/v1/customresourcedefinitions", json=crd)
                if response.status_code not in (200, 201, 409):
                    raise StartupError(f"installing kwok's CRD {path.name}: HTTP {response.status_code}: {response.text}")
            if found != wanted:
                raise StartupError(f"{self.assets / 'kwok-crds'}: no CRD for {', '.join(sorted(wanted - found))}")
            self._poll(
                client,
                lambda: all(
                    condition_true(client.get(f"/apis/apiextensions.k8s.io/v1/customresourcedefinitions/{name}"), "Established")
                    for name in wanted
                ),
                "kwok's CRDs Established",
                30.0,
            )

    # -- nodes ------------------------------------------------------------------------------

    def add_node(self, name: str, labels: Mapping[str, str] | None = None) -> None:
        """Creates a Node that kwok runs (heartbeat, pods), with room for 110 pods. Wait for it
        with ``wait_for_node_ready``."""
        version = self.version or "v0.0.0"
        resources = {"cpu": "32", "memory": "256Gi", "pods": "110", "ephemeral-storage": "100Gi"}
        node = {
            "apiVersion": "v1",
            "kind": "Node",
            "metadata": {
                "name": name,
                "labels": {
                    "kubernetes.io/hostname": name,
                    "kubernetes.io/os": "linux",
                    "kubernetes.io/arch": "amd64",
                    "type": "kwok",
                    NODE_LABEL: "true",
                    **(labels or {}),
                },
                "annotations": {"kwok.x-k8s.io/node": "fake", "node.alpha.kubernetes.io/ttl": "0"},
            },
            "status": {
                "capacity": resources,
                "allocatable": resources,
                "nodeInfo": {"kubeletVersion": version, "kubeProxyVersion": version, "operatingSystem": "linux",
                             "architecture": "amd64", "containerRuntimeVersion": "kwok"},
            },
        }
        with self.admin_client(timeout=30.0) as client:
            response = client.post("/api/v1/nodes", json=node)
            if response.status_code not in (200, 201):
                raise StartupError(f"creating Node {name}: HTTP {response.status_code}: {response.text}")

    def stop_node_heartbeat(self, name: str) -> None:
        """Takes the Node away from kwok (its label kwok selects by): its Lease and status are
        renewed no more, as when a kubelet dies. The node lifecycle controller then marks it
        NotReady after ``node_monitor_grace_period`` and taints it."""
        patch = {"metadata": {"labels": {NODE_LABEL: None}}}
        with self.admin_client(timeout=30.0) as client:
            response = client.patch(
                f"/api/v1/nodes/{name}", json=patch, headers={"Content-Type": "application/merge-patch+json"}
            )
            response.raise_for_status()

    def wait_for_node_ready(self, names: Iterable[str], timeout: float = 60.0) -> None:
        """Waits until each Node of ``names`` reports Ready (``StartupError`` after ``timeout``)."""
        names = list(names)
        with self.admin_client(timeout=10.0) as client:
            self._poll(
                client,
                lambda: all(condition_true(client.get(f"/api/v1/nodes/{name}"), "Ready") for name in names),
                f"Nodes {', '.join(names)} Ready",
                timeout,
            )

    def _wait_cluster_ready(self, started: float) -> None:
        deadline = started + self._startup_timeout
        self.wait_for_node_ready(self.node_names, timeout=max(1.0, deadline - time.monotonic()))
        namespace = f"kgen-cluster-ready-{secrets.token_hex(3)}"
        with self.admin_client(timeout=10.0) as client:
            response = client.post("/api/v1/namespaces", json={"metadata": {"name": namespace}})
            if response.status_code not in (200, 201):
                raise StartupError(f"creating namespace {namespace}: HTTP {response.status_code}: {response.text}")
            self._poll(
                client,
                lambda: client.get(f"/api/v1/namespaces/{namespace}/serviceaccounts/default").status_code == 200,
                f"the default ServiceAccount in the new namespace {namespace} (made by kube-controller-manager)",
                max(1.0, deadline - time.monotonic()),
            )
            client.delete(f"/api/v1/namespaces/{namespace}")

    def _poll(self, client: httpx.Client, ready: Any, what: str, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while True:
            for proc, name in zip(self._procs, ("etcd", "kube-apiserver", *self._started_names), strict=False):
                if proc.poll() is not None:
                    raise StartupError(
                        f"{name} exited with code {proc.returncode} while waiting for {what}; its log ends:\n"
                        + _tail(self._path(f"{name}.log"))
                    )
            try:
                if ready():
                    return
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                logs = "\n".join(
                    f"--- {name}.log ends:\n{_tail(self._path(f'{name}.log'), 15)}" for name in self._started_names
                )
                raise StartupError(f"timed out after {timeout:.0f}s waiting for {what}\n{logs}")
            time.sleep(0.2)

    # -- kubectl ----------------------------------------------------------------------------

    def kubectl(
        self, *args: str, input: str | None = None, timeout: float = 60.0, check: bool = False
    ) -> subprocess.CompletedProcess[str]:
        """Runs this cluster's kubectl (the same Kubernetes version) as the admin; text output."""
        return subprocess.run(
            [str(self.assets / "kubectl"), f"--kubeconfig={self.kubeconfig}", *args],
            input=input,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=check,
            stdin=None if input is not None else subprocess.DEVNULL,
        )

    # -- kwok's rules for exec, logs and port-forward -----------------------------------------

    def apply_kwok_rule(self, kind: str, name: str, spec: Mapping[str, Any]) -> None:
        """Creates or replaces (server-side apply) one of kwok's rules: ``kind`` in KWOK_CRDS."""
        if kind not in KWOK_CRDS:
            raise ValueError(f"kind: expected one of {', '.join(KWOK_CRDS)}, got {kind!r}")
        body = {"apiVersion": KWOK_API_VERSION, "kind": kind, "metadata": {"name": name}, "spec": dict(spec)}
        with self.admin_client(timeout=30.0) as client:
            response = client.patch(
                f"/apis/{KWOK_GROUP}/v1alpha1/{PLURALS[kind]}/{name}",
                params={"fieldManager": "kgen-cluster", "force": "true"},
                content=yaml.safe_dump(body).encode(),
                headers={"Content-Type": "application/apply-patch+yaml"},
            )
            if response.status_code not in (200, 201):
                raise RuntimeError(f"applying {kind} {name}: HTTP {response.status_code}: {response.text}")

    def delete_kwok_rule(self, kind: str, name: str) -> None:
        """Deletes a kwok rule (``ClusterLogs``, ``ClusterExec``, ...) set by the ``set_cluster_*``
        helpers; one already gone is no error."""
        with self.admin_client(timeout=30.0) as client:
            response = client.delete(f"/apis/{KWOK_GROUP}/v1alpha1/{PLURALS[kind]}/{name}")
            if response.status_code not in (200, 202, 404):
                response.raise_for_status()

    def set_cluster_logs(
        self,
        name: str,
        logs_file: str | os.PathLike[str],
        *,
        follow: bool = True,
        namespaces: Sequence[str] = (),
        pods: Sequence[str] = (),
        containers: Sequence[str] = (),
    ) -> None:
        """``pods/log`` of the matching pods reads ``logs_file``, which must be in the kubelet's
        CRI log format: one ``<RFC3339Nano time> stdout|stderr F <text>`` a line (``cri_log_line``).
        ``follow``: ``?follow=true`` keeps reading lines appended later."""
        log: dict[str, Any] = {"logsFile": str(Path(logs_file).absolute()), "follow": follow}
        if containers:
            log["containers"] = list(containers)
        self.apply_kwok_rule("ClusterLogs", name, {"selector": rule_selector(namespaces, pods), "logs": [log]})

    def set_cluster_exec(
        self,
        name: str,
        *,
        work_dir: str | os.PathLike[str] | None = None,
        env: Mapping[str, str] | None = None,
        namespaces: Sequence[str] = (),
        pods: Sequence[str] = (),
        containers: Sequence[str] = (),
    ) -> None:
        """``pods/exec`` of the matching pods runs the command as a local process (of kwok, this
        machine's user), in ``work_dir`` with ``env`` added to kwok's environment."""
        local: dict[str, Any] = {}
        if work_dir is not None:
            local["workDir"] = str(Path(work_dir).absolute())
        if env:
            local["envs"] = [{"name": k, "value": v} for k, v in env.items()]
        target: dict[str, Any] = {"local": local}
        if containers:
            target["containers"] = list(containers)
        self.apply_kwok_rule("ClusterExec", name, {"selector": rule_selector(namespaces, pods), "execs": [target]})

    def set_cluster_port_forward(
        self,
        name: str,
        ports: Mapping[int, int],
        *,
        address: str = "127.0.0.1",
        namespaces: Sequence[str] = (),
        pods: Sequence[str] = (),
    ) -> None:
        """``pods/portforward`` of the matching pods: the pod's port P connects to ``address``:
        ``ports[P]`` on this machine."""
        forwards = [{"ports": [pod_port], "target": {"port": local, "address": address}} for pod_port, local in ports.items()]
        self.apply_kwok_rule("ClusterPortForward", name, {"selector": rule_selector(namespaces, pods), "forwards": forwards})

    def __repr__(self) -> str:
        state = "running" if self.running else "stopped"
        return f"Cluster(url={self.url!r}, version={self.version!r}, nodes={len(self.node_names)}, {state})"
