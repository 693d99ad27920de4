"""The controller on asyncio: the same sources, rules and metrics as ``Controller`` (threads),
with ``max_concurrent_reconciles`` worker tasks on one event loop and ``reconcile`` awaited.

Everything but the waiting is ``ControllerCore``'s (controller.py) and ``outcome.py``'s, so both
flavours apply controller-runtime's rules identically; the tests of the rules run on both. The
queue is the workqueue's ``AsyncRateLimitingQueue``: its ``add`` belongs to the loop's thread,
so sources must be asyncio informers (``AsyncSharedIndexInformer``), whose handlers run there.

``await controller.start(stop)`` waits for the sources' sync, runs the workers until ``stop``
(an ``asyncio.Event``) is set, then shuts the queue down and lets the workers finish what is in
flight and queued within ``graceful_timeout``; workers still running then are cancelled.

``reconcile_timeout``, ``recover_panic`` and ``max_retries`` as on threads (controller.py's
docstring), except that a timeout cancels the reconcile's task at the deadline: the reconcile
sees ``CancelledError`` at its current await, and the request is requeued with a
``ReconcileTimeout`` error. Code that runs without awaiting (a CPU-bound loop, a blocking call)
cannot be interrupted there either; the timeout then takes effect at its next await.
``on_give_up`` may be a coroutine function.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
import time
from typing import Any

from kgen.runtime.controller.controller import ControllerCore, GiveUpHook
from kgen.runtime.controller.metrics import Registry, WorkqueueMetrics
from kgen.runtime.controller.outcome import as_result, is_panic
from kgen.runtime.controller.reconcile import AsyncReconciler, AsyncReconcilerFunc, Request, Result, reconcile_deadline
from kgen.runtime.controller.source import Source
from kgen.runtime.util.workqueue import AsyncRateLimitingQueue, RateLimiter, default_controller_rate_limiter

__all__ = ["AsyncController"]

log = logging.getLogger("kgen.runtime.controller")


class AsyncController(ControllerCore):
    """asyncio's ``Controller``: sources feed a rate-limited queue of ``Request``s, and
    ``max_concurrent_reconciles`` tasks reconcile them on the running loop."""

    queue: AsyncRateLimitingQueue[Request]

    def __init__(
        self,
        name: str,
        reconciler: AsyncReconciler | AsyncReconcilerFunc,
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
        method: Any = reconciler.reconcile if isinstance(reconciler, AsyncReconciler) else reconciler
        if not inspect.iscoroutinefunction(method):
            raise TypeError(f"controller {name}: the asyncio controller needs an async reconcile, not {method!r}")
        self._reconcile: AsyncReconcilerFunc = method
        self.queue = AsyncRateLimitingQueue(
            rate_limiter or default_controller_rate_limiter(), name=name, metrics_provider=WorkqueueMetrics(self.registry)
        )

    def watch(self, source: Source) -> None:
        """Adds a source; once the controller runs, it starts at once (on the loop's thread)."""
        with self._lock:
            self._sources.append(source)
            started = self._started
        if started:
            source.start(self.queue)

    async def start(self, stop: asyncio.Event, graceful_timeout: float = 30.0) -> None:
        """Run until ``stop`` is set, then drain: workers get ``graceful_timeout`` seconds to finish,
        then are cancelled."""
        sources = self._begin()
        try:
            for source in sources:
                source.start(self.queue)
            deadline = time.monotonic() + self.cache_sync_timeout
            while self._sync_deadline_passed(sources, deadline) is None:
                if stop.is_set():
                    return
                await asyncio.sleep(0.05)
            workers = [
                asyncio.create_task(self._worker(), name=f"{self.name}-worker-{i}")
                for i in range(self.max_concurrent_reconciles)
            ]
            log.info("controller %s: started %d workers", self.name, len(workers))
            stopped = asyncio.create_task(stop.wait())
            await asyncio.wait([stopped, *workers], return_when=asyncio.FIRST_COMPLETED)  # stop, or a crash
            stopped.cancel()
            log.info("controller %s: shutdown signal received, waiting for all workers to finish", self.name)
            self.queue.shut_down()
            _, late = await asyncio.wait(workers, timeout=graceful_timeout)
            for task in late:
                task.cancel()
            if late:
                log.error("controller %s: workers still reconciling after %gs were cancelled", self.name, graceful_timeout)
        finally:
            self.queue.shut_down()
            for source in sources:
                source.stop()
        if self._crash is not None:
            raise self._crash

    async def _worker(self) -> None:
        while self._crash is None and await self.process_next_work_item():
            pass

    async def process_next_work_item(self) -> bool:
        """Take one request and reconcile it; False once the queue has shut down."""
        request, shutdown = await self.queue.get()
        if shutdown:
            return False
        active = self.metrics.active.labels(self.name)
        active.inc()
        try:
            await self.reconcile_handler(request)
        finally:
            active.dec()
            self.queue.done(request)
        return True

    async def reconcile_handler(self, request: Request) -> None:
        """One reconcile and controller-runtime's rules on its outcome."""
        started = time.monotonic()
        result: Result | None = None
        error: BaseException | None = None
        try:
            if self.reconcile_timeout is None:
                result = as_result(await self._reconcile(request))
            else:
                deadline = asyncio.timeout(self.reconcile_timeout)
                reconcile_deadline.set(started + self.reconcile_timeout)  # this worker task's context
                try:
                    async with deadline:
                        result = as_result(await self._reconcile(request))
                except TimeoutError as e:
                    if not deadline.expired():
                        raise  # the reconcile's own TimeoutError: an error like any other
                    raise self.timeout_error(request, time.monotonic() - started) from e
        except Exception as e:  # noqa: BLE001 - errors and recovered panics are retried with backoff
            if is_panic(e) and not self.panicked(request, e):
                self.queue.forget(request)
                return
            error = e
        given_up = self.finish(request, result, error, started)
        if given_up is not None and self.on_give_up is not None:
            try:
                outcome = self.on_give_up(request, given_up)
                if inspect.isawaitable(outcome):
                    await outcome
            except Exception:  # noqa: BLE001 - a failing hook is logged; the controller goes on
                log.exception("controller %s: on_give_up failed for %s", self.name, request)
