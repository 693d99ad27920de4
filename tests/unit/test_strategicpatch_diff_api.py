"""The public face of ``create_two_way_merge_patch``/``create_three_way_merge_patch``: typed models
of the generated package, the schema found from apiVersion/kind, clear errors for bad input,
inputs left unchanged, preconditions and the conflict error's YAML (against apimachinery through
hack/oracle/strategicpatch, on strings go-yaml quotes in each of its ways and keys it orders by
its own rule)."""

from __future__ import annotations

import importlib
import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from kgen.kubernetes.models.apps.v1 import Deployment
from kgen.runtime.apimachinery import (
    MergingConflict,
    PreconditionFailed,
    create_three_way_merge_patch,
    create_two_way_merge_patch,
    require_key_unchanged,
    require_metadata_key_unchanged,
)
from kgen.runtime.apimachinery.mergeschema import schema_for
from kgen.runtime.apimachinery.util.strategicpatch.patch import strategic_merge_patch
from kgen.runtime.apimachinery.util.strategicpatch.diff import BadJSONDocument
from tests.support.oracle import oracle_binary

ORIGINAL = {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web", "labels": {"app": "web"}},
            "spec": {"selector": {}, "template": {"spec": {"containers": [{"name": "a", "image": "x"}, {"name": "b"}]}}}}
MODIFIED = {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web"},
            "spec": {"selector": {}, "template": {"spec": {"containers": [{"name": "b"}, {"name": "c", "image": "y"}]}}}}

DEPLOYMENT, POD = schema_for("apps/v1", "Deployment"), schema_for("v1", "Pod")
assert DEPLOYMENT is not None and POD is not None


def _oracle(cases: list[dict[str, Any]]) -> list[dict[str, Any]]:
    done = subprocess.run([str(oracle_binary("strategicpatch"))], input="".join(json.dumps(c) + "\n" for c in cases),
                          capture_output=True, text=True, check=True, timeout=600)
    return [json.loads(line) for line in done.stdout.splitlines()]


def test_typed_models_give_the_same_patch_as_their_json() -> None:
    expected = _oracle([{"kind": "apps/v1 Deployment", "op": "two-way", "original": ORIGINAL, "modified": MODIFIED}])[0]
    models = create_two_way_merge_patch(Deployment.from_dict(ORIGINAL), Deployment.from_dict(MODIFIED))
    assert models == expected["ok"]
    assert create_two_way_merge_patch(json.dumps(ORIGINAL), json.dumps(MODIFIED).encode()) == expected["ok"]
    assert strategic_merge_patch(ORIGINAL, models, DEPLOYMENT) == MODIFIED


def test_a_model_without_api_version_finds_its_schema_from_its_class() -> None:
    bare = {k: v for k, v in ORIGINAL.items() if k not in ("apiVersion", "kind")}
    changed = {k: v for k, v in MODIFIED.items() if k not in ("apiVersion", "kind")}
    patch = create_two_way_merge_patch(Deployment.from_dict(bare), Deployment.from_dict(changed))
    assert "$setElementOrder/containers" in patch["spec"]["template"]["spec"]  # merge list: the schema was found
    assert "apiVersion" not in patch


def test_numbers_decode_as_apimachinery_decodes_them() -> None:
    """Integers past int64 become float64 in Go, so ``1e19`` written either way is no change."""
    cases = [{"kind": "v1 Pod", "op": "two-way", "original": '{"spec": {"priority": 10000000000000000000}}',
              "modified": '{"spec": {"priority": 1e19}}'},
             {"kind": "v1 Pod", "op": "two-way", "original": '{"spec": {"priority": 1}}',
              "modified": '{"spec": {"priority": 1.0}}'}]
    expected = _oracle([{**c, "original": json.loads(c["original"]), "modified": json.loads(c["modified"])}
                        for c in cases])
    assert [{"ok": create_two_way_merge_patch(c["original"], c["modified"], schema=POD)} for c in cases] == expected
    assert expected[0] == {"ok": {}}


