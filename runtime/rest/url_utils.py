"""client-go's rest/url_utils.go for a kubeconfig's ``server``: DefaultServerURL (the scheme a
bare ``host:port`` gets) and, beyond it, the check that the URL can be reached at all.

client-go accepts a server URL such as ``ht!tp://::::`` when it loads the kubeconfig and fails
at the first request with the resolver's "Name or service not known", which names neither the
URL nor the kubeconfig. Here such a URL is refused at load, naming the kubeconfig file, the
cluster and the context: the scheme must be http or https, and the URL must name a host (a DNS
name or an IP address) and, if it gives one, a port from 1 to 65535.
"""

from __future__ import annotations

import ipaddress
import re
from urllib.parse import urlsplit

from kgen.runtime.rest.config import ConfigError

_HOST_NAME = re.compile(r"[A-Za-z0-9_]([A-Za-z0-9_.-]*[A-Za-z0-9_.])?")
"""A DNS name as resolvers take it (letters, digits, '-', '_' and dots); an IP literal is checked apart."""


def server_url(server: str, *, tls: bool, where: str) -> str:
    """The URL requests go to: client-go's DefaultServerURL (a server without a scheme gets https
    when TLS is configured, else http; a query or fragment is dropped; no trailing slash), after
    checking it can be reached. ConfigError naming ``where`` (the file, cluster and context) otherwise."""
    try:
        parts = urlsplit(server)
        if not parts.scheme or not parts.netloc:
            parts = urlsplit(("https://" if tls else "http://") + server)
        url = f"{parts.scheme}://{parts.netloc}{parts.path}".rstrip("/")
        problem = _problem(server, url)
    except ValueError as e:  # urlsplit's own: an unclosed IPv6 bracket
        problem = str(e)
    if problem:
        raise ConfigError(f"{where}: server {_shown(server)!r}: {problem} (expected a URL like https://host:6443)")
    return url


def _problem(server: str, url: str) -> str:
    """Why ``url`` (made from the kubeconfig's ``server``) can never be reached, or ""."""
    scheme, sep, _ = server.partition("://")
    if sep and scheme.lower() not in ("http", "https"):
        return f"scheme {scheme!r} is not http or https"
    if sep and not urlsplit(server).netloc:
        return "no host"
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https"):
        return f"scheme {parts.scheme!r} is not http or https"
    try:
        port = parts.port
    except ValueError:
        return f"port {parts.netloc.rpartition(':')[2]!r} is not a number from 1 to 65535"
    if port == 0:
        return "port 0 is not a number from 1 to 65535"
    host = parts.hostname or ""
    if not host:
        return "no host"
    if not _valid_host(host):
        return f"host {host!r} is neither a host name nor an IP address"
    return ""


def _shown(server: str) -> str:
    return re.sub(r"//[^/@]*@", "//<redacted>@", server)  # a user:password@ never reaches a message


def _valid_host(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
        return True
    except ValueError:
        return bool(_HOST_NAME.fullmatch(host)) and ".." not in host
