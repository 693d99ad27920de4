"""Issue 35 item 17: a multi-version CRD's updates are validated as the apiserver validates them.

The CRD: v1 (storage) and v2 (served), conversion None. v2 requires ``spec.a`` and has a field
``b`` with a default that v1 lacks; v1 has ``only1``, which v2 lacks; both default ``x`` (to
different values). An object is stored through v1 without ``a``. The apiserver, measured here
first (the stored object read back in each version), then every write below as a server-side
dry-run, against kgen's ``validate`` (on a package ``kgen generate --crd`` made of the CRD) and
``validate_against`` (``kgen validate --crd``'s path) given the stored object as the update's old
side, as a client holds it: in the version it reads it in, or in the storage version.

The point of the case: a labels-only update through v2 is refused with ``spec.a: Required value``,
because the stored object read in v2 is pruned and defaulted as v1 and pruned as v2, never
defaulted as v2, so the update (which v2 defaults) changes ``spec`` and nothing ratchets.
"""

from __future__ import annotations

import copy
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
import yaml

from kgen.runtime.apimachinery.validation import FieldValidation, validate, validate_against
from tests.unit.helpers import generate, imported

GROUP = "mv.example.com"


def _version(name: str, storage: bool, props: dict[str, Any], required: tuple[str, ...] = ()) -> dict[str, Any]:
    spec: dict[str, Any] = {"type": "object", "properties": props, **({"required": list(required)} if required else {})}
    return {"name": name, "served": True, "storage": storage,
            "schema": {"openAPIV3Schema": {"type": "object", "properties": {"spec": spec}}}}


CRD = {
    "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
    "metadata": {"name": f"things.{GROUP}"},
    "spec": {"group": GROUP, "scope": "Namespaced", "names": {"kind": "Thing", "plural": "things"},
             "conversion": {"strategy": "None"},
             "versions": [
                 _version("v1", True, {"a": {"type": "string"}, "x": {"type": "string", "default": "v1x"},
                                       "only1": {"type": "string"}}),
                 _version("v2", False, {"a": {"type": "string"}, "b": {"type": "string", "default": "v2b"},
                                        "x": {"type": "string", "default": "v2x"}}, required=("a",)),
             ]},
}


@pytest.fixture(scope="module")
def setting(kube_apiserver: Any, tmp_path_factory: pytest.TempPathFactory) -> Any:
    folder = tmp_path_factory.mktemp("multiversion")
    (folder / "crd.yaml").write_text(yaml.safe_dump(CRD))
    gen = generate(folder / "out", "--crd", str(folder / "crd.yaml"))
    with kube_apiserver.admin_client(timeout=30.0) as admin:
        resp = admin.post("/apis/apiextensions.k8s.io/v1/customresourcedefinitions", json=CRD)
        assert resp.status_code in (201, 409), resp.text
        deadline = time.monotonic() + 60
        for v in ("v1", "v2"):
            while admin.get(f"/apis/{GROUP}/{v}/namespaces/default/things").status_code != 200:
                assert time.monotonic() < deadline
                time.sleep(0.2)
        with imported(gen):
            yield admin, gen, folder / "crd.yaml"


def _path(version: str, name: str | None = None) -> str:
    return f"/apis/{GROUP}/{version}/namespaces/default/things" + (f"/{name}" if name else "")


def _server(admin: httpx.Client, method: str, version: str, obj: dict[str, Any], strict: bool) -> tuple[int, list[tuple[str, str]]]:
    name = obj["metadata"]["name"] if method == "PUT" else None
    params = {"dryRun": "All", **({"fieldValidation": "Strict"} if strict else {})}
    resp = admin.request(method, _path(version, name), params=params, json=obj)
    causes = (resp.json().get("details") or {}).get("causes") or [] if resp.status_code >= 400 else []
    return resp.status_code, sorted((c.get("field", ""), c.get("message", "")) for c in causes)


