"""The three clients, each driven through its own production path.

- kgen: ``PodList.from_json(data)`` and ``pod_list.to_json()``.
- lightkube: what ``Client.list(Pod)`` does with a response body
  (``lightkube.core.decoders.decode_list(resp.content, Pod)``, see
  ``GenericClient.handle_response``), and what a request body goes through
  (``lightkube.core.generic_client.json_encode(obj)``, see ``build_adapter_request``); the
  decoded items are wrapped in lightkube's ``PodList`` model to encode the same list.
- official ``kubernetes``: what ``CoreV1Api.list_pod_for_all_namespaces`` does with a response
  (``ApiClient.response_deserialize(RESTResponse, {"200": "V1PodList"})``: bytes → text →
  ``json.loads`` → models), and what a request body goes through
  (``ApiClient.sanitize_for_serialization`` then ``json.dumps`` in ``rest.py``).

Every peer also answers the same spot checks, so the bench can show it decoded what was sent.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timezone
from importlib.metadata import version
from typing import Any

#: The pod the spot checks read.
SPOT_INDEX = 1234


@dataclass(frozen=True)
class Spot:
    """A few values of pod ``SPOT_INDEX``, read through the typed objects (or the raw JSON)."""

    name: str
    created: str
    env_field_path: str
    memory_limit: str
    restart_count: int
    last_probe_time: object


@dataclass(frozen=True)
class Peer:
    """One client: decode bytes to what its user gets, and encode that back to bytes.

    ``decode`` returns the object a user holds; ``encodable`` (untimed) turns it into what the
    client's request path serializes; ``encode`` serializes it to JSON bytes.
    """

    name: str
    version: str
    decode: Callable[[bytes], Any]
    encodable: Callable[[Any], Any]
    encode: Callable[[Any], bytes]
    count: Callable[[Any], int]
    spot: Callable[[Any], Spot]


def expected_spot(raw: dict[str, Any]) -> Spot:
    pod = raw["items"][SPOT_INDEX]
    container = pod["spec"]["containers"][0]
    return Spot(
        name=pod["metadata"]["name"],
        created=pod["metadata"]["creationTimestamp"],
        env_field_path=container["env"][3]["valueFrom"]["fieldRef"]["fieldPath"],
        memory_limit=container["resources"]["limits"]["memory"],
        restart_count=pod["status"]["containerStatuses"][0]["restartCount"],
        last_probe_time=pod["status"]["conditions"][0]["lastProbeTime"],
    )


def _rfc3339(value: str | datetime) -> str:
    if isinstance(value, datetime):
        return value.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    return value


def kgen_peer() -> Peer:
    from kgen.kubernetes.models.core.v1 import PodList

    def spot(pods: Any) -> Spot:
        pod = pods.items[SPOT_INDEX]
        container = pod.spec.containers[0]
        return Spot(
            name=pod.metadata.name,
            created=_rfc3339(pod.metadata.creation_timestamp),
            env_field_path=container.env[3].value_from.field_ref.field_path,
            memory_limit=container.resources.limits["memory"],
            restart_count=pod.status.container_statuses[0].restart_count,
            last_probe_time=pod.status.conditions[0].last_probe_time,
        )

    return Peer(
        name="kgen",
        version=version("kgen-k8s"),
        decode=PodList.from_json,
        encodable=lambda pods: pods,
        encode=lambda pods: pods.to_json(),
        count=lambda pods: len(pods.items),
        spot=spot,
    )


def lightkube_peer() -> Peer:
    from lightkube.core.decoders import decode_list
    from lightkube.core.generic_client import json_encode
    from lightkube.models.core_v1 import PodList
    from lightkube.models.meta_v1 import ListMeta
    from lightkube.resources.core_v1 import Pod

    def decode(data: bytes) -> tuple[str | None, str | None, list[Any]]:
        return decode_list(data, Pod)

    def encodable(result: tuple[str | None, str | None, list[Any]]) -> PodList:
        _, resource_version, items = result
        return PodList(items=items, metadata=ListMeta(resourceVersion=resource_version))

    def spot(result: Any) -> Spot:
        pod = result[2][SPOT_INDEX]
        container = pod.spec.containers[0]
        return Spot(
            name=pod.metadata.name,
            created=_rfc3339(pod.metadata.creationTimestamp),
            env_field_path=container.env[3].valueFrom.fieldRef.fieldPath,
            memory_limit=container.resources.limits["memory"],
            restart_count=pod.status.containerStatuses[0].restartCount,
            last_probe_time=pod.status.conditions[0].lastProbeTime,
        )

    return Peer(
        name="lightkube",
        version=f"{version('lightkube')} (models {version('lightkube-models')})",
        decode=decode,
        encodable=encodable,
        encode=json_encode,
        count=lambda result: len(result[2]),
        spot=spot,
    )


class _Response:
    """What ``kubernetes.client.rest.RESTResponse`` offers after ``read()``: status, headers, data."""

    def __init__(self, data: bytes) -> None:
        self.status = 200
        self.reason = "OK"
        self.data = data
        self.headers = {"content-type": "application/json"}

    def getheaders(self) -> dict[str, str]:
        return self.headers

    def getheader(self, name: str, default: str | None = None) -> str | None:
        return self.headers.get(name, default)


def official_peer() -> Peer:
    from kubernetes.client import ApiClient

    client = ApiClient()
    types = {"200": "V1PodList"}

    def decode(data: bytes) -> Any:
        return client.response_deserialize(_Response(data), types).data  # type: ignore[arg-type, unused-ignore]

    def encode(pods: Any) -> bytes:
        sanitized: Any = client.sanitize_for_serialization(pods)  # type: ignore[no-untyped-call, unused-ignore]
        return json.dumps(sanitized).encode()

    def spot(pods: Any) -> Spot:
        pod = pods.items[SPOT_INDEX]
        container = pod.spec.containers[0]
        return Spot(
            name=pod.metadata.name,
            created=_rfc3339(pod.metadata.creation_timestamp),
            env_field_path=container.env[3].value_from.field_ref.field_path,
            memory_limit=container.resources.limits["memory"],
            restart_count=pod.status.container_statuses[0].restart_count,
            last_probe_time=pod.status.conditions[0].last_probe_time,
        )

    return Peer(
        name="official",
        version=version("kubernetes"),
        decode=decode,
        encodable=lambda pods: pods,
        encode=encode,
        count=lambda pods: len(pods.items),
        spot=spot,
    )


PEERS = {"kgen": kgen_peer, "lightkube": lightkube_peer, "official": official_peer}


def peer_by_name(name: str) -> Peer:
    """The peer called ``name``; only its library gets imported."""
    return PEERS[name]()
