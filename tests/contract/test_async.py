"""The asyncio clientset against both sides: the same verbs, awaited."""

from __future__ import annotations

import asyncio

import pytest

from kgen.runtime.apimachinery.errors import AlreadyExists, NotFound
from kgen.runtime.gentype import PatchType

from .builders import config_map
from .conftest import Backend


def test_async_round_trip(backend: Backend, ns: str) -> None:
    async def main() -> None:
        acs = backend.async_clientset()
        try:
            cms = acs.core_v1.config_maps(ns)
            start = (await cms.list()).metadata.resource_version
            created = await cms.create(config_map("a", data={"k": "v"}, labels={"async": "yes"}))
            with pytest.raises(AlreadyExists):
                await cms.create(config_map("a"))
            assert await cms.get("a") == created
            patched = await cms.patch("a", {"data": {"k": "w"}}, PatchType.MERGE)
            assert patched.data == {"k": "w"}
            applied = await cms.apply(config_map("b", data={"x": "1"}), field_manager="async")
            assert applied.data == {"x": "1"}
            listed = await cms.list(label_selector="async=yes")
            assert [i.metadata.name for i in listed.items if i.metadata] == ["a"]
            assert await cms.delete("a") is None
            with pytest.raises(NotFound):
                await cms.get("a")
            events = [
                (e.type, e.object.metadata.name if e.object.metadata else None)
                async for e in cms.watch(resource_version=start, timeout_seconds=1)
            ]
            assert events == [("ADDED", "a"), ("MODIFIED", "a"), ("ADDED", "b"), ("DELETED", "a")]
        finally:
            await acs.close()

    asyncio.run(main())