def _kgen(crd_file: Path, package: str, obj: dict[str, Any], old: dict[str, Any] | None,
          mode: FieldValidation) -> list[list[tuple[str, str]]]:
    """kgen's causes through validate() on the generated package and through kgen validate --crd's path."""
    from kgen.generator.sources import crd

    definitions = crd.load([crd_file]).definitions
    schema = definitions[f"com.example.mv.{obj['apiVersion'].split('/')[1]}.Thing"].schema

    def resolve(ref: str) -> dict[str, Any]:
        from kgen.runtime.apimachinery.validation.schemas import validation_schemas

        name = ref.rsplit("/", 1)[-1]
        return definitions[name].schema if name in definitions else validation_schemas("kgen.kubernetes").definition(name)

    answers = [validate(copy.deepcopy(obj), old=copy.deepcopy(old), package=package, field_validation=mode),
               validate_against(schema, copy.deepcopy(obj), old=copy.deepcopy(old), field_validation=mode, resolve=resolve)]
    return [sorted((e.field, e.message) for e in errors if e.type != "BadRequest") for errors in answers]


def test_the_stored_object_is_read_in_the_storage_versions_schema(setting: Any) -> None:
    """What the apiserver does, measured: defaults of the request version on create, the storage
    version's pruning on the way in, and on reading back the storage version's defaults, then the
    request version's pruning without its defaults."""
    admin, _, _ = setting
    body = {"apiVersion": f"{GROUP}/v1", "kind": "Thing", "metadata": {"name": "stored"}, "spec": {"only1": "o"}}
    assert admin.post(_path("v1"), json=body).status_code in (201, 409)
    assert admin.get(_path("v1", "stored")).json()["spec"] == {"only1": "o", "x": "v1x"}
    assert admin.get(_path("v2", "stored")).json()["spec"] == {"x": "v1x"}  # only1 pruned, b not defaulted


@pytest.mark.parametrize("strict", [False, True], ids=["Warn", "Strict"])
@pytest.mark.parametrize("held_in", ["v2", "v1"])
def test_updates_of_a_multi_version_crd_agree_with_the_apiserver(setting: Any, strict: bool, held_in: str) -> None:
    admin, gen, crd_file = setting
    body = {"apiVersion": f"{GROUP}/v1", "kind": "Thing", "metadata": {"name": "stored"}, "spec": {"only1": "o"}}
    assert admin.post(_path("v1"), json=body).status_code in (201, 409)
    mode: FieldValidation = "Strict" if strict else "Warn"
    # the stored object as the client holds it: read in v2, or in the storage version v1
    old = admin.get(_path(held_in, "stored")).json()
    cases: list[tuple[str, str, dict[str, Any]]] = []
    for version in ("v2", "v1"):
        current = admin.get(_path(version, "stored")).json()
        labelled = copy.deepcopy(current)
        labelled["metadata"]["labels"] = {"touched": "yes"}
        cases.append((f"labels-only in {version}", version, labelled))
        fixed = copy.deepcopy(current)
        fixed["spec"]["a"] = "now"
        cases.append((f"spec.a set in {version}", version, fixed))
        changed_x = copy.deepcopy(current)
        changed_x["spec"]["x"] = "other"
        cases.append((f"spec.x changed in {version}", version, changed_x))
    checked = 0
    for label, version, obj in cases:
        old_for = copy.deepcopy(old)
        code, causes = _server(admin, "PUT", version, obj, strict)
        for kgen_causes in _kgen(crd_file, gen.name, obj, old_for, mode):
            assert (code < 400) == (not kgen_causes), (label, code, causes, kgen_causes)
            assert kgen_causes == causes, (label, causes, kgen_causes)
            checked += 1
    refused = [label for label, version, obj in cases if _server(admin, "PUT", version, obj, strict)[0] >= 400]
    assert "labels-only in v2" in refused and "labels-only in v1" not in refused, refused
    assert checked == 12
