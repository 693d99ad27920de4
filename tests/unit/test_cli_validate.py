"""`kgen validate FILE... [--crd PATH]...`: manifests checked as the kube-apiserver would, offline.

The verdicts themselves are runtime/apimachinery/validation/validation.py's (tests/unit/
test_validation_structural.py holds them to the apiserver's answers); these pin the command:
its output lines, exit codes and errors for bad input.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kgen.generator.cli import main

PROBE_CRD = Path(__file__).resolve().parents[1] / "fixtures" / "validation" / "probe_crd.yaml"
CORPUS = json.loads((PROBE_CRD.parent / "structural_corpus.json").read_text())

MANIFESTS = """\
apiVersion: v1
kind: ConfigMap
metadata: {name: ok}
data: {a: b}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: bad}
binaryData: {b: "not base64!"}
immutable: "yes"
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: d}
spec:
  replicas: 2147483648
  selector: {matchLabels: {a: b}}
  template:
    metadata: {labels: {a: b}}
    spec:
      containers: [{name: c, image: i, bogus: 1}]
---
apiVersion: v1
kind: List
items:
- {apiVersion: v1, kind: ConfigMap, metadata: {generateName: g-}, data: {k: 1}}
"""


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, list[str], str]:
    code = main(["validate", *args])
    out, err = capsys.readouterr()
    return code, out.splitlines(), err


def test_valid_manifests_exit_0_and_print_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "ok.yaml"
    path.write_text(MANIFESTS.split("---\n")[0])
    assert run(capsys, str(path)) == (0, [], "")


def test_each_error_is_a_line_naming_file_document_object_and_field(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    path = tmp_path / "m.yaml"
    path.write_text(MANIFESTS)
    code, out, err = run(capsys, str(path))
    assert code == 1
    assert out == [
        f'{path}:2: ConfigMap/bad: binaryData.b: Invalid value: "not base64!": '
        'binaryData.b in body must be of type byte: "not base64!"',
        f'{path}:2: ConfigMap/bad: immutable: Invalid value: "string": immutable in body must be of type boolean: "string"',
        # Strict (kubectl's default): an unknown field rejects the object before any other check
        f'{path}:3: Deployment/d: spec.template.spec.containers[0].bogus: '
        'unknown field "spec.template.spec.containers[0].bogus"',
        # a built-in kind's wrongly typed field: Go's decode error, the apiserver's 400
        f'{path}:4:items[0]: ConfigMap/g-: json: cannot unmarshal number into Go struct field ConfigMap.data of type string',
    ]
    assert err == ""


def test_warn_reports_unknown_fields_on_stderr_and_validates_the_rest(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    path = tmp_path / "m.yaml"
    path.write_text(MANIFESTS)
    code, out, err = run(capsys, "--field-validation", "Warn", str(path))
    assert code == 1
    assert (f'{path}:3: Deployment/d: spec.replicas: Invalid value: "": Checked value must be of type integer '
            "with format int32 in spec.replicas") in out
    assert err == f'{path}:3: Deployment/d: warning: unknown field "spec.template.spec.containers[0].bogus"\n'


def test_crd_kinds_are_validated_against_the_crds_schema(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    probe = json.loads(json.dumps(CORPUS["base"]))
    probe["spec"].update({"replicas": -1, "name": "A"})
    path = tmp_path / "probe.json"
    path.write_text(json.dumps(probe))
    code, out, _ = run(capsys, "--crd", str(PROBE_CRD), str(path))
    assert code == 1
    assert out == [
        f'{path}:1: Probe/p: spec.name: Invalid value: "A": spec.name in body should be at least 2 chars long',
        f"{path}:1: Probe/p: spec.replicas: Invalid value: -1: spec.replicas in body should be greater than or equal to 0",
    ]
    path.write_text(json.dumps(CORPUS["base"]))
    assert run(capsys, "--crd", str(PROBE_CRD.parent), str(path))[0] == 0  # a folder of CRDs too


@pytest.mark.parametrize(("text", "problem"), [
    ("a: [\n", "could not parse YAML"),
    ("kind: ConfigMap\n", "at /apiVersion: missing or not a string"),
    ("- 1\n", "is a list (expected a Kubernetes object"),
    ("apiVersion: x.io/v1\nkind: Gizmo\n", "no schema for apiVersion 'x.io/v1', kind 'Gizmo'"),
])
def test_bad_input_exits_2_with_one_clear_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, problem: str,
) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(text)
    code, out, err = run(capsys, str(path))
    assert (code, out) == (2, [])
    assert err.startswith(f"kgen validate: {path}") and problem in err and err.count("\n") == 1


def test_an_unreadable_file_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, str(tmp_path / "missing.yaml"))
    assert (code, out) == (2, [])
    assert err == f"kgen validate: {tmp_path / 'missing.yaml'}: cannot read it: No such file or directory\n"


KUSTOMIZATION = "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources: [crds.yaml]\n"
#: gateway-api ships one next to its CRDs (config/crd/experimental/...): a stock kind, no CRD.
ADMISSION_POLICY = """\
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: safe-upgrades.gateway.networking.k8s.io}
spec:
  failurePolicy: Deny
  matchConstraints:
    resourceRules:
    - apiGroups: [apiextensions.k8s.io]
      apiVersions: [v1]
      operations: [CREATE, UPDATE]
      resources: [customresourcedefinitions]
  validations:
  - expression: "true"