def test_a_custom_resource_is_refused_as_the_apiserver_refuses_its_strategic_patch(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parents[2] / "examples" / "sample_controller"))
    foo = importlib.import_module("client.models.samplecontroller_kgen_dev.v1alpha1").Foo
    before = foo.from_dict({"metadata": {"name": "f"}, "spec": {"deploymentName": "d", "replicas": 1}})
    after = foo.from_dict({"metadata": {"name": "f"}, "spec": {"deploymentName": "d", "replicas": 2}})
    with pytest.raises(ValueError, match=r"^apiVersion 'samplecontroller.kgen.dev/v1alpha1' kind 'Foo' is a custom "
                                         r"resource: the apiserver refuses a strategic merge patch of it \(415\)"):
        create_two_way_merge_patch(before, after)
    schema = schema_for("samplecontroller.kgen.dev/v1alpha1", "Foo", package="client")
    assert create_two_way_merge_patch(before, after, schema=schema) == {"spec": {"replicas": 2}}


def test_inputs_are_left_unchanged() -> None:
    original = {"metadata": {"finalizers": ["b", "a", "c"]}, "apiVersion": "v1", "kind": "Pod"}
    modified = {"metadata": {"finalizers": ["c", "x"]}, "apiVersion": "v1", "kind": "Pod"}
    current = {"metadata": {"finalizers": ["b", "c", "a"]}, "apiVersion": "v1", "kind": "Pod"}
    before = json.dumps([original, modified, current])
    create_two_way_merge_patch(original, modified)
    create_three_way_merge_patch(original, modified, current, overwrite=False)
    assert json.dumps([original, modified, current]) == before  # Go sorts the originals' lists in place


@pytest.mark.parametrize(("original", "modified", "error", "words"), [
    ("{", "{}", BadJSONDocument, "invalid JSON document"),
    ("[1]", "{}", BadJSONDocument, "invalid JSON document"),
    ('{"a": NaN}', "{}", BadJSONDocument, "invalid JSON document"),
    ({"metadata": {}}, {"metadata": {"name": "x"}}, ValueError, "the documents name no apiVersion and kind; pass schema="),
    ({"apiVersion": "example.com/v1", "kind": "Widget"}, {}, ValueError,
     "no merge schema for apiVersion 'example.com/v1' kind 'Widget' in package kgen.kubernetes"),
])
def test_bad_input_is_one_clear_error(original: Any, modified: Any, error: type[Exception], words: str) -> None:
    with pytest.raises(error) as raised:
        create_two_way_merge_patch(original, modified)
    assert words in str(raised.value)
    assert "\n" not in str(raised.value)


def test_preconditions_and_conflicts_answer_as_apimachinery() -> None:
    pod = {"apiVersion": "v1", "kind": "Pod"}
    cases = [
        {"kind": "v1 Pod", "op": "two-way", "original": {**pod, "metadata": {"name": "a"}},
         "modified": {**pod, "metadata": {"name": "b"}}, "preconditions": [{"metadataKey": "name"}]},
        {"kind": "v1 Pod", "op": "two-way", "original": pod, "modified": {**pod, "spec": {"nodeName": "n"}},
         "preconditions": [{"key": "spec"}]},
        {"kind": "v1 Pod", "op": "three-way", "original": {**pod, "spec": {"nodeName": "a"}},
         "modified": {**pod, "spec": {"nodeName": "b"}}, "current": {**pod, "spec": {"nodeName": "c"}}},
    ]
    expected = _oracle(cases)
    with pytest.raises(PreconditionFailed) as failed:
        create_two_way_merge_patch(cases[0]["original"], cases[0]["modified"], require_metadata_key_unchanged("name"))
    assert {"error": "precondition", "message": str(failed.value)} == expected[0]
    with pytest.raises(PreconditionFailed) as failed:
        create_two_way_merge_patch(cases[1]["original"], cases[1]["modified"], require_key_unchanged("spec"))
    assert {"error": "precondition", "message": str(failed.value)} == expected[1]
    with pytest.raises(MergingConflict) as conflict:
        create_three_way_merge_patch(cases[2]["original"], cases[2]["modified"], cases[2]["current"], overwrite=False)
    assert {"error": "conflict", "message": str(conflict.value)} == expected[2]
    assert create_three_way_merge_patch(cases[2]["original"], cases[2]["modified"], cases[2]["current"]) == \
        {"spec": {"nodeName": "b"}}


