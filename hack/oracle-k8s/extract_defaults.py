"""Writes runtime/fake/schema/defaults.json: the apiserver's defaulting of built-in kinds, as data.

For every built-in kind the generated package has a model for, and every struct type reachable
from it, the Go oracle (hack/oracle-k8s/defaults, k8s.io/kubernetes' scheme) defaults an object
holding an empty value of that type at each place the type occurs (``{}``, reached through empty
parents and one-element lists); what the empty value became is that type's defaults in that
kind. Fields holding a struct are kept as ``{}`` (the fake's walk defaults them by their own
type), everything else as the constant the oracle wrote. A type whose places disagree within a
kind (a default set by a parent's function for one place only) is reported, and the rules of
runtime/fake/schema/defaulting_rules.py must own the fields concerned.

Types whose defaults are the same in every kind go to ``types``; a kind's different ones to
``kinds[<apiVersion>/<Kind>]`` (every kind the oracle decodes is listed, possibly empty). That is
the pinned release's (versions.env); every other supported release is extracted with its own
oracle, and ``releases[<version>]`` holds the entries it has differently.

    .venv/bin/python hack/oracle-k8s/extract_defaults.py            # writes the file, prints a summary
    .venv/bin/python hack/oracle-k8s/extract_defaults.py --check    # exits 1 if the file is stale
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from msgspec import inspect

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "runtime" / "fake" / "schema" / "defaults.json"
MAX_DEPTH = 14
TIMESTAMP = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ")

Step = str  # a field name, "[]" (a list's element) or "{}" (a map's value)


def oracle(version: str) -> str:
    """The oracle binary's path for a Kubernetes release (built if missing)."""
    env = {**os.environ, "KGEN_ENVTEST_KUBERNETES_VERSION": version}
    return subprocess.run([str(ROOT / "hack/oracle-k8s/build.sh"), "defaults"], check=True, capture_output=True, text=True,
                          env=env).stdout.strip()


def run_oracle(version: str, objects: list[dict[str, Any]], *flags: str) -> list[dict[str, Any]]:
    """Each object defaulted by the oracle (``{"error": ...}`` where it refuses one)."""
    lines = "".join(json.dumps(o) + "\n" for o in objects)
    out = subprocess.run([oracle(version), *flags], input=lines, check=True, capture_output=True, text=True).stdout
    return [json.loads(line) for line in out.splitlines()]


def concrete(t: inspect.Type) -> inspect.Type:
    if isinstance(t, inspect.UnionType):
        members = [m for m in t.types if not isinstance(m, inspect.NoneType)]
        if len(members) == 1:
            return members[0]
    return t


def struct_of(cls: type) -> inspect.StructType:
    info = inspect.type_info(cls)
    assert isinstance(info, inspect.StructType)
    return info


def sites(root: inspect.StructType) -> list[tuple[list[Step], inspect.StructType]]:
    """Every place a struct type occurs below the root (the root's own too), no type repeated on a path."""
    found: list[tuple[list[Step], inspect.StructType]] = []

    def visit(t: inspect.StructType, path: list[Step], seen: frozenset[type]) -> None:
        found.append((path, t))
        if len(path) >= MAX_DEPTH:
            return
        for field in t.fields:
            steps: list[Step] = [field.encode_name]
            ft = concrete(field.type)
            while True:
                if isinstance(ft, (inspect.ListType, inspect.SetType, inspect.FrozenSetType)):
                    steps.append("[]")
                    ft = concrete(ft.item_type)
                elif isinstance(ft, inspect.DictType):
                    steps.append("{}")
                    ft = concrete(ft.value_type)
                else:
                    break
            if isinstance(ft, inspect.StructType) and ft.cls not in seen:
                visit(ft, path + steps, seen | {ft.cls})

    visit(root, [], frozenset({root.cls}))
    return found


def build(path: list[Step], leaf: dict[str, Any]) -> Any:
    value: Any = leaf
    for step in reversed(path):
        value = [value] if step == "[]" else {"k": value} if step == "{}" else {step: value}
    return value


