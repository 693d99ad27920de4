"""Issue 35 item 15: patterns are Go's regexp (RE2), and kgen matches them as Go does.

The oracle is Go's own regexp (hack/oracle/goregexp: regexp.Compile and MatchString, as
kube-openapi checks an OpenAPI ``pattern``). The patterns: every ``pattern`` and every CEL
``matches()`` literal in the CRDs of the eight projects tests/support/corpus.py fetches and the six
of tests/support/validation_projects.py, plus hand-picked syntax where RE2 dialects differ
(Perl's lookarounds and backreferences, ``\\C``, ``\\Z``, named groups, flags, counted repetition
limits, octal escapes, Unicode classes and case folding). The strings: for each pattern, strings
drawn by the oracle from the pattern's own syntax tree (seeded), and near misses of them (a
newline at the end or the start, a character dropped or added, case changed, Unicode and a
lone surrogate added). Required: 0 disagreements on compile errors and on match results, both
through ``compile_pattern`` (OpenAPI ``pattern``) and through kgen's CEL ``self.matches(r'...')``.

Then the CRD side: a CRD whose pattern Go refuses is refused by the apiserver, and kgen's
``kgen validate --crd`` exits 2 with one line naming the CRD, the field and the pattern.
"""

from __future__ import annotations

import json
import random
import re
import subprocess
import warnings
from pathlib import Path
from typing import Any

import httpx
import pytest

from kgen.generator.cli import main as kgen_main
from kgen.runtime.apimachinery.golang.regexp import PatternError, compile_pattern
from kgen.runtime.apimachinery.validation.cel.validation import check_rules
from tests.support import validation_projects
from tests.support.corpus import CRD_SOURCES
from tests.support.oracle import oracle_binary

SEED = 35
DRAWN = 6  # strings drawn from each pattern
CEL_STRINGS = 30  # of each pattern's strings, those also matched through kgen's CEL

HAND_PICKED = [
    r"^(?i)(abort|warn)?$", r"(a+)+$", r"(?=x)", r"(?!x)", r"(?<=x)y", r"(a)\1", r"\C", r"a\Cb", r"\Q\C\E",
    r"\Z", r"a\z", r"(?<name>a)", r"(?P<name>a)", r"(?P=name)", r"a{1000}", r"a{1001}", r"a{2,1}", r"a{,5}",
    r"x**", r"x++", r"x*?", r"(?U)a+", r"[[:alpha:]]+", r"[[:word:]]", r"\pL", r"\p{Greek}+", r"\PN", r"\p{Foo}",
    r"\Q.*\E", r"\0", r"\8", r"\141", r"\x{41}", r"\x41", r"[\b]", r"\v", r"\e", r"(?s).", r"(?m)^a$", r"(?#c)",
    r"[a-\d]", r"[z-a]", r"(?i)ſ", r"(?i)k", r"\k<a>", r"[^\x00-\x{10FFFF}]", r"^$", r"$", r"\b\w+\b", r"\B",
    r"(?i)straße", r"[\p{Lu}]", r"\s+", r"\S", r"\d\D", r"\w\W", r"(|a)", r"()", r"a|", r"[]a]", r"[^]a]",
    "\\", r"(", r")", r"[", r"a{1,1000}b", r"(?i:a)b", r"(?-i)a", r"(?im-s)a.", r"(?x) a", r"\pN{2}", r"\A",
    r"[[:^digit:]]", r"[[=a=]]", r"\N{LATIN SMALL LETTER A}", r"\u0041", r"\h", r"(?|a)", r"a++b", r"\G",
]


def _matches_literals(rule: str) -> list[tuple[str, str]]:
    """(pattern, CEL literal) for the string literals given to CEL's ``matches()`` in a rule, the
    pattern unescaped as CEL reads it."""
    out = []
    for raw, body in re.findall(r"""\.matches\(\s*([rR]?)('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")\s*\)""", rule):
        text = body[1:-1]
        if not raw:
            text = re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t", "r": "\r"}.get(m.group(1), m.group(1))
                          if m.group(1) in "\\'\"ntr" else m.group(0), text)
        out.append((text, raw + body))
    return out


