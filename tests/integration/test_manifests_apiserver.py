"""`kgen manifests` CRDs against the real apiserver: accepted as structural schemas, enforcing
their markers with the apiserver's own messages, and applying their defaults server-side.

The oracle is the apiserver: a CRD whose schema is not structural is created but carries a
``NonStructuralSchema`` condition and is never Established; minimum/maximum, pattern, list-map
keys and CEL rules are enforced by apiextensions-apiserver, which answers 422 with one cause per
violation, worded as it words them; defaults are filled in by the server on create. The objects
are built and read back with the user's own classes (tests/support/manifests/widgets.py), as a
user's controller would.
"""

from __future__ import annotations

import json
import uuid
from pathlib import Path
from typing import Any

import httpx
import pytest
import yaml

from kgen.generator.cli import main as kgen
from kgen.kubernetes.models.meta.v1 import ObjectMeta
from tests.support.apiserver import install_crd
from tests.support.manifests import gadgets, widgets

CRDS = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions"
WIDGETS = f"/apis/{widgets.GROUP}/v1/namespaces/{{ns}}/widgets"


@pytest.fixture(scope="module")
def installed(admin: httpx.Client, tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    """The CRDs `kgen manifests` writes for widgets.py and gadgets.py, installed (Established)."""
    out = tmp_path_factory.mktemp("crds")
    assert kgen(["manifests", "--allow-dangerous-types", "--module", widgets.__name__, "--module", gadgets.__name__,
                 "--out", str(out)]) == 0
    crds = {}
    for path in sorted(Path(out).iterdir()):
        crd = yaml.safe_load(path.read_text())
        name = crd["metadata"]["name"]
        if admin.get(f"{CRDS}/{name}").status_code == 404:
            install_crd(admin, crd)  # waits for Established
        crds[name] = admin.get(f"{CRDS}/{name}").json()
    return crds


def _widget(name: str, **spec: Any) -> widgets.Widget:
    values: dict[str, Any] = {"size": "1Gi", **spec}
    return widgets.Widget(
        api_version=f"{widgets.GROUP}/v1", kind="Widget", metadata=ObjectMeta(name=name),
        spec=widgets.WidgetSpec(**values),
    )


def _create(admin: httpx.Client, namespace: str, obj: widgets.Widget | dict[str, Any]) -> httpx.Response:
    body = obj.to_json() if isinstance(obj, widgets.Widget) else json.dumps(obj).encode()
    return admin.post(WIDGETS.format(ns=namespace), content=body, headers={"Content-Type": "application/json"})


def _causes(response: httpx.Response) -> list[tuple[str, str]]:
    assert response.status_code == 422, response.text
    return sorted((c.get("field", ""), c["message"]) for c in response.json()["details"]["causes"])


def test_crds_are_structural_and_established(installed: dict[str, dict[str, Any]]) -> None:
    for name, crd in installed.items():
        conditions = {c["type"]: c["status"] for c in crd["status"]["conditions"]}
        assert conditions.get("Established") == "True", (name, conditions)
        assert conditions.get("NonStructuralSchema") is None, (name, crd["status"]["conditions"])
    gadget = installed[f"gadgets.{gadgets.GROUP}"]
    assert [(v["name"], v["storage"]) for v in gadget["spec"]["versions"]] == [("v1", True), ("v2", False)]
    assert gadget["status"]["storedVersions"] == ["v1"]


def test_valid_widget_is_accepted_and_the_server_applies_the_defaults(
    installed: dict[str, dict[str, Any]], admin: httpx.Client, namespace: str
) -> None:
    sent = _widget("ok", ports=[widgets.Port(name="http", port=80)], window=widgets.Range(min=1, max=2),
                   owner_email="a@b.c")
    body = sent.to_dict()["spec"]
    # msgspec omits fields holding their Python default; the server must put them back.
    assert "replicas" not in body and "paused" not in body and "protocol" not in body["ports"][0]
    response = _create(admin, namespace, sent)
    assert response.status_code == 201, response.text
    stored = widgets.Widget.from_json(response.content)
    spec = response.json()["spec"]
    assert (spec["replicas"], spec["paused"], spec["tier"], spec["ports"][0]["protocol"]) == (1, False, "gold", "TCP")
    assert stored.spec.replicas == 1 and stored.spec.tier == "gold"
    assert stored.spec.ports is not None and stored.spec.ports[0].protocol == "TCP"


@pytest.mark.parametrize(
    ("spec", "causes"),
    [
        ({"replicas": 11}, [("spec.replicas", "Invalid value: 11: spec.replicas in body should be less than or equal to 10")]),
        ({"size": "big"},
         [("spec.size", "Invalid value: \"big\": spec.size in body should match '^[0-9]+(Ki|Mi|Gi)$'")]),
        ({"ownerEmail": "nobody"}, [("spec", "Invalid value: ownerEmail must contain @")]),
        ({"window": {"min": 3, "max": 1}}, [("spec.window", "Invalid value: min must not exceed max")]),
        # A schema error stops the CEL rules of the object (the apiserver says so in a second cause).
        ({"mode": "Slow"}, [("<nil>", "Invalid value: null: some validation rules were not checked because the object "
                                      "was invalid; correct the existing errors to complete validation"),
                            ("spec.mode", "Unsupported value: \"Slow\": supported values: \"Fast\", \"Safe\"")]),
        ({"ports": [{"name": "a", "port": 1}, {"name": "a", "port": 2}]},
         [("spec.ports[1]", "Duplicate value: {\"name\":\"a\"}")]),
    ],
    ids=["maximum", "pattern", "cel-field", "cel-type", "enum", "list-map-key"],
)
def test_violation_is_rejected_with_the_apiservers_message(
    installed: dict[str, dict[str, Any]], admin: httpx.Client, namespace: str,
    spec: dict[str, Any], causes: list[tuple[str, str]],
) -> None:
    obj = {"apiVersion": f"{widgets.GROUP}/v1", "kind": "Widget", "metadata": {"name": f"bad-{uuid.uuid4().hex[:6]}"},
           "spec": {"size": "1Gi", **spec}}
    assert _causes(_create(admin, namespace, obj)) == causes


def test_one_object_breaking_min_max_pattern_and_cel_gets_every_message(
    installed: dict[str, dict[str, Any]], admin: httpx.Client, namespace: str
) -> None:
    response = _create(admin, namespace, _widget("bad-all", replicas=-1, size="big", owner_email="nobody"))
    messages = "\n".join(m for _, m in _causes(response))
    assert "spec.replicas in body should be greater than or equal to 0" in messages
    assert "spec.size in body should match '^[0-9]+(Ki|Mi|Gi)$'" in messages
    assert "ownerEmail must contain @" in messages


def test_resource_level_cel_rule_on_metadata(
    installed: dict[str, dict[str, Any]], admin: httpx.Client, namespace: str
) -> None:
    response = _create(admin, namespace, _widget("w" * 41))
    assert _causes(response) == [("<nil>", "Invalid value: name too long")]


def test_printer_columns_selectable_fields_and_scale_subresource_are_served(
    installed: dict[str, dict[str, Any]], admin: httpx.Client, namespace: str
) -> None:
    assert _create(admin, namespace, _widget("cols", replicas=3)).status_code == 201
    table = admin.get(WIDGETS.format(ns=namespace), headers={"Accept": "application/json;as=Table;v=v1;g=meta.k8s.io"})
    assert table.status_code == 200, table.text
    columns = [c["name"] for c in table.json()["columnDefinitions"]]
    assert columns == ["Name", "Replicas", "Size", "Age"]
    assert table.json()["rows"][0]["cells"][:2] == ["cols", 3]
    assert _create(admin, namespace, _widget("other", size="2Gi")).status_code == 201
    selected = admin.get(WIDGETS.format(ns=namespace), params={"fieldSelector": "spec.size=2Gi"})
    assert selected.status_code == 200, selected.text
    assert [i["metadata"]["name"] for i in selected.json()["items"]] == ["other"]
    scale = admin.get(WIDGETS.format(ns=namespace) + "/cols/scale")
    assert scale.status_code == 200, scale.text
    assert scale.json()["spec"]["replicas"] == 3


def test_two_version_crd_serves_both_versions(installed: dict[str, dict[str, Any]], admin: httpx.Client) -> None:
    name = f"g-{uuid.uuid4().hex[:6]}"
    created = admin.post(f"/apis/{gadgets.GROUP}/v1/gadgets", json={
        "apiVersion": f"{gadgets.GROUP}/v1", "kind": "Gadget", "metadata": {"name": name}, "spec": {"color": "red"}})
    assert created.status_code == 201, created.text
    assert created.json()["spec"] == {"color": "red", "count": 1}
    read = admin.get(f"/apis/{gadgets.GROUP}/v2/gadgets/{name}")
    assert read.status_code == 200, read.text
    assert read.json()["apiVersion"] == f"{gadgets.GROUP}/v2"
    admin.delete(f"/apis/{gadgets.GROUP}/v1/gadgets/{name}")
