"""The model shape against the apiserver, the oracle for what null and absent mean:

- on a ``nullable: true`` CRD field the server keeps an explicit null, and so does a model through
  a read-modify-write; on a field that is not nullable the server drops the null, and the model
  reads it as absent;
- an object the server stored before its schema made a field required lacks that field: the
  model reads it (Go's zero value), and writing it back unchanged leaves the field absent, so
  the server's own validation names it (an unchanged list item lacking one passes: ratcheting).
"""

from __future__ import annotations

import copy
import json
import time
import uuid
from pathlib import Path
from typing import Any

import httpx
import msgspec
import yaml

from tests.support.apiserver import CRDS, crd_manifest, install_crd
from tests.support.packages import generate, import_all


def _generated_module(crd: dict[str, Any], tmp_path: Path) -> Any:
    """The models module of a package generated from ``crd`` (kind Gizmo)."""
    crd_file = tmp_path / f"{uuid.uuid4().hex[:6]}.yaml"
    crd_file.write_text(yaml.safe_dump(crd))
    package = f"shape_{uuid.uuid4().hex[:8]}"
    generate(tmp_path / "out", package, "--crd", str(crd_file))
    return next(m for m in import_all(tmp_path / "out", package) if hasattr(m, "Gizmo"))


def _create_when_served(admin: httpx.Client, base: str, body: dict[str, Any], ready: Any) -> dict[str, Any]:
    """POSTs ``body`` until the serving handler has the CRD's current schema (``ready(obj)``)."""
    deadline = time.monotonic() + 30
    while True:
        created = admin.post(base, json=copy.deepcopy(body))
        if created.status_code == 201 and ready(created.json()):
            return dict(created.json())
        if created.status_code == 201:
            admin.delete(f"{base}/{body['metadata']['name']}")
        assert time.monotonic() < deadline, created.text
        time.sleep(0.2)


def test_explicit_null_survives_where_the_server_keeps_it_and_nowhere_else(
    admin: httpx.Client, namespace: str, tmp_path: Path
) -> None:
    group = f"n{uuid.uuid4().hex[:8]}.kgen.test"
    crd = crd_manifest(group, "Gizmo", "gizmos", {
        "note": {"type": "string", "nullable": True},
        "plain": {"type": "string"},
        "size": {"type": "integer"},
    })
    install_crd(admin, crd)
    Gizmo = _generated_module(crd, tmp_path).Gizmo
    base = f"/apis/{group}/v1/namespaces/{namespace}/gizmos"
    body = {"apiVersion": f"{group}/v1", "kind": "Gizmo", "metadata": {"name": "g"},
            "spec": {"note": None, "plain": None, "size": 1}}
    _create_when_served(admin, base, body, lambda obj: "note" in obj["spec"])

    served = admin.get(f"{base}/g")
    assert served.json()["spec"] == {"note": None, "size": 1}  # the server: null kept, the other dropped
    gizmo = Gizmo.from_json(served.content)
    assert gizmo.spec.note is None and gizmo.spec.plain is None
    assert gizmo.to_dict() == served.json()  # the model reads what the server keeps, as it keeps it
    gizmo.spec.size = 2
    updated = admin.put(f"{base}/g", content=gizmo.to_json(), headers={"Content-Type": "application/json"})
    assert updated.status_code == 200, updated.text
    assert admin.get(f"{base}/g").json()["spec"] == {"note": None, "size": 2}
    admin.delete(f"{CRDS}/{crd['metadata']['name']}")


