"""Which local ports forward to which ports of the pod: client-go's ``parsePorts``
(tools/portforward) for the forms ``kubectl port-forward`` takes, plus a ``{local: remote}``
mapping.

``"5000"`` listens on local port 5000 and forwards to the pod's 5000; ``"8888:5000"`` listens on
8888; ``":5000"`` and ``"0:5000"`` on a free port the system picks. An ``int`` is the first
form, as in kubectl. The remote port must be 1-65535, the local 0-65535 (0: a free port).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NamedTuple, TypeAlias

Ports: TypeAlias = Mapping[int, int] | Sequence[int | str]
"""What ``port_forward`` takes: ``{local: remote}`` (local 0: a free port), or a sequence of
ports and ``"local:remote"`` strings as ``kubectl port-forward`` takes them."""


class ForwardedPort(NamedTuple):
    """One forwarded port: the local port (0 until a free one is bound) and the pod's port."""

    local: int
    remote: int


def _port(value: object, what: str, lowest: int, spec: object) -> int:
    if isinstance(value, str):
        if not value.isdigit():
            raise ValueError(f"ports: {what} port of {spec!r}: expected a number from {lowest} to 65535, got {value!r}")
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"ports: {what} port of {spec!r}: expected an int, got {type(value).__name__}")
    if not lowest <= value <= 65535:
        raise ValueError(f"ports: {what} port of {spec!r}: expected a number from {lowest} to 65535, got {value}")
    return value


def _one(spec: int | str) -> ForwardedPort:
    if isinstance(spec, str):
        parts = spec.split(":")
        if len(parts) > 2:
            raise ValueError(f"ports: expected 'REMOTE', 'LOCAL:REMOTE' or ':REMOTE', got {spec!r}")
        local, remote = (parts[0], parts[0]) if len(parts) == 1 else (parts[0] or "0", parts[1])
        return ForwardedPort(_port(local, "local", 0, spec), _port(remote, "remote", 1, spec))
    port = _port(spec, "remote", 1, spec)
    return ForwardedPort(port, port)


def parse_ports(ports: Ports) -> list[ForwardedPort]:
    """The ports to forward, in order, from a ``{local: remote}`` mapping or kubectl's forms;
    a ``ValueError`` / ``TypeError`` names what was expected."""
    if isinstance(ports, (str, bytes)):
        raise TypeError(f"ports: expected a mapping {{local: remote}} or a list of ports, got the string {ports!r} "
                        f"(a list: [{ports!r}])")
    if isinstance(ports, Mapping):
        parsed = [ForwardedPort(_port(local, "local", 0, f"{local}:{remote}"), _port(remote, "remote", 1, f"{local}:{remote}"))
                  for local, remote in ports.items()]
    elif isinstance(ports, Sequence):
        parsed = [_one(spec) for spec in ports]
    else:
        raise TypeError(f"ports: expected a mapping {{local: remote}} or a list of ports, got {type(ports).__name__}")
    if not parsed:
        raise ValueError("ports: expected at least one port to forward")
    return parsed
