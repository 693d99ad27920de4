"""`kgen manifests` on the CronJob example against controller-gen v0.23.0 on its Go twin (issue 35).

The oracle is controller-gen itself, built from the Go module proxy (hack/controller-gen/build.sh),
run on hack/controller-gen/cronjob: the kubebuilder book's cronjob_types.go written to match
examples/cronjob/api/v1.py field for field and marker for marker, on k8s.io/api at the envtest
version. The two CRDs are compared structurally, descriptions aside (kgen's come from Python
docstrings and the generated models, controller-gen's from Go comments); every difference is
printed with its path, and their number must be 0. That covers the embedded batch/v1
JobTemplateSpec (formats, list and map types, list-map keys, int-or-string, required lists,
defaults and bounds k8s.io/api's markers carry; no enums), the user's own ``Int32``/``int`` fields,
metav1.Condition and corev1.ObjectReference.

The data kgen writes the embedded types from (generator/manifests/k8s_schemas.py) is controller-gen's
output cut back by class; a test checks the checked-in module is what the script makes now.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from kgen.generator.cli import main as kgen
from tests.support.jsondiff import differences as json_differences

REPO = Path(__file__).resolve().parents[2]
HACK = REPO / "hack" / "controller-gen"


@pytest.fixture(scope="module")
def controller_gen() -> Path:
    """controller-gen v0.23.0, built from the module proxy on first use (cached outside the repo)."""
    done = subprocess.run([str(HACK / "build.sh")], check=True, capture_output=True, text=True)
    return Path(done.stdout.strip())


def run_controller_gen(binary: Path, out: Path, *generators: str, twin: str = "cronjob",
                       check: bool = True) -> subprocess.CompletedProcess[str]:
    """controller-gen's ``generators`` on a Go twin (hack/controller-gen/<twin>), each writing to
    ``out/<generator>``."""
    env = {**os.environ, "GOFLAGS": "-mod=mod", "GOTOOLCHAIN": "local"}
    outputs = [f"output:{g.split(':')[0]}:dir={out / g.split(':')[0]}" for g in generators]
    return subprocess.run([str(binary), *generators, f"paths=./{twin}/...", *outputs],
                          cwd=HACK, check=check, env=env, capture_output=True, text=True)


def run_kgen(out: Path, *args: str) -> int:
    """``kgen manifests ARGS --out OUT`` from the repository's root (where the modules import from)."""
    old = Path.cwd()
    os.chdir(REPO)
    try:
        return int(kgen(["manifests", *args, "--out", str(out)]))
    finally:
        os.chdir(old)


def load(path: Path) -> dict[str, Any]:
    return yaml.safe_load(path.read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def without_descriptions(node: Any) -> Any:
    """``node`` with every schema's (and printer column's) ``description`` text dropped; a property
    named ``description`` (an object, not a string) is kept."""
    if isinstance(node, dict):
        return {k: without_descriptions(v) for k, v in node.items() if not (k == "description" and isinstance(v, str))}
    if isinstance(node, list):
        return [without_descriptions(v) for v in node]
    return node


def differences(oracle: Any, ours: Any) -> list[str]:
    """Every place the two documents differ, one line each: a key only one has, or two values."""
    return json_differences(oracle, ours, ("controller-gen", "kgen"))


def crd_differences(oracle: dict[str, Any], ours: dict[str, Any]) -> list[str]:
    """Structural differences of two CRDs: descriptions aside, the annotation naming the tool, and
    ``spec.conversion`` (controller-gen writes none: kubebuilder's kustomize patch adds it; checked
    against the apiserver in test_manifests_conversion_webhook.py)."""
    a, b = without_descriptions(oracle), without_descriptions(ours)
    for crd in (a, b):
        crd["metadata"].pop("annotations", None)
        crd["spec"].pop("conversion", None)
    return differences(a, b)


def documents(path: Path) -> list[Any]:
    return list(yaml.safe_load_all(path.read_text(encoding="utf-8")))


@pytest.fixture(scope="module")
def both_crds(controller_gen: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], dict[str, Any]]:
    go_out, py_out = tmp_path_factory.mktemp("controller-gen"), tmp_path_factory.mktemp("kgen")
    run_controller_gen(controller_gen, go_out, "crd")
    assert run_kgen(py_out, "--module", "examples.cronjob.api.v1") == 0
    name = "batch.tutorial.kgen.dev_cronjobs.yaml"
    assert sorted(p.name for p in (go_out / "crd").iterdir()) == [name]
    return load(go_out / "crd" / name), load(py_out / name)


