"""The scale bench's figures and what is printed of them: issue 13's bars as ratios, each
between two figures of the same run, and the figures themselves (sync time, memory per cached
object) per client and object count. Pure: no server, no processes, no matplotlib.
"""

from __future__ import annotations

import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from .report import Row, Table, seconds, times

#: Every client of the bench, in the order of the tables and the charts' legends.
LABELS = {
    "kgen-full": "kgen full (typed informer)",
    "kgen-metadata": "kgen metadata-only informer",
    "client-go": "client-go (typed informer; protobuf, its default for built-in kinds)",
    "client-go-json": "client-go (typed informer) speaking JSON",
    "client-go-lean": "client-go, managedFields dropped (SetTransform)",
    "kgen-list": "kgen bare paginated list",
    "wire-json": "JSON watch-list read, nothing decoded (the server's floor for JSON)",
    "wire-protobuf": "protobuf watch-list read, nothing decoded (the server's floor for protobuf)",
    "kgen-protobuf": "kgen models read from a protobuf watch-list (upb parse, Python walk; no informer)",
    "official": "official client (paginated list into a dict)",
    "lightkube": "lightkube (paginated list into a dict)",
}

NOT_AVAILABLE = "not available yet"


@dataclass(frozen=True)
class Figure:
    """One client's figures at one object count: start → cache filled, and what it holds."""

    seconds: float
    #: (VmRSS after sync and a full GC − VmRSS just before the start) / objects; None for a row
    #: that keeps nothing (the wire floor).
    bytes_per_object: float | None


@dataclass(frozen=True)
class ScaleResult:
    counts: tuple[int, ...]
    repeats: int
    #: client → object count → the medians of its runs.
    figures: Mapping[str, Mapping[int, Figure]]
    #: client → why it has no figures (or not all of them).
    missing: Mapping[str, str] = field(default_factory=dict)
    #: Free-form facts about the run (WatchList modes, versions), printed as notes.
    facts: Sequence[str] = ()
    #: client → object count → every run's figures (the medians' spread, kept in scale.json).
    runs: Mapping[str, Mapping[int, Sequence[Figure]]] = field(default_factory=dict)

    def get(self, client: str, count: int) -> Figure | None:
        return self.figures.get(client, {}).get(count)


def median_figure(runs: Sequence[Figure]) -> Figure:
    """The median of each figure over the runs (taken apart: the runs need not agree on which
    run is the median one)."""
    memory = [r.bytes_per_object for r in runs if r.bytes_per_object is not None]
    return Figure(statistics.median(r.seconds for r in runs), statistics.median(memory) if memory else None)


Measure = Literal["memory", "sync"]


@dataclass(frozen=True)
class Bar:
    metric: str
    numerator: str
    denominator: str
    measure: Measure
    #: The ratio must be at most this; None: printed for information.
    at_most: float | None


#: Issue 13's acceptance bars, and the list comparison it states, in the order printed.
BARS = (
    Bar("memory per cached object, kgen full ÷ client-go", "kgen-full", "client-go", "memory", 1.0),
    Bar("memory per cached object, kgen metadata-only ÷ kgen full", "kgen-metadata", "kgen-full", "memory", 0.25),
    Bar("initial sync, kgen full ÷ client-go", "kgen-full", "client-go", "sync", 1.5),
    Bar("initial sync, kgen full ÷ kgen bare list", "kgen-full", "kgen-list", "sync", 1.1),
    Bar("memory per cached object, kgen full ÷ client-go with managedFields dropped", "kgen-full", "client-go-lean",
        "memory", None),
    Bar("list, kgen bare list ÷ lightkube list", "kgen-list", "lightkube", "sync", None),
    Bar("initial sync, kgen full ÷ client-go speaking JSON", "kgen-full", "client-go-json", "sync", None),
    Bar("initial sync, kgen full ÷ the JSON wire floor", "kgen-full", "wire-json", "sync", None),
    Bar("initial sync, the JSON wire floor ÷ client-go (protobuf)", "wire-json", "client-go", "sync", None),
    Bar("sync, kgen metadata-only ÷ kgen full", "kgen-metadata", "kgen-full", "sync", None),
    Bar("initial sync, the protobuf wire floor ÷ client-go (protobuf)", "wire-protobuf", "client-go", "sync", None),
    Bar("decode, kgen models from protobuf ÷ client-go (protobuf)", "kgen-protobuf", "client-go", "sync", None),
    Bar("decode, kgen models from protobuf ÷ kgen full (JSON)", "kgen-protobuf", "kgen-full", "sync", None),
)


