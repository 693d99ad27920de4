"""An envtest-style kube-apiserver + etcd for tests: no kubelet, scheduler or controllers.

Every process and the temp folder go away on ``stop()``; the children are also tied to the
life of the process that started them (``PR_SET_PDEATHSIG``), so a test run that is killed
outright leaves no apiserver behind, and a later start sweeps temp folders that such a run left.
What a server starts is also appended to the run log, if any (``_run_log.py``), so that
``hack/check-leftovers.sh`` checks this run's servers and no other run's.
"""

from __future__ import annotations

import atexit
import base64
import csv
import ctypes
import io
import secrets
import os
import shutil
import signal
import socket
import ssl
import subprocess
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx

from kgen.runtime.util.extras import missing_extra

try:
    import yaml
except ModuleNotFoundError:
    raise missing_extra("yaml", extra="testing", needed_by="kgen.runtime.testing") from None

from kgen.runtime.testing._assets import find_assets
from kgen.runtime.testing._certs import CertificateAuthority, KeyPair, signing_key
from kgen.runtime.testing._run_log import record_dir, record_process, run_log_from_env

_TMP_PREFIX = "kgen-envtest-"
ADMIN_USER = "kgen-admin"
RESTRICTED_USER = "kgen-restricted"
RESTRICTED_NAMESPACE = "kgen-restricted"
"""The namespace the restricted user may read ConfigMaps in (``restricted_kubeconfig``)."""
TOKEN_USERS = ("kgen-token-1", "kgen-token-2", "kgen-token-3")
"""Users that authenticate with a static bearer token (all in system:masters), for auth tests."""


