"""The leader elector on threads (``LeaderElector``) and on asyncio (``AsyncLeaderElector``).

Both run ``LeaderElectionCore``'s steps (leaderelection.py) and differ only in how they send,
wait and call back:

    elector = LeaderElector(rest, "kube-system", "my-controller", identity=socket.gethostname(),
                            on_started_leading=run_controller, on_stopped_leading=exit_process)
    elector.run(stop)             # threading.Event; AsyncLeaderElector: await elector.run(stop)

``run`` acquires the lock, starts ``on_started_leading(leading)`` — a thread, or a task when it
is a coroutine function — renews until leadership is lost or ``stop`` is set, then sets
``leading`` (the leader's work must stop), releases the lock if ``release_on_cancel`` (once
``on_started_leading`` has returned), and calls ``on_stopped_leading()``, which client-go
calls whenever ``run`` ends, also if it never led. ``on_new_leader(identity)`` is called
without waiting for it, whenever the observed leader changes.

An attempt ends by its deadline whatever the transport does: the request's httpx timeout is
what remains of it, and the driver stops waiting when it passes (the thread flavour leaves the
late answer to a helper thread, the asyncio flavour cancels the request). ``stop`` is noticed
between steps and, by the thread flavour, within ``STOP_POLL`` seconds during a request.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import inspect
import logging
import threading
import time
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any

import httpx

from kgen.runtime.rest.client import AsyncRESTClient, RESTClient
from kgen.runtime.tools.leaderelection.leaderelection import (
    DeadlineExceeded,
    LeaderElectionCore,
    NewLeader,
    Send,
    Step,
    Steps,
    T,
)
from kgen.runtime.tools.leaderelection.resourcelock import EventRecorder, LeaseLock

__all__ = ["AsyncLeaderElector", "LeaderElector", "STOP_POLL"]

log = logging.getLogger("kgen.runtime.tools.leaderelection")

STOP_POLL = 0.1
"""How soon the thread flavour notices ``stop`` while a request is in flight."""


class _Stopped(Exception):
    """The elector was stopped while a step was in flight."""


def _deadline_exceeded(step: Send) -> DeadlineExceeded:
    return DeadlineExceeded(f"{step.request.describe()}: deadline exceeded")


def _timed(step: Send, remaining: float) -> Any:
    """The step's request, with an httpx timeout of what remains of its deadline."""
    return replace(step.request, timeout=httpx.Timeout(remaining))


class LeaderElector(LeaderElectionCore):
    """Leader election on threads, with a ``RESTClient``."""

    def __init__(
        self,
        rest: RESTClient,
        namespace: str,
        name: str,
        identity: str,
        *,
        on_started_leading: Callable[[threading.Event], Any],
        on_stopped_leading: Callable[[], Any] = lambda: None,
        on_new_leader: Callable[[str], Any] = lambda identity: None,
        event_recorder: EventRecorder | None = None,
        labels: dict[str, str] | None = None,
        **config: Any,
    ) -> None:
        """``config``: lease_duration (15 s), renew_deadline (10 s), retry_period (2 s),
        release_on_cancel, clock_skew_margin (see leaderelection.py), clock, metrics (a
        ``LeaderMetric``: client-go's leader gauge hook, metrics.py)."""
        super().__init__(LeaseLock(namespace, name, identity, event_recorder=event_recorder, labels=labels), **config)
        self._rest = rest
        self.on_started_leading, self.on_stopped_leading, self.on_new_leader = (
            on_started_leading, on_stopped_leading, on_new_leader)

    def run(self, stop: threading.Event) -> None:
        """Leads until leadership is lost or ``stop`` is set; see the module's docstring."""
        try:
            if not self._drive(self.acquire_steps(), stop):
                return
            leading = threading.Event()
            worker = threading.Thread(target=self._call, args=(self.on_started_leading, leading), daemon=True,
                                      name=f"leading-{self.lock.name}")
            worker.start()
            try:
                self._drive(self.renew_steps(), stop)
            finally:
                leading.set()
                if self.release_on_cancel:
                    worker.join(self.renew_deadline)
                    if worker.is_alive():
                        log.warning("not releasing lease %s: on_started_leading has not returned", self.lock.describe())
                    else:
                        self._drive(self.release_steps(), None)
                self.lock.record_event("stopped leading")
        finally:
            self._call(self.on_stopped_leading)

    @staticmethod
    def _call(callback: Callable[..., Any], *args: Any) -> None:
        try:
            callback(*args)
        except Exception:  # noqa: BLE001 - a callback's failure is the caller's, not the election's
            log.exception("leader election callback %s failed", getattr(callback, "__name__", callback))

    def _drive(self, steps: Steps[T], stop: threading.Event | None) -> T | None:
        """Performs ``steps`` to their end (their result), or until ``stop`` (None)."""
        reply: Any = None
        error: Exception | None = None
        try:
            while stop is None or not stop.is_set():
                try:
                    step = steps.throw(error) if error is not None else steps.send(reply)
                except StopIteration as done:
                    result: T = done.value
                    return result
                reply, error = None, None
                try:
                    reply = self._perform(step, stop)
                except Exception as e:  # noqa: BLE001 - raised in the core, at the step
                    error = e
            return None
        finally:
            steps.close()

    def _perform(self, step: Step, stop: threading.Event | None) -> Any:
        if isinstance(step, Send):
            return self._send(step, stop)
        if isinstance(step, NewLeader):
            threading.Thread(target=self._call, args=(self.on_new_leader, step.identity), daemon=True,
                             name=f"new-leader-{self.lock.name}").start()
        elif stop is not None:
            stop.wait(step.seconds)
        else:
            time.sleep(step.seconds)
        return None

    def _send(self, step: Send, stop: threading.Event | None) -> bytes:
        remaining = step.deadline - self.clock()
        if remaining <= 0:
            raise _deadline_exceeded(step)
        request = _timed(step, remaining)
        answer: concurrent.futures.Future[bytes] = concurrent.futures.Future()

        def send() -> None:  # a helper thread, so that a request the transport holds up can be left
            try:
                answer.set_result(self._rest.send(request).content)
            except BaseException as e:  # noqa: BLE001 - handed to the waiter
                answer.set_exception(e)

        threading.Thread(target=send, daemon=True, name=f"lease-{self.lock.name}").start()
        while True:
            remaining = step.deadline - self.clock()
            if remaining <= 0:
                raise _deadline_exceeded(step)
            if stop is not None and stop.is_set():
                raise _Stopped()
            done, _ = concurrent.futures.wait([answer], timeout=min(remaining, STOP_POLL) if stop else remaining)
            if done:
                return answer.result()


