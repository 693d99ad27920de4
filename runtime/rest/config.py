"""client-go's rest/config.go: how to reach one apiserver, and client-go's defaults for it.

``Config`` is rest.Config (the parts kgen uses): the server, how to trust it (CA, insecure,
TLS server name), who we are to it (client certificate, bearer credentials, basic auth), the
proxy, and the client-side limits. ``DEFAULT_QPS`` / ``DEFAULT_BURST`` are rest.DefaultQPS /
rest.DefaultBurst, and ``token_bucket`` is rest.RESTClientFor's rule for building the rate
limiter from them. ``in_cluster_config`` is rest.InClusterConfig: the configuration of a pod.
Kubeconfig files (clientcmd) are read by ``kgen.runtime.rest.kubeconfig``.

Secrets held here (tokens, keys, passwords, proxy passwords) never appear in ``repr``, logs or
error messages. Importing this module is cheap: YAML and httpx are imported when used.
"""

from __future__ import annotations

import logging
import os
import platform
import ssl
import sys
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Union
from urllib.parse import urlsplit

from kgen.runtime.util.flowcontrol import TokenBucket

if TYPE_CHECKING:
    import httpx

    from kgen.runtime.rest.auth import Credentials

log = logging.getLogger("kgen.runtime.rest.config")
"""The logger of in-cluster config problems (a CA that cannot be read)."""

PathLike = Union[str, "os.PathLike[str]"]
"""A path, as a string or a path-like object."""

DEFAULT_QPS = 5.0
"""client-go's rest.DefaultQPS and rest.DefaultBurst (rest/config.go): the client-side rate limit
a REST client gets from a Config that leaves ``qps``/``burst`` at 0, their zero value."""
DEFAULT_BURST = 10
"""client-go's rest.DefaultBurst: the burst a REST client gets from a Config that leaves ``burst`` at 0."""
SERVICE_ACCOUNT_DIR = "/var/run/secrets/kubernetes.io/serviceaccount"
"""Where kubelet mounts a pod's service-account token, CA and namespace."""


class ConfigError(ValueError):
    """A configuration that cannot be used: says which file and which entry, never a secret."""


class NoConfigurationError(ConfigError):
    """Nothing was configured at all (no kubeconfig file, no context, not in a pod): client-go's
    clientcmd.ErrEmptyConfig and rest.ErrNotInCluster. The message lists the places looked and the
    ways to give a configuration."""


GIVE_A_CONFIGURATION = (
    "give one with $KUBECONFIG=<file>, a path (Clientset.from_kubeconfig(path=...), load_kubeconfig(path=...)), "
    "or, inside a pod, Clientset.in_cluster()"
)
"""The ways to give a configuration, ending every NoConfigurationError."""


@lru_cache(maxsize=1)
def default_user_agent() -> str:
    """``kgen/<version> (<os>/<arch>) python/<version>``, shaped like client-go's user agent."""
    try:
        from importlib.metadata import version

        kgen_version = version("kgen")
    except Exception:  # not installed as a distribution (vendored, zipapp, …)
        kgen_version = "unknown"
    goos = {"win32": "windows", "cygwin": "windows"}.get(sys.platform, sys.platform)
    machine = platform.machine().lower()
    goarch = {"x86_64": "amd64", "aarch64": "arm64", "i686": "386", "i386": "386"}.get(machine, machine)
    return f"kgen/{kgen_version} ({goos}/{goarch}) python/{platform.python_version()}"


