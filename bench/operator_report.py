"""The operator bench's table: kgen's manager against kopf, and the ratios issue 14 asks for.

I/O-free, so tests/unit/test_bench_operator_report.py checks it with given numbers.
"""

from __future__ import annotations

import ast
import io
import tokenize
from dataclasses import dataclass
from pathlib import Path

from .report import Row, Table, seconds, times

#: Lines of the operator files that are the bench's harness, not user code.
HARNESS_MARK = "# bench-only"
_NOT_CODE = {tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT,
             tokenize.ENCODING, tokenize.ENDMARKER}


@dataclass(frozen=True)
class OperatorRun:
    objects: int
    #: From the first create to every ConfigMap right and every status observed.
    all_seconds: float
    #: Spec updates sent during churn, and from the first one to convergence.
    churn_updates: int
    churn_seconds: float
    #: The driver's own time to send the churn updates: when churn_seconds is close to it, the
    #: operator kept up and the churn rate is the driver's, a lower bound of the operator's.
    churn_send_seconds: float
    rss_peak: int
    rss_steady: int
    #: Reconciles (handler calls) the operator itself counted, warm-up object included.
    reconciles: int
    lines: int
    #: CPU seconds spent during the churn phase, by process: "operator", "kube-apiserver",
    #: "etcd", "driver" (the bench's own, which sends the updates and polls for convergence).
    churn_cpu: dict[str, float]
    cpus: int

    @property
    def churn_rate(self) -> float:
        return self.churn_updates / self.churn_seconds

    @property
    def updates_per_operator_cpu_second(self) -> float:
        """The operator's own capacity: churn updates absorbed per second of its CPU time."""
        return self.churn_updates / self.churn_cpu["operator"]

    @property
    def server_ms_per_update(self) -> float:
        return 1000 * (self.churn_cpu["kube-apiserver"] + self.churn_cpu["etcd"]) / self.churn_updates

    def cpu_ms_per_update(self, *leaving_out: str) -> float:
        """The CPU all four processes spent per churn update, but those named."""
        return 1000 * sum(v for k, v in self.churn_cpu.items() if k not in leaving_out) / self.churn_updates

    @property
    def machine_busy(self) -> float:
        """The share of all the machine's CPUs the four processes used during churn."""
        return sum(self.churn_cpu.values()) / (self.churn_seconds * self.cpus)


def lines_of_code(source: str) -> int:
    """Non-blank lines holding code: comments, docstrings and harness lines are left out."""
    docstrings: set[int] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
                docstrings.update(range(first.lineno, (first.end_lineno or first.lineno) + 1))
    code: set[int] = set()
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type not in _NOT_CODE:
            code.update(range(token.start[0], token.end[0] + 1))
    lines = source.splitlines()
    return sum(1 for n in code - docstrings if HARNESS_MARK not in lines[n - 1])


def file_lines(path: Path) -> int:
    return lines_of_code(path.read_text(encoding="utf-8"))


def mib(value: int) -> str:
    return f"{value / 1024**2:.1f} MiB"


def table(kgen: OperatorRun, kopf: OperatorRun) -> Table:
    throughput = kgen.churn_rate / kopf.churn_rate
    memory = kgen.rss_peak / kopf.rss_peak
    capacity = kgen.updates_per_operator_cpu_second / kopf.updates_per_operator_cpu_second
    rows = [
        Row(f"time to reconcile all {kgen.objects:,} Widgets", (seconds(kgen.all_seconds), seconds(kopf.all_seconds)),
            times(kopf.all_seconds / kgen.all_seconds), "(info, kopf ÷ kgen)", None),
        Row(f"reconciles/s under churn ({kgen.churn_updates:,} spec updates)",
            (f"{kgen.churn_rate:.1f}/s", f"{kopf.churn_rate:.1f}/s"), times(throughput), "≥ 5× kopf", throughput >= 5.0),
        Row("churn: the driver's time to send the updates (a bound on the rate above)",
            (seconds(kgen.churn_send_seconds), seconds(kopf.churn_send_seconds)), "", "(info)", None),
        Row("churn: updates per second of the operator's own CPU time (its capacity)",
            (f"{kgen.updates_per_operator_cpu_second:.0f}/s", f"{kopf.updates_per_operator_cpu_second:.0f}/s"),
            times(capacity), "(info)", None),
        Row("churn: kube-apiserver + etcd CPU per update",
            (f"{kgen.server_ms_per_update:.2f} ms", f"{kopf.server_ms_per_update:.2f} ms"),
            times(kgen.server_ms_per_update / kopf.server_ms_per_update), "(info)", None),
        Row(f"churn: the machine's CPU in use (operator, apiserver, etcd, driver ÷ {kgen.cpus} CPUs)",
            (f"{100 * kgen.machine_busy:.0f}%", f"{100 * kopf.machine_busy:.0f}%"), "", "(info)", None),
        Row("churn: CPU per update, all four processes (kgen: without its operator)",
            (f"{kgen.cpu_ms_per_update('operator'):.2f} ms", f"{kopf.cpu_ms_per_update():.2f} ms"),
            times(kopf.cpu_ms_per_update() / kgen.cpu_ms_per_update("operator")),
            "(info: the most the churn ratio can be on this machine when it is saturated, were kgen's "
            "operator free)", None),
        Row("resident memory, peak (VmHWM)", (mib(kgen.rss_peak), mib(kopf.rss_peak)), times(memory),
            "≤ 0.5× kopf", memory <= 0.5),
        Row("resident memory after churn (VmRSS)", (mib(kgen.rss_steady), mib(kopf.rss_steady)),
            times(kgen.rss_steady / kopf.rss_steady), "(info)", None),
        Row("handler calls the operator counted", (f"{kgen.reconciles:,}", f"{kopf.reconciles:,}"), "", "(info)", None),
        Row("lines of user code", (str(kgen.lines), str(kopf.lines)), times(kgen.lines / kopf.lines), "(info)", None),
    ]
    return Table("Operator: Widgets each owning a ConfigMap, kgen Manager vs kopf (ratio = kgen ÷ kopf, "
                 "time kopf ÷ kgen)", ("kgen", "kopf"), rows)
