"""CRD subschemas that are stock Kubernetes types get the stock classes (generator/stock.py):
imported from kgen.kubernetes for a CRD-only package, the package's own with --from; a near
miss (a property more, fewer, of another type, a contradicting list type) stays a copy;
``--no-stock-types`` turns it off."""

from __future__ import annotations

import copy
import importlib
from pathlib import Path
from typing import Any

import pytest

from kgen.generator import build
from kgen.generator.cli import main as kgen
from kgen.generator.generate import Options, embedded_snapshot, load_sources
from kgen.generator.ir import Package
from kgen.generator.sources import snapshot_dir
from kgen.generator.stock import _choose
from kgen.runtime.apimachinery.mergeschema import merge_schema
from tests.support.packages import mypy_strict
from kgen.kubernetes.models.batch.v1 import JobTemplateSpec
from tests.unit.helpers import MODULE, crd, generate, imported, write_yaml

STOCK = snapshot_dir.load(embedded_snapshot()).definitions
META = "io.k8s.apimachinery.pkg.apis.meta.v1."
INT_OR_STRING = {"anyOf": [{"type": "integer"}, {"type": "string"}], "x-kubernetes-int-or-string": True}


def inline(name: str) -> dict[str, Any]:
    """The stock definition ``name`` inlined as controller-gen writes it into a CRD: every
    ``$ref`` expanded, an embedded ObjectMeta as ``{type: object}``, Quantity and IntOrString as
    int-or-string, Time as a date-time string; descriptions kept (they do not count)."""
    return _inline(STOCK[name].schema, "")


def _inline(schema: Any, wire: str) -> Any:
    if not isinstance(schema, dict):
        return schema
    if isinstance(schema.get("allOf"), list) and len(schema["allOf"]) == 1:
        schema = {**{k: v for k, v in schema.items() if k != "allOf"}, **schema["allOf"][0]}
    ref = schema.get("$ref")
    if isinstance(ref, str):
        name = ref.rsplit("/", 1)[-1]
        rest = {k: v for k, v in schema.items() if k != "$ref"}
        if name == META + "ObjectMeta" and wire == "metadata":
            return {"type": "object", **rest}
        if name.endswith(("resource.Quantity", "intstr.IntOrString")):
            return {**INT_OR_STRING, **rest}
        if name in (META + "Time", META + "MicroTime"):
            return {"type": "string", "format": "date-time", **rest}
        return _inline({**STOCK[name].schema, **rest}, wire)
    out = {k: v for k, v in schema.items() if not k.startswith("x-kubernetes-patch")}
    if isinstance(schema.get("properties"), dict):
        out["properties"] = {k: _inline(v, k) for k, v in schema["properties"].items()}
    for key in ("items", "additionalProperties"):
        if isinstance(schema.get(key), dict):
            out[key] = _inline(schema[key], wire)
    return out


def widget(**spec: Any) -> dict[str, Any]:
    return crd({"type": "object", "properties": {"spec": {"type": "object", "properties": spec}}})


def package(tmp_path: Path, *crds: dict[str, Any], stock_types: bool = True, sources: list[Path] | None = None) -> Package:
    files = [write_yaml(tmp_path / f"crd{i}.yaml", doc) for i, doc in enumerate(crds)]
    return build.build(load_sources(Options(crds=files, sources=sources or [], stock_types=stock_types)), "pkg")


def spec_fields(pkg: Package) -> dict[str, str]:
    module = next(m for m in pkg.modules if m.key == MODULE)
    spec = next(c for c in module.models if c.name == "WidgetSpec")
    return {f.wire_name: f.annotation for f in spec.fields}


def test_embedded_stock_types_are_the_stock_classes_imported_from_kgen_kubernetes(tmp_path: Path) -> None:
    pkg = package(tmp_path, widget(
        jobTemplate=inline("io.k8s.api.batch.v1.JobTemplateSpec"),
        template=inline("io.k8s.api.core.v1.PodTemplateSpec"),
        sidecars={"type": "array", "items": inline("io.k8s.api.core.v1.Container")},
        conditions={"type": "array", "items": inline(META + "Condition")},
    ))
    assert spec_fields(pkg) == {
        "jobTemplate": "k8s_batchv1.JobTemplateSpec",
        "template": "k8s_corev1.PodTemplateSpec",
        "sidecars": "list[k8s_corev1.Container]",
        "conditions": "list[metav1.Condition]",  # meta/v1 is the package's own
    }
    module = next(m for m in pkg.modules if m.key == MODULE)
    assert module.stock_imports == {"k8s_batchv1": "batch.v1", "k8s_corev1": "core.v1"}
    # No copy of anything under them: the kind, its spec, its list.
    assert sorted(c.name for c in module.models) == ["Widget", "WidgetList", "WidgetSpec"]


def test_without_stock_types_every_embedded_object_is_a_copy(tmp_path: Path) -> None:
    pkg = package(tmp_path, widget(jobTemplate=inline("io.k8s.api.batch.v1.JobTemplateSpec")), stock_types=False)
    assert spec_fields(pkg)["jobTemplate"] == "JobTemplate"
    module = next(m for m in pkg.modules if m.key == MODULE)
    assert not module.stock_imports and len(module.models) > 50  # Containers, Env, Probe...