def test_an_object_stored_before_a_field_became_required_reads_and_writes_back(
    admin: httpx.Client, namespace: str, tmp_path: Path
) -> None:
    group = f"r{uuid.uuid4().hex[:8]}.kgen.test"
    crd = crd_manifest(group, "Gizmo", "gizmos", {
        "a": {"type": "string"},
        "parts": {"type": "array", "items": {"type": "object", "properties": {"id": {"type": "string"}}}},
    })
    install_crd(admin, crd)
    base = f"/apis/{group}/v1/namespaces/{namespace}/gizmos"
    body = {"apiVersion": f"{group}/v1", "kind": "Gizmo", "metadata": {"name": "old"},
            "spec": {"a": "1", "parts": [{"id": "x"}, {}]}}
    _create_when_served(admin, base, body, lambda obj: True)

    # The schema moves on: spec.b and every part's id become required.
    newer = admin.get(f"{CRDS}/{crd['metadata']['name']}").json()
    spec_schema = newer["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]
    spec_schema["properties"]["b"] = {"type": "string"}
    spec_schema["required"] = ["b"]
    spec_schema["properties"]["parts"]["items"]["required"] = ["id"]
    assert admin.put(f"{CRDS}/{crd['metadata']['name']}", json=newer).status_code == 200
    models = _generated_module(newer, tmp_path)
    Gizmo = models.Gizmo
    assert {f.encode_name for f in msgspec.structs.fields(models.GizmoSpec) if f.required} == {"b"}
    assert {f.encode_name for f in msgspec.structs.fields(models.Parts) if f.required} == {"id"}

    deadline = time.monotonic() + 30
    while admin.post(base, json={**body, "metadata": {"name": f"probe-{time.monotonic_ns()}"}}).status_code != 422:
        assert time.monotonic() < deadline, "the new schema never reached the serving handler"
        time.sleep(0.2)

    served = admin.get(f"{base}/old")
    assert "b" not in served.json()["spec"]  # the server has what it stored
    gizmo = Gizmo.from_json(served.content)  # reading never fails
    assert gizmo.spec.b == "" and [p.id for p in gizmo.spec.parts] == ["x", ""]
    assert gizmo.to_dict() == served.json()
    gizmo.spec.a = "2"
    # Written back unchanged, the missing field stays missing: the server, not the client,
    # decides, and it names the field (Go would have sent "b": "" and hidden it).
    refused = admin.put(f"{base}/old", content=gizmo.to_json(), headers={"Content-Type": "application/json"})
    assert refused.status_code == 422, refused.text
    assert [c["field"] for c in refused.json()["details"]["causes"]] == ["spec.b"]
    assert json.loads(gizmo.to_json())["spec"] == {"a": "2", "parts": [{"id": "x"}, {}]}
    gizmo.spec.b = "set"  # once set, it is written
    updated = admin.put(f"{base}/old", content=gizmo.to_json(), headers={"Content-Type": "application/json"})
    assert updated.status_code == 200, updated.text
    assert admin.get(f"{base}/old").json()["spec"] == {"a": "2", "b": "set", "parts": [{"id": "x"}, {}]}
    admin.delete(f"{CRDS}/{crd['metadata']['name']}")


def test_a_partial_object_read_with_from_dict_applies_only_what_it_holds(kube_apiserver: Any, namespace: str) -> None:
    """Server-side apply of a Deployment read from just replicas: the required selector and
    template it lacks read as zero values and stay off the wire, so the manager owns replicas."""
    from kgen.kubernetes import Clientset
    from kgen.kubernetes.models.apps.v1 import Deployment
    from tests.contract.builders import deployment
    from tests.support.apiserver import unthrottled_config

    cs = Clientset(unthrottled_config(kube_apiserver))
    deployments = cs.apps_v1.deployments(namespace)
    deployments.apply(deployment("web", replicas=1), field_manager="owner")
    partial = Deployment.from_dict({"apiVersion": "apps/v1", "kind": "Deployment",
                                    "metadata": {"name": "web"}, "spec": {"replicas": 4}})
    assert partial.spec.selector.match_labels is None  # a zero-filled LabelSelector
    applied = deployments.apply(partial, field_manager="scaler", force=True)
    assert applied.spec.replicas == 4 and applied.spec.selector.match_labels == {"app": "web"}
    owned = {e.manager: e.fields_v1 for e in applied.metadata.managed_fields or []} if applied.metadata else {}
    assert owned["scaler"] == {"f:spec": {"f:replicas": {}}}
