"""client-go's ``PortForwarder`` (tools/portforward) for Python: local listeners whose every
connection is forwarded to a port of a pod through the apiserver's ``pods/portforward``.

``PortForwarder`` (for threaded code) and ``AsyncPortForwarder`` (asyncio) are context managers
that have bound every local port when entered (a local port 0 becomes a free one: read ``ports``
or ``local_port(remote)``), and stop listening and end every forwarded connection when left (or
``close()``-d).

Each accepted connection gets its own WebSocket to the apiserver (the channel protocol of
``kgen.runtime.tools.portforward.tunnel``, which says why it is not client-go's SPDY), so many
connections run at once and none waits for another. What goes wrong for one connection (the
pod's port refuses it, the upgrade is refused, the pod is gone) is logged on
``kgen.runtime.tools.portforward`` and closes that local connection only; the listeners keep
accepting. This is where kgen departs from client-go 1.31+, whose forwarder closes its one
shared connection on such an error, which ends ``kubectl port-forward``.

As ``kubectl port-forward`` does before it forwards anything, entering checks that the pod
exists (``NotFound`` otherwise) and is Running (``PortForwardError`` otherwise).

Both flavours run the same asyncio forwarding (``_Engine``); ``PortForwarder`` runs it on an
event loop of its own, in one thread (kgen.runtime.util.loop_thread's ``LoopThread``, as the
sync exec session does), and its methods block until the loop has done what they ask. Not one
thread per connection over the ``websockets`` sync client: that client reads its TLS socket on
one thread while the caller writes it on another, and over TLS 1.3 about one upgrade in 100
then got no answer (8 of 800 straight to kwok's server; 0 of 800 with the
asyncio client, and 0 of 800 with the sync client held to TLS 1.2), most likely the session
tickets TLS 1.3 sends after the handshake racing the request's write on one ``SSLSocket``.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import socket
from collections.abc import Coroutine, Mapping
from types import TracebackType
from typing import TYPE_CHECKING, Any, Self, TypeVar

from kgen.runtime.apimachinery import ApiError
from kgen.runtime.gentype import AsyncResourceClient, ResourceClient
from kgen.runtime.rest.client import AsyncRESTClient
from kgen.runtime.rest.websocket import async_connect, async_twin
from kgen.runtime.tools.portforward.ports import ForwardedPort, Ports, parse_ports
from kgen.runtime.tools.portforward.tunnel import SUBPROTOCOLS, ProtocolError, Tunnel, portforward_params
from kgen.runtime.util.loop_thread import LoopThread

if TYPE_CHECKING:
    from websockets.asyncio.client import ClientConnection

log = logging.getLogger("kgen.runtime.tools.portforward")
"""Each forwarded connection (DEBUG), each dial made again (WARNING), and each connection that
failed (ERROR, with the server's message)."""

BUFFER_SIZE = 64 * 1024
"""The most bytes read from a local connection at once (one WebSocket frame)."""

DIAL_TIMEOUTS = (5.0, 10.0, 20.0)
"""How long each attempt to open a connection's WebSocket waits for the upgrade's answer. An
attempt that failed for a reason other than the server's refusal (no answer in time, the
connection closed or reset during the handshake) is made again: nothing was forwarded on it
yet, so a second GET is safe, and a connection waiting on a lost upgrade would otherwise wait
out the whole bound. The apiserver answers in milliseconds."""

T = TypeVar("T")

__all__ = ["AsyncPortForwarder", "PortForwardError", "PortForwarder"]


class PortForwardError(RuntimeError):
    """The forwarder cannot start: the pod is not running, or a local port cannot be bound."""


def _phase(pod: Any) -> str | None:
    """The pod's ``status.phase``, from a typed model or a mapping."""
    status = pod.get("status") if isinstance(pod, Mapping) else getattr(pod, "status", None)
    if isinstance(status, Mapping):
        return status.get("phase")
    return getattr(status, "phase", None)


class _Forwarding:
    """What both flavours share: the pod, the ports, the listening rules and the log lines."""

    def __init__(self, name: str, ports: Ports, address: str, namespace: str | None, path: str) -> None:
        if not isinstance(address, str) or not address:
            raise ValueError(f"address: expected a local IP address or host name, got {address!r}")
        self.name = name
        self.namespace = namespace
        self.address = address
        self.path = path
        self.ports = parse_ports(ports)
        self.closed = False

    def check_running(self, pod: Any) -> None:
        phase = _phase(pod)
        if phase != "Running":
            # kubectl's own words (pkg/cmd/portforward).
            raise PortForwardError(f"unable to forward port because pod is not running. Current status={phase}")

    def listen(self, port: ForwardedPort) -> socket.socket:
        """A socket listening on ``address``:``port.local``, non-blocking."""
        try:
            sock = socket.create_server((self.address, port.local), backlog=128)
        except OSError as e:
            raise PortForwardError(f"unable to listen on {self.address}:{port.local} to forward to {port.remote}: {e}") from e
        sock.setblocking(False)
        return sock

    def bound(self, sockets: list[socket.socket]) -> None:
        """Records the local ports the system chose for local port 0."""
        self.ports = [ForwardedPort(s.getsockname()[1], p.remote) for s, p in zip(sockets, self.ports, strict=True)]
        for port in self.ports:
            log.debug("Forwarding from %s:%d -> %d", self.address, port.local, port.remote)

    def local_port(self, remote: int) -> int:
        for port in self.ports:
            if port.remote == remote:
                return port.local
        raise KeyError(f"port {remote} of pod {self.name} is not forwarded (forwarded: {[p.remote for p in self.ports]})")

    def dial_again(self, port: ForwardedPort, attempt: int, error: BaseException) -> bool:
        """Whether to dial again after ``attempt`` (0-based) failed with ``error``: not when the
        server refused (an ``ApiError``: the pod is gone, forbidden), nor once attempts are spent."""
        if isinstance(error, ApiError) or attempt + 1 >= len(DIAL_TIMEOUTS) or self.closed:
            return False
        log.warning("forwarding %d -> %d: the upgrade failed (%s); dialling again", port.local, port.remote, error)
        return True

    def dial_failed(self, port: ForwardedPort, error: BaseException) -> None:
        log.error("forwarding %d -> %d: cannot open the stream to pod %s/%s: %s",
                  port.local, port.remote, self.namespace, self.name, error)

    def ended(self, tunnel: Tunnel, error: BaseException | None) -> None:
        """Logs how a forwarded connection ended: the server's error message, a broken
        protocol; a local connection closed first is no error."""
        failure = tunnel.failure()
        if failure is not None:
            log.error("%s", failure)
        elif isinstance(error, ProtocolError) or _abnormal_close(error):
            log.error("forwarding %d -> %d: %s", tunnel.port.local, tunnel.port.remote, error)
        else:
            log.debug("forwarding %d -> %d ended: %r", tunnel.port.local, tunnel.port.remote, error)

    def describe(self, flavour: str) -> str:
        ports = ", ".join(f"{p.local}->{p.remote}" for p in self.ports)
        state = "closed" if self.closed else "open"
        return f"{flavour}(pod={self.namespace}/{self.name}, address={self.address!r}, ports=[{ports}], {state})"


def _abnormal_close(error: BaseException | None) -> bool:
    """Whether the WebSocket ended other than by a close handshake (the stream broke)."""
    from websockets.exceptions import ConnectionClosedError

    return isinstance(error, ConnectionClosedError)


def _client_path(client: ResourceClient[Any, Any] | AsyncResourceClient[Any, Any], name: str) -> tuple[str | None, str]:
    req = client._req
    return req.namespace, req.resource.path(req.namespace, name, "portforward")


class _Engine:
    """The listeners and the forwarded connections, on one asyncio loop: what both flavours run."""

    def __init__(self, rest: AsyncRESTClient, f: _Forwarding) -> None:
        self._rest = rest
        self._f = f
        self._servers: list[asyncio.Server] = []
        self._tasks: set[asyncio.Task[None]] = set()

    async def listen(self) -> None:
        """Binds every local port and starts accepting (``PortForwardError`` if one cannot be bound)."""
        sockets: list[socket.socket] = []
        try:
            for port in self._f.ports:
                sock = self._f.listen(port)
                sockets.append(sock)
                self._servers.append(await asyncio.start_server(
                    functools.partial(self._accepted, remote=port.remote), sock=sock, limit=BUFFER_SIZE))
        except BaseException:
            for sock in sockets[len(self._servers):]:
                sock.close()
            await self.close()
            raise
        self._f.bound(sockets)

    async def close(self) -> None:
        """Stops listening and ends every forwarded connection."""
        self._f.closed = True
        for server in self._servers:
            server.close()
        for task in list(self._tasks):
            task.cancel()
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)
        for server in self._servers:
            await server.wait_closed()

    def _accepted(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, *, remote: int) -> None:
        if self._f.closed:
            writer.close()
            return
        sock = writer.get_extra_info("socket")
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        port = ForwardedPort(sock.getsockname()[1], remote)
        task = asyncio.get_running_loop().create_task(self._serve(reader, writer, port))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, port: ForwardedPort) -> None:
        log.debug("Handling connection for %d", port.local)
        try:
            ws = await self._dial(port)
            if ws is not None:
                await self._forward(reader, writer, ws, Tunnel(port))
        finally:
            writer.close()
            try:
                await writer.wait_closed()
            except (OSError, asyncio.CancelledError):
                pass

    async def _dial(self, port: ForwardedPort) -> ClientConnection | None:
        for attempt, timeout in enumerate(DIAL_TIMEOUTS):
            try:
                return await async_connect(self._rest, self._f.path, portforward_params(port.remote),
                                           subprotocols=SUBPROTOCOLS, timeout=timeout)
            except Exception as e:
                if not self._f.dial_again(port, attempt, e):
                    self._f.dial_failed(port, e)
                    return None
        return None

    async def _forward(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                       ws: ClientConnection, tunnel: Tunnel) -> None:
        from websockets.exceptions import ConnectionClosed

        upstream = asyncio.get_running_loop().create_task(self._upstream(reader, ws, tunnel))
        error: BaseException | None = None
        try:
            async for message in ws:
                data = tunnel.incoming(message)
                if data:
                    writer.write(data)
                    await writer.drain()
        except (ProtocolError, ConnectionClosed, OSError) as e:
            error = e
        finally:
            upstream.cancel()
            await asyncio.gather(upstream, return_exceptions=True)
            await asyncio.shield(ws.close())
        self._f.ended(tunnel, error)

    @staticmethod
    async def _upstream(reader: asyncio.StreamReader, ws: ClientConnection, tunnel: Tunnel) -> None:
        from websockets.exceptions import ConnectionClosed

        try:
            while chunk := await reader.read(BUFFER_SIZE):
                await ws.send(tunnel.outgoing(chunk))
        except (ConnectionClosed, OSError):
            pass
        await ws.close()  # the channel protocol has no half-close: done writing is done


