"""Event recording against the real apiserver: what reaches the server, on both flavours, and the
same as what client-go's EventBroadcaster writes (hack/oracle/correlator, record mode)."""

from __future__ import annotations

import json
import subprocess
import uuid
from collections import Counter
from collections.abc import Iterator
from typing import Any

import httpx
import msgspec
import pytest

from kgen.kubernetes import Clientset
from kgen.kubernetes.models.core.v1 import ConfigMap
from kgen.kubernetes.models.meta.v1 import ObjectMeta
from kgen.runtime.rest.client import AsyncRESTClient, RESTClient
from kgen.runtime.testing import KubeAPIServer
from kgen.runtime.tools.record import AsyncEventRecorder, EventRecorder
from tests.conftest import Figure
from tests.support.apiserver import unthrottled_config
from tests.support.flavours import Flavour
from tests.support.oracle import oracle_binary

COMBINED = "(combined from similar events): "


class Recording:
    """A recorder of either flavour, driven from the test thread."""

    def __init__(self, flavour: Flavour, server: KubeAPIServer, component: str, host: str = "") -> None:
        self.flavour = flavour
        config = unthrottled_config(server)
        self.rest: RESTClient | AsyncRESTClient
        if flavour.is_async:

            def make() -> AsyncEventRecorder:
                self.rest = AsyncRESTClient(config)
                return AsyncEventRecorder(self.rest, component, host)

            self.recorder: EventRecorder | AsyncEventRecorder = flavour.call(make)
        else:
            self.rest = RESTClient(config)
            self.recorder = EventRecorder(self.rest, component, host)

    def event(self, obj: Any, type_: str, reason: str, message: str) -> None:
        self.flavour.do(self.recorder.event, obj, type_, reason, message)

    def shutdown(self) -> None:
        """Returns once every queued event is written."""
        self.flavour.call(self.recorder.shutdown, timeout=120)
        self.flavour.call(self.rest.close)


def events_in(admin: httpx.Client, namespace: str) -> list[dict[str, Any]]:
    answer = admin.get(f"/api/v1/namespaces/{namespace}/events")
    answer.raise_for_status()
    items: list[dict[str, Any]] = answer.json()["items"]
    return items


def about(events: list[dict[str, Any]], name: str, reason: str) -> list[dict[str, Any]]:
    return [e for e in events if e["involvedObject"]["name"] == name and e["reason"] == reason]


@pytest.fixture
def cs(kube_apiserver: KubeAPIServer) -> Iterator[Clientset]:
    clientset = Clientset(unthrottled_config(kube_apiserver))
    yield clientset
    clientset.close()


def test_events_are_recorded_deduplicated_aggregated_and_filtered(
    flavour: Flavour, kube_apiserver: KubeAPIServer, admin: httpx.Client, cs: Clientset, namespace: str
) -> None:
    cm = cs.core_v1.config_maps(namespace).create(ConfigMap(metadata=ObjectMeta(name="subject")))
    changing = cs.core_v1.config_maps(namespace).create(ConfigMap(metadata=ObjectMeta(name="changing")))
    recording = Recording(flavour, kube_apiserver, "kgen-test", "host-1")
    for _ in range(3):
        recording.event(cm, "Normal", "Synced", "synced")  # identical: one Event, count 3
    for i in range(12):
        recording.event(cm, "Warning", "Failed", f"attempt {i} failed")  # similar: combined from the 10th
    for i in range(100):  # the object changes with every event: still one object to the spam filter
        version = msgspec.structs.replace(changing.metadata, resource_version=str(1000 + i))
        recording.event(msgspec.structs.replace(changing, metadata=version), "Normal", "Updated", "updated")
    recording.shutdown()

    events = events_in(admin, namespace)
    [synced] = about(events, "subject", "Synced")
    assert synced["count"] == 3 and synced["type"] == "Normal" and synced["message"] == "synced"
    assert synced["involvedObject"]["uid"] == cm.metadata.uid and synced["involvedObject"]["kind"] == "ConfigMap"
    assert synced["source"] == {"component": "kgen-test", "host": "host-1"}
    assert synced["reportingComponent"] == "kgen-test" and synced["reportingInstance"] == "host-1"
    failed = about(events, "subject", "Failed")
    combined = [e for e in failed if e["message"].startswith(COMBINED)]
    assert len(failed) == 10 and len(combined) == 1  # 9 on their own, then the 10th, 11th, 12th combined
    assert combined[0]["count"] == 3 and combined[0]["message"] == COMBINED + "attempt 11 failed"
    assert sorted(e["message"] for e in failed if e not in combined) == sorted(f"attempt {i} failed" for i in range(9))
    [updated] = about(events, "changing", "Updated")
    assert updated["count"] == 25  # the spam filter's burst; the other 75 are dropped
    assert updated["involvedObject"]["resourceVersion"] == "1000"  # the first event's object


