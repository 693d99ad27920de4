"""``validate=True`` on the typed clients (issue 15): create/update/apply refuse locally, with the
exception the apiserver's answer would raise, and send nothing.

The oracle is the real apiserver: the same invalid custom resource (a CRD with a pattern, bounds,
an enum and a CEL rule, generated with ``kgen generate --crd``) is sent once without ``validate``
and refused by the server, once with it and refused by the client; both exceptions must be the
same type with the same code, reason, details and causes (and, for one error, the same text).
"""

from __future__ import annotations

import asyncio
import importlib
import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import msgspec
import pytest

from kgen.runtime.apimachinery.errors import ApiError, BadRequest, Invalid
from kgen.runtime.rest import load_kubeconfig
from kgen.runtime.testing import KubeAPIServer
from tests.support.apiserver import install_crd

from .helpers import ModuleLoader, crd, generate, imported, write_yaml

GROUP = "validates.example.io"
SCHEMA: dict[str, Any] = {"type": "object", "properties": {"spec": {
    "type": "object", "required": ["name"],
    "properties": {
        "name": {"type": "string", "pattern": "^[a-z]+$", "maxLength": 10},
        "size": {"type": "integer", "minimum": 1, "maximum": 10},
        "mode": {"type": "string", "enum": ["small", "big"]},
    },
    "x-kubernetes-validations": [{"rule": "self.size <= 5 || self.mode == 'big'", "message": "a size over 5 must be big"}],
}, "status": {"type": "object", "properties": {"phase": {"type": "string", "enum": ["Ready", "Failed"]}}}}}

#: Objects' specs the apiserver refuses under Strict, each for its own reasons.
INVALID: dict[str, dict[str, Any]] = {
    "pattern": {"name": "ABC", "size": 1},
    "cel": {"name": "abc", "size": 7, "mode": "small"},
    "pattern-bounds-and-cel": {"name": "ABC", "size": 11, "mode": "small"},
    "enum": {"name": "abc", "mode": "huge"},
    "too-long": {"name": "abcdefghijkl"},
}
VALID = {"name": "abc", "size": 7, "mode": "big"}


def validated_package(tmp_path_factory: pytest.TempPathFactory, admin: httpx.Client) -> Iterator[ModuleLoader]:
    """The Validated CRD installed on the real apiserver, and its generated package imported
    (a module-scoped fixture of this module and of test_fake_validation)."""
    tmp = tmp_path_factory.mktemp("validated")
    manifest = crd(SCHEMA, kind="Validated", plural="validateds", group=GROUP)
    manifest["spec"]["versions"][0]["subresources"] = {"status": {}}
    gen = generate(tmp / "out", "--crd", str(write_yaml(tmp / "crd.yaml", manifest)))
    if admin.get(f"/apis/apiextensions.k8s.io/v1/customresourcedefinitions/validateds.{GROUP}").status_code == 404:
        install_crd(admin, manifest)
    with imported(gen) as loader:
        yield loader


@pytest.fixture(scope="module")
def package(tmp_path_factory: pytest.TempPathFactory, admin: httpx.Client) -> Iterator[ModuleLoader]:
    yield from validated_package(tmp_path_factory, admin)


def _model(package: ModuleLoader, spec: dict[str, Any], namespace: str, name: str = "") -> Any:
    cls = package.models("validates_example_io", "v1").Validated
    obj = {"apiVersion": f"{GROUP}/v1", "kind": "Validated",
           "metadata": {"name": name or f"v-{uuid.uuid4().hex[:8]}", "namespace": namespace}, "spec": spec}
    return cls.from_json(msgspec.json.encode(obj))


