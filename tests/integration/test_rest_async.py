"""The asyncio flavour of the REST runtime against the real apiserver: the same verbs, awaited."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import TypeAlias, TypeVar

import pytest

from kgen.kubernetes.models.core.v1 import ConfigMap, ConfigMapList
from kgen.kubernetes.models.meta.v1 import ObjectMeta
from kgen.runtime.apimachinery.codec import ModelCodec
from kgen.runtime.rest import Config, load_kubeconfig
from kgen.runtime.apimachinery.errors import AlreadyExists, Conflict, NotFound, TooManyRequests
from kgen.runtime.gentype import AsyncResourceClient, PatchType, ResourceInfo
from kgen.runtime.rest.client import AsyncRESTClient
from kgen.runtime.apimachinery.selectors import labels
from kgen.runtime.testing import KubeAPIServer
from tests.support.faultproxy import FaultProxy, Scripted

CONFIGMAPS = ResourceInfo("", "v1", "configmaps", True, "ConfigMap")
T = TypeVar("T")
ConfigMaps: TypeAlias = AsyncResourceClient[ConfigMap, ConfigMapList]


@pytest.fixture(scope="module")
def config(kube_apiserver: KubeAPIServer) -> Config:
    cfg = load_kubeconfig(kube_apiserver.kubeconfig)
    cfg.qps = -1
    return cfg


def run(config: Config, namespace: str, scenario: Callable[[ConfigMaps], Awaitable[T]]) -> T:
    """Runs ``scenario`` with async configmaps in ``namespace`` on a fresh event loop."""

    async def main() -> T:
        async with AsyncRESTClient(config) as rest:
            return await scenario(AsyncResourceClient(rest, CONFIGMAPS, namespace, ModelCodec(ConfigMap, ConfigMapList)))

    return asyncio.run(main())


def _names(lst: ConfigMapList) -> list[str]:
    return sorted(c.metadata.name for c in lst.items or [] if c.metadata and c.metadata.name)


def test_async_create_get_update_delete(config: Config, namespace: str) -> None:
    async def scenario(cms: ConfigMaps) -> None:
        created = await cms.create(ConfigMap(metadata=ObjectMeta(name="a"), data={"k": "v"}))
        assert created.metadata and created.metadata.uid and created.kind == "ConfigMap"
        with pytest.raises(AlreadyExists):
            await cms.create(ConfigMap(metadata=ObjectMeta(name="a")))
        got = await cms.get("a")
        assert got.data == {"k": "v"}
        got.data = {"k": "v2"}
        assert (await cms.update(got)).data == {"k": "v2"}
        got.data = {"k": "stale"}
        with pytest.raises(Conflict):
            await cms.update(got)  # got's resourceVersion is now old
        assert await cms.delete("a") is None
        with pytest.raises(NotFound):
            await cms.get("a")

    run(config, namespace, scenario)


def test_async_patch_types(config: Config, namespace: str) -> None:
    async def scenario(cms: ConfigMaps) -> None:
        await cms.create(ConfigMap(metadata=ObjectMeta(name="p"), data={"a": "1"}))
        merged = await cms.patch("p", {"data": {"b": "2"}})
        assert merged.data == {"a": "1", "b": "2"}
        strategic = await cms.patch("p", {"data": {"a": None}}, PatchType.STRATEGIC)
        assert strategic.data == {"b": "2"}
        json_patched = await cms.patch("p", [{"op": "replace", "path": "/data/b", "value": "3"}], PatchType.JSON)
        assert json_patched.data == {"b": "3"}

    run(config, namespace, scenario)


def test_async_server_side_apply_owns_fields_per_manager(config: Config, namespace: str) -> None:
    async def scenario(cms: ConfigMaps) -> None:
        body = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "ssa"}, "data": {"x": "first"}}
        assert (await cms.apply(body, field_manager="first")).data == {"x": "first"}
        with pytest.raises(Conflict):
            await cms.apply({**body, "data": {"x": "second"}}, field_manager="second")
        forced = await cms.apply({**body, "data": {"x": "second"}}, field_manager="second", force=True)
        assert forced.data == {"x": "second"}
        assert "second" in {m.manager for m in (forced.metadata.managed_fields if forced.metadata else None) or []}

    run(config, namespace, scenario)


def test_async_list_with_selectors_and_delete_collection(config: Config, namespace: str) -> None:
    async def scenario(cms: ConfigMaps) -> None:
        for i in range(4):
            await cms.create(ConfigMap(metadata=ObjectMeta(name=f"s{i}", labels={"even": str(i % 2 == 0).lower()})))
        assert _names(await cms.list(label_selector=labels(even="true"))) == ["s0", "s2"]
        assert _names(await cms.list(field_selector="metadata.name=s3")) == ["s3"]
        await cms.delete_collection(label_selector=labels(even="true"))
        assert _names(await cms.list()) == ["s1", "s3"]

    run(config, namespace, scenario)


def test_async_list_all_follows_continue_tokens(config: Config, namespace: str) -> None:
    async def scenario(cms: ConfigMaps) -> tuple[ConfigMapList, ConfigMapList, list[str]]:
        await asyncio.gather(*(cms.create(ConfigMap(metadata=ObjectMeta(name=f"pg{i}"))) for i in range(7)))
        first = await cms.list(limit=3)
        everything = await cms.list_all(page_size=3)
        iterated = [c.metadata.name async for c in cms.iter(page_size=2) if c.metadata and c.metadata.name]
        return first, everything, iterated

    first, everything, iterated = run(config, namespace, scenario)
    assert len(first.items or []) == 3 and first.metadata and first.metadata.continue_
    assert _names(everything) == [f"pg{i}" for i in range(7)]
    assert everything.metadata is not None and not everything.metadata.continue_
    assert sorted(iterated) == [f"pg{i}" for i in range(7)]


def test_async_429_with_retry_after_is_retried(kube_apiserver: KubeAPIServer, namespace: str) -> None:
    with FaultProxy(kube_apiserver) as proxy:
        proxy.script.extend([Scripted(429), Scripted(429), Scripted(503)])

        async def scenario(cms: ConfigMaps) -> ConfigMap:
            return await cms.create(ConfigMap(metadata=ObjectMeta(name="retried")))

        created = run(proxy.config(), namespace, scenario)
        assert created.metadata and created.metadata.name == "retried"
        assert proxy.faults == {"scripted 429": 2, "scripted 503": 1}
        assert len(proxy.requests) == 4


def test_async_429_retries_stop_after_ten(kube_apiserver: KubeAPIServer, namespace: str) -> None:
    with FaultProxy(kube_apiserver) as proxy:
        proxy.script.extend([Scripted(429)] * 11)

        async def scenario(cms: ConfigMaps) -> None:
            with pytest.raises(TooManyRequests) as e:
                await cms.list()
            assert e.value.code == 429 and e.value.message == "injected fault"

        run(proxy.config(), namespace, scenario)
        assert len(proxy.requests) == 11
