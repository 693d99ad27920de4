"""client-go's ``PortForwarder`` (tools/portforward) for Python: local listeners whose every
connection is forwarded to a port of a pod through the apiserver's ``pods/portforward``.

``PortForwarder`` runs on threads, ``AsyncPortForwarder`` on asyncio; both are context
managers that have bound every local port when entered (a local port 0 becomes a free one:
read ``ports`` or ``local_port(remote)``), and stop listening and end every forwarded
connection when left (or ``close()``-d).

Each accepted connection gets its own WebSocket to the apiserver (the channel protocol of
``kgen.runtime.tools.portforward.tunnel``, which says why it is not client-go's SPDY), so many
connections run at once and none waits for another. What goes wrong for one connection (the
pod's port refuses it, the upgrade is refused, the pod is gone) is logged on
``kgen.runtime.tools.portforward`` and closes that local connection only; the listeners keep
accepting. This is where kgen departs from client-go 1.31+, whose forwarder closes its one
shared connection on such an error, which ends ``kubectl port-forward``.

As ``kubectl port-forward`` does before it forwards anything, entering checks that the pod
exists (``NotFound`` otherwise) and is Running (``PortForwardError`` otherwise).
"""

from __future__ import annotations

import asyncio
import functools
import logging
import selectors
import socket
import threading
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from collections.abc import Mapping
from types import TracebackType
from typing import TYPE_CHECKING, Any, Self

from kgen.runtime.apimachinery import ApiError
from kgen.runtime.gentype import AsyncResourceClient, ResourceClient
from kgen.runtime.rest.websocket import async_connect, connect
from kgen.runtime.tools.portforward.ports import ForwardedPort, Ports, parse_ports
from kgen.runtime.tools.portforward.tunnel import SUBPROTOCOLS, ProtocolError, Tunnel, portforward_params

if TYPE_CHECKING:
    from websockets.asyncio.client import ClientConnection as AsyncClientConnection
    from websockets.sync.client import ClientConnection

log = logging.getLogger("kgen.runtime.tools.portforward")
"""Each forwarded connection (DEBUG), and each one that failed (ERROR, with the server's message)."""

BUFFER_SIZE = 64 * 1024
"""The most bytes read from a local connection at once (one WebSocket frame)."""

DIAL_TIMEOUTS = (5.0, 10.0, 20.0)
"""How long each attempt to open a connection's WebSocket waits for the upgrade's answer. An
attempt that failed for a reason other than the server's refusal (no answer in time, the
connection closed or reset during the handshake) is made again: nothing was forwarded on it
yet, so a second GET is safe. The apiserver answers in milliseconds, but an upgrade can go
unanswered for good or be dropped (kwok v0.8.0's server, behind the apiserver, does so with
about one upgrade in 100), and a connection waiting on it would wait out the whole bound."""

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