@dataclass(repr=False)
class Config:
    """How to reach one apiserver: client-go's ``rest.Config``, the parts kgen uses."""

    host: str  # "https://host:port", maybe with a path prefix; no trailing slash
    namespace: str = "default"
    ca_data: bytes | None = None
    insecure_skip_tls_verify: bool = False
    tls_server_name: str | None = None
    """The name to verify the server's certificate against (and send as SNI) instead of the
    host's; the REST client passes it per request as httpx's ``sni_hostname`` extension."""
    cert_data: bytes | None = field(default=None, repr=False)
    key_data: bytes | None = field(default=None, repr=False)
    proxy_url: str | None = None
    """The cluster's proxy-url. Without one, httpx honours HTTPS_PROXY/NO_PROXY (trust_env)."""
    credentials: Credentials | None = None
    username: str | None = field(default=None, repr=False)
    password: str | None = field(default=None, repr=False)
    qps: float = 0.0
    """rest.Config's QPS and Burst, zero values included: 0 is "not set", which the REST client
    turns into DEFAULT_QPS / DEFAULT_BURST (token_bucket) and controller-runtime's config
    getters, as kgen's Manager, into "no client-side limit"; < 0 disables the limiter."""
    burst: int = 0
    timeout: float | None = None
    """client-go's Config.Timeout, in seconds: how long any wait of a request (dialing, sending,
    each read of the answer) may last before it fails with httpx.TimeoutException. None keeps
    kgen's bounds (kgen.runtime.rest.transport): 30 s to dial, 75 s of silence for a request
    whose answer is read whole, a watch's idle timeout; a Request's own ``timeout`` wins."""
    user_agent: str = field(default_factory=default_user_agent)

    def __repr__(self) -> str:
        shown = []
        for f in fields(self):
            value = getattr(self, f.name)
            if not f.repr or (f.name not in ("host", "namespace") and value == f.default):
                continue
            if f.name in ("host", "proxy_url") and value:
                shown.append(f"{f.name}={_without_userinfo(value)!r}")
            elif f.name == "ca_data" and value:
                shown.append(f"ca_data=<{len(value)} bytes>")
            elif f.name != "user_agent":
                shown.append(f"{f.name}={value!r}")
        if self.cert_data:
            shown.append("client_certificate=<set>")
        if self.username is not None or self.password is not None:
            shown.append("basic_auth=<set>")
        return f"Config({', '.join(shown)})"

    def ssl_context(self) -> ssl.SSLContext:
        """Verifying TLS by default: only ``ca_data`` is trusted when set, else the system's roots.

        The client certificate is ``cert_data``/``key_data``, else the one an exec plugin
        returned (the plugin runs now, if it has not yet).
        """
        cert, key = self.cert_data, self.key_data
        if not (cert and key) and self.credentials is not None:
            pair = getattr(self.credentials, "client_certificate", lambda: None)()
            if pair:
                cert, key = pair
        return _tls_context(self.ca_data, self.insecure_skip_tls_verify, cert, key)

    def httpx_auth(self) -> httpx.Auth | None:
        """Bearer credentials (renewed and retried once on a 401), else basic auth, else None."""
        if self.credentials is not None:
            from kgen.runtime.rest.auth import BearerTokenAuth

            return BearerTokenAuth(self.credentials)
        if self.username is not None or self.password is not None:
            import httpx

            return httpx.BasicAuth(self.username or "", self.password or "")
        return None


def _tls_context(ca: bytes | None, insecure: bool, cert: bytes | None, key: bytes | None) -> ssl.SSLContext:
    if insecure and ca:
        # client-go (transport.TLSConfigFor) refuses this combination rather than guess.
        raise ConfigError("specifying a root certificate with the insecure flag is not allowed")
    try:
        ctx = ssl.create_default_context(cadata=ca.decode("latin-1") if ca else None)
    except ssl.SSLError:
        raise ConfigError("the certificate authority is not a PEM certificate") from None
    if insecure:
        ctx.check_hostname = False
        ctx.verify_mode = ssl.CERT_NONE
    if cert and key:
        _load_cert_chain(ctx, cert, key)
    return ctx


