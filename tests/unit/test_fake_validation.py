"""The fake validates every write as the apiserver does (issue 15): the same invalid custom
resources sent to the fake and to the real apiserver (create, update, merge patch, apply,
status update) raise the same exception with the same code, reason, details and causes.

The CRD and its invalid objects are test_client_validate_option's (pattern, maxLength, bounds,
enum, a CEL rule, a status subresource).
"""

from __future__ import annotations

import copy
import importlib
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from kgen.runtime.apimachinery.errors import ApiError, Invalid
from kgen.runtime.gentype.resource import PatchType
from kgen.runtime.rest import load_kubeconfig
from kgen.runtime.testing import KubeAPIServer
from tests.support.apiserver import install_crd, wait_for

from .helpers import ModuleLoader, crd, generate, imported, write_yaml
from .test_client_validate_option import GROUP, INVALID, VALID, _same, validated_package

Write = Callable[[Any, str], Any]  # (typed client, object name) -> the write's answer


@pytest.fixture(scope="module")
def package(tmp_path_factory: pytest.TempPathFactory, admin: httpx.Client) -> Iterator[ModuleLoader]:
    yield from validated_package(tmp_path_factory, admin)


@pytest.fixture
def clients(package: ModuleLoader, kube_apiserver: KubeAPIServer, namespace: str) -> Iterator[tuple[Any, Any]]:
    """The typed client of the CRD on the real apiserver and on the fake, in ``namespace``."""
    real = importlib.import_module(package.gen.name).Clientset(load_kubeconfig(kube_apiserver.kubeconfig))
    fake = importlib.import_module(f"{package.gen.name}.fake").FakeClientset()
    yield real.validates_example_io_v1.validateds(namespace), fake.validates_example_io_v1.validateds(namespace)
    real.close()
    fake.close()


def _obj(package: ModuleLoader, spec: dict[str, Any], namespace: str, name: str) -> Any:
    cls = package.models("validates_example_io", "v1").Validated
    return cls.from_dict({"apiVersion": f"{GROUP}/v1", "kind": "Validated",
                          "metadata": {"name": name, "namespace": namespace}, "spec": spec})


def _both(clients: tuple[Any, Any], write: Write, name: str) -> None:
    """``write`` refused by both backends with the same exception."""
    answers: list[ApiError] = []
    for client in clients:
        with pytest.raises(ApiError) as refused:
            write(client, name)
        answers.append(refused.value)
    real, fake = answers
    _same(fake, real)


@pytest.mark.parametrize("field_validation", ["Strict", None])
@pytest.mark.parametrize("case", sorted(INVALID))
def test_an_invalid_create_gets_the_servers_refusal(
    case: str, field_validation: str | None, package: ModuleLoader, namespace: str, clients: tuple[Any, Any],
) -> None:
    def create(client: Any, name: str) -> Any:
        return client.create(_obj(package, INVALID[case], namespace, name), field_validation=field_validation)

    _both(clients, create, f"c-{uuid.uuid4().hex[:8]}")


@pytest.mark.parametrize("case", sorted(INVALID))
def test_invalid_updates_patches_and_applies_get_the_servers_refusal(
    case: str, package: ModuleLoader, namespace: str, clients: tuple[Any, Any],
) -> None:
    name = f"u-{uuid.uuid4().hex[:8]}"
    for client in clients:
        client.create(_obj(package, VALID, namespace, name))

    def update(client: Any, name: str) -> Any:
        live = client.get(name)
        return client.update(type(live).from_dict({**live.to_dict(), "spec": INVALID[case]}))

    def merge_patch(client: Any, name: str) -> Any:
        spec = {**{k: None for k in VALID}, **INVALID[case]}
        return client.patch(name, {"spec": spec}, PatchType.MERGE)

    def apply(client: Any, name: str) -> Any:
        body = {"apiVersion": f"{GROUP}/v1", "kind": "Validated",
                "metadata": {"name": name, "namespace": namespace}, "spec": INVALID[case]}
        return client.apply(body, field_manager="t", force=True)

    for write in (update, merge_patch, apply):
        _both(clients, write, name)


def test_an_invalid_status_update_gets_the_servers_refusal(package: ModuleLoader, namespace: str, clients: tuple[Any, Any]) -> None:
    name = f"s-{uuid.uuid4().hex[:8]}"
    for client in clients:
        client.create(_obj(package, VALID, namespace, name))

    def update_status(client: Any, name: str) -> Any:
        live = client.get(name)
        return client.update_status(type(live).from_dict({**live.to_dict(), "status": {"phase": "Running"}}))

    _both(clients, update_status, name)
    for client in clients:  # a valid one passes on both
        live = client.get(name)
        assert client.update_status(type(live).from_dict({**live.to_dict(), "status": {"phase": "Ready"}})).status.phase == "Ready"


def test_valid_writes_pass_on_both(package: ModuleLoader, namespace: str, clients: tuple[Any, Any]) -> None:
    name = f"v-{uuid.uuid4().hex[:8]}"
    for client in clients:
        created = client.create(_obj(package, VALID, namespace, name))
        patched = client.patch(name, {"spec": {"size": 3, "mode": "small"}}, PatchType.MERGE)
        assert (created.spec.size, patched.spec.size) == (7, 3)


def test_an_object_seeded_invalid_can_still_be_updated_elsewhere(package: ModuleLoader, namespace: str) -> None:
    """Ratcheting (CRDValidationRatcheting): errors at values an update leaves as stored are not
    reported, so a test's invalid seed does not block every later write."""
    fake = importlib.import_module(f"{package.gen.name}.fake").FakeClientset(
        _obj(package, INVALID["pattern"], namespace, "seeded"))
    client = fake.validates_example_io_v1.validateds(namespace)
    labelled = client.patch("seeded", {"metadata": {"labels": {"a": "b"}}}, PatchType.MERGE)
    assert labelled.metadata.labels == {"a": "b"} and labelled.spec.name == "ABC"
    with pytest.raises(Invalid) as refused:
        client.patch("seeded", {"spec": {"size": 0}}, PatchType.MERGE)
    assert [c.field for c in refused.value.causes] == ["spec.size"]
    fake.close()


