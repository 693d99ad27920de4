"""kgen.runtime.apimachinery.validation.cel.validation against the kube-apiserver's recorded answers.

hack/validation_probe/oracle.json holds what kube-apiserver v1.37.2 answered for the 174 rules
of hack/validation_probe/corpus.py on their 386 samples (docs/design/validation.md, "CEL"). For
every rule the apiserver accepted, each sample's findings here (the set of (path, fail|error))
must equal the apiserver's, and so must every cause's reason and message, except the samples
listed below with their reasons. No server is needed.
"""

from __future__ import annotations

import builtins
import json
import time
from pathlib import Path
from typing import Any

import pytest

from hack.validation_probe.corpus import CASES, Case
from kgen.runtime.apimachinery.validation.cel import validation as cel
from kgen.runtime.apimachinery.validation.cel.validation import MISSING, Violation, check_rules, compile_rules

ORACLE = json.loads((Path(__file__).parents[2] / "hack/validation_probe/oracle.json").read_text())

#: Rules this module reports not checked, by rule -> why (the doc's known gaps: cel-expr-python
#: 0.1.3 cannot host them); each of their samples is counted not checked, none is guessed.
NOT_CHECKED: dict[str, str] = {
    "self.indexOf(3) == 1": "list indexOf",
    "self.lastIndexOf(3) == 2": "list lastIndexOf",
    "self.all(i, v, i < 2 || v == 0)": "two-variable comprehension all()",
    "self.all(k, v, v >= 0)": "two-variable comprehension all()",
    "!format.dns1123Label().validate(self).hasValue()": "the format library (format.dns1123Label)",
    "!format.dns1123Subdomain().validate(self).hasValue()": "the format library (format.dns1123Subdomain)",
    "!format.dns1035Label().validate(self).hasValue()": "the format library (format.dns1035Label)",
    "!format.qualifiedName().validate(self).hasValue()": "the format library (format.qualifiedName)",
    "!format.labelValue().validate(self).hasValue()": "the format library (format.labelValue)",
    "!format.uuid().validate(self).hasValue()": "the format library (format.uuid)",
    "format.named('dns1123Label').hasValue()": "the format library (format.named)",
    "format.dns1123Label().validate(self).value()[0].startsWith('a lowercase RFC 1123 label')":
        "the format library (format.dns1123Label)",
}

#: Samples whose verdict agrees but whose message cel-cpp words otherwise: -> why.
MESSAGE_DIFFERS: dict[str, str] = {
    "21/1": "substring out of range: cel-cpp's error does not say which index",
    "22/1": "substring out of range: cel-cpp's error does not say which index",
}


def _node(case: Case) -> dict[str, Any]:
    schema = {**case.schema, **case.extra_schema}
    if case.at == "items":
        return dict(schema["items"])
    if case.at == "values":
        return dict(schema["additionalProperties"])
    return schema


def _targets(case: Case, value: Any) -> list[tuple[str, Any]]:
    if case.at == "items":
        return [(f"[{n}]", v) for n, v in enumerate(value)]
    if case.at == "values":
        return [(f"[{k}]", v) for k, v in value.items()]
    return [("", value)]


def _kind(v: Violation) -> str:
    return "error" if " evaluating rule: " in v.message else "fail"


def _run(case: Case, compiled: cel.CompiledRules, sample: Any, at: str = "spec.c") -> list[Violation]:
    """The violations of a case's rule on one sample, its paths relative to the case's property
    (``spec.c<N>``) as the oracle records them."""
    old: Any = MISSING
    if case.transition:
        old_value, sample = sample
        old = MISSING if old_value is None else old_value
    out: list[Violation] = []
    for path, value in _targets(case, sample):
        for v in compiled.evaluate(value, old_self=old, path=at + path):
            out.append(Violation(v.type, v.field.removeprefix(at), v.message))
    return out


