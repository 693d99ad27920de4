"""client-go's tools/portforward for Python: ``pods/portforward`` over WebSocket, local listeners
on 127.0.0.1, as mixins of the generated pods client (``PodPortForward``,
``AsyncPodPortForward``)."""

from __future__ import annotations

from typing import Any

from kgen.runtime.gentype import AsyncResourceClient, ResourceClient


class PodPortForward:
    """``port_forward`` on the typed pods client."""

    _client: ResourceClient[Any, Any]


class AsyncPodPortForward:
    """``PodPortForward`` on asyncio."""

    _client: AsyncResourceClient[Any, Any]
