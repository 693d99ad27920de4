"""The operator bench's report: ratios and goals from given figures, and the line count."""

from __future__ import annotations

from bench.operator_report import OperatorRun, lines_of_code, table


def _run(churn_seconds: float, rss_peak: int, operator_cpu: float = 3.0) -> OperatorRun:
    return OperatorRun(objects=1000, all_seconds=10.0, churn_updates=3000, churn_seconds=churn_seconds,
                       churn_send_seconds=5.0, rss_peak=rss_peak, rss_steady=rss_peak, reconciles=4000, lines=40,
                       churn_cpu={"operator": operator_cpu, "kube-apiserver": 4.0, "etcd": 2.0, "driver": 1.0},
                       cpus=2)


def test_goals_met_at_five_times_the_throughput_and_half_the_memory() -> None:
    rendered = table(_run(10.0, 50 * 2**20), _run(50.0, 100 * 2**20))
    rows = {row.metric: row for row in rendered.rows}
    churn = rows["reconciles/s under churn (3,000 spec updates)"]
    assert churn.values == ("300.0/s", "60.0/s") and churn.ratio == "5.00×" and churn.met is True
    assert rows["resident memory, peak (VmHWM)"].ratio == "0.50×" and rows["resident memory, peak (VmHWM)"].met is True


def test_cpu_rows_show_the_operators_capacity_and_how_busy_the_machine_was() -> None:
    rows = {row.metric: row for row in table(_run(10.0, 50 * 2**20, 1.5), _run(20.0, 100 * 2**20, 12.0)).rows}
    capacity = rows["churn: updates per second of the operator's own CPU time (its capacity)"]
    assert capacity.values == ("2000/s", "250/s") and capacity.ratio == "8.00×" and capacity.met is None
    assert rows["churn: kube-apiserver + etcd CPU per update"].values == ("2.00 ms", "2.00 ms")
    busy = rows["churn: the machine's CPU in use (operator, apiserver, etcd, driver ÷ 2 CPUs)"]
    assert busy.values == ("42%", "48%")  # (1.5 + 4 + 2 + 1) / (10 × 2); (12 + 7) / (20 × 2)
    ceiling = rows["churn: CPU per update, all four processes (kgen: without its operator)"]
    # kgen without its operator: (4 + 2 + 1) / 3,000 updates; kopf, all four: (12 + 7) / 3,000
    assert ceiling.values == ("2.33 ms", "6.33 ms") and ceiling.ratio == "2.71×" and ceiling.met is None


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