def read(obj: Any, path: list[Step]) -> Any:
    for step in path:
        if step == "[]":
            obj = obj[0] if isinstance(obj, list) and obj else None
        elif step == "{}":
            obj = obj.get("k") if isinstance(obj, dict) else None
        else:
            obj = obj.get(step) if isinstance(obj, dict) else None
        if obj is None:
            return None
    return obj


def flatten(value: dict[str, Any], raw: dict[str, Any], t: inspect.StructType) -> tuple[dict[str, Any], dict[str, Any]]:
    """A defaulted empty value at depth one, and what encoding/json writes of the same empty value
    without defaulting (``raw``, the oracle's ``-raw``): the defaults (fields the defaulting set
    or changed; fields holding a struct as ``{}``, walked by their own type) and the zeros (a
    non-``omitempty`` field's ``null``, ``""``, ``0`` or ``false`` that no default replaced: a
    container's ``name: ""``, a Deployment's ``selector: null``; not defaults, written by the
    Go encoding)."""
    fields = {f.encode_name: f for f in t.fields}
    defaults: dict[str, Any] = {}
    zeros: dict[str, Any] = {}
    for key, item in sorted(value.items()):
        field = fields.get(key)
        if field is None:
            continue
        if isinstance(item, str) and TIMESTAMP.fullmatch(item):
            continue  # the time of the write (a DeviceTaint's timeAdded): a rule's, not a constant
        if isinstance(concrete(field.type), inspect.StructType) and isinstance(item, dict):
            defaults[key] = {}
        elif key in raw and raw[key] == item:
            zeros[key] = item
        else:
            defaults[key] = item
    return defaults, zeros


def extract(version: str, kinds: dict[str, type], type_name: Any) -> dict[str, Any]:
    """One release's data: the oracle of ``version`` defaults an empty value at every place of
    every struct type of ``kinds`` (their generated models)."""
    probes: list[tuple[str, list[Step], inspect.StructType]] = []
    objects: list[dict[str, Any]] = []
    for key in sorted(kinds):
        api_version, _, kind = key.rpartition("/")
        for path, t in sites(struct_of(kinds[key])):
            if path[:1] in (["apiVersion"], ["kind"]):
                continue
            obj = build(path, {}) if path else {}
            obj = {**obj, "apiVersion": api_version, "kind": kind} if isinstance(obj, dict) else obj
            probes.append((key, path, t))
            objects.append(obj)
    print(f"extract_defaults: {version}: {len(kinds)} kinds, {len(objects)} probes", file=sys.stderr)
    answers = run_oracle(version, objects)
    raws = run_oracle(version, objects, "-raw")
    assert len(answers) == len(objects) == len(raws)

    per_kind: dict[str, dict[str, dict[str, Any]]] = defaultdict(dict)
    zeros: dict[str, dict[str, Any]] = {}
    refused: set[str] = set()
    disagree: set[tuple[str, str]] = set()
    for (key, path, t), answer, raw in zip(probes, answers, raws, strict=True):
        if "error" in answer and len(answer) == 1:
            refused.add(key)
            continue
        got = read(answer, path) if path else answer
        if path == []:
            got = {k: v for k, v in got.items() if k not in ("apiVersion", "kind")}
        if not isinstance(got, dict):
            continue  # removed by a parent's rule (owned by a hand-written rule)
        raw_got = read(raw, path) if path else raw
        flat, zero = flatten(got, raw_got if isinstance(raw_got, dict) else {}, t)
        name = type_name(t.cls)
        zeros.setdefault(name, {}).update(zero)
        seen = per_kind[key].get(name)
        if seen is None:
            per_kind[key][name] = flat
        elif seen != flat:
            # keep the fields every place agrees on; the rest belongs to a rule
            per_kind[key][name] = {k: v for k, v in seen.items() if flat.get(k, object()) == v}
            disagree.add((key, name))
    for key in sorted(refused):
        per_kind.pop(key, None)
    # shared: the most common entry of each type across kinds
    variants: dict[str, Counter[str]] = defaultdict(Counter)
    for entries in per_kind.values():
        for name, flat in entries.items():
            variants[name][json.dumps(flat, sort_keys=True)] += 1
    shared = {name: json.loads(c.most_common(1)[0][0]) for name, c in sorted(variants.items())}
    own = {
        key: {name: flat for name, flat in sorted(entries.items()) if flat != shared[name]} for key, entries in sorted(per_kind.items())
    }
    data = {
        "version": version,
        "types": {n: f for n, f in shared.items() if f},
        "kinds": own,
        "zeros": {n: dict(sorted(z.items())) for n, z in sorted(zeros.items()) if z},
    }
    for key, name in sorted(disagree):
        print(f"extract_defaults: {version}: {key}: {name} differs between its places (a rule must own the fields)", file=sys.stderr)
    if refused:
        print(f"extract_defaults: {version}: the oracle refuses {len(refused)} kinds: {', '.join(sorted(refused))}", file=sys.stderr)
    return data


