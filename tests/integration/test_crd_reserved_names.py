"""A planted CRD with a field for every name a generated field may not take.

The names come from the generator itself (``naming.reserved_field_names``: the members of the
model and apply-configuration bases and what the class templates import), so a name the bases
gain tomorrow is planted too. Each is planted as its own wire name (``to_dict``) and as the
camelCase a CRD would use (``toDict``), at the kind's root and in its spec. The package must
type-check with ``mypy --strict`` (models and apply configurations), keep every base member
in place, and read and write every field under its wire name, losslessly.
"""

from __future__ import annotations

import importlib
import inspect
import json
import re
from pathlib import Path
from typing import Any

import msgspec

from kgen.generator import naming
from kgen.runtime.apimachinery.apply import ApplyConfiguration
from kgen.runtime.apimachinery.model import Model
from tests.support.packages import generate, import_all, mypy_strict

GROUP, VERSION, KIND = "reserved.kgen.dev", "v1", "Planted"


def _camel(name: str) -> str:
    words = [w for w in name.split("_") if w]
    return "".join([words[0].lower(), *(w[:1].upper() + w[1:].lower() for w in words[1:])]) if words else name


def _wire_names() -> list[str]:
    names = set()
    for name in naming.reserved_field_names():
        names.add(name)
        names.add(_camel(name))
    # apiVersion, kind and metadata are the kind's own; a planted one would replace them.
    return sorted(n for n in names if n and n not in ("apiVersion", "kind", "metadata"))


def _crd(wires: list[str]) -> dict[str, Any]:
    planted = {w: {"type": "string"} for w in wires}
    return {
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": f"planteds.{GROUP}"},
        "spec": {
            "group": GROUP,
            "names": {"kind": KIND, "listKind": KIND + "List", "plural": "planteds", "singular": "planted"},
            "scope": "Namespaced",
            "versions": [{
                "name": VERSION, "served": True, "storage": True,
                "schema": {"openAPIV3Schema": {
                    "type": "object",
                    "properties": {
                        "apiVersion": {"type": "string"}, "kind": {"type": "string"}, "metadata": {"type": "object"},
                        **planted,
                        "spec": {"type": "object", "properties": planted, "required": ["field", "extract"]},
                    },
                }},
            }],
        },
    }


def _python_names(cls: type) -> dict[str, str]:
    info = msgspec.inspect.type_info(cls)
    assert isinstance(info, msgspec.inspect.StructType)
    return {f.encode_name: f.name for f in info.fields}


def test_a_field_for_every_reserved_name_generates_type_checks_and_round_trips(tmp_path: Path) -> None:
    reserved = naming.reserved_field_names()
    # What the names are derived from: the bases' members (msgspec.Struct's with them) and the
    # templates' imports; the names issue 31 found missing from the old hand-kept list are among them.
    assert set(dir(ApplyConfiguration)) | set(dir(Model)) | set(dir(msgspec.Struct)) <= reserved
    assert {"extract", "from_model", "with_unknown_fields", "field", "builtins"} <= reserved
    wires = _wire_names()
    crd = tmp_path / "crd.yaml"
    crd.write_text(json.dumps(_crd(wires)))
    out = tmp_path / "out"
    generate(out, "planted", "--crd", str(crd))
    list(import_all(out, "planted"))

    checked = mypy_strict(tmp_path, out / "planted")
    assert checked.returncode == 0, checked.stdout[-3000:]
    assert re.search(r"no issues found in \d+ source files", checked.stdout), checked.stdout[-500:]

    models = importlib.import_module("planted.models.reserved_kgen_dev.v1")
    applies = importlib.import_module("planted.applyconfigurations.reserved_kgen_dev.v1")
    kind, spec = models.Planted, models.PlantedSpec
    kind_apply, spec_apply = applies.PlantedApplyConfiguration, applies.PlantedSpecApplyConfiguration
    for cls, base in ((kind, Model), (spec, Model), (kind_apply, ApplyConfiguration), (spec_apply, ApplyConfiguration)):
        names = _python_names(cls)
        assert set(wires) <= set(names), set(wires) - set(names)
        assert not set(names.values()) & reserved, set(names.values()) & reserved
        if cls in (kind, kind_apply):  # the names the runtime reads win a collision (API_VERSION)
            assert [names[w] for w in ("apiVersion", "kind", "metadata")] == ["api_version", "kind", "metadata"]
        # Every member of the base's own (not a dunder msgspec or Python sets per class) is still
        # the base's: API_VERSION and KIND a kind sets itself.
        for name in dir(base):
            if not name.startswith("__") and name not in ("API_VERSION", "KIND"):
                assert inspect.getattr_static(cls, name) is inspect.getattr_static(base, name), f"{cls.__name__}.{name}"

    planted = {w: f"value of {w}" for w in wires}
    doc = {"apiVersion": f"{GROUP}/{VERSION}", "kind": KIND, "metadata": {"name": "p", "namespace": "ns"},
           **planted, "spec": planted}
    for cls in (kind, kind_apply):
        obj = cls.from_dict(doc)
        assert obj.to_dict() == doc
        assert json.loads(cls.from_json(json.dumps(doc)).to_json()) == doc
        assert cls.from_json(obj.to_json()) == obj
    # The methods a field would have shadowed still work on the objects.
    obj = kind.from_dict(doc)
    assert kind_apply.from_model(obj).to_dict() == doc
    assert obj.with_unknown_fields({"extra": 1}).to_dict() == {**doc, "extra": 1}
    assert kind_apply.extract(obj, "nobody").to_dict() == {
        "apiVersion": f"{GROUP}/{VERSION}", "kind": KIND, "metadata": {"name": "p", "namespace": "ns"}
    }
    made = spec(field_="f", extract_="e")  # the required ones, by their escaped Python names
    assert made.to_dict() == {"field": "f", "extract": "e"}
