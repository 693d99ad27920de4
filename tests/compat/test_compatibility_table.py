"""docs/compatibility.md states every difference between the supported releases the compatibility
suite knows: each behaviour of tests/support/versions.py, and every field whose requiredness (and
so its model's typing) differs between the embedded snapshots. Both tables are checked here
against their sources, both ways; ``python -m tests.compat.test_compatibility_table`` prints the
required-fields table to paste."""

from __future__ import annotations

import json
import re
from pathlib import Path

from kgen.generator.generate import embedded_versions
from tests.support.versions import DIFFERENCES, behaves_older, minor_of

REPO = Path(__file__).resolve().parents[2]
DOC = REPO / "docs" / "compatibility.md"


def _required_by_release() -> dict[tuple[str, str], list[str]]:
    """(definition, field) -> the releases whose OpenAPI v3 lists the field as required, for
    every field some embedded release requires and another does not."""
    releases = embedded_versions()
    required: dict[tuple[str, str], set[str]] = {}
    present: dict[str, set[str]] = {}
    for release in releases:
        for path in sorted((REPO / "openapi" / f"kubernetes-{release}" / "openapi" / "v3").rglob("*.json")):
            for name, schema in json.loads(path.read_text()).get("components", {}).get("schemas", {}).items():
                present.setdefault(name, set()).add(release)
                for field in schema.get("required") or []:
                    required.setdefault((name, field), set()).add(release)
    return {key: [r for r in releases if r in found] for key, found in sorted(required.items())
            if found != present[key[0]]}


def required_fields_table() -> str:
    releases = embedded_versions()
    lines = ["| model | field | " + " | ".join(releases) + " |", "|---|---|" + "---|" * len(releases)]
    for (definition, field), required in _required_by_release().items():
        model = ".".join(definition.split(".")[-2:])  # "v1.Deployment"
        group = definition.removeprefix("io.k8s.api.").rsplit(".", 2)[0]
        cells = ["required" if r in required else "optional" for r in releases]
        lines.append(f"| `{group}/{model}` | `{field}` | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def test_the_docs_state_every_behaviour_that_differs_and_on_which_releases() -> None:
    text = DOC.read_text()
    releases = embedded_versions()
    header = "| behaviour | " + " | ".join(".".join(r.split(".")[:2]) for r in releases) + " |"
    assert header in text
    rows = {}
    for line in text[text.index(header):].splitlines()[2:]:
        if not line.startswith("| `"):
            break
        key = re.match(r"\| `([a-z0-9-]+)`", line)
        assert key, line
        rows[key[1]] = [cell.strip() for cell in line.strip("|").split("|")[1:1 + len(releases)]]
    assert set(rows) == set(DIFFERENCES)
    for key, cells in rows.items():
        expected = ["older" if behaves_older(r, key) else "newer" for r in releases]
        assert cells == expected, key
        assert all(minor_of(releases[0]) <= DIFFERENCES[key].last_minor < minor_of(r) for r in releases[-1:])


def test_the_docs_list_every_field_whose_requiredness_differs() -> None:
    table = required_fields_table()
    assert table.count("\n") >= 10  # 1.37 made spec of Deployment and others required
    assert "| `apps/v1.Deployment` | `spec` | optional | optional | optional | required |" in table
    assert table in DOC.read_text(), "docs/compatibility.md: paste `python -m tests.compat.test_compatibility_table`"


if __name__ == "__main__":
    print(required_fields_table())