def _same(local: ApiError, remote: ApiError) -> None:
    """The client's refusal reads as the server's: type, code, reason, details, causes; the
    message too, up to the order of several errors (the apiserver's varies)."""
    assert type(local) is type(remote)
    assert (local.code, local.reason, local.request) == (remote.code, remote.reason, remote.request)
    assert sorted(local.causes, key=repr) == sorted(remote.causes, key=repr)
    assert {k: v for k, v in local.details.items() if k != "causes"} == {
        k: v for k, v in remote.details.items() if k != "causes"}
    if len(local.causes) <= 1:
        assert str(local) == str(remote)
    else:
        head, _, listed = local.message.partition(": [")
        remote_head, _, remote_listed = remote.message.partition(": [")
        assert head == remote_head
        assert sorted(listed.rstrip("]").split(", ")) == sorted(remote_listed.rstrip("]").split(", "))


class _Counting:
    def __init__(self) -> None:
        self.sent: list[str] = []


@pytest.fixture
def sync_client(package: ModuleLoader, kube_apiserver: KubeAPIServer, namespace: str,
                monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Any, _Counting]]:
    cs = importlib.import_module(package.gen.name).Clientset(load_kubeconfig(kube_apiserver.kubeconfig))
    # The REST client's first typed call reads /version once (kgen.runtime.gentype.skew): made
    # before counting, so that what is counted is what each call sends of its own.
    cs.validates_example_io_v1.validateds(namespace).list()
    counting = _Counting()
    send = cs.rest.send

    def counted(req: Any, *args: Any, **kwargs: Any) -> Any:
        counting.sent.append(req.describe())
        return send(req, *args, **kwargs)

    monkeypatch.setattr(cs.rest, "send", counted)
    yield cs.validates_example_io_v1.validateds(namespace), counting
    cs.close()


@pytest.mark.parametrize("case", sorted(INVALID))
def test_create_with_validate_raises_the_servers_exception_and_sends_nothing(
    case: str, package: ModuleLoader, namespace: str, sync_client: tuple[Any, _Counting],
) -> None:
    client, counting = sync_client
    obj = _model(package, INVALID[case], namespace)
    with pytest.raises(ApiError) as local:
        client.create(obj, validate=True)
    assert counting.sent == []
    assert isinstance(local.value, Invalid) and local.value.code == 422
    with pytest.raises(ApiError) as remote:
        client.create(obj, field_validation="Strict")
    assert len(counting.sent) == 1
    _same(local.value, remote.value)


def test_update_and_update_status_validate_too(package: ModuleLoader, namespace: str, sync_client: tuple[Any, _Counting]) -> None:
    client, counting = sync_client
    created = client.create(_model(package, VALID, namespace), validate=True)
    assert len(counting.sent) == 1  # a valid object is sent
    bad = msgspec.structs.replace(created, spec=_model(package, INVALID["cel"], namespace).spec)
    with pytest.raises(Invalid) as local:
        client.update(bad, validate=True)
    assert len(counting.sent) == 1
    with pytest.raises(Invalid) as remote:
        client.update(bad, field_validation="Strict")
    _same(local.value, remote.value)
    assert len(counting.sent) == 2
    # a status write keeps the stored spec: only the status is judged, by the server as here
    kept = client.update_status(bad, validate=True)
    assert kept.spec.mode == "big" and len(counting.sent) == 3
    body = {**kept.to_dict(), "status": {"phase": "Running"}}
    bad_status = type(kept).from_dict(body)
    with pytest.raises(Invalid) as local:
        client.update_status(bad_status, validate=True)
    assert len(counting.sent) == 3
    with pytest.raises(Invalid) as remote:
        client.update_status(bad_status, field_validation="Strict")
    _same(local.value, remote.value)


