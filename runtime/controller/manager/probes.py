"""Health probes: controller-runtime's pkg/healthz, answered by the manager's probe server.

``/healthz`` (liveness) and ``/readyz`` (readiness) run every named check of their kind; each
check is a function that returns to pass and raises to fail. The answers follow healthz's
handler: 200 ``ok`` when all pass; 500 with one ``[-]<name> failed: reason withheld`` line per
failure and ``healthz check failed`` otherwise (the reason goes to the log, not to whoever can
reach the port); ``?verbose`` lists every check, ``[+]<name> ok``; ``/healthz/<name>`` runs one
check (404 if there is none of that name). With no checks at all the answer is 200 ``ok``.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

__all__ = ["Checker", "Probes", "ping"]

log = logging.getLogger("kgen.runtime.controller.manager.probes")

Checker = Callable[[], None]
"""A check: returns to pass, raises to fail."""


def ping() -> None:
    """healthz.Ping: passes whenever the server answers."""


class Probes:
    """The named checks of each endpoint (``healthz``, ``readyz``) and their answers."""

    ENDPOINTS = ("healthz", "readyz")

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._checks: dict[str, dict[str, Checker]] = {endpoint: {} for endpoint in self.ENDPOINTS}

    def add(self, endpoint: str, name: str, check: Checker) -> None:
        """Add check ``name`` to ``endpoint`` ("healthz" or "readyz"); a name must be new and hold no
        "/"."""
        if endpoint not in self._checks:
            raise ValueError(f"no probe endpoint {endpoint!r}: one of {self.ENDPOINTS}")
        if not name or "/" in name:
            raise ValueError(f"a check needs a name without '/', not {name!r}")
        with self._lock:
            if name in self._checks[endpoint]:
                raise ValueError(f"{endpoint} check {name!r} is already added")
            self._checks[endpoint][name] = check

    def answer(self, path: str, verbose: bool = False) -> tuple[int, str]:
        """(HTTP status, text body) for a GET of ``path`` (``/healthz``, ``/readyz/<name>``)."""
        endpoint, _, only = path.strip("/").partition("/")
        with self._lock:
            checks = dict(self._checks.get(endpoint, {}))
        if endpoint not in self._checks:
            return 404, "404 page not found\n"
        if only:
            if only not in checks:
                return 404, f"no {endpoint} check named {only!r}\n"
            checks = {only: checks[only]}
        lines, failed = [], False
        for name, check in sorted(checks.items()):
            try:
                check()
                lines.append(f"[+]{name} ok")
            except Exception as e:  # noqa: BLE001 - a failing check is an answer, not a crash
                log.info("%s check %s failed: %s", endpoint, name, e)
                lines.append(f"[-]{name} failed: reason withheld")
                failed = True
        if failed:
            return 500, "\n".join(lines) + f"\n{endpoint} check failed\n"
        if verbose:
            return 200, "\n".join(lines) + f"\n{endpoint} check passed\n"
        return 200, "ok"
