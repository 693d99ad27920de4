"""Writes generator/manifests/k8s_schemas.py: controller-gen's schema of the k8s.io/api types a CRD
embeds, as data ``kgen manifests`` writes for the same classes of a kgen-generated package.

controller-gen reads k8s.io/api's Go markers (``+listType``, ``+listMapKey``, ``+mapType``,
``+structType``, ``+default``, ``+kubebuilder:validation:...``) and the Go types (``int32`` ->
``format: int32``); a generated model keeps only part of that. So the script builds controller-gen
(hack/controller-gen/build.sh), runs it on hack/controller-gen/k8stypes (one CRD whose spec has a
field per type, named ``<group>.<version>.<Kind>`` after the type's class in kgen.kubernetes.models),
and walks each field's flattened schema beside the Python class, cutting it back into one entry per
class: ``schema``, the keywords every use of the class carries (type, required, map type), and
``properties``, each field's schema with descriptions dropped (kgen writes its own) and every
nested class replaced by ``{"$ref": "<group>.<version>.<Kind>", ...}`` plus the keywords that
use adds. Run it after changing the carrier's list of types or the envtest version:

    .venv/bin/python hack/controller-gen/k8s_schemas.py [OUT]   (OUT: elsewhere than the module, to compare)
"""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
import tempfile
import typing
from pathlib import Path
from typing import Any

import msgspec
import yaml

from kgen.generator.manifests.crd_schema import _unwrap
from kgen.runtime.apimachinery.model import Model

HERE = Path(__file__).resolve().parent
OUT = HERE.parent.parent / "generator" / "manifests" / "k8s_schemas.py"
PACKAGE = "kgen.kubernetes.models"


def key_of(cls: type) -> str:
    return f"{cls.__module__.removeprefix(PACKAGE + '.')}.{cls.__name__}"


def class_of(key: str) -> type:
    module, name = key.rsplit(".", 1)
    return typing.cast(type, getattr(importlib.import_module(f"{PACKAGE}.{module}"), name))


class Walk:
    def __init__(self) -> None:
        self.properties: dict[str, dict[str, Any]] = {}
        self.uses: dict[str, list[dict[str, Any]]] = {}
        self.placeholders: list[dict[str, Any]] = []

    def use(self, cls: type, sub: dict[str, Any], where: str) -> dict[str, Any]:
        key = key_of(cls)
        keywords = {k: v for k, v in sub.items() if k not in ("description", "properties")}
        self.uses.setdefault(key, []).append(keywords)
        hints = typing.get_type_hints(cls, include_extras=True)
        go = sub.get("properties", {})
        props: dict[str, Any] = {}
        for info in msgspec.structs.fields(cls):
            if info.encode_name not in go:
                sys.exit(f"{where}: {key}.{info.encode_name} is not in controller-gen's schema")
            props[info.encode_name] = self.convert(go[info.encode_name], hints[info.name], f"{where}.{info.encode_name}")
        if set(go) - set(props):
            sys.exit(f"{where}: controller-gen's {key} has fields the Python class lacks: {sorted(set(go) - set(props))}")
        if key in self.properties and self.properties[key] != props:
            sys.exit(f"{where}: {key} differs between two uses")
        self.properties[key] = props
        placeholder = {"$ref": key, **keywords}
        self.placeholders.append(placeholder)
        return placeholder

    def convert(self, sub: dict[str, Any], tp: Any, where: str) -> dict[str, Any]:
        shape = _unwrap(tp)
        t = shape.tp
        if isinstance(t, type) and issubclass(t, Model) and "properties" in sub:
            return self.use(t, sub, where)
        out = {k: v for k, v in sub.items() if k != "description"}
        origin = typing.get_origin(t)
        if origin is list and "items" in sub:
            out["items"] = self.convert(sub["items"], typing.get_args(t)[0], where + "[]")
        elif origin is dict and "additionalProperties" in sub:
            out["additionalProperties"] = self.convert(sub["additionalProperties"], typing.get_args(t)[1], where + "{}")
        return out


def main(out_path: Path = OUT) -> None:
    binary = subprocess.run([str(HERE / "build.sh")], check=True, capture_output=True, text=True).stdout.strip()
    with tempfile.TemporaryDirectory() as out:
        subprocess.run([binary, "crd", "paths=./k8stypes/...", f"output:crd:dir={out}"], cwd=HERE, check=True)
        (crd,) = [yaml.safe_load(p.read_text()) for p in Path(out).glob("*.yaml")]
    carried = crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]["properties"]
    walk = Walk()
    roots = {}
    for key, sub in sorted(carried.items()):
        walk.use(class_of(key), sub, key)
        roots[key] = {k: v for k, v in sub.items() if k not in ("description", "properties")}
    # A class's own keywords: the carrier's use of it (no field markers there), else those every use shares.
    common: dict[str, dict[str, Any]] = {}
    for key, uses in walk.uses.items():
        common[key] = roots.get(key) or {k: v for k, v in uses[0].items() if all(u.get(k, object()) == v for u in uses)}
    for placeholder in walk.placeholders:
        for k, v in common[placeholder["$ref"]].items():
            if placeholder.get(k, object()) == v:
                del placeholder[k]
    data = {key: {"schema": common[key], "properties": walk.properties[key]} for key in sorted(walk.properties)}
    text = json.dumps(data, indent=0, sort_keys=True, ensure_ascii=True)
    assert "'''" not in text
    out_path.write_text(
        '"""controller-gen v0.23.0\'s schema of the k8s.io/api types a CRD embeds, by class of a kgen-generated\n'
        "package (``<group>.<version>.<Kind>``): written by hack/controller-gen/k8s_schemas.py, which says\n"
        'how; do not edit."""\n\n'
        "import json\nfrom typing import Any\n\n"
        "#: ``key -> {\"schema\": the class's own keywords, \"properties\": wire name -> field schema}``.\n"
        f"SCHEMAS: dict[str, dict[str, Any]] = json.loads(r'''{text}''')\n",
        encoding="utf-8",
    )
    print(f"wrote {out_path}: {len(data)} classes, {out_path.stat().st_size} bytes")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else OUT)
