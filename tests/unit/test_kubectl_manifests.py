"""``load_all_yaml`` / ``dump_all_yaml``: files, folders (kubectl -f DIR -R's walk), strings, open
files, Lists, empty documents, typed models vs unstructured, and errors naming file and document;
``kgen apply``'s bad input (exit 2, one line, nothing sent)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

import kgen.kubernetes
from kgen.generator.cli import main
from kgen.kubernetes.models.apiextensions.v1 import CustomResourceDefinition
from kgen.kubernetes.models.apps.v1 import Deployment
from kgen.kubernetes.models.core.v1 import ConfigMap, Namespace
from kgen.kubernetes.models.networking.v1 import Ingress
from kgen.runtime.kubectl import ManifestError, dump_all_yaml, load_all_yaml

CM = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: %s}\ndata: {n: '%s'}\n"
WIDGET = "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\nspec: {size: 3}\n"


def test_string_with_documents_lists_and_empty_ones() -> None:
    text = "---\n" + CM % ("a", 1) + "---\n# only a comment\n---\n" + """\
apiVersion: v1
kind: List
items:
- {apiVersion: v1, kind: Namespace, metadata: {name: ns}}
- apiVersion: v1
  kind: ConfigMapList
  items:
  - {apiVersion: v1, kind: ConfigMap, metadata: {name: b}}
