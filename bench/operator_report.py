"""The operator bench's tables: kgen's manager against controller-runtime and kopf (as shipped, and
tuned to keep its records in the status), and the goals of issue 36.

Two tables from the same run: every figure per implementation, with kgen ÷ controller-runtime as
the ratio; then the goals, each kgen against the implementation it names. Also the parsing of the
apiserver's ``apiserver_request_total`` into the writes an operator made (the bench reads /metrics
around each churn phase). I/O-free, so tests/unit/test_bench_operator_report.py checks it with
given numbers.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from .report import Row, Table, seconds, times

#: The implementations, in the order of the table's columns: key (also in the namespace's name)
#: and column title.
IMPLEMENTATIONS = {"kgen": "kgen", "controller-runtime": "controller-runtime", "kopf": "kopf",
                   "kopf-status": "kopf, status storage"}
#: Lines of the operator files that are the bench's harness, not user code (Go: ``// bench-only``).
HARNESS_MARK = "# bench-only"
GO_HARNESS_MARK = "// bench-only"
#: The verbs apiserver_request_total reports for requests that write.
WRITE_VERBS = frozenset({"POST", "PUT", "PATCH", "DELETE", "DELETECOLLECTION", "APPLY"})
#: The resources the operators write (and the driver patches): Widgets and their ConfigMaps.
RESOURCES = frozenset({"widgets", "configmaps"})
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
    #: The operator's writes in the churn phase, counted at the apiserver (apiserver_request_total,
    #: the driver's own patches taken out), by ``VERB resource[/subresource] code``.
    api_writes: dict[str, int] = field(default_factory=dict)

    @property
    def churn_rate(self) -> float:
        return self.churn_updates / self.churn_seconds

    @property
    def updates_per_operator_cpu_second(self) -> float:
        """The operator's own capacity: churn updates absorbed per second of its CPU time."""
        return self.churn_updates / self.churn_cpu["operator"]

    @property
    def operator_ms_per_update(self) -> float:
        """The operator's own CPU per churn update."""
        return 1000 * self.churn_cpu["operator"] / self.churn_updates

    @property
    def writes_per_update(self) -> float:
        """API writes (failed ones included: each is a request the apiserver served) per churn update."""
        return sum(self.api_writes.values()) / self.churn_updates

    @property
    def changes_handled(self) -> int:
        """The operator's successful writes of a Widget's status: each records one generation it
        handled (``status.observed``), so a level-based operator that met several updates of a
        Widget at once (they coalesce in its work queue while it lags) counts them as one."""
        return sum(count for key, count in self.api_writes.items()
                   if key.split()[1] == "widgets/status" and key.split()[2].startswith("2"))

    @property
    def writes_per_change(self) -> float:
        """API writes per change handled: what handling one observed change costs in writes,
        whatever share of the updates coalesced (infinite if no status was written)."""
        handled = self.changes_handled
        return sum(self.api_writes.values()) / handled if handled else float("inf")

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


def go_lines_of_code(source: str) -> int:
    """Non-blank Go lines holding code: ``//`` comment lines, ``/* */`` blocks and harness lines
    (ending in ``// bench-only``) are left out."""
    count, in_block = 0, False
    for raw in source.splitlines():
        line = raw.strip()
        if in_block:
            in_block = "*/" not in line
            continue
        if line.startswith("/*"):
            in_block = "*/" not in line
            continue
        if line and not line.startswith("//") and not line.endswith(GO_HARNESS_MARK):
            count += 1
    return count


def file_lines(path: Path) -> int:
    """Lines of user code of one operator file (Python or Go)."""
    source = path.read_text(encoding="utf-8")
    return go_lines_of_code(source) if path.suffix == ".go" else lines_of_code(source)


_SERIES = re.compile(r'^apiserver_request_total\{(?P<labels>[^}]*)\}\s+(?P<value>\S+)')
_LABEL = re.compile(r'(\w+)="((?:[^"\\]|\\.)*)"')


