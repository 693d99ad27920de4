"""The controller: sources → rate-limited workqueue → ``max_concurrent_reconciles`` workers
(controller-runtime's pkg/internal/controller, on threads).

``start(stop)`` starts the sources (their handlers fill the queue), waits until every source
has synced — a reconcile must never see a half-filled cache, where a missing owned object would
look deleted — then starts the workers and blocks until ``stop`` is set. Each worker takes a
request, calls the reconciler and applies controller-runtime's rules to what it returned
(``outcome.py``); the workqueue guarantees that no two workers hold the same request.

Stopping follows controller-runtime's: the queue shuts down (new events are ignored), workers
finish the reconcile in flight and what is still queued, then exit; ``start`` returns when they
have, or when ``graceful_timeout`` runs out (the late workers are left behind and logged).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

from kgen.runtime.controller.metrics import ControllerMetrics, Registry, WorkqueueMetrics
from kgen.runtime.controller.outcome import RESULT_LABELS, apply, as_result, decide
from kgen.runtime.controller.reconcile import Reconciler, Request, Result
from kgen.runtime.controller.source import Source
from kgen.runtime.util.workqueue import (
    AsyncRateLimitingQueue,
    RateLimiter,
    RateLimitingQueue,
    default_controller_rate_limiter,
)

__all__ = ["Controller", "ControllerCore"]

log = logging.getLogger("kgen.runtime.controller")

ReconcileFn = Callable[[Request], "Result | None"]


class ControllerCore:
    """What both flavours share: the name, the metrics, the sources, and what happens after a
    reconcile (``finish``: controller-runtime's rules, its metrics and its log line). A flavour
    adds its queue, its workers and how it waits."""

    queue: RateLimitingQueue[Request] | AsyncRateLimitingQueue[Request]

    def __init__(
        self, name: str, *, max_concurrent_reconciles: int, registry: Registry | None, cache_sync_timeout: float,
    ) -> None:
        if max_concurrent_reconciles < 1:
            raise ValueError(f"max_concurrent_reconciles must be at least 1, not {max_concurrent_reconciles}")
        if not name:
            raise ValueError("a controller needs a name (it labels its metrics and its queue)")
        self.name = name
        self.max_concurrent_reconciles = max_concurrent_reconciles
        self.cache_sync_timeout = cache_sync_timeout
        self.registry = registry if registry is not None else Registry()
        self.metrics = ControllerMetrics(self.registry, name)
        self.metrics.init(RESULT_LABELS, max_concurrent_reconciles)
        self._sources: list[Source] = []
        self._lock = threading.Lock()
        self._started = False

    def _begin(self) -> list[Source]:
        with self._lock:
            if self._started:
                raise RuntimeError(f"controller {self.name} was already started")
            self._started = True
            return list(self._sources)

    def _sync_deadline_passed(self, sources: list[Source], deadline: float) -> bool | None:
        """One poll of the wait for the sources' sync: True once synced, None to wait on."""
        if all(s.has_synced() for s in sources):
            return True
        if time.monotonic() > deadline:
            raise TimeoutError(f"controller {self.name}: timed out waiting for cache to be synced")
        return None

    def finish(self, request: Request, result: Result | None, error: BaseException | None, started: float) -> None:
        """Applies controller-runtime's rules to one reconcile's outcome, and counts it."""
        decision = decide(result, error)
        apply(decision, self.queue, request)
        self.metrics.total.labels(self.name, decision.result_label).inc()
        if decision.error:
            self.metrics.errors.labels(self.name).inc()
            if decision.terminal:
                self.metrics.terminal_errors.labels(self.name).inc()
            log.error("controller %s: reconciler error for %s: %s", self.name, request, error,
                      exc_info=error if not decision.terminal else None)
        self.metrics.time.labels(self.name).observe(time.monotonic() - started)


class Controller(ControllerCore):
    """The controller on threads."""

    queue: RateLimitingQueue[Request]

    def __init__(
        self,
        name: str,
        reconciler: Reconciler | ReconcileFn,
        *,
        max_concurrent_reconciles: int = 1,
        rate_limiter: RateLimiter[Request] | None = None,
        registry: Registry | None = None,
        cache_sync_timeout: float = 120.0,
    ) -> None:
        super().__init__(name, max_concurrent_reconciles=max_concurrent_reconciles, registry=registry,
                         cache_sync_timeout=cache_sync_timeout)
        self._reconcile: ReconcileFn = reconciler.reconcile if isinstance(reconciler, Reconciler) else reconciler
        self.queue = RateLimitingQueue(
            rate_limiter or default_controller_rate_limiter(), name=name, metrics_provider=WorkqueueMetrics(self.registry)
        )

    def watch(self, source: Source) -> None:
        """Adds a source; once the controller runs, it starts at once."""
        with self._lock:
            self._sources.append(source)
            started = self._started
        if started:
            source.start(self.queue)

    # -- running ------------------------------------------------------------------------------

    def start(self, stop: threading.Event, graceful_timeout: float = 30.0) -> None:
        """Runs until ``stop`` is set, then drains (see the module's docstring)."""
        sources = self._begin()
        try:
            for source in sources:
                source.start(self.queue)
            if not self._wait_for_sync(sources, stop):
                return
            workers = [
                threading.Thread(target=self._worker, name=f"{self.name}-worker-{i}", daemon=True)
                for i in range(self.max_concurrent_reconciles)
            ]
            for worker in workers:
                worker.start()
            log.info("controller %s: started %d workers", self.name, len(workers))
            stop.wait()
            log.info("controller %s: shutdown signal received, waiting for all workers to finish", self.name)
            self.queue.shut_down()
            deadline = time.monotonic() + graceful_timeout
            for worker in workers:
                worker.join(max(0.0, deadline - time.monotonic()))
            late = [w.name for w in workers if w.is_alive()]
            if late:
                log.error("controller %s: workers still reconciling after %gs: %s", self.name, graceful_timeout, late)
            else:
                log.info("controller %s: all workers finished", self.name)
        finally:
            self.queue.shut_down()
            for source in sources:
                source.stop()

    def _wait_for_sync(self, sources: list[Source], stop: threading.Event) -> bool:
        deadline = time.monotonic() + self.cache_sync_timeout
        while self._sync_deadline_passed(sources, deadline) is None:
            if stop.wait(0.05):
                return False
        return True

    def _worker(self) -> None:
        while self.process_next_work_item():
            pass

    def process_next_work_item(self) -> bool:
        """Takes one request and reconciles it; False once the queue has shut down."""
        request, shutdown = self.queue.get()
        if shutdown:
            return False
        active = self.metrics.active.labels(self.name)
        active.inc()
        try:
            self.reconcile_handler(request)
        finally:
            active.dec()
            self.queue.done(request)
        return True

    def reconcile_handler(self, request: Request) -> None:
        """One reconcile and controller-runtime's rules on its outcome."""
        started = time.monotonic()
        result: Result | None = None
        error: Exception | None = None
        try:
            result = as_result(self._reconcile(request))
        except Exception as e:  # noqa: BLE001 - any failure is retried with backoff
            error = e
        self.finish(request, result, error, started)
