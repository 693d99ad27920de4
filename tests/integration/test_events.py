"""Event recording against the real apiserver: create, de-duplicate, aggregate, spam filter."""

from __future__ import annotations

from kgen.kubernetes import Clientset
from kgen.kubernetes.models.core.v1 import ConfigMap
from kgen.kubernetes.models.meta.v1 import ObjectMeta
from kgen.runtime.tools.record.event import EventCorrelator, EventRecorder, ObjectRef
from kgen.runtime.rest.client import RESTClient
from kgen.runtime.testing import KubeAPIServer
from tests.support.apiserver import unthrottled_config, wait_for


def _events_about(cs: Clientset, namespace: str, name: str) -> list:
    items = cs.core_v1.events(namespace).list(field_selector=f"involvedObject.name={name}").items or []
    return sorted(items, key=lambda e: e.reason or "")


def test_events_are_recorded_deduplicated_and_aggregated(
    kube_apiserver: KubeAPIServer, rest: RESTClient, namespace: str
) -> None:
    cs = Clientset(unthrottled_config(kube_apiserver))
    cm = cs.core_v1.config_maps(namespace).create(ConfigMap(metadata=ObjectMeta(name="subject")))
    recorder = EventRecorder(rest, "kgen-test", "host-1")
    for _ in range(3):
        recorder.event(cm, "Normal", "Synced", "synced")  # identical: one Event, count 3
    for i in range(12):
        recorder.event(cm, "Warning", "Failed", f"attempt {i} failed")  # similar: aggregated past 10
    recorder.shutdown()

    events = wait_for(lambda: _events_about(cs, namespace, "subject"))
    synced = [e for e in events if e.reason == "Synced"]
    assert len(synced) == 1 and synced[0].count == 3 and synced[0].type_ == "Normal"
    assert synced[0].involved_object.uid == cm.metadata.uid and synced[0].source.component == "kgen-test"
    failed = [e for e in events if e.reason == "Failed"]
    combined = [e for e in failed if (e.message or "").startswith("(combined from similar events): ")]
    assert len(failed) == 11 and len(combined) == 1  # 10 distinct, then one combined event
    assert combined[0].count == 2 and combined[0].message.endswith("attempt 11 failed")
    cs.close()


def test_spam_filter_allows_a_burst_of_25_per_object() -> None:
    now = [0.0]
    correlator = EventCorrelator(clock=lambda: now[0])
    ref = ObjectRef("v1", "ConfigMap", "ns", "a", "uid", "1")
    assert sum(correlator.allow(ref, "c/") for _ in range(40)) == 25
    now[0] += 300.0  # one more token every five minutes
    assert correlator.allow(ref, "c/") and not correlator.allow(ref, "c/")
    other = ObjectRef("v1", "ConfigMap", "ns", "b", "uid2", "1")
    assert correlator.allow(other, "c/")  # the bucket is per object
