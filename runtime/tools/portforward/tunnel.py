"""One forwarded connection as the kubelet frames it: the WebSocket channel protocol of
``pods/portforward``, with no I/O (``PortForwarder`` and ``AsyncPortForwarder`` feed it).

What client-go does, and why kgen does otherwise. client-go 1.31+ (``kubectl port-forward``)
opens *one* connection per forwarder and multiplexes every local connection over it as SPDY
streams: a WebSocket with the subprotocol ``SPDY/3.1+portforward.k8s.io`` carries SPDY frames
(``tunneling_dialer.go``), and the apiserver translates them into a SPDY connection to the
kubelet; against a server without that feature (``PortForwardWebsockets``, beta and on since
1.31) it falls back to the old SPDY upgrade (``fallback_dialer.go``). Each local connection is
a pair of SPDY streams (data and error) tagged with the port and a request id.

No maintained Python library speaks SPDY/3.1, and the runtime does not hand-write framing a
library already does. The kubelet's streaming server (``k8s.io/cri-streaming``'s portforward
package, which kwok's server uses too) also answers port-forward over plain WebSocket channels,
and the apiserver proxies such an upgrade to it unchanged (only the SPDY-tunnelling subprotocol
is translated). That is the protocol here, over the ``websockets`` library
(``kgen.runtime.rest.websocket``), checked on the 1.34 and 1.37 apiservers with kwok v0.8.0:

- the subprotocol ``v4.channel.k8s.io`` (binary frames), the pod's port in the query
  (``?ports=80``); one WebSocket per local connection, so connections never share a stream;
- every frame starts with its channel byte: 0 is the data channel, 1 the error channel;
- the first frame the server sends on each channel is the port, 2 bytes little-endian;
- what the client sends on channel 0 reaches the pod's port; the server's channel 0 frames are
  what the pod answers; text on channel 1 is the error that ended the forwarding ("error
  forwarding port 81 to pod ...: dial tcp ...: connection refused"), before the server closes.

The channel protocol has no half-close (v4 has no close signal; v5's is for exec only): when
the local side ends its writes, the WebSocket is closed, and whatever the pod still had to say
is dropped. client-go's SPDY streams half-close instead. Clients that read the answer before
closing (HTTP, databases, an echo) see no difference.
"""

from __future__ import annotations

from kgen.runtime.tools.portforward.ports import ForwardedPort

SUBPROTOCOLS = ("v4.channel.k8s.io",)
"""The WebSocket subprotocol offered: the kubelet's binary channel protocol, version 4."""
DATA_CHANNEL = 0
"""The channel of a forwarded port's bytes, both ways (the first of each port's pair)."""
ERROR_CHANNEL = 1
"""The channel on which the kubelet reports a failure to reach the pod's port, as text."""


class ProtocolError(Exception):
    """The server broke the channel protocol (a text frame, an unknown channel, another port)."""


def portforward_params(remote: int) -> list[tuple[str, str]]:
    """The query of a ``pods/portforward`` upgrade forwarding the pod's port ``remote``."""
    return [("ports", str(remote))]


class Tunnel:
    """The state of one forwarded connection's WebSocket: which channels have announced their
    port, and the error text received so far.

    ``outgoing`` frames local bytes for the pod; ``incoming`` takes each message the server
    sends and returns the bytes for the local connection (``b""`` for a port header or error
    text, which it keeps); ``failure`` is what to log once the WebSocket has ended."""

    def __init__(self, port: ForwardedPort) -> None:
        self.port = port
        self._headers = [b"", b""]  # the port bytes seen so far, per channel
        self._error = bytearray()

    def outgoing(self, data: bytes) -> bytes:
        """The frame carrying ``data`` to the pod's port."""
        return bytes((DATA_CHANNEL,)) + data

    def incoming(self, message: bytes | str) -> bytes:
        """The bytes of the server's ``message`` that go to the local connection."""
        if isinstance(message, str):
            raise ProtocolError("expected binary frames (v4.channel.k8s.io), got a text frame")
        if not message:
            return b""
        channel, payload = message[0], message[1:]
        if channel not in (DATA_CHANNEL, ERROR_CHANNEL):
            raise ProtocolError(f"expected channel {DATA_CHANNEL} (data) or {ERROR_CHANNEL} (error), got channel {channel}")
        header = self._headers[channel]
        if len(header) < 2:
            missing = 2 - len(header)
            header = self._headers[channel] = header + payload[:missing]
            payload = payload[missing:]
            if len(header) == 2 and int.from_bytes(header, "little") != self.port.remote:
                raise ProtocolError(
                    f"expected port {self.port.remote} on channel {channel}, got port {int.from_bytes(header, 'little')}"
                )
        if channel == ERROR_CHANNEL:
            self._error += payload
            return b""
        return payload

    @property
    def error(self) -> str | None:
        """The error the server sent on the error channel, if any."""
        return self._error.decode("utf-8", "replace") or None

    def failure(self) -> str | None:
        """The log line for the error the server sent, as client-go words it, or None."""
        error = self.error
        if error is None:
            return None
        return f"an error occurred forwarding {self.port.local} -> {self.port.remote}: {error}"
