"""Captures what a kube-apiserver publishes into a snapshot folder (the layout of openapi/).

    version.json
    openapi/v2.json                      /openapi/v2
    openapi/v3.json                      /openapi/v3 (the index)
    openapi/v3/<path>.json               every document the index lists (api/v1, apis/apps/v1, ...)
    discovery/aggregated/{api,apis}.json aggregated discovery (apidiscovery.k8s.io/v2)
    discovery/legacy/{api,apis}.json     legacy discovery, and
    discovery/legacy/<api/v1|apis/G/V>.json for each group-version

JSON is written pretty-printed with sorted keys so that refreshing a snapshot gives a readable
diff. The folder is written next to its destination and swapped in whole.
"""

from __future__ import annotations

import json
import re
import shutil
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx

from kgen.runtime.rest import Config, CredentialError

from .cluster_access import credential_error, http_error, not_json, transport_error

AGGREGATED_ACCEPT = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList"
# A path segment a server may name in its OpenAPI v3 index: nothing that can climb out of the
# snapshot folder once joined to it.
_SAFE_SEGMENT = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$|^\.well-known$")


class SnapshotError(RuntimeError):
    pass


def _safe_relpath(path: str) -> str:
    segments = path.strip("/").split("/")
    if not segments or not all(_SAFE_SEGMENT.match(s) and s not in (".", "..") for s in segments):
        raise SnapshotError(f"/openapi/v3 index lists an unexpected path {path!r}")
    return "/".join(segments)


def _dump(folder: Path, relpath: str, doc: Any) -> None:
    target = folder / relpath
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(doc, indent=2, sort_keys=True, ensure_ascii=False) + "\n")


class _Fetcher:
    def __init__(self, client: httpx.Client, progress: Callable[[str], None]) -> None:
        self._client = client
        self._progress = progress

    def get(self, path: str, accept: str = "application/json", optional: bool = False) -> Any:
        """The JSON document at ``path``; with ``optional``, None when the server does not serve it."""
        self._progress(path)
        try:
            response = self._client.get(path, headers={"Accept": accept})
        except httpx.TransportError as e:
            raise transport_error(str(self._client.base_url.join(path)), e) from None
        except CredentialError as e:
            raise credential_error(e) from None
        if optional and response.status_code in (404, 406):
            return None
        if response.status_code != 200:
            url = str(self._client.base_url.join(path))
            raise http_error(url, response.status_code, response.reason_phrase, response.content)
        try:
            return response.json()
        except ValueError:
            raise not_json(str(self._client.base_url.join(path))) from None


def capture(config: Config, out: Path, progress: Callable[[str], None] = lambda _: None) -> dict[str, int]:
    """Writes a snapshot of the server in ``config`` to ``out``; returns counts of what it wrote."""
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{out.name}.", dir=out.parent))
    try:
        with httpx.Client(
            base_url=config.host, verify=config.ssl_context(), auth=config.httpx_auth(), timeout=60.0
        ) as client:
            counts = _capture_into(_Fetcher(client, progress), staging)
        backup = out.with_name(f".{out.name}.old")
        if out.exists():
            out.rename(backup)
        staging.rename(out)
        shutil.rmtree(backup, ignore_errors=True)
        return counts
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise


def _capture_into(fetch: _Fetcher, folder: Path) -> dict[str, int]:
    _dump(folder, "version.json", fetch.get("/version"))
    _dump(folder, "openapi/v2.json", fetch.get("/openapi/v2"))

    # Servers before 1.27 may lack /openapi/v3 (v2 is the fallback) and aggregated discovery
    # (legacy discovery below is the fallback): both are captured when served.
    index = fetch.get("/openapi/v3", optional=True) or {}
    v3_paths = sorted(index.get("paths", {}))
    if index:
        _dump(folder, "openapi/v3.json", index)
    for path in v3_paths:
        url = index["paths"][path].get("serverRelativeURL") or f"/openapi/v3/{path}"
        _dump(folder, f"openapi/v3/{_safe_relpath(path)}.json", fetch.get(url))

    for root in ("api", "apis"):
        doc = fetch.get(f"/{root}", accept=f"{AGGREGATED_ACCEPT},application/json")
        if doc.get("kind") == "APIGroupDiscoveryList":
            _dump(folder, f"discovery/aggregated/{root}.json", doc)

    legacy_api = fetch.get("/api")
    _dump(folder, "discovery/legacy/api.json", legacy_api)
    group_versions = [f"api/{v}" for v in legacy_api.get("versions", [])]
    legacy_apis = fetch.get("/apis")
    _dump(folder, "discovery/legacy/apis.json", legacy_apis)
    for group in legacy_apis.get("groups", []):
        group_versions += [f"apis/{v['groupVersion']}" for v in group.get("versions", [])]
    for gv in group_versions:
        _dump(folder, f"discovery/legacy/{_safe_relpath(gv)}.json", fetch.get(f"/{gv}"))

    return {"openapi_v3_documents": len(v3_paths), "group_versions": len(group_versions)}


def terminal_progress(stream: Any = None) -> Callable[[str], None]:
    """One self-overwriting status line on a terminal; nothing in a pipe."""
    stream = stream or sys.stderr
    if not stream.isatty():
        return lambda _: None

    def show(what: str) -> None:
        stream.write(f"\r\x1b[2Kfetching {what}")
        stream.flush()

    return show
