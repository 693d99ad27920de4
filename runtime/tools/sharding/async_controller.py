"""The sharded controller for asyncio programs: reconciles are coroutines on the caller's loop.

    controller = AsyncShardedController(rest, CONFIG_MAPS, "cm-controller", identity=pod_name,
                                        reconcile=reconcile)      # async def reconcile(key, obj)
    await controller.run(stop)                                    # asyncio.Event

What is shared with ``ShardedController`` is everything: membership, the shard leader, the
gate. Only the reconcile crosses over: each of the ``workers`` worker threads asks the gate,
then runs the coroutine on the loop that called ``run`` and waits for it, so that the gate
counts it in flight exactly as long as it runs on the loop (and a fenced replica still waits
for it before it lets go of its Lease). The coordination itself (Leases, the labeller, the
informers) stays on threads with a ``RESTClient``: it is a handful of requests per retry
period, and writing it twice would write the no-overlap rules twice.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Awaitable, Callable
from typing import Any

from kgen.runtime.gentype.resource import ResourceInfo
from kgen.runtime.rest.client import RESTClient
from kgen.runtime.tools.sharding.controller import ShardedController

__all__ = ["AsyncShardedController"]


class AsyncShardedController:
    """See the module docstring. Options are ``ShardedController``'s."""

    def __init__(self, rest: RESTClient, resource: ResourceInfo, controller: str, *, identity: str,
                 reconcile: Callable[[str, Any], Awaitable[object]], **options: Any) -> None:
        self._reconcile = reconcile
        self._loop: asyncio.AbstractEventLoop | None = None
        self.sync: ShardedController[Any] = ShardedController(
            rest, resource, controller, identity=identity, reconcile=self._on_worker, **options)

    @property
    def replica(self) -> Any:
        """The replica that runs this member's reconciles."""
        return self.sync.replica

    def _on_worker(self, key: str, obj: Any) -> None:
        loop = self._loop
        if loop is None or loop.is_closed():
            raise RuntimeError("AsyncShardedController: the loop that ran run() is gone")
        asyncio.run_coroutine_threadsafe(self._call(key, obj), loop).result()

    async def _call(self, key: str, obj: Any) -> None:
        await self._reconcile(key, obj)

    async def run(self, stop: asyncio.Event) -> None:
        """Runs until ``stop`` is set (or the task is cancelled); returns once the replica has
        stopped, the reconciles in flight included."""
        self._loop = asyncio.get_running_loop()
        halt = threading.Event()
        running = asyncio.ensure_future(asyncio.to_thread(self.sync.run, halt))
        stopping = asyncio.ensure_future(stop.wait())
        try:
            await asyncio.wait({running, stopping}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            halt.set()
            stopping.cancel()
            await asyncio.shield(running)