def request_totals(metrics: str) -> dict[tuple[str, str, str], int]:
    """The write requests to Widgets and ConfigMaps the apiserver has served so far, from its
    /metrics body: ``apiserver_request_total`` summed by (verb, resource[/subresource], code)."""
    totals: dict[tuple[str, str, str], int] = {}
    for line in metrics.splitlines():
        match = _SERIES.match(line)
        if match is None:
            continue
        labels = dict(_LABEL.findall(match["labels"]))
        verb, resource = labels.get("verb", ""), labels.get("resource", "")
        if verb not in WRITE_VERBS or resource not in RESOURCES:
            continue
        if labels.get("subresource"):
            resource += "/" + labels["subresource"]
        key = (verb, resource, labels.get("code", ""))
        totals[key] = totals.get(key, 0) + int(float(match["value"]))
    return totals


def operator_writes(before: str, after: str, driver_patches: int) -> dict[str, int]:
    """The writes an operator made between two /metrics bodies read around its churn phase, when it
    and the driver were the only writers: all writes to Widgets and ConfigMaps, less the driver's
    own ``driver_patches`` successful merge patches of Widgets (``PATCH widgets 200``).

    Keys are ``VERB resource[/subresource] code``. A counter that went down (the apiserver
    restarted) or fewer Widget patches than the driver made is an error: the figure would be wrong.
    """
    old, new = request_totals(before), request_totals(after)
    writes: dict[str, int] = {}
    for key in sorted(set(old) | set(new)):
        delta = new.get(key, 0) - old.get(key, 0)
        if delta < 0:
            raise ValueError(f"apiserver_request_total{key} went down ({old.get(key)} -> {new.get(key)}): "
                             "the apiserver restarted during the phase")
        if key == ("PATCH", "widgets", "200"):
            if delta < driver_patches:
                raise ValueError(f"the apiserver counted {delta} Widget patches, fewer than the driver's "
                                 f"{driver_patches}: the metrics were not read around the phase")
            delta -= driver_patches
        if delta:
            writes[" ".join(key)] = delta
    return writes


def write_breakdown(run: OperatorRun) -> str:
    """The operator's writes per churn update, by verb, resource and code: ``PUT configmaps 200 1.00, ...``."""
    return ", ".join(f"{key} {count / run.churn_updates:.2f}" for key, count in run.api_writes.items()) or "none"


def mib(value: int) -> str:
    return f"{value / 1024**2:.1f} MiB"


def _ratio(kgen: float, other: float) -> str:
    return times(kgen / other) if other else "—"


def figures_table(runs: Mapping[str, OperatorRun]) -> Table:
    """Every figure, one column per implementation; ratio = kgen ÷ controller-runtime."""
    ordered = [runs[key] for key in IMPLEMENTATIONS]
    kgen, cr = runs["kgen"], runs["controller-runtime"]

    def row(metric: str, value: Callable[[OperatorRun], float], shown: Callable[[float], str], note: str) -> Row:
        return Row(metric, tuple(shown(value(run)) for run in ordered), _ratio(value(kgen), value(cr)), note, None)

    return Table(
        f"Operator: {kgen.objects:,} Widgets each owning a ConfigMap (ratio = kgen ÷ controller-runtime)",
        tuple(IMPLEMENTATIONS.values()),
        [
            row(f"time to reconcile all {kgen.objects:,} Widgets", lambda r: r.all_seconds, seconds, "lower is better"),
            row(f"reconciles/s under churn ({kgen.churn_updates:,} spec updates)", lambda r: r.churn_rate,
                lambda v: f"{v:.1f}/s", "(printed, no bar: apiserver and etcd bound it)"),
            row("churn: the driver's time to send the updates (a bound on the rate above)",
                lambda r: r.churn_send_seconds, seconds, ""),
            row("churn: operator CPU per update", lambda r: r.operator_ms_per_update, lambda v: f"{v:.2f} ms",
                "lower is better"),
            row("churn: operator CPU per change handled (updates met at once count as one)",
                lambda r: 1000 * r.churn_cpu["operator"] / r.changes_handled if r.changes_handled else float("inf"),
                lambda v: f"{v:.2f} ms", "lower is better"),
            row("churn: updates per second of the operator's own CPU time (its capacity)",
                lambda r: r.updates_per_operator_cpu_second, lambda v: f"{v:.0f}/s", "higher is better"),
            row("churn: API writes per update (the operator's, counted at the apiserver)",
                lambda r: r.writes_per_update, lambda v: f"{v:.2f}", "(lower when more updates coalesced)"),
            row("churn: changes handled per update (successful status writes ÷ updates)",
                lambda r: r.changes_handled / r.churn_updates, lambda v: f"{v:.2f}", "(< 1: updates coalesced)"),
            row("churn: API writes per change handled", lambda r: r.writes_per_change, lambda v: f"{v:.2f}",
                "lower is better"),
            row("churn: kube-apiserver + etcd CPU per update", lambda r: r.server_ms_per_update,
                lambda v: f"{v:.2f} ms", "lower is better"),
            row(f"churn: the machine's CPU in use (operator, apiserver, etcd, driver ÷ {kgen.cpus} CPUs)",
                lambda r: r.machine_busy, lambda v: f"{100 * v:.0f}%", ""),
            row("resident memory, peak (VmHWM)", lambda r: r.rss_peak, lambda v: mib(int(v)), "lower is better"),
            row("resident memory after churn (VmRSS)", lambda r: r.rss_steady, lambda v: mib(int(v)), ""),
            row("handler calls the operator counted", lambda r: r.reconciles, lambda v: f"{v:,.0f}", ""),
            row("lines of user code", lambda r: r.lines, lambda v: f"{v:.0f}", ""),
        ],
    )


