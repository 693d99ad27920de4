"""client-go's clientcmd for Python: kubeconfig files, loaded, merged and turned into a ``Config``.

``load_kubeconfig`` reads kubeconfig files by clientcmd's rules (loader.go, client_config.go,
validation.go), and ``load_config`` picks between a kubeconfig and the in-cluster configuration
like client-go's default loading rules: a kubeconfig when one is found, else in-cluster.

Merging (clientcmd ``ClientConfigLoadingRules.Load``): the files of ``$KUBECONFIG`` (or a list
of paths) are read in order; the first file to define a cluster, user or context of a given
name wins it whole (entries are never merged field by field), and the first file that sets
``current-context`` wins that. Relative paths in an entry resolve against the folder of the
file that holds the entry. Missing files in such a list are skipped; a single path given
explicitly must exist (``--kubeconfig``).

Where client-go refuses a kubeconfig, so does kgen, with the same reasons: both ``*-data`` and
the file form of a CA, certificate or key; a CA together with ``insecure-skip-tls-verify``;
both a token and basic auth; an exec plugin next to an auth-provider. One deliberate
difference: a context that names a user that does not exist is an error here (client-go
silently goes on without credentials), as is one naming a missing cluster (client-go then
reports that no configuration was provided).

No secret from a kubeconfig appears in an error message. YAML is imported when a file is read;
the credential modules (and httpx) when a user entry needs them.
"""

from __future__ import annotations

import base64
import binascii
import json
import logging
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from kgen.runtime.rest.config import (
    GIVE_A_CONFIGURATION,
    SERVICE_ACCOUNT_DIR,
    Config,
    ConfigError,
    NoConfigurationError,
    PathLike,
    _check_tls,
    in_cluster_config,
)
from kgen.runtime.rest.url_utils import server_url

if TYPE_CHECKING:
    from kgen.runtime.rest.auth import Credentials

log = logging.getLogger("kgen.runtime.rest.kubeconfig")
"""The logger of kubeconfig loading."""

_PROXY_SCHEMES = ("http", "https", "socks5")


def kubeconfig_paths() -> list[Path]:
    """client-go's default precedence: the files of ``$KUBECONFIG`` (deduplicated), else
    ``~/.kube/config``."""
    env = os.environ.get("KUBECONFIG", "")
    paths = [p for p in env.split(os.pathsep) if p]
    if not paths:
        return [Path.home() / ".kube" / "config"]
    return [Path(p) for p in dict.fromkeys(paths)]


@dataclass
class _Entry:
    body: dict[str, Any]
    source: Path  # the file that defined it: relative paths in it resolve against its folder


@dataclass
class _Kubeconfig:
    """One or more kubeconfig files, merged."""

    files: list[Path] = field(default_factory=list)
    clusters: dict[str, _Entry] = field(default_factory=dict)
    users: dict[str, _Entry] = field(default_factory=dict)
    contexts: dict[str, _Entry] = field(default_factory=dict)
    current_context: str = ""

    @property
    def where(self) -> str:
        return ", ".join(map(str, self.files))

    def add(self, path: Path, doc: Mapping[str, Any]) -> None:
        self.files.append(path)
        for plural, singular in (("clusters", "cluster"), ("users", "user"), ("contexts", "context")):
            merged: dict[str, _Entry] = getattr(self, plural)
            for name, body in _named_entries(doc, plural, singular, path).items():
                merged.setdefault(name, _Entry(body, path))
        if not self.current_context and doc.get("current-context"):
            self.current_context = str(doc["current-context"])


def _named_entries(doc: Mapping[str, Any], plural: str, singular: str, path: Path) -> dict[str, dict[str, Any]]:
    entries = doc.get(plural) or []
    if not isinstance(entries, list):
        raise ConfigError(f"{path}: '{plural}' must be a list")
    named: dict[str, dict[str, Any]] = {}
    for i, entry in enumerate(entries):
        if not isinstance(entry, dict) or not isinstance(entry.get("name"), str) or not entry["name"]:
            raise ConfigError(f"{path}: {plural}[{i}] needs a 'name' and a '{singular}' mapping")
        body = entry.get(singular) or {}
        if not isinstance(body, dict):
            raise ConfigError(f"{path}: {singular} {entry['name']!r}: '{singular}' must be a mapping")
        if entry["name"] in named:
            raise ConfigError(f"{path}: duplicate name {entry['name']!r} in '{plural}'")
        named[entry["name"]] = body
    return named