def test_ratcheting_matches_the_server(tmp_path: Path, admin: httpx.Client, kube_apiserver: KubeAPIServer, namespace: str) -> None:
    """The oracle for the fake's ratcheting: an object stored before its CRD gained a pattern can
    still be patched elsewhere on the real apiserver (CRDValidationRatcheting), not at the field
    the pattern now refuses; the fake, seeded with the same object, answers the same."""
    loose: dict[str, Any] = {"type": "object", "properties": {"spec": {"type": "object", "properties": {
        "name": {"type": "string"}, "n": {"type": "integer"}}}}}
    strict = copy.deepcopy(loose)
    strict["properties"]["spec"]["properties"]["name"]["pattern"] = "^[a-z]+$"
    plural = f"r{uuid.uuid4().hex[:8]}"
    manifest = crd(loose, kind="Ratchet", plural=plural, group=GROUP)
    install_crd(admin, manifest)
    resource = f"/apis/{GROUP}/v1/namespaces/{namespace}/{plural}"
    seed = {"apiVersion": f"{GROUP}/v1", "kind": "Ratchet", "metadata": {"name": "old", "namespace": namespace},
            "spec": {"name": "ABC", "n": 1}}
    assert admin.post(resource, json=seed).status_code == 201
    crd_path = f"/apis/apiextensions.k8s.io/v1/customresourcedefinitions/{plural}.{GROUP}"
    live_crd = admin.get(crd_path).json()
    live_crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"] = strict
    assert admin.put(crd_path, json=live_crd).status_code == 200
    probe = {**seed, "metadata": {"name": "probe", "namespace": namespace}}
    wait_for(lambda: admin.post(resource, json=probe, params={"dryRun": "All"}).status_code == 422)

    gen = generate(tmp_path / "out", "--crd", str(write_yaml(tmp_path / "crd.yaml", crd(strict, kind="Ratchet", plural=plural, group=GROUP))))
    with imported(gen):
        real = importlib.import_module(gen.name).Clientset(load_kubeconfig(kube_apiserver.kubeconfig))
        fake = importlib.import_module(f"{gen.name}.fake").FakeClientset(seed)
        clients = [getattr(cs.validates_example_io_v1, plural)(namespace) for cs in (real, fake)]
        try:
            for client in clients:  # the stored invalid name is left alone: accepted
                assert client.patch("old", {"spec": {"n": 2}}, PatchType.MERGE).spec.n == 2
            _both((clients[0], clients[1]), lambda client, name: client.patch(name, {"spec": {"name": "DEF"}}, PatchType.MERGE), "old")
        finally:
            real.close()
            fake.close()


def test_transition_rules_match_the_server(tmp_path: Path, admin: httpx.Client, kube_apiserver: KubeAPIServer, namespace: str) -> None:
    """Transition rules (``oldSelf``) on the fake as on the real apiserver: an immutable field and a
    list-map item's counter that may only grow, checked against the stored object on a patch and
    an update; a create, which has no old object, runs none of them."""
    schema: dict[str, Any] = {"type": "object", "properties": {"spec": {"type": "object", "properties": {
        "name": {"type": "string", "x-kubernetes-validations": [{"rule": "self == oldSelf", "message": "immutable"}]},
        "items": {"type": "array", "maxItems": 8, "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["k"],
                  "items": {"type": "object", "required": ["k"], "properties": {
                      "k": {"type": "string", "maxLength": 8}, "n": {"type": "integer"}},
                      "x-kubernetes-validations": [{"rule": "self.n >= oldSelf.n", "message": "n may only grow"}]}}}}}}
    plural = f"t{uuid.uuid4().hex[:8]}"
    manifest = crd(schema, kind="Transition", plural=plural, group=GROUP)
    install_crd(admin, manifest)
    seed = {"apiVersion": f"{GROUP}/v1", "kind": "Transition", "metadata": {"name": "t", "namespace": namespace},
            "spec": {"name": "a", "items": [{"k": "x", "n": 2}, {"k": "y", "n": 5}]}}
    gen = generate(tmp_path / "out", "--crd", str(write_yaml(tmp_path / "crd.yaml", manifest)))
    with imported(gen):
        real = importlib.import_module(gen.name).Clientset(load_kubeconfig(kube_apiserver.kubeconfig))
        fake = importlib.import_module(f"{gen.name}.fake").FakeClientset()
        model = importlib.import_module(f"{gen.name}.models.validates_example_io.v1").Transition
        clients = [getattr(cs.validates_example_io_v1, plural)(namespace) for cs in (real, fake)]
        try:
            for client in clients:
                assert client.create(model.from_dict(seed)).spec.name == "a"
                moved = client.patch("t", {"spec": {"items": [{"k": "y", "n": 6}, {"k": "x", "n": 2}, {"k": "z", "n": 0}]}},
                                     PatchType.MERGE)  # reordered, one grown, one new: accepted
                assert [i.n for i in moved.spec.items] == [6, 2, 0]
            _both((clients[0], clients[1]), lambda client, name: client.patch(
                name, {"spec": {"name": "b", "items": [{"k": "y", "n": 1}]}}, PatchType.MERGE), "t")

            def update(client: Any, name: str) -> Any:
                current = client.get(name)
                current.spec.name = "c"
                return client.update(current)

            _both((clients[0], clients[1]), update, "t")
        finally:
            real.close()
            fake.close()
