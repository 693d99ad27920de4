"""Input files that are not what `kgen generate` needs: one line with the file, the line and column
(when it does not parse) or what it holds instead, and exit 2; nothing written, no traceback.

Before: a YAML error read `crd.yaml: at /: valid YAML (mapping values are not allowed here)`
with no position, an empty CRD file `at /: at least one CustomResourceDefinition`, a non-UTF-8
file ended in a UnicodeDecodeError traceback, and a CRD serving no version gave exit 0 and a
package without it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from kgen.generator.cli import main
from kgen.generator.yamlfile import load_all
from tests.unit.helpers import crd, unique_package, write_json, write_yaml

_SCHEMA = {"type": "object", "properties": {"spec": {"type": "object", "properties": {"size": {"type": "integer"}}}}}
_EXPECTED_CRDS = "(expected apiextensions.k8s.io/v1 CustomResourceDefinitions)"


def _fails(capsys: pytest.CaptureFixture[str], tmp_path: Path, *args: str) -> str:
    out = tmp_path / "out"
    assert main(["generate", "--out", str(out), "--package", unique_package(), *args]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "Traceback" not in captured.err
    assert captured.err.endswith("\n") and len(captured.err.splitlines()) == 1, captured.err
    assert not out.exists()
    return captured.err.rstrip("\n")


def _write(path: Path, text: str | bytes) -> Path:
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text)
    return path


# -- text that does not parse -----------------------------------------------------------------

_BROKEN_CRD = """\
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.io
spec:
  group: example.io
  names:
    kind: Widget
    plural: widgets
  scope: Namespaced
  versions:
  - name: v1 served: true
"""


def test_broken_crd_yaml_gives_line_and_column(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    source = _write(tmp_path / "crd.yaml", _BROKEN_CRD)
    line = _fails(capsys, tmp_path, "--crd", str(source))
    assert line == f"kgen generate: {source}:12:20: could not parse YAML: mapping values are not allowed here"


def test_broken_yaml_in_a_later_document_says_which(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    good = "\n".join(["---", *write_yaml(tmp_path / "good.yaml", crd(_SCHEMA)).read_text().splitlines()])
    source = _write(tmp_path / "crds.yaml", good + "\n---\nkind: [CustomResourceDefinition\n")
    line = _fails(capsys, tmp_path, "--crd", str(source))
    last = len(good.splitlines()) + 3
    assert line == f"kgen generate: {source}:{last}:1: could not parse YAML document 2: expected ',' or ']', but got '<stream end>'"


def test_broken_openapi_yaml_gives_line_and_column(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    source = _write(tmp_path / "openapi.yaml", "openapi: 3.0.0\ncomponents:\n  schemas:\n    A: {type: object\n")
    line = _fails(capsys, tmp_path, "--from", str(source))
    assert line == f"kgen generate: {source}:5:1: could not parse YAML: expected ',' or '}}', but got '<stream end>'"


def test_yaml_errors_do_not_quote_the_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """PyYAML's message quotes the offending lines; the one line kgen prints does not."""
    source = _write(tmp_path / "crd.yaml", "token: s3cr3t-value: x\n")
    line = _fails(capsys, tmp_path, "--crd", str(source))
    assert line == f"kgen generate: {source}:1:20: could not parse YAML: mapping values are not allowed here"


