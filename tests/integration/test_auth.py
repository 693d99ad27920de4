"""Credentials against the real kube-apiserver: exec plugins, token files, in-cluster, TLS.

The server accepts static bearer tokens for kgen-token-1..3 (all system:masters); a
SelfSubjectReview says who the server took the caller to be.
"""

from __future__ import annotations

import asyncio
import base64
import json
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest
import yaml

from kgen.runtime.rest import TokenFile
from kgen.runtime.rest import Config, in_cluster_config, load_kubeconfig
from kgen.runtime.testing import KubeAPIServer

REVIEW_PATH = "/apis/authentication.k8s.io/v1/selfsubjectreviews"
REVIEW = {"apiVersion": "authentication.k8s.io/v1", "kind": "SelfSubjectReview"}

# Prints an invalid token on its first run and the token in $GOOD_TOKEN afterwards; counts runs.
FLAKY_PLUGIN = """#!{python}
import json, os
counter = os.path.join(os.path.dirname(os.path.abspath(__file__)), "calls")
calls = int(open(counter).read()) + 1 if os.path.exists(counter) else 1
open(counter, "w").write(str(calls))
token = "not-a-valid-token" if calls == 1 else os.environ["GOOD_TOKEN"]
print(json.dumps({{"apiVersion": "client.authentication.k8s.io/v1", "kind": "ExecCredential",
                  "status": {{"token": token, "expirationTimestamp": "2999-01-01T00:00:00Z"}}}}))
"""

# Prints the client certificate and key it finds in $CERT_FILE / $KEY_FILE.
CERT_PLUGIN = """#!{python}
import json, os
status = {{"clientCertificateData": open(os.environ["CERT_FILE"]).read(),
          "clientKeyData": open(os.environ["KEY_FILE"]).read()}}
print(json.dumps({{"apiVersion": "client.authentication.k8s.io/v1beta1", "kind": "ExecCredential", "status": status}}))
"""


def _plugin(folder: Path, source: str) -> Path:
    path = folder / "plugin"
    path.write_text(source.format(python=sys.executable))
    path.chmod(0o755)
    return path


def _kubeconfig(
    server: KubeAPIServer, folder: Path, user: dict[str, Any], cluster: dict[str, Any] | None = None
) -> Path:
    doc = {
        "apiVersion": "v1",
        "kind": "Config",
        "clusters": [
            {
                "name": "envtest",
                "cluster": cluster
                or {"server": server.url, "certificate-authority-data": base64.b64encode(server.ca_pem).decode()},
            }
        ],
        "users": [{"name": "tester", "user": user}],
        "contexts": [{"name": "test", "context": {"cluster": "envtest", "user": "tester"}}],
        "current-context": "test",
    }
    path = folder / "kubeconfig"
    path.write_text(yaml.safe_dump(doc))
    return path


def _client(config: Config) -> httpx.Client:
    return httpx.Client(base_url=config.host, verify=config.ssl_context(), auth=config.httpx_auth(), timeout=30.0)


def _whoami(client: httpx.Client) -> str:
    response = client.post(REVIEW_PATH, json=REVIEW)
    assert response.status_code == 201, response.text
    return str(response.json()["status"]["userInfo"]["username"])


def _runs(folder: Path) -> int:
    return int((folder / "calls").read_text())


def _exec_user(kube_apiserver: KubeAPIServer, folder: Path) -> dict[str, Any]:
    _plugin(folder, FLAKY_PLUGIN)
    return {
        "exec": {
            "apiVersion": "client.authentication.k8s.io/v1",
            "command": "./plugin",  # relative to the kubeconfig's folder
            "interactiveMode": "Never",
            "env": [{"name": "GOOD_TOKEN", "value": kube_apiserver.tokens["kgen-token-1"]}],
        }
    }


def test_exec_plugin_is_rerun_after_401_and_the_request_retried(kube_apiserver: KubeAPIServer, tmp_path: Path) -> None:
    config = load_kubeconfig(_kubeconfig(kube_apiserver, tmp_path, _exec_user(kube_apiserver, tmp_path)))
    with _client(config) as client:
        response = client.post(REVIEW_PATH, json=REVIEW)
        assert response.status_code == 201, response.text
        assert response.json()["status"]["userInfo"]["username"] == "kgen-token-1"
        assert _runs(tmp_path) == 2  # first token refused (401), plugin re-run, request retried
        assert _whoami(client) == "kgen-token-1"
    assert _runs(tmp_path) == 2  # the good token is cached until its expirationTimestamp


def test_exec_plugin_rerun_after_401_with_the_async_client(kube_apiserver: KubeAPIServer, tmp_path: Path) -> None:
    config = load_kubeconfig(_kubeconfig(kube_apiserver, tmp_path, _exec_user(kube_apiserver, tmp_path)))

    async def review() -> httpx.Response:
        async with httpx.AsyncClient(
            base_url=config.host, verify=config.ssl_context(), auth=config.httpx_auth(), timeout=30.0
        ) as client:
            return await client.post(REVIEW_PATH, json=REVIEW)

    response = asyncio.run(review())
    assert response.status_code == 201, response.text
    assert response.json()["status"]["userInfo"]["username"] == "kgen-token-1"
    assert _runs(tmp_path) == 2


