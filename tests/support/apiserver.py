"""Small helpers for tests that talk to the real apiserver with plain httpx."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import httpx

from kgen.runtime.rest import Config, load_kubeconfig
from kgen.runtime.testing import KubeAPIServer

CRDS = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions"
T = TypeVar("T")


def wait_for(predicate: Callable[[], T], timeout: float = 60.0, interval: float = 0.2) -> T:
    """Polls ``predicate`` until it returns something truthy, and returns that."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"condition not met within {timeout}s")
        time.sleep(interval)


async def async_wait_for(probe: Callable[[], Awaitable[T]], timeout: float = 60.0, interval: float = 0.2) -> T:
    """``wait_for`` for asyncio tests: awaits ``probe`` until it gives something truthy, and returns that."""
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        value = await probe()
        if value:
            return value
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"condition not met within {timeout}s")
        await asyncio.sleep(interval)


def crd_manifest(group: str, kind: str, plural: str, spec_properties: dict[str, Any]) -> dict[str, Any]:
    """A namespaced v1 CRD whose ``spec`` has ``spec_properties``."""
    return {
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": f"{plural}.{group}"},
        "spec": {
            "group": group,
            "scope": "Namespaced",
            "names": {"plural": plural, "singular": kind.lower(), "kind": kind, "listKind": f"{kind}List"},
            "versions": [
                {
                    "name": "v1",
                    "served": True,
                    "storage": True,
                    "schema": {
                        "openAPIV3Schema": {
                            "type": "object",
                            "properties": {"spec": {"type": "object", "properties": spec_properties}},
                        }
                    },
                }
            ],
        },
    }


def install_crd(admin: httpx.Client, crd: dict[str, Any]) -> None:
    """Creates ``crd`` and waits until it is Established."""
    created = admin.post(CRDS, json=crd)
    assert created.status_code == 201, created.text
    name = crd["metadata"]["name"]

    def established() -> bool:
        conditions = admin.get(f"{CRDS}/{name}").json().get("status", {}).get("conditions") or []
        return any(c["type"] == "Established" and c["status"] == "True" for c in conditions)

    wait_for(established)


def unthrottled_config(server: KubeAPIServer) -> Config:
    """The admin kubeconfig's Config with client-side throttling off (tests are not throttled)."""
    config = load_kubeconfig(server.kubeconfig)
    config.qps = -1
    return config
