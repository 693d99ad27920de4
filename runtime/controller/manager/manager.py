"""controller-runtime's Manager (pkg/manager): one cache, one client, controllers, leader
election, probes, metrics, and a graceful stop.

    manager = Manager(config, leader_election=True, leader_election_id="foo-controller",
                      health_probe_address=":8081", metrics_address=":8080")
    controller_managed_by(manager).for_(Foo).owns(Deployment).complete(FooReconciler(manager.client))
    manager.start()          # blocks until SIGTERM/SIGINT or manager.stop()

``start`` runs controller-runtime's sequence: the probe and metrics servers; the cache (on every
replica), waiting for its informers to sync; then, if this replica leads (immediately without
leader election), every controller. A controller that fails (its sources do not sync within
``cache_sync_timeout``) stops the manager, and ``start`` raises. On SIGTERM/SIGINT or ``stop()``: controllers stop taking new
events, finish the reconciles in flight and what is queued (within
``graceful_shutdown_timeout``), the lease is released if ``leader_election_release_on_cancel``,
the cache and servers stop, and ``start`` returns. A second signal exits at once with status 1,
as controller-runtime's SetupSignalHandler does. Losing the lease while running stops
the controllers and makes ``start`` raise ``LeaderElectionLost`` (controller-runtime exits
with "leader election lost"): this replica's cache may be behind the new leader's writes.

``add(runnable, need_leader_election=...)`` adds user work (runnable.py, controller-runtime's
Runnable): started with the controllers when it needs the election (the default), else once the
cache has synced on every replica; stopped with them, the ones every replica runs last.

``debug_stacks=True`` serves ``/debug/stacks`` beside ``/metrics`` (debug.py): every thread's
stack and every asyncio task's, to see what a stuck controller is doing, in place of pprof.

Webhooks are served as controller-runtime's manager serves them: ``manager.webhook_server``
(``GetWebhookServer``) is a ``kgen.runtime.webhook.WebhookServer`` created at its first use
(``webhook_managed_by(manager)...complete()`` uses it), on ``webhook_host:webhook_port`` (9443)
with ``tls.crt``/``tls.key`` from ``webhook_cert_dir`` (``<tmp>/k8s-webhook-server/serving-certs``),
reloaded by its ``CertWatcher``. It runs on every replica, leader or not (the apiserver calls any
of them), starts first (a CRD's conversion webhook must answer before the cache can list its
objects) and stops after the controllers have drained; a readiness check ``webhook`` fails until
it completes a TLS handshake. A manager no webhook was registered on opens no port.

Leader election is client-go's, on a coordination.k8s.io Lease named ``leader_election_id`` in
``leader_election_namespace`` (default: the config's namespace), with client-go's defaults (15 s
lease, 10 s renew deadline, 2 s retry), identity ``<hostname>_<uuid>`` as controller-runtime's.

``transport`` is the httpx transport of the manager's REST client (``AsyncManager``: an async
one). A fake clientset's (``Manager(fake.config, transport=fake.tracker.transport())``) runs the
whole manager, cache, controllers and leader election included, on the in-memory apiserver of
``kgen.runtime.fake``: a controller's unit test without a cluster.

Client-side throttling is off unless asked for: controller-runtime's config getters
(pkg/client/config, since v0.21, PR #3119) set ``QPS = -1`` when the config leaves it 0, relying
on the apiserver's priority and fairness as SIG API Machinery recommends. kgen's ``Config`` has
rest.Config's zero value (qps 0: "not set", client-go's 5/10 for a plain REST client), so the
manager (``manager_config``) does the same to a config whose qps is 0, on a copy; a qps the user
set (5, 20, -1...) is kept.

What the cache holds is ``cache_options`` (``CacheOptions``: namespaces, per-kind selectors and
transforms, cluster/options.py); ``namespace=`` caches that one namespace. ``index_field`` adds a
field index to a kind's informers, read by ``client.list(..., matching_fields=...)``.
"""

from __future__ import annotations

import dataclasses
import logging
import os
import signal
import socket
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Iterable
from pathlib import Path
from types import FrameType
from typing import Any

