"""The operator bench's report: ratios and goals from given figures, and the line count."""

from __future__ import annotations

from bench.operator_report import OperatorRun, lines_of_code, table


def _run(churn_seconds: float, rss_peak: int) -> OperatorRun:
    return OperatorRun(objects=1000, all_seconds=10.0, churn_updates=3000, churn_seconds=churn_seconds,
                       churn_send_seconds=5.0,
                       rss_peak=rss_peak, rss_steady=rss_peak, reconciles=4000, lines=40)


def test_goals_met_at_five_times_the_throughput_and_half_the_memory() -> None:
    rendered = table(_run(10.0, 50 * 2**20), _run(50.0, 100 * 2**20))
    rows = {row.metric: row for row in rendered.rows}
    churn = rows["reconciles/s under churn (3,000 spec updates)"]
    assert churn.values == ("300.0/s", "60.0/s") and churn.ratio == "5.00×" and churn.met is True
    assert rows["resident memory, peak (VmHWM)"].ratio == "0.50×" and rows["resident memory, peak (VmHWM)"].met is True


def test_goals_missed_below_five_times_or_above_half_the_memory() -> None:
    rows = table(_run(10.0, 51 * 2**20), _run(49.0, 100 * 2**20)).rows
    assert [row.met for row in rows if row.met is not None] == [False, False]


def test_lines_of_code_leave_out_docstrings_comments_blanks_and_harness_lines() -> None:
    source = '''"""Module
docstring."""

import os  # a trailing comment keeps the line

# a comment line
def f(x: int) -> int:
    """Doc."""
    count = 0  # bench-only
    return (x +
            1)
'''
    assert lines_of_code(source) == 4  # import, def, and the two lines of the return
