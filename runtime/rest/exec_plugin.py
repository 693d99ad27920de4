"""Exec credential plugins (client-go's plugin/pkg/client/auth/exec): ``client.authentication.k8s.io``
v1 and v1beta1.

``ExecCredential`` runs the kubeconfig's ``exec`` command the way client-go does, caches its
answer (a token, or a client certificate and key) until its ``expirationTimestamp``, and runs
it again after a 401. The plugin's stdout, where the credential is, is never quoted. Its stderr
is never captured either: as client-go does (``cmd.Stderr = os.Stderr``), it goes straight to
this process's standard error (file descriptor 2), the user's terminal, and a failure's error
names only the plugin and its exit code (wrapCmdRunErrorLocked). A plugin's stderr may carry
anything (a refresh token in a failed refresh's message): exception texts end up in logs,
while the terminal already shows what the plugin chose to print.
"""

from __future__ import annotations

import json
import logging
import os
import re
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import IO, Any

from kgen.runtime.rest.auth import CredentialError, _utcnow

log = logging.getLogger("kgen.runtime.rest.exec_plugin")
"""The logger of plugin runs."""

EXEC_API_VERSIONS = ("client.authentication.k8s.io/v1", "client.authentication.k8s.io/v1beta1")
"""The ExecCredential versions a plugin may speak."""
INTERACTIVE_MODES = ("Never", "IfAvailable", "Always")
"""The kubeconfig's ``interactiveMode`` values."""


@dataclass(frozen=True)
class _ExecResult:
    token: str | None
    cert: bytes | None
    key: bytes | None
    expires: datetime | None

    def __repr__(self) -> str:
        return f"_ExecResult(expires={self.expires})"