from kgen.runtime.controller.cluster.async_cache import AsyncCache
from kgen.runtime.controller.cluster.cache import DEFAULT_CACHE_SYNC_TIMEOUT, Cache, CacheSyncTimeout
from kgen.runtime.controller.cluster.client import Client
from kgen.runtime.controller.cluster.options import CacheOptions
from kgen.runtime.controller.controller import Controller
from kgen.runtime.controller.metrics import (
    CertWatcherMetrics,
    LeaderElectionMetrics,
    Registry,
    WebhookMetrics,
    rest_client_metrics,
)
from kgen.runtime.controller.manager.debug import dump_stacks
from kgen.runtime.controller.manager.probes import Checker, Probes
from kgen.runtime.controller.manager.runnable import RunnableEntry, runnable_entry
from kgen.runtime.controller.manager.server import Endpoint, Route, parse_address
from kgen.runtime.rest.client import RESTClient
from kgen.runtime.rest.config import Config
from kgen.runtime.tools.leaderelection import LeaderElector
from kgen.runtime.tools.record.event import EventRecorder
from kgen.runtime.webhook import DEFAULT_PORT as DEFAULT_WEBHOOK_PORT
from kgen.runtime.webhook import WebhookServer
from kgen.runtime.webhook.conversion import ConversionWebhook

__all__ = ["LeaderElectionLost", "Manager", "ManagerCore"]

log = logging.getLogger("kgen.runtime.controller.manager.manager")

DEFAULT_SYNC_PERIOD = 10 * 3600.0
"""controller-runtime's default SyncPeriod: every cached object is handed to the handlers again
this often, so a missed event is corrected eventually."""
DEFAULT_GRACEFUL_SHUTDOWN_TIMEOUT = 30.0
"""controller-runtime's defaultGracefulShutdownPeriod."""
DEFAULT_WEBHOOK_CERT_DIR = Path(tempfile.gettempdir()) / "k8s-webhook-server" / "serving-certs"
"""controller-runtime's webhook.Options.CertDir default (CertName tls.crt, KeyName tls.key)."""
CONVERSION_PATH = "/convert"
"""The path of controller-runtime's conversion webhook, shared by every converted type."""


class LeaderElectionLost(RuntimeError):
    """The manager lost its leader election lease: ``start`` stops the controllers and raises this
    (controller-runtime exits)."""


def manager_config(config: Config) -> Config:
    """The config the manager's clients use: ``config``, with client-side throttling disabled
    when its qps is not set (0), as controller-runtime's config getters do. Never mutates it."""
    return dataclasses.replace(config, qps=-1.0) if config.qps == 0 else config


