"""``XApplyConfiguration.extract`` against client-go's ``ExtractDeployment``/``ExtractDeploymentStatus``
and ``ExtractConfigMap`` (hack/oracle/extract), on objects whose managedFields the real
apiserver wrote: seeded random server-side applies by several managers (labels, annotations,
replicas, keyed lists of containers, ports keyed by containerPort and protocol, env, status
conditions), then every manager's extract on both sides; 0 differences required."""

from __future__ import annotations

import json
import random
import subprocess
from typing import Any

from kgen.kubernetes import Clientset
from kgen.kubernetes.applyconfigurations.apps.v1 import (
    DeploymentApplyConfiguration,
    DeploymentConditionApplyConfiguration,
    DeploymentSpecApplyConfiguration,
    DeploymentStatusApplyConfiguration,
)
from kgen.kubernetes.applyconfigurations.core.v1 import (
    ConfigMapApplyConfiguration,
    ContainerApplyConfiguration,
    ContainerPortApplyConfiguration,
    EnvVarApplyConfiguration,
    PodSpecApplyConfiguration,
    PodTemplateSpecApplyConfiguration,
)
from kgen.kubernetes.applyconfigurations.meta.v1 import (
    LabelSelectorApplyConfiguration,
    ObjectMetaApplyConfiguration,
)
from kgen.kubernetes.models.apps.v1 import Deployment
from kgen.runtime.apimachinery import Invalid, Model, extract_fields
from kgen.runtime.rest import load_kubeconfig
from kgen.runtime.testing import KubeAPIServer
from tests.support.oracle import oracle_binary

SEED = 20261203
ROUNDS = 8
MANAGERS = ["alpha", "beta", "gamma"]
SELECTOR = {"app": "web"}


def _some(rng: random.Random, items: list[str]) -> list[str]:
    return sorted(rng.sample(items, rng.randint(0, len(items))))


def _container(rng: random.Random, name: str) -> ContainerApplyConfiguration:
    ports = [ContainerPortApplyConfiguration(container_port=p, protocol=rng.choice(["TCP", "UDP"]))
             for p in sorted(rng.sample([80, 443, 8080], rng.randint(0, 2)))]
    env = [EnvVarApplyConfiguration(name=n, value=rng.choice(["1", "2"])) for n in _some(rng, ["A", "B", "C"])]
    return ContainerApplyConfiguration(name=name, image=rng.choice(["nginx", "httpd"]), ports=ports or None, env=env or None)


def _deployment(rng: random.Random, ns: str, first: bool) -> DeploymentApplyConfiguration:
    labels = {k: rng.choice(["x", "y"]) for k in _some(rng, ["tier", "team", "zone"])}
    annotations = {k: rng.choice(["1", "2"]) for k in _some(rng, ["note", "owner"])}
    names = ["app"] if first else _some(rng, ["app", "side", "extra"])
    template = PodTemplateSpecApplyConfiguration(
        metadata=ObjectMetaApplyConfiguration(labels=SELECTOR) if first or rng.random() < 0.3 else None,
        spec=PodSpecApplyConfiguration(containers=[_container(rng, n) for n in names]) if names else None,
    )
    return DeploymentApplyConfiguration(
        metadata=ObjectMetaApplyConfiguration(name="web", namespace=ns, labels=labels or None, annotations=annotations or None),
        spec=DeploymentSpecApplyConfiguration(
            replicas=rng.randint(0, 3) if first or rng.random() < 0.5 else None,
            selector=LabelSelectorApplyConfiguration(match_labels=SELECTOR) if first else None,
            template=template if template.metadata or template.spec else None,
        ),
    )


def _status(rng: random.Random) -> DeploymentApplyConfiguration:
    conditions = [DeploymentConditionApplyConfiguration(type=t, status=rng.choice(["True", "False"]))
                  for t in _some(rng, ["Available", "Progressing"])]
    return DeploymentApplyConfiguration(
        metadata=ObjectMetaApplyConfiguration(name="web"),
        status=DeploymentStatusApplyConfiguration(observed_generation=rng.randint(1, 5), conditions=conditions or None),
    )


def _cases(obj: Model, subresources: tuple[str, ...]) -> list[dict[str, Any]]:
    live = obj.to_dict()
    managers = sorted({e["manager"] for e in live["metadata"].get("managedFields", [])} | {"nobody"})
    return [{"object": live, "manager": m, "subresource": s} for m in managers for s in subresources]