"""


@pytest.fixture
def crd_folder(tmp_path: Path) -> Path:
    """What `--crd dir/*.yaml` matches in a project: its CRDs and the files shipped beside them."""
    folder = tmp_path / "crds"
    folder.mkdir()
    (folder / "kustomization.yaml").write_text(KUSTOMIZATION)
    (folder / "policy.yaml").write_text(ADMISSION_POLICY)
    (folder / "probe.yaml").write_text(PROBE_CRD.read_text())
    return folder


def _crd_args(folder: Path) -> list[str]:
    return [arg for name in ("kustomization.yaml", "policy.yaml", "probe.yaml") for arg in ("--crd", str(folder / name))]


def test_a_crd_file_holding_no_crd_is_skipped_with_one_note_and_valid_manifests_exit_0(
    crd_folder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "probe.json"
    path.write_text(json.dumps(CORPUS["base"]))
    assert run(capsys, *_crd_args(crd_folder), str(path)) == (0, [], (
        f"kgen validate: note: --crd {crd_folder / 'kustomization.yaml'} holds no CustomResourceDefinition, "
        "only a Kustomization: skipped\n"
        f"kgen validate: note: --crd {crd_folder / 'policy.yaml'} holds no CustomResourceDefinition, "
        "only a ValidatingAdmissionPolicy: skipped\n"
    ))


def test_skipped_crd_files_keep_the_invalid_exit_code(
    crd_folder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    probe = json.loads(json.dumps(CORPUS["base"]))
    probe["spec"]["replicas"] = -1
    path = tmp_path / "probe.json"
    path.write_text(json.dumps(probe))
    code, out, err = run(capsys, *_crd_args(crd_folder), str(path))
    assert (code, out) == (1, [
        f"{path}:1: Probe/p: spec.replicas: Invalid value: -1: spec.replicas in body should be greater than or equal to 0"
    ])
    assert err.count("\n") == 2 and err.count(": skipped\n") == 2


def test_skipped_crd_files_keep_the_bad_input_exit_code(
    crd_folder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The manifest's kind came from no CRD: bad input, after the notes.
    path = tmp_path / "gizmo.yaml"
    path.write_text("apiVersion: x.io/v1\nkind: Gizmo\nmetadata: {name: g}\n")
    code, out, err = run(capsys, "--crd", str(crd_folder / "kustomization.yaml"), str(path))
    assert (code, out) == (2, [])
    assert err.splitlines() == [
        f"kgen validate: note: --crd {crd_folder / 'kustomization.yaml'} holds no CustomResourceDefinition, "
        "only a Kustomization: skipped",
        f"kgen validate: {path}:1: no schema for apiVersion 'x.io/v1', kind 'Gizmo' "
        "(expected a Kubernetes kind or a kind of a CRD given with --crd)",
    ]
    # A broken CRD is still bad input, not skipped.
    broken = crd_folder / "broken.yaml"
    broken.write_text(PROBE_CRD.read_text().replace("apiextensions.k8s.io/v1", "apiextensions.k8s.io/v1beta1", 1))
    code, out, err = run(capsys, "--crd", str(broken), str(path))
    assert (code, out) == (2, [])
    assert err == (f"kgen validate: {broken}: at /apiVersion: is 'apiextensions.k8s.io/v1beta1' "
                   "(expected apiextensions.k8s.io/v1; v1beta1 CRDs were removed in Kubernetes 1.22)\n")
    # A --crd path that does not exist is too.
    code, _, err = run(capsys, "--crd", str(crd_folder / "nope.yaml"), str(path))
    assert code == 2 and err == f"kgen validate: --crd {crd_folder / 'nope.yaml'}: no such file or folder (expected a CRD file or a folder of them)\n"


def test_generate_still_refuses_a_crd_file_holding_no_crd(crd_folder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Only validate skips: generate is asked for the package of those CRDs."""
    code = main(["generate", "--crd", str(crd_folder / "kustomization.yaml"), "--out", str(tmp_path / "out")])
    assert code == 2
    assert "holds no CustomResourceDefinition, only a Kustomization" in capsys.readouterr().err
