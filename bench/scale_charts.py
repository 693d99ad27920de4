"""The scale bench's charts: PNGs of sync time and memory per cached object against the object
count, one line per client, log x. matplotlib is a bench-only dependency (pyproject's
``bench`` extra), imported here only, and drawn with the Agg backend (no display needed).
"""

from __future__ import annotations

from pathlib import Path

from .scale_report import LABELS, Measure, ScaleResult

SYNC_CHART = "sync_time.png"
MEMORY_CHART = "memory_per_object.png"
#: Clients whose figure is a list, not an informer: dashed, so a line lying on another shows.
LISTS = frozenset({"kgen-list", "official", "lightkube", "wire-json", "wire-protobuf", "kgen-protobuf"})


def write_charts(result: ScaleResult, folder: Path) -> list[Path]:
    """Writes both charts into ``folder`` (created if missing); returns their paths."""
    import matplotlib

    matplotlib.use("Agg")
    folder.mkdir(parents=True, exist_ok=True)
    return [
        _chart(result, "sync", folder / SYNC_CHART, "initial sync (s)",
               "Initial sync time (list-only clients: list complete)"),
        _chart(result, "memory", folder / MEMORY_CHART, "resident memory per cached object (KiB)",
               "Resident memory per cached Pod (after sync and a full GC)"),
    ]


def _chart(result: ScaleResult, measure: Measure, path: Path, ylabel: str, title: str) -> Path:
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(10, 5), dpi=110)
    try:
        for client, label in LABELS.items():
            points = [(count, figure) for count in result.counts if (figure := result.get(client, count))
                      and (measure == "sync" or figure.bytes_per_object is not None)]
            if not points:
                continue
            xs = [count for count, _ in points]
            ys = [f.seconds if measure == "sync" else (f.bytes_per_object or 0.0) / 1024 for _, f in points]
            dashed = client in LISTS
            ax.plot(xs, ys, marker="s" if dashed else "o", linestyle="--" if dashed else "-", label=label)
        ax.set_xscale("log")
        if measure == "sync":
            ax.set_yscale("log")
        else:
            ax.set_ylim(bottom=0)
        ax.set_xticks(list(result.counts), [f"{c:,}" for c in result.counts])
        ax.set_xticks([], minor=True)  # only the measured counts are labelled
        ax.set_xlabel("Pods cached")
        ax.set_ylabel(ylabel)
        ax.set_title(title)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.01, 1.0))  # beside: no line hidden
        fig.tight_layout()
        fig.savefig(path, format="png")
    finally:
        plt.close(fig)
    return path