def _accepted() -> list[tuple[int, Case]]:
    return [(i, c) for i, c in enumerate(CASES) if str(i) not in ORACLE["compile_error"] and c.group != "cost"]


def test_oracle_is_for_this_corpus() -> None:
    assert ORACLE["rules"] == [c.rule for c in CASES]


def test_verdicts_messages_and_paths_agree_with_the_apiserver() -> None:
    verdicts = messages = 0
    not_checked: dict[str, str] = {}
    wrong: list[str] = []
    started = time.perf_counter()
    for i, case in _accepted():
        node = _node(case)
        compiled = compile_rules([case.validation()], node)
        for j, sample in enumerate(case.samples):
            key = f"{i}/{j}"
            if compiled.not_checked:
                not_checked[key] = compiled.not_checked[0]
                continue
            want = ORACLE["findings"][key]
            got = _run(case, compiled, sample)
            if {(f["path"], f["kind"]) for f in want} != {(v.field, _kind(v)) for v in got}:
                wrong.append(f"{key} {case.rule}: apiserver {want}, kgen {got}")
                continue
            verdicts += 1
            if sorted((f["path"], f["reason"], f["message"]) for f in want) == sorted((v.field, v.type, v.message) for v in got):
                messages += 1
            elif key not in MESSAGE_DIFFERS:
                wrong.append(f"{key} {case.rule}: message: apiserver {want}, kgen {got}")
    seconds = time.perf_counter() - started
    total = sum(len(c.samples) for _, c in _accepted())
    print(f"\n{len(_accepted())} accepted rules, {total} samples: verdicts agree {verdicts}, "
          f"messages and paths agree {messages}, not checked {len(not_checked)} ({seconds:.2f} s with compiling)")
    assert wrong == []
    assert not_checked == {f"{i}/{j}": f"{c.rule}: not checked: {NOT_CHECKED[c.rule]}"
                           for i, c in _accepted() if c.rule in NOT_CHECKED for j in range(len(c.samples))}
    assert verdicts + len(not_checked) == total
    assert messages == verdicts - len(MESSAGE_DIFFERS)


def test_rules_the_apiserver_refuses_are_never_checked_as_valid() -> None:
    """Of the 10 rules refused at CRD creation (cost group aside), those that compile here are the doc's type-check
    gaps (map(string, dyn) objects, no bool check on dyn, literals checked at run time); count them."""
    refused = [i for i in map(int, ORACLE["compile_error"]) if CASES[i].group != "cost"]
    compiled_here = [CASES[i].rule for i in refused if not compile_rules([CASES[i].validation()], _node(CASES[i])).not_checked]
    print(f"\nrefused by the apiserver: {len(refused)}, not compiled here: {len(refused) - len(compiled_here)}; "
          f"compiled here: {compiled_here}")
    assert "self == 1" not in compiled_here
    assert "quantity(self).sub(1).sign() >= 0" not in compiled_here


def test_evaluation_speed_is_printed() -> None:
    work = []
    for i, case in _accepted():
        compiled = compile_rules([case.validation()], _node(case))
        if not compiled.not_checked:
            work += [(case, compiled, s) for s in case.samples]
    started = time.perf_counter()
    passes = 3
    for _ in range(passes):
        for case, compiled, sample in work:
            _run(case, compiled, sample)
    seconds = time.perf_counter() - started
    print(f"\n{len(work) * passes / seconds:,.0f} samples/s ({len(work)} samples x {passes}, precompiled)")


def test_compile_is_cached_by_content() -> None:
    rules = [{"rule": "self > 0"}]
    assert compile_rules(rules, {"type": "integer"}) is compile_rules([dict(rules[0])], {"type": "integer"})