class ManagerCore:
    """What both flavours share: options, registry, probes, the HTTP endpoints, the controller
    list. A flavour makes its REST client, cache and client (``_make_clients``) and runs."""

    cache: Cache | AsyncCache
    _controllers: list[Any]
    _controller_type: Any  # Controller or AsyncController: what add() takes as a controller
    _asynchronous: bool

    def __init__(
        self,
        config: Config,
        *,
        namespace: str | None = None,
        leader_election: bool = False,
        leader_election_id: str = "",
        leader_election_namespace: str | None = None,
        leader_election_release_on_cancel: bool = False,
        lease_duration: float = 15.0,
        renew_deadline: float = 10.0,
        retry_period: float = 2.0,
        identity: str | None = None,
        health_probe_address: str | None = None,
        metrics_address: str | None = None,
        debug_stacks: bool = False,
        sync_period: float = DEFAULT_SYNC_PERIOD,
        graceful_shutdown_timeout: float = DEFAULT_GRACEFUL_SHUTDOWN_TIMEOUT,
        cache_sync_timeout: float = DEFAULT_CACHE_SYNC_TIMEOUT,
        webhook_host: str = "",
        webhook_port: int = DEFAULT_WEBHOOK_PORT,
        webhook_cert_dir: str | Path | None = None,
        webhook_cert_name: str = "tls.crt",
        webhook_key_name: str = "tls.key",
        transport: Any = None,
        cache_options: CacheOptions | None = None,
    ) -> None:
        if leader_election and not leader_election_id:
            raise ValueError("leader_election needs a leader_election_id: the name of the Lease replicas compete for")
        self.registry = Registry()
        config = manager_config(config)
        self.cache_options = cache_options
        """What the cache holds of each kind (namespaces, selectors, transforms); ``namespace`` is
        ``CacheOptions(namespaces=[namespace])``."""
        self._make_clients(config, namespace, sync_period, cache_sync_timeout, transport)
        self.probes = Probes()
        self.graceful_shutdown_timeout = graceful_shutdown_timeout
        self.identity = identity or f"{socket.gethostname()}_{uuid.uuid4()}"
        self.elected = threading.Event()
        """Set once this replica leads (at once without leader election): controller-runtime's Elected()."""
        self._election: dict[str, Any] | None = None
        if leader_election:
            self._election = {
                "namespace": leader_election_namespace or config.namespace, "name": leader_election_id,
                "lease_duration": lease_duration, "renew_deadline": renew_deadline, "retry_period": retry_period,
                "release_on_cancel": leader_election_release_on_cancel,
                "metrics": LeaderElectionMetrics(self.registry),
            }
        self._controllers = []
        self._runnables: list[RunnableEntry] = []
        self._lock = threading.Lock()
        self._started = False
        self._lost = False
        self._failures: list[str] = []
        self._signals = 0
        self._servers: list[Endpoint] = []
        cert_dir = Path(webhook_cert_dir) if webhook_cert_dir is not None else DEFAULT_WEBHOOK_CERT_DIR
        self._webhook_options: dict[str, Any] = {
            "cert_file": cert_dir / webhook_cert_name, "key_file": cert_dir / webhook_key_name,
            "host": webhook_host, "port": webhook_port, "grace_period": graceful_shutdown_timeout,
            "certificate_metrics": CertWatcherMetrics(self.registry), "metrics": WebhookMetrics(self.registry),
        }
        self._webhook_server: WebhookServer | None = None
        self._conversion_webhook: ConversionWebhook | None = None
        self.health_probe_port: int | None = None
        self.metrics_port: int | None = None
        try:
            probe = parse_address(health_probe_address)
            if probe is not None:
                routes: dict[str, Route] = {p: self._probe_route for p in ("/healthz", "/readyz")}
                self._servers.append(endpoint := Endpoint(probe, routes))
                self.health_probe_port = endpoint.port
            metrics = parse_address(metrics_address)
            if debug_stacks and metrics is None:
                raise ValueError("debug_stacks serves /debug/stacks on the metrics server: give a metrics_address too")
            if metrics is not None:
                metric_routes: dict[str, Route] = {"/metrics": self._metrics_route}
                if debug_stacks:
                    metric_routes["/debug/stacks"] = self._stacks_route
                self._servers.append(endpoint := Endpoint(metrics, metric_routes))
                self.metrics_port = endpoint.port
        except BaseException:
            self._stop_servers()
            raise

    def _make_clients(self, config: Config, namespace: str | None, sync_period: float, cache_sync_timeout: float,
                      transport: Any) -> None:
        raise NotImplementedError

    def _start_servers(self) -> None:
        if self._webhook_server is not None:
            self._webhook_server.start()
        for server in self._servers:
            server.start()

    def _stop_servers(self) -> None:
        if self._webhook_server is not None:
            self._webhook_server.stop()
        for server in self._servers:
            server.stop()

    # -- webhooks --------------------------------------------------------------------------------

    @property
    def webhook_server(self) -> WebhookServer:
        """The webhook server (controller-runtime's ``GetWebhookServer``), created at first use:
        its certificate is loaded then, so a missing one is an error naming the files."""
        with self._lock:
            if self._webhook_server is None:
                if self._started:
                    raise RuntimeError("the manager started without a webhook server: register webhooks before start()")
                server = WebhookServer(**self._webhook_options)
                self.probes.add("readyz", "webhook", server.started_checker())
                self._webhook_server = server
            return self._webhook_server

    @property
    def conversion_webhook(self) -> ConversionWebhook:
        """The conversion webhook every type's conversions are registered on, served at
        ``/convert`` (controller-runtime's one conversion handler and its converter registry)."""
        server = self.webhook_server
        with self._lock:
            if self._conversion_webhook is None:
                self._conversion_webhook = ConversionWebhook()
                server.register(CONVERSION_PATH, self._conversion_webhook)
            return self._conversion_webhook

    # -- building ------------------------------------------------------------------------------

    def add(self, runnable: Any, need_leader_election: bool | None = None) -> None:
        """Adds a controller (``Builder.complete`` does) or a runnable (runnable.py: started and
        stopped with the manager, on the leader only unless ``need_leader_election`` is False or
        it says so itself); before ``start`` only."""
        with self._lock:
            if self._started:
                raise RuntimeError("the manager is already started: add controllers and runnables before start()")
            if not isinstance(runnable, self._controller_type):
                self._runnables.append(runnable_entry(runnable, need_leader_election, asynchronous=self._asynchronous))
                return
            controller = runnable
            if any(c.name == controller.name for c in self._controllers):
                raise ValueError(f"a controller named {controller.name!r} already exists: use named() to tell them apart")
            self._controllers.append(controller)

    def index_field(
        self, model: type[Any], field: str, extract: Callable[[Any], Iterable[str]], *, only_metadata: bool = False
    ) -> None:
        """controller-runtime's ``GetFieldIndexer().IndexField``: index the cached ``model`` objects
        by ``field``, the strings ``extract`` returns for each, so ``client.list(model,
        matching_fields={field: value})`` reads the index instead of scanning (cluster/field_index.py)."""
        self.cache.index_field(model, field, extract, only_metadata=only_metadata)

    def add_healthz_check(self, name: str, check: Checker) -> None:
        """Add a liveness check served at ``/healthz`` (and ``/healthz/<name>``)."""
        self.probes.add("healthz", name, check)

    def add_readyz_check(self, name: str, check: Checker) -> None:
        """Add a readiness check served at ``/readyz`` (and ``/readyz/<name>``)."""
        self.probes.add("readyz", name, check)

    def cache_synced(self) -> None:
        """A readiness check: fails until every informer of the cache has synced."""
        if not self.cache.has_synced():
            raise RuntimeError("the cache has not synced yet")

    def _probe_route(self, path: str, query: dict[str, list[str]]) -> tuple[int, str, bytes]:
        status, body = self.probes.answer(path, verbose="verbose" in query)
        return status, "text/plain; charset=utf-8", body.encode()

    def _metrics_route(self, path: str, query: dict[str, list[str]]) -> tuple[int, str, bytes]:
        return 200, "text/plain; version=0.0.4; charset=utf-8", self.registry.render().encode()

    def _stacks_route(self, path: str, query: dict[str, list[str]]) -> tuple[int, str, bytes]:
        return 200, "text/plain; charset=utf-8", dump_stacks(self._event_loop()).encode()

    def _event_loop(self) -> Any:
        """The event loop whose tasks ``/debug/stacks`` lists (the AsyncManager's), or None."""
        return None

    def _begin(self) -> None:
        with self._lock:
            if self._started:
                raise RuntimeError("a manager starts once")
            self._started = True

    def _outcome(self) -> None:
        """Raises what ended a run badly: a failed controller, or the lease lost."""
        if self._failures:
            raise RuntimeError("; ".join(self._failures))
        if self._lost:
            raise LeaderElectionLost(f"leader election lost: {self.identity} no longer holds the lease")


