"""Plain-text tables: one row per metric, its goal, and whether kgen meets it."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Row:
    metric: str
    values: tuple[str, ...]
    ratio: str
    goal: str
    #: True met, False missed, None: no goal (information only).
    met: bool | None

    @property
    def result(self) -> str:
        return {True: "MET", False: "MISSED", None: ""}[self.met]


@dataclass(frozen=True)
class Table:
    title: str
    peers: tuple[str, ...]
    rows: list[Row]

    def render(self) -> str:
        header = ("metric", *self.peers, "ratio", "goal", "result")
        body = [(r.metric, *r.values, r.ratio, r.goal, r.result) for r in self.rows]
        widths = [max(len(line[i]) for line in [header, *body]) for i in range(len(header))]
        numeric = {i for i in range(1, len(self.peers) + 2)}

        def line(cells: tuple[str, ...]) -> str:
            padded = [c.rjust(w) if i in numeric else c.ljust(w) for i, (c, w) in enumerate(zip(cells, widths))]
            return "| " + " | ".join(padded) + " |"

        rule = "|" + "|".join("-" * (w + 2) for w in widths) + "|"
        return "\n".join([self.title, "", line(header), rule, *(line(cells) for cells in body)])


def seconds(value: float | None) -> str:
    if value is None:
        return "—"
    return f"{value * 1000:.0f} ms" if value < 1 else f"{value:.2f} s"


def kib(value: float | None) -> str:
    return "—" if value is None else f"{value / 1024:.1f} KiB"


def times(value: float | None) -> str:
    if value is None:
        return "—"
    return f"{value:.2f}×" if value < 10 else f"{value:.1f}×"

