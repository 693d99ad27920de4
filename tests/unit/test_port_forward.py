"""Port-forward without a server: kubectl's port forms (client-go's parsePorts) and the channel
protocol's framing state (tunnel.Tunnel), which both forwarders feed."""

from __future__ import annotations

import re
from typing import Any

import pytest
from kgen.runtime.tools.portforward import ForwardedPort, ProtocolError, parse_ports
from kgen.runtime.tools.portforward.tunnel import SUBPROTOCOLS, Tunnel, portforward_params


@pytest.mark.parametrize(
    ("ports", "expected"),
    [
        ([5000], [(5000, 5000)]),
        (["5000"], [(5000, 5000)]),
        (["8888:5000"], [(8888, 5000)]),
        ([":5000"], [(0, 5000)]),
        (["0:5000"], [(0, 5000)]),
        ([80, "8080:81", ":82"], [(80, 80), (8080, 81), (0, 82)]),
        ({8080: 80, 0: 443}, [(8080, 80), (0, 443)]),
        ((80,), [(80, 80)]),
    ],
)
def test_kubectl_port_forms_and_mappings_parse_to_local_remote_pairs(ports: Any, expected: list[tuple[int, int]]) -> None:
    parsed = parse_ports(ports)
    assert parsed == [ForwardedPort(*pair) for pair in expected]
    assert all(isinstance(p, ForwardedPort) for p in parsed)


@pytest.mark.parametrize(
    ("ports", "error", "message"),
    [
        (["1:2:3"], ValueError, "expected 'REMOTE', 'LOCAL:REMOTE' or ':REMOTE', got '1:2:3'"),
        (["80:http"], ValueError, "remote port of '80:http': expected a number from 1 to 65535, got 'http'"),
        (["x:80"], ValueError, "local port of 'x:80': expected a number from 0 to 65535, got 'x'"),
        ([0], ValueError, "remote port of 0: expected a number from 1 to 65535, got 0"),
        ([":0"], ValueError, "remote port of ':0': expected a number from 1 to 65535, got 0"),
        (["70000"], ValueError, "expected a number from 0 to 65535, got 70000"),
        ({8080: 0}, ValueError, "remote port of '8080:0'"),
        ([True], TypeError, "expected an int, got bool"),
        ([8.5], TypeError, "expected an int, got float"),
        ("8080:80", TypeError, "got the string '8080:80' (a list: ['8080:80'])"),
        (8080, TypeError, "expected a mapping {local: remote} or a list of ports, got int"),
        ([], ValueError, "expected at least one port"),
    ],
)
def test_bad_ports_are_refused_naming_what_was_expected(ports: Any, error: type[Exception], message: str) -> None:
    with pytest.raises(error) as raised:
        parse_ports(ports)
    assert message in str(raised.value)
    assert str(raised.value).startswith("ports: ")


def test_the_upgrade_offers_the_binary_channel_protocol_with_the_port_in_the_query() -> None:
    assert SUBPROTOCOLS == ("v4.channel.k8s.io",)
    assert portforward_params(8080) == [("ports", "8080")]


def _port(n: int) -> bytes:
    return n.to_bytes(2, "little")


def test_the_port_headers_are_consumed_and_data_passes_through() -> None:
    tunnel = Tunnel(ForwardedPort(4000, 80))
    assert tunnel.incoming(b"\x00" + _port(80)) == b""
    assert tunnel.incoming(b"\x01" + _port(80)) == b""
    assert tunnel.incoming(b"\x00hello") == b"hello"
    assert tunnel.incoming(b"\x00") == b""
    assert tunnel.incoming(b"") == b""
    assert tunnel.error is None and tunnel.failure() is None
    assert tunnel.outgoing(b"ping") == b"\x00ping"


def test_a_port_header_split_across_frames_or_followed_by_data_is_read_as_one() -> None:
    tunnel = Tunnel(ForwardedPort(4000, 0x1F90))
    assert tunnel.incoming(b"\x00\x90") == b""
    assert tunnel.incoming(b"\x00\x1fdata") == b"data"
    assert tunnel.incoming(b"\x01" + _port(0x1F90) + b"boom") == b""
    assert tunnel.error == "boom"


def test_the_error_channel_text_is_kept_and_worded_as_client_go_logs_it() -> None:
    tunnel = Tunnel(ForwardedPort(4000, 81))
    tunnel.incoming(b"\x01" + _port(81))
    tunnel.incoming(b"\x01error forwarding port 81 to pod p, uid : ")
    tunnel.incoming(b"\x01dial tcp: connection refused")
    assert tunnel.error == "error forwarding port 81 to pod p, uid : dial tcp: connection refused"
    assert tunnel.failure() == ("an error occurred forwarding 4000 -> 81: "
                                "error forwarding port 81 to pod p, uid : dial tcp: connection refused")


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("text", "expected binary frames (v4.channel.k8s.io), got a text frame"),
        (b"\x02xx", "expected channel 0 (data) or 1 (error), got channel 2"),
        (b"\x00" + _port(81), "expected port 80 on channel 0, got port 81"),
    ],
)
def test_a_server_breaking_the_protocol_raises_protocol_error(message: bytes | str, expected: str) -> None:
    with pytest.raises(ProtocolError, match=re.escape(expected)):
        Tunnel(ForwardedPort(4000, 80)).incoming(message)