def webhook_files(controller_gen: Path, tmp: Path, twin: str, *args: str) -> tuple[Path, Path]:
    """controller-gen's webhook generator on ``twin`` and ``kgen manifests ARGS``: their manifests.yaml."""
    run_controller_gen(controller_gen, tmp / "go", "webhook", twin=twin)
    assert run_kgen(tmp / "py", *args) == 0
    assert sorted(p.name for p in (tmp / "go" / "webhook").iterdir()) == ["manifests.yaml"]
    return tmp / "go" / "webhook" / "manifests.yaml", tmp / "py" / "manifests.yaml"


@pytest.mark.parametrize(("twin", "args"), [
    ("cronjob", ("--module", "examples.cronjob.webhook")),
    ("gear", ("--allow-dangerous-types", "--module", "tests.support.manifests.gears")),
], ids=["cronjob", "gear"])
def test_webhook_configurations_equal_controller_gens(controller_gen: Path, tmp_path: Path, twin: str,
                                                      args: tuple[str, ...]) -> None:
    """The CronJob tutorial's defaulter and validator (examples/cronjob/webhook.py), and webhooks
    with every option of the marker (a URL, a service of its own with a port, a custom path, the
    core group, ``*``, timeouts, match and reinvocation policies, names sorted): the same
    Mutating/ValidatingWebhookConfigurations as controller-gen writes from the Go markers, in the
    same file, byte for byte."""
    go, py = webhook_files(controller_gen, tmp_path, twin, *args)
    found = differences(documents(go), documents(py))
    for line in found:
        print(line)
    print(f"kgen manifests vs controller-gen v0.23.0, {twin} webhook configurations: {len(found)} structural differences")
    assert found == []
    assert [d["kind"] for d in documents(py)] == ["MutatingWebhookConfiguration", "ValidatingWebhookConfiguration"]
    assert py.read_text(encoding="utf-8") == go.read_text(encoding="utf-8")


def test_cronjob_crd_equals_controller_gens(both_crds: tuple[dict[str, Any], dict[str, Any]]) -> None:
    oracle, ours = both_crds
    found = crd_differences(oracle, ours)
    for line in found:
        print(line)
    print(f"kgen manifests vs controller-gen v0.23.0, CronJob CRD: {len(found)} structural differences")
    assert found == []