@pytest.mark.parametrize("change", ["removed", "added", "retyped", "list type"])
def test_a_near_miss_stays_a_copy(tmp_path: Path, change: str) -> None:
    container = inline("io.k8s.api.core.v1.Container")
    if change == "removed":
        del container["properties"]["stdin"]  # an older Kubernetes' Container, say
    elif change == "added":
        container["properties"]["sidecarMode"] = {"type": "string"}
    elif change == "retyped":
        container["properties"]["stdin"] = {"type": "string"}
    else:
        container["properties"]["ports"]["x-kubernetes-list-type"] = "atomic"  # stock: map
    pkg = package(tmp_path, widget(main=container, template=inline("io.k8s.api.core.v1.PodTemplateSpec")))
    fields = spec_fields(pkg)
    assert fields["main"] == "Main"  # a class of the package
    assert fields["template"] == "k8s_corev1.PodTemplateSpec"  # the untouched neighbour still matches


def test_tiny_and_ambiguous_objects_are_not_matched(tmp_path: Path) -> None:
    pkg = package(tmp_path, widget(
        local=inline("io.k8s.api.core.v1.LocalObjectReference"),  # one property
        configMapKeyRef=inline("io.k8s.api.core.v1.ConfigMapKeySelector"),  # = SecretKeySelector
        secretKeyRef=inline("io.k8s.api.core.v1.SecretKeySelector"),
    ))
    fields = spec_fields(pkg)
    assert fields["local"] == "Local" and fields["configMapKeyRef"] == "ConfigMapKeyRef"
    assert fields["secretKeyRef"] == "SecretKeyRef"  # a copy too: its name fits neither selector


def test_several_candidates_the_name_decides_else_the_most_stable_version() -> None:
    condition = ["io.k8s.api.autoscaling.v2.HorizontalPodAutoscalerCondition", META + "Condition"]
    assert _choose(condition, "conditions") == META + "Condition"
    assert _choose(condition, "status") is None
    reference = ["io.k8s.api.autoscaling.v1.CrossVersionObjectReference",
                 "io.k8s.api.autoscaling.v2.CrossVersionObjectReference"]
    assert _choose(reference, "scaleTargetRef") == "io.k8s.api.autoscaling.v2.CrossVersionObjectReference"
    assert _choose(["io.k8s.api.core.v1.ConfigMapKeySelector", "io.k8s.api.core.v1.SecretKeySelector"], "key") is None


def test_with_the_built_in_groups_in_the_package_its_own_classes_are_used(tmp_path: Path) -> None:
    pkg = package(tmp_path, widget(jobTemplate=inline("io.k8s.api.batch.v1.JobTemplateSpec")),
                  sources=[embedded_snapshot()])
    assert spec_fields(pkg)["jobTemplate"] == "batchv1.JobTemplateSpec"
    module = next(m for m in pkg.modules if m.key == MODULE)
    assert module.imports["batchv1"] == "batch.v1" and not module.stock_imports


def test_every_stock_class_named_is_one_kgen_kubernetes_has() -> None:
    classes = build.stock_classes(snapshot_dir.load(embedded_snapshot()))
    assert len(classes) > 500
    for name, found in classes.items():
        module = importlib.import_module(f"kgen.kubernetes.models.{found.module}")
        assert getattr(module, found.name).__name__ == found.name, name


def test_generated_package_round_trips_type_checks_and_merges_through_the_stock_schema(tmp_path: Path) -> None:
    doc = widget(jobTemplate=inline("io.k8s.api.batch.v1.JobTemplateSpec"))
    gen = generate(tmp_path / "out", "--crd", str(write_yaml(tmp_path / "crd.yaml", doc)))
    assert "from kgen.kubernetes.models.batch import v1 as k8s_batchv1" in gen.source()
    obj = {
        "apiVersion": "widgets.example.io/v1", "kind": "Widget", "metadata": {"name": "w"},
        "spec": {"jobTemplate": {
            "metadata": {"labels": {"app": "w"}},
            "spec": {"backoffLimit": 2, "futureField": {"x": 1}, "template": {"spec": {
                "containers": [{"name": "c", "image": "busybox", "resources": {"limits": {"cpu": "1"}}}]}}},
        }},
    }
    with imported(gen) as loader:
        loaded = loader.models().Widget.from_dict(copy.deepcopy(obj))
        assert isinstance(loaded.spec.job_template, JobTemplateSpec)
        assert loaded.to_dict() == obj
        schema = merge_schema(gen.name).schema_for("widgets.example.io/v1", "Widget")
        assert schema is not None
        template = schema.child("spec")
        for step in ("jobTemplate", "spec", "template", "spec"):
            assert template is not None
            template = template.child(step)
        assert template is not None and template.ref == "core.v1.PodSpec"  # the stock package's data
        containers = template.field("containers")
        assert containers is not None and containers.list_type == "map" and containers.patch_merge_key == "name"
    checked = mypy_strict(tmp_path, gen.folder)
    assert checked.returncode == 0, checked.stdout[-3000:]


def test_cli_no_stock_types_flag(tmp_path: Path) -> None:
    doc = write_yaml(tmp_path / "crd.yaml", widget(jobTemplate=inline("io.k8s.api.batch.v1.JobTemplateSpec")))
    for flag, expected in (([], True), (["--no-stock-types"], False)):
        out = tmp_path / ("on" if expected else "off")
        assert kgen(["generate", "--crd", str(doc), "--out", str(out), "--package", "pkg", *flag]) == 0
        source = (out / "pkg" / "models" / MODULE[0] / "v1.py").read_text()
        assert ("kgen.kubernetes.models.batch" in source) is expected