def _read_kubeconfig(path: Path) -> dict[str, Any]:
    try:
        text = path.read_text()
    except OSError as e:
        raise ConfigError(f"{path}: cannot read kubeconfig: {e.strerror}") from None
    except UnicodeDecodeError:
        raise ConfigError(f"{path}: cannot read kubeconfig: not UTF-8 text") from None
    try:
        import yaml  # only here, so importing the runtime stays cheap
    except ImportError:
        # kgen-runtime without its `kubeconfig` extra (PyYAML): a JSON kubeconfig, which is
        # YAML too and which kubectl reads alike, still loads.
        return _read_json_kubeconfig(path, text)
    try:
        doc = yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except yaml.YAMLError as e:
        # PyYAML's own message quotes the offending line, which may hold a token: give only
        # the position and the problem.
        mark = getattr(e, "problem_mark", None)
        at = f" at line {mark.line + 1}, column {mark.column + 1}" if mark is not None else ""
        problem = getattr(e, "problem", None) or "syntax error"
        raise ConfigError(f"{path}: not valid YAML{at}: {problem}") from None
    if doc is None:
        return {}
    if not isinstance(doc, dict):
        raise ConfigError(f"{path}: expected a kubeconfig mapping (kind: Config)")
    return doc


def _read_json_kubeconfig(path: Path, text: str) -> dict[str, Any]:
    try:
        doc = json.loads(text) if text.strip() else None
    except ValueError:
        raise ConfigError(
            f"{path}: a YAML kubeconfig needs PyYAML: pip install 'kgen-runtime[kubeconfig]'"
        ) from None
    if doc is None:
        return {}
    if not isinstance(doc, dict):
        raise ConfigError(f"{path}: expected a kubeconfig mapping (kind: Config)")
    return doc


def _load_files(paths: Sequence[Path], *, explicit: bool) -> _Kubeconfig:
    merged = _Kubeconfig()
    for path in paths:
        if not explicit and not path.exists():
            log.debug("kubeconfig %s does not exist: skipped", path)
            continue
        merged.add(path, _read_kubeconfig(path))
    return merged


def _looked_for(paths: Sequence[Path], *, from_env: bool) -> str:
    """Where a kubeconfig was looked for, in the user's words ($KUBECONFIG's entries, ~/.kube/config)."""
    files = ", ".join(map(str, paths))
    if not from_env:
        return files
    if os.environ.get("KUBECONFIG", ""):
        return f"$KUBECONFIG's files ({files})"
    return f"~/.kube/config ({files}; $KUBECONFIG is unset)"


def load_kubeconfig(
    path: PathLike | Sequence[PathLike] | None = None,
    context: str | None = None,
    *,
    cluster: str | None = None,
    user: str | None = None,
    namespace: str | None = None,
) -> Config:
    """The configuration a kubeconfig's context describes (kubectl's ``--kubeconfig``,
    ``--context``, ``--cluster``, ``--user``, ``--namespace``).

    ``path``: one file (must exist), or several to merge (missing ones skipped), or None for
    ``$KUBECONFIG`` / ``~/.kube/config``. ``context`` defaults to the merged current-context;
    ``cluster`` and ``user`` replace the ones the context names; ``namespace`` replaces its
    namespace (else the context's, else "default").
    """
    if path is None:
        paths, explicit = kubeconfig_paths(), False
    elif isinstance(path, (str, os.PathLike)):
        paths, explicit = [Path(path)], True
    else:
        paths, explicit = [Path(p) for p in path], False
    kubeconfig = _load_files(paths, explicit=explicit)
    if not kubeconfig.files:
        raise NoConfigurationError(f"no kubeconfig found: looked for {_looked_for(paths, from_env=path is None)}; {GIVE_A_CONFIGURATION}")
    return _config_from(kubeconfig, context=context, cluster=cluster, user=user, namespace=namespace)


