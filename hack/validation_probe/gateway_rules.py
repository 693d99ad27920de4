"""What real CRDs ask of a CEL library: every x-kubernetes-validations rule of gateway-api's
standard CRDs, which CEL features they use, and whether each candidate compiles them.

    go mod download -json sigs.k8s.io/gateway-api@v1.6.3     # its "Dir"
    .venv/bin/python -m hack.validation_probe.gateway_rules DIR/config/crd/standard

Compiling is all this checks: cel-expr-python type-checks (objects as map(string, dyn)), the
other two only parse, so a missing function shows up there at evaluation, not here.
"""

from __future__ import annotations

import re
import sys
from collections import Counter
from pathlib import Path
from typing import Any, Iterator

import yaml

from hack.validation_probe.candidates import ADAPTERS, CompileError

FEATURES = {
    "has()": r"\bhas\(",
    "optional ?. / [?": r"\.\?[A-Za-z_]|\[\?['\"]",
    "oldSelf (transition)": r"\boldSelf\b",
    "two-variable all/exists": r"\.(all|exists|exists_one)\(\s*\w+\s*,\s*\w+\s*,",
    "all/exists/exists_one": r"\.(all|exists|exists_one)\(",
    "map/filter": r"\.(map|filter)\(",
    "size()": r"\bsize\(",
    "matches()": r"\bmatches\(",
    "startsWith/endsWith/contains": r"\.(startsWith|endsWith|contains)\(",
    "ext strings (split, lowerAscii, ...)": r"\.(split|lowerAscii|upperAscii|replace|substring|trim|join|indexOf|lastIndexOf|charAt)\(",
    "isSorted/sum/min/max": r"\.(isSorted|sum|min|max)\(",
    "quantity": r"\b(quantity|isQuantity)\(",
    "url": r"\b(url|isURL)\(",
    "ip/cidr": r"\b(ip|cidr|isIP|isCIDR)\(",
    "format.*": r"\bformat\.",
    "semver": r"\b(semver|isSemver)\(",
    "sets.*": r"\bsets\.",
    "duration/timestamp": r"\b(duration|timestamp)\(",
}


def rules(schema: dict[str, Any]) -> Iterator[tuple[dict[str, Any], dict[str, Any]]]:
    for v in schema.get("x-kubernetes-validations") or []:
        yield v, schema
    for child in (schema.get("properties") or {}).values():
        yield from rules(child)
    for key in ("items", "additionalProperties"):
        if isinstance(schema.get(key), dict):
            yield from rules(schema[key])


def collect(folder: Path) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    seen: dict[tuple[str, str], tuple[dict[str, Any], dict[str, Any]]] = {}
    for path in sorted(folder.glob("*.yaml")):
        for doc in yaml.safe_load_all(path.read_text()):
            if not doc or doc.get("kind") != "CustomResourceDefinition":
                continue
            for version in doc["spec"]["versions"]:
                for v, schema in rules(version["schema"]["openAPIV3Schema"]):
                    seen.setdefault((v["rule"], str(schema.get("type"))), (v, schema))
    return list(seen.values())


def main(argv: list[str]) -> int:
    found = collect(Path(argv[0]))
    print(f"{len(found)} distinct rules (rule, schema type) in {argv[0]}")
    usage = Counter(name for v, _ in found for name, rx in FEATURES.items() if re.search(rx, v["rule"] + " " + v.get("messageExpression",
                                                                                                                     "")))
    print("features: " + ", ".join(f"{n} {c}" for n, c in usage.most_common()))
    print(f"with messageExpression: {sum(1 for v, _ in found if 'messageExpression' in v)}, "
          f"with fieldPath: {sum(1 for v, _ in found if 'fieldPath' in v)}, with reason: {sum(1 for v, _ in found if 'reason' in v)}, "
          f"optionalOldSelf: {sum(1 for v, _ in found if v.get('optionalOldSelf'))}")
    for cls in ADAPTERS:
        adapter = cls("kgen")
        failed = []
        for v, schema in found:
            old = "oldSelf" in v["rule"]
            try:
                adapter.compile(v["rule"], schema, old, bool(v.get("optionalOldSelf")))
            except CompileError as e:
                failed.append((v["rule"], str(e).splitlines()[0][:160]))
        print(f"{adapter.label}: {len(found) - len(failed)}/{len(found)} compile")
        for rule, err in failed[:8]:
            print(f"    {rule[:110]!r}: {err}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