class ExecCredential:
    """An exec credential plugin, run the way client-go runs it (plugin/pkg/client/auth/exec).

    - The command runs directly, never through a shell, with ``args``; ``env`` is added to
      this process's environment, and ``KUBERNETES_EXEC_INFO`` carries the ExecCredential
      request (``spec.interactive``, and ``spec.cluster`` when ``cluster`` is given, i.e. the
      kubeconfig set ``provideClusterInfo``).
    - ``interactive_mode``: ``Never`` gives the plugin no stdin; ``IfAvailable`` passes stdin
      only when it is a terminal; ``Always`` needs a terminal and fails without one.
    - A bare command name is looked up on this process's PATH (as Go's exec.Command does, not
      on the PATH in ``env``).
    - The answer (``status.token``, or ``status.clientCertificateData``/``clientKeyData``) is
      cached until ``status.expirationTimestamp`` (forever without one) or ``invalidate()``.
    - The plugin's stderr is this process's stderr (file descriptor 2), as client-go's is
      ``os.Stderr``: its messages (and, with a terminal, its prompts) reach the user directly.
    - A failure names the command and exit code only, as client-go's does; neither the plugin's
      stdout (where the credential would be) nor its stderr is quoted.
    """

    def __init__(
        self,
        command: str,
        args: Sequence[str] = (),
        env: Mapping[str, str] | None = None,
        *,
        api_version: str = "client.authentication.k8s.io/v1",
        interactive_mode: str = "IfAvailable",
        install_hint: str = "",
        cluster: Mapping[str, Any] | None = None,
        user: str = "",
        stdin: IO[Any] | None = None,
        clock: Callable[[], datetime] | None = None,
    ) -> None:
        if api_version not in EXEC_API_VERSIONS:
            raise CredentialError(
                f"exec plugin {command}: unsupported apiVersion {api_version!r} "
                f"(supported: {', '.join(EXEC_API_VERSIONS)})"
            )
        if interactive_mode not in INTERACTIVE_MODES:
            raise CredentialError(
                f"exec plugin {command}: invalid interactiveMode {interactive_mode!r} "
                f"(one of {', '.join(INTERACTIVE_MODES)})"
            )
        self.command = command
        self.api_version = api_version
        self.interactive_mode = interactive_mode
        self._args = list(args)
        self._env = dict(env or {})
        self._install_hint = install_hint
        self._cluster = dict(cluster) if cluster is not None else None
        self._user = user
        self._stdin = stdin
        self._clock = clock or _utcnow
        self._cached: _ExecResult | None = None
        self._lock = threading.Lock()

    def token(self) -> str | None:
        """The plugin's token, running the plugin when there is none or it expired."""
        return self._current().token

    def cached_token(self) -> str | None:
        """The token the plugin last gave, if it has not expired; None otherwise (no I/O)."""
        with self._lock:
            cached = self._cached
            return cached.token if cached is not None and not self._expired(cached) else None

    def client_certificate(self) -> tuple[bytes, bytes] | None:
        """The client certificate and key the plugin returned, if it returned a pair."""
        result = self._current()
        return (result.cert, result.key) if result.cert and result.key else None

    def invalidate(self) -> None:
        """Forget the plugin's answer: the next ``token`` runs it again."""
        with self._lock:
            self._cached = None

    def __repr__(self) -> str:
        return f"ExecCredential(command={self.command!r}, api_version={self.api_version!r})"

    def _current(self) -> _ExecResult:
        with self._lock:
            if self._cached is None or self._expired(self._cached):
                self._cached = self._run()
            return self._cached

    def _expired(self, result: _ExecResult) -> bool:
        return result.expires is not None and self._clock() > result.expires

    def _what(self) -> str:
        return f"exec plugin {self.command}" + (f" (user {self._user!r})" if self._user else "")

    def _interactive_stdin(self) -> IO[Any] | None:
        """The stdin to hand the plugin, or None for no stdin; raises for Always without a terminal."""
        if self.interactive_mode == "Never":
            return None
        stdin = self._stdin if self._stdin is not None else sys.stdin
        if _is_terminal(stdin):
            return stdin
        if self.interactive_mode == "Always":
            raise CredentialError(f"{self._what()}: interactiveMode is Always, but standard input is not a terminal")
        return None

    def _run(self) -> _ExecResult:
        stdin = self._interactive_stdin()
        request: dict[str, Any] = {"interactive": stdin is not None}
        if self._cluster is not None:
            request["cluster"] = self._cluster
        info = {"kind": "ExecCredential", "apiVersion": self.api_version, "spec": request}
        env = {**os.environ, **self._env, "KUBERNETES_EXEC_INFO": json.dumps(info, separators=(",", ":"))}
        executable = self.command if os.sep in self.command else shutil.which(self.command)
        if executable is None or not os.path.exists(executable):
            hint = f"\n\n{self._install_hint}" if self._install_hint else ""
            raise CredentialError(f"{self._what()}: executable {self.command} not found{hint}")

        started = time.monotonic()
        try:
            proc = subprocess.Popen(
                [executable, *self._args],
                stdin=stdin if stdin is not None else subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=None,  # inherited: fd 2, as client-go's cmd.Stderr = os.Stderr
                env=env,
                shell=False,
            )
        except OSError as e:
            raise CredentialError(f"{self._what()}: cannot run it: {e.strerror}") from None
        stdout, _ = proc.communicate()
        log.debug("%s exited %s after %.2fs", self._what(), proc.returncode, time.monotonic() - started)
        if proc.returncode != 0:
            raise CredentialError(
                f"{self._what()} failed with exit code {proc.returncode} (its messages, if any, are on standard error)"
            )
        return self._decode(stdout)

    def _decode(self, stdout: bytes) -> _ExecResult:
        what = self._what()
        try:
            doc = json.loads(stdout)
        except ValueError:
            raise CredentialError(f"{what}: decoding stdout: not JSON") from None
        if not isinstance(doc, dict):
            raise CredentialError(f"{what}: decoding stdout: expected an ExecCredential object")
        returned = doc.get("apiVersion")
        if returned != self.api_version:
            shown = returned if isinstance(returned, str) and len(returned) < 100 else type(returned).__name__
            raise CredentialError(
                f"{what} is configured to use API version {self.api_version}, plugin returned version {shown}"
            )
        if doc.get("kind") != "ExecCredential":
            raise CredentialError(f"{what}: decoding stdout: kind is not ExecCredential")
        status = doc.get("status")
        if not isinstance(status, dict):
            raise CredentialError(f"{what} didn't return a status field")
        token = status.get("token") or None
        cert = status.get("clientCertificateData") or None
        key = status.get("clientKeyData") or None
        if not all(v is None or isinstance(v, str) for v in (token, cert, key)):
            raise CredentialError(f"{what}: status.token, clientCertificateData and clientKeyData must be strings")
        if token is None and cert is None and key is None:
            raise CredentialError(f"{what} didn't return a token or cert/key pair")
        if (cert is None) != (key is None):
            raise CredentialError(f"{what} returned only certificate or key, not both")
        expires = None
        if status.get("expirationTimestamp"):
            try:
                expires = parse_rfc3339(str(status["expirationTimestamp"]))
            except ValueError:
                raise CredentialError(f"{what}: status.expirationTimestamp is not an RFC 3339 time") from None
        return _ExecResult(
            token=token,
            cert=cert.encode() if cert else None,
            key=key.encode() if key else None,
            expires=expires,
        )


def _is_terminal(stream: Any) -> bool:
    try:
        return bool(stream is not None and os.isatty(stream.fileno()))
    except (AttributeError, OSError, ValueError):
        return False  # pytest's captured stdin, closed streams, StringIO, …


_RFC3339 = re.compile(r"^(\d{4}-\d{2}-\d{2})[Tt ](\d{2}:\d{2}:\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$")


def parse_rfc3339(text: str) -> datetime:
    """An RFC 3339 time as Kubernetes writes it (``Z`` or an offset, up to nanoseconds)."""
    m = _RFC3339.match(text.strip())
    if not m:
        raise ValueError(f"not an RFC 3339 time: {text!r}")
    date, clock, fraction, zone = m.groups()
    micros = (fraction or ".0")[1:7].ljust(6, "0")
    offset = "+00:00" if zone in ("Z", "z") else zone
    return datetime.fromisoformat(f"{date}T{clock}.{micros}{offset}")
