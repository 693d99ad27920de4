"""Apply configurations (generator/applyconfigs.py, runtime/apimachinery/apply.py): one all-optional
twin per model class, client-go's applyconfigurations; inert whatever a schema says."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path
from typing import Any

import msgspec
import pytest

from kgen.generator.applyconfigs import _retype
from kgen.kubernetes.applyconfigurations.apps.v1 import (
    DeploymentApplyConfiguration,
    DeploymentSpecApplyConfiguration,
)
from kgen.kubernetes.applyconfigurations.core.v1 import ConfigMapApplyConfiguration
from kgen.kubernetes.applyconfigurations.meta.v1 import ObjectMetaApplyConfiguration
from kgen.kubernetes.models.apps.v1 import Deployment
from kgen.kubernetes.models.core.v1 import ConfigMap
from tests.unit.test_generator_security import (  # the hostile corpus and its statement checks
    _IMPORTS,
    _TYPE_NAMES,
    Generated,
    _check_class_constant,
    _check_field,
    _is_docstring,
    hostile,  # noqa: F401  (a fixture)
)

REPO = Path(__file__).resolve().parents[2]
STOCK = REPO / "generated" / "kubernetes"

# -- what the generated modules may hold ---------------------------------------------------

_APPLY_IMPORTS = {
    "__future__": {"annotations"},
    "typing": {"Any", "Literal", "TYPE_CHECKING"},
    "kgen.runtime.apimachinery": {"ApplyConfiguration"} | (_IMPORTS["kgen.runtime.apimachinery"] - {"Model"}),
}


def _check_apply_module(tree: ast.Module, where: str) -> None:
    """Imports, one ``if TYPE_CHECKING:`` import of the models module, re-exports of shared
    classes (``XApplyConfiguration = alias.XApplyConfiguration``) and classes whose only base is
    ``ApplyConfiguration["models.<Class>"]`` holding a docstring, TypeMeta constants and
    optional fields."""
    assert tree.body and _is_docstring(tree.body[0]), f"{where}: no module docstring"
    aliases: set[str] = set()
    classes = {stmt.name for stmt in tree.body if isinstance(stmt, ast.ClassDef)}
    for stmt in tree.body[1:]:
        if isinstance(stmt, ast.Import):
            assert [(a.name, a.asname) for a in stmt.names] == [("builtins", None)], f"{where}: {ast.dump(stmt)}"
        elif isinstance(stmt, ast.ImportFrom) and stmt.level == 0:
            allowed = _APPLY_IMPORTS.get(stmt.module or "")
            assert allowed is not None, f"{where}: import from {stmt.module}"
            assert all(a.name in allowed and a.asname is None for a in stmt.names), f"{where}: {ast.dump(stmt)}"
        elif isinstance(stmt, ast.ImportFrom):
            assert stmt.level == 2 and stmt.module and stmt.module.isidentifier(), f"{where}: {ast.dump(stmt)}"
            assert len(stmt.names) == 1 and stmt.names[0].asname, f"{where}: {ast.dump(stmt)}"
            aliases.add(stmt.names[0].asname)
        elif isinstance(stmt, ast.If):
            assert ast.unparse(stmt.test) == "TYPE_CHECKING" and not stmt.orelse, where
            [only] = stmt.body
            assert isinstance(only, ast.ImportFrom) and only.level == 3, f"{where}: {ast.dump(only)}"
            assert (only.module or "").startswith("models.") and only.names[0].asname == "models", where
        elif isinstance(stmt, ast.Assign):
            [target] = stmt.targets
            assert isinstance(target, ast.Name) and target.id.endswith("ApplyConfiguration"), where
            value = stmt.value
            if isinstance(value, ast.Attribute):  # a shared class's re-export, or a kind's spec/status
                assert isinstance(value.value, ast.Name) and value.value.id in aliases, where
                reexport = value.attr == target.id
            else:  # a kind's spec/status under the name a user would guess (IssuerSpecApplyConfiguration)
                assert isinstance(value, ast.Name) and value.id in classes, where
                reexport = False
            assert reexport or target.id.endswith(("SpecApplyConfiguration", "StatusApplyConfiguration")), where
            classes.add(target.id)
        elif not isinstance(stmt, ast.ClassDef):
            raise AssertionError(f"{where}: unexpected statement {ast.dump(stmt)[:200]}")
    for stmt in tree.body:
        if not isinstance(stmt, ast.ClassDef):
            continue
        at = f"{where}: class {stmt.name}"
        [base] = stmt.bases
        assert isinstance(base, ast.Subscript) and ast.unparse(base.value) == "ApplyConfiguration", at
        model = base.slice
        assert isinstance(model, ast.Constant) and isinstance(model.value, str), at
        assert model.value == "models." + stmt.name.removesuffix("ApplyConfiguration"), at
        assert [(k.arg, ast.unparse(k.value)) for k in stmt.keywords] == [("kw_only", "True")], at
        assert not stmt.decorator_list and not getattr(stmt, "type_params", []), at
        for item in stmt.body:
            if _is_docstring(item):
                continue
            if isinstance(item, ast.Assign):
                [target] = item.targets
                assert isinstance(target, ast.Name), at
                if target.id == "ATOMIC":
                    assert isinstance(item.value, ast.Constant) and item.value.value is True, at
                elif target.id == "ATOMIC_FIELDS":
                    assert isinstance(item.value, ast.Tuple), at
                    assert all(isinstance(e, ast.Constant) and isinstance(e.value, str) for e in item.value.elts), at
                else:
                    _check_class_constant(item, at)
                    assert target.id in ("API_VERSION", "KIND"), at
                continue
            assert isinstance(item, ast.AnnAssign), f"{at}: unexpected statement {ast.dump(item)[:200]}"
            assert item.value is not None, f"{at}: a required field"  # every field optional
            _check_field(item, _TYPE_NAMES | classes, aliases, at)


def _apply_modules(gen: Generated) -> list[Path]:
    return sorted(p for p in (gen.folder / "applyconfigurations").rglob("*.py") if p.name != "__init__.py")


def test_hostile_apply_configurations_hold_only_the_statement_forms_the_template_emits(hostile: Generated) -> None:  # noqa: F811
    modules = _apply_modules(hostile)
    assert len(modules) >= 3  # the corpus's group-versions and meta/v1
    for path in modules:
        source = path.read_text()
        _check_apply_module(ast.parse(source), str(path.relative_to(hostile.out)))
        assert "PWNED" not in "".join(ast.unparse(n) for n in ast.walk(ast.parse(source)) if isinstance(n, ast.Name))


@pytest.mark.parametrize(
    "planted",
    [
        'import os\nos.system("touch PWNED")\n',
        "class FooApplyConfiguration(ApplyConfiguration['models.Foo'], kw_only=True):\n    x: int\n",
        "class FooApplyConfiguration(Model, kw_only=True):\n    x: int | None = None\n",
        "class FooApplyConfiguration(ApplyConfiguration['os.system'], kw_only=True):\n    pass\n",
        "class FooApplyConfiguration(ApplyConfiguration['models.Foo'], kw_only=True):\n    ATOMIC = exec('x')\n",
    ],
    ids=["a call", "a required field", "another base", "another model", "a computed constant"],
)
def test_the_apply_statement_check_sees_planted_code(planted: str) -> None:
    stock = (STOCK / "applyconfigurations" / "apps" / "v1.py").read_text()
    _check_apply_module(ast.parse(stock), "stock")  # the stock module passes
    with pytest.raises(AssertionError):
        _check_apply_module(ast.parse(stock + "\n\n" + planted), "planted")


# -- the generator's retyping of annotations -----------------------------------------------


@pytest.mark.parametrize(
    ("model", "apply"),
    [
        ("DeploymentSpec", "DeploymentSpecApplyConfiguration"),
        ("list[corev1.Container]", "list[corev1.ContainerApplyConfiguration]"),
        ("dict[str, metav1.Time | None]", "dict[str, metav1.Time | None]"),
        ('Literal["DeploymentSpec"] | str', 'Literal["DeploymentSpec"] | str'),
        ("builtins.list[DeploymentSpec]", "builtins.list[DeploymentSpecApplyConfiguration]"),
        ("dict[str, list[corev1.Other]]", "dict[str, list[corev1.Other]]"),
        ("IntOrString", "IntOrString"),
    ],
)
def test_model_classes_in_an_annotation_become_apply_configurations(model: str, apply: str) -> None:
    own = {"DeploymentSpec"}
    imported = {"corev1": {"Container"}, "metav1": {"ObjectMeta"}}
    assert _retype(model, own, imported) == apply


# -- the stock package: one twin per model class ------------------------------------------


def _struct_fields(cls: type) -> dict[str, msgspec.inspect.Field]:
    info = msgspec.inspect.type_info(cls)
    assert isinstance(info, msgspec.inspect.StructType)
    return {f.encode_name: f for f in info.fields}


def test_every_model_class_but_list_types_has_an_all_optional_twin_with_the_same_wire_names() -> None:
    import importlib

    counted = listed = 0
    for path in sorted((STOCK / "models").glob("*/*.py")):
        if path.name == "__init__.py":
            continue
        dotted = f"{path.parent.name}.{path.stem}"
        models = importlib.import_module(f"kgen.kubernetes.models.{dotted}")
        applies = importlib.import_module(f"kgen.kubernetes.applyconfigurations.{dotted}")
        kinds = {c.KIND for c in vars(models).values() if isinstance(c, type) and c.__module__ == models.__name__}
        for name, cls in vars(models).items():
            if not (isinstance(cls, type) and cls.__module__ == models.__name__):
                continue
            twin = getattr(applies, name + "ApplyConfiguration", None)
            if cls.KIND and cls.KIND.endswith("List") and cls.KIND[:-4] in kinds:
                assert twin is None, f"{dotted}.{name}: a list type has no apply configuration"
                listed += 1
                continue
            assert twin is not None, f"{dotted}.{name} has no apply configuration"
            fields = _struct_fields(twin)
            assert fields.keys() == _struct_fields(cls).keys(), f"{dotted}.{name}"
            assert all(f.default is None and not f.required for f in fields.values()), f"{dotted}.{name}"
            assert (twin.API_VERSION, twin.KIND) == (cls.API_VERSION, cls.KIND)
            counted += 1
    assert counted > 500 and listed > 50, (counted, listed)  # 538 and 65 for Kubernetes 1.37


# -- the runtime base ----------------------------------------------------------------------


def test_a_kinds_constructor_sets_typemeta_and_sends_only_what_was_set() -> None:
    d = DeploymentApplyConfiguration(
        metadata=ObjectMetaApplyConfiguration(name="web", namespace="ns"),
        spec=DeploymentSpecApplyConfiguration(replicas=3),
    )
    assert (d.api_version, d.kind) == ("apps/v1", "Deployment")
    assert d.to_dict() == {
        "apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {"name": "web", "namespace": "ns"}, "spec": {"replicas": 3},
    }
    assert DeploymentSpecApplyConfiguration().to_dict() == {}  # nested types carry no TypeMeta


def test_from_dict_reads_a_manifest_and_keeps_fields_this_code_does_not_know() -> None:
    manifest = {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web"},
                "spec": {"replicas": 2, "futureField": {"x": 1}}}
    d = DeploymentApplyConfiguration.from_dict(manifest)
    assert d.spec is not None and d.spec.replicas == 2
    assert d.to_dict() == manifest


def _live(managed: list[dict[str, Any]]) -> Deployment:
    return Deployment.from_dict({
        "apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {"name": "web", "namespace": "ns", "uid": "u", "resourceVersion": "7", "managedFields": managed},
        "spec": {
            "replicas": 3, "paused": False,
            "selector": {"matchLabels": {"app": "web"}},
            "template": {
                "metadata": {"labels": {"app": "web"}},
                "spec": {"containers": [{"name": "app", "image": "nginx", "ports": [{"containerPort": 80}]},
                                        {"name": "side", "image": "busybox"}]},
            },
        },
        "status": {"replicas": 3},
    })


_FIELDS = {
    "f:spec": {
        "f:replicas": {},
        "f:template": {"f:spec": {"f:containers": {'k:{"name":"app"}': {".": {}, "f:name": {}, "f:image": {}}}}},
    }
}


def test_extract_keeps_what_the_manager_applied_and_nothing_else() -> None:
    live = _live([
        {"manager": "me", "operation": "Apply", "apiVersion": "apps/v1", "fieldsType": "FieldsV1", "fieldsV1": _FIELDS},
        {"manager": "me", "operation": "Update", "apiVersion": "apps/v1", "fieldsType": "FieldsV1",
         "fieldsV1": {"f:spec": {"f:paused": {}}}},
        {"manager": "other", "operation": "Apply", "apiVersion": "apps/v1", "fieldsType": "FieldsV1",
         "fieldsV1": {"f:spec": {"f:selector": {}}}},
    ])
    mine = DeploymentApplyConfiguration.extract(live, "me")
    assert mine.to_dict() == {
        "apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web", "namespace": "ns"},
        "spec": {"replicas": 3, "template": {"spec": {"containers": [{"name": "app", "image": "nginx"}]}}},
    }
    # A manager with no apply entry (or another subresource's) extracts just the identity.
    nothing = {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web", "namespace": "ns"}}
    assert DeploymentApplyConfiguration.extract(live, "nobody").to_dict() == nothing
    assert DeploymentApplyConfiguration.extract(live, "me", subresource="status").to_dict() == nothing


def test_from_model_holds_every_field_but_managed_fields() -> None:
    live = _live([{"manager": "me", "operation": "Apply", "fieldsType": "FieldsV1", "fieldsV1": _FIELDS}])
    converted = DeploymentApplyConfiguration.from_model(live).to_dict()
    expected = live.to_dict()
    del expected["metadata"]["managedFields"]
    assert converted == expected
    cm = ConfigMapApplyConfiguration.from_model(ConfigMap(data={"k": "v"}))
    assert cm.to_dict() == {"apiVersion": "v1", "kind": "ConfigMap", "data": {"k": "v"}}


def test_importing_apply_configurations_imports_no_models_module() -> None:
    code = (
        "import sys, kgen.kubernetes.applyconfigurations.apps.v1\n"
        "print(sorted(m for m in sys.modules if m.startswith('kgen.kubernetes.models')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=REPO)
    assert out.stdout.strip() == "[]"


def test_extract_owns_atomic_types_and_fields_whole_and_granular_ones_by_their_fields() -> None:
    """client-go's ExtractDeployment on the same object (hack/oracle/extract, run by hand and by
    tests/integration/test_extract_oracle.py) gives exactly this: a granular map or struct owned
    as a node alone (labels, strategy) is left out unless empty (emptyDir, affinity); atomic ones
    (LabelSelector, PodSpec.nodeSelector) are kept whole."""
    live = Deployment.from_dict({
        "apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {"name": "w", "namespace": "n", "labels": {"a": "b"}, "managedFields": [{
            "manager": "m", "operation": "Apply", "apiVersion": "apps/v1", "fieldsType": "FieldsV1",
            "fieldsV1": {"f:metadata": {"f:labels": {}}, "f:spec": {"f:selector": {}, "f:strategy": {}, "f:template": {
                "f:spec": {"f:volumes": {'k:{"name":"v"}': {".": {}, "f:name": {}, "f:emptyDir": {}}},
                           "f:nodeSelector": {}, "f:affinity": {}}}}},
        }]},
        "spec": {"selector": {"matchLabels": {"a": "b"}}, "strategy": {"type": "Recreate"}, "template": {"spec": {
            "nodeSelector": {"x": "y"}, "affinity": {}, "volumes": [{"name": "v", "emptyDir": {}}],
            "containers": [{"name": "c", "image": "i"}]}}},
    })
    assert DeploymentApplyConfiguration.extract(live, "m").to_dict() == {
        "kind": "Deployment", "apiVersion": "apps/v1", "metadata": {"name": "w", "namespace": "n"},
        "spec": {"selector": {"matchLabels": {"a": "b"}}, "template": {"spec": {
            "volumes": [{"name": "v", "emptyDir": {}}], "nodeSelector": {"x": "y"}, "affinity": {}}}},
    }
