"""pods/log through ``stream_lines`` on a server without kubelets: answers or typed errors, never a hang.

A pod that no node runs has no log to fetch: the apiserver checks the request (pod and
container names) and then, finding no node to ask, answers 204 No Content.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator

import pytest

from kgen.kubernetes.models.core.v1 import Pod, PodList
from kgen.runtime.apimachinery.codec import ModelCodec
from kgen.runtime.rest import Config, load_kubeconfig
from kgen.runtime.apimachinery.errors import BadRequest, NotFound
from kgen.runtime.gentype import AsyncResourceClient, ResourceClient, ResourceInfo
from kgen.runtime.rest.client import AsyncRESTClient, RESTClient
from kgen.runtime.testing import KubeAPIServer

PODS = ResourceInfo("", "v1", "pods", True, "Pod")
CODEC = ModelCodec(Pod, PodList)

pytestmark = pytest.mark.timeout(60)  # a log stream that never ends fails the test instead of hanging it


@pytest.fixture(scope="module")
def config(kube_apiserver: KubeAPIServer) -> Config:
    cfg = load_kubeconfig(kube_apiserver.kubeconfig)
    cfg.qps = -1
    return cfg


@pytest.fixture
def pods(config: Config, namespace: str) -> Iterator[ResourceClient[Pod, PodList]]:
    with RESTClient(config) as rest:
        client = ResourceClient(rest, PODS, namespace, CODEC)
        client.create(Pod.from_dict({"metadata": {"name": "one"}, "spec": {"containers": [{"name": "c", "image": "x"}]}}))
        client.create(
            Pod.from_dict(
                {"metadata": {"name": "two"}, "spec": {"containers": [{"name": "a", "image": "x"}, {"name": "b", "image": "y"}]}}
            )
        )
        yield client


@pytest.mark.parametrize("follow", [False, True])
def test_log_of_a_pod_without_a_node_is_empty_and_ends(pods: ResourceClient[Pod, PodList], follow: bool) -> None:
    started = time.monotonic()
    assert list(pods.stream_lines("one", "log", follow=follow)) == []
    assert time.monotonic() - started < 10


def test_log_without_a_container_name_for_a_two_container_pod_is_bad_request(pods: ResourceClient[Pod, PodList]) -> None:
    with pytest.raises(BadRequest) as e:
        list(pods.stream_lines("two", "log", follow=True))
    assert e.value.code == 400 and "a container name must be specified" in e.value.message
    assert "[a b]" in e.value.message


def test_log_of_an_unknown_container_is_bad_request(pods: ResourceClient[Pod, PodList]) -> None:
    with pytest.raises(BadRequest, match="container nope is not valid for pod one"):
        list(pods.stream_lines("one", "log", container="nope"))


def test_log_of_a_missing_pod_is_not_found(pods: ResourceClient[Pod, PodList]) -> None:
    with pytest.raises(NotFound) as e:
        list(pods.stream_lines("missing", "log"))
    assert e.value.details.get("name") == "missing"


def test_async_log_errors_are_typed_too(config: Config, namespace: str, pods: ResourceClient[Pod, PodList]) -> None:
    async def scenario() -> list[str]:
        async with AsyncRESTClient(config) as rest:
            apods = AsyncResourceClient(rest, PODS, namespace, CODEC)
            with pytest.raises(BadRequest, match="a container name must be specified"):
                async for _ in apods.stream_lines("two", "log", follow=True):
                    pass
            return [line async for line in apods.stream_lines("two", "log", container="b", follow=True)]

    assert asyncio.run(scenario()) == []
