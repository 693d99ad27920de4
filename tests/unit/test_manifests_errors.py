"""`kgen manifests` on bad input: exit 2, one line saying where and what was expected, no traceback,
nothing written."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Literal

import pytest

from kgen.generator.cli import main as kgen
from kgen.generator.manifests.crd import Options, Root, build_crds
from kgen.generator.manifests.errors import ManifestError
from kgen.runtime.apimachinery import Model
from kgen.runtime.apimachinery import markers as m

if TYPE_CHECKING:
    from decimal import Decimal  # only for mypy: at run time the annotation cannot be resolved

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
    code = kgen(["manifests", "--allow-dangerous-types", "--module", f"{P}.gadgets", "--module", f"{P}.{module}", "--out", str(out)])
    captured = capsys.readouterr()
    assert code == 2
    assert captured.err == f"kgen manifests: {message}\n"
    assert captured.out == ""
    assert not out.exists()


def test_module_without_resources_is_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert kgen(["manifests", "--allow-dangerous-types", "--module", P, "--out", str(tmp_path / "o")]) == 2
    assert capsys.readouterr().err == (
        f"kgen manifests: --module {P}: has no class marked @resource and nothing marked @rbac or @webhook "
        "(expected model classes decorated with kgen.runtime.apimachinery.markers.resource(...), "
        "controllers with @rbac(...), or webhooks with kgen.runtime.webhook.markers.webhook(...))\n"
    )


def test_out_is_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "file"
    target.write_text("x")
    assert kgen(["manifests", "--allow-dangerous-types", "--module", f"{P}.gadgets", "--out", str(target)]) == 2
    assert capsys.readouterr().err == f"kgen manifests: --out {target}: is a file (expected a folder, or nothing there)\n"
    assert target.read_text() == "x"


def test_module_is_required_usage_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        kgen(["manifests", "--allow-dangerous-types", "--out", str(tmp_path)])
    assert exit_.value.code == 2
    assert "the following arguments are required: --module" in capsys.readouterr().err


# -- the same checks on classes built here, through the emitter's entry point ------------------


G = "errors.manifests.kgen.test"
HERE = __name__


class NullableNotOptional(Model, kw_only=True):
    name: Annotated[str, m.Nullable()] = "x"


class DefaultsDisagree(Model, kw_only=True):
    size: Annotated[int, m.Default(3)] = 2


class MixedLiteral(Model, kw_only=True):
    level: Literal["low", 2] | None = None


class Lookahead(Model, kw_only=True):
    name: Annotated[str, m.Pattern("^a(?=b)")] | None = None


class ListMapOfStrings(Model, kw_only=True):
    names: Annotated[list[str], m.ListType("map", keys=["name"])] | None = None


class OptionalMapKey(Model, kw_only=True):
    name: str | None = None


class ListMapOptionalKey(Model, kw_only=True):
    items: Annotated[list[OptionalMapKey], m.ListType("map", keys=["name"])] | None = None


class Unresolvable(Model, kw_only=True):
    amount: Decimal | None = None


class Plain(Model, kw_only=True):
    size: int | None = None


def _fails(*roots: tuple[type[Model], m.ResourceMarkers]) -> str:
    with pytest.raises(ManifestError) as error:
        build_crds([Root(cls, facts) for cls, facts in roots], "test", Options(allow_dangerous_types=True))
    return str(error.value)


def _facts(**kw: object) -> m.ResourceMarkers:
    values: dict[str, object] = {"group": G, "version": "v1", "kind": "Thing", **kw}
    return m.ResourceMarkers(**values)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("cls", "message"),
    [
        (NullableNotOptional, f"{HERE}.NullableNotOptional.name: Nullable() on a field that cannot hold None "
                              "(expected the field typed T | None)"),
        (DefaultsDisagree, f"{HERE}.DefaultsDisagree.size: Default(3) disagrees with the Python default 2 "
                           "(expected one default: the Python one, or Default(...) with a None Python default)"),
        (MixedLiteral, f"{HERE}.MixedLiteral.level: Literal['low', 2] mixes value types "
                       "(expected enum values all str, all int, all float or all bool)"),
        (Lookahead, f"{HERE}.Lookahead.name: Pattern('^a(?=b)') uses a lookaround or a backreference "
                    "(expected RE2 syntax, which the apiserver's Go regexp accepts)"),
        (ListMapOfStrings, f"{HERE}.ListMapOfStrings.names: ListType('map') on a list whose items are not models "
                           "(expected list[SomeModel])"),
        (ListMapOptionalKey, f"{HERE}.ListMapOptionalKey.items: ListType('map') key 'name' is optional in the items "
                             "(expected map keys required or defaulted, as the apiserver demands)"),
        (Unresolvable, f"{HERE}.Unresolvable: its annotations cannot be resolved: NameError: name 'Decimal' is not "
                       "defined (expected every name in its annotations defined or imported in its module)"),
    ],
    ids=lambda v: v.__name__ if isinstance(v, type) else "",
)
def test_field_errors_name_the_field(cls: type[Model], message: str) -> None:
    assert _fails((cls, _facts())) == message


def test_versions_must_agree_on_scope() -> None:
    assert _fails((Plain, _facts()), (NullableNotOptional, _facts(version="v2", scope="Cluster", storage=True))) == (
        f"{G}/Thing: its versions disagree on scope: {HERE}.Plain (Namespaced), "
        f"{HERE}.NullableNotOptional (Cluster) (expected the same scope on every version)"
    )


def test_versions_giving_names_must_agree() -> None:
    """Short names may be given on one version only (below); two versions giving different ones fail."""
    assert _fails((Plain, _facts(short_names=("th",))), (NullableNotOptional, _facts(version="v2", short_names=("tg",),
                                                                                     storage=True))) == (
        f"{G}/Thing: its versions disagree on shortNames: {HERE}.Plain gives ['th'], {HERE}.NullableNotOptional ['tg'] "
        "(expected shortNames given on one version, or the same on every version giving it)"
    )


def test_one_class_per_version() -> None:
    assert _fails((Plain, _facts()), (DefaultsDisagree, _facts())) == (
        f"{HERE}.DefaultsDisagree: version v1 of {G}/Thing is also {HERE}.Plain (expected one class per version)"
    )


@pytest.mark.parametrize(
    ("facts", "message"),
    [
        (_facts(group="nodot"), "group 'nodot' is not a DNS subdomain with a dot (expected a group like 'batch.example.com')"),
        (_facts(version="V1"), "version 'V1' (expected a version like v1, v1beta1, v2alpha1)"),
        (_facts(kind="thing"), "kind 'thing' (expected a CamelCase kind starting with a capital letter)"),
        (_facts(plural="Things"), "plural 'Things' is not a lower-case DNS label "
                                  "(expected lower-case letters, digits and '-', e.g. 'cronjobs')"),
        (_facts(printer_columns=(m.PrinterColumn("Size", "int", ".spec.size"),)),  # type: ignore[arg-type]
         "printer column 'Size' has type 'int' (expected integer, number, string, boolean or date)"),
        (_facts(printer_columns=(m.PrinterColumn("Size", "integer", "spec.size"),)),
         "printer column 'Size' has JSON path 'spec.size' (expected a path starting with '.', e.g. '.spec.schedule')"),
    ],
)
def test_resource_facts_are_checked(facts: m.ResourceMarkers, message: str) -> None:
    assert _fails((Plain, facts)) == f"{HERE}.Plain: {message}"