class StartupError(RuntimeError):
    """kube-apiserver or etcd failed to start or to become ready."""


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _die_with_parent() -> None:
    # Runs in the child between fork and exec: SIGKILL it when the parent dies.
    PR_SET_PDEATHSIG = 1
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _terminate(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def _sweep_stale_dirs() -> None:
    """Removes temp folders of earlier runs whose process is gone (killed before cleanup)."""
    for folder in Path(tempfile.gettempdir()).glob(_TMP_PREFIX + "*"):
        pid = folder.name[len(_TMP_PREFIX):].split("-", 1)[0]
        if pid.isdigit() and not _pid_alive(int(pid)):
            shutil.rmtree(folder, ignore_errors=True)


def _tail(path: Path, lines: int = 40) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return "(no log)"


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


class KubeAPIServer:
    """A real kube-apiserver backed by a real etcd, on 127.0.0.1 with free ports.

    Usage::

        with KubeAPIServer() as server:
            server.kubeconfig             # admin (system:masters) kubeconfig path
            server.restricted_kubeconfig  # get/list/watch configmaps in RESTRICTED_NAMESPACE only
            server.url, server.version

    ``assets`` is a folder with ``etcd`` and ``kube-apiserver`` (default: ``find_assets`` for
    ``kubernetes_version``/``etcd_version``, which default to ``$KGEN_ENVTEST_KUBERNETES_VERSION``
    / ``$KGEN_ENVTEST_ETCD_VERSION``, else the pinned versions ``PINNED``).
    ``apiserver_flags`` are appended to (and so override) the defaults. ``run_log`` is the file
    its processes and temp folder are recorded in (default: ``$KGEN_ENVTEST_RUN_LOG``, if set).

    ``watch_cache=False`` serves watches from etcd directly, as no production cluster does:
    then an etcd compaction (``compact_etcd()``) makes every older resourceVersion expire, the
    quick way to make a watch fail with 410 Gone. With the watch cache on (the default, as in
    production), old resourceVersions stay watchable until they fall out of the cache's window.
    """

    restricted_namespace = RESTRICTED_NAMESPACE

    def __init__(
        self,
        assets: str | os.PathLike[str] | None = None,
        *,
        kubernetes_version: str | None = None,
        etcd_version: str | None = None,
        apiserver_flags: tuple[str, ...] = (),
        watch_cache: bool = True,
        startup_timeout: float = 90.0,
        run_log: str | os.PathLike[str] | None = None,
    ) -> None:
        self._assets = Path(assets) if assets is not None else None
        self._versions = (kubernetes_version, etcd_version)
        self._run_log = Path(run_log) if run_log is not None else run_log_from_env()
        self._apiserver_flags = (f"--watch-cache={str(watch_cache).lower()}", *apiserver_flags)
        self._startup_timeout = startup_timeout
        self._procs: list[subprocess.Popen[bytes]] = []
        self._dir: Path | None = None
        self._lock = threading.Lock()
        self.url = ""
        self.etcd_url = ""
        self.version = ""
        self.version_info: dict[str, Any] = {}
        self.kubeconfig = ""
        self.restricted_kubeconfig = ""
        self.startup_seconds = 0.0
        self.tokens: dict[str, str] = {}
        """user -> bearer token the server accepts (see TOKEN_USERS); never printed by repr."""

    # -- lifecycle -------------------------------------------------------------------------

    def __enter__(self) -> "KubeAPIServer":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def start(self) -> "KubeAPIServer":
        """Start etcd and kube-apiserver in a fresh temporary folder and wait until the apiserver is
        ready; writes the kubeconfigs and the restricted identity. Returns the server."""
        started = time.monotonic()
        assets = self._assets or find_assets(*self._versions)
        _sweep_stale_dirs()
        self._dir = Path(tempfile.mkdtemp(prefix=f"{_TMP_PREFIX}{os.getpid()}-"))
        atexit.register(self.stop)
        try:
            record_dir(self._run_log, self._dir)
            self._write_pki()
            self._start_etcd(assets)
            self._start_apiserver(assets)
            self._wait_ready(started)
            self._write_kubeconfigs()
            self._create_restricted_identity()
        except BaseException:
            self.stop()
            raise
        self.startup_seconds = time.monotonic() - started
        return self

    def stop(self) -> None:
        """Stop kube-apiserver and etcd and remove the folder; safe to call again."""
        with self._lock:
            procs, self._procs = self._procs, []
            for proc in reversed(procs):  # apiserver first, then etcd
                _terminate(proc)
            if self._dir is not None:
                shutil.rmtree(self._dir, ignore_errors=True)
                self._dir = None
        atexit.unregister(self.stop)

    def restart_apiserver(self) -> None:
        """Stops kube-apiserver and starts it again on the same etcd, as after any apiserver
        start: its watch cache then holds each object once, filled from etcd, and none of the
        events that made them (a bench that wrote 100,000 Pods and their statuses leaves the
        apiserver holding ~140 KB per Pod; a restarted one holds about a third of that). It
        listens on a new port: ``url`` and the kubeconfig files are rewritten."""
        with self._lock:
            if len(self._procs) != 2:
                raise RuntimeError("restart_apiserver: the server is not running")
            _terminate(self._procs.pop())  # started last: the apiserver
        self._start_apiserver(self._assets or find_assets(*self._versions))
        self._wait_ready(time.monotonic())
        self._write_kubeconfigs()

    @property
    def running(self) -> bool:
        """Whether both processes are running."""
        return bool(self._procs) and all(p.poll() is None for p in self._procs)

    @property
    def pids(self) -> dict[str, int]:
        """The running server processes' pids by name (``etcd``, ``kube-apiserver``): for a
        bench or test that accounts their CPU time or memory from /proc."""
        return dict(zip(("etcd", "kube-apiserver"), (p.pid for p in self._procs)))

    # -- pieces of start() -----------------------------------------------------------------

    def _path(self, name: str) -> Path:
        assert self._dir is not None
        return self._dir / name

    def _write(self, name: str, data: bytes) -> str:
        path = self._path(name)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        return str(path)

    def issue_serving_cert(self, hosts: list[str]) -> KeyPair:
        """A serving certificate from the server's CA (for a test proxy clients should trust)."""
        return self._ca.serving(hosts)

    def _write_pki(self) -> None:
        ca = self._ca = CertificateAuthority()
        self._ca_pem = ca.cert_pem
        self._write("ca.crt", ca.cert_pem)
        serving = ca.serving(["127.0.0.1", "localhost"])
        self._write("serving.crt", serving.cert_pem)
        self._write("serving.key", serving.key_pem)
        sa_private, sa_public = signing_key()
        self._write("sa.key", sa_private)
        self._write("sa.pub", sa_public)
        self._admin = ca.client(ADMIN_USER, "system:masters")
        self._restricted = ca.client(RESTRICTED_USER)
        self._write("admin.crt", self._admin.cert_pem)
        self._write("admin.key", self._admin.key_pem)
        self.tokens = {user: secrets.token_urlsafe(24) for user in TOKEN_USERS}
        rows = io.StringIO()
        writer = csv.writer(rows)
        for user, token in self.tokens.items():
            writer.writerow([token, user, user, "system:masters"])
        self._write("tokens.csv", rows.getvalue().encode())

    def _spawn(self, name: str, args: list[str], env: dict[str, str] | None = None) -> subprocess.Popen[bytes]:
        log = open(self._path(f"{name}.log"), "wb")
        try:
            proc = subprocess.Popen(
                args,
                env=None if env is None else {**os.environ, **env},
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                cwd=self._dir,
                preexec_fn=_die_with_parent,
                start_new_session=True,  # a Ctrl-C in the terminal reaches pytest, not the servers
            )
        finally:
            log.close()
        self._procs.append(proc)
        record_process(self._run_log, proc.pid, name)
        return proc

    def _start_etcd(self, assets: Path) -> None:
        client_port, peer_port = _free_port(), _free_port()
        self.etcd_url = f"http://127.0.0.1:{client_port}"
        peer_url = f"http://127.0.0.1:{peer_port}"
        self._spawn(
            "etcd",
            [
                str(assets / "etcd"),
                "--name=kgen-envtest",
                f"--data-dir={self._path('etcd-data')}",
                f"--listen-client-urls={self.etcd_url}",
                f"--advertise-client-urls={self.etcd_url}",
                f"--listen-peer-urls={peer_url}",
                f"--initial-advertise-peer-urls={peer_url}",
                f"--initial-cluster=kgen-envtest={peer_url}",
                "--unsafe-no-fsync=true",  # test data: durability across power loss is not needed
                "--log-level=warn",
            ],
        )

    def _start_apiserver(self, assets: Path) -> None:
        port = _free_port()
        self.url = f"https://127.0.0.1:{port}"
        flags = self._default_apiserver_flags(port)
        self._spawn("kube-apiserver", [str(assets / "kube-apiserver"), *flags, *self._apiserver_flags])

    def _default_apiserver_flags(self, port: int) -> list[str]:
        # A method so that the whole-cluster harness (_cluster.py) can start the same apiserver
        # with a cluster's admission and authorization instead of these envtest ones.
        return [
            f"--etcd-servers={self.etcd_url}",
            "--bind-address=127.0.0.1",
            "--advertise-address=127.0.0.1",
            f"--secure-port={port}",
            f"--cert-dir={self._path('certs')}",
            f"--tls-cert-file={self._path('serving.crt')}",
            f"--tls-private-key-file={self._path('serving.key')}",
            f"--client-ca-file={self._path('ca.crt')}",
            f"--token-auth-file={self._path('tokens.csv')}",
            "--authorization-mode=RBAC",
            "--service-cluster-ip-range=10.0.0.0/24",
            "--service-account-issuer=https://kubernetes.default.svc.cluster.local",
            f"--service-account-key-file={self._path('sa.pub')}",
            f"--service-account-signing-key-file={self._path('sa.key')}",
            # No controller-manager creates the default ServiceAccount, so pods would be refused.
            "--disable-admission-plugins=ServiceAccount",
            "--allow-privileged=true",
            # The reconciler refuses a loopback advertise address; there are no nodes to reach anyway.
            "--endpoint-reconciler-type=none",
            "--profiling=false",
        ]

    @property
    def ca_pem(self) -> bytes:
        """The CA that signed the serving certificate (and the client certificates)."""
        return self._ca_pem

    def admin_client(self, **kwargs: Any) -> httpx.Client:
        """A plain httpx client authenticated as the admin identity (for harness and tests)."""
        ctx = ssl.create_default_context(cadata=self._ca_pem.decode())
        ctx.load_cert_chain(str(self._path("admin.crt")), str(self._path("admin.key")))
        return httpx.Client(base_url=self.url, verify=ctx, **kwargs)

    def _wait_ready(self, started: float) -> None:
        deadline = started + self._startup_timeout
        with self.admin_client(timeout=5.0) as client:
            while True:
                for proc, name in zip(self._procs, ("etcd", "kube-apiserver")):
                    if proc.poll() is not None:
                        raise StartupError(
                            f"{name} exited with code {proc.returncode}; its log ends:\n"
                            + _tail(self._path(f"{name}.log"))
                        )
                try:
                    if client.get("/readyz").status_code == 200:
                        break
                except httpx.TransportError:
                    pass
                if time.monotonic() > deadline:
                    raise StartupError(
                        f"kube-apiserver not ready after {self._startup_timeout:.0f}s; its log ends:\n"
                        + _tail(self._path("kube-apiserver.log"))
                    )
                time.sleep(0.1)
            self.version_info = client.get("/version").json()
            self.version = str(self.version_info.get("gitVersion", ""))

    def _kubeconfig(self, user: str, pair: KeyPair, namespace: str = "default") -> dict[str, Any]:
        return {
            "apiVersion": "v1",
            "kind": "Config",
            "clusters": [
                {"name": "envtest", "cluster": {"server": self.url, "certificate-authority-data": _b64(self._ca_pem)}}
            ],
            "users": [
                {
                    "name": user,
                    "user": {
                        "client-certificate-data": _b64(pair.cert_pem),
                        "client-key-data": _b64(pair.key_pem),
                    },
                }
            ],
            "contexts": [{"name": user, "context": {"cluster": "envtest", "user": user, "namespace": namespace}}],
            "current-context": user,
        }

    def _write_kubeconfigs(self) -> None:
        self.kubeconfig = self._write(
            "admin.kubeconfig", yaml.safe_dump(self._kubeconfig(ADMIN_USER, self._admin)).encode()
        )
        self.restricted_kubeconfig = self._write(
            "restricted.kubeconfig",
            yaml.safe_dump(self._kubeconfig(RESTRICTED_USER, self._restricted, RESTRICTED_NAMESPACE)).encode(),
        )

    def _create_restricted_identity(self) -> None:
        ns = RESTRICTED_NAMESPACE
        objects = [
            ("/api/v1/namespaces", {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": ns}}),
            (
                f"/apis/rbac.authorization.k8s.io/v1/namespaces/{ns}/roles",
                {
                    "apiVersion": "rbac.authorization.k8s.io/v1",
                    "kind": "Role",
                    "metadata": {"name": "configmap-reader"},
                    "rules": [{"apiGroups": [""], "resources": ["configmaps"], "verbs": ["get", "list", "watch"]}],
                },
            ),
            (
                f"/apis/rbac.authorization.k8s.io/v1/namespaces/{ns}/rolebindings",
                {
                    "apiVersion": "rbac.authorization.k8s.io/v1",
                    "kind": "RoleBinding",
                    "metadata": {"name": "configmap-reader"},
                    "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "Role", "name": "configmap-reader"},
                    "subjects": [{"apiGroup": "rbac.authorization.k8s.io", "kind": "User", "name": RESTRICTED_USER}],
                },
            ),
        ]
        with self.admin_client(timeout=30.0) as client:
            for path, body in objects:
                response = client.post(path, json=body)
                if response.status_code not in (200, 201, 409):
                    raise StartupError(f"creating {path}: HTTP {response.status_code}: {response.text}")

    # -- etcd, for tests that need what only etcd can do -------------------------------------

    def compact_etcd(self) -> int:
        """Compacts etcd's history up to its current revision; returns that revision (a second call
        with no write in between compacts nothing, and returns the same revision).

        Uses etcd's v3 API (the JSON gateway of its gRPC KV service). Afterwards a watch from a
        resourceVersion older than the returned revision that reaches etcd (``watch_cache=False``)
        fails with 410 Gone.
        """
        with httpx.Client(base_url=self.etcd_url, timeout=30.0) as etcd:
            head = etcd.post("/v3/kv/range", json={"key": _b64(b"/"), "limit": 1})
            head.raise_for_status()
            revision = int(head.json()["header"]["revision"])
            done = etcd.post("/v3/kv/compaction", json={"revision": revision, "physical": True})
            if not (done.status_code == 400 and "compacted" in done.text):  # nothing new since the last one
                done.raise_for_status()
        return revision

    def __repr__(self) -> str:
        state = "running" if self.running else "stopped"
        return f"KubeAPIServer(url={self.url!r}, version={self.version!r}, {state})"


