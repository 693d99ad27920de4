"""Issue 35: what the fake does by its release, compared with the real apiserver of that release.

The fake serves the resources as a generated package of the server's release would
(``ResourceInfo.generated_from`` = the server's version), so on 1.37.2 and on 1.34.4 (the
compatibility suite) both sides must agree with nothing taken out:

- an HPA's ``metadata.generation``: set and moved by a spec change from 1.37 (its strategy,
  HPAGeneration), absent before (the fake's ``writes._GENERATION_SINCE``);
- a StatefulSet's ``spec.updateStrategy.rollingUpdate.maxUnavailable: 1``: a 1.37 default, absent
  on 1.34 (the defaults data's per-release entries);
- the whole answers otherwise: defaults, managedFields, status writes.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from kgen.kubernetes.fake import FakeClientset
from kgen.runtime.gentype.resource import ResourceInfo
from kgen.runtime.testing import KubeAPIServer
from tests.conftest import Figure
from tests.support.fake_vs_server import Answers, Step, run

MERGE = "application/merge-patch+json"


@pytest.fixture
def sides(admin: httpx.Client, kube_apiserver: KubeAPIServer) -> Iterator[tuple[httpx.Client, httpx.Client]]:
    """(server, fake): the fake serves HPAs and StatefulSets as the server's release's package would."""
    tracker = FakeClientset().tracker
    for group, version, plural, kind in (("autoscaling", "v2", "horizontalpodautoscalers", "HorizontalPodAutoscaler"),
                                         ("apps", "v1", "statefulsets", "StatefulSet")):
        tracker.register(ResourceInfo(group, version, plural, True, kind, generated_from=kube_apiserver.version), status=True)
    with httpx.Client(base_url="https://fake.kgen.invalid", transport=tracker.transport()) as fake:
        yield admin, fake


def _hpa(max_replicas: int) -> dict[str, Any]:
    return {"apiVersion": "autoscaling/v2", "kind": "HorizontalPodAutoscaler", "metadata": {"name": "h"}, "spec": {
        "scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": "d"}, "maxReplicas": max_replicas}}


def _statefulset() -> dict[str, Any]:
    labels = {"app": "s"}
    return {"apiVersion": "apps/v1", "kind": "StatefulSet", "metadata": {"name": "s"}, "spec": {
        "selector": {"matchLabels": labels},
        "template": {"metadata": {"labels": labels}, "spec": {"containers": [{"name": "c", "image": "registry.invalid/c:1"}]}}}}


def _spec(label: str, **changes: Any) -> Any:
    def body(answers: Answers) -> Any:
        obj = answers[label]
        return {**obj, "spec": {**obj["spec"], **changes}}

    return body


def release_steps(ns: str) -> list[Step]:
    hpas = f"/apis/autoscaling/v2/namespaces/{ns}/horizontalpodautoscalers"
    statefulsets = f"/apis/apps/v1/namespaces/{ns}/statefulsets"
    return [
        Step("hpa", "POST", hpas, _hpa(3)),
        Step("hpa-scale", "PUT", f"{hpas}/h", _spec("hpa", maxReplicas=4)),
        Step("hpa-label", "PUT", f"{hpas}/h",
             lambda a: {**a["hpa-scale"], "metadata": {**a["hpa-scale"]["metadata"], "labels": {"l": "1"}}}),
        Step("hpa-status", "PATCH", f"{hpas}/h/status", {"status": {"currentReplicas": 1, "desiredReplicas": 1}}, content_type=MERGE),
        Step("hpa-merge", "PATCH", f"{hpas}/h", {"spec": {"minReplicas": 2}}, content_type=MERGE),
        Step("hpa-get", "GET", f"{hpas}/h"),
        Step("sts", "POST", statefulsets, _statefulset()),
        Step("sts-update", "PUT", f"{statefulsets}/s", _spec("sts", replicas=2)),
        Step("sts-merge", "PATCH", f"{statefulsets}/s", {"spec": {"updateStrategy": {"type": "RollingUpdate"}}}, content_type=MERGE),
        Step("sts-get", "GET", f"{statefulsets}/s"),
    ]


@pytest.mark.integration
def test_the_fake_answers_as_its_release(
    sides: tuple[httpx.Client, httpx.Client], namespace: str, kube_apiserver: KubeAPIServer, figure: Figure
) -> None:
    server, fake = sides
    outcome = run(server, fake, release_steps(namespace), managed_fields=True)
    figure(f"release {kube_apiserver.version}: {outcome.compared} operations compared, {len(outcome.divergences)} divergences")
    assert not outcome.divergences, "\n".join(map(str, outcome.divergences))
    # the behaviours the scenario is about were met, as the server's release has them
    newer = tuple(int(p) for p in kube_apiserver.version.removeprefix("v").split(".")[:2]) >= (1, 37)
    hpa, sts = outcome.server["hpa-get"], outcome.server["sts-get"]
    assert ("generation" in hpa["metadata"]) is newer and (hpa["metadata"].get("generation") == 3 or not newer)
    assert ("maxUnavailable" in sts["spec"]["updateStrategy"].get("rollingUpdate", {})) is newer