def _config_from(
    kc: _Kubeconfig, *, context: str | None, cluster: str | None, user: str | None, namespace: str | None
) -> Config:
    context_name = context or kc.current_context
    ctx: dict[str, Any] = {}
    origin = ""  # which context named the cluster and user, for error messages
    if context_name:
        entry = kc.contexts.get(context_name)
        if entry is None:
            which = "" if context else " (the current-context)"
            raise ConfigError(f"{kc.where}: no context named {context_name!r}{which}{_known(kc.contexts)}")
        ctx, origin = entry.body, f" of context {context_name!r} in {entry.source}"
    cluster_name = cluster or _string(ctx, "cluster", f"{kc.where}: context {context_name!r}")
    if not cluster_name:
        if not context_name:
            raise NoConfigurationError(
                f"{kc.where}: no current-context set and no context given: pass context= "
                "(Clientset.from_kubeconfig(context=...)) or set one (kubectl config use-context NAME)"
            )
        raise ConfigError(f"{kc.where}: context {context_name!r} names no cluster")
    cluster_entry = kc.clusters.get(cluster_name)
    if cluster_entry is None:
        named_by = "" if cluster else f" (the cluster{origin})"
        raise ConfigError(f"{kc.where}: no cluster named {cluster_name!r}{named_by}")
    user_name = user or _string(ctx, "user", f"{kc.where}: context {context_name!r}")
    user_entry = kc.users.get(user_name) if user_name else None
    if user_name and user_entry is None:
        named_by = "" if user else f" (the user{origin})"
        raise ConfigError(f"{kc.where}: no user named {user_name!r}{named_by}")

    config, server = _cluster_config(cluster_name, cluster_entry)
    if user_entry is not None:
        _apply_client_certificate(config, user_name, user_entry)
    where = f"{cluster_entry.source}: cluster {cluster_name!r}" + (
        f" (of context {context_name!r})" if context_name and not cluster else ""
    )
    tls = bool(config.ca_data or config.cert_data or config.insecure_skip_tls_verify)
    config.host = server_url(server, tls=tls, where=where)
    if user_entry is not None:
        _apply_credentials(config, user_name, user_entry, cluster_entry)
    config.namespace = namespace or _string(ctx, "namespace", f"{kc.where}: context {context_name!r}") or "default"
    return config


def _known(entries: Mapping[str, Any]) -> str:
    names = sorted(entries)
    return f"; known: {', '.join(names)}" if names else "; the kubeconfig defines none"


def _cluster_config(name: str, entry: _Entry) -> tuple[Config, str]:
    """The cluster's part of the configuration, and its server (made a URL once the user's
    client certificate, if any, is known: client-go defaults to https when TLS is configured)."""
    c, where = entry.body, f"{entry.source}: cluster {name!r}"
    server = _string(c, "server", where)
    if not server:
        raise ConfigError(f"{where}: no 'server'")
    ca = _data_or_file(c, "certificate-authority-data", "certificate-authority", entry.source, where)
    insecure = _flag(c, "insecure-skip-tls-verify", where)
    if insecure and ca:
        raise ConfigError(
            f"{where}: certificate-authority and insecure-skip-tls-verify are both set "
            "(client-go refuses a root certificate with the insecure flag)"
        )
    if ca:
        _check_tls(where, ca=ca)
    proxy_url = _string(c, "proxy-url", where) or None
    if proxy_url:
        parts = urlsplit(proxy_url)
        if parts.scheme not in _PROXY_SCHEMES or not parts.hostname:
            raise ConfigError(
                f"{where}: invalid 'proxy-url': scheme must be http, https or socks5, and a host is needed"
            )
    config = Config(
        host=server,
        ca_data=ca,
        insecure_skip_tls_verify=insecure,
        tls_server_name=_string(c, "tls-server-name", where) or None,
        proxy_url=proxy_url,
    )
    return config, server


def _apply_client_certificate(config: Config, name: str, entry: _Entry) -> None:
    u, where = entry.body, f"{entry.source}: user {name!r}"
    cert = _data_or_file(u, "client-certificate-data", "client-certificate", entry.source, where)
    key = _data_or_file(u, "client-key-data", "client-key", entry.source, where)
    if cert and not key:
        raise ConfigError(f"{where}: client-key-data or client-key must be specified to use the client certificate")
    if key and not cert:
        raise ConfigError(f"{where}: a client key without a client certificate")
    if cert and key:
        _check_tls(where, cert=cert, key=key)
        config.cert_data, config.key_data = cert, key