def test_token_file_rotation_is_picked_up_after_invalidate(kube_apiserver: KubeAPIServer, tmp_path: Path) -> None:
    token_file = tmp_path / "token"
    token_file.write_text(kube_apiserver.tokens["kgen-token-1"])
    config = load_kubeconfig(_kubeconfig(kube_apiserver, tmp_path, {"tokenFile": "token"}))
    assert isinstance(config.credentials, TokenFile)
    with _client(config) as client:
        assert _whoami(client) == "kgen-token-1"
        token_file.write_text(kube_apiserver.tokens["kgen-token-2"] + "\n")
        assert _whoami(client) == "kgen-token-1"  # cached: re-read at most once a minute
        config.credentials.invalidate()
        assert _whoami(client) == "kgen-token-2"


def test_token_file_rotation_is_picked_up_after_the_refresh_interval(
    kube_apiserver: KubeAPIServer, tmp_path: Path
) -> None:
    token_file = tmp_path / "token"
    token_file.write_text(kube_apiserver.tokens["kgen-token-1"])
    now = [0.0]
    credentials = TokenFile(token_file, clock=lambda: now[0])
    config = Config(host=kube_apiserver.url, ca_data=kube_apiserver.ca_pem, credentials=credentials)
    with _client(config) as client:
        assert _whoami(client) == "kgen-token-1"
        token_file.write_text(kube_apiserver.tokens["kgen-token-2"])
        now[0] += 60.0
        assert _whoami(client) == "kgen-token-2"


def test_revoked_token_file_token_is_re_read_on_401(kube_apiserver: KubeAPIServer, tmp_path: Path) -> None:
    token_file = tmp_path / "token"
    token_file.write_text("revoked-token")
    config = Config(host=kube_apiserver.url, ca_data=kube_apiserver.ca_pem, credentials=TokenFile(token_file))
    with _client(config) as client:
        config.credentials.token()  # cached: the stale token
        token_file.write_text(kube_apiserver.tokens["kgen-token-3"])
        assert _whoami(client) == "kgen-token-3"  # 401 → re-read → retried once


def test_in_cluster_config_reaches_the_apiserver(
    kube_apiserver: KubeAPIServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "serviceaccount"
    folder.mkdir()
    (folder / "token").write_text(kube_apiserver.tokens["kgen-token-3"])
    (folder / "ca.crt").write_bytes(kube_apiserver.ca_pem)
    (folder / "namespace").write_text("kube-system")
    host, port = kube_apiserver.url.removeprefix("https://").rsplit(":", 1)
    env = {"KUBERNETES_SERVICE_HOST": host, "KUBERNETES_SERVICE_PORT": port}
    config = in_cluster_config(service_account_dir=folder, environ=env)
    assert config.namespace == "kube-system"
    with _client(config) as client:
        assert _whoami(client) == "kgen-token-3"


def test_exec_plugin_client_certificate_authenticates(kube_apiserver: KubeAPIServer, tmp_path: Path) -> None:
    admin = load_kubeconfig(kube_apiserver.kubeconfig)
    assert admin.cert_data and admin.key_data
    (tmp_path / "tls.crt").write_bytes(admin.cert_data)
    (tmp_path / "tls.key").write_bytes(admin.key_data)
    _plugin(tmp_path, CERT_PLUGIN)
    user = {
        "exec": {
            "apiVersion": "client.authentication.k8s.io/v1beta1",
            "command": str(tmp_path / "plugin"),
            "env": [
                {"name": "CERT_FILE", "value": str(tmp_path / "tls.crt")},
                {"name": "KEY_FILE", "value": str(tmp_path / "tls.key")},
            ],
        }
    }
    config = load_kubeconfig(_kubeconfig(kube_apiserver, tmp_path, user))
    with _client(config) as client:
        assert _whoami(client) == "kgen-admin"


def test_tls_server_name_is_the_name_the_certificate_is_checked_against(
    kube_apiserver: KubeAPIServer, tmp_path: Path
) -> None:
    # The serving certificate names 127.0.0.1 and localhost, not wrong.example.
    ca = base64.b64encode(kube_apiserver.ca_pem).decode()
    user = {"token": kube_apiserver.tokens["kgen-token-1"]}
    for name, ok in (("localhost", True), ("wrong.example", False)):
        cluster = {"server": kube_apiserver.url, "certificate-authority-data": ca, "tls-server-name": name}
        config = load_kubeconfig(_kubeconfig(kube_apiserver, tmp_path, user, cluster))
        assert config.tls_server_name == name
        with _client(config) as client:
            request = client.build_request("GET", "/version", extensions={"sni_hostname": config.tls_server_name})
            if ok:
                assert json.loads(client.send(request).content)["major"]
            else:
                with pytest.raises(httpx.ConnectError, match="certificate verify failed"):
                    client.send(request)


def test_a_server_certificate_from_another_ca_is_refused(kube_apiserver: KubeAPIServer) -> None:
    from kgen.runtime.testing._certs import CertificateAuthority

    config = Config(host=kube_apiserver.url, ca_data=CertificateAuthority().cert_pem)
    with _client(config) as client, pytest.raises(httpx.ConnectError, match="certificate verify failed"):
        client.get("/version")
