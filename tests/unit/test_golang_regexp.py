"""kgen.runtime.apimachinery.golang.regexp: Go's regexp dialect where Python's ``re`` differs (issue 35
item 15). The whole comparison with Go's own regexp is tests/integration/test_regexp_oracle.py;
these are its landmarks, each answer the one Go gives there."""

import pytest

from kgen.runtime.apimachinery.golang.regexp import PatternError, compile_pattern
from kgen.runtime.apimachinery.validation import validate_against


def test_flags_after_the_start_compile_and_apply() -> None:
    assert compile_pattern(r"^(?i)(abort|warn)?$").search("Abort") is True


def test_dollar_does_not_match_before_a_final_newline() -> None:
    assert compile_pattern(r"^warn$").search("warn\n") is False


@pytest.mark.parametrize("pattern", [r"(?=a)", r"(a)\1", r"\Z", r"\C", r"a{1001}"])
def test_what_go_refuses_is_a_pattern_error(pattern: str) -> None:
    with pytest.raises(PatternError) as caught:
        compile_pattern(pattern)
    assert caught.value.pattern == pattern and "Go (RE2)" in str(caught.value)


def test_quoted_backslash_c_is_two_characters() -> None:
    assert compile_pattern(r"\Q\C\E").search(r"x\Cy") is True


def test_a_lone_surrogate_is_matched_as_go_decodes_it() -> None:
    assert compile_pattern("^.$").search("\ud800") is True
    assert compile_pattern("\ufffd").search("a\udc00") is True


def test_a_crd_pattern_is_checked_as_go_checks_it() -> None:
    schema = {"type": "object", "properties": {"spec": {"type": "object", "properties": {
        "mode": {"type": "string", "pattern": r"^(?i)(abort|warn)?$"}}}}}
    obj = {"apiVersion": "x.example.com/v1", "kind": "K", "metadata": {"name": "a"}, "spec": {"mode": "Abort"}}
    assert validate_against(schema, obj) == []
    obj["spec"]["mode"] = "warn\n"
    assert [e.field for e in validate_against(schema, obj)] == ["spec.mode"]
