"""`kgen manifests`: the CRD object around the schemas, and the files, as controller-gen writes them.

One CRD per group-kind named ``<plural>.<group>``, versions sorted by name with their own schema,
printer columns and subresources, exactly one storage version, and one file per CRD named
``<group>_<plural>.yaml`` starting with ``---``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from kgen.generator.cli import main as kgen
from kgen.generator.manifests.crd import VERSION_ANNOTATION, plural_of
from kgen.generator.manifests.output import render

MODULES = ["--module", "tests.support.manifests.widgets", "--module", "tests.support.manifests.gadgets"]


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("crds")
    assert kgen(["manifests", "--allow-dangerous-types", *MODULES, "--out", str(out)]) == 0
    return out


def _load(path: Path) -> dict[str, Any]:
    text = path.read_text()
    assert text.startswith("---\n")
    doc: dict[str, Any] = yaml.safe_load(text)
    return doc


def test_one_file_per_group_kind_named_group_underscore_plural(written: Path) -> None:
    assert sorted(p.name for p in written.iterdir()) == [
        "gadgets.manifests.kgen.test_gadgets.yaml",
        "widgets.manifests.kgen.test_widgets.yaml",
    ]


def test_widget_crd_names_scope_columns_and_subresources(written: Path) -> None:
    crd = _load(written / "widgets.manifests.kgen.test_widgets.yaml")
    assert crd["apiVersion"] == "apiextensions.k8s.io/v1"
    assert crd["kind"] == "CustomResourceDefinition"
    assert crd["metadata"]["name"] == "widgets.widgets.manifests.kgen.test"
    assert set(crd["metadata"]["annotations"]) == {VERSION_ANNOTATION}
    spec = crd["spec"]
    assert spec["group"] == "widgets.manifests.kgen.test"
    assert spec["names"] == {"categories": ["all"], "kind": "Widget", "listKind": "WidgetList", "plural": "widgets",
                             "shortNames": ["wd"], "singular": "widget"}
    assert spec["scope"] == "Namespaced"
    (version,) = spec["versions"]
    assert (version["name"], version["served"], version["storage"]) == ("v1", True, True)
    assert version["additionalPrinterColumns"] == [
        {"jsonPath": ".spec.replicas", "name": "Replicas", "type": "integer"},
        {"description": "The size asked for", "jsonPath": ".spec.size", "name": "Size", "priority": 1, "type": "string"},
        {"jsonPath": ".metadata.creationTimestamp", "name": "Age", "type": "date"},
    ]
    assert version["selectableFields"] == [{"jsonPath": ".spec.size"}]
    assert version["subresources"] == {
        "scale": {"labelSelectorPath": ".status.selector", "specReplicasPath": ".spec.replicas",
                  "statusReplicasPath": ".status.replicas"},
        "status": {},
    }


def test_two_versions_sorted_one_storage_each_its_own_schema(written: Path) -> None:
    crd = _load(written / "gadgets.manifests.kgen.test_gadgets.yaml")
    assert crd["metadata"]["name"] == "gadgets.gadgets.manifests.kgen.test"
    assert crd["spec"]["scope"] == "Cluster"
    assert crd["spec"]["names"] == {"kind": "Gadget", "listKind": "GadgetList", "plural": "gadgets", "singular": "gadget"}
    v1, v2 = crd["spec"]["versions"]
    assert (v1["name"], v1["served"], v1["storage"]) == ("v1", True, True)
    assert (v2["name"], v2["served"], v2["storage"]) == ("v2", True, False)
    spec1 = v1["schema"]["openAPIV3Schema"]["properties"]["spec"]
    spec2 = v2["schema"]["openAPIV3Schema"]["properties"]["spec"]
    assert spec1 == {"properties": {"color": {"type": "string"},
                                    "count": {"default": 1, "format": "int64", "minimum": 1, "type": "integer"}},
                     "required": ["color"], "type": "object"}
    assert sorted(spec2["properties"]) == ["colour", "count", "shiny"]
    assert spec2["required"] == ["colour"]
    assert "subresources" not in v1 and "additionalPrinterColumns" not in v1


def test_multi_line_descriptions_are_literal_blocks_as_controller_gen_prints_them() -> None:
    text = render({"description": "line one\nline two", "type": "object"})
    assert text == "---\ndescription: |-\n  line one\n  line two\ntype: object\n"


def test_rerun_replaces_files_whole_and_leaves_no_temporary_file(written: Path, tmp_path: Path) -> None:
    out = tmp_path / "crds"
    out.mkdir()
    stale = out / "widgets.manifests.kgen.test_widgets.yaml"
    stale.write_text("stale")
    assert kgen(["manifests", "--allow-dangerous-types", *MODULES, "--out", str(out)]) == 0
    assert stale.read_text() == (written / stale.name).read_text()
    assert sorted(p.name for p in out.iterdir()) == sorted(p.name for p in written.iterdir())
    assert all(p.stat().st_mode & 0o777 == 0o644 for p in out.iterdir())


@pytest.mark.parametrize(("kind", "plural"), [("Widget", "widgets"), ("Class", "classes"), ("Box", "boxes"),
                                              ("Policy", "policies"), ("Gateway", "gateways"), ("Patch", "patches")])
def test_default_plural_follows_english_rules(kind: str, plural: str) -> None:
    assert plural_of(kind) == plural


def test_version_flags_deprecation_and_unserved_versions() -> None:
    from kgen.generator.manifests.crd import Options, Root, build_crds
    from kgen.runtime.apimachinery.markers import ResourceMarkers
    from tests.support.manifests.gadgets import GadgetV1, GadgetV2

    g = "flags.manifests.kgen.test"
    roots = [Root(GadgetV1, ResourceMarkers(group=g, version="v1", kind="Gadget", storage=True, served=False)),
             Root(GadgetV2, ResourceMarkers(group=g, version="v2", kind="Gadget", deprecated=True,
                                            deprecation_warning="use v3"))]
    (crd,) = build_crds(roots, "test", Options(allow_dangerous_types=True)).values()
    v1, v2 = crd["spec"]["versions"]
    assert (v1["served"], v1["storage"], "deprecated" in v1) == (False, True, False)
    assert (v2["served"], v2["storage"], v2["deprecated"], v2["deprecationWarning"]) == (True, False, True, "use v3")


def test_check_reports_drift_without_writing(written: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "crds"
    assert kgen(["manifests", "--allow-dangerous-types", *MODULES, "--out", str(out)]) == 0
    assert kgen(["manifests", "--allow-dangerous-types", *MODULES, "--out", str(out), "--check"]) == 0
    assert capsys.readouterr().out.endswith(f"{out} is up to date\n")
    (out / "gadgets.manifests.kgen.test_gadgets.yaml").write_text("changed")
    (out / "widgets.manifests.kgen.test_widgets.yaml").unlink()
    assert kgen(["manifests", "--allow-dangerous-types", *MODULES, "--out", str(out), "--check"]) == 1
    assert capsys.readouterr().err == (
        f"kgen manifests --check: {out} is out of date (2 files):\n"
        "  differs: gadgets.manifests.kgen.test_gadgets.yaml\n"
        "  missing: widgets.manifests.kgen.test_widgets.yaml\n"
    )
    assert (out / "gadgets.manifests.kgen.test_gadgets.yaml").read_text() == "changed"