def test_broken_crd_json_gives_line_and_column(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    source = _write(tmp_path / "crd.json", '{\n  "kind": "CustomResourceDefinition",\n  "spec": {,}\n}\n')
    line = _fails(capsys, tmp_path, "--crd", str(source))
    assert line == f"kgen generate: {source}:3:12: could not parse JSON: Expecting property name enclosed in double quotes"


@pytest.mark.parametrize("option", ["--crd", "--from"])
def test_a_file_that_is_not_utf8(capsys: pytest.CaptureFixture[str], tmp_path: Path, option: str) -> None:
    source = _write(tmp_path / "input.yaml", b"kind: \xff\xfe\n")
    line = _fails(capsys, tmp_path, option, str(source))
    assert line == f"kgen generate: {source}: not text: byte 6 is not UTF-8 (expected UTF-8 text)"


# -- YAML that parses but is not what was asked for -------------------------------------------


@pytest.mark.parametrize("text", ["", "\n\n", "# only a comment\n", "---\n---\n"])
def test_an_empty_crd_file(capsys: pytest.CaptureFixture[str], tmp_path: Path, text: str) -> None:
    source = _write(tmp_path / "crd.yaml", text)
    assert _fails(capsys, tmp_path, "--crd", str(source)) == f"kgen generate: {source}: is empty {_EXPECTED_CRDS}"


def test_a_crd_file_of_other_kinds_lists_what_it_holds(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    source = write_yaml(
        tmp_path / "manifests.yaml",
        {"apiVersion": "v1", "kind": "ConfigMap"}, {"apiVersion": "apps/v1", "kind": "Deployment"}, ["a", "list"],
        {"spec": {}},
    )
    line = _fails(capsys, tmp_path, "--crd", str(source))
    assert line == (
        f"kgen generate: {source}: holds no CustomResourceDefinition, only a ConfigMap (document 1), "
        f"a Deployment (document 2), a list (document 3), a mapping with no kind (document 4) {_EXPECTED_CRDS}"
    )


def test_a_crd_folder_of_other_kinds_names_the_files(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    folder = tmp_path / "crds"
    write_yaml(folder / "a.yaml", {"apiVersion": "v1", "kind": "ConfigMap"})
    write_json(folder / "sub" / "b.json", {"apiVersion": "v1", "kind": "List", "items": [{"kind": "Secret"}]})
    _write(folder / "notes.txt", "not read\n")
    line = _fails(capsys, tmp_path, "--crd", str(folder))
    assert line == (
        f"kgen generate: {folder}: holds no CustomResourceDefinition, only a ConfigMap in {folder}/a.yaml, "
        f"a Secret in {folder}/sub/b.json items[0] {_EXPECTED_CRDS}"
    )


def test_a_crd_folder_with_a_broken_file_names_that_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    folder = tmp_path / "crds"
    write_yaml(folder / "a.yaml", crd(_SCHEMA))
    broken = _write(folder / "b.yaml", "spec: {{ .Values.name }}\n")  # a Helm template
    line = _fails(capsys, tmp_path, "--crd", str(folder))
    assert line == f"kgen generate: {broken}:1:8: could not parse YAML: found unhashable key"


def test_a_crd_serving_no_version(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    doc = crd(_SCHEMA, versions=("v1", "v2"))
    for version in doc["spec"]["versions"]:
        version["served"] = False
    source = write_yaml(tmp_path / "crd.yaml", doc)
    line = _fails(capsys, tmp_path, "--crd", str(source))
    assert line == (
        f"kgen generate: {source}: at /spec/versions: no version is served "
        "(expected at least one version with served: true)"
    )


def test_a_crd_serving_no_version_among_other_kinds(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    doc = crd(_SCHEMA)
    doc["spec"]["versions"][0]["served"] = False
    source = write_yaml(tmp_path / "crds.yaml", {"kind": "Namespace"}, doc)
    line = _fails(capsys, tmp_path, "--crd", str(source))
    assert line == (
        f"kgen generate: {source}: holds no CustomResourceDefinition, only a Namespace (document 1), "
        f"a CustomResourceDefinition that serves no version ({source} (document 2)) {_EXPECTED_CRDS}"
    )


def test_a_bundle_with_crds_among_other_manifests_generates_the_crds(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A release bundle (CRDs, RBAC, a Deployment in one file) works: other kinds are skipped."""
    unserved = crd(_SCHEMA, kind="Gadget", plural="gadgets")
    unserved["spec"]["versions"][0]["served"] = False
    source = write_yaml(
        tmp_path / "bundle.yaml", {"apiVersion": "v1", "kind": "Namespace"}, crd(_SCHEMA), unserved,
        {"apiVersion": "apps/v1", "kind": "Deployment"},
    )
    out, package = tmp_path / "out", unique_package()
    assert main(["generate", "--crd", str(source), "--out", str(out), "--package", package]) == 0
    module = (out / package / "models" / "widgets_example_io" / "v1.py").read_text()
    assert "class Widget(" in module and "class Gadget(" not in module


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("", "is empty (expected an OpenAPI v3 or v2 document)"),
        ("openapi: 3.0.0\n---\nswagger: '2.0'\n", "holds 2 YAML documents (expected one OpenAPI document per file)"),
        ("- openapi\n", "holds a list (expected a mapping: an OpenAPI v3 or v2 document)"),
        ("kind: CustomResourceDefinition\n", "holds a CustomResourceDefinition, not an OpenAPI document "
         "(expected a top-level field 'openapi' for v3 or 'swagger' for v2; CRDs go to --crd)"),
    ],
)
def test_from_yaml_that_is_not_one_openapi_document(capsys: pytest.CaptureFixture[str], tmp_path: Path, text: str, problem: str) -> None:
    source = _write(tmp_path / "openapi.yaml", text)
    assert _fails(capsys, tmp_path, "--from", str(source)) == f"kgen generate: {source}: {problem}"


def test_load_all_keeps_its_signature_for_callers(tmp_path: Path) -> None:
    docs: list[Any] = load_all("a: 1\n---\n---\nb: =\n")
    assert docs == [{"a": 1}, {"b": "="}]


def test_from_an_empty_json_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    source = _write(tmp_path / "openapi.json", "\n")
    assert _fails(capsys, tmp_path, "--from", str(source)) == f"kgen generate: {source}: is empty (expected an OpenAPI v3 or v2 document)"


# -- snapshot folders -------------------------------------------------------------------------


def _snapshot(tmp_path: Path) -> Path:
    folder = tmp_path / "snap"
    write_json(folder / "openapi" / "v3" / "api" / "v1.json", {"openapi": "3.0.0", "components": {"schemas": {}}})
    return folder


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ('{"kind": "APIGroupDiscoveryList",\n "items": [}', ":2:12: could not parse JSON: Expecting value"),
        ("[1]", ": holds a list (expected a discovery document, a JSON object)"),
        ('{"kind": "APIGroupDiscoveryList", "items": "x"}', ": holds a malformed discovery document: 'str' object has no attribute 'get' "
         "(expected an APIGroupDiscoveryList as the apiserver serves it)"),
        ('{"kind": "APIGroupDiscoveryList", "items": [{"metadata": {}, "versions": [{"version": "v1", "resources": [{"resource": 5}]}]}]}',
         ": a malformed resource in core/v1 (expected resources with a name and a kind)"),
    ],
    ids=["not-json", "not-an-object", "items-not-a-list", "resource-without-a-name"],
)
def test_snapshot_with_broken_aggregated_discovery(capsys: pytest.CaptureFixture[str], tmp_path: Path, text: str, problem: str) -> None:
    folder = _snapshot(tmp_path)
    discovery = folder / "discovery" / "aggregated" / "api.json"
    discovery.parent.mkdir(parents=True)
    discovery.write_text(text)
    assert _fails(capsys, tmp_path, "--from", str(folder)) == f"kgen generate: {discovery}{problem}"


def test_snapshot_with_broken_legacy_discovery(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    folder = _snapshot(tmp_path)
    legacy = write_json(folder / "discovery" / "legacy" / "api" / "v1.json", {"kind": "APIResourceList", "groupVersion": "v1", "resources": [1]})
    assert _fails(capsys, tmp_path, "--from", str(folder)) == (
        f"kgen generate: {legacy}: holds a malformed discovery document: 'int' object is not subscriptable "
        "(expected an APIResourceList as the apiserver serves it)"
    )


# -- --package --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("package", "what"),
    [("json", "a standard-library module"), ("typing.k8s", "a standard-library module"), ("email", "a standard-library module"),
     ("httpx", "a module generated code imports"), ("msgspec", "a module generated code imports"), ("kgen.mine", "a module generated code imports")],
)
def test_package_names_that_would_shadow_what_python_or_kgen_imports(capsys: pytest.CaptureFixture[str], tmp_path: Path, package: str, what: str) -> None:
    """Before, `--package json` wrote out/json/, which hides the standard library's json (and so
    breaks the generated package itself) for everything on that sys.path."""
    source = write_json(tmp_path / "openapi.json", {"openapi": "3.0.0", "components": {"schemas": {}}})
    out = tmp_path / "out"
    assert main(["generate", "--from", str(source), "--out", str(out), "--package", package]) == 2
    captured = capsys.readouterr()
    top = package.split(".")[0]
    assert captured.err == f"kgen generate: --package: {top!r} is {what} (expected a name that shadows no module Python ships or kgen needs)\n"
    assert not out.exists()


def test_an_openapi_document_given_to_crd(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    source = write_json(tmp_path / "openapi.json", {"openapi": "3.0.0", "components": {"schemas": {}}})
    assert _fails(capsys, tmp_path, "--crd", str(source)) == (
        f"kgen generate: {source}: holds no CustomResourceDefinition, only an OpenAPI document "
        "(expected apiextensions.k8s.io/v1 CustomResourceDefinitions; an OpenAPI document goes to --from)"
    )


def test_snapshot_folder_without_documents(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    folder = tmp_path / "snap"
    (folder / "openapi" / "v3").mkdir(parents=True)
    assert _fails(capsys, tmp_path, "--from", str(folder)) == (
        f"kgen generate: {folder}: holds no OpenAPI document "
        "(expected openapi/v3/api/<version>.json, openapi/v3/apis/<group>/<version>.json or openapi/v2.json)"
    )


def test_from_something_that_is_neither_file_nor_folder(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert _fails(capsys, tmp_path, "--from", "/dev/null") == (
        "kgen generate: --from /dev/null: is neither a file nor a folder (expected a snapshot folder or an OpenAPI file)"
    )


def test_a_crd_whose_yaml_has_a_map_key_json_cannot_hold(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """A null key (``~:``) has no JSON form; sigs.k8s.io/yaml refuses it too."""
    text = write_yaml(tmp_path / "good.yaml", crd(_SCHEMA)).read_text().replace("size:", "~:")
    source = _write(tmp_path / "crd.yaml", text)
    line = _fails(capsys, tmp_path, "--crd", str(source))
    assert line == (f"kgen generate: {source}:1:1: YAML cannot be read as JSON: "
                    "$.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties: "
                    "expected map keys to be strings, numbers or booleans, got NoneType None")


def test_yaml_timestamps_stay_the_strings_kubectl_sends() -> None:
    """go-yaml (under sigs.k8s.io/yaml) keeps a timestamp-looking plain scalar decoded into
    ``interface{}`` as its text; PyYAML would make a datetime, which no model field accepts
    (external-secrets' snapshots: ``lastTransitionTime: 2019-08-12T12:00:00Z``)."""
    from kgen.generator.yamlfile import load_all

    text = "t: 2019-08-12T12:00:00Z\nd: 2001-12-14\nq: '2001-12-14'\nkeys:\n  2001-12-14: x\n"
    assert load_all(text) == [{"t": "2019-08-12T12:00:00Z", "d": "2001-12-14", "q": "2001-12-14", "keys": {"2001-12-14": "x"}}]
