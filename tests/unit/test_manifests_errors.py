"""`kgen manifests` on bad input: exit 2, one line saying where and what was expected, no traceback,
nothing written."""

from __future__ import annotations

from pathlib import Path

import pytest

from kgen.generator.cli import main as kgen

P = "tests.support.manifests"

CASES = [
    ("bad_unknown_type",
     f"{P}.bad_unknown_type.ThingSpec.names: set[str] has no CRD schema (expected str, int, float, bool, "
     "Literal[...], int | str, list[T], dict[str, T], Any, a Model subclass, or one of these | None)"),
    ("bad_constraint",
     f"{P}.bad_constraint.ThingSpec.count: MinLength(1) on a field of type int (expected MinLength on a str field)"),
    ("bad_no_storage",
     "bad.manifests.kgen.test/Thing: no storage version among ['v1', 'v2'] "
     "(expected exactly one version with @resource(storage=True))"),
    ("bad_two_storage",
     "bad.manifests.kgen.test/Thing: 2 storage versions: ['v1', 'v2'] "
     "(expected exactly one version with @resource(storage=True))"),
    ("bad_default",
     f"{P}.bad_default.Thing.size: the default 'big' does not fit the field's type: Expected `int`, got `str` "
     "(expected a value of type int)"),
    ("bad_recursive",
     f"{P}.bad_recursive.Node.children[]: Node contains itself (Node -> Node); a CRD schema cannot refer to itself "
     "(expected a finite tree of types; an open-ended part as Any with PreserveUnknownFields)"),
    ("bad_import", f"--module {P}.bad_import: importing it raised RuntimeError: settings.yaml not found"),
    ("bad_list_map_key",
     f"{P}.bad_list_map_key.Thing.entries: ListType('map') key 'id' is not a field of the items "
     "(expected a wire name among ['name'])"),
    ("no_such_module",
     f"--module {P}.no_such_module: cannot import it: No module named '{P}.no_such_module' "
     "(expected an importable module, e.g. myproject.api.v1)"),
]


@pytest.mark.parametrize(("module", "message"), CASES, ids=[c[0] for c in CASES])
def test_bad_input_exits_2_with_one_line_and_writes_nothing(
    module: str, message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "crds"
    # A good module first: its CRD must not be written either when another module is bad.
    code = kgen(["manifests", "--module", f"{P}.gadgets", "--module", f"{P}.{module}", "--out", str(out)])
    captured = capsys.readouterr()
    assert code == 2
    assert captured.err == f"kgen manifests: {message}\n"
    assert captured.out == ""
    assert not out.exists()


def test_module_without_resources_is_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert kgen(["manifests", "--module", P, "--out", str(tmp_path / "o")]) == 2
    assert capsys.readouterr().err == (
        f"kgen manifests: --module {P}: has no class marked @resource "
        "(expected model classes decorated with kgen.runtime.apimachinery.markers.resource(...))\n"
    )


def test_out_is_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "file"
    target.write_text("x")
    assert kgen(["manifests", "--module", f"{P}.gadgets", "--out", str(target)]) == 2
    assert capsys.readouterr().err == f"kgen manifests: --out {target}: is a file (expected a folder, or nothing there)\n"
    assert target.read_text() == "x"


def test_module_is_required_usage_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        kgen(["manifests", "--out", str(tmp_path)])
    assert exit_.value.code == 2
    assert "the following arguments are required: --module" in capsys.readouterr().err