def delta(pinned: dict[str, Any], other: dict[str, Any]) -> dict[str, Any]:
    """What an older release's data has differently: for each section, the entries (a type's, a
    kind's) that differ, whole, ``null`` for one the release lacks."""
    out: dict[str, Any] = {}
    for section in ("types", "kinds", "zeros"):
        a, b = pinned[section], other[section]
        changed = {key: b.get(key) for key in sorted(a.keys() | b.keys()) if a.get(key) != b.get(key)}
        if changed:
            out[section] = changed
    return out


def releases() -> list[str]:
    """The pinned release first, then the other supported ones (versions.env)."""
    values = dict(
        line.split("=", 1) for line in (ROOT / "hack/envtest/versions.env").read_text().splitlines()
        if "=" in line and not line.startswith("#")
    )
    pinned = values["KUBERNETES_VERSION"].strip()
    supported = values["SUPPORTED_KUBERNETES_VERSIONS"].strip().strip('"').split()
    return [pinned, *(v for v in supported if v != pinned)]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--check", action="store_true", help="exit 1 if --out differs from what would be written")
    parser.add_argument("--releases", nargs="*", metavar="VERSION",
                        help="with --check: check the pinned release's data and only these older releases' "
                             "entries (each needs its own oracle build; default: every supported release)")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    import kgen.kubernetes.models  # noqa: F401  (every group's models)
    from kgen.runtime.apimachinery.model import Model
    from kgen.runtime.fake.schema.defaulting import type_name
    from kgen.runtime.fake.store import builtin

    import importlib
    import pkgutil

    for mod in pkgutil.walk_packages(kgen.kubernetes.models.__path__, "kgen.kubernetes.models."):
        importlib.import_module(mod.name)
    kinds: dict[str, type] = {}
    pending: list[type] = [Model]
    while pending:
        cls = pending.pop()
        pending.extend(cls.__subclasses__())
        if "KIND" in cls.__dict__ and "API_VERSION" in cls.__dict__ and cls.__module__.startswith("kgen.kubernetes.models."):
            api_version, kind = str(cls.__dict__["API_VERSION"]), str(cls.__dict__["KIND"])
            group = api_version.rpartition("/")[0]
            if builtin(group) and not kind.endswith("List") and group != "apiextensions.k8s.io" and not group.startswith("meta"):
                kinds[f"{api_version}/{kind}"] = cls

    pinned, *older = releases()
    partial = args.check and args.releases is not None
    if partial:
        older = [v for v in older if v in args.releases]
    data = extract(pinned, kinds, type_name)
    data["releases"] = {version: delta(data, extract(version, kinds, type_name)) for version in older}
    text = json.dumps(data, indent=1, sort_keys=True) + "\n"
    if args.check:
        stored = json.loads(args.out.read_text()) if args.out.exists() else None
        if partial and stored is not None:  # the releases not checked are taken as they stand
            stored["releases"] = {v: e for v, e in stored.get("releases", {}).items() if v in older}
        if stored is None or json.dumps(stored, indent=1, sort_keys=True) + "\n" != text:
            print(f"extract_defaults: {args.out} is stale; run hack/oracle-k8s/extract_defaults.py", file=sys.stderr)
            return 1
        return 0
    args.out.write_text(text)
    print(f"extract_defaults: wrote {args.out} ({len(data['types'])} types, {len(data['kinds'])} kinds, "
          f"{len(data['releases'])} older releases)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