def test_extract_agrees_with_client_go_on_server_written_managed_fields(
    kube_apiserver: KubeAPIServer, namespace: str, figure: Any
) -> None:
    rng = random.Random(SEED)
    cs = Clientset(load_kubeconfig(kube_apiserver.kubeconfig))
    cases: list[dict[str, Any]] = []
    ours: list[dict[str, Any]] = []
    refused = 0
    try:
        for round_ in range(ROUNDS):
            ns = namespace
            name = f"web-{round_}"
            deployments = cs.apps_v1.deployments(ns)
            cms = cs.core_v1.config_maps(ns)
            for step in range(6):
                manager = MANAGERS[0] if step == 0 else rng.choice(MANAGERS)
                d = _deployment(rng, ns, first=manager == MANAGERS[0])  # the owner of selector and template
                assert d.metadata is not None
                d.metadata.name = name
                try:
                    deployments.apply(d, field_manager=manager, force=True)
                except Invalid:
                    # Removing what a manager stopped declaring can leave a container without
                    # the image another manager's force took: the server refuses, nothing changes.
                    refused += 1
                if rng.random() < 0.5:
                    s = _status(rng)
                    assert s.metadata is not None
                    s.metadata.name = name
                    deployments.apply_status(s, field_manager=rng.choice(MANAGERS), force=True)
                data = {k: rng.choice(["1", "2"]) for k in _some(rng, ["a", "b", "c", "d"])}
                cm = ConfigMapApplyConfiguration(metadata=ObjectMetaApplyConfiguration(name=name), data=data or None)
                cms.apply(cm, field_manager=manager, force=True)
            live_d = deployments.get(name)
            live_cm = cms.get(name)
            for case in _cases(live_d, ("", "status")):
                cases.append(case)
                ours.append(DeploymentApplyConfiguration.extract(live_d, case["manager"], case["subresource"]).to_dict())
            for case in _cases(live_cm, ("",)):
                cases.append(case)
                ours.append(ConfigMapApplyConfiguration.extract(live_cm, case["manager"]).to_dict())
    finally:
        cs.close()

    done = subprocess.run([str(oracle_binary("extract"))], input=json.dumps(cases), capture_output=True, text=True, check=True)
    theirs = [json.loads(r["json"]) if "json" in r else r for r in json.loads(done.stdout)]
    differences = [
        (c["object"]["kind"], c["manager"], c["subresource"], o, t,
         [e["fieldsV1"] for e in c["object"]["metadata"]["managedFields"] if e["manager"] == c["manager"]])
        for c, o, t in zip(cases, ours, theirs) if o != t
    ]
    owned = sum(1 for o in ours if set(o) - {"apiVersion", "kind", "metadata"} or set(o["metadata"]) - {"name", "namespace"})
    figure(f"extract vs client-go: seed {SEED}, {len(cases)} extracts ({owned} owning fields), {len(differences)} differences; {refused} applies refused by the server")
    assert len(theirs) == len(cases)
    assert not differences, json.dumps(differences[:2], indent=1, sort_keys=True)
    assert owned > len(cases) // 3


def test_the_extract_comparison_sees_a_planted_difference() -> None:
    """Extract without the apply configuration's schema (``extract_fields`` with no class: every
    node owned alone taken whole) differs from client-go on an apply of ``spec: {}``; the typed
    extract does not."""
    live = {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "a", "namespace": "n", "managedFields": [
        {"manager": "m", "operation": "Apply", "apiVersion": "apps/v1", "fieldsType": "FieldsV1",
         "fieldsV1": {"f:metadata": {"f:labels": {"f:x": {}}}, "f:spec": {}}}], "labels": {"x": "1"}},
        "spec": {"replicas": 2, "selector": {"matchLabels": {"x": "1"}}, "template": {}}}
    done = subprocess.run([str(oracle_binary("extract"))], input=json.dumps([{"object": live, "manager": "m", "subresource": ""}]),
                          capture_output=True, text=True, check=True)
    theirs = json.loads(json.loads(done.stdout)[0]["json"])
    model = Deployment.from_dict(live)
    assert DeploymentApplyConfiguration.extract(model, "m").to_dict() == theirs
    assert extract_fields(model, "m") != theirs  # the planted difference: spec taken whole