_CEL_LITERALS: dict[str, str] = {}
"""pattern -> its literal in a CRD's CEL rule, for the patterns met in ``matches()``"""


def _patterns(node: Any, found: set[str]) -> None:
    if isinstance(node, list):
        for item in node:
            _patterns(item, found)
    elif isinstance(node, dict):
        if isinstance(node.get("pattern"), str):
            found.add(node["pattern"])
        for rule in node.get("x-kubernetes-validations") or []:
            if isinstance(rule, dict):
                for key in ("rule", "messageExpression"):
                    if isinstance(rule.get(key), str):
                        for pattern, literal in _matches_literals(rule[key]):
                            found.add(pattern)
                            _CEL_LITERALS.setdefault(pattern, literal)
        for key, value in node.items():
            if key not in ("default", "enum", "example", "x-kubernetes-validations"):
                _patterns(value, found)


def corpus_patterns() -> list[str]:
    found: set[str] = set()
    for source in CRD_SOURCES.values():
        _patterns(validation_projects.fast_crds(source.module, source.version, source.folder), found)
    for project in validation_projects.PROJECTS:
        _patterns(validation_projects.crds(project), found)
    return sorted(found)


def _near_misses(s: str, rng: random.Random) -> list[str]:
    out = [s + "\n", "\n" + s, s + "\r\n", s + "x", "x" + s, s.upper(), s.lower(), s + "é", "中" + s, s + " ",
           s + "\ud800", s.replace("s", "ſ").replace("k", "\u212a")]
    if s:
        i = rng.randrange(len(s))
        out += [s[:i] + s[i + 1:], s[:i] + "-" + s[i:], s[:i] + "\n" + s[i + 1:], s[:-1]]
    return out


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def _cel_matches(literal: str, text: str) -> bool:
    """kgen's CEL (cel-expr-python) evaluating ``self.matches(<literal>)`` on ``text``."""
    node = {"type": "string", "x-kubernetes-validations": [{"rule": f"self.matches({literal})"}]}
    return not check_rules(text, node, "spec.s")


