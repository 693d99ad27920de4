"""``Clientset(config, rest=...)``: the typed clients go through the REST client given (client-go's
``NewForConfigAndClient``), so its metrics, limiter and transport are what they use; without one,
each Clientset makes its own from the config. Both flavours."""

from __future__ import annotations

import asyncio

import httpx

from kgen.kubernetes import AsyncClientset, Clientset
from kgen.runtime.controller.metrics import Registry, rest_client_metrics
from kgen.runtime.rest import AsyncRESTClient, Config, RESTClient

CONFIG_MAP = {"kind": "ConfigMap", "apiVersion": "v1", "metadata": {"name": "x", "namespace": "d"}, "data": {"a": "b"}}


def _answer(request: httpx.Request) -> httpx.Response:
    assert request.url.path == "/api/v1/namespaces/d/configmaps/x"
    return httpx.Response(200, json=CONFIG_MAP)


def _requests_counted(registry: Registry) -> list[str]:
    return [line for line in registry.render().splitlines() if line.startswith("rest_client_requests_total{")]


def test_the_typed_clients_go_through_the_rest_client_given() -> None:
    config = Config(host="https://127.0.0.1:6443")
    registry = Registry()
    rest = RESTClient(config, transport=httpx.MockTransport(_answer), metrics=rest_client_metrics(registry))
    with Clientset(config, rest=rest) as clientset:
        assert clientset.rest is rest
        assert clientset.core_v1.config_maps("d").get("x").data == {"a": "b"}
    assert _requests_counted(registry) == ['rest_client_requests_total{code="200",method="GET",host="127.0.0.1:6443"} 1']
    assert Clientset(config).rest is not Clientset(config).rest  # without one: each its own


def test_the_async_clientset_takes_one_too() -> None:
    config = Config(host="https://127.0.0.1:6443")
    registry = Registry()

    async def main() -> dict[str, str] | None:
        rest = AsyncRESTClient(config, transport=httpx.MockTransport(_answer), metrics=rest_client_metrics(registry))
        async with AsyncClientset(config, rest=rest) as clientset:
            assert clientset.rest is rest
            return (await clientset.core_v1.config_maps("d").get("x")).data

    assert asyncio.run(main()) == {"a": "b"}
    assert len(_requests_counted(registry)) == 1