def _apply_credentials(config: Config, name: str, entry: _Entry, cluster: _Entry) -> None:
    from kgen.runtime.rest import auth

    u, where = entry.body, f"{entry.source}: user {name!r}"
    token = _string(u, "token", where)
    token_file = _string(u, "tokenFile", where)
    username, password = _string(u, "username", where), _string(u, "password", where)
    if (token or token_file) and (username or password):
        raise ConfigError(f"{where}: more than one authentication method found (token, basicAuth); only one is allowed")
    exec_body, provider = u.get("exec"), u.get("auth-provider")
    if exec_body and provider:
        raise ConfigError(f"{where}: an auth-provider cannot be combined with an exec plugin")

    # client-go's precedence: a token (file) or basic auth, then (without a static client
    # certificate) an exec plugin, then an auth-provider.
    try:
        if token_file:
            path = _resolve(token_file, entry.source)
            config.credentials = auth.TokenFile(path, fallback=token or None)
            config.credentials.token()  # read now, as client-go does: a bad path fails here
        elif token:
            config.credentials = auth.StaticToken(token)
        elif username or password:
            config.username, config.password = username or None, password or None
        elif exec_body and not config.cert_data:
            config.credentials = _exec_credential(exec_body, name, entry, config, cluster, where)
        elif provider:
            config.credentials = _auth_provider(provider, where)
    except auth.CredentialError as e:
        raise ConfigError(f"{where}: {e}") from None


def _exec_credential(body: Any, user: str, entry: _Entry, config: Config, cluster: _Entry, where: str) -> Credentials:
    from kgen.runtime.rest.exec_plugin import ExecCredential

    if not isinstance(body, dict):
        raise ConfigError(f"{where}: 'exec' must be a mapping")
    command = _string(body, "command", f"{where}: exec")
    if not command:
        raise ConfigError(f"{where}: exec: command must be specified to use an exec credential plugin")
    api_version = _string(body, "apiVersion", f"{where}: exec")
    if not api_version:
        raise ConfigError(f"{where}: exec: apiVersion must be specified to use an exec credential plugin")
    if os.sep in command:  # a bare name is looked up on PATH; a path is relative to the file
        command = str(_resolve(command, entry.source))
    args = body.get("args") or []
    if not isinstance(args, list) or not all(isinstance(a, str) for a in args):
        raise ConfigError(f"{where}: exec: 'args' must be a list of strings")
    env: dict[str, str] = {}
    for var in body.get("env") or []:
        if not isinstance(var, dict) or not var.get("name"):
            raise ConfigError(f"{where}: exec: env variable name must be specified")
        env[str(var["name"])] = str(var.get("value") or "")
    mode = _string(body, "interactiveMode", f"{where}: exec")
    if not mode:
        if api_version != "client.authentication.k8s.io/v1beta1":
            raise ConfigError(f"{where}: exec: interactiveMode must be specified (client.authentication.k8s.io/v1)")
        mode = "IfAvailable"  # clientcmd's default for v1beta1
    cluster_info = _exec_cluster_info(config, cluster) if body.get("provideClusterInfo") else None
    return ExecCredential(
        command,
        args,
        env,
        api_version=api_version,
        interactive_mode=mode,
        install_hint=_string(body, "installHint", f"{where}: exec"),
        cluster=cluster_info,
        user=user,
    )


def _exec_cluster_info(config: Config, cluster: _Entry) -> dict[str, Any]:
    """``spec.cluster`` of KUBERNETES_EXEC_INFO (client.authentication.k8s.io Cluster)."""
    info: dict[str, Any] = {"server": config.host}
    if config.tls_server_name:
        info["tls-server-name"] = config.tls_server_name
    if config.insecure_skip_tls_verify:
        info["insecure-skip-tls-verify"] = True
    if config.ca_data:
        info["certificate-authority-data"] = base64.b64encode(config.ca_data).decode()
    if config.proxy_url:
        info["proxy-url"] = config.proxy_url
    if cluster.body.get("disable-compression"):
        info["disable-compression"] = True
    for ext in cluster.body.get("extensions") or []:
        if isinstance(ext, dict) and ext.get("name") == "client.authentication.k8s.io/exec":
            info["config"] = ext.get("extension")
    return info