class Manager(ManagerCore):
    """The manager on threads."""

    cache: Cache
    _controllers: list[Controller]
    _controller_type = Controller
    _asynchronous = False

    def _make_clients(self, config: Config, namespace: str | None, sync_period: float, cache_sync_timeout: float,
                      transport: Any) -> None:
        self.rest = RESTClient(config, transport=transport, metrics=rest_client_metrics(self.registry))
        self.cache = Cache(self.rest, namespace=namespace, resync=sync_period, sync_timeout=cache_sync_timeout,
                           options=self.cache_options)
        self.client = Client(self.rest, self.cache)
        self._recorders: list[EventRecorder] = []
        self._stop = threading.Event()

    def get_event_recorder_for(self, name: str) -> EventRecorder:
        """An ``EventRecorder`` reporting as component ``name``; the manager stops it when it stops."""
        recorder = EventRecorder(self.rest, name)
        self._recorders.append(recorder)
        return recorder

    # -- running ---------------------------------------------------------------------------------

    def stop(self) -> None:
        """Asks a running ``start`` to drain and return (any thread; a signal handler does this)."""
        self._stop.set()

    def start(self) -> None:
        """Runs until SIGTERM/SIGINT or ``stop()``; see the module's docstring."""
        self._begin()
        restore = self._install_signal_handlers()
        try:
            self._start_servers()
            self.cache.start()
            self._wait_for_cache_sync()
            if not self._stop.is_set():
                others = threading.Event()  # the runnables every replica runs stop last
                threads = self._start_runnables(False, others)
                try:
                    if self._election is None:
                        self._lead(self._stop)
                    else:
                        self._run_election(self._election)
                finally:
                    others.set()
                    self._join(threads)
        finally:
            restore()
            self._close()
        self._outcome()

    def _wait_for_cache_sync(self) -> None:
        deadline = time.monotonic() + self.cache.sync_timeout
        while not self.cache.has_synced():
            if self._stop.wait(0.05):
                return
            if time.monotonic() > deadline:
                raise CacheSyncTimeout(f"the manager's cache did not sync within {self.cache.sync_timeout:g}s")

    def _lead(self, leading: threading.Event) -> None:
        """Runs every controller until ``leading`` is set, then waits for them to drain."""
        self.elected.set()
        threads = [
            threading.Thread(target=self._run_controller, args=(c, leading), name=f"controller-{c.name}", daemon=True)
            for c in self._controllers
        ]
        for thread in threads:
            thread.start()
        threads += self._start_runnables(True, leading)
        leading.wait()
        self._join(threads)

    def _join(self, threads: list[threading.Thread]) -> None:
        deadline = time.monotonic() + self.graceful_shutdown_timeout + 1.0
        for thread in threads:
            thread.join(max(0.0, deadline - time.monotonic()))

    def _start_runnables(self, need_leader_election: bool, stop: threading.Event) -> list[threading.Thread]:
        """Starts the runnables that need (or do not need) the election, each on a thread, until ``stop``."""
        threads = [
            threading.Thread(target=self._run_runnable, args=(r, stop), name=f"runnable-{r.name}", daemon=True)
            for r in self._runnables if r.need_leader_election is need_leader_election
        ]
        for thread in threads:
            thread.start()
        return threads

    def _run_runnable(self, runnable: RunnableEntry, stop: threading.Event) -> None:
        try:
            runnable.start(stop)
        except Exception as e:  # noqa: BLE001 - a runnable failing stops the manager, as in controller-runtime
            log.error("runnable %s failed: %s", runnable.name, e)
            self._failures.append(f"runnable {runnable.name} failed: {e}")
            self._stop.set()

    def _run_controller(self, controller: Controller, leading: threading.Event) -> None:
        try:
            controller.start(leading, self.graceful_shutdown_timeout)
        except Exception as e:  # noqa: BLE001 - one controller failing stops the manager, as in controller-runtime
            log.error("controller %s failed: %s", controller.name, e)
            self._failures.append(f"controller {controller.name} failed: {e}")
            self._stop.set()

    def _run_election(self, election: dict[str, Any]) -> None:
        drained = threading.Event()

        def on_started_leading(leading: threading.Event) -> None:
            try:
                self._lead(leading)
            finally:
                drained.set()

        def on_stopped_leading() -> None:
            if not self._stop.is_set():
                self._lost = True
                log.error("leader election lost")
                self._stop.set()

        options = dict(election)
        namespace, name = options.pop("namespace"), options.pop("name")
        elector = LeaderElector(
            self.rest, namespace, name, self.identity, on_started_leading=on_started_leading,
            on_stopped_leading=on_stopped_leading, **options,
        )
        elector.run(self._stop)
        if self.elected.is_set():
            drained.wait(self.graceful_shutdown_timeout + 1.0)

    def _install_signal_handlers(self) -> Any:
        if threading.current_thread() is not threading.main_thread():
            return lambda: None

        def handle(signum: int, frame: FrameType | None) -> None:
            self._signals += 1
            if self._signals > 1:
                os._exit(1)  # a second signal: exit directly (controller-runtime's SetupSignalHandler)
            self._stop.set()

        previous = {sig: signal.signal(sig, handle) for sig in (signal.SIGTERM, signal.SIGINT)}

        def restore() -> None:
            for sig, old in previous.items():
                signal.signal(sig, old)

        return restore

    def _close(self) -> None:
        self.cache.stop()
        for recorder in self._recorders:
            recorder.shutdown(timeout=5.0)
        self._stop_servers()
        self.rest.close()
