"""The metadata client's requests and its reading of the answers, against client-go's metadata.go.

The Accept headers are client-go's literals with the protobuf part left out (kgen speaks JSON);
the kind check follows metadata.go: the partial kind is the answer, another kind of the
meta.k8s.io scheme is "unexpected object", an unregistered full object (a server that ignored
``as=``) falls back to its metadata in get/list/patch, and ends a watch with an error.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from kgen.kubernetes.metadata import CODEC, GroupVersionResource, UnexpectedObjectError
from kgen.kubernetes.models.meta.v1 import PartialObjectMetadata, PartialObjectMetadataList
from kgen.runtime.gentype import PatchType
from kgen.runtime.metadata import ACCEPT_LIST, ACCEPT_OBJECT, AsyncMetadataClient, MetadataClient
from kgen.runtime.rest import AsyncRESTClient, Config, RESTClient

# client-go v0.37.2 metadata/metadata.go, Get/Watch/Patch and List.
GO_ACCEPT_OBJECT = ("application/vnd.kubernetes.protobuf;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,"
                    "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json")
GO_ACCEPT_LIST = ("application/vnd.kubernetes.protobuf;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,"
                  "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json")
PODS = GroupVersionResource("", "v1", "pods")
WIDGETS = GroupVersionResource("example.com", "v1", "widgets")
META = {"name": "p", "namespace": "ns", "uid": "u-1", "resourceVersion": "7", "labels": {"app": "web"}}
PARTIAL = {"kind": "PartialObjectMetadata", "apiVersion": "meta.k8s.io/v1", "metadata": META}
PARTIAL_LIST = {"kind": "PartialObjectMetadataList", "apiVersion": "meta.k8s.io/v1", "metadata": {"resourceVersion": "9"},
                "items": [PARTIAL]}
POD = {"kind": "Pod", "apiVersion": "v1", "metadata": META, "spec": {"containers": [{"name": "c", "image": "i"}]}}
POD_LIST = {"kind": "PodList", "apiVersion": "v1", "metadata": {"resourceVersion": "9"},
            "items": [{k: v for k, v in POD.items() if k not in ("kind", "apiVersion")}]}


def _json_only(go: str) -> str:
    return ",".join(part for part in go.split(",") if not part.startswith("application/vnd.kubernetes.protobuf"))


class Server:
    """Answers ``answer(request)`` and records each request's method, path, query and Accept."""

    def __init__(self, answer: Callable[[httpx.Request], Any]) -> None:
        self.answer = answer
        self.seen: list[tuple[str, str, str, str]] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.seen.append((request.method, request.url.path, request.url.query.decode(), request.headers["accept"]))
        body = self.answer(request)
        return httpx.Response(200, content=body if isinstance(body, bytes) else json.dumps(body).encode(),
                              headers={"Content-Type": "application/json"})


CONFIG = Config(host="https://metadata.kgen.invalid", qps=-1)
Client = MetadataClient[PartialObjectMetadata, PartialObjectMetadataList]


def client(answer: Callable[[httpx.Request], Any]) -> tuple[Client, Server]:
    """The generated package's client (its codec) over a mock transport."""
    server = Server(answer)
    return MetadataClient(RESTClient(CONFIG, transport=httpx.MockTransport(server)), CODEC), server


def by_verb(request: httpx.Request) -> Any:
    if request.url.params.get("watch") == "true":
        return b"".join(json.dumps({"type": t, "object": PARTIAL}).encode() + b"\n" for t in ("ADDED", "DELETED"))
    if request.method == "GET" and request.url.path.endswith("/pods"):
        return PARTIAL_LIST
    if request.method == "DELETE":
        return POD
    return PARTIAL


def test_accept_headers_are_client_gos_json_parts_in_its_order() -> None:
    assert ACCEPT_OBJECT == _json_only(GO_ACCEPT_OBJECT)
    assert ACCEPT_LIST == _json_only(GO_ACCEPT_LIST)