class PortForwarder:
    """Forwards local ports to a pod's ports, for threaded code: ``with pods.port_forward(name,
    {8080: 80}) as pf``. The forwarding runs on an event loop in a thread of its own."""

    def __init__(self, pods: ResourceClient[Any, Any], name: str, ports: Ports, *, address: str = "127.0.0.1") -> None:
        namespace, path = _client_path(pods, name)
        self._pods = pods
        self._f = _Forwarding(name, ports, address, namespace, path)
        self._loop: LoopThread | None = None
        self._engine: _Engine | None = None
        self._rest: AsyncRESTClient | None = None

    @property
    def ports(self) -> list[ForwardedPort]:
        """The forwarded ports as (local, remote): the local ports bound once started."""
        return list(self._f.ports)

    def local_port(self, remote: int) -> int:
        """The local port that forwards to the pod's port ``remote`` (``KeyError`` if none)."""
        return self._f.local_port(remote)

    def start(self) -> Self:
        """Checks the pod is running, binds every local port and starts accepting."""
        if self._loop is not None or self._f.closed:
            raise PortForwardError("a PortForwarder starts once")
        self._f.check_running(self._pods.get(self._f.name))
        self._loop = LoopThread(f"port-forward {self._f.name}")
        try:
            # The same configuration as the pods client's (TLS, credentials, proxy); its own
            # connections, on the forwarder's loop.
            self._rest = async_twin(self._pods._rest)
            self._engine = _Engine(self._rest, self._f)
            self._run(self._engine.listen())
        except BaseException:
            self.close()
            raise
        return self

    def close(self) -> None:
        """Stops listening and ends every forwarded connection; returns once they are closed."""
        loop = self._loop
        if loop is None or not loop.alive:
            self._f.closed = True
            return
        try:
            if self._engine is not None:
                self._run(self._engine.close())
            if self._rest is not None:
                self._run(self._rest.close())
        finally:
            self._f.closed = True
            loop.close()

    def _run(self, work: Coroutine[Any, Any, T]) -> T:
        assert self._loop is not None
        return self._loop.run(work)

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, t: type[BaseException] | None, e: BaseException | None, tb: TracebackType | None) -> None:
        self.close()

    def __repr__(self) -> str:
        return self._f.describe("PortForwarder")