#: Strings go-yaml v2 writes plain, single-quoted (the emitter refuses them plain), double-quoted
#: (they would read back as another type, or hold characters only escapes can show) or as a literal
#: block (several lines), long ones folded at spaces past column 80, and keys its keyList.Less
#: orders (letters first, digit runs as numbers).
TRICKY = ["a", "y", "n", "yes", "Off", "~", "null", "", "10", "010", "0x1F", "1_000", "1.5", ".5", "1e3", "-1",
          "+1", "2001-12-14", "1:20", "-a", "- a", "?", ":x", "x:", "a: b", "a #b", "a#b", "#a", " a", "a ", "'q'",
          '"q"', "é", "a/b", "$patch", "@x", "%x", "`x", "!x", "&x", "*x", "|x", ">x", "[x", "{x", "-", "---", "...",
          ".inf", "-.inf", ".nan", "<<", "true", "False", "1.5.6", "-0b101", "0o17", "1e", "a1", "a10", "a2", "A", "_",
          "a\tb", "\x01", "\x7f", "a\u2028b", "\ufeffa", "a\nb", "a\nb\n", "a\n\n", "\n", " a\nb", "a \nb", "a\n b",
          "a\r\nb", " ".join(["word"] * 30), "  ".join(["two"] * 30), ("x" * 70 + " 'q' " + "y " * 20),
          ("1 " * 45), ("é" * 60 + " ü" * 20), ("long: " * 20), ("z" * 120), ("w " * 60 + "\n" + "v " * 60)]


def test_conflict_yaml_matches_go_yaml_for_tricky_strings() -> None:
    cases = []
    for i, s in enumerate(TRICKY):
        labels = {s: TRICKY[(i + 7) % len(TRICKY)], TRICKY[(i + 3) % len(TRICKY)]: s, "k": [s, 1, 1.5, True, None, 2.0, 1e21, 1e-7, -0.5, 123456789.25, 9223372036854775807]}
        cases.append({"kind": "v1 Pod", "op": "three-way", "original": {"metadata": {"annotations": {"k": "o"}}},
                      "modified": {"metadata": {"annotations": {"k": "m"}}, "spec": {"nodeSelector": labels}},
                      "current": {"metadata": {"annotations": {"k": s}}}})
    expected = _oracle(cases)
    mismatches = []
    unreadable = 0
    for case, want in zip(cases, expected, strict=True):
        try:
            got: dict[str, Any] = {"ok": create_three_way_merge_patch(
                case["original"], case["modified"], case["current"], overwrite=False,
                schema=POD)}
        except MergingConflict as e:
            got = {"error": "conflict", "message": str(e)}
        if "yaml marshal failed" in want["message"]:  # then Go dumps the value in random map order
            unreadable += 1
            failed = [line for line in want["message"].split("\n") if line.startswith("yaml marshal failed")]
            if [line for line in got["message"].split("\n") if line.startswith("yaml marshal failed")] != failed:
                mismatches.append((case["current"], got, want))
        elif got != want:
            mismatches.append((case["current"], got, want))
    assert all(w.get("error") == "conflict" for w in expected)
    assert not mismatches, mismatches[:3]
    assert 0 < unreadable < len(cases) // 10


def test_conflict_yaml_of_complex_keys_and_nested_values_matches_go_yaml() -> None:
    """Keys over 128 bytes or of several lines take go-yaml's ``? key`` / ``: value`` form, a
    collection value starting on the ``:`` line; lists of lists nest as ``- - x``."""
    long = "k" * 130
    values: list[Any] = [{"a": 1, "b": [1, 2]}, [1, {"x": "y", "z": 2}, [3, 4]], {}, [], [[1, 2], [3]],
                         {"multi\nline": {"q": 1}, long: [1]}, "v"]
    cases = [{"kind": "v1 Pod", "op": "three-way", "original": {"metadata": {"annotations": {"k": "o"}}},
              "modified": {"metadata": {"annotations": {"k": "m"}}, "spec": {"overhead": {long: v, "a\nb": v, "c": v}}},
              "current": {"metadata": {"annotations": {"k": "c"}}}} for v in values]
    for case, want in zip(cases, _oracle(cases), strict=True):
        with pytest.raises(MergingConflict) as conflict:
            create_three_way_merge_patch(case["original"], case["modified"], case["current"], overwrite=False, schema=POD)
        assert {"error": "conflict", "message": str(conflict.value)} == want
