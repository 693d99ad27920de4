"""gateway-api end to end: install its CRDs, generate their client, and use every layer of it."""

from __future__ import annotations

import importlib
import sys
import threading
import uuid
from pathlib import Path
from typing import Any

import httpx

from kgen.runtime.apimachinery.apply import extract
from kgen.runtime.rest import load_kubeconfig
from kgen.runtime.testing import KubeAPIServer
from tests.support.apiserver import CRDS, wait_for
from tests.support.corpus import crd_files, crds
from tests.support.packages import generate


def _install(admin: httpx.Client, crd: dict[str, Any]) -> None:
    created = admin.post(CRDS, json=crd)
    assert created.status_code in (201, 409), created.text

    def established() -> bool:
        conditions = admin.get(f"{CRDS}/{crd['metadata']['name']}").json().get("status", {}).get("conditions") or []
        return any(c["type"] == "Established" and c["status"] == "True" for c in conditions)

    wait_for(established)


def test_http_route_through_typed_client_lister_apply_and_watch(
    kube_apiserver: KubeAPIServer, admin: httpx.Client, namespace: str, tmp_path: Path
) -> None:
    for crd in crds("gateway-api"):
        _install(admin, crd)
    package = f"gateway_{uuid.uuid4().hex[:6]}"
    generate(tmp_path, package, *[a for p in crd_files("gateway-api") for a in ("--crd", str(p))])
    sys.path.insert(0, str(tmp_path))
    try:
        pkg = importlib.import_module(package)
        models = importlib.import_module(f"{package}.models.gateway.v1")
        meta = importlib.import_module(f"{package}.models.meta.v1")
        factory_module = importlib.import_module(f"{package}.informers.factory")
    finally:
        sys.path.remove(str(tmp_path))

    config = load_kubeconfig(kube_apiserver.kubeconfig)
    config.qps = -1
    cs = pkg.Clientset(config)
    routes = cs.gateway_v1.http_routes(namespace)
    start_rv = routes.list().metadata.resource_version

    events: list[tuple[str, Any]] = []

    def watch() -> None:
        for event in routes.watch(resource_version=start_rv, timeout_seconds=30):
            if event.type != "BOOKMARK":
                events.append((event.type, event.object))
            if len(events) == 2:
                return

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()

    factory = factory_module.SharedInformerFactory(cs, namespace=namespace)
    route_informer = factory.gateway_v1.http_routes()
    factory.start()
    assert all(factory.wait_for_cache_sync(timeout=30).values())

    route = models.HTTPRoute(
        metadata=meta.ObjectMeta(name="web"),
        spec=models.HTTPRouteSpec(
            parent_refs=[models.ParentRefs(name="gateway")],
            hostnames=["a.example.com"],
        ),
    )
    created = routes.apply(route, field_manager="kgen-e2e")
    assert isinstance(created, models.HTTPRoute) and created.spec.hostnames == ["a.example.com"]

    cached = wait_for(lambda: _get_or_none(route_informer.lister.http_routes(namespace), "web"))
    assert isinstance(cached, models.HTTPRoute) and cached.spec.parent_refs[0].name == "gateway"

    mine = extract(routes.get("web"), "kgen-e2e")
    mine.spec.hostnames = ["b.example.com"]
    applied = routes.apply(mine, field_manager="kgen-e2e")
    assert applied.spec.hostnames == ["b.example.com"]

    watcher.join(timeout=30)
    assert [(t, o.spec.hostnames) for t, o in events] == [
        ("ADDED", ["a.example.com"]),
        ("MODIFIED", ["b.example.com"]),
    ]
    wait_for(lambda: route_informer.lister.http_routes(namespace).get("web").spec.hostnames == ["b.example.com"])
    factory.shutdown()
    cs.close()


def _get_or_none(lister: Any, name: str) -> Any:
    from kgen.runtime.apimachinery.errors import NotFound

    try:
        return lister.get(name)
    except NotFound:
        return None
