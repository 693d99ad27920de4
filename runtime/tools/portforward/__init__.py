"""client-go's tools/portforward for Python: ``pods/portforward`` over WebSocket, local listeners
on 127.0.0.1, as mixins of the generated pods client (``PodPortForward``,
``AsyncPodPortForward``).

``tunnel`` holds the protocol (the kubelet's WebSocket channels, one WebSocket per forwarded
connection, and why not client-go's SPDY), ``ports`` kubectl's port forms, ``portforward`` the
forwarders (for threaded code, on an event loop of their own; and on asyncio)."""

from __future__ import annotations

from typing import Any

from kgen.runtime.gentype import AsyncResourceClient, ResourceClient
from kgen.runtime.tools.portforward.portforward import AsyncPortForwarder, PortForwarder, PortForwardError
from kgen.runtime.tools.portforward.ports import ForwardedPort, Ports, parse_ports
from kgen.runtime.tools.portforward.tunnel import ProtocolError

__all__ = [
    "AsyncPodPortForward", "AsyncPortForwarder", "ForwardedPort", "PodPortForward", "PortForwardError", "PortForwarder",
    "Ports", "ProtocolError", "parse_ports",
]


class PodPortForward:
    """``port_forward`` on the typed pods client."""

    _client: ResourceClient[Any, Any]

    def port_forward(self, name: str, ports: Ports, *, address: str = "127.0.0.1") -> PortForwarder:
        """Forwards local ports to the ports of pod ``name``, as ``kubectl port-forward``:
        ``with pods.port_forward("web", {8080: 80}) as pf:`` listens on 127.0.0.1:8080 until the
        block ends. ``ports``: ``{local: remote}`` or kubectl's forms (``[80]``, ``["8080:80"]``,
        ``[":80"]``); a local port 0 is a free one (``pf.local_port(80)`` names it).
        ``address``: where to listen. Entering checks that the pod is Running and binds every
        port; each local connection then gets a stream of its own."""
        return PortForwarder(self._client, name, ports, address=address)


class AsyncPodPortForward:
    """``PodPortForward`` on asyncio."""

    _client: AsyncResourceClient[Any, Any]

    def port_forward(self, name: str, ports: Ports, *, address: str = "127.0.0.1") -> AsyncPortForwarder:
        """``PodPortForward.port_forward``: ``async with pods.port_forward("web", {8080: 80}) as pf:``."""
        return AsyncPortForwarder(self._client, name, ports, address=address)