def kib(value: float | None) -> str:
    return "—" if value is None else f"{value / 1024:.2f} KiB"


def _value(figure: Figure | None, measure: Measure) -> float | None:
    if figure is None:
        return None
    return figure.bytes_per_object if measure == "memory" else figure.seconds


def _shown(client: str, value: float | None, measure: Measure, result: ScaleResult) -> str:
    if value is None:
        return NOT_AVAILABLE if client in result.missing else "—"
    return kib(value) if measure == "memory" else seconds(value)


def ratio_table(result: ScaleResult) -> Table:
    """One row per bar and object count: both figures, their ratio, and MET/MISSED.

    A ratio whose figures are missing is neither met nor missed: it is shown as not available
    (the notes say why), and the run does not count it among the missed goals.
    """
    rows = []
    for count in result.counts:
        for bar in BARS:
            top = _value(result.get(bar.numerator, count), bar.measure)
            bottom = _value(result.get(bar.denominator, count), bar.measure)
            ratio = top / bottom if top is not None and bottom else None
            goal = "(info)" if bar.at_most is None else f"≤ {bar.at_most:g}×"
            met = None if ratio is None or bar.at_most is None else ratio <= bar.at_most
            rows.append(Row(f"{count:,} pods: {bar.metric}",
                            (_shown(bar.numerator, top, bar.measure, result),
                             _shown(bar.denominator, bottom, bar.measure, result)),
                            times(ratio) if ratio is not None else NOT_AVAILABLE, goal, met))
    return Table(f"Scale: ratios from the same run (medians of {result.repeats}; lower is better)",
                 ("numerator", "denominator"), rows)


def figures_table(result: ScaleResult, measure: Measure) -> Table:
    """One row per client, one column per object count."""
    rows = [Row(label, tuple(_shown(client, _value(result.get(client, c), measure), measure, result)
                             for c in result.counts), "", "", None)
            for client, label in LABELS.items()]
    title = ("Scale: initial sync, start → all objects in a handler and synced (list-only clients: list complete)"
             if measure == "sync" else
             "Scale: resident memory per cached object, (VmRSS after sync and a full GC − VmRSS before start) ÷ N")
    return Table(title, tuple(f"{c:,} pods" for c in result.counts), rows)


def notes(result: ScaleResult) -> list[str]:
    lines = [
        "- scale: Pods as bench/pods.py makes them (two containers, env, probes, volumes), created through the "
        "API in one namespace and given a Running status through /status; every client in a fresh process, "
        "caching that namespace's Pods; QPS limits off",
        "- scale: the official client and lightkube have no informer: their row is the list-then-watch "
        "equivalent a user of them builds, a paginated list (pages of 500) held in a dict keyed by namespace/name "
        "(the watch that would follow is not part of an initial sync)",
        "- scale: client-go's typed clients ask for protobuf for built-in kinds (rest.Request.UseProtobufAsDefault), "
        "the format users of its Pod informer get; its JSON row sets ContentType, as the custom resources' clients "
        "must. The JSON wire floor is the informer's own watch-list request read to its end bookmark, nothing "
        "decoded: how long the server takes to send the objects as JSON (the protobuf wire floor: the same, "
        "asking for protobuf). kgen reading protobuf is that protobuf watch-list turned into kgen's typed Pods: "
        "the protobuf package parses it in C (upb), a Python walk makes each message the dict its JSON would be "
        "(Go facts for omitempty and nils, bench/protobuf_wire.py), checked equal to the JSON list's objects",
        "- scale: memory is VmRSS from /proc/self/status in every process, after gc.collect() (Python) or "
        "runtime.GC + debug.FreeOSMemory (Go), minus the same reading just before the informer or list started",
        *(f"- scale: {fact}" for fact in result.facts),
    ]
    lines += [f"- scale: {LABELS.get(client, client)}: {NOT_AVAILABLE}: {why}" for client, why in result.missing.items()]
    return lines


def markdown(result: ScaleResult, charts: Sequence[str], header: str) -> str:
    """The report written next to the charts: the ratio table first, then the figures."""
    parts = [f"# kgen scale bench\n\n{header}\n"]
    parts += [f"![{name}]({name})\n" for name in charts]
    for table in (ratio_table(result), figures_table(result, "sync"), figures_table(result, "memory")):
        title, body = table.render().split("\n", 1)
        parts.append(f"## {title}\n{body}\n")
    parts.append("## Notes\n\n" + "\n".join(notes(result)) + "\n")
    return "\n".join(parts)
