"""`kgen generate --cluster` (and `kgen snapshot`) against a real apiserver that refuses: one line
that says what to check, exit 2, nothing written.

Before: `kgen generate: GET /version: HTTP 401: {"kind":"Status","apiVersion":"v1",...` (the raw
Status JSON, cut at 200 characters, and no hint of which kubeconfig entry to fix).

The 401 is the server refusing a bearer token it does not know; the 403 is RBAC refusing
`system:anonymous` (a kubeconfig user with no credentials) the non-resource URL /openapi/v2,
which the bootstrap roles grant only to authenticated users.
"""

from __future__ import annotations

import base64
from pathlib import Path
from typing import Any

import httpx
import pytest
import yaml

from kgen.generator.cli import main
from kgen.generator.cluster_access import READ_URLS
from kgen.generator.snapshot import capture
from kgen.runtime.rest import load_kubeconfig
from kgen.runtime.testing import KubeAPIServer

_AUTH_HINT = (
    "(check the credentials of the context's user, its token, client certificate or exec plugin, "
    "and whether the token has expired)"
)
_RBAC_HINT = (
    "(check the RBAC of the context's user: reading a cluster needs get on the non-resource URLs "
    "/version, /openapi/*, /api, /api/*, /apis and /apis/*, which the system:discovery ClusterRole grants to "
    "authenticated users)"
)


def _kubeconfig(server: KubeAPIServer, folder: Path, user: dict[str, Any], *, ca: bool = True) -> Path:
    cluster: dict[str, Any] = {"server": server.url}
    if ca:
        cluster["certificate-authority-data"] = base64.b64encode(server.ca_pem).decode()
    doc = {
        "apiVersion": "v1",
        "kind": "Config",
        "clusters": [{"name": "envtest", "cluster": cluster}],
        "users": [{"name": "someone", "user": user}],
        "contexts": [{"name": "dev", "context": {"cluster": "envtest", "user": "someone"}}],
        "current-context": "dev",
    }
    path = folder / "kubeconfig"
    path.write_text(yaml.safe_dump(doc))
    return path


def _fails(capsys: pytest.CaptureFixture[str], args: list[str], out: Path, command: str = "generate") -> str:
    assert main([command, *args]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "Traceback" not in captured.err
    assert captured.err.endswith("\n") and len(captured.err.splitlines()) == 1, captured.err
    assert not out.exists()
    return captured.err.rstrip("\n")


def test_401_says_to_check_the_credentials(kube_apiserver: KubeAPIServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = _kubeconfig(kube_apiserver, tmp_path, {"token": "not-a-valid-token"})
    out = tmp_path / "out"
    line = _fails(capsys, ["--cluster", "--kubeconfig", str(config), "--out", str(out)], out)
    assert line == (
        f"kgen generate: GET {kube_apiserver.url}/version (context 'dev' of {config}): "
        f"HTTP 401 Unauthorized {_AUTH_HINT}"
    )
    assert "not-a-valid-token" not in line


def test_401_from_kgen_snapshot_too(kube_apiserver: KubeAPIServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = _kubeconfig(kube_apiserver, tmp_path, {"token": "not-a-valid-token"})
    out = tmp_path / "snap"
    line = _fails(capsys, ["--out", str(out), "--kubeconfig", str(config), "--context", "dev"], out, command="snapshot")
    assert line == (
        f"kgen snapshot: GET {kube_apiserver.url}/version (context 'dev' of {config}): "
        f"HTTP 401 Unauthorized {_AUTH_HINT}"
    )
    assert [p.name for p in tmp_path.iterdir()] == ["kubeconfig"]  # no staging folder left


def test_403_says_to_check_rbac(kube_apiserver: KubeAPIServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = _kubeconfig(kube_apiserver, tmp_path, {})  # no credentials: system:anonymous
    out = tmp_path / "out"
    line = _fails(capsys, ["--cluster", "--kubeconfig", str(config), "--out", str(out)], out)
    assert line == (
        f"kgen generate: GET {kube_apiserver.url}/openapi/v2 (context 'dev' of {config}): "
        f'HTTP 403 Forbidden: forbidden: User "system:anonymous" cannot get path "/openapi/v2" {_RBAC_HINT}'
    )


def test_untrusted_server_certificate(kube_apiserver: KubeAPIServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = _kubeconfig(kube_apiserver, tmp_path, {"token": "irrelevant"}, ca=False)
    out = tmp_path / "out"
    line = _fails(capsys, ["--cluster", "--kubeconfig", str(config), "--out", str(out)], out)
    prefix = f"kgen generate: GET {kube_apiserver.url}/version (context 'dev' of {config}): TLS failed: "
    assert line.startswith(prefix) and "CERTIFICATE_VERIFY_FAILED" in line, line
    assert line.endswith("(check the cluster's certificate-authority in the kubeconfig and the server address)")


def _matches(url: str, pattern: str) -> bool:
    """RBAC's non-resource URL match: exact, or a prefix for a pattern ending in ``*``."""
    return url.startswith(pattern[:-1]) if pattern.endswith("*") else url == pattern


def test_the_rbac_hint_names_what_kgen_reads_and_system_discovery_grants(
    kube_apiserver: KubeAPIServer, admin: httpx.Client, tmp_path: Path
) -> None:
    """The hint's URLs cover every request a snapshot sends, and the apiserver's own bootstrap
    role grants each of them to every authenticated user."""
    role = admin.get("/apis/rbac.authorization.k8s.io/v1/clusterroles/system:discovery").json()
    granted = {url for rule in role["rules"] if "get" in rule["verbs"] for url in rule.get("nonResourceURLs", [])}
    assert set(READ_URLS) <= granted, granted
    binding = admin.get("/apis/rbac.authorization.k8s.io/v1/clusterrolebindings/system:discovery").json()
    assert {"kind": "Group", "apiGroup": "rbac.authorization.k8s.io", "name": "system:authenticated"} in binding["subjects"]
    requested: list[str] = []
    capture(load_kubeconfig(kube_apiserver.kubeconfig), tmp_path / "snap", requested.append)
    assert len(requested) > 50 and {"/version", "/openapi/v2", "/api", "/apis"} <= set(requested)
    unmatched = [url for url in requested if not any(_matches(url.split("?")[0], p) for p in READ_URLS)]
    assert unmatched == []
