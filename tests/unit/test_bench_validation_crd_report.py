"""The ``kgen validate --crd`` vs dry-run bench row (issue 35 item 21): ratio and goal from given figures."""

from bench.validation_crd import CrdValidationRun, notes, table


def _run(kgen: float, dry_run: float) -> CrdValidationRun:
    return CrdValidationRun(objects=300, kinds=8, crd_kib=4141, kgen_per_s=kgen, dry_run_per_s=dry_run, agree=300,
                            repeats=3)


def test_the_row_is_met_at_ten_times_the_dry_run_and_missed_below() -> None:
    met = table(_run(4824.0, 187.0)).rows[0]
    assert met.values == ("4,824/s", "187/s") and met.ratio == "25.8×" and met.met is True
    assert table(_run(1800.0, 200.0)).rows[0].met is False


def test_the_notes_say_how_both_sides_were_measured_and_the_verdicts_agree() -> None:
    text = "\n".join(notes(_run(4824.0, 187.0)))
    assert "4,141 KiB" in text and "verdicts agree on 300/300" in text and "dry-run create" in text
