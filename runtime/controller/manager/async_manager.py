"""The Manager on asyncio: ``Manager``'s options, sequence and rules (manager.py), with the
cache, the client, the controllers and leader election on one event loop.

    manager = AsyncManager(config, leader_election=True, leader_election_id="foo-controller")
    async_controller_managed_by(manager).for_(Foo).owns(Deployment).complete(FooReconciler(manager.client))
    await manager.start()        # until SIGTERM/SIGINT (on the main thread) or manager.stop()

Controllers are ``AsyncController``s (async reconcilers), the client is an ``AsyncClient``,
leader election is client-go's on the ``AsyncLeaderElector``. The probe and metrics endpoints are
the same stdlib servers on their own threads: they only read the registry and run the checks,
which must therefore be plain functions. So is the webhook server (``manager.webhook_server``,
as in manager.py): validators, defaulters and conversions are plain functions on its threads.
``stop()`` may be called from any thread.
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import threading
import time
from typing import Any

from kgen.runtime.controller.cluster.async_cache import AsyncCache
from kgen.runtime.controller.cluster.async_client import AsyncClient
from kgen.runtime.controller.async_controller import AsyncController
from kgen.runtime.controller.cluster.cache import CacheSyncTimeout
from kgen.runtime.controller.manager.manager import ManagerCore
from kgen.runtime.controller.manager.runnable import RunnableEntry
from kgen.runtime.controller.metrics import rest_client_metrics
from kgen.runtime.rest.client import AsyncRESTClient
from kgen.runtime.rest.config import Config
from kgen.runtime.tools.leaderelection import AsyncLeaderElector

__all__ = ["AsyncManager"]

log = logging.getLogger("kgen.runtime.controller.manager.manager")


class AsyncManager(ManagerCore):
    """asyncio's ``Manager``: the shared cache, clients, probes and metrics, and its controllers as
    tasks on one running loop."""

    cache: AsyncCache
    _controllers: list[AsyncController]
    _controller_type = AsyncController
    _asynchronous = True

    def _make_clients(self, config: Config, namespace: str | None, sync_period: float, cache_sync_timeout: float,
                      transport: Any) -> None:
        self.rest = AsyncRESTClient(config, transport=transport, metrics=rest_client_metrics(self.registry))
        self.cache = AsyncCache(self.rest, namespace=namespace, resync=sync_period, sync_timeout=cache_sync_timeout,
                                options=self.cache_options)
        self.client = AsyncClient(self.rest, self.cache)
        self._stop_requested = threading.Event()  # stop() before start(), or from another thread
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None

    def _event_loop(self) -> asyncio.AbstractEventLoop | None:
        return self._loop

    def stop(self) -> None:
        """Asks a running ``start`` to drain and return; any thread."""
        self._stop_requested.set()
        loop, stop = self._loop, self._stop
        if loop is not None and stop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(stop.set)

    async def start(self) -> None:
        """Run until SIGTERM/SIGINT or ``stop()``; see ``Manager.start``."""
        self._begin()
        self._loop, self._stop = asyncio.get_running_loop(), asyncio.Event()
        stop = self._stop
        if self._stop_requested.is_set():
            stop.set()
        remove = self._install_signal_handlers(self._loop)
        try:
            self._start_servers()
            self.cache.start()
            await self._wait_for_cache_sync(stop)
            if not stop.is_set():
                others = self._start_runnables(False)  # the runnables every replica runs stop last
                try:
                    if self._election is None:
                        await self._lead(stop)
                    else:
                        await self._run_election(self._election, stop)
                finally:
                    await self._cancel(others)
        finally:
            remove()
            await self._close()
        self._outcome()

    async def _wait_for_cache_sync(self, stop: asyncio.Event) -> None:
        deadline = time.monotonic() + self.cache.sync_timeout
        while not self.cache.has_synced() and not stop.is_set():
            if time.monotonic() > deadline:
                raise CacheSyncTimeout(f"the manager's cache did not sync within {self.cache.sync_timeout:g}s")
            await asyncio.sleep(0.05)

    async def _lead(self, leading: asyncio.Event) -> None:
        self.elected.set()
        tasks = [asyncio.create_task(self._run_controller(c, leading), name=f"controller-{c.name}")
                 for c in self._controllers]
        runnables = self._start_runnables(True)
        await leading.wait()
        await self._cancel(runnables)
        if tasks:
            await asyncio.wait(tasks, timeout=self.graceful_shutdown_timeout + 1.0)

    def _start_runnables(self, need_leader_election: bool) -> list[asyncio.Task[None]]:
        """Starts the runnables that need (or do not need) the election, each as a task."""
        return [asyncio.create_task(self._run_runnable(r), name=f"runnable-{r.name}")
                for r in self._runnables if r.need_leader_election is need_leader_election]

    async def _cancel(self, tasks: list[asyncio.Task[None]]) -> None:
        """Cancels runnables' tasks and waits for them to end (within the graceful shutdown timeout)."""
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.wait(tasks, timeout=self.graceful_shutdown_timeout + 1.0)

    async def _run_runnable(self, runnable: RunnableEntry) -> None:
        try:
            await runnable.start()
        except Exception as e:  # noqa: BLE001 - a runnable failing stops the manager, as in controller-runtime
            log.error("runnable %s failed: %s", runnable.name, e)
            self._failures.append(f"runnable {runnable.name} failed: {e}")
            if self._stop is not None:
                self._stop.set()

    async def _run_controller(self, controller: AsyncController, leading: asyncio.Event) -> None:
        try:
            await controller.start(leading, self.graceful_shutdown_timeout)
        except Exception as e:  # noqa: BLE001 - one controller failing stops the manager, as in controller-runtime
            log.error("controller %s failed: %s", controller.name, e)
            self._failures.append(f"controller {controller.name} failed: {e}")
            if self._stop is not None:
                self._stop.set()

    async def _run_election(self, election: dict[str, Any], stop: asyncio.Event) -> None:
        drained = asyncio.Event()

        async def on_started_leading(leading: asyncio.Event) -> None:
            try:
                await self._lead(leading)
            finally:
                drained.set()

        def on_stopped_leading() -> None:
            if not stop.is_set():
                self._lost = True
                log.error("leader election lost")
                stop.set()

        options = dict(election)
        namespace, name = options.pop("namespace"), options.pop("name")
        elector = AsyncLeaderElector(
            self.rest, namespace, name, self.identity, on_started_leading=on_started_leading,
            on_stopped_leading=on_stopped_leading, **options,
        )
        await elector.run(stop)
        if self.elected.is_set():
            try:
                await asyncio.wait_for(drained.wait(), self.graceful_shutdown_timeout + 1.0)
            except asyncio.TimeoutError:
                log.error("controllers still draining after %gs", self.graceful_shutdown_timeout)

    def _install_signal_handlers(self, loop: asyncio.AbstractEventLoop) -> Any:
        if threading.current_thread() is not threading.main_thread():
            return lambda: None
        signals = (signal.SIGTERM, signal.SIGINT)

        def handle() -> None:
            self._signals += 1
            if self._signals > 1:
                os._exit(1)  # a second signal: exit directly (controller-runtime's SetupSignalHandler)
            self.stop()

        for sig in signals:
            loop.add_signal_handler(sig, handle)

        def remove() -> None:
            for sig in signals:
                loop.remove_signal_handler(sig)

        return remove

    async def _close(self) -> None:
        await self.cache.stop()
        # Off the loop: the webhook server's stop waits for the requests in flight to finish.
        await asyncio.to_thread(self._stop_servers)
        await self.rest.close()