def test_every_verb_asks_as_client_go_does() -> None:
    metadata, server = client(by_verb)
    pods = metadata.resource(PODS)
    assert isinstance(pods.list(label_selector="app=web", limit=5), PartialObjectMetadataList)
    assert isinstance(pods.namespace("ns").get("p"), PartialObjectMetadata)
    assert [e.type for e in pods.namespace("ns").watch(resource_version="9")] == ["ADDED", "DELETED"]
    pods.namespace("ns").patch("p", {"metadata": {"labels": {"a": "b"}}})
    pods.namespace("ns").patch("p", [{"op": "remove", "path": "/metadata/labels"}], PatchType.JSON)
    pods.namespace("ns").delete("p")  # client-go's Delete returns no object (and reads none)
    metadata.resource(WIDGETS).namespace("ns").delete_collection(label_selector="x=y")
    assert [(m, p, a) for m, p, _, a in server.seen] == [
        ("GET", "/api/v1/pods", ACCEPT_LIST),
        ("GET", "/api/v1/namespaces/ns/pods/p", ACCEPT_OBJECT),
        ("GET", "/api/v1/namespaces/ns/pods", ACCEPT_OBJECT),
        ("PATCH", "/api/v1/namespaces/ns/pods/p", ACCEPT_OBJECT),
        ("PATCH", "/api/v1/namespaces/ns/pods/p", ACCEPT_OBJECT),
        ("DELETE", "/api/v1/namespaces/ns/pods/p", "application/json"),
        ("DELETE", "/apis/example.com/v1/namespaces/ns/widgets", "application/json"),
    ]
    assert server.seen[0][2] == "labelSelector=app%3Dweb&limit=5"
    assert "watch=true" in server.seen[2][2] and "resourceVersion=9" in server.seen[2][2]
    assert "allowWatchBookmarks=true" in server.seen[2][2]


def test_async_client_asks_the_same() -> None:
    server = Server(by_verb)

    async def scenario() -> None:
        async with AsyncMetadataClient(AsyncRESTClient(CONFIG, transport=httpx.MockTransport(server)), CODEC) as metadata:
            pods = metadata.resource(PODS).namespace("ns")
            assert (await pods.list()).items[0].metadata == PartialObjectMetadata.from_dict(PARTIAL).metadata
            assert (await pods.get("p")).kind == "PartialObjectMetadata"
            assert [e.type async for e in pods.watch()] == ["ADDED", "DELETED"]
            await pods.patch("p", {"metadata": {"labels": None}})

    asyncio.run(scenario())
    assert [a for _, _, _, a in server.seen] == [ACCEPT_LIST, ACCEPT_OBJECT, ACCEPT_OBJECT, ACCEPT_OBJECT]


@pytest.mark.parametrize(("answer", "got"), [
    ({"kind": "Table", "apiVersion": "meta.k8s.io/v1", "rows": []}, "meta.k8s.io/v1, Kind=Table"),
    (PARTIAL_LIST, "meta.k8s.io/v1, Kind=PartialObjectMetadataList"),
    ({"metadata": META}, "Kind=None"),
])
def test_a_meta_kind_other_than_the_one_asked_for_is_unexpected(answer: dict[str, Any], got: str) -> None:
    metadata, _ = client(lambda request: answer)
    with pytest.raises(UnexpectedObjectError, match=f"^unexpected object, expected PartialObjectMetadata but got {got}$"):
        metadata.resource(PODS).namespace("ns").get("p")


def test_a_full_pod_in_a_watch_is_an_error() -> None:
    def answer(request: httpx.Request) -> bytes:
        return json.dumps({"type": "ADDED", "object": POD}).encode() + b"\n"

    metadata, _ = client(answer)
    with pytest.raises(UnexpectedObjectError, match="expected PartialObjectMetadata but got v1, Kind=Pod"):
        list(metadata.resource(PODS).watch())


def test_a_full_object_answered_to_get_list_or_patch_is_reduced_to_its_metadata() -> None:
    """client-go's fallback for servers that ignore ``as=`` (metadata.go, IsNotRegisteredError):
    the metadata alone, TypeMeta cleared, nothing else kept."""
    metadata, _ = client(lambda request: POD_LIST if request.url.path.endswith("/pods") else POD)
    pods = metadata.resource(PODS).namespace("ns")
    for obj in (pods.get("p"), pods.patch("p", {}), *pods.list().items):
        assert obj.to_dict() == {"metadata": META} and obj.unknown_fields_ is None
    assert pods.list().kind is None


def test_a_full_object_without_object_metadata_is_an_error() -> None:
    metadata, _ = client(lambda request: {"kind": "Pod", "apiVersion": "v1", "metadata": {"labels": {"a": "b"}}})
    with pytest.raises(UnexpectedObjectError, match="does not appear to match the ObjectMeta schema"):
        metadata.resource(PODS).namespace("ns").get("p")


def test_with_timeout_and_namespace_keep_the_metadata_requests() -> None:
    metadata, server = client(by_verb)
    pods = metadata.resource(PODS)
    bounded = pods.namespace("ns").with_timeout(2.5)
    assert bounded._req.timeout == 2.5 and pods._req.timeout is None
    bounded.get("p")
    pods.namespace("").list()  # "" is every namespace, as client-go's Namespace("")
    assert [(p, a) for _, p, _, a in server.seen] == [
        ("/api/v1/namespaces/ns/pods/p", ACCEPT_OBJECT), ("/api/v1/pods", ACCEPT_LIST),
    ]