# -- the same script through client-go and through kgen -----------------------------------------


def script(objects: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """Events a controller might send (``objects``: name -> the object as the server has it).
    Messages of a group are never repeated once it is combined: which one client-go forgets is
    Go's map order, so the outcome of a repeat is random there."""
    lines: list[dict[str, Any]] = []

    def line(name: str, type_: str, reason: str, message: str, resource_version: str | None = None) -> None:
        obj = json.loads(json.dumps(objects[name]))
        if resource_version is not None:
            obj["metadata"]["resourceVersion"] = resource_version
        lines.append({"object": obj, "type": type_, "reason": reason, "message": message})

    for i in range(100):
        line("changing", "Normal", "Updated", "updated", str(5000 + i))
    for i in range(12):
        line("similar", "Warning", "Failed", f"attempt {i} failed")
        if i % 4 == 0:
            line("similar", "Normal", "Synced", "synced")  # identical repeats among them
    for i in range(30):  # two reasons interleaved, each combined from its 10th message; the spam
        # filter drops the last 5 of the 30
        line("busy", "Warning", "BackOff" if i % 2 else "Unhealthy", f"probe {i // 2} failed")
    line("last", "Normal", "Done", "done")  # about an object nothing else mentions: always written
    return lines


def compared(event: dict[str, Any]) -> str:
    """An Event as both writers can agree on it: not its name, times, or the object's uid/rv."""
    involved = {k: v for k, v in event["involvedObject"].items() if k not in ("uid", "resourceVersion", "namespace")}
    fields = {k: event.get(k) for k in ("reason", "message", "count", "type", "source", "reportingComponent",
                                         "reportingInstance")}
    return json.dumps({**fields, "involvedObject": involved}, sort_keys=True)


def make_namespace(admin: httpx.Client) -> str:
    name = f"t-{uuid.uuid4().hex[:10]}"
    admin.post("/api/v1/namespaces", json={"metadata": {"name": name}}).raise_for_status()
    return name


def subjects(admin: httpx.Client, namespace: str) -> dict[str, dict[str, Any]]:
    made = {}
    for name in ("changing", "similar", "busy", "last"):
        answer = admin.post(f"/api/v1/namespaces/{namespace}/configmaps", json={"metadata": {"name": name}})
        answer.raise_for_status()
        made[name] = answer.json()
    return made


def test_the_recorder_writes_what_client_go_writes(
    flavour: Flavour, kube_apiserver: KubeAPIServer, admin: httpx.Client, figure: Figure
) -> None:
    go_ns, kgen_ns = make_namespace(admin), make_namespace(admin)
    try:
        go_script = script(subjects(admin, go_ns))
        subprocess.run(
            [str(oracle_binary("correlator")), "record", "-kubeconfig", kube_apiserver.kubeconfig,
             "-component", "kgen-test", "-host", "host-1"],
            input="".join(json.dumps(line) + "\n" for line in go_script),
            capture_output=True, text=True, timeout=300, check=True)

        recording = Recording(flavour, kube_apiserver, "kgen-test", "host-1")
        for line in script(subjects(admin, kgen_ns)):
            recording.event(line["object"], line["type"], line["reason"], line["message"])
        recording.shutdown()

        theirs, ours = events_in(admin, go_ns), events_in(admin, kgen_ns)
        figure(f"client-go wrote {len(theirs)} Events, kgen {len(ours)}, from {len(go_script)} events each")
        assert Counter(map(compared, ours)) == Counter(map(compared, theirs))
        # What client-go did, in words: 25 of the 100, the 10th similar message on combined.
        assert [e["count"] for e in about(theirs, "changing", "Updated")] == [25]
        assert sum(e["message"].startswith(COMBINED) for e in theirs) == 3
    finally:
        for ns in (go_ns, kgen_ns):
            admin.delete(f"/api/v1/namespaces/{ns}")