class AsyncLeaderElector(LeaderElectionCore):
    """Leader election on asyncio, with an ``AsyncRESTClient``. Callbacks may be coroutine
    functions (awaited; ``on_started_leading`` and ``on_new_leader`` as tasks) or functions."""

    def __init__(
        self,
        rest: AsyncRESTClient,
        namespace: str,
        name: str,
        identity: str,
        *,
        on_started_leading: Callable[[asyncio.Event], Awaitable[Any] | Any],
        on_stopped_leading: Callable[[], Awaitable[Any] | Any] = lambda: None,
        on_new_leader: Callable[[str], Awaitable[Any] | Any] = lambda identity: None,
        event_recorder: EventRecorder | None = None,
        labels: dict[str, str] | None = None,
        **config: Any,
    ) -> None:
        super().__init__(LeaseLock(namespace, name, identity, event_recorder=event_recorder, labels=labels), **config)
        self._rest = rest
        self.on_started_leading, self.on_stopped_leading, self.on_new_leader = (
            on_started_leading, on_stopped_leading, on_new_leader)
        self._tasks: set[asyncio.Task[None]] = set()

    async def run(self, stop: asyncio.Event) -> None:
        """Leads until leadership is lost or ``stop`` is set (or the task is cancelled)."""
        try:
            if not await self._drive(self.acquire_steps(), stop):
                return
            leading = asyncio.Event()
            worker = self._spawn(self.on_started_leading, leading)
            try:
                await self._drive(self.renew_steps(), stop)
            finally:
                leading.set()
                if self.release_on_cancel:
                    done, _ = await asyncio.wait({worker}, timeout=self.renew_deadline)
                    if not done:
                        log.warning("not releasing lease %s: on_started_leading has not returned", self.lock.describe())
                    else:
                        await self._drive(self.release_steps(), None)
                self.lock.record_event("stopped leading")
        finally:
            await self._call(self.on_stopped_leading)

    @staticmethod
    async def _call(callback: Callable[..., Any], *args: Any) -> None:
        try:
            result = callback(*args)
            if inspect.isawaitable(result):
                await result
        except Exception:  # noqa: BLE001 - a callback's failure is the caller's, not the election's
            log.exception("leader election callback %s failed", getattr(callback, "__name__", callback))

    def _spawn(self, callback: Callable[..., Any], *args: Any) -> asyncio.Task[None]:
        task = asyncio.ensure_future(self._call(callback, *args))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def _drive(self, steps: Steps[T], stop: asyncio.Event | None) -> T | None:
        reply: Any = None
        error: Exception | None = None
        try:
            while stop is None or not stop.is_set():
                try:
                    step = steps.throw(error) if error is not None else steps.send(reply)
                except StopIteration as done:
                    result: T = done.value
                    return result
                reply, error = None, None
                try:
                    reply = await self._perform(step, stop)
                except Exception as e:  # noqa: BLE001 - raised in the core, at the step
                    error = e
            return None
        finally:
            steps.close()

    async def _perform(self, step: Step, stop: asyncio.Event | None) -> Any:
        if isinstance(step, Send):
            return await self._send(step, stop)
        if isinstance(step, NewLeader):
            self._spawn(self.on_new_leader, step.identity)
        elif stop is not None:
            try:
                await asyncio.wait_for(stop.wait(), step.seconds)
            except asyncio.TimeoutError:
                pass
        else:
            await asyncio.sleep(step.seconds)
        return None

    async def _send(self, step: Send, stop: asyncio.Event | None) -> bytes:
        remaining = step.deadline - self.clock()
        if remaining <= 0:
            raise _deadline_exceeded(step)
        sending = asyncio.ensure_future(self._rest.send(_timed(step, remaining)))
        stopping = asyncio.ensure_future(stop.wait()) if stop is not None else None
        try:
            await asyncio.wait({sending, *([stopping] if stopping else [])}, timeout=remaining,
                               return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in (sending, stopping):
                if task is not None and not task.done():
                    task.cancel()
            await asyncio.gather(sending, *([stopping] if stopping else []), return_exceptions=True)
        if not sending.cancelled() and sending.done():
            return (await sending).content
        raise _Stopped() if stop is not None and stop.is_set() else _deadline_exceeded(step)