"""
    objects = load_all_yaml(text)
    assert [(o["kind"], o["metadata"]["name"]) for o in objects] == [("ConfigMap", "a"), ("Namespace", "ns"), ("ConfigMap", "b")]
    assert all(type(o) is dict for o in objects)


def test_typed_models_of_the_package_and_unstructured_for_unknown_kinds() -> None:
    text = "\n---\n".join([
        CM % ("a", 1), WIDGET, "{apiVersion: apps/v1, kind: Deployment, metadata: {name: d}, spec: {replicas: 2}}",
        "apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata: {name: i}",
        "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: widgets.example.com}",
        "apiVersion: apps/v1beta9\nkind: Deployment\nmetadata: {name: old}",
    ])
    objects = load_all_yaml(text, kgen.kubernetes)
    expected = [ConfigMap, dict, Deployment, Ingress, CustomResourceDefinition, dict]
    assert [isinstance(o, cls) for o, cls in zip(objects, expected, strict=True)] == [True] * 6
    assert type(objects[1]) is dict and type(objects[5]) is dict  # a kind or version the package lacks
    assert isinstance(objects[2], Deployment) and objects[2].spec is not None and objects[2].spec.replicas == 2
    assert load_all_yaml(text, "kgen.kubernetes") == objects  # the package by name alike


def test_folder_is_walked_as_kubectl_does(tmp_path: Path) -> None:
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "z.yml").write_text(CM % ("bz", 1))
    (tmp_path / "a.yaml").write_text(CM % ("a", 1))
    (tmp_path / "c.json").write_text(json.dumps({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"}}))
    (tmp_path / "README.md").write_text(CM % ("readme", 1))
    (tmp_path / "ba.yaml").write_text(CM % ("ba", 1))
    names = [o["metadata"]["name"] for o in load_all_yaml(tmp_path)]
    assert names == ["a", "bz", "ba", "c"]  # filepath.Walk: b/ sorts before ba.yaml; README.md not read
    assert [o["metadata"]["name"] for o in load_all_yaml(str(tmp_path / "README.md"))] == ["readme"]  # a file named is read
    with (tmp_path / "a.yaml").open() as f:
        assert load_all_yaml(f) == load_all_yaml(tmp_path / "a.yaml")
    assert load_all_yaml(io.BytesIO((CM % ("x", 1)).encode()))[0]["metadata"]["name"] == "x"


def test_dump_is_the_inverse_of_load(tmp_path: Path) -> None:
    text = "\n---\n".join([CM % ("a", "010"), WIDGET, "{apiVersion: apps/v1, kind: Deployment, metadata: {name: d}}",
                           "{apiVersion: v1, kind: Namespace, metadata: {name: 'yes', labels: {on: 'true'}}}"])
    typed = load_all_yaml(text, kgen.kubernetes)
    dumped = dump_all_yaml(typed)
    assert dumped.count("\n---\n") == 3
    assert load_all_yaml(dumped, kgen.kubernetes) == typed
    assert load_all_yaml(dumped) == [o if isinstance(o, dict) else o.to_dict() for o in typed]
    assert isinstance(typed[3], Namespace) and typed[3].metadata is not None and typed[3].metadata.name == "yes"
    (tmp_path / "out.yaml").write_text(dumped)
    assert load_all_yaml(tmp_path / "out.yaml", kgen.kubernetes) == typed


@pytest.mark.parametrize(
    ("text", "where", "problem"),
    [
        (CM % ("a", 1) + "---\nkind: ConfigMap\nmetadata: {name: b}\n", "<string>: document 2", "apiVersion: expected a non-empty string"),
        (CM % ("a", 1) + "---\n- just\n- a list\n", "<string>: document 2", "expected a Kubernetes object (a mapping), found a list"),
        (CM % ("a", 1) + "---\nmetadata: {name: [\n", "<string>: document 2", "not valid YAML"),
        ("apiVersion: v1\nkind: List\nitems:\n- {kind: ConfigMap}\n", "<string>: document 1: items[0]", "apiVersion"),
        ("apiVersion: v1\nkind: List\nitems: 3\n", "<string>: document 1", "items: expected a list of objects"),
        (CM % ("a", 1) + "---\n" + CM % ("b", 1) + "x: [1, -.inf]\n", "<string>: document 2", "x[1]: -inf cannot be sent as JSON"),
    ],
)
def test_bad_documents_are_named(text: str, where: str, problem: str) -> None:
    with pytest.raises(ManifestError) as e:
        load_all_yaml(text)
    assert e.value.where == where and problem in e.value.problem, str(e.value)


def test_bad_file_names_the_file_and_document(tmp_path: Path) -> None:
    (tmp_path / "ok.yaml").write_text(CM % ("a", 1))
    (tmp_path / "z.yaml").write_text(CM % ("b", 1) + "---\n" + CM % ("c", 1) + "---\n{apiVersion: v1, kind: ConfigMap, data: [}\n")
    with pytest.raises(ManifestError, match=r"z\.yaml: document 3: not valid YAML"):
        load_all_yaml(tmp_path)
    (tmp_path / "z.yaml").write_text("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\nspec: {replicas: many}\n")
    with pytest.raises(ManifestError, match=r"z\.yaml: document 1: not a valid Deployment .*replicas"):
        load_all_yaml(tmp_path, kgen.kubernetes)
    with pytest.raises(ManifestError, match="no such file or folder"):
        load_all_yaml(tmp_path / "missing")
    with pytest.raises(ManifestError, match="no such file or folder"):
        load_all_yaml("missing.yaml")
    with pytest.raises(TypeError, match="expected a path, a string of YAML or an open file"):
        load_all_yaml(3)  # type: ignore[call-overload]


def test_kgen_apply_bad_input_exits_2_with_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "bad.yaml").write_text(CM % ("a", 1) + "---\nkind: ConfigMap\n")
    # The kubeconfig names a server nobody listens on: nothing is sent, the manifest is refused first.
    kubeconfig = tmp_path / "kubeconfig"
    kubeconfig.write_text(json.dumps({
        "apiVersion": "v1", "kind": "Config", "current-context": "c",
        "clusters": [{"name": "c", "cluster": {"server": "https://127.0.0.1:1"}}],
        "contexts": [{"name": "c", "context": {"cluster": "c", "user": "u"}}], "users": [{"name": "u", "user": {"token": "s3cr3t"}}],
    }))
    assert main(["apply", "-f", str(tmp_path / "bad.yaml"), "--kubeconfig", str(kubeconfig)]) == 2
    err = capsys.readouterr().err
    assert err == f"kgen apply: {tmp_path / 'bad.yaml'}: document 2: apiVersion: expected a non-empty string, found nothing\n"
    (tmp_path / "bad.yaml").write_text(CM % ("a", 1))
    assert main(["delete", "-f", str(tmp_path / "bad.yaml"), "--kubeconfig", str(kubeconfig)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("kgen delete: cannot reach the server: ") and err.count("\n") == 1 and "s3cr3t" not in err
    assert main(["apply", "-f", str(tmp_path / "empty.yaml")]) == 2
    assert "no such file or folder" in capsys.readouterr().err


def test_a_users_crd_package_types_its_kinds() -> None:
    """A package generated from a CRD (the bench's widget_client, group bench.kgen.dev): its
    Widget is typed, found under the generator's group module (models.bench_kgen_dev.v1)."""
    from bench.widget import importable

    importable()
    text = "apiVersion: bench.kgen.dev/v1\nkind: Widget\nmetadata: {name: w}\nspec: {}\n---\n" + CM % ("a", 1)
    widget, cm = load_all_yaml(text, "widget_client")
    assert type(widget).__module__ == "widget_client.models.bench_kgen_dev.v1" and type(widget).__name__ == "Widget"
    assert type(cm) is dict  # the package has no core/v1
    assert dump_all_yaml([widget]) == dump_all_yaml(load_all_yaml(text)[:1])
