"""``pods/log`` on the typed pods client: the ``log`` verb as a mixin (``PodLogs``,
``AsyncPodLogs``), which a generated ``PodsClient`` lists among its bases when the server
serves the subresource."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Any

from kgen.runtime.gentype.client import AsyncResourceClient, ResourceClient


class PodLogs:
    """``log``: a pod's log, line by line."""

    _client: ResourceClient[Any, Any]

    def log(
        self,
        name: str,
        *,
        container: str | None = None,
        follow: bool = False,
        previous: bool = False,
        since_seconds: int | None = None,
        tail_lines: int | None = None,
        timestamps: bool = False,
    ) -> Iterator[str]:
        """The pod's log, line by line (streaming while ``follow``)."""
        return self._client.stream_lines(
            name, "log", container=container, follow=follow, previous=previous,
            since_seconds=since_seconds, tail_lines=tail_lines, timestamps=timestamps,
        )


class AsyncPodLogs:
    """``PodLogs`` on asyncio: ``async for line in pods.log(name)``."""

    _client: AsyncResourceClient[Any, Any]

    def log(
        self,
        name: str,
        *,
        container: str | None = None,
        follow: bool = False,
        previous: bool = False,
        since_seconds: int | None = None,
        tail_lines: int | None = None,
        timestamps: bool = False,
    ) -> AsyncIterator[str]:
        """``PodLogs.log``, asynchronously iterated."""
        return self._client.stream_lines(
            name, "log", container=container, follow=follow, previous=previous,
            since_seconds=since_seconds, tail_lines=tail_lines, timestamps=timestamps,
        )
