"""Label and field selectors: the wire strings the builders produce."""

from __future__ import annotations

import pytest

from kgen.runtime.apimachinery.selectors import FieldSelector, LabelSelector, fields, labels


def test_labels_joins_equalities_in_order() -> None:
    assert str(labels(app="web", tier="fe")) == "app=web,tier=fe"
    assert str(labels()) == ""
    assert str(labels(app="")) == "app="  # the empty value is a valid label value


def test_set_based_requirements() -> None:
    selector = labels(app="web").in_("tier", ["fe", "be"]).not_in("env", ["prod"]).exists("canary").does_not_exist("legacy")
    assert str(selector) == "app=web,tier in (be,fe),env notin (prod),canary,!legacy"
    assert isinstance(selector, LabelSelector) and repr(selector) == f"LabelSelector({str(selector)!r})"


def test_ne_on_labels() -> None:
    assert str(labels().ne("app", "web").eq("kgen.test/owner", "me")) == "app!=web,kgen.test/owner=me"


@pytest.mark.parametrize("value", ["has space", "comma,", "-leading", "trailing-", "x" * 64, "a=b"])
def test_invalid_label_values_are_refused(value: str) -> None:
    with pytest.raises(ValueError, match="invalid label value"):
        labels(app=value)
    with pytest.raises(ValueError, match="invalid label value"):
        labels().in_("app", ["ok", value])


def test_valid_label_values_pass() -> None:
    assert str(labels(v="A-b_c.9")) == "v=A-b_c.9" and str(labels(v="x" * 63)) == f"v={'x' * 63}"


@pytest.mark.parametrize("method", ["in_", "not_in"])
def test_set_requirement_needs_values(method: str) -> None:
    with pytest.raises(ValueError, match="at least one value"):
        getattr(labels(), method)("tier", [])


def test_field_selector_escapes_backslash_comma_and_equals() -> None:
    assert str(fields(type="a,b=c\\d")) == "type=a\\,b\\=c\\\\d"
    assert str(fields().ne("status.phase", "Running")) == "status.phase!=Running"


def test_fields_with_dotted_paths() -> None:
    selector = fields(**{"metadata.name": "x", "metadata.namespace": "y"})
    assert str(selector) == "metadata.name=x,metadata.namespace=y"
    assert isinstance(selector, FieldSelector) and repr(selector) == "FieldSelector('metadata.name=x,metadata.namespace=y')"
