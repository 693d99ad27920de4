"""Bad input stops `kgen generate` with exit 2 and one line: the file, the JSON pointer, what was
expected; nothing is written. Also: `--check` reports drift, and generation is deterministic."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from kgen.generator.cli import main
from tests.unit.helpers import PREFIX, crd, generate, openapi_v3, unique_package, widget_document, write_json, write_yaml

WIDGET = f"{PREFIX}.Widget"
WIDGET_PTR = f"/components/schemas/{WIDGET}"


def _tree(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


class Failure:
    """Runs ``kgen generate`` expecting exit 2, and checks the one line it prints."""

    def __init__(self, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
        self.tmp_path = tmp_path
        self.capsys = capsys
        self.out = tmp_path / "out"
        self.package = unique_package()

    def __call__(
        self, *args: str, names: str | Path = "", pointer: str = "", expected: str = "", package: str | None = None,
        line: str | None = None,
    ) -> str:
        """Checks ``names: at pointer: ...expected...``, or with ``line`` the exact line."""
        before = _tree(self.tmp_path)
        code = main(["generate", "--out", str(self.out), "--package", self.package if package is None else package, *args])
        captured = self.capsys.readouterr()
        assert code == 2, captured.err
        assert captured.out == ""
        assert captured.err.endswith("\n") and len(captured.err.splitlines()) == 1, captured.err
        got = captured.err.rstrip("\n")
        if line is not None:
            assert got == line
        else:
            assert got.startswith("kgen generate: "), got
            assert f"{names}: at {pointer}: " in got, got
            assert expected in got.split(f"at {pointer}: ", 1)[1], got
        line = got
        assert "Traceback" not in line
        assert _tree(self.tmp_path) == before  # nothing written, nothing removed
        return line


@pytest.fixture
def fails(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Failure:
    return Failure(tmp_path, capsys)


def _widget_file(tmp_path: Path, schema: dict[str, Any], **extra: Any) -> Path:
    return write_json(tmp_path / "openapi.json", widget_document(schema, **extra))


def _with(schema_props: dict[str, Any]) -> dict[str, Any]:
    return {"type": "object", "properties": schema_props}


# -- the input files ------------------------------------------------------------------------------


def test_invalid_json(fails: Failure, tmp_path: Path) -> None:
    source = tmp_path / "openapi.json"
    source.write_text('{"openapi": "3.0.0",\n "components": {')
    fails("--from", str(source), line=f"kgen generate: {source}:2:17: could not parse JSON: Expecting property name enclosed in double quotes")


def test_invalid_yaml(fails: Failure, tmp_path: Path) -> None:
    source = tmp_path / "openapi.yaml"
    source.write_text("openapi: 3.0.0\ncomponents: [unclosed\n")
    fails("--from", str(source), line=f"kgen generate: {source}:3:1: could not parse YAML: expected ',' or ']', but got '<stream end>'")


def test_invalid_crd_yaml(fails: Failure, tmp_path: Path) -> None:
    source = tmp_path / "crd.yaml"
    source.write_text("apiVersion: apiextensions.k8s.io/v1\nkind: {CustomResourceDefinition\n")
    fails("--crd", str(source), line=f"kgen generate: {source}:3:1: could not parse YAML: expected ',' or '}}', but got '<stream end>'")


def test_json_that_is_not_an_openapi_document(fails: Failure, tmp_path: Path) -> None:
    source = write_json(tmp_path / "openapi.json", {"kind": "ConfigMap", "data": {}})
    fails(
        "--from", str(source),
        line=f"kgen generate: {source}: holds a ConfigMap, not an OpenAPI document "
        "(expected a top-level field 'openapi' for v3 or 'swagger' for v2)",
    )


def test_json_that_is_not_an_object(fails: Failure, tmp_path: Path) -> None:
    source = write_json(tmp_path / "openapi.json", ["openapi", "3.0.0"])
    fails("--from", str(source), line=f"kgen generate: {source}: holds a list (expected a mapping: an OpenAPI v3 or v2 document)")


def test_components_that_are_not_an_object(fails: Failure, tmp_path: Path) -> None:
    source = write_json(tmp_path / "openapi.json", {"openapi": "3.0.0", "components": ["schemas"]})
    fails("--from", str(source), names=source, pointer="/components", expected="an object")


def test_schemas_that_are_not_an_object(fails: Failure, tmp_path: Path) -> None:
    source = write_json(tmp_path / "openapi.json", {"swagger": "2.0", "definitions": [1]})
    fails("--from", str(source), names=source, pointer="/definitions", expected="an object mapping definition names")


def test_definition_that_is_not_an_object(fails: Failure, tmp_path: Path) -> None:
    source = write_json(tmp_path / "openapi.json", openapi_v3({WIDGET: "a string, not a schema"}))
    fails("--from", str(source), names=source, pointer=WIDGET_PTR, expected="a schema object")


def test_property_schema_that_is_not_an_object(fails: Failure, tmp_path: Path) -> None:
    source = _widget_file(tmp_path, _with({"size": 3}))
    fails("--from", str(source), names=source, pointer=f"{WIDGET_PTR}/properties/size", expected="a schema object")


def test_items_that_are_not_a_schema(fails: Failure, tmp_path: Path) -> None:
    source = _widget_file(tmp_path, _with({"sizes": {"type": "array", "items": 3}}))
    fails("--from", str(source), names=source, pointer=f"{WIDGET_PTR}/properties/sizes/items", expected="a schema object")


def test_additional_properties_that_are_not_a_schema_or_boolean(fails: Failure, tmp_path: Path) -> None:
    source = _widget_file(tmp_path, _with({"labels": {"type": "object", "additionalProperties": "yes"}}))
    fails(
        "--from", str(source), names=source, pointer=f"{WIDGET_PTR}/properties/labels/additionalProperties",
        expected="a schema object or a boolean",
    )


def test_non_local_ref(fails: Failure, tmp_path: Path) -> None:
    source = _widget_file(tmp_path, _with({"owner": {"$ref": "https://evil.example.com/schema.json#/Owner"}}))
    fails("--from", str(source), names=source, pointer=f"{WIDGET_PTR}/properties/owner/$ref", expected="a local $ref")


def test_dangling_ref(fails: Failure, tmp_path: Path) -> None:
    source = _widget_file(tmp_path, _with({"owner": {"$ref": f"#/components/schemas/{PREFIX}.Missing"}}))
    fails(
        "--from", str(source), names=source, pointer=f"{WIDGET_PTR}/properties/owner/$ref",
        expected=f"a definition named '{PREFIX}.Missing'",
    )


def test_dangling_ref_inside_all_of(fails: Failure, tmp_path: Path) -> None:
    source = _widget_file(tmp_path, _with({"owner": {"allOf": [{"$ref": "#/definitions/Missing"}], "description": "x"}}))
    fails("--from", str(source), names=source, pointer=f"{WIDGET_PTR}/properties/owner/$ref", expected="'Missing'")


def test_ref_that_is_not_a_string(fails: Failure, tmp_path: Path) -> None:
    source = _widget_file(tmp_path, _with({"owner": {"$ref": {"nested": True}}}))
    fails("--from", str(source), names=source, pointer=f"{WIDGET_PTR}/properties/owner/$ref", expected="a string")


def test_unknown_type(fails: Failure, tmp_path: Path) -> None:
    source = _widget_file(tmp_path, _with({"size": {"type": "integr"}}))
    fails(
        "--from", str(source), names=source, pointer=f"{WIDGET_PTR}/properties/size/type",
        expected="one of array, object, string, integer, number, boolean; got 'integr'",
    )


def test_unknown_type_in_a_referenced_definition_points_into_that_definition(fails: Failure, tmp_path: Path) -> None:
    source = write_json(
        tmp_path / "openapi.json",
        widget_document(
            _with({"size": {"$ref": f"#/components/schemas/{PREFIX}.Size"}}),
            **{f"{PREFIX}.Size": {"type": "decimal"}},
        ),
    )
    fails("--from", str(source), names=source, pointer=f"/components/schemas/{PREFIX}.Size/type", expected="'decimal'")


def test_pointer_escapes_slash_and_tilde_in_property_names(fails: Failure, tmp_path: Path) -> None:
    source = _widget_file(tmp_path, _with({"a/b~c": {"type": "bogus"}}))
    fails("--from", str(source), names=source, pointer=f"{WIDGET_PTR}/properties/a~1b~0c/type", expected="'bogus'")


def test_properties_not_a_mapping(fails: Failure, tmp_path: Path) -> None:
    source = _widget_file(tmp_path, {"type": "object", "properties": ["size", "color"]})
    fails("--from", str(source), names=source, pointer=f"{WIDGET_PTR}/properties", expected="an object mapping property names")


def test_nested_properties_not_a_mapping(fails: Failure, tmp_path: Path) -> None:
    source = _widget_file(tmp_path, _with({"spec": {"type": "object", "properties": "size"}}))
    fails(
        "--from", str(source), names=source, pointer=f"{WIDGET_PTR}/properties/spec/properties",
        expected="an object mapping property names",
    )


def test_required_not_a_list(fails: Failure, tmp_path: Path) -> None:
    source = _widget_file(tmp_path, {**_with({"size": {"type": "integer"}}), "required": "size"})
    fails("--from", str(source), names=source, pointer=f"{WIDGET_PTR}/required", expected="a list of property names")


def test_default_that_is_not_a_json_value(fails: Failure, tmp_path: Path) -> None:
    source = tmp_path / "openapi.json"
    source.write_text(json.dumps(widget_document(_with({"ratio": {"type": "number", "default": 0}}))).replace('"default": 0', '"default": 1e999'))
    fails("--from", str(source), names=source, pointer=f"{WIDGET_PTR}/properties/ratio/default", expected="a finite")


def test_group_version_kind_that_is_not_strings(fails: Failure, tmp_path: Path) -> None:
    doc = widget_document(_with({"size": {"type": "integer"}}))
    doc["components"]["schemas"][WIDGET]["x-kubernetes-group-version-kind"] = [{"group": "g", "version": 1, "kind": "W"}]
    source = write_json(tmp_path / "openapi.json", doc)
    fails(
        "--from", str(source), names=source, pointer=f"{WIDGET_PTR}/x-kubernetes-group-version-kind/0",
        expected="group, version and kind strings",
    )


def test_operation_with_malformed_action_facts(fails: Failure, tmp_path: Path) -> None:
    paths = {"/apis/widgets.example.io/v1/widgets": {"get": {"x-kubernetes-action": "list", "x-kubernetes-group-version-kind": "Widget"}}}
    doc = widget_document(_with({"size": {"type": "integer"}}))
    doc["paths"] = paths
    source = write_json(tmp_path / "openapi.json", doc)
    fails(
        "--from", str(source), names=source,
        pointer="/paths/~1apis~1widgets.example.io~1v1~1widgets/get/x-kubernetes-group-version-kind",
        expected="an object",
    )


# -- CRDs -----------------------------------------------------------------------------------------

_SCHEMA = {"type": "object", "properties": {"spec": {"type": "object", "properties": {"size": {"type": "integer"}}}}}


def _crd_file(tmp_path: Path, edit: Callable[[dict[str, Any]], None]) -> Path:
    doc = crd(_SCHEMA)
    edit(doc)
    return write_yaml(tmp_path / "crd.yaml", doc)


@pytest.mark.parametrize(
    ("edit", "pointer", "expected"),
    [
        (lambda d: d["spec"].pop("group"), "/spec/group", "missing (expected a string)"),
        (lambda d: d["spec"].__setitem__("group", ""), "/spec/group", "is empty (expected a non-empty string)"),
        (lambda d: d["spec"]["names"].pop("kind"), "/spec/names/kind", "missing (expected a string)"),
        (lambda d: d["spec"]["names"].pop("plural"), "/spec/names/plural", "missing (expected a string)"),
        (lambda d: d["spec"].pop("versions"), "/spec/versions", "missing (expected a list)"),
        (lambda d: d["spec"].__setitem__("versions", {"v1": {}}), "/spec/versions", "is a mapping (expected a list)"),
        (lambda d: d["spec"]["versions"][0].pop("name"), "/spec/versions/0/name", "missing (expected a string)"),
        (lambda d: d["spec"]["versions"][0]["schema"].pop("openAPIV3Schema"), "/spec/versions/0/schema/openAPIV3Schema", "missing (expected a mapping)"),
        (lambda d: d["spec"]["versions"][0].pop("schema"), "/spec/versions/0/schema", "missing (expected a mapping)"),
        (lambda d: d["spec"].__setitem__("scope", "Galaxy"), "/spec/scope", "is 'Galaxy' (expected Namespaced or Cluster)"),
        (lambda d: d.__setitem__("apiVersion", "apiextensions.k8s.io/v1beta1"), "/apiVersion",
            "is 'apiextensions.k8s.io/v1beta1' (expected apiextensions.k8s.io/v1; v1beta1 CRDs were removed in Kubernetes 1.22)"),
        (
            lambda d: d["spec"]["versions"][0]["schema"]["openAPIV3Schema"].__setitem__("properties", ["spec"]),
            "/spec/versions/0/schema/openAPIV3Schema/properties", "is a list (expected a mapping of property names to schemas)",
        ),
        (
            lambda d: d["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"].__setitem__("metadata", "meta"),
            "/spec/versions/0/schema/openAPIV3Schema/properties/metadata", "is a string (expected a schema, a mapping)",
        ),
        (
            lambda d: d["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"].__setitem__("type", "map"),
            "/spec/versions/0/schema/openAPIV3Schema/properties/spec/type", "got 'map'",
        ),
    ],
    ids=[
        "missing-group", "empty-group", "missing-kind", "missing-plural", "missing-versions", "versions-not-a-list",
        "missing-version-name", "missing-openAPIV3Schema", "missing-schema", "bad-scope", "v1beta1",
        "properties-not-a-mapping", "metadata-not-a-schema", "unknown-type",
    ],
)
def test_malformed_crd(fails: Failure, tmp_path: Path, edit: Callable[[dict[str, Any]], None], pointer: str, expected: str) -> None:
    source = _crd_file(tmp_path, edit)
    fails("--crd", str(source), names=source, pointer=pointer, expected=expected)


def test_malformed_crd_in_a_multi_document_file_names_the_document(fails: Failure, tmp_path: Path) -> None:
    bad = crd(_SCHEMA, kind="Gadget", plural="gadgets")
    del bad["spec"]["names"]["kind"]
    source = write_yaml(tmp_path / "crds.yaml", crd(_SCHEMA), bad)
    fails("--crd", str(source), line=f"kgen generate: {source} (document 2): at /spec/names/kind: missing (expected a string)")


def test_file_with_no_crd(fails: Failure, tmp_path: Path) -> None:
    source = write_yaml(tmp_path / "configmap.yaml", {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "x"}})
    fails(
        "--crd", str(source),
        line=f"kgen generate: {source}: holds no CustomResourceDefinition, only a ConfigMap "
        "(expected apiextensions.k8s.io/v1 CustomResourceDefinitions)",
    )


def test_folder_with_no_crd(fails: Failure, tmp_path: Path) -> None:
    folder = tmp_path / "crds"
    folder.mkdir()
    (folder / "README.md").write_text("no CRDs here\n")
    fails("--crd", str(folder), line=f"kgen generate: {folder}: is a folder with no .yaml, .yml or .json file (expected CRD files in it)")


# -- paths and options ----------------------------------------------------------------------------


def test_nonexistent_from_path(fails: Failure, tmp_path: Path) -> None:
    missing = tmp_path / "no-such-snapshot"
    fails("--from", str(missing), line=f"kgen generate: --from {missing}: no such file or folder (expected a snapshot folder or an OpenAPI file)")


def test_from_folder_that_is_not_a_snapshot(fails: Failure, tmp_path: Path) -> None:
    folder = tmp_path / "empty"
    folder.mkdir()
    fails(
        "--from", str(folder),
        line=f"kgen generate: {folder}: is a folder but not a snapshot (expected a snapshot folder holding openapi/v3/, as kgen snapshot writes)",
    )


def test_nonexistent_crd_path(fails: Failure, tmp_path: Path) -> None:
    missing = tmp_path / "no-such-crd.yaml"
    fails("--crd", str(missing), line=f"kgen generate: --crd {missing}: no such file or folder (expected a CRD file or a folder of them)")


def test_groups_naming_a_group_version_not_in_the_sources(fails: Failure, tmp_path: Path) -> None:
    source = _widget_file(tmp_path, _with({"size": {"type": "integer"}}))
    fails(
        "--from", str(source), "--groups", "widgets.example.io/v1,apps/v1",
        line="kgen generate: --groups: unknown group/version apps/v1 (expected one of widgets.example.io/v1)",
    )


@pytest.mark.parametrize("package", ["1abc", "my-package", "class", "a..b", "", "pkg.", "import.x", "a b"])
def test_invalid_package_name(fails: Failure, tmp_path: Path, package: str) -> None:
    source = _widget_file(tmp_path, _with({"size": {"type": "integer"}}))
    fails(
        "--from", str(source), package=package,
        line=f"kgen generate: --package: {package!r} is not a Python package name (expected dotted identifiers, none of them a Python keyword)",
    )


def test_out_target_not_generated_by_kgen_is_left_alone(fails: Failure, tmp_path: Path) -> None:
    source = _widget_file(tmp_path, _with({"size": {"type": "integer"}}))
    target = fails.out / fails.package
    (target / "sub").mkdir(parents=True)
    (target / "__init__.py").write_text("# my own package\nVALUE = 1\n")
    (target / "sub" / "data.txt").write_text("precious\n")
    fails(
        "--from", str(source),
        line=f"kgen generate: {target}: exists and was not generated by kgen (its __init__.py lacks kgen's header); "
        "refusing to replace it (expected a folder kgen generated, or nothing there)",
    )
    assert (target / "__init__.py").read_text() == "# my own package\nVALUE = 1\n"
    assert (target / "sub" / "data.txt").read_text() == "precious\n"
    assert sorted(p.name for p in fails.out.iterdir()) == [fails.package]  # no staging folder left behind


def test_out_target_that_is_a_file_is_left_alone(fails: Failure, tmp_path: Path) -> None:
    source = _widget_file(tmp_path, _with({"size": {"type": "integer"}}))
    fails.out.mkdir()
    target = fails.out / fails.package
    target.write_text("not a package\n")
    fails(
        "--from", str(source),
        line=f"kgen generate: {target}: is a file; refusing to replace it (expected a folder kgen generated, or nothing there)",
    )
    assert target.read_text() == "not a package\n"


def test_out_target_generated_by_kgen_is_replaced_whole(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = _widget_file(tmp_path, _with({"size": {"type": "integer"}}))
    gen = generate(tmp_path / "out", "--from", str(source))
    stale = gen.folder / "models" / "stale.py"
    stale.write_text("# left over\n")
    generate(tmp_path / "out", "--from", str(source), package=gen.name)
    assert not stale.exists()
    assert sorted(p.name for p in gen.out.iterdir()) == [gen.name]
    assert capsys.readouterr().out.strip().endswith(str(gen.folder))


# -- --check and determinism ----------------------------------------------------------------------


def test_check_exits_1_on_drift_and_0_when_up_to_date(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = _widget_file(tmp_path, _with({"size": {"type": "integer"}}))
    out, package = tmp_path / "out", unique_package()
    check = ["generate", "--from", str(source), "--out", str(out), "--package", package, "--check"]
    capsys.readouterr()

    assert main(check) == 1  # never generated
    assert capsys.readouterr().err == (
        f"kgen generate --check: {out / package} does not exist: nothing generated there yet (check --out and --package)\n"
    )
    assert not out.exists()  # --check writes nothing

    gen = generate(out, "--from", str(source), package=package)
    capsys.readouterr()
    assert main(check) == 0
    captured = capsys.readouterr()
    assert "is up to date" in captured.out and captured.err == ""

    module = gen.folder / "models" / "widgets_example_io" / "v1.py"
    module.write_text(module.read_text() + "# edited by hand\n")
    (gen.folder / "models" / "extra.py").write_text("")
    assert main(check) == 1
    err = capsys.readouterr().err
    assert "differs: models/widgets_example_io/v1.py" in err and "unexpected: models/extra.py" in err
    assert module.read_text().endswith("# edited by hand\n")  # --check changed nothing

    _widget_file(tmp_path, _with({"size": {"type": "integer"}, "color": {"type": "string"}}))  # same path, new schema
    (gen.folder / "models" / "extra.py").unlink()
    module.write_text(module.read_text().removesuffix("# edited by hand\n"))
    assert main(check) == 1  # the schema changed
    assert "differs: models/widgets_example_io/v1.py" in capsys.readouterr().err


def _rich_document() -> dict[str, Any]:
    props = {
        "zeta": {"type": "string", "enum": ["b", "a"], "default": "a"},
        "alpha": {"type": "object", "properties": {"y": {"type": "integer"}, "x": {"type": "string"}}},
        "natOutgoing": {"type": "boolean"},
        "nat-outgoing": {"type": "boolean"},
        "port": {"x-kubernetes-int-or-string": True},
        "items": {"type": "array", "items": {"$ref": f"#/components/schemas/{PREFIX}.Gadget"}},
        "labels": {"type": "object", "additionalProperties": {"type": "string"}},
    }
    return widget_document(
        {"type": "object", "description": "A widget.", "required": ["zeta"], "properties": props},
        **{f"{PREFIX}.Gadget": {"type": "object", "properties": {"b": {"type": "string"}, "a": {"type": "string"}}}},
    )


def _reversed(value: Any) -> Any:
    """The same JSON with every object's keys in reverse order."""
    if isinstance(value, dict):
        return {k: _reversed(value[k]) for k in reversed(list(value))}
    if isinstance(value, list):
        return [_reversed(v) for v in value]
    return value


def test_two_runs_are_byte_identical(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    package = unique_package()
    first_source = write_json(tmp_path / "a" / "openapi.json", _rich_document())
    second_source = write_json(tmp_path / "b" / "openapi.json", _reversed(_rich_document()))
    first = generate(tmp_path / "first", "--from", str(first_source), package=package)
    monkeypatch.setenv("KGEN_CACHE_DIR", str(tmp_path / "fresh-cache"))  # black runs again, uncached
    second = generate(tmp_path / "second", "--from", str(second_source), package=package)
    third = generate(tmp_path / "third", "--from", str(first_source), package=package)
    assert first.files() == second.files() == third.files()
    assert "models/widgets_example_io/v1.py" in first.files()
