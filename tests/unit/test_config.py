"""Client configuration and credentials, without an apiserver.

The kubeconfig cases follow client-go's clientcmd tests (loader_test.go, client_config_test.go,
validation_test.go); exec plugins are real executables written into the test's folder.
"""

from __future__ import annotations

import asyncio
import base64
import json
import logging
import os
import ssl
import subprocess
import sys
import time
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import httpx
import pytest
import yaml

from kgen.runtime.rest import (
    DEFAULT_BURST,
    DEFAULT_QPS,
    BearerTokenAuth,
    Config,
    ConfigError,
    CredentialError,
    ExecCredential,
    NoConfigurationError,
    OIDCIdToken,
    StaticToken,
    TokenFile,
    auth,
    in_cluster_config,
    load_config,
    load_kubeconfig,
)
from kgen.runtime.rest.client import RESTClient
from kgen.runtime.rest.exec_plugin import parse_rfc3339
from kgen.runtime.testing._certs import CertificateAuthority

V1 = "client.authentication.k8s.io/v1"
V1BETA1 = "client.authentication.k8s.io/v1beta1"


# -- helpers ----------------------------------------------------------------------------------


def kubeconfig(
    clusters: dict[str, dict[str, Any]] | None = None,
    users: dict[str, dict[str, Any]] | None = None,
    contexts: dict[str, dict[str, Any]] | None = None,
    current: str | None = None,
) -> dict[str, Any]:
    doc: dict[str, Any] = {"apiVersion": "v1", "kind": "Config"}
    for plural, singular, entries in (
        ("clusters", "cluster", clusters),
        ("users", "user", users),
        ("contexts", "context", contexts),
    ):
        if entries is not None:
            doc[plural] = [{"name": name, singular: body} for name, body in entries.items()]
    if current is not None:
        doc["current-context"] = current
    return doc


