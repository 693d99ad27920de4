"""Client configuration: where the apiserver is and how to trust and authenticate to it.

This module reads kubeconfig files the way kubectl does for the common case: a context picks
a cluster (server, CA) and a user (client certificate, bearer token). Secrets held here never
appear in ``repr``.
"""

from __future__ import annotations

import base64
import os
import ssl
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


class ConfigError(ValueError):
    """A kubeconfig that cannot be used: says which file and which entry."""


@dataclass
class Config:
    host: str
    ca_data: bytes | None = None
    insecure_skip_tls_verify: bool = False
    tls_server_name: str | None = None
    cert_data: bytes | None = field(default=None, repr=False)
    key_data: bytes | None = field(default=None, repr=False)
    token: str | None = field(default=None, repr=False)
    namespace: str = "default"

    def ssl_context(self) -> ssl.SSLContext:
        ctx = ssl.create_default_context(cadata=self.ca_data.decode() if self.ca_data else None)
        if self.insecure_skip_tls_verify:
            ctx.check_hostname = False
            ctx.verify_mode = ssl.CERT_NONE
        if self.cert_data and self.key_data:
            _load_cert_chain(ctx, self.cert_data, self.key_data)
        return ctx

    def auth_headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"} if self.token else {}


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
        ctx.load_cert_chain(paths[0], paths[1])


def default_kubeconfig_path() -> Path:
    env = os.environ.get("KUBECONFIG")
    if env:
        return Path(env.split(os.pathsep)[0])
    return Path.home() / ".kube" / "config"


def _named(entries: Any, name: str, kind: str, source: Path) -> dict[str, Any]:
    for entry in entries or []:
        if isinstance(entry, dict) and entry.get("name") == name:
            body = entry.get(kind)
            return body if isinstance(body, dict) else {}
    raise ConfigError(f"{source}: no {kind} named {name!r} (looked in '{kind}s')")


def _data_or_file(section: dict[str, Any], data_key: str, file_key: str, base: Path) -> bytes | None:
    if section.get(data_key):
        return base64.b64decode(str(section[data_key]))
    if section.get(file_key):
        path = base / str(section[file_key])
        try:
            return path.read_bytes()
        except OSError as e:
            raise ConfigError(f"{file_key}: cannot read {path}: {e.strerror}") from None
    return None


def load_kubeconfig(path: str | os.PathLike[str] | None = None, context: str | None = None) -> Config:
    import yaml  # only needed here, so importing the runtime stays cheap

    source = Path(path) if path is not None else default_kubeconfig_path()
    try:
        doc = yaml.safe_load(source.read_text())
    except OSError as e:
        raise ConfigError(f"{source}: cannot read kubeconfig: {e.strerror}") from None
    except yaml.YAMLError as e:
        raise ConfigError(f"{source}: not valid YAML: {e}") from None
    if not isinstance(doc, dict):
        raise ConfigError(f"{source}: expected a kubeconfig mapping")
    name = context or doc.get("current-context")
    if not name:
        raise ConfigError(f"{source}: no current-context set and no context given")
    ctx = _named(doc.get("contexts"), name, "context", source)
    cluster = _named(doc.get("clusters"), ctx.get("cluster", ""), "cluster", source)
    user = _named(doc.get("users"), ctx.get("user", ""), "user", source) if ctx.get("user") else {}
    if not cluster.get("server"):
        raise ConfigError(f"{source}: cluster {ctx.get('cluster')!r} has no 'server'")
    base = source.parent
    return Config(
        host=str(cluster["server"]).rstrip("/"),
        ca_data=_data_or_file(cluster, "certificate-authority-data", "certificate-authority", base),
        insecure_skip_tls_verify=bool(cluster.get("insecure-skip-tls-verify", False)),
        tls_server_name=cluster.get("tls-server-name"),
        cert_data=_data_or_file(user, "client-certificate-data", "client-certificate", base),
        key_data=_data_or_file(user, "client-key-data", "client-key", base),
        token=user.get("token"),
        namespace=ctx.get("namespace") or "default",
    )