def _python_re(pattern: str, text: str) -> bool | None:
    """What Python's ``re`` says (None: it refuses the pattern): the planted difference."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", FutureWarning)  # "possible nested set": Python's own dialect
            return re.search(pattern, text) is not None
    except re.error:
        return None


def _ask(binary: Path, cases: list[dict[str, Any]]) -> list[dict[str, Any]]:
    text = "".join(json.dumps(c) + "\n" for c in cases)
    done = subprocess.run([str(binary)], input=text, capture_output=True, text=True, check=True, timeout=300)
    return [json.loads(line) for line in done.stdout.splitlines()]


def test_patterns_compile_and_match_as_go_does() -> None:
    binary = oracle_binary("goregexp")
    patterns = [*corpus_patterns(), *HAND_PICKED]
    assert len(patterns) >= 130, len(patterns)
    drawn = _ask(binary, [{"pattern": p, "texts": [], "generate": DRAWN, "seed": SEED + i} for i, p in enumerate(patterns)])
    rng = random.Random(SEED)
    fixed = ["", "a", "A", "abc", "0", "-", " ", "\n", "a\n", "é", "ſ", "\u212a", "\U0001f600"]
    texts = [[*dict.fromkeys([*d["generated"], *(m for g in d["generated"] for m in _near_misses(g, rng)), *fixed])]
             for d in drawn]
    answers = _ask(binary, [{"pattern": p, "texts": t} for p, t in zip(patterns, texts, strict=True)])
    disagreements = []
    compared = refused = matched = python_re_differs = cel_compared = 0
    for pattern, strings, go in zip(patterns, texts, answers, strict=True):
        try:
            compiled = compile_pattern(pattern)
        except PatternError as e:
            refused += 1
            if not go["error"]:
                disagreements.append(f"{pattern!r}: Go compiles it, kgen refuses it: {e.reason}")
            continue
        if go["error"]:
            disagreements.append(f"{pattern!r}: Go refuses it ({go['error']}), kgen compiles it")
            continue
        for k, (text, want) in enumerate(zip(strings, go["matches"], strict=True)):
            compared += 1
            matched += want
            if compiled.search(text) != want:
                disagreements.append(f"{pattern!r} on {text!r}: Go {want}, kgen {not want}")
            python_re_differs += _python_re(pattern, text) != want
            literal = _CEL_LITERALS.get(pattern) or (f"r'{pattern}'" if "'" not in pattern and "\\" != pattern[-1:] else None)
            # CEL strings are UTF-8 (no lone surrogates); and kgen's CEL (cel-expr-python) cuts a
            # string at its first NUL, whatever the rule ('\x00a'.size() is 0 there): a known
            # limitation of the binding, not of matches(), so NULs are left out of this comparison
            # (the first CEL_STRINGS strings of each pattern: a CEL evaluation costs a few hundred µs)
            if literal is not None and k < CEL_STRINGS and not _LONE_SURROGATE.search(text) and "\x00" not in text:
                cel_compared += 1
                if _cel_matches(literal, text) != want:
                    disagreements.append(f"CEL {literal} on {text!r}: Go {want}, kgen's CEL {not want}")
    print(f"\n{len(patterns)} patterns ({refused} refused by both), {compared} strings compared, {matched} matching; "
          f"Python's re would differ from Go on {python_re_differs}; "
          f"{cel_compared} also through kgen's CEL matches() (every pattern, as a rule's raw literal)")
    assert not disagreements, f"{len(disagreements)} disagreements:\n" + "\n".join(disagreements[:40])
    # the harness sees a difference where there is one: Python's re, matched the same way, differs
    assert python_re_differs >= 100, python_re_differs
    assert cel_compared >= 2_500, cel_compared
    assert compared >= 7_000 and matched >= 1_500 and refused >= 20, (compared, matched, refused)


def test_a_pattern_that_once_hung_python_is_linear() -> None:
    """``(a+)+$`` on 40 a's and a ``!``: Python's ``re`` backtracks through 2^40 ways; RE2 answers at once."""
    assert compile_pattern(r"(a+)+$").search("a" * 40 + "!") is False
    assert compile_pattern(r"(a+)+$").search("a" * 40) is True
    assert compile_pattern(r"^(a+)+$").search("a" * 40 + "!") is False


_CRD = """
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.regexp.example.com}
spec:
  group: regexp.example.com
  names: {kind: Widget, plural: widgets}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              mode: {type: string, pattern: 'PATTERN'}
"""


@pytest.mark.parametrize("pattern", [r"^(?=a)b$", r"(a)\1", r"\Z"])
def test_a_crd_with_a_pattern_go_refuses_is_a_clear_error(
        admin: httpx.Client, tmp_path: Path, capsys: pytest.CaptureFixture[str], pattern: str) -> None:
    import yaml

    crd = yaml.safe_load(_CRD.replace("PATTERN", pattern))
    resp = admin.post("/apis/apiextensions.k8s.io/v1/customresourcedefinitions", params={"dryRun": "All"}, json=crd)
    assert resp.status_code == 422, resp.text
    cause = resp.json()["details"]["causes"][0]
    assert cause["field"].endswith("openAPIV3Schema.properties[spec].properties[mode].pattern"), cause
    assert "must be a valid regular expression" in cause["message"], cause
    (tmp_path / "crd.yaml").write_text(_CRD.replace("PATTERN", pattern))
    (tmp_path / "w.yaml").write_text("apiVersion: regexp.example.com/v1\nkind: Widget\nmetadata: {name: a}\nspec: {mode: b}\n")
    assert kgen_main(["validate", "--crd", str(tmp_path / "crd.yaml"), str(tmp_path / "w.yaml")]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "Traceback" not in err, err
    assert "CRD widgets.regexp.example.com" in err and "/properties/spec/properties/mode/pattern" in err, err
    assert repr(pattern) in err, err