def test_strict_unknown_fields_are_the_servers_400(package: ModuleLoader, namespace: str, sync_client: tuple[Any, _Counting]) -> None:
    client, counting = sync_client
    body = {"apiVersion": f"{GROUP}/v1", "kind": "Validated",
            "metadata": {"name": "unknown", "namespace": namespace}, "spec": {"name": "abc", "bogus": 1}}
    obj = package.models("validates_example_io", "v1").Validated.from_dict(body)
    assert obj.to_dict()["spec"]["bogus"] == 1  # models keep unknown fields, so a typed client sends it
    with pytest.raises(BadRequest) as local:
        client.create(obj, validate=True)
    with pytest.raises(BadRequest) as remote:
        client.create(obj, field_validation="Strict")
    _same(local.value, remote.value)
    assert counting.sent == ["POST " + local.value.request.split(" ", 1)[1]]


def test_field_validation_is_the_requests_and_warn_lets_valid_objects_through(
    package: ModuleLoader, namespace: str, sync_client: tuple[Any, _Counting],
) -> None:
    client, counting = sync_client
    created = client.create(_model(package, VALID, namespace), validate=True, field_validation="Warn", dry_run=True)
    assert created.spec.name == "abc" and len(counting.sent) == 1
    with pytest.raises(Invalid):
        client.create(_model(package, INVALID["pattern"], namespace), validate=True, field_validation="Ignore")
    assert len(counting.sent) == 1


def test_validate_false_sends_the_invalid_object(package: ModuleLoader, namespace: str, sync_client: tuple[Any, _Counting]) -> None:
    client, counting = sync_client
    with pytest.raises(Invalid):
        client.create(_model(package, INVALID["pattern"], namespace))
    assert len(counting.sent) == 1


def test_apply_of_a_partial_configuration_checks_only_the_values_it_sets(
    package: ModuleLoader, namespace: str, sync_client: tuple[Any, _Counting],
) -> None:
    """The server validates the merged object: a configuration without the required ``name`` is
    not refused locally (the live object may have it), one with a bad pattern is, as the server does."""
    client, counting = sync_client
    name = f"a-{uuid.uuid4().hex[:8]}"
    client.create(_model(package, VALID, namespace, name))
    meta = {"name": name, "namespace": namespace}
    base = {"apiVersion": f"{GROUP}/v1", "kind": "Validated", "metadata": meta}
    applied = client.apply({**base, "spec": {"size": 3}}, field_manager="t", force=True, validate=True)
    assert applied.spec.name == "abc" and len(counting.sent) == 2
    bad = {**base, "spec": {"name": "ABC"}}
    with pytest.raises(Invalid) as local:
        client.apply(bad, field_manager="t", force=True, validate=True)
    assert len(counting.sent) == 2
    with pytest.raises(Invalid) as remote:
        client.apply(bad, field_manager="t", force=True)
    _same(local.value, remote.value)


def test_async_create_with_validate_matches_the_server(package: ModuleLoader, kube_apiserver: KubeAPIServer, namespace: str) -> None:
    async def run() -> None:
        cs = importlib.import_module(package.gen.name).AsyncClientset(load_kubeconfig(kube_apiserver.kubeconfig))
        sent: list[str] = []
        send = cs.rest.send

        async def counted(req: Any, *args: Any, **kwargs: Any) -> Any:
            sent.append(req.describe())
            return await send(req, *args, **kwargs)

        cs.rest.send = counted
        client = cs.validates_example_io_v1.validateds(namespace)
        try:
            for case in sorted(INVALID):
                obj = _model(package, INVALID[case], namespace)
                with pytest.raises(ApiError) as local:
                    await client.create(obj, validate=True)
                assert sent == []
                with pytest.raises(ApiError) as remote:
                    await client.create(obj, field_validation="Strict")
                sent.clear()
                _same(local.value, remote.value)
            created = await client.create(_model(package, VALID, namespace), validate=True)
            assert created.spec.size == 7 and len(sent) == 1
            with pytest.raises(Invalid):
                await client.update(msgspec.structs.replace(created, spec=_model(package, INVALID["enum"], namespace).spec),
                                    validate=True)
            assert len(sent) == 1
        finally:
            await cs.close()

    asyncio.run(run())
