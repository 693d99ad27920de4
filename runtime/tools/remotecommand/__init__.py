"""client-go's tools/remotecommand for Python: ``pods/exec`` and ``pods/attach`` over WebSocket
(``v5.channel.k8s.io``), as mixins of the generated pods client (``PodCommands``,
``AsyncPodCommands``)."""

from __future__ import annotations

from typing import Any

from kgen.runtime.gentype import AsyncResourceClient, ResourceClient


class PodCommands:
    """``exec`` and ``attach`` on the typed pods client."""

    _client: ResourceClient[Any, Any]


class AsyncPodCommands:
    """``PodCommands`` on asyncio."""

    _client: AsyncResourceClient[Any, Any]
