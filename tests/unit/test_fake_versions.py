"""The fake's multi-version custom resources, as users' generated fake clientsets hold them.

What the apiserver does is compared in tests/integration/test_fake_vs_server_multiversion.py;
here, the fake's own ways in: a generated ``FakeClientset`` registers every version of a CRD, and
its typed clients (sync and async) of each version see one storage; ``ObjectTracker.add`` of an
object in a version that is not the storage version stores it in the storage version; versions
registered without their storage version, or without a generated package, keep a storage each.
"""

from __future__ import annotations

import asyncio
import importlib
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from kgen.runtime.fake import ObjectTracker
from kgen.runtime.gentype.resource import ResourceInfo

from .helpers import ModuleLoader, generate, imported, write_yaml

GROUP = "versions.example.com"


def _version(name: str, storage: bool, props: dict[str, Any]) -> dict[str, Any]:
    return {"name": name, "served": True, "storage": storage, "schema": {"openAPIV3Schema": {
        "type": "object", "properties": {"spec": {"type": "object", "properties": props}}}}}


CRD = {
    "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition", "metadata": {"name": f"things.{GROUP}"},
    "spec": {"group": GROUP, "scope": "Namespaced", "names": {"kind": "Thing", "plural": "things"},
             "conversion": {"strategy": "None"}, "versions": [
                 _version("v1", True, {"a": {"type": "string"}, "x": {"type": "string", "default": "v1x"},
                                       "only1": {"type": "string"}}),
                 _version("v2", False, {"a": {"type": "string"}, "b": {"type": "string", "default": "v2b"},
                                        "x": {"type": "string"}}),
             ]},
}


@pytest.fixture(scope="module")
def package(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleLoader]:
    folder = tmp_path_factory.mktemp("versions")
    gen = generate(folder / "out", "--crd", str(write_yaml(folder / "crd.yaml", CRD)))
    with imported(gen) as loader:
        yield loader


def _fake(package: ModuleLoader, name: str = "FakeClientset", **kwargs: Any) -> Any:
    return getattr(importlib.import_module(f"{package.gen.name}.fake"), name)(**kwargs)


def _thing(package: ModuleLoader, version: str, name: str, spec: dict[str, Any]) -> Any:
    group_module = GROUP.replace(".", "_")
    return package.models(group_module, version).Thing.from_dict(
        {"apiVersion": f"{GROUP}/{version}", "kind": "Thing", "metadata": {"name": name}, "spec": spec})


def test_typed_clients_of_each_version_share_one_storage(package: ModuleLoader) -> None:
    fake = _fake(package)
    v1 = getattr(fake, f"{GROUP.replace('.', '_')}_v1").things("default")
    v2 = getattr(fake, f"{GROUP.replace('.', '_')}_v2").things("default")
    created = v1.create(_thing(package, "v1", "t", {"only1": "o"}))
    assert created.to_dict()["spec"] == {"only1": "o", "x": "v1x"}
    read = v2.get("t")
    assert type(read).__module__.endswith(".v2") and read.to_dict()["spec"] == {"x": "v1x"}
    assert read.metadata.resource_version == created.metadata.resource_version
    written = v2.create(_thing(package, "v2", "u", {"a": "a"}))
    assert written.to_dict()["spec"] == {"a": "a", "x": "v1x"}  # v2's b pruned by v1 in storage, v1's x defaulted
    assert [t.metadata.name for t in v1.list().items] == ["t", "u"]
    patched = v2.patch("t", {"spec": {"a": "z"}})
    assert v1.get("t").to_dict()["spec"] == {"a": "z", "x": "v1x"}  # only1 lost through v2
    assert int(patched.metadata.generation) == 2
    v2.delete("u")
    assert [t.metadata.name for t in v1.list().items] == ["t"]


def test_the_async_clients_too(package: ModuleLoader) -> None:
    async def main() -> tuple[Any, Any]:
        fake = _fake(package, "AsyncFakeClientset")
        v1 = getattr(fake, f"{GROUP.replace('.', '_')}_v1").things("default")
        v2 = getattr(fake, f"{GROUP.replace('.', '_')}_v2").things("default")
        await v2.create(_thing(package, "v2", "t", {"a": "a"}))
        return await v1.get("t"), (await v2.list()).items

    stored, items = asyncio.run(main())
    assert stored.to_dict()["apiVersion"] == f"{GROUP}/v1" and stored.to_dict()["spec"] == {"a": "a", "x": "v1x"}
    assert [t.to_dict()["spec"] for t in items] == [{"a": "a", "x": "v1x"}]


def test_add_stores_in_the_storage_version(package: ModuleLoader) -> None:
    fake = _fake(package)
    added = fake.tracker.add({"apiVersion": f"{GROUP}/v2", "kind": "Thing", "metadata": {"name": "t"}, "spec": {"a": "a"}})
    assert added["apiVersion"] == f"{GROUP}/v2" and added["spec"] == {"a": "a", "x": "v1x"}
    stored = getattr(fake, f"{GROUP.replace('.', '_')}_v1").things("default").get("t")
    assert stored.to_dict()["spec"] == {"a": "a", "x": "v1x"}


def _get(tracker: ObjectTracker, group: str, version: str) -> Any:
    with httpx.Client(base_url="https://fake.invalid", transport=tracker.transport()) as client:
        return client.get(f"/apis/{group}/{version}/namespaces/default/things/t").json()


@pytest.mark.parametrize("versions", [("v2",), ("v1", "v2")], ids=["without-the-storage-version", "without-a-package"])
def test_versions_without_their_storage_keep_their_own(package: ModuleLoader, versions: tuple[str, ...]) -> None:
    """Only v2 registered (its storage version v1 is not): v2 keeps its objects. Another group's
    versions without a generated package: nothing says which is stored, so each keeps its own."""
    group = GROUP if versions == ("v2",) else "unknown.example.com"
    tracker = ObjectTracker([ResourceInfo(group, v, "things", True, "Thing") for v in versions])
    for version in versions:
        tracker.add({"apiVersion": f"{group}/{version}", "kind": "Thing", "metadata": {"name": "t"}, "spec": {"a": version}})
    assert [_get(tracker, group, version)["spec"] for version in versions] == [{"a": version} for version in versions]


def test_a_version_already_holding_objects(package: ModuleLoader) -> None:
    """A version holding objects of its own when its storage version is registered keeps them
    apart (they were never stored in the storage version): no object is lost or replaced."""
    tracker = ObjectTracker([ResourceInfo(GROUP, "v2", "things", True, "Thing")])
    tracker.add({"apiVersion": f"{GROUP}/v2", "kind": "Thing", "metadata": {"name": "t"}, "spec": {"a": "mine"}})
    tracker.register(ResourceInfo(GROUP, "v1", "things", True, "Thing"))
    tracker.add({"apiVersion": f"{GROUP}/v1", "kind": "Thing", "metadata": {"name": "t"}, "spec": {"a": "stored"}})
    assert _get(tracker, GROUP, "v2")["spec"] == {"a": "mine"}
    assert _get(tracker, GROUP, "v1")["spec"] == {"a": "stored"}
