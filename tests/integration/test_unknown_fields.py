"""A model generated from an older schema keeps the fields a newer server added, end to end."""

from __future__ import annotations

import copy
import time
import uuid
from pathlib import Path

import httpx
import yaml

from tests.support.apiserver import CRDS, crd_manifest, install_crd
from tests.support.packages import generate, import_all


def test_update_with_old_model_keeps_field_added_to_server_schema(
    admin: httpx.Client, namespace: str, tmp_path: Path
) -> None:
    group = f"u{uuid.uuid4().hex[:8]}.kgen.test"
    old = crd_manifest(group, "Gizmo", "gizmos", {"a": {"type": "string"}})
    crd_file = tmp_path / "gizmo.yaml"
    crd_file.write_text(yaml.safe_dump(old))
    package = f"gizmos_{uuid.uuid4().hex[:6]}"
    generate(tmp_path / "out", package, "--crd", str(crd_file))
    modules = {m.__name__: m for m in import_all(tmp_path / "out", package)}
    Gizmo = next(getattr(m, "Gizmo") for n, m in modules.items() if hasattr(m, "Gizmo"))
    assert "b" not in Gizmo.__struct_fields__ and not hasattr(Gizmo, "b")

    crds = CRDS
    install_crd(admin, old)
    # The server's schema moves on: spec.b appears.
    newer = admin.get(f"{crds}/{old['metadata']['name']}").json()
    newer["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]["properties"]["b"] = {
        "type": "string"
    }
    assert admin.put(f"{crds}/{old['metadata']['name']}", json=newer).status_code == 200

    base = f"/apis/{group}/v1/namespaces/{namespace}/gizmos"
    body = {"apiVersion": f"{group}/v1", "kind": "Gizmo", "metadata": {"name": "g"}, "spec": {"a": "1", "b": "kept"}}
    deadline = time.monotonic() + 30
    while True:  # the new schema reaches the serving handler shortly after the update
        created = admin.post(base, json=copy.deepcopy(body))
        if created.status_code == 201 and created.json()["spec"].get("b") == "kept":
            break
        if created.status_code == 201:
            admin.delete(f"{base}/g")
        assert time.monotonic() < deadline, created.text
        time.sleep(0.2)

    gizmo = Gizmo.from_json(admin.get(f"{base}/g").content)  # read with the OLD model
    gizmo.spec.a = "2"
    updated = admin.put(f"{base}/g", content=gizmo.to_json(), headers={"Content-Type": "application/json"})
    assert updated.status_code == 200, updated.text

    on_server = admin.get(f"{base}/g").json()
    assert on_server["spec"] == {"a": "2", "b": "kept"}
    admin.delete(f"{crds}/{old['metadata']['name']}")