def test_the_comparison_sees_what_the_embedded_part_carries(both_crds: tuple[dict[str, Any], dict[str, Any]]) -> None:
    """Not vacuous: the embedded JobTemplateSpec carries what k8s.io/api's markers say, and taking
    one of those keywords away from kgen's CRD is one difference."""
    oracle, ours = both_crds
    spec = ours["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]["properties"]
    pod = spec["jobTemplate"]["properties"]["spec"]["properties"]["template"]["properties"]["spec"]["properties"]
    containers = pod["containers"]
    assert containers["x-kubernetes-list-type"] == "map" and containers["x-kubernetes-list-map-keys"] == ["name"]
    assert containers["items"]["properties"]["ports"]["items"]["properties"]["containerPort"]["format"] == "int32"
    assert spec["successfulJobsHistoryLimit"]["format"] == "int32" and spec["startingDeadlineSeconds"]["format"] == "int64"
    del containers["x-kubernetes-list-type"]
    found = crd_differences(oracle, ours)
    assert len(found) == 1 and "containers.x-kubernetes-list-type: only controller-gen" in found[0], found


def test_k8s_schemas_data_is_what_the_script_extracts_now(tmp_path: Path) -> None:
    """generator/manifests/k8s_schemas.py is controller-gen's output for the carried types, as
    hack/controller-gen/k8s_schemas.py writes it today (no hand edits, not stale)."""
    out = tmp_path / "k8s_schemas.py"
    subprocess.run([sys.executable, str(HACK / "k8s_schemas.py"), str(out)], cwd=REPO, check=True, capture_output=True)
    assert out.read_text(encoding="utf-8") == (REPO / "generator" / "manifests" / "k8s_schemas.py").read_text(encoding="utf-8")


GEAR = "gears.kgen.dev_gears.yaml"


def gear_crds(controller_gen: Path, tmp: Path, *crd_options: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """The Gear CRD (tests/support/manifests/gears.py and its twin hack/controller-gen/gear) by both
    tools, floats allowed, with controller-gen's ``crd:`` options and kgen's flags for them."""
    flags = {"maxDescLen": "--max-desc-len"}
    run_controller_gen(controller_gen, tmp / "go", "crd:" + ",".join(["allowDangerousTypes=true", *crd_options]), twin="gear")
    args = [a for o in crd_options for a in (flags[o.split("=")[0]], o.split("=")[1])]
    assert run_kgen(tmp / "py", "--allow-dangerous-types", *args, "--module", "tests.support.manifests.gears") == 0
    assert sorted(p.name for p in (tmp / "go" / "crd").iterdir()) == [GEAR]
    return load(tmp / "go" / "crd" / GEAR), load(tmp / "py" / GEAR)


@pytest.fixture(scope="module")
def gear(controller_gen: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], dict[str, Any]]:
    return gear_crds(controller_gen, tmp_path_factory.mktemp("gear"))


def test_markers_equal_controller_gens(gear: tuple[dict[str, Any], dict[str, Any]]) -> None:
    """ExactlyOneOf / AtMostOneOf / AtLeastOneOf (CEL rules, in controller-gen's order after an
    XValidation written between them), title, example, Int32 and int formats, a float under
    allowDangerousTypes, embedded core/v1 types, and short names and categories given on one version
    of two: the same CRD."""
    oracle, ours = gear
    found = crd_differences(oracle, ours)
    for line in found:
        print(line)
    print(f"kgen manifests vs controller-gen v0.23.0, Gear CRD (markers): {len(found)} structural differences")
    assert found == []
    spec = ours["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]
    assert [r["rule"].split("(")[0] for r in spec["x-kubernetes-validations"]] == ["!has", "", "", "has"]
    assert ours["spec"]["names"]["shortNames"] == ["gr", "grs"] and spec["title"] == "The gear's spec"


def test_a_float_needs_allow_dangerous_types_in_both(controller_gen: Path, tmp_path: Path) -> None:
    refused = run_controller_gen(controller_gen, tmp_path / "go", "crd", twin="gear", check=False)
    assert refused.returncode != 0 and "found float" in refused.stderr, refused.stderr
    assert run_kgen(tmp_path / "py", "--module", "tests.support.manifests.gears") == 2
    assert not (tmp_path / "py").exists()


def test_a_float_is_refused_with_a_message_naming_the_field(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run_kgen(tmp_path / "py", "--module", "tests.support.manifests.gears") == 2
    err = capsys.readouterr().err
    assert err.startswith("kgen manifests: tests.support.manifests.gears.GearSpec.ratio: a float field"), err
    assert "--allow-dangerous-types" in err and "Traceback" not in err


def descriptions(node: Any, path: str = "") -> dict[str, str]:
    """Every schema description by path."""
    out: dict[str, str] = {}
    if isinstance(node, dict):
        if isinstance(node.get("description"), str):
            out[path] = node["description"]
        for key, value in node.items():
            out.update(descriptions(value, f"{path}.{key}"))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            out.update(descriptions(value, f"{path}[{i}]"))
    return out


@pytest.mark.parametrize("max_len", [0, 12, 60])
def test_max_desc_len_cuts_descriptions_as_controller_gen(controller_gen: Path, gear: tuple[dict[str, Any], dict[str, Any]],
                                                          tmp_path: Path, max_len: int) -> None:
    """``--max-desc-len N`` (crd:maxDescLen=N): 0 drops every description, so the CRDs are then
    equal descriptions included; otherwise, wherever both tools start from the same text (the
    user's own types; k8s.io/api's types are described from the OpenAPI snapshot, worded a little
    differently), the cut texts are the same: at a sentence end, else a space with "...", else
    hard with "..."."""
    full_go, full_py = gear
    oracle, ours = gear_crds(controller_gen, tmp_path / "cut", f"maxDescLen={max_len}")
    assert crd_differences(oracle, ours) == []
    same = {p for p, text in descriptions(full_go).items() if descriptions(full_py).get(p) == text}
    assert len(same) >= 12 if max_len else True
    cut_go, cut_py = descriptions(oracle), descriptions(ours)
    if max_len == 0:
        spec = {k: v for k, v in ours["spec"].items() if k != "conversion"}  # kubebuilder's patch, not controller-gen's
        assert oracle == {**ours, "metadata": {**ours["metadata"], "annotations": oracle["metadata"]["annotations"]}, "spec": spec}
        assert cut_go == {} and cut_py == {}
    assert {p: cut_go.get(p) for p in same} == {p: cut_py.get(p) for p in same}
    assert set(cut_go) == set(cut_py)
