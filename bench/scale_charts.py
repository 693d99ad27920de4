"""The scale bench's charts: PNGs of sync time and memory per cached object against the object
count, one line per client, log x. matplotlib is a bench-only dependency (pyproject's
``bench`` extra), imported here only, and drawn with the Agg backend (no display needed).

The charts are drawn again from a report's ``scale.json`` (its medians), without measuring
anything: ``python -m bench.scale_charts docs/bench`` redraws the docs' charts.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from .scale_report import LABELS, Figure, Measure, ScaleResult

if TYPE_CHECKING:
    from matplotlib.figure import Figure as PlotFigure

SYNC_CHART = "sync_time.png"
MEMORY_CHART = "memory_per_object.png"
#: Clients whose figure is a list, not an informer: dashed, so a line lying on another shows.
LISTS = frozenset({"kgen-list", "official", "lightkube", "wire-json", "wire-protobuf", "kgen-protobuf"})
#: Text sizes in points. The docs show a chart at the content column's width (about 950 px at
#: a 1280 px window), a little under its 150 dpi size: 13 pt is then about 17 px on screen.
#: matplotlib's defaults (10 pt, the legend "small") came out near 8 px there.
TEXT_PT = 13.0
TITLE_PT = 15.0
DPI = 150
#: Eleven clients: tab20's pairs of a hue, so no two lines share a colour (tab10 has ten).
COLORS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
          "#bcbd22", "#17becf", "#aec7e8", "#ffbb78")


def write_charts(result: ScaleResult, folder: Path) -> list[Path]:
    """Writes both charts into ``folder`` (created if missing); returns their paths."""
    folder.mkdir(parents=True, exist_ok=True)
    return [save(chart(result, "sync"), folder / SYNC_CHART), save(chart(result, "memory"), folder / MEMORY_CHART)]


def chart(result: ScaleResult, measure: Measure) -> PlotFigure:
    """The figure of one chart, not yet saved (``save`` writes it and closes it)."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure as PlotFigure

    if measure == "sync":
        ylabel, title = "initial sync (s)", "Initial sync time (list-only clients: list complete)"
    else:
        ylabel = "resident memory per cached object (KiB)"
        title = "Resident memory per cached Pod (after sync and a full GC)"
    # A Figure of its own, not pyplot's global state: nothing leaks between charts or into tests.
    fig = PlotFigure(figsize=(9.5, 6.0), dpi=DPI)
    ax = fig.add_subplot()
    for index, (client, label) in enumerate(LABELS.items()):
        points = [(count, figure) for count in result.counts if (figure := result.get(client, count))
                  and (measure == "sync" or figure.bytes_per_object is not None)]
        if not points:
            continue
        xs = [count for count, _ in points]
        ys = [f.seconds if measure == "sync" else (f.bytes_per_object or 0.0) / 1024 for _, f in points]
        dashed = client in LISTS
        ax.plot(xs, ys, marker="s" if dashed else "o", markersize=7, linewidth=2,
                linestyle="--" if dashed else "-", color=COLORS[index % len(COLORS)], label=label)
    ax.set_xscale("log")
    if measure == "sync":
        ax.set_yscale("log")
    else:
        ax.set_ylim(bottom=0)
    ax.set_xticks(list(result.counts), [f"{c:,}" for c in result.counts])
    ax.set_xticks([], minor=True)  # only the measured counts are labelled
    ax.tick_params(axis="both", which="both", labelsize=TEXT_PT)
    ax.set_xlabel("Pods cached", fontsize=TEXT_PT)
    ax.set_ylabel(ylabel, fontsize=TEXT_PT)
    ax.set_title(title, fontsize=TITLE_PT)
    ax.grid(True, which="both", alpha=0.3)
    # Below the plot, one entry a line: the labels are long, and beside the plot they squeezed it
    # to a third of the picture; below, no line is hidden and the plot keeps the full width.
    ax.legend(fontsize=TEXT_PT, loc="upper left", bbox_to_anchor=(0.0, -0.17), borderaxespad=0.0, frameon=False)
    return fig


def save(fig: PlotFigure, path: Path) -> Path:
    """Writes ``fig`` as a PNG at ``path``, cropped to what it draws (the legend below included)."""
    try:
        fig.savefig(path, format="png", bbox_inches="tight", pad_inches=0.15)
    finally:
        fig.clear()
    return path


def load_result(path: Path) -> ScaleResult:
    """The medians of a report's ``scale.json`` (as ``bench.scale.write`` wrote them) as a
    ``ScaleResult``: what the charts need; the runs and the notes' facts are not read back."""
    data = json.loads(path.read_text(encoding="utf-8"))
    figures = {client: {int(count): Figure(f["seconds"], f["bytesPerObject"]) for count, f in by_count.items()}
               for client, by_count in data["figures"].items()}
    counts = tuple(sorted({count for by_count in figures.values() for count in by_count}))
    return ScaleResult(counts, int(data["repeats"]), figures, dict(data.get("missing", {})))


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m bench.scale_charts FOLDER``: redraws FOLDER's charts from FOLDER/scale.json."""
    parser = argparse.ArgumentParser(prog="python -m bench.scale_charts", description=main.__doc__)
    parser.add_argument("folder", type=Path, help="a scale report's folder, e.g. docs/bench")
    folder: Path = parser.parse_args(argv).folder
    source = folder / "scale.json"
    if not source.is_file():
        print(f"{source}: no such file (a scale report's figures, written by make bench-docs)", file=sys.stderr)
        return 2
    for path in write_charts(load_result(source), folder):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
