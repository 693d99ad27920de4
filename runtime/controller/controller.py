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

Errors and panics. Go's reconciler returns an error or panics; in Python both are exceptions, so
they are told apart by class (``outcome.is_panic``): what the reconciler means as an error —
kgen's ``ApiError``, transport errors (``OSError``, ``httpx.HTTPError``), ``ReconcileError``,
``TerminalError`` — is an error; any other exception escaping it (``KeyError``,
``AttributeError``...: a bug) is a panic. With ``recover_panic=True`` (controller-runtime's
default since v0.22, and v0.25.3's) a panic is logged with its traceback, counted in
``controller_runtime_reconcile_panics_total`` and ``..._reconcile_errors_total``, and the request
is requeued with backoff, as an error is. With ``recover_panic=False`` it is counted, then ends the
controller: ``start`` raises it once the workers stopped, and the manager stops with the failure
(Go's process would crash).

``reconcile_timeout`` (controller-runtime's ReconciliationTimeout): a thread cannot be interrupted
from outside — Python has no safe way to stop a thread blocked in a socket read or running C
code — so on threads the reconcile runs to its end, and one that took longer than the timeout is
counted in ``controller_runtime_reconcile_timeouts_total`` and reported as a ``ReconcileTimeout``
error (requeued with backoff), whatever it returned: what a Go reconciler that honours its
context's deadline does. A reconcile that must stop early checks ``reconcile.time_left()`` (Go's
``ctx.Done()``, cooperatively). The asyncio controller cancels the reconcile's task at the deadline
(its awaits are interrupted); ``time_left()`` works there too.

``max_retries=N``: after N failed attempts in a row for one request (errors and panics; a success
or a terminal error resets the count) the request is not requeued; ``on_give_up(request, error)``
is called (``patterns.retry.give_up_with_condition`` writes a terminal condition). A new event for
the object enqueues it again, with a fresh count.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from kgen.runtime.controller.metrics import ControllerMetrics, Registry, WorkqueueMetrics
from kgen.runtime.controller.outcome import ERROR, RESULT_LABELS, Decision, apply, as_result, decide, is_panic
from kgen.runtime.controller.reconcile import Reconciler, ReconcileTimeout, Request, Result, reconcile_deadline
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
GiveUpHook = Callable[[Request, BaseException], Any]
"""Called when ``max_retries`` failed attempts of a request are spent: ``(request, last error)``; the
asyncio controller awaits what it returns when that is awaitable."""


class ControllerCore:
    """What both flavours share: the name, the metrics, the sources, and what happens after a
    reconcile (``finish``: controller-runtime's rules, its metrics and its log line). A flavour
    adds its queue, its workers and how it waits."""

    queue: RateLimitingQueue[Request] | AsyncRateLimitingQueue[Request]

    def __init__(
        self, name: str, *, max_concurrent_reconciles: int, registry: Registry | None, cache_sync_timeout: float,
        reconcile_timeout: float | None = None, recover_panic: bool = True, max_retries: int | None = None,
        on_give_up: GiveUpHook | None = None,
    ) -> None:
        if reconcile_timeout is not None and reconcile_timeout <= 0:
            raise ValueError(f"reconcile_timeout must be positive seconds (or None), not {reconcile_timeout}")
        if max_retries is not None and max_retries < 1:
            raise ValueError(f"max_retries must be at least 1 (or None: retry forever), not {max_retries}")
        self.reconcile_timeout = reconcile_timeout
        self.recover_panic = recover_panic
        self.max_retries = max_retries
        self.on_give_up = on_give_up
        self._failures: dict[Request, int] = {}
        self._crash: BaseException | None = None
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

    def timeout_error(self, request: Request, elapsed: float) -> ReconcileTimeout:
        """The error a reconcile past ``reconcile_timeout`` is reported with (and counts it)."""
        self.metrics.timeouts.labels(self.name).inc()
        return ReconcileTimeout(
            f"reconciliation timeout: {request} took {elapsed:.3g}s, past reconcile_timeout {self.reconcile_timeout:g}s"
        )

    def panicked(self, request: Request, error: BaseException) -> bool:
        """Counts a panic; True if it is recovered (then it is handled as an error), False if it must
        end the controller (``recover_panic=False``)."""
        self.metrics.panics.labels(self.name).inc()
        if self.recover_panic:
            return True
        log.error("controller %s: observed a panic in reconciler for %s: %r", self.name, request, error, exc_info=error)
        with self._lock:
            self._crash = self._crash or error
        return False

    def _counted(self, request: Request, decision: Decision) -> bool:
        """Keeps the count of failed attempts for ``max_retries``; True when this one spends them."""
        with self._lock:
            if not decision.error or decision.terminal:
                self._failures.pop(request, None)
                return False
            if self.max_retries is None:
                return False
            failures = self._failures.get(request, 0) + 1
            if failures < self.max_retries:
                self._failures[request] = failures
                return False
            self._failures.pop(request, None)
            return True

    def finish(
        self, request: Request, result: Result | None, error: BaseException | None, started: float
    ) -> BaseException | None:
        """Applies controller-runtime's rules to one reconcile's outcome, and counts it; returns the
        error when this failure spent ``max_retries`` (the request is then forgotten, not requeued, and
        the flavour calls ``on_give_up``)."""
        decision = decide(result, error)
        given_up = self._counted(request, decision)
        if given_up:
            decision = Decision(ERROR, forget=True, error=True)
        apply(decision, self.queue, request)
        self.metrics.total.labels(self.name, decision.result_label).inc()
        if decision.error:
            self.metrics.errors.labels(self.name).inc()
            if decision.terminal:
                self.metrics.terminal_errors.labels(self.name).inc()
            panic = error is not None and is_panic(error)
            log.error("controller %s: %s for %s: %s%s", self.name, "panic in reconciler" if panic else "reconciler error",
                      request, error if not panic else repr(error), " [recovered]" if panic else "",
                      exc_info=error if not decision.terminal else None)
            if given_up:
                log.error("controller %s: giving up on %s after %d failed attempts", self.name, request, self.max_retries)
        self.metrics.time.labels(self.name).observe(time.monotonic() - started)
        return error if given_up else None


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
        reconcile_timeout: float | None = None,
        recover_panic: bool = True,
        max_retries: int | None = None,
        on_give_up: GiveUpHook | None = None,
    ) -> None:
        super().__init__(name, max_concurrent_reconciles=max_concurrent_reconciles, registry=registry,
                         cache_sync_timeout=cache_sync_timeout, reconcile_timeout=reconcile_timeout,
                         recover_panic=recover_panic, max_retries=max_retries, on_give_up=on_give_up)
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
            while not stop.wait(0.2) and self._crash is None:
                pass
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
        if self._crash is not None:
            raise self._crash

    def _wait_for_sync(self, sources: list[Source], stop: threading.Event) -> bool:
        deadline = time.monotonic() + self.cache_sync_timeout
        while self._sync_deadline_passed(sources, deadline) is None:
            if stop.wait(0.05):
                return False
        return True

    def _worker(self) -> None:
        while self._crash is None and self.process_next_work_item():
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
        error: BaseException | None = None
        token = reconcile_deadline.set(None if self.reconcile_timeout is None else started + self.reconcile_timeout)
        try:
            result = as_result(self._reconcile(request))
        except Exception as e:  # noqa: BLE001 - errors and recovered panics are retried with backoff
            if is_panic(e) and not self.panicked(request, e):
                self.queue.forget(request)
                return
            error = e
        finally:
            reconcile_deadline.reset(token)
        elapsed = time.monotonic() - started
        if self.reconcile_timeout is not None and elapsed > self.reconcile_timeout:
            timeout = self.timeout_error(request, elapsed)
            if error is None:
                error, result = timeout, None
        given_up = self.finish(request, result, error, started)
        if given_up is not None and self.on_give_up is not None:
            try:
                self.on_give_up(request, given_up)
            except Exception:  # noqa: BLE001 - a failing hook is logged; the controller goes on
                log.exception("controller %s: on_give_up failed for %s", self.name, request)