def goals_table(runs: Mapping[str, OperatorRun]) -> Table:
    """The goals of issue 36, each kgen against the implementation the row names (ratio = kgen ÷ it).

    The writes goal is judged per change handled, not per update: under churn a level-based
    operator handles a Widget's queued updates at once, and how many coalesce depends on how far
    it lags behind the driver (on a shared machine, on the run), not on what it writes for a change.
    Both figures are printed."""
    kgen, cr, kopf, tuned = (runs[key] for key in IMPLEMENTATIONS)
    capacity = kgen.updates_per_operator_cpu_second / tuned.updates_per_operator_cpu_second
    capacity_shipped = kgen.updates_per_operator_cpu_second / kopf.updates_per_operator_cpu_second
    memory = kgen.rss_peak / kopf.rss_peak
    memory_tuned = kgen.rss_peak / tuned.rss_peak
    writes = kgen.writes_per_change / cr.writes_per_change
    writes_per_update = kgen.writes_per_update / cr.writes_per_update if cr.writes_per_update else float("inf")

    def per_cpu_second(run: OperatorRun) -> str:
        return f"{run.updates_per_operator_cpu_second:.0f}/s"

    rows = [
        Row("updates per operator CPU-second, vs kopf with status storage",
            (per_cpu_second(kgen), per_cpu_second(tuned)), times(capacity), "≥ 5× kopf (status)", capacity >= 5.0),
        Row("updates per operator CPU-second, vs kopf as shipped",
            (per_cpu_second(kgen), per_cpu_second(kopf)), times(capacity_shipped), "(info)", None),
        Row("resident memory, peak (VmHWM), vs kopf as shipped", (mib(kgen.rss_peak), mib(kopf.rss_peak)),
            times(memory), "≤ 0.5× kopf", memory <= 0.5),
        Row("resident memory, peak (VmHWM), vs kopf with status storage", (mib(kgen.rss_peak), mib(tuned.rss_peak)),
            times(memory_tuned), "(info)", None),
        Row("API writes per change handled, vs controller-runtime",
            (f"{kgen.writes_per_change:.2f}", f"{cr.writes_per_change:.2f}"), times(writes),
            "≤ controller-runtime", kgen.writes_per_change <= cr.writes_per_change),
        Row("API writes per update, vs controller-runtime (its share of coalesced updates differs)",
            (f"{kgen.writes_per_update:.2f}", f"{cr.writes_per_update:.2f}"), times(writes_per_update), "(info)", None),
    ]
    return Table("Operator goals (ratio = kgen ÷ the implementation the row names)", ("kgen", "other"), rows)


def tables(runs: Mapping[str, OperatorRun]) -> list[Table]:
    """The figures table and the goals table of one run of all the implementations."""
    missing = [key for key in IMPLEMENTATIONS if key not in runs]
    if missing:
        raise ValueError(f"no operator run for {', '.join(missing)}")
    return [figures_table(runs), goals_table(runs)]