def _auth_provider(provider: Any, where: str) -> Credentials:
    from kgen.runtime.rest.auth import OIDCIdToken

    if not isinstance(provider, dict):
        raise ConfigError(f"{where}: 'auth-provider' must be a mapping")
    name = provider.get("name")
    cfg = provider.get("config") or {}
    if name == "oidc":
        for required in ("idp-issuer-url", "client-id"):
            if not cfg.get(required):
                raise ConfigError(f"{where}: auth-provider oidc: must provide {required}")
        if not cfg.get("id-token"):
            raise ConfigError(
                f"{where}: auth-provider oidc has no id-token, and kgen does not run the refresh flow: "
                "log in first, or use an exec credential plugin"
            )
        return OIDCIdToken(str(cfg["id-token"]))
    if name in ("gcp", "azure"):
        raise ConfigError(
            f"{where}: the {name} auth-provider was removed from client-go (1.26): use its exec credential "
            "plugin (gke-gcloud-auth-plugin, kubelogin)"
        )
    raise ConfigError(f"{where}: unknown auth-provider {name!r} (kgen supports oidc, and exec plugins)")


def _data_or_file(body: Mapping[str, Any], data_key: str, file_key: str, source: Path, where: str) -> bytes | None:
    data, file = body.get(data_key), body.get(file_key)
    if data and file:
        raise ConfigError(f"{where}: {data_key} and {file_key} are both specified; keep one")
    if data:
        try:
            return base64.b64decode("".join(str(data).split()), validate=True)
        except (binascii.Error, ValueError):
            raise ConfigError(f"{where}: {data_key} is not valid base64") from None
    if file:
        path = _resolve(str(file), source)
        try:
            return path.read_bytes()
        except OSError as e:
            raise ConfigError(f"{where}: cannot read {file_key} {path}: {e.strerror}") from None
    return None


def _resolve(path: str, source: Path) -> Path:
    """clientcmd's ResolvePaths: relative to the folder of the file that names it."""
    p = Path(path)
    return p if p.is_absolute() else source.resolve().parent / p


def _string(body: Mapping[str, Any], key: str, where: str) -> str:
    value = body.get(key)
    if value is None:
        return ""
    if isinstance(value, (dict, list)):
        raise ConfigError(f"{where}: '{key}' must be a string")
    return str(value)


def _flag(body: Mapping[str, Any], key: str, where: str) -> bool:
    value = body.get(key, False)
    if not isinstance(value, bool):
        raise ConfigError(f"{where}: '{key}' must be true or false")
    return value


def _in_cluster_possible(folder: Path, env: Mapping[str, str]) -> bool:
    return (
        bool(env.get("KUBERNETES_SERVICE_HOST") and env.get("KUBERNETES_SERVICE_PORT")) and (folder / "token").is_file()
    )


def load_config(
    path: PathLike | Sequence[PathLike] | None = None,
    context: str | None = None,
    *,
    cluster: str | None = None,
    user: str | None = None,
    namespace: str | None = None,
    service_account_dir: PathLike = SERVICE_ACCOUNT_DIR,
) -> Config:
    """client-go's default: the kubeconfig (``path``, else ``$KUBECONFIG``, else
    ``~/.kube/config``) when one is found and chooses a context; otherwise, inside a pod, the
    in-cluster configuration. ``namespace`` applies to either."""
    try:
        return load_kubeconfig(path, context, cluster=cluster, user=user, namespace=namespace)
    except NoConfigurationError as e:
        if path is not None or context or cluster or user:
            raise
        if _in_cluster_possible(Path(service_account_dir), os.environ):
            return in_cluster_config(namespace=namespace, service_account_dir=service_account_dir)
        looked = str(e).removesuffix(f"; {GIVE_A_CONFIGURATION}")
        raise NoConfigurationError(
            f"{looked}; and not running in a cluster (KUBERNETES_SERVICE_HOST/PORT unset or no service-account "
            f"token in {service_account_dir}); {GIVE_A_CONFIGURATION}"
        ) from None