def _load_cert_chain(ctx: ssl.SSLContext, cert: bytes, key: bytes) -> None:
    # ssl only loads client certificates from files: write them to a private folder for
    # the duration of the call.
    with tempfile.TemporaryDirectory(prefix="kgen-tls-") as tmp:
        paths = []
        for name, data in (("tls.crt", cert), ("tls.key", key)):
            path = os.path.join(tmp, name)
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "wb") as f:
                f.write(data)
            paths.append(path)
        try:
            ctx.load_cert_chain(paths[0], paths[1])
        except ssl.SSLError:
            raise ConfigError("the client certificate and key are not a matching PEM pair") from None


def _without_userinfo(url: str) -> str:
    parts = urlsplit(url)
    if "@" not in parts.netloc:
        return url
    return parts._replace(netloc="<redacted>@" + parts.netloc.rsplit("@", 1)[1]).geturl()



def _check_tls(where: str, *, ca: bytes | None = None, cert: bytes | None = None, key: bytes | None = None) -> None:
    """Fails at load time, naming the entry, rather than at the first request."""
    try:
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
        if ca:
            try:
                ctx.load_verify_locations(cadata=ca.decode("latin-1"))
            except ssl.SSLError:
                raise ConfigError("the certificate authority is not a PEM certificate") from None
        if cert and key:
            _load_cert_chain(ctx, cert, key)
    except ConfigError as e:
        raise ConfigError(f"{where}: {e}") from None


def token_bucket(qps: float, burst: int) -> TokenBucket | None:
    """client-go's rule (rest.RESTClientFor): a limiter only when qps > 0; 0 means the default
    (qps 5, burst 10), a negative qps disables client-side throttling."""
    qps = qps or DEFAULT_QPS
    burst = burst or DEFAULT_BURST
    return TokenBucket(qps, burst) if qps > 0 else None


# -- in-cluster -------------------------------------------------------------------------------


def in_cluster_config(
    *,
    namespace: str | None = None,
    service_account_dir: PathLike = SERVICE_ACCOUNT_DIR,
    environ: Mapping[str, str] | None = None,
) -> Config:
    """A pod's configuration (rest.InClusterConfig): the apiserver at
    ``KUBERNETES_SERVICE_HOST:KUBERNETES_SERVICE_PORT``, the service-account CA and token
    (re-read about every minute and after a 401: kubelet rotates it), and the pod's namespace
    (``POD_NAMESPACE``, else the service account's namespace file, else "default")."""
    from kgen.runtime.rest.auth import CredentialError, service_account_token

    env = os.environ if environ is None else environ
    host, port = env.get("KUBERNETES_SERVICE_HOST", ""), env.get("KUBERNETES_SERVICE_PORT", "")
    if not host or not port:
        raise NoConfigurationError(
            "unable to load in-cluster configuration, KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT must be "
            "defined (they are inside a pod); outside one, read a kubeconfig: Clientset.from_kubeconfig()"
        )
    folder = Path(service_account_dir)
    credentials = service_account_token(folder)
    try:
        credentials.token()
    except CredentialError as e:
        raise ConfigError(f"in-cluster configuration: {e}") from None
    ca: bytes | None = None
    try:
        ca = (folder / "ca.crt").read_bytes()
        _check_tls(str(folder / "ca.crt"), ca=ca)
    except (OSError, ConfigError) as e:
        # client-go logs this and goes on with the system's roots.
        log.error("expected to load the root CA from %s, but: %s", folder / "ca.crt", getattr(e, "strerror", None) or e)
        ca = None
    if ":" in host and not host.startswith("["):
        host = f"[{host}]"  # net.JoinHostPort brackets IPv6 literals
    return Config(
        host=f"https://{host}:{port}",
        namespace=namespace or env.get("POD_NAMESPACE") or _namespace_file(folder) or "default",
        ca_data=ca,
        credentials=credentials,
    )


def _namespace_file(folder: Path) -> str:
    try:
        return (folder / "namespace").read_text().strip()
    except (OSError, UnicodeDecodeError):
        return ""
