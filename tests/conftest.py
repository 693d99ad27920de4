"""Shared fixtures. ``kube_apiserver`` comes from kgen's pytest plugin (kgen.runtime.testing)."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import httpx
import pytest

from kgen.runtime.rest import RESTClient
from kgen.runtime.testing import KubeAPIServer
from tests.support.apiserver import unthrottled_config


@pytest.fixture(scope="session")
def admin(kube_apiserver: KubeAPIServer) -> Iterator[httpx.Client]:
    """Plain httpx, authenticated as the admin identity."""
    with kube_apiserver.admin_client(timeout=30.0) as client:
        yield client


@pytest.fixture
def namespace(admin: httpx.Client) -> Iterator[str]:
    """A fresh namespace per test (no namespace controller runs, so it is never finalized)."""
    name = f"t-{uuid.uuid4().hex[:10]}"
    admin.post("/api/v1/namespaces", json={"metadata": {"name": name}}).raise_for_status()
    yield name
    admin.delete(f"/api/v1/namespaces/{name}")



@pytest.fixture(scope="session")
def rest(kube_apiserver: KubeAPIServer) -> Iterator[RESTClient]:
    """kgen's REST client as the admin identity, unthrottled."""
    with RESTClient(unthrottled_config(kube_apiserver)) as client:
        yield client
