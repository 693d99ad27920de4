"""Writes generator/manifests/flect_tables.py: the word lists of github.com/gobuffalo/flect (the
version controller-tools v0.23.0 requires), which controller-gen pluralizes a kind with to name its
CRD (``strings.ToLower(flect.Pluralize(kind))``; ``gizmo`` -> ``gizmoes``, ``Policy`` -> ``policies``).

The lists are read from flect's source in the Go module cache (``go mod download``): its
dictionary of irregular words, its suffix rules and its acronyms. generator/manifests/plural.py
applies them as flect does, and tests/integration/test_manifests_plural_vs_flect.py checks it
against flect itself (hack/controller-gen/flect, a Go program) on a corpus of words. Run again
when controller-tools moves to another flect:

    .venv/bin/python hack/controller-gen/flect_tables.py [OUT]
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

FLECT = "github.com/gobuffalo/flect@v1.0.3"
OUT = Path(__file__).resolve().parents[2] / "generator" / "manifests" / "flect_tables.py"
_WORD = re.compile(r'^\s*\{singular: "([^"]*)"(?:, plural: "([^"]*)")?(?:, alternative: "([^"]*)")?'
                   r'(, unidirectional: true)?(, uncountable: true)?(, exact: true)?\},')
_SUFFIX = re.compile(r'^\s*\{"([^"]*)", "([^"]*)"\},')
_ACRONYM = re.compile(r'^\s*"([^"]+)":\s*true,')


def main(out: Path = OUT) -> None:
    found = subprocess.run(["go", "mod", "download", "-json", FLECT], check=True, capture_output=True, text=True)
    source = Path(json.loads(found.stdout)["Dir"])
    rules = (source / "plural_rules.go").read_text()
    body = rules[rules.index("var dictionary = []word{"):]
    dictionary_text, rest = body.split("\n}\n", 1)
    words = []
    for line in dictionary_text.splitlines()[1:]:
        match = _WORD.match(line)
        if match:
            singular, plural, alternative, uni, unc, exact = match.groups()
            words.append([singular, plural or "", alternative or "", bool(uni), bool(unc), bool(exact)])
        elif line.strip() and not line.strip().startswith("//"):
            sys.exit(f"flect_tables: a dictionary line not understood: {line!r}")
    suffix_text = rest[rest.index("var singularToPluralSuffixList"):].split("\n}\n", 1)[0]
    suffixes = [list(m.groups()) for line in suffix_text.splitlines() if (m := _SUFFIX.match(line))]
    acronyms = sorted(m.group(1) for line in (source / "acronyms.go").read_text().splitlines() if (m := _ACRONYM.match(line)))
    out.write_text(
        f'"""{FLECT}\'s word lists (plural_rules.go, acronyms.go), for plural.py: written by\n'
        'hack/controller-gen/flect_tables.py, which says how; do not edit."""\n\n'
        "#: The dictionary: (singular, plural, alternative, unidirectional, uncountable, exact), in flect's order.\n"
        f"DICTIONARY: list[tuple[str, str, str, bool, bool, bool]] = [\n"
        + "".join(f"    {tuple(w)!r},\n" for w in words) + "]\n\n"
        "#: The suffix rules (singular suffix, plural suffix), in flect's order.\n"
        "SUFFIXES: list[tuple[str, str]] = [\n" + "".join(f"    {tuple(s)!r},\n" for s in suffixes) + "]\n\n"
        "#: flect's base acronyms (a word of these letters is one part, upper-cased).\n"
        "ACRONYMS: frozenset[str] = frozenset({\n" + "".join(f"    {a!r},\n" for a in acronyms) + "})\n",
        encoding="utf-8",
    )
    print(f"wrote {out}: {len(words)} words, {len(suffixes)} suffix rules, {len(acronyms)} acronyms")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else OUT)