def test_transition_rule_skipped_without_old_value_unless_optional_old_self() -> None:
    immutable = compile_rules([{"rule": "self == oldSelf", "message": "is immutable"}], {"type": "string"})
    assert immutable.evaluate("b", path="spec.x") == []
    assert immutable.evaluate("b", old_self="a", path="spec.x") == [
        Violation("FieldValueInvalid", "spec.x", 'Invalid value: "b": is immutable')]
    optional = compile_rules([{"rule": "!oldSelf.hasValue()", "optionalOldSelf": True}], {"type": "string"})
    assert optional.evaluate("b", path="spec.x") == []
    assert [v.type for v in optional.evaluate("b", old_self="a", path="spec.x")] == ["FieldValueInvalid"]


def test_field_path_reason_and_message_expression_fallbacks() -> None:
    schema = {"type": "object", "properties": {"a": {"type": "string"}, "m": {"type": "object", "additionalProperties": {"type": "string"}}}}
    compiled = compile_rules([
        {"rule": "self.a == 'x'", "fieldPath": ".a", "reason": "FieldValueForbidden", "messageExpression": "'got ' + self.a"},
        {"rule": "self.m.size() == 0", "fieldPath": ".m['k.1']", "messageExpression": "''", "message": "static"},
        {"rule": "self.a == 'z'", "messageExpression": "self.nope"},
    ], schema)
    assert compiled.not_checked == []
    assert compiled.evaluate({"a": "y", "m": {"k.1": "v"}}, path="spec") == [
        Violation("FieldValueForbidden", "spec.a", "Forbidden: got y"),
        Violation("FieldValueInvalid", "spec.m[k.1]", "Invalid value: static"),
        Violation("FieldValueInvalid", "spec", "Invalid value: failed rule: self.a == 'z'"),
    ]


def test_unhostable_functions_are_reported_not_checked() -> None:
    compiled = compile_rules([
        {"rule": "!format.dns1123Label().validate(self).hasValue()"},
        {"rule": "self.size() < 3 && 'format.x' != self"},
    ], {"type": "string"})
    assert compiled.not_checked == ["!format.dns1123Label().validate(self).hasValue(): not checked: the format library (format.dns1123Label)"]
    assert [r.rule for r in compiled.rules] == ["self.size() < 3 && 'format.x' != self"]


def test_walker_hook_check_rules() -> None:
    schema = {"type": "integer", "x-kubernetes-validations": [{"rule": "self > 0"}]}
    assert check_rules(1, schema, "spec.n") == []
    assert check_rules(-5, schema, "spec.n") == [Violation("FieldValueInvalid", "spec.n", "Invalid value: -5: failed rule: self > 0")]
    assert check_rules(7.0, {"type": "number", "x-kubernetes-validations": [{"rule": "self < 1.0"}]}, "spec.d")[0].message \
        == "Invalid value: 7: failed rule: self < 1.0"


def test_without_the_cel_library_rules_are_not_checked_and_nothing_raises(monkeypatch: pytest.MonkeyPatch) -> None:
    real_import = builtins.__import__

    def no_cel(name: str, *args: Any, **kwargs: Any) -> Any:
        if name.startswith("cel_expr_python"):
            raise ImportError(f"No module named {name!r}")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_cel)
    cel._library.cache_clear()
    cel._compile_cached.cache_clear()
    try:
        compiled = compile_rules([{"rule": "self > 0"}, {"rule": "self < 10"}], {"type": "integer"})
        assert compiled.not_checked == [f"self > 0: not checked: {cel.INSTALL_HINT}", f"self < 10: not checked: {cel.INSTALL_HINT}"]
        assert compiled.evaluate(-1, path="spec.n") == []
        assert "kgen-runtime[validation]" in cel.INSTALL_HINT
    finally:
        monkeypatch.undo()
        cel._library.cache_clear()
        cel._compile_cached.cache_clear()


def test_the_cel_library_is_installed_here() -> None:
    """The suite must measure the real thing: a missing library fails here instead of every rule
    quietly becoming not checked (make test installs the ``validation`` extra)."""
    assert not isinstance(cel._library(), str), cel._library()
