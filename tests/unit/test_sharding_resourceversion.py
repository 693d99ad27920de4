"""compare_resource_version (kgen.runtime.apimachinery.util.resourceversion), which the shard gate uses,
against apimachinery's own table (pkg/util/resourceversion/resourceversion_test.go, v0.37.2)."""

from __future__ import annotations

import pytest

from kgen.runtime.apimachinery.util.resourceversion import InvalidResourceVersion, compare_resource_version

BIG_LOW = "9" * 50
BIG_HIGH = "1" + "0" * 50

# (a, b, expected or None for an error), in apimachinery's order.
APIMACHINERY_CASES = [
    ("100", "200", -1), ("0", "1", None), ("0", "0", None), ("200", "100", 1), ("1", "0", None),
    ("1", "1", 0), ("100", "100", 0), ("99", "100", -1), ("100", "99", 1), ("0100", "100", None),
    ("100", "0100", None), ("", "100", None), ("100", "", None), ("100a", "100", None), ("100", "100a", None),
    (BIG_LOW, BIG_HIGH, -1), (BIG_HIGH, BIG_LOW, 1),
]


@pytest.mark.parametrize(("a", "b", "expected"), APIMACHINERY_CASES)
def test_compare_resource_version_matches_apimachinery(a: str, b: str, expected: int | None) -> None:
    if expected is None:
        with pytest.raises(InvalidResourceVersion, match="not well formed"):
            compare_resource_version(a, b)
    else:
        assert compare_resource_version(a, b) == expected


def test_non_ascii_digits_are_not_well_formed() -> None:
    """Go's isDigit is '0'..'9' only; Python's str.isdigit also accepts '²' and Arabic-Indic digits."""
    with pytest.raises(InvalidResourceVersion):
        compare_resource_version("1²", "12")
    with pytest.raises(InvalidResourceVersion):
        compare_resource_version("١٢", "12")