class PortForwarder:
    """Forwards local ports to a pod's ports, on threads: ``with pods.port_forward(name, {8080: 80}) as pf``.

    One thread accepts on every listener; each connection runs on a thread that reads the pod's
    side and one that reads the local side."""

    def __init__(self, pods: ResourceClient[Any, Any], name: str, ports: Ports, *, address: str = "127.0.0.1") -> None:
        namespace, path = _client_path(pods, name)
        self._pods = pods
        self._f = _Forwarding(name, ports, address, namespace, path)
        self._listeners: list[socket.socket] = []
        self._wake_r, self._wake_w = socket.socketpair()
        self._lock = threading.Lock()
        self._open: dict[socket.socket, ClientConnection | None] = {}
        self._threads: set[threading.Thread] = set()
        self._acceptor: threading.Thread | None = None

    @property
    def ports(self) -> list[ForwardedPort]:
        """The forwarded ports as (local, remote): the local ports bound once started."""
        return list(self._f.ports)

    def local_port(self, remote: int) -> int:
        """The local port that forwards to the pod's port ``remote`` (``KeyError`` if none)."""
        return self._f.local_port(remote)

    def start(self) -> Self:
        """Checks the pod is running, binds every local port and starts accepting."""
        if self._acceptor is not None or self._f.closed:
            raise PortForwardError("a PortForwarder starts once")
        self._f.check_running(self._pods.get(self._f.name))
        try:
            for port in self._f.ports:
                self._listeners.append(self._f.listen(port))
        except BaseException:
            self.close()
            raise
        self._f.bound(self._listeners)
        self._acceptor = threading.Thread(target=self._accept, name=f"port-forward {self._f.name}", daemon=True)
        self._acceptor.start()
        return self

    def close(self) -> None:
        """Stops listening and ends every forwarded connection; waits for their threads."""
        with self._lock:
            if self._f.closed:
                return
            self._f.closed = True
            open_now = list(self._open.items())
        self._wake_w.send(b"x")
        if self._acceptor is not None:
            self._acceptor.join()
        for listener in self._listeners:
            listener.close()
        for conn, ws in open_now:
            _shutdown(conn)
            if ws is not None:
                ws.close()
        for thread in list(self._threads):
            thread.join()
        self._wake_r.close()
        self._wake_w.close()

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, t: type[BaseException] | None, e: BaseException | None, tb: TracebackType | None) -> None:
        self.close()

    def __repr__(self) -> str:
        return self._f.describe("PortForwarder")

    def _accept(self) -> None:
        with selectors.DefaultSelector() as selector:
            selector.register(self._wake_r, selectors.EVENT_READ)
            for listener, port in zip(self._listeners, self._f.ports, strict=True):
                selector.register(listener, selectors.EVENT_READ, port)
            while True:
                for key, _ in selector.select():
                    if key.data is None:
                        return
                    try:
                        conn, _ = key.fileobj.accept()  # type: ignore[union-attr]
                    except (BlockingIOError, InterruptedError):
                        continue
                    conn.setblocking(True)
                    conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                    self._spawn(self._serve, conn, key.data)

    def _spawn(self, target: Any, *args: Any) -> threading.Thread:
        thread = threading.Thread(target=self._run, args=(target, *args), daemon=True)
        with self._lock:
            self._threads.add(thread)
        thread.start()
        return thread

    def _run(self, target: Any, *args: Any) -> None:
        try:
            target(*args)
        finally:
            with self._lock:
                self._threads.discard(threading.current_thread())

    def _serve(self, conn: socket.socket, port: ForwardedPort) -> None:
        log.debug("Handling connection for %d", port.local)
        with self._lock:
            if self._f.closed:
                conn.close()
                return
            self._open[conn] = None
        try:
            ws = self._dial(port)
            if ws is None:
                return
            with self._lock:
                self._open[conn] = ws
                closed = self._f.closed
            if closed:
                ws.close()
                return
            self._forward(conn, ws, Tunnel(port))
        finally:
            with self._lock:
                self._open.pop(conn, None)
            _shutdown(conn)
            conn.close()

    def _dial(self, port: ForwardedPort) -> ClientConnection | None:
        for attempt, timeout in enumerate(DIAL_TIMEOUTS):
            # Each attempt dials on a thread of its own, waited for ``timeout``: the websockets
            # sync client, given no answer, can stay blocked in a TLS read well past its own
            # timeout before it gives up. An attempt left behind closes what it opens.
            attempt_done: Future[ClientConnection] = Future()
            threading.Thread(target=self._dial_once, args=(port, timeout, attempt_done), daemon=True).start()
            try:
                return attempt_done.result(timeout=timeout)
            except Exception as e:
                error: Exception = TimeoutError(f"no answer to the upgrade in {timeout:.0f} s") if isinstance(
                    e, FutureTimeout) else e
                attempt_done.add_done_callback(_close_late)
                if not self._f.dial_again(port, attempt, error):
                    self._f.dial_failed(port, error)
                    return None
        return None

    def _dial_once(self, port: ForwardedPort, timeout: float, done: Future[ClientConnection]) -> None:
        try:
            done.set_result(connect(self._pods._rest, self._f.path, portforward_params(port.remote),
                                    subprotocols=SUBPROTOCOLS, timeout=timeout))
        except BaseException as e:
            done.set_exception(e)

    def _forward(self, conn: socket.socket, ws: ClientConnection, tunnel: Tunnel) -> None:
        from websockets.exceptions import ConnectionClosed

        upstream = self._spawn(self._upstream, conn, ws, tunnel)
        error: BaseException | None = None
        try:
            for message in ws:
                data = tunnel.incoming(message)
                if data:
                    conn.sendall(data)
        except (ProtocolError, ConnectionClosed, OSError) as e:
            error = e
        finally:
            _shutdown(conn)
            ws.close()
            upstream.join()
        self._f.ended(tunnel, error)

    @staticmethod
    def _upstream(conn: socket.socket, ws: ClientConnection, tunnel: Tunnel) -> None:
        from websockets.exceptions import ConnectionClosed

        try:
            while chunk := conn.recv(BUFFER_SIZE):
                ws.send(tunnel.outgoing(chunk))
        except (ConnectionClosed, OSError):
            pass
        finally:
            ws.close()  # the channel protocol has no half-close: done writing is done


def _close_late(attempt: Future[ClientConnection]) -> None:
    """Closes the WebSocket of a dial attempt that answered after it was given up."""
    if attempt.exception() is None:
        attempt.result().close()


def _shutdown(conn: socket.socket) -> None:
    try:
        conn.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass


class AsyncPortForwarder:
    """``PortForwarder`` on asyncio: ``async with pods.port_forward(name, {8080: 80}) as pf``."""

    def __init__(self, pods: AsyncResourceClient[Any, Any], name: str, ports: Ports, *, address: str = "127.0.0.1") -> None:
        namespace, path = _client_path(pods, name)
        self._pods = pods
        self._f = _Forwarding(name, ports, address, namespace, path)
        self._servers: list[asyncio.Server] = []
        self._tasks: set[asyncio.Task[None]] = set()
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
        return self

    async def close(self) -> None:
        """Stops listening and ends every forwarded connection."""
        if self._f.closed:
            return
        self._f.closed = True
        for server in self._servers:
            server.close()
        for task in list(self._tasks):
            task.cancel()
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)
        for server in self._servers:
            await server.wait_closed()

    async def __aenter__(self) -> Self:
        return await self.start()

    async def __aexit__(self, t: type[BaseException] | None, e: BaseException | None, tb: TracebackType | None) -> None:
        await self.close()

    def __repr__(self) -> str:
        return self._f.describe("AsyncPortForwarder")

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

    async def _dial(self, port: ForwardedPort) -> AsyncClientConnection | None:
        for attempt, timeout in enumerate(DIAL_TIMEOUTS):
            try:
                return await async_connect(self._pods._rest, self._f.path, portforward_params(port.remote),
                                           subprotocols=SUBPROTOCOLS, timeout=timeout)
            except Exception as e:
                if not self._f.dial_again(port, attempt, e):
                    self._f.dial_failed(port, e)
                    return None
        return None

    async def _forward(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                       ws: AsyncClientConnection, tunnel: Tunnel) -> None:
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
    async def _upstream(reader: asyncio.StreamReader, ws: AsyncClientConnection, tunnel: Tunnel) -> None:
        from websockets.exceptions import ConnectionClosed

        try:
            while chunk := await reader.read(BUFFER_SIZE):
                await ws.send(tunnel.outgoing(chunk))
        except (ConnectionClosed, OSError):
            pass
        await ws.close()  # the channel protocol has no half-close: done writing is done
