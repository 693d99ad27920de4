"""`kgen generate --cluster` and `kgen snapshot` when the server answers with something other than
what an apiserver sends: one line, exit 2. (401 and 403 from a real apiserver:
tests/integration/test_generate_cluster_errors.py.)

Before: `GET /openapi/v2: HTTP 500: {"kind":"Status",...` (raw JSON cut at 200 characters, the
path without the server), a 200 that is not JSON ended in a JSONDecodeError traceback.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from kgen.generator.cli import main

_STATUS_500 = (
    b'{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",'
    b'"message":"etcdserver: request timed out,\\n  retry later","reason":"InternalError","code":500}'
)
# path -> (status, content type, body); /version always answers.
_ANSWERS = {
    "status-500": (500, "application/json", _STATUS_500),
    "html-404": (404, "text/html", b"<html><body><h1>Not Found</h1>\n<p>nginx</p></body></html>"),
    "html-200": (200, "text/html", b"<html>Sign in to continue</html>"),
}


class _Handler(BaseHTTPRequestHandler):
    answer = "status-500"

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        status, kind, body = (200, "application/json", b'{"gitVersion": "v1.37.2"}') if self.path == "/version" else _ANSWERS[self.answer]
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def server() -> Iterator[tuple[str, type[_Handler]]]:
    handler = type("Handler", (_Handler,), {})
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}", handler
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join()


def _kubeconfig(folder: Path, url: str) -> Path:
    path = folder / "kubeconfig"
    path.write_text(
        "apiVersion: v1\nkind: Config\ncurrent-context: lab\n"
        "contexts: [{name: lab, context: {cluster: c, user: u}}]\n"
        f"clusters: [{{name: c, cluster: {{server: '{url}'}}}}]\n"
        "users: [{name: u, user: {}}]\n"
    )
    return path


def _fails(capsys: pytest.CaptureFixture[str], args: list[str]) -> str:
    assert main(args) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "Traceback" not in captured.err
    assert captured.err.endswith("\n") and len(captured.err.splitlines()) == 1, captured.err
    return captured.err.rstrip("\n")


@pytest.mark.parametrize(
    ("answer", "problem"),
    [
        ("status-500", "HTTP 500 Internal Server Error: etcdserver: request timed out, retry later"),
        ("html-404", "HTTP 404 Not Found: <html><body><h1>Not Found</h1> <p>nginx</p></body></html> "
                     "(is the kubeconfig's server a Kubernetes apiserver?)"),
        ("html-200", "the answer is not JSON (is the kubeconfig's server a Kubernetes apiserver?)"),
    ],
)
def test_other_answers_are_one_line(
    server: tuple[str, type[_Handler]], tmp_path: Path, capsys: pytest.CaptureFixture[str], answer: str, problem: str
) -> None:
    url, handler = server
    handler.answer = answer
    config = _kubeconfig(tmp_path, url)
    out = tmp_path / "out"
    line = _fails(capsys, ["generate", "--cluster", "--kubeconfig", str(config), "--out", str(out)])
    assert line == f"kgen generate: GET {url}/openapi/v2 (context 'lab' of {config}): {problem}"
    line = _fails(capsys, ["snapshot", "--kubeconfig", str(config), "--out", str(out)])
    assert line == f"kgen snapshot: GET {url}/openapi/v2 (context 'lab' of {config}): {problem}"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kubeconfig"]


def test_connection_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = _kubeconfig(tmp_path, "https://127.0.0.1:1")
    line = _fails(capsys, ["generate", "--cluster", "--kubeconfig", str(config), "--out", str(tmp_path / "out")])
    assert line == (
        f"kgen generate: GET https://127.0.0.1:1/version (context 'lab' of {config}): "
        "cannot connect: [Errno 111] Connection refused (is the server address right and the cluster running?)"
    )


def test_the_context_named_is_the_one_used(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """Without --kubeconfig and --context: $KUBECONFIG's files and their current-context."""
    config = _kubeconfig(tmp_path, "https://127.0.0.1:1")
    monkeypatch.setenv("KUBECONFIG", str(config))
    line = _fails(capsys, ["snapshot", "--out", str(tmp_path / "out")])
    assert line.startswith(f"kgen snapshot: GET https://127.0.0.1:1/version (context 'lab' of {config}): cannot connect: ")


def test_snapshot_out_naming_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = _kubeconfig(tmp_path, "https://127.0.0.1:1")
    out = tmp_path / "afile"
    out.write_text("mine\n")
    line = _fails(capsys, ["snapshot", "--kubeconfig", str(config), "--out", str(out / "snap")])
    assert line == f"kgen snapshot: --out {out / 'snap'}: {out} is a file (expected a folder)"
    line = _fails(capsys, ["snapshot", "--kubeconfig", str(config), "--out", str(out)])
    assert line == f"kgen snapshot: --out {out}: is a file (expected a folder)"
    assert out.read_text() == "mine\n"


@pytest.mark.parametrize("command", ["generate", "snapshot"])
def test_an_exec_plugin_that_gives_no_credentials(tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str) -> None:
    """Before: a CredentialError traceback from inside the HTTP client's set-up."""
    plugin = tmp_path / "plugin"
    plugin.write_text("#!/bin/sh\necho not-an-exec-credential\n")
    plugin.chmod(0o755)
    config = tmp_path / "kubeconfig"
    config.write_text(
        "apiVersion: v1\nkind: Config\ncurrent-context: lab\n"
        "contexts: [{name: lab, context: {cluster: c, user: u}}]\n"
        "clusters: [{name: c, cluster: {server: 'https://127.0.0.1:1'}}]\n"
        f"users: [{{name: u, user: {{exec: {{apiVersion: client.authentication.k8s.io/v1, command: {plugin}, "
        "interactiveMode: Never}}}]\n"
    )
    args = ["generate", "--cluster"] if command == "generate" else ["snapshot"]
    line = _fails(capsys, [*args, "--kubeconfig", str(config), "--out", str(tmp_path / "out")])
    assert line == (
        f"kgen {command}: context 'lab' of {config}: no credentials: exec plugin {plugin} (user 'u'): "
        "decoding stdout: not JSON (check the user's exec plugin or token file in the kubeconfig)"
    )
    assert not (tmp_path / "out").exists()


def test_snapshot_never_replaces_a_folder_that_is_not_a_snapshot(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Before: `kgen snapshot --out src` renamed src away and deleted it, whatever it held."""
    config = _kubeconfig(tmp_path, "https://127.0.0.1:1")
    out = tmp_path / "src"
    (out / "app").mkdir(parents=True)
    (out / "app" / "main.py").write_text("precious\n")
    line = _fails(capsys, ["snapshot", "--kubeconfig", str(config), "--out", str(out)])
    assert line == (
        f"kgen snapshot: --out {out}: exists and is not a snapshot (no openapi/v3/ in it); refusing to replace it "
        "(expected a snapshot folder, an empty folder or nothing there)"
    )
    assert (out / "app" / "main.py").read_text() == "precious\n"
    (out / "openapi" / "v3").mkdir(parents=True)  # a snapshot (as kgen snapshot writes) is refreshed
    line = _fails(capsys, ["snapshot", "--kubeconfig", str(config), "--out", str(out)])
    assert line.startswith(f"kgen snapshot: GET https://127.0.0.1:1/version (context 'lab' of {config}): cannot connect: ")