class AsyncPortForwarder:
    """``PortForwarder`` on asyncio: ``async with pods.port_forward(name, {8080: 80}) as pf``;
    connections are served by tasks on the running loop."""

    def __init__(self, pods: AsyncResourceClient[Any, Any], name: str, ports: Ports, *, address: str = "127.0.0.1") -> None:
        namespace, path = _client_path(pods, name)
        self._pods = pods
        self._f = _Forwarding(name, ports, address, namespace, path)
        self._engine = _Engine(pods._rest, self._f)
        self._started = False

    @property
    def ports(self) -> list[ForwardedPort]:
        """The forwarded ports as (local, remote): the local ports bound once started."""
        return list(self._f.ports)

    def local_port(self, remote: int) -> int:
        """The local port that forwards to the pod's port ``remote`` (``KeyError`` if none)."""
        return self._f.local_port(remote)

    async def start(self) -> Self:
        """Checks the pod is running, binds every local port and starts accepting."""
        if self._started or self._f.closed:
            raise PortForwardError("an AsyncPortForwarder starts once")
        self._started = True
        self._f.check_running(await self._pods.get(self._f.name))
        await self._engine.listen()
        return self

    async def close(self) -> None:
        """Stops listening and ends every forwarded connection."""
        if not self._f.closed:
            await self._engine.close()
        self._f.closed = True

    async def __aenter__(self) -> Self:
        return await self.start()

    async def __aexit__(self, t: type[BaseException] | None, e: BaseException | None, tb: TracebackType | None) -> None:
        await self.close()

    def __repr__(self) -> str:
        return self._f.describe("AsyncPortForwarder")
