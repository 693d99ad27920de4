"""Writes generator/manifests/k8s_schemas.py: controller-gen's schema of the k8s.io/api types a CRD
embeds, as data ``kgen manifests`` writes for the same classes of a kgen-generated package.

controller-gen reads k8s.io/api's Go markers (``+listType``, ``+listMapKey``, ``+mapType``,
``+structType``, ``+default``, ``+kubebuilder:validation:...``) and the Go types (``int32`` ->
``format: int32``); a generated model keeps only part of that. So the script builds controller-gen
(hack/controller-gen/build.sh), runs it on hack/controller-gen/k8stypes (one CRD whose spec has a
field per k8s.io/api type of kgen.kubernetes.models, named ``<group>.<version>.<Kind>`` after its class),
and walks each field's flattened schema beside the Python class, cutting it back into one entry per
class: ``schema``, the keywords every use of the class carries (type, required, map type), and
``properties``, each field's schema with descriptions dropped (kgen writes its own) and every
nested class replaced by ``{"$ref": "<group>.<version>.<Kind>", ...}`` plus the keywords that
use adds. After the envtest version (and the generated package) moves on, write the carrier again
from the package, and the data from it:

    .venv/bin/python hack/controller-gen/k8s_schemas.py --write-carrier
    .venv/bin/python hack/controller-gen/k8s_schemas.py [OUT]   (the data only; OUT elsewhere, to compare)
"""

from __future__ import annotations

import importlib
import inspect
import json
import pkgutil
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
CARRIER = HERE / "k8stypes" / "v1" / "carrier.go"
PACKAGE = "kgen.kubernetes.models"
#: Groups of the generated package whose Go types are k8s.io/api's (apiextensions and apiregistration
#: live elsewhere, and meta/v1's are taken one by one below).
NOT_K8S_API = {"apiextensions", "apiregistration", "meta"}
META = ["LabelSelector", "LabelSelectorRequirement", "OwnerReference"]
#: Classes the generated package has and k8s.io/api has not (the OpenAPI names the Local/Self
#: reviews' shared Go types after each review).
NOT_IN_GO = {"authorization.v1.LocalSubjectAccessReviewSpec", "authorization.v1.LocalSubjectAccessReviewStatus",
             "authorization.v1.SelfSubjectAccessReviewStatus", "authorization.v1.SelfSubjectRulesReviewStatus"}


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


def write_carrier() -> None:
    """k8stypes/v1/carrier.go: a field for every class of the generated package that is a k8s.io/api
    type (every type a CRD may embed, and what they contain), and meta/v1's ``META``."""
    imports = {"metav1": "k8s.io/apimachinery/pkg/apis/meta/v1"}
    fields = [f'\tMetaV1{name} metav1.{name} `json:"meta.v1.{name}"`' for name in META]
    for info in pkgutil.walk_packages(importlib.import_module(PACKAGE).__path__, PACKAGE + "."):
        parts = info.name.split(".")
        if len(parts) != 5 or parts[3] in NOT_K8S_API:
            continue
        group, version = parts[3], parts[4]
        module = importlib.import_module(info.name)
        alias = f"{group}{version}"
        for name, obj in sorted(vars(module).items()):
            key = f"{group}.{version}.{name}"
            if inspect.isclass(obj) and issubclass(obj, Model) and obj.__module__ == module.__name__ and key not in NOT_IN_GO:
                imports[alias] = f"k8s.io/api/{group}/{version}"
                fields.append(f'\t{group.capitalize()}{version.capitalize()}{name} {alias}.{name} `json:"{key}"`')
    CARRIER.write_text(
        "// Package v1 carries, as fields of one CRD's spec, every k8s.io/api type of kgen's generated package\n"
        "// (and meta/v1's label selector and owner reference): controller-gen's schema of each is the data\n"
        "// `kgen manifests` writes those types from (generator/manifests/k8s_schemas.py). A field is named after\n"
        "// the type's class, \"<group>.<version>.<Kind>\". Written by hack/controller-gen/k8s_schemas.py\n"
        "// --write-carrier; do not edit.\n"
        "// +groupName=carrier.kgen.dev\npackage v1\n\nimport (\n"
        + "".join(f'\t{a} "{p}"\n' for a, p in sorted(imports.items()))
        + ")\n\n// CarrierSpec holds one field per type.\ntype CarrierSpec struct {\n" + "\n".join(fields) + "\n}\n\n"
        "// Carrier is the root type the types are carried by.\n// +kubebuilder:object:root=true\ntype Carrier struct {\n"
        '\tmetav1.TypeMeta   `json:",inline"`\n\tmetav1.ObjectMeta `json:"metadata,omitempty"`\n'
        '\tSpec              CarrierSpec `json:"spec"`\n}\n',
        encoding="utf-8",
    )
    subprocess.run(["gofmt", "-w", str(CARRIER)], check=True)


def main(out_path: Path = OUT) -> None:
    binary = subprocess.run([str(HERE / "build.sh")], check=True, capture_output=True, text=True).stdout.strip()
    with tempfile.TemporaryDirectory() as out:
        subprocess.run([binary, "crd", "paths=./k8stypes/...", f"output:crd:dir={out}"], cwd=HERE, check=True)
        loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml: the carrier's CRD is ~25 MB
        (crd,) = [yaml.load(p.read_text(), Loader=loader) for p in Path(out).glob("*.yaml")]
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
    if sys.argv[1:2] == ["--write-carrier"]:
        write_carrier()
        main()
    else:
        main(Path(sys.argv[1]) if len(sys.argv) > 1 else OUT)