def write(path: Path, doc: dict[str, Any] | str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(doc if isinstance(doc, str) else yaml.safe_dump(doc))
    return path


def b64(data: bytes | str) -> str:
    return base64.b64encode(data.encode() if isinstance(data, str) else data).decode()


# client-go loader_test.go's fixtures.
ALFA = kubeconfig(
    clusters={"cow-cluster": {"server": "http://cow.org:8080"}},
    users={"red-user": {"token": "red-token"}},
    contexts={"federal-context": {"cluster": "cow-cluster", "user": "red-user", "namespace": "hammer-ns"}},
)
BRAVO = kubeconfig(
    clusters={"pig-cluster": {"server": "http://pig.org:8080"}},
    users={"black-user": {"token": "black-token"}},
    contexts={"queen-anne-context": {"cluster": "pig-cluster", "user": "black-user", "namespace": "saw-ns"}},
)
CONFLICT_ALFA = kubeconfig(
    clusters={
        "cow-cluster": {"server": "http://a-different-cow.org:8080", "insecure-skip-tls-verify": True},
        "donkey-cluster": {"server": "http://donkey.org:8080", "insecure-skip-tls-verify": True},
    },
    users={"red-user": {"token": "a-different-red-token"}, "yellow-user": {"token": "yellow-token"}},
    contexts={"donkey-context": {"cluster": "donkey-cluster", "user": "yellow-user"}},
    current="federal-context",
)


@pytest.fixture
def pki() -> tuple[bytes, bytes, bytes]:
    """(CA certificate, client certificate, client key), PEM."""
    ca = CertificateAuthority()
    client = ca.client("jane", "devs")
    return ca.cert_pem, client.cert_pem, client.key_pem


@pytest.fixture(autouse=True)
def _no_ambient_kubeconfig(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Tests never see the developer's kubeconfig, pod environment or proxies."""
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    for var in ("KUBECONFIG", "KUBERNETES_SERVICE_HOST", "KUBERNETES_SERVICE_PORT", "POD_NAMESPACE"):
        monkeypatch.delenv(var, raising=False)


def token_of(config: Config) -> str | None:
    assert config.credentials is not None
    return config.credentials.token()


# -- kubeconfig: selection --------------------------------------------------------------------


def test_current_context_selects_cluster_user_and_namespace(tmp_path: Path) -> None:
    path = write(tmp_path / "config", {**ALFA, "current-context": "federal-context"})
    config = load_kubeconfig(path)
    assert config.host == "http://cow.org:8080"
    assert config.namespace == "hammer-ns"
    assert token_of(config) == "red-token"


def test_namespace_defaults_to_default_when_the_context_sets_none(tmp_path: Path) -> None:
    doc = kubeconfig({"c": {"server": "https://c.example"}}, {"u": {}}, {"ctx": {"cluster": "c", "user": "u"}}, "ctx")
    assert load_kubeconfig(write(tmp_path / "config", doc)).namespace == "default"


def test_context_cluster_user_and_namespace_overrides(tmp_path: Path) -> None:
    path = write(tmp_path / "config", {**ALFA, **{k: ALFA[k] + BRAVO[k] for k in ("clusters", "users", "contexts")}})
    config = load_kubeconfig(path, "queen-anne-context")
    assert (config.host, config.namespace, token_of(config)) == ("http://pig.org:8080", "saw-ns", "black-token")

    config = load_kubeconfig(path, "queen-anne-context", cluster="cow-cluster", user="red-user", namespace="ns-x")
    assert (config.host, config.namespace, token_of(config)) == ("http://cow.org:8080", "ns-x", "red-token")


def test_cluster_and_user_overrides_work_without_any_context(tmp_path: Path) -> None:
    path = write(tmp_path / "config", {k: v for k, v in ALFA.items() if k != "contexts"})
    config = load_kubeconfig(path, cluster="cow-cluster", user="red-user")
    assert (config.host, config.namespace, token_of(config)) == ("http://cow.org:8080", "default", "red-token")


def test_missing_context_is_an_error_naming_the_file_and_the_known_contexts(tmp_path: Path) -> None:
    path = write(tmp_path / "config", ALFA)
    with pytest.raises(ConfigError, match="no context named 'nope'; known: federal-context") as e:
        load_kubeconfig(path, "nope")
    assert str(path) in str(e.value)


def test_current_context_naming_no_context_is_an_error(tmp_path: Path) -> None:
    path = write(tmp_path / "config", {**ALFA, "current-context": "gone"})
    with pytest.raises(ConfigError, match="no context named 'gone' \\(the current-context\\)"):
        load_kubeconfig(path)


def test_no_current_context_and_no_context_given_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="no current-context set and no context given"):
        load_kubeconfig(write(tmp_path / "config", ALFA))


def test_context_naming_a_missing_cluster_or_user_is_an_error(tmp_path: Path) -> None:
    doc = kubeconfig(
        {"c": {"server": "https://c.example"}},
        {"u": {}},
        {"no-cluster": {"cluster": "gone", "user": "u"}, "no-user": {"cluster": "c", "user": "typo"}},
    )
    path = write(tmp_path / "config", doc)
    with pytest.raises(ConfigError, match="no cluster named 'gone' \\(the cluster of context 'no-cluster'"):
        load_kubeconfig(path, "no-cluster")
    with pytest.raises(ConfigError, match="no user named 'typo' \\(the user of context 'no-user'"):
        load_kubeconfig(path, "no-user")


def test_context_without_a_user_is_anonymous(tmp_path: Path) -> None:
    doc = kubeconfig({"c": {"server": "https://c.example"}}, None, {"anon": {"cluster": "c"}}, "anon")
    config = load_kubeconfig(write(tmp_path / "config", doc))
    assert config.credentials is None and config.httpx_auth() is None


def test_cluster_without_server_is_an_error_naming_the_cluster(tmp_path: Path) -> None:
    doc = kubeconfig({"c": {}}, {"u": {}}, {"ctx": {"cluster": "c", "user": "u"}}, "ctx")
    with pytest.raises(ConfigError, match="cluster 'c': no 'server'"):
        load_kubeconfig(write(tmp_path / "config", doc))


@pytest.mark.parametrize("plural", ["clusters", "users", "contexts"])
def test_duplicate_names_within_one_file_are_refused(tmp_path: Path, plural: str) -> None:
    doc = {**ALFA, "current-context": "federal-context"}
    doc[plural] = doc[plural] * 2
    with pytest.raises(ConfigError, match=f"duplicate name '.*' in '{plural}'"):
        load_kubeconfig(write(tmp_path / "config", doc))


@pytest.mark.parametrize(
    ("server", "tls", "host"),
    [
        ("https://h.example:6443/", False, "https://h.example:6443"),
        ("https://h.example/prefix/k8s/clusters/c-1/?x=1#f", False, "https://h.example/prefix/k8s/clusters/c-1"),
        ("h.example:6443", True, "https://h.example:6443"),
        ("h.example:8080", False, "http://h.example:8080"),
    ],
)
def test_server_becomes_a_url_like_client_go_default_server_url(
    tmp_path: Path, pki: tuple[bytes, bytes, bytes], server: str, tls: bool, host: str
) -> None:
    cluster: dict[str, Any] = {"server": server}
    if tls:
        cluster["certificate-authority-data"] = b64(pki[0])
    doc = kubeconfig({"c": cluster}, None, {"ctx": {"cluster": "c"}}, "ctx")
    assert load_kubeconfig(write(tmp_path / "config", doc)).host == host


# -- kubeconfig: merging several files --------------------------------------------------------


def test_first_file_wins_each_named_entry_whole_not_field_by_field(tmp_path: Path) -> None:
    first, second = write(tmp_path / "1", ALFA), write(tmp_path / "2", CONFLICT_ALFA)
    config = load_kubeconfig([first, second], "federal-context")
    # cow-cluster comes from the first file, without the second file's insecure-skip-tls-verify.
    assert config.host == "http://cow.org:8080" and config.insecure_skip_tls_verify is False
    assert token_of(config) == "red-token"
    # Entries only the second file defines are still there.
    config = load_kubeconfig([first, second], "donkey-context")
    assert config.host == "http://donkey.org:8080" and token_of(config) == "yellow-token"


def test_current_context_comes_from_the_first_file_that_sets_one(tmp_path: Path) -> None:
    merged = {k: ALFA[k] + BRAVO[k] for k in ("clusters", "users", "contexts")}
    files = [
        write(tmp_path / "a", merged),  # sets none
        write(tmp_path / "b", {"current-context": "queen-anne-context"}),
        write(tmp_path / "c", {"current-context": "federal-context"}),
    ]
    assert load_kubeconfig(files).namespace == "saw-ns"


def test_kubeconfig_env_merges_its_files_in_order_skipping_missing_and_repeated_ones(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first, second = write(tmp_path / "1", ALFA), write(tmp_path / "2", CONFLICT_ALFA)
    missing = tmp_path / "missing"
    monkeypatch.setenv("KUBECONFIG", os.pathsep.join(map(str, [missing, first, "", second, first])))
    config = load_kubeconfig()
    assert config.host == "http://cow.org:8080"  # federal-context from CONFLICT_ALFA's current-context
    assert token_of(config) == "red-token"  # ... with ALFA's red-user


def test_default_kubeconfig_is_home_kube_config(tmp_path: Path) -> None:
    write(tmp_path / "home" / ".kube" / "config", {**BRAVO, "current-context": "queen-anne-context"})
    assert load_kubeconfig().host == "http://pig.org:8080"


def test_an_explicit_path_must_exist_and_is_not_merged_with_kubeconfig_env(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with pytest.raises(ConfigError, match="bogus_file: cannot read kubeconfig"):
        load_kubeconfig(tmp_path / "bogus_file")
    monkeypatch.setenv("KUBECONFIG", str(write(tmp_path / "env", CONFLICT_ALFA)))
    with pytest.raises(ConfigError, match="no current-context"):
        load_kubeconfig(write(tmp_path / "explicit", ALFA))


def test_no_kubeconfig_file_at_all_is_an_error_listing_where_it_looked(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="no kubeconfig found") as e:
        load_kubeconfig([tmp_path / "a", tmp_path / "b"])
    assert str(tmp_path / "a") in str(e.value)


GIVE_ONE = (
    "give one with $KUBECONFIG=<file>, a path (Clientset.from_kubeconfig(path=...), load_kubeconfig(path=...)), "
    "or, inside a pod, Clientset.in_cluster()"
)


def test_no_kubeconfig_lists_the_places_looked_and_the_ways_to_give_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "home" / ".kube" / "config"
    with pytest.raises(NoConfigurationError) as e:
        load_kubeconfig()
    assert str(e.value) == f"no kubeconfig found: looked for ~/.kube/config ({home}; $KUBECONFIG is unset); {GIVE_ONE}"
    monkeypatch.setenv("KUBECONFIG", f"{tmp_path / 'a'}{os.pathsep}{tmp_path / 'b'}")
    with pytest.raises(NoConfigurationError) as e:
        load_kubeconfig()
    assert str(e.value) == f"no kubeconfig found: looked for $KUBECONFIG's files ({tmp_path / 'a'}, {tmp_path / 'b'}); {GIVE_ONE}"
    with pytest.raises(NoConfigurationError) as e:
        load_config(service_account_dir=tmp_path / "sa")
    assert str(e.value) == (
        f"no kubeconfig found: looked for $KUBECONFIG's files ({tmp_path / 'a'}, {tmp_path / 'b'}); and not running "
        f"in a cluster (KUBERNETES_SERVICE_HOST/PORT unset or no service-account token in {tmp_path / 'sa'}); {GIVE_ONE}"
    )
    with pytest.raises(NoConfigurationError, match=r"must be defined \(they are inside a pod\); outside one, read a "
                       r"kubeconfig: Clientset.from_kubeconfig\(\)"):
        in_cluster_config()


def test_no_kubeconfig_reaches_the_user_under_a_public_class_name(tmp_path: Path) -> None:
    """What a user's terminal shows: the last line of the traceback, no private class."""
    code = "from kgen.kubernetes import Clientset; Clientset.from_kubeconfig()"
    env = {k: v for k, v in os.environ.items() if k != "KUBECONFIG"} | {"HOME": str(tmp_path)}
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=60)
    last = run.stderr.splitlines()[-1]
    assert last == (
        "kgen.runtime.rest.config.NoConfigurationError: no kubeconfig found: looked for ~/.kube/config "
        f"({tmp_path / '.kube' / 'config'}; $KUBECONFIG is unset); {GIVE_ONE}"
    ), run.stderr
    assert "._" not in run.stderr.split("Error:")[0].split("\n")[-1]
    assert issubclass(NoConfigurationError, ConfigError)


def test_relative_paths_resolve_against_the_file_that_names_them(
    tmp_path: Path, pki: tuple[bytes, bytes, bytes]
) -> None:
    ca, cert, key = pki
    dir1, dir2 = tmp_path / "one", tmp_path / "two" / "deeper"
    write(dir1 / "pki" / "ca.crt", ca.decode())
    write(dir2 / "creds" / "client.crt", cert.decode())
    write(dir2.parent / "keys" / "client.key", key.decode())
    write(dir2 / "creds" / "token", "file-token\n")
    first = write(
        dir1 / "config",
        kubeconfig(
            {"c": {"server": "https://c.example", "certificate-authority": "pki/ca.crt"}},
            {"exec-relative": {"exec": {"apiVersion": V1, "command": "./bin/plugin", "interactiveMode": "Never"}}},
            {"cert": {"cluster": "c", "user": "cert"}, "tok": {"cluster": "c", "user": "tok"}},
        ),
    )
    second = write(
        dir2 / "config",
        kubeconfig(
            None,
            {
                "cert": {"client-certificate": "creds/client.crt", "client-key": "../keys/client.key"},
                "tok": {"tokenFile": "creds/token"},
                "exec-path": {"exec": {"apiVersion": V1, "command": "plugin", "interactiveMode": "Never"}},
            },
            {"e1": {"cluster": "c", "user": "exec-relative"}, "e2": {"cluster": "c", "user": "exec-path"}},
        ),
    )
    config = load_kubeconfig([first, second], "cert")
    assert (config.ca_data, config.cert_data, config.key_data) == (ca, cert, key)
    assert token_of(load_kubeconfig([first, second], "tok")) == "file-token"
    exec_relative = load_kubeconfig([first, second], "e1").credentials
    assert isinstance(exec_relative, ExecCredential) and exec_relative.command == str(dir1 / "bin" / "plugin")
    exec_path = load_kubeconfig([first, second], "e2").credentials
    assert isinstance(exec_path, ExecCredential) and exec_path.command == "plugin"  # looked up on PATH


# -- kubeconfig: cluster and user fields ------------------------------------------------------


def test_cluster_fields_tls_server_name_proxy_url_and_insecure(tmp_path: Path) -> None:
    doc = kubeconfig(
        {
            "c": {"server": "https://10.0.0.1", "tls-server-name": "api.internal", "proxy-url": "socks5://proxy:1080"},
            "i": {"server": "https://10.0.0.2", "insecure-skip-tls-verify": True},
        },
        None,
        {"c": {"cluster": "c"}, "i": {"cluster": "i"}},
    )
    path = write(tmp_path / "config", doc)
    config = load_kubeconfig(path, "c")
    assert (config.tls_server_name, config.proxy_url, config.insecure_skip_tls_verify) == (
        "api.internal",
        "socks5://proxy:1080",
        False,
    )
    assert load_kubeconfig(path, "i").insecure_skip_tls_verify is True


def test_proxy_url_with_an_unsupported_scheme_is_refused(tmp_path: Path) -> None:
    doc = kubeconfig({"c": {"server": "https://c", "proxy-url": "ftp://proxy"}}, None, {"c": {"cluster": "c"}}, "c")
    with pytest.raises(ConfigError, match="cluster 'c': invalid 'proxy-url'"):
        load_kubeconfig(write(tmp_path / "config", doc))


def test_no_proxy_url_leaves_proxying_to_the_environment(tmp_path: Path) -> None:
    doc = kubeconfig({"c": {"server": "https://c"}}, None, {"c": {"cluster": "c"}}, "c")
    assert load_kubeconfig(write(tmp_path / "config", doc)).proxy_url is None


def test_data_and_file_forms_each_load(tmp_path: Path, pki: tuple[bytes, bytes, bytes]) -> None:
    ca, cert, key = pki
    write(tmp_path / "ca.crt", ca.decode())
    write(tmp_path / "tls.crt", cert.decode())
    write(tmp_path / "tls.key", key.decode())
    doc = kubeconfig(
        {
            "data": {"server": "https://c", "certificate-authority-data": b64(ca)},
            "file": {"server": "https://c", "certificate-authority": "ca.crt"},
        },
        {
            "data": {"client-certificate-data": b64(cert), "client-key-data": b64(key)},
            "file": {"client-certificate": "tls.crt", "client-key": "tls.key"},
        },
        {"data": {"cluster": "data", "user": "data"}, "file": {"cluster": "file", "user": "file"}},
    )
    path = write(tmp_path / "config", doc)
    for context in ("data", "file"):
        config = load_kubeconfig(path, context)
        assert (config.ca_data, config.cert_data, config.key_data) == (ca, cert, key)


@pytest.mark.parametrize(
    ("section", "data_key", "file_key"),
    [
        ("cluster", "certificate-authority-data", "certificate-authority"),
        ("user", "client-certificate-data", "client-certificate"),
        ("user", "client-key-data", "client-key"),
    ],
)
def test_data_and_file_forms_together_are_refused_like_client_go(
    tmp_path: Path, pki: tuple[bytes, bytes, bytes], section: str, data_key: str, file_key: str
) -> None:
    ca, cert, key = pki
    write(tmp_path / "some.pem", ca.decode())
    cluster: dict[str, Any] = {"server": "https://c"}
    user: dict[str, Any] = {"client-certificate-data": b64(cert), "client-key-data": b64(key)}
    (cluster if section == "cluster" else user).update({data_key: b64(ca), file_key: "some.pem"})
    doc = kubeconfig({"c": cluster}, {"u": user}, {"ctx": {"cluster": "c", "user": "u"}}, "ctx")
    with pytest.raises(ConfigError, match=f"{section} '.': {data_key} and {file_key} are both specified"):
        load_kubeconfig(write(tmp_path / "config", doc))


def test_certificate_authority_with_insecure_skip_tls_verify_is_refused(
    tmp_path: Path, pki: tuple[bytes, bytes, bytes]
) -> None:
    cluster = {"server": "https://c", "certificate-authority-data": b64(pki[0]), "insecure-skip-tls-verify": True}
    doc = kubeconfig({"c": cluster}, None, {"c": {"cluster": "c"}}, "c")
    with pytest.raises(ConfigError, match="cluster 'c': certificate-authority and insecure-skip-tls-verify"):
        load_kubeconfig(write(tmp_path / "config", doc))


def test_unreadable_or_invalid_tls_material_is_an_error_naming_the_entry(
    tmp_path: Path, pki: tuple[bytes, bytes, bytes]
) -> None:
    ca, cert, key = pki
    docs = {
        "cannot read certificate-authority": kubeconfig(
            {"c": {"server": "https://c", "certificate-authority": "nope.crt"}}, None, {"x": {"cluster": "c"}}, "x"
        ),
        "certificate-authority-data is not valid base64": kubeconfig(
            {"c": {"server": "https://c", "certificate-authority-data": "%%%"}}, None, {"x": {"cluster": "c"}}, "x"
        ),
        "not a PEM certificate": kubeconfig(
            {"c": {"server": "https://c", "certificate-authority-data": b64("nope")}},
            None,
            {"x": {"cluster": "c"}},
            "x",
        ),
        "client-key-data or client-key must be specified": kubeconfig(
            {"c": {"server": "https://c"}},
            {"u": {"client-certificate-data": b64(cert)}},
            {"x": {"cluster": "c", "user": "u"}},
            "x",
        ),
        "not a matching PEM pair": kubeconfig(
            {"c": {"server": "https://c"}},
            {"u": {"client-certificate-data": b64(cert), "client-key-data": b64(ca)}},
            {"x": {"cluster": "c", "user": "u"}},
            "x",
        ),
    }
    for message, doc in docs.items():
        with pytest.raises(ConfigError, match=message) as e:
            load_kubeconfig(write(tmp_path / "config", doc))
        assert str(tmp_path / "config") in str(e.value)


def test_token_and_basic_auth_together_are_refused(tmp_path: Path) -> None:
    doc = kubeconfig(
        {"c": {"server": "https://c"}},
        {"u": {"token": "t", "username": "a", "password": "b"}},
        {"x": {"cluster": "c", "user": "u"}},
        "x",
    )
    with pytest.raises(ConfigError, match="user 'u': more than one authentication method"):
        load_kubeconfig(write(tmp_path / "config", doc))


def test_basic_auth_becomes_httpx_basic_auth(tmp_path: Path) -> None:
    doc = kubeconfig(
        {"c": {"server": "https://c"}},
        {"u": {"username": "jane", "password": "pw"}},
        {"x": {"cluster": "c", "user": "u"}},
        "x",
    )
    config = load_kubeconfig(write(tmp_path / "config", doc))
    assert (config.username, config.password, config.credentials) == ("jane", "pw", None)
    request = httpx.Request("GET", "https://c/api")
    flow = config.httpx_auth()
    assert isinstance(flow, httpx.BasicAuth)
    sent = next(flow.sync_auth_flow(request))
    assert sent.headers["Authorization"] == "Basic " + b64("jane:pw")


def test_token_file_is_read_at_load_and_a_missing_one_names_the_user(tmp_path: Path) -> None:
    doc = kubeconfig(
        {"c": {"server": "https://c"}}, {"u": {"tokenFile": "tok"}}, {"x": {"cluster": "c", "user": "u"}}, "x"
    )
    path = write(tmp_path / "config", doc)
    with pytest.raises(ConfigError, match=f"user 'u': cannot read token file {tmp_path / 'tok'}"):
        load_kubeconfig(path)
    write(tmp_path / "tok", "  the-token \n")
    config = load_kubeconfig(path)
    assert isinstance(config.credentials, TokenFile) and token_of(config) == "the-token"


def test_token_with_token_file_prefers_the_file_and_falls_back_to_the_token(tmp_path: Path) -> None:
    doc = kubeconfig(
        {"c": {"server": "https://c"}},
        {"u": {"token": "static", "tokenFile": "tok"}},
        {"x": {"cluster": "c", "user": "u"}},
        "x",
    )
    path = write(tmp_path / "config", doc)
    assert token_of(load_kubeconfig(path)) == "static"
    write(tmp_path / "tok", "from-file")
    assert token_of(load_kubeconfig(path)) == "from-file"


def test_static_client_certificate_wins_over_an_exec_plugin(tmp_path: Path, pki: tuple[bytes, bytes, bytes]) -> None:
    _, cert, key = pki
    user = {
        "client-certificate-data": b64(cert),
        "client-key-data": b64(key),
        "exec": {"apiVersion": V1, "command": "never-run", "interactiveMode": "Never"},
    }
    doc = kubeconfig({"c": {"server": "https://c"}}, {"u": user}, {"x": {"cluster": "c", "user": "u"}}, "x")
    config = load_kubeconfig(write(tmp_path / "config", doc))
    assert config.credentials is None and config.cert_data == cert
    assert config.host == "https://c"


def test_exec_config_is_validated_like_clientcmd(tmp_path: Path) -> None:
    cases = {
        "command must be specified": {"apiVersion": V1, "interactiveMode": "Never"},
        "apiVersion must be specified": {"command": "x", "interactiveMode": "Never"},
        "interactiveMode must be specified": {"apiVersion": V1, "command": "x"},
        "invalid interactiveMode 'Sometimes'": {"apiVersion": V1, "command": "x", "interactiveMode": "Sometimes"},
        "unsupported apiVersion 'client.authentication.k8s.io/v1alpha1'": {
            "apiVersion": "client.authentication.k8s.io/v1alpha1",
            "command": "x",
            "interactiveMode": "Never",
        },
        "env variable name must be specified": {
            "apiVersion": V1,
            "command": "x",
            "interactiveMode": "Never",
            "env": [{"value": "v"}],
        },
    }
    for message, exec_body in cases.items():
        doc = kubeconfig(
            {"c": {"server": "https://c"}}, {"u": {"exec": exec_body}}, {"x": {"cluster": "c", "user": "u"}}, "x"
        )
        with pytest.raises(ConfigError, match=f"user 'u': .*{message}"):
            load_kubeconfig(write(tmp_path / "config", doc))


def test_exec_v1beta1_defaults_interactive_mode_to_if_available(tmp_path: Path) -> None:
    doc = kubeconfig(
        {"c": {"server": "https://c"}},
        {"u": {"exec": {"apiVersion": V1BETA1, "command": "x"}}},
        {"x": {"cluster": "c", "user": "u"}},
        "x",
    )
    credentials = load_kubeconfig(write(tmp_path / "config", doc)).credentials
    assert isinstance(credentials, ExecCredential) and credentials.interactive_mode == "IfAvailable"


def jwt(claims: dict[str, Any]) -> str:
    def part(d: dict[str, Any]) -> str:
        return base64.urlsafe_b64encode(json.dumps(d).encode()).decode().rstrip("=")

    return f"{part({'alg': 'none'})}.{part(claims)}.c2ln"


def test_oidc_auth_provider_uses_its_id_token_until_it_expires(tmp_path: Path) -> None:
    live, expired = jwt({"sub": "jane", "exp": time.time() + 3600}), jwt({"sub": "jane", "exp": time.time() - 1})
    provider = {
        "name": "oidc",
        "config": {"idp-issuer-url": "https://issuer", "client-id": "kubectl", "id-token": live},
    }
    doc = kubeconfig(
        {"c": {"server": "https://c"}}, {"u": {"auth-provider": provider}}, {"x": {"cluster": "c", "user": "u"}}, "x"
    )
    path = write(tmp_path / "config", doc)
    config = load_kubeconfig(path)
    assert isinstance(config.credentials, OIDCIdToken) and token_of(config) == live

    provider["config"]["id-token"] = expired
    config = load_kubeconfig(write(path, doc))  # loads: the error comes with the first request
    with pytest.raises(CredentialError, match="id-token has expired"):
        token_of(config)

    del provider["config"]["client-id"]
    with pytest.raises(ConfigError, match="auth-provider oidc: must provide client-id"):
        load_kubeconfig(write(path, doc))


def test_removed_auth_providers_point_to_their_exec_plugins(tmp_path: Path) -> None:
    doc = kubeconfig(
        {"c": {"server": "https://c"}},
        {"u": {"auth-provider": {"name": "gcp"}}},
        {"x": {"cluster": "c", "user": "u"}},
        "x",
    )
    with pytest.raises(ConfigError, match="gcp auth-provider was removed from client-go"):
        load_kubeconfig(write(tmp_path / "config", doc))


def test_invalid_yaml_names_the_file_and_position(tmp_path: Path) -> None:
    path = write(tmp_path / "config", "clusters:\n- name: a\n  cluster: {server: [\n")
    with pytest.raises(ConfigError, match=r"config: not valid YAML at line \d+, column \d+"):
        load_kubeconfig(path)


def test_an_empty_kubeconfig_file_has_no_context(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="no current-context"):
        load_kubeconfig(write(tmp_path / "config", ""))


# -- Config -----------------------------------------------------------------------------------


def test_config_defaults_are_client_go_defaults() -> None:
    config = Config(host="https://h")
    # rest.Config's zero values: "not set", which the REST client turns into rest.DefaultQPS/Burst.
    assert (config.qps, config.burst, config.timeout, config.namespace) == (0.0, 0, None, "default")
    assert (DEFAULT_QPS, DEFAULT_BURST) == (5.0, 10)
    limiter = RESTClient(config).limiter
    assert limiter is not None and (limiter.qps, limiter.burst) == (DEFAULT_QPS, DEFAULT_BURST)
    assert config.user_agent.startswith("kgen/") and " python/" in config.user_agent
    assert config.user_agent.split(" (", 1)[1].split(")")[0].count("/") == 1  # (<os>/<arch>)


def test_ssl_context_verifies_by_default_and_only_trusts_the_given_ca(pki: tuple[bytes, bytes, bytes]) -> None:
    ctx = Config(host="https://h").ssl_context()
    assert ctx.verify_mode == ssl.CERT_REQUIRED and ctx.check_hostname
    ctx = Config(host="https://h", ca_data=pki[0]).ssl_context()
    assert ctx.verify_mode == ssl.CERT_REQUIRED and ctx.check_hostname
    assert [c["subject"] for c in ctx.get_ca_certs()] == [((("commonName", "kgen-envtest-ca"),),)]
    insecure = Config(host="https://h", insecure_skip_tls_verify=True).ssl_context()
    assert insecure.verify_mode == ssl.CERT_NONE and not insecure.check_hostname


def test_ssl_context_uses_an_exec_plugins_client_certificate(tmp_path: Path, pki: tuple[bytes, bytes, bytes]) -> None:
    _, cert, key = pki
    plugin = make_plugin(
        tmp_path, f"credential({{'clientCertificateData': {cert.decode()!r}, 'clientKeyData': {key.decode()!r}}})"
    )
    credentials = ExecCredential(str(plugin), interactive_mode="Never")
    Config(host="https://h", credentials=credentials).ssl_context()  # loads the pair, or raises
    assert credentials.client_certificate() == (cert, key)
    assert credentials.token() is None and calls(tmp_path) == 1


def test_import_is_cheap_no_yaml_until_a_kubeconfig_is_read() -> None:
    code = "import sys, kgen.runtime.rest.config; print('yaml' in sys.modules, 'httpx' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "False"]


# -- in-cluster -------------------------------------------------------------------------------


@pytest.fixture
def service_account(tmp_path: Path, pki: tuple[bytes, bytes, bytes]) -> Path:
    folder = tmp_path / "serviceaccount"
    write(folder / "token", "sa-token-1\n")
    write(folder / "ca.crt", pki[0].decode())
    write(folder / "namespace", "team-a\n")
    return folder


def test_in_cluster_config_from_service_account_folder_and_env(
    service_account: Path, pki: tuple[bytes, bytes, bytes]
) -> None:
    env = {"KUBERNETES_SERVICE_HOST": "10.96.0.1", "KUBERNETES_SERVICE_PORT": "443"}
    config = in_cluster_config(service_account_dir=service_account, environ=env)
    assert (config.host, config.namespace, config.ca_data) == ("https://10.96.0.1:443", "team-a", pki[0])
    assert isinstance(config.credentials, TokenFile) and token_of(config) == "sa-token-1"


def test_in_cluster_ipv6_host_is_bracketed(service_account: Path) -> None:
    env = {"KUBERNETES_SERVICE_HOST": "fd00::1", "KUBERNETES_SERVICE_PORT": "6443"}
    assert in_cluster_config(service_account_dir=service_account, environ=env).host == "https://[fd00::1]:6443"


def test_in_cluster_namespace_prefers_pod_namespace_then_file_then_default(service_account: Path) -> None:
    env = {"KUBERNETES_SERVICE_HOST": "h", "KUBERNETES_SERVICE_PORT": "1", "POD_NAMESPACE": "from-env"}
    assert in_cluster_config(service_account_dir=service_account, environ=env).namespace == "from-env"
    del env["POD_NAMESPACE"]
    (service_account / "namespace").unlink()
    assert in_cluster_config(service_account_dir=service_account, environ=env).namespace == "default"
    assert in_cluster_config(service_account_dir=service_account, environ=env, namespace="o").namespace == "o"


def test_in_cluster_needs_service_host_and_port_and_a_token(service_account: Path) -> None:
    with pytest.raises(ConfigError, match="KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT must be defined"):
        in_cluster_config(service_account_dir=service_account, environ={"KUBERNETES_SERVICE_HOST": "h"})
    (service_account / "token").unlink()
    with pytest.raises(ConfigError, match="cannot read token file"):
        in_cluster_config(
            service_account_dir=service_account,
            environ={"KUBERNETES_SERVICE_HOST": "h", "KUBERNETES_SERVICE_PORT": "1"},
        )


def test_in_cluster_without_a_readable_ca_falls_back_to_system_roots(
    service_account: Path, caplog: pytest.LogCaptureFixture
) -> None:
    (service_account / "ca.crt").unlink()
    env = {"KUBERNETES_SERVICE_HOST": "h", "KUBERNETES_SERVICE_PORT": "1"}
    assert in_cluster_config(service_account_dir=service_account, environ=env).ca_data is None
    assert "expected to load the root CA" in caplog.text


def test_load_config_prefers_a_kubeconfig_and_falls_back_to_in_cluster(
    tmp_path: Path, service_account: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("KUBERNETES_SERVICE_HOST", "10.96.0.1")
    monkeypatch.setenv("KUBERNETES_SERVICE_PORT", "443")
    assert load_config(service_account_dir=service_account).host == "https://10.96.0.1:443"
    assert load_config(service_account_dir=service_account, namespace="n").namespace == "n"

    write(tmp_path / "home" / ".kube" / "config", {**ALFA, "current-context": "federal-context"})
    assert load_config(service_account_dir=service_account).host == "http://cow.org:8080"


def test_load_config_with_nothing_configured_says_what_it_tried(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="no kubeconfig found: .*not running in a cluster"):
        load_config(service_account_dir=tmp_path / "nowhere")


# -- token files ------------------------------------------------------------------------------


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_token_file_is_re_read_at_most_every_interval_and_after_invalidate(tmp_path: Path) -> None:
    path, clock = write(tmp_path / "token", "one"), FakeClock()
    source = TokenFile(path, refresh_seconds=60, clock=clock)
    assert source.token() == "one"
    path.write_text("two")
    clock.now += 59
    assert source.token() == "one" and source.cached_token() == "one"
    clock.now += 1
    assert source.cached_token() is None and source.token() == "two"
    path.write_text("three")
    source.invalidate()
    assert source.token() == "three"


def test_token_file_keeps_the_last_token_when_a_re_read_fails(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    path, clock = write(tmp_path / "token", "one"), FakeClock()
    source = TokenFile(path, clock=clock)
    assert source.token() == "one"
    path.unlink()
    source.invalidate()
    assert source.token() == "one"
    assert "keeping the previous token" in caplog.text
    with pytest.raises(CredentialError, match="is empty"):
        TokenFile(write(tmp_path / "empty", " \n")).token()


def test_service_account_token_is_a_token_file_in_the_folder(service_account: Path) -> None:
    source = auth.service_account_token(service_account)
    assert isinstance(source, TokenFile) and source.path == service_account / "token"
    assert auth.service_account_token().path == Path("/var/run/secrets/kubernetes.io/serviceaccount/token")


# -- exec credential plugins ------------------------------------------------------------------

PLUGIN = """#!{python}
import json, os, sys
here = os.path.dirname(os.path.abspath(__file__))
counter = os.path.join(here, "calls")
calls = int(open(counter).read()) + 1 if os.path.exists(counter) else 1
open(counter, "w").write(str(calls))
with open(os.path.join(here, "seen-%d.json" % calls), "w") as f:
    json.dump({{"argv": sys.argv[1:], "info": os.environ.get("KUBERNETES_EXEC_INFO"), "env": dict(os.environ)}}, f)
api = json.loads(os.environ["KUBERNETES_EXEC_INFO"])["apiVersion"]
def credential(status):
    print(json.dumps({{"apiVersion": api, "kind": "ExecCredential", "status": status}}))
{body}
"""


def make_plugin(folder: Path, body: str, name: str = "plugin") -> Path:
    path = folder / name
    path.write_text(PLUGIN.format(python=sys.executable, body=body))
    path.chmod(0o755)
    return path


def calls(folder: Path) -> int:
    counter = folder / "calls"
    return int(counter.read_text()) if counter.exists() else 0


def seen(folder: Path, call: int) -> dict[str, Any]:
    return json.loads((folder / f"seen-{call}.json").read_text())


FUTURE, PAST = "2999-01-01T00:00:00Z", "2000-01-01T00:00:00Z"


def test_exec_answer_is_cached_until_its_expiration_timestamp(tmp_path: Path) -> None:
    plugin = make_plugin(tmp_path, f"credential({{'token': 'token-%d' % calls, 'expirationTimestamp': '{FUTURE}'}})")
    credentials = ExecCredential(str(plugin), interactive_mode="Never")
    assert credentials.token() == "token-1" and credentials.token() == "token-1"
    assert calls(tmp_path) == 1


def test_exec_answer_already_expired_is_rerun_on_the_next_call(tmp_path: Path) -> None:
    plugin = make_plugin(tmp_path, f"credential({{'token': 'token-%d' % calls, 'expirationTimestamp': '{PAST}'}})")
    credentials = ExecCredential(str(plugin), interactive_mode="Never")
    assert [credentials.token(), credentials.token()] == ["token-1", "token-2"]
    assert calls(tmp_path) == 2


def test_exec_answer_expires_by_the_clock(tmp_path: Path) -> None:
    plugin = make_plugin(
        tmp_path,
        "credential({'token': 'token-%d' % calls, 'expirationTimestamp': '2030-06-01T12:00:00.123456789+02:00'})",
    )
    now = [datetime(2030, 6, 1, 9, 59, tzinfo=timezone.utc)]
    credentials = ExecCredential(str(plugin), interactive_mode="Never", clock=lambda: now[0])
    assert credentials.token() == "token-1"
    now[0] += timedelta(minutes=1)
    assert credentials.cached_token() == "token-1" and credentials.token() == "token-1"
    now[0] += timedelta(seconds=1)
    assert credentials.cached_token() is None and credentials.token() == "token-2"


def test_exec_answer_without_expiration_is_cached_until_invalidated(tmp_path: Path) -> None:
    plugin = make_plugin(tmp_path, "credential({'token': 'token-%d' % calls})")
    credentials = ExecCredential(str(plugin), interactive_mode="Never")
    assert [credentials.token() for _ in range(3)] == ["token-1"] * 3
    credentials.invalidate()
    assert credentials.token() == "token-2" and calls(tmp_path) == 2


def test_exec_runs_command_and_args_directly_with_env_and_exec_info(tmp_path: Path) -> None:
    plugin = make_plugin(tmp_path, "credential({'token': 't'})")
    args = ["--flag", "$(touch pwned); echo hi", "*"]
    cluster = {"server": "https://h:6443", "certificate-authority-data": "Q0E="}
    credentials = ExecCredential(
        str(plugin),
        args,
        {"PLUGIN_VAR": "v", "HOME": "/elsewhere"},
        api_version=V1BETA1,
        interactive_mode="Never",
        cluster=cluster,
    )
    assert credentials.token() == "t"
    record = seen(tmp_path, 1)
    assert record["argv"] == args  # no shell: nothing expanded, nothing run
    assert not (tmp_path / "pwned").exists() and not Path("pwned").exists()
    assert record["env"]["PLUGIN_VAR"] == "v" and record["env"]["HOME"] == "/elsewhere"
    assert record["env"]["PATH"] == os.environ["PATH"]  # the rest of our environment
    assert json.loads(record["info"]) == {
        "kind": "ExecCredential",
        "apiVersion": V1BETA1,
        "spec": {"interactive": False, "cluster": cluster},
    }


def test_exec_provide_cluster_info_from_kubeconfig(tmp_path: Path, pki: tuple[bytes, bytes, bytes]) -> None:
    make_plugin(tmp_path, "credential({'token': 't'})")
    cluster = {
        "server": "https://h:6443/",
        "certificate-authority-data": b64(pki[0]),
        "tls-server-name": "api.internal",
        "extensions": [{"name": "client.authentication.k8s.io/exec", "extension": {"audience": "k8s"}}],
    }
    exec_body = {"apiVersion": V1, "command": "./plugin", "interactiveMode": "Never", "provideClusterInfo": True}
    doc = kubeconfig({"c": cluster}, {"u": {"exec": exec_body}}, {"x": {"cluster": "c", "user": "u"}}, "x")
    assert token_of(load_kubeconfig(write(tmp_path / "config", doc))) == "t"
    spec = json.loads(seen(tmp_path, 1)["info"])["spec"]
    assert spec == {
        "interactive": False,
        "cluster": {
            "server": "https://h:6443",
            "certificate-authority-data": b64(pki[0]),
            "tls-server-name": "api.internal",
            "config": {"audience": "k8s"},
        },
    }


def test_failing_exec_plugin_error_names_the_plugin_and_exit_code_and_its_stderr_reaches_fd_2(
    tmp_path: Path, capfd: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture
) -> None:
    """client-go's wrapCmdRunErrorLocked: "exec: executable X failed with exit code N"; the
    plugin's stderr is os.Stderr (cmd.Stderr), never the error's text."""
    caplog.set_level(logging.DEBUG)
    secret = "ghp_" + "R3fr3shT0k3n" * 3
    plugin = make_plugin(
        tmp_path,
        f"print('partial-secret-output'); sys.stderr.write('refresh failed for refresh_token={secret}\\n'); sys.exit(1)",
    )
    credentials = ExecCredential(str(plugin), interactive_mode="Never", user="jane")
    with pytest.raises(CredentialError) as e:
        credentials.token()
    assert str(e.value) == (
        f"exec plugin {plugin} (user 'jane') failed with exit code 1 (its messages, if any, are on standard error)"
    )
    out, err = capfd.readouterr()
    assert err == f"refresh failed for refresh_token={secret}\n"  # the process's own stderr, fd 2
    assert "partial-secret-output" not in out + str(e.value)  # stdout is never shown
    shown = [str(e.value), repr(e.value), repr(credentials), str(credentials), caplog.text,
             *(r.getMessage() for r in caplog.records), *(str(r.args) for r in caplog.records)]
    for text in shown:
        assert "R3fr3sh" not in text and "ghp_" not in text


def test_exec_plugin_not_found_shows_the_install_hint(tmp_path: Path) -> None:
    with pytest.raises(CredentialError, match="executable kgen-no-such-plugin not found\n\nbrew install it"):
        ExecCredential("kgen-no-such-plugin", interactive_mode="Never", install_hint="brew install it").token()


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("print('not json')", "decoding stdout: not JSON"),
        (
            "print(json.dumps({'apiVersion': 'client.authentication.k8s.io/v1beta1', 'kind': 'ExecCredential', 'status': {'token': 't'}}))",
            "is configured to use API version client.authentication.k8s.io/v1, plugin returned version client.authentication.k8s.io/v1beta1",
        ),
        ("print(json.dumps({'apiVersion': api, 'kind': 'ExecCredential'}))", "didn't return a status field"),
        ("credential({})", "didn't return a token or cert/key pair"),
        ("credential({'clientCertificateData': 'c'})", "returned only certificate or key, not both"),
        (
            "credential({'token': 't', 'expirationTimestamp': 'tomorrow'})",
            "expirationTimestamp is not an RFC 3339 time",
        ),
    ],
)
def test_exec_plugin_output_is_checked_like_client_go(tmp_path: Path, body: str, message: str) -> None:
    plugin = make_plugin(tmp_path, body)
    with pytest.raises(CredentialError, match=message):
        ExecCredential(str(plugin), interactive_mode="Never").token()


@pytest.fixture
def terminal() -> Iterator[Any]:
    """A real terminal (a pty) as stdin, with a line typed into it."""
    master, slave = os.openpty()
    os.write(master, b"typed-at-terminal\n")
    with os.fdopen(slave, "rb", buffering=0) as stdin:
        yield stdin
    os.close(master)


STDIN_PLUGIN = "line = sys.stdin.readline().strip(); credential({'token': 'stdin:' + line})"


def test_exec_interactive_mode_never_gives_the_plugin_no_stdin(tmp_path: Path, terminal: Any) -> None:
    credentials = ExecCredential(str(make_plugin(tmp_path, STDIN_PLUGIN)), interactive_mode="Never", stdin=terminal)
    assert credentials.token() == "stdin:"
    assert json.loads(seen(tmp_path, 1)["info"])["spec"]["interactive"] is False


def test_exec_interactive_mode_if_available_passes_a_terminal_stdin(tmp_path: Path, terminal: Any) -> None:
    credentials = ExecCredential(
        str(make_plugin(tmp_path, STDIN_PLUGIN)), interactive_mode="IfAvailable", stdin=terminal
    )
    assert credentials.token() == "stdin:typed-at-terminal"
    assert json.loads(seen(tmp_path, 1)["info"])["spec"]["interactive"] is True


def test_exec_interactive_mode_if_available_without_a_terminal_gives_no_stdin(tmp_path: Path) -> None:
    read, write_end = os.pipe()
    os.write(write_end, b"piped\n")
    os.close(write_end)
    with os.fdopen(read, "rb") as pipe:
        credentials = ExecCredential(
            str(make_plugin(tmp_path, STDIN_PLUGIN)), interactive_mode="IfAvailable", stdin=pipe
        )
        assert credentials.token() == "stdin:"


def test_exec_interactive_mode_always_without_a_terminal_is_an_error(tmp_path: Path) -> None:
    with open(os.devnull, "rb") as not_a_terminal:
        credentials = ExecCredential(
            str(make_plugin(tmp_path, STDIN_PLUGIN)), interactive_mode="Always", stdin=not_a_terminal
        )
        with pytest.raises(CredentialError, match="interactiveMode is Always, but standard input is not a terminal"):
            credentials.token()
    assert calls(tmp_path) == 0


def test_exec_interactive_mode_always_with_a_terminal_runs(tmp_path: Path, terminal: Any) -> None:
    credentials = ExecCredential(str(make_plugin(tmp_path, STDIN_PLUGIN)), interactive_mode="Always", stdin=terminal)
    assert credentials.token() == "stdin:typed-at-terminal"


def test_rfc3339_parsing_accepts_kubernetes_forms() -> None:
    assert parse_rfc3339("2024-01-02T03:04:05Z") == datetime(2024, 1, 2, 3, 4, 5, tzinfo=timezone.utc)
    assert parse_rfc3339("2024-01-02T03:04:05.123456789-01:00") == datetime(
        2024, 1, 2, 4, 4, 5, 123456, tzinfo=timezone.utc
    )
    with pytest.raises(ValueError):
        parse_rfc3339("2024-01-02")


# -- the httpx auth flow ----------------------------------------------------------------------


class Server:
    """An httpx transport that accepts one token and records what it was sent."""

    def __init__(self, accepted: str) -> None:
        self.accepted = accepted
        self.seen: list[str | None] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.seen.append(request.headers.get("Authorization"))
        ok = request.headers.get("Authorization") == f"Bearer {self.accepted}"
        return httpx.Response(200 if ok else 401, json={"body": request.content.decode()})


class Rotating:
    """Credentials that hand out the next token after each invalidate()."""

    def __init__(self, *tokens: str) -> None:
        self.tokens = list(tokens)
        self.invalidations = 0

    def token(self) -> str:
        return self.tokens[min(self.invalidations, len(self.tokens) - 1)]

    def invalidate(self) -> None:
        self.invalidations += 1


def test_bearer_auth_sends_the_token_and_retries_once_with_a_fresh_one_after_401() -> None:
    server, credentials = Server("good"), Rotating("stale", "good")
    with httpx.Client(transport=httpx.MockTransport(server), auth=BearerTokenAuth(credentials)) as client:
        response = client.post("https://h/x", content=b"payload")
    assert response.status_code == 200 and response.json() == {"body": "payload"}  # body replayed
    assert server.seen == ["Bearer stale", "Bearer good"] and credentials.invalidations == 1


def test_bearer_auth_retries_only_once() -> None:
    server, credentials = Server("never"), Rotating("a", "b", "c")
    with httpx.Client(transport=httpx.MockTransport(server), auth=BearerTokenAuth(credentials)) as client:
        assert client.get("https://h/x").status_code == 401
    assert server.seen == ["Bearer a", "Bearer b"]


def test_bearer_auth_does_not_retry_when_renewal_yields_the_same_token() -> None:
    server = Server("other")
    with httpx.Client(transport=httpx.MockTransport(server), auth=BearerTokenAuth(StaticToken("same"))) as client:
        assert client.get("https://h/x").status_code == 401
    assert server.seen == ["Bearer same"]


def test_bearer_auth_leaves_an_explicit_authorization_header_alone() -> None:
    server = Server("mine")
    with httpx.Client(transport=httpx.MockTransport(server), auth=BearerTokenAuth(StaticToken("config"))) as client:
        assert client.get("https://h/x", headers={"Authorization": "Bearer mine"}).status_code == 200
    assert server.seen == ["Bearer mine"]


def test_bearer_auth_async_flow_renews_in_a_worker_thread() -> None:
    import threading

    server, credentials = Server("good"), Rotating("stale", "good")
    threads: list[str] = []
    original = credentials.token

    def token() -> str:
        threads.append(threading.current_thread().name)
        return original()

    credentials.token = token  # type: ignore[method-assign]

    async def main() -> httpx.Response:
        async with httpx.AsyncClient(
            transport=httpx.MockTransport(server), auth=BearerTokenAuth(credentials)
        ) as client:
            return await client.post("https://h/x", content=b"payload")

    response = asyncio.run(main())
    assert response.status_code == 200 and response.json() == {"body": "payload"}
    assert server.seen == ["Bearer stale", "Bearer good"]
    assert threads and threading.main_thread().name not in threads


def test_async_flow_uses_a_cached_token_without_a_thread() -> None:
    server = Server("tok")

    async def main() -> int:
        async with httpx.AsyncClient(
            transport=httpx.MockTransport(server), auth=BearerTokenAuth(StaticToken("tok"))
        ) as client:
            return (await client.get("https://h/x")).status_code

    assert asyncio.run(main()) == 200


# -- secrets never leak -----------------------------------------------------------------------


def test_secrets_never_appear_in_repr_str_logs_or_errors(
    tmp_path: Path, pki: tuple[bytes, bytes, bytes], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    _, cert, key = pki
    static, password, file_token, exec_token = "STATIC-tok-7f3a9", "PASS-word-55aa", "FILE-tok-1b2c", "EXEC-tok-9d8e"
    proxy_password = "PROXY-pw-3c4d"
    id_token = jwt({"sub": "jane", "exp": time.time() + 3600, "nonce": "OIDC-secret-claim"})
    key_body = key.decode().splitlines()[1]  # a line of the key's base64 body
    secrets = [
        static,
        password,
        file_token,
        exec_token,
        proxy_password,
        id_token,
        key_body,
        b64(key),
        "OIDC-secret-claim",
    ]

    write(tmp_path / "token", file_token)
    plugin = make_plugin(
        tmp_path,
        f"if calls == 1:\n    credential({{'token': {exec_token!r}}})\n"
        f"else:\n    sys.stderr.write('previous token was {exec_token}, now failing; {id_token}\\n'); sys.exit(1)",
    )
    doc = kubeconfig(
        {"c": {"server": "https://c.example", "proxy-url": f"http://user:{proxy_password}@proxy:3128"}},
        {
            "static": {"token": static, "client-certificate-data": b64(cert), "client-key-data": b64(key)},
            "basic": {"username": "jane", "password": password},
            "file": {"tokenFile": "token"},
            "exec": {
                "exec": {
                    "apiVersion": V1,
                    "command": str(plugin),
                    "interactiveMode": "Never",
                    "env": [{"name": "SECRET", "value": static}],
                }
            },
            "oidc": {
                "auth-provider": {
                    "name": "oidc",
                    "config": {
                        "idp-issuer-url": "https://i",
                        "client-id": "k",
                        "id-token": id_token,
                        "client-secret": password,
                    },
                }
            },
        },
        {name: {"cluster": "c", "user": name} for name in ("static", "basic", "file", "exec", "oidc")},
    )
    path = write(tmp_path / "config", doc)
    shown: list[str] = []
    for context in ("static", "basic", "file", "exec", "oidc"):
        config = load_kubeconfig(path, context)
        if config.credentials is not None and context != "exec":
            config.credentials.token()
        shown += [
            repr(config),
            str(config),
            repr(config.credentials),
            str(config.credentials),
            repr(config.httpx_auth()),
        ]

    # The exec plugin fails on its second run, printing the token it gave before to stderr.
    exec_config = load_kubeconfig(path, "exec")
    assert exec_config.credentials is not None
    assert exec_config.credentials.token() == exec_token
    exec_config.credentials.invalidate()
    with pytest.raises(CredentialError) as failed:
        exec_config.credentials.token()
    shown.append(str(failed.value))
    assert "previous token" not in str(failed.value)  # its stderr went to fd 2, not into the error

    # A 401 retry flow logs at DEBUG.
    with httpx.Client(
        transport=httpx.MockTransport(Server("x")), auth=BearerTokenAuth(TokenFile(tmp_path / "token"))
    ) as client:
        client.get("https://h/x")

    # Bad kubeconfigs: a YAML error on a line holding a token, and refused combinations.
    bad = {
        "yaml": f"users:\n- name: u\n  user: {{token: {static}: oops}}\n",
        "both": yaml.safe_dump(
            kubeconfig(
                {"c": {"server": "https://c"}},
                {"u": {"token": static, "password": password}},
                {"x": {"cluster": "c", "user": "u"}},
                "x",
            )
        ),
        "b64": yaml.safe_dump(
            kubeconfig(
                {"c": {"server": "https://c"}},
                {"u": {"client-certificate-data": b64(cert), "client-key-data": static + "%"}},
                {"x": {"cluster": "c", "user": "u"}},
                "x",
            )
        ),
        "pair": yaml.safe_dump(
            kubeconfig(
                {"c": {"server": "https://c"}},
                {"u": {"client-certificate-data": b64(cert), "client-key-data": b64(key.replace(b"A", b"B"))}},
                {"x": {"cluster": "c", "user": "u"}},
                "x",
            )
        ),
    }
    for name, text in bad.items():
        with pytest.raises(ConfigError) as e:
            load_kubeconfig(write(tmp_path / name, text))
        shown.append(str(e.value))
    shown.append(
        repr(
            Config(
                host="https://c",
                cert_data=cert,
                key_data=key,
                username="jane",
                password=password,
                proxy_url=f"http://u:{proxy_password}@p:1",
            )
        )
    )

    everything = "\n".join(shown) + "\n" + caplog.text
    for secret in secrets:
        assert secret not in everything, f"a secret leaked: {secret[:4]}…"
    assert "<redacted>" in everything
    assert any("401 Unauthorized: renewing" in r.getMessage() for r in caplog.records)


def test_a_request_whose_exec_plugin_fails_shows_no_plugin_stderr_in_its_error(
    tmp_path: Path, capfd: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture
) -> None:
    """The same through the REST client: the request fails with the plugin's exit code, its
    stderr reaches fd 2, and no error text, repr or log record (DEBUG) holds the secret."""
    caplog.set_level(logging.DEBUG)
    secret = "ghp_" + "S3cr3tR3fr3sh" * 3
    plugin = make_plugin(tmp_path, f"sys.stderr.write('refresh failed for refresh_token={secret}\\n'); sys.exit(1)")
    doc = kubeconfig(
        {"c": {"server": "https://c.example"}},
        {"u": {"exec": {"apiVersion": V1, "command": str(plugin), "interactiveMode": "Never"}}},
        {"x": {"cluster": "c", "user": "u"}},
        "x",
    )
    config = load_kubeconfig(write(tmp_path / "config", doc))
    sent: list[httpx.Request] = []
    with pytest.raises(CredentialError) as e:  # building the client asks for a client certificate already
        with RESTClient(config, transport=httpx.MockTransport(lambda r: sent.append(r) or httpx.Response(200))) as client:
            client.get("/api/v1/namespaces")
    assert sent == []  # nothing went out without credentials
    assert f"exec plugin {plugin} (user 'u') failed with exit code 1" in str(e.value)
    assert capfd.readouterr().err == f"refresh failed for refresh_token={secret}\n"
    chain: list[BaseException] = []
    error: BaseException | None = e.value
    while error is not None:
        chain.append(error)
        error = error.__cause__ or error.__context__
    shown = [*(str(x) for x in chain), *(repr(x) for x in chain), repr(config), caplog.text,
             *(r.getMessage() for r in caplog.records)]
    for text in shown:
        assert "S3cr3t" not in text and "ghp_" not in text


# -- the server URL, checked at load ------------------------------------------------------------


@pytest.mark.parametrize(
    ("server", "problem"),
    [
        ("ht!tp://::::", "scheme 'ht!tp' is not http or https"),
        ("ftp://h.example", "scheme 'ftp' is not http or https"),
        ("https://", "no host"),
        ("https://h.example:99999", "port '99999' is not a number from 1 to 65535"),
        ("https://h.example:http", "port 'http' is not a number from 1 to 65535"),
        ("https://h.example:0", "port 0 is not a number from 1 to 65535"),
        ("https://::::", "port '' is not a number from 1 to 65535"),
        ("https://h!.example:6443", "host 'h!.example' is neither a host name nor an IP address"),
        ("https://[::1:6443", "Invalid IPv6 URL"),
        ("https://admin:hunter2@h.example:0", "port 0 is not a number from 1 to 65535"),
    ],
)
def test_a_server_url_that_can_never_be_reached_is_refused_at_load_naming_file_and_context(
    tmp_path: Path, server: str, problem: str
) -> None:
    path = write(tmp_path / "config", kubeconfig({"prod": {"server": server}}, None, {"admin@prod": {"cluster": "prod"}}, "admin@prod"))
    with pytest.raises(ConfigError) as e:
        load_kubeconfig(path)
    shown = server.replace("admin:hunter2@", "<redacted>@")
    assert str(e.value) == (
        f"{path}: cluster 'prod' (of context 'admin@prod'): server {shown!r}: {problem} (expected a URL like https://host:6443)"
    )
    assert "hunter2" not in str(e.value)
    with pytest.raises(ConfigError, match=r": cluster 'prod': server "):  # a cluster named directly: no context to name
        load_kubeconfig(path, cluster="prod")


@pytest.mark.parametrize(
    ("server", "host"),
    [
        ("h.example:6443", "http://h.example:6443"),  # client-go's DefaultServerURL: http without TLS
        ("https://10.0.0.1", "https://10.0.0.1"),
        ("https://[fd00::1]:6443", "https://[fd00::1]:6443"),
        ("https://api_internal.example.com:443/prefix/", "https://api_internal.example.com:443/prefix"),
        ("HTTPS://H.EXAMPLE:6443", "https://H.EXAMPLE:6443"),  # the scheme lowered, as Go's url.Parse does
        ("http://localhost:8080", "http://localhost:8080"),
    ],
)
def test_server_urls_that_can_be_reached_load(tmp_path: Path, server: str, host: str) -> None:
    path = write(tmp_path / "config", kubeconfig({"c": {"server": server}}, None, {"x": {"cluster": "c"}}, "x"))
    assert load_kubeconfig(path).host == host
