"""The scale bench's pure parts: issue 13's bars judged from the figures of one run, missing
clients shown as not available (never as met), the charts written as real PNGs, the markdown
report linking them, the pods it creates, and its command-line checks. The charts' text is
readable where the docs show them (issue 31), and they redraw from a report's scale.json."""

from __future__ import annotations

import json
import struct
from pathlib import Path

import pytest

from bench import run, scale, scale_clients
from bench.scale_charts import MEMORY_CHART, SYNC_CHART, chart, load_result, main, save, write_charts
from bench.scale_fill import pod_bodies, served_sizes
from bench.scale_report import (NOT_AVAILABLE, Figure, Measure, ScaleResult, figures_table, markdown,
                                median_figure, ratio_table)

KIB = 1024.0
DOCS_BENCH = Path(__file__).resolve().parents[2] / "docs" / "bench"


def _result(full: Figure, go: Figure, metadata: Figure | None, bare: Figure,
            missing: dict[str, str] | None = None, count: int = 1000) -> ScaleResult:
    figures = {"kgen-full": {count: full}, "client-go": {count: go}, "kgen-list": {count: bare},
               "lightkube": {count: Figure(0.5, 70 * KIB)}, "official": {count: Figure(2.0, 160 * KIB)}}
    if metadata is not None:
        figures["kgen-metadata"] = {count: metadata}
    return ScaleResult((count,), 3, figures, missing or {})


def _verdicts(result: ScaleResult) -> dict[str, bool | None]:
    return {row.metric.split(": ", 1)[1]: row.met for row in ratio_table(result).rows}


def test_bars_at_their_limits_are_met() -> None:
    # memory 30 = client-go's 30 (1.0×), metadata 7.5 = 0.25× of 30; sync 1.5 = 1.5× client-go's 1.0
    # and 1.1× the bare list's (1.5 / 1.1 s).
    verdicts = _verdicts(_result(full=Figure(1.5, 30 * KIB), go=Figure(1.0, 30 * KIB),
                                 metadata=Figure(0.4, 7.5 * KIB), bare=Figure(1.5 / 1.1, 40 * KIB)))
    assert verdicts == {
        "memory per cached object, kgen full ÷ client-go": True,
        "memory per cached object, kgen metadata-only ÷ kgen full": True,
        "initial sync, kgen full ÷ client-go": True,
        "initial sync, kgen full ÷ kgen bare list": True,
        "memory per cached object, kgen full ÷ client-go with managedFields dropped": None,
        "list, kgen bare list ÷ lightkube list": None,
        "sync, kgen metadata-only ÷ kgen full": None,
        "initial sync, kgen full ÷ client-go speaking JSON": None,
        "initial sync, kgen full ÷ the JSON wire floor": None,
        "initial sync, the JSON wire floor ÷ client-go (protobuf)": None,
        "initial sync, the protobuf wire floor ÷ client-go (protobuf)": None,
        "decode, kgen models from protobuf ÷ client-go (protobuf)": None,
        "decode, kgen models from protobuf ÷ kgen full (JSON)": None,
    }


def test_bars_past_their_limits_are_missed() -> None:
    verdicts = _verdicts(_result(full=Figure(2.0, 31 * KIB), go=Figure(1.0, 30 * KIB),
                                 metadata=Figure(0.4, 8 * KIB), bare=Figure(1.5, 40 * KIB)))
    assert [verdicts[m] for m in ("memory per cached object, kgen full ÷ client-go",
                                  "memory per cached object, kgen metadata-only ÷ kgen full",
                                  "initial sync, kgen full ÷ client-go",
                                  "initial sync, kgen full ÷ kgen bare list")] == [False, False, False, False]


def test_ratio_row_prints_both_figures_and_their_quotient() -> None:
    rows = ratio_table(_result(full=Figure(3.0, 45 * KIB), go=Figure(1.2, 30 * KIB),
                               metadata=Figure(0.4, 9 * KIB), bare=Figure(2.5, 40 * KIB))).rows
    memory = rows[0]
    assert memory.metric == "1,000 pods: memory per cached object, kgen full ÷ client-go"
    assert memory.values == ("45.00 KiB", "30.00 KiB")
    assert (memory.ratio, memory.goal, memory.result) == ("1.50×", "≤ 1×", "MISSED")
    sync = rows[2]
    assert (sync.values, sync.ratio, sync.result) == (("3.00 s", "1.20 s"), "2.50×", "MISSED")


def test_a_missing_client_is_not_available_and_neither_met_nor_missed() -> None:
    result = _result(full=Figure(1.0, 30 * KIB), go=Figure(1.0, 30 * KIB), metadata=None,
                     bare=Figure(1.0, 30 * KIB), missing={"kgen-metadata": "not generated here"})
    rows = {row.metric.split(": ", 1)[1]: row for row in ratio_table(result).rows}
    metadata = rows["memory per cached object, kgen metadata-only ÷ kgen full"]
    assert metadata.values == (NOT_AVAILABLE, "30.00 KiB")
    assert (metadata.ratio, metadata.met) == (NOT_AVAILABLE, None)
    sync_rows = {row.metric: row.values for row in figures_table(result, "sync").rows}
    assert sync_rows["kgen metadata-only informer"] == (NOT_AVAILABLE,)
    assert sync_rows["kgen full (typed informer)"] == ("1.00 s",)


def test_rows_repeat_per_object_count() -> None:
    figure = Figure(1.0, 10 * KIB)
    result = ScaleResult((1000, 10_000), 1, {"kgen-full": {1000: figure, 10_000: figure}})
    metrics = [row.metric for row in ratio_table(result).rows]
    assert sum(m.startswith("1,000 pods:") for m in metrics) == sum(m.startswith("10,000 pods:") for m in metrics) == 13
    assert figures_table(result, "memory").peers == ("1,000 pods", "10,000 pods")


def test_median_figure_takes_each_median_apart() -> None:
    runs = [Figure(1.0, 300.0), Figure(3.0, 100.0), Figure(2.0, 200.0), Figure(9.0, 50.0)]
    assert median_figure(runs) == Figure(2.5, 150.0)


def test_figure_from_a_client_line_is_rss_growth_per_object() -> None:
    line = {"seconds": 1.25, "rssBefore": 50_000_000, "rssAfter": 80_000_000}
    assert scale._figure(line, 1000) == Figure(1.25, 30_000.0)


def _is_png(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", path
    assert data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_charts_are_written_as_valid_pngs(tmp_path: Path) -> None:
    counts = (1000, 10_000, 100_000)
    figures = {client: {c: Figure(c / 1e4 * (i + 1), (20 + i) * KIB) for c in counts}
               for i, client in enumerate(("kgen-full", "client-go", "kgen-list", "lightkube"))}
    figures["official"] = {1000: Figure(1.0, 150 * KIB)}  # a client with fewer points still draws
    result = ScaleResult(counts, 1, figures, {"kgen-metadata": "not generated here"})
    folder = tmp_path / "out" / "bench"  # created when missing
    paths = write_charts(result, folder)
    assert [p.name for p in paths] == [SYNC_CHART, MEMORY_CHART]
    import matplotlib.image

    for path in paths:
        width, height = _is_png(path)
        assert width > 100 and height > 100 and path.stat().st_size > 1000
        # Each chart is cropped to what it draws, so the two need not be the same size.
        assert matplotlib.image.imread(path).shape[:2] == (height, width)


def test_report_links_the_charts_next_to_the_ratio_table(tmp_path: Path) -> None:
    result = _result(full=Figure(1.5, 30 * KIB), go=Figure(1.0, 30 * KIB), metadata=None,
                     bare=Figure(1.4, 40 * KIB), missing={"kgen-metadata": "not generated here"})
    written = scale.write(result, tmp_path, "machine: test")
    assert [p.name for p in written] == ["scale.md", "scale.json", SYNC_CHART, MEMORY_CHART]
    medians = json.loads(written[1].read_text(encoding="utf-8"))
    assert medians["figures"]["kgen-full"]["1000"] == {"seconds": 1.5, "bytesPerObject": 30 * KIB}
    assert medians["missing"] == {"kgen-metadata": "not generated here"}
    assert medians["runs"] == {}
    report = written[0].read_text(encoding="utf-8")
    assert f"![{SYNC_CHART}]({SYNC_CHART})" in report and f"![{MEMORY_CHART}]({MEMORY_CHART})" in report
    assert "| 1,000 pods: initial sync, kgen full ÷ client-go " in report and "MET" in report
    assert "kgen metadata-only informer: not available yet: not generated here" in report
    assert report.index("ratios from the same run") < report.index("resident memory per cached object,")
    assert markdown(result, [], "h").startswith("# kgen scale bench\n\nh\n")


def test_medians_file_keeps_every_run(tmp_path: Path) -> None:
    runs = [Figure(1.0, 10.0), Figure(3.0, 30.0)]
    result = ScaleResult((1000,), 2, {"client-go": {1000: median_figure(runs)}}, runs={"client-go": {1000: runs}})
    medians = json.loads(scale.write(result, tmp_path, "h")[1].read_text(encoding="utf-8"))
    assert medians["figures"]["client-go"]["1000"] == {"seconds": 2.0, "bytesPerObject": 20.0}
    assert medians["runs"]["client-go"]["1000"] == [{"seconds": 1.0, "bytesPerObject": 10.0},
                                                    {"seconds": 3.0, "bytesPerObject": 30.0}]


def test_pods_are_created_without_server_set_fields_and_with_unique_names() -> None:
    bodies = pod_bodies(300, 7, "bench-scale-300")
    names = {pod["metadata"]["name"] for pod, _ in bodies}
    assert len(names) == 300
    for pod, status in bodies:
        assert pod["metadata"]["namespace"] == "bench-scale-300"
        assert not {"uid", "resourceVersion", "creationTimestamp"} & pod["metadata"].keys()
        assert "status" not in pod and status["phase"] == "Running" and len(status["containerStatuses"]) == 2
    assert pod_bodies(300, 7, "bench-scale-300") == bodies  # seeded


def test_served_sizes_name_the_metadata_and_managed_fields_share() -> None:
    pod = {"metadata": {"name": "a" * 990, "managedFields": [{"f": "b" * 480}, {"f": "c" * 480}]}, "spec": "d" * 1000}
    assert served_sizes(pod) == ("each Pod as served is 3.0 KB of JSON: metadata 2.0 KB, of which managedFields "
                                 "1.0 KB (2 entries)")


@pytest.mark.parametrize(("text", "expected"), [("10000,1000", (1000, 10_000)), ("100000", (100_000,))])
def test_scale_counts_are_parsed_sorted(text: str, expected: tuple[int, ...]) -> None:
    assert run._parser().parse_args(["--only", "scale", "--scale-counts", text]).scale_counts == expected


@pytest.mark.parametrize("text", ["1000,ten", "0,1000", "1000,1000", ""])
def test_bad_scale_counts_are_a_one_line_usage_error(text: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        run._parser().parse_args(["--scale-counts", text])
    assert exited.value.code == 2
    assert "--scale-counts: want" in capsys.readouterr().err


def test_scale_defaults_are_1000_and_10000() -> None:
    args = run._parser().parse_args([])
    assert (args.scale_counts, args.scale_out) == ((1000, 10_000), Path("build") / "bench")
    assert "scale" in run.TABLES


def test_client_runner_refuses_an_unknown_client(capsys: pytest.CaptureFixture[str]) -> None:
    assert scale_clients.main(["kgen-fast", "kc", "ns", "1"]) == 2
    assert "usage: python -m bench.scale_clients {kgen-full," in capsys.readouterr().err


def test_resident_bytes_reads_this_process() -> None:
    before = scale_clients.resident_bytes()
    held = bytearray(64 * 1024 * 1024)
    held[::4096] = b"x" * len(held[::4096])  # touch every page so it is resident
    assert scale_clients.resident_bytes() - before >= 60 * 1024 * 1024
    del held


def test_a_row_without_memory_shows_a_dash_and_stays_off_the_memory_chart(tmp_path: Path) -> None:
    floor = {1000: Figure(0.2, None), 10_000: Figure(2.0, None)}
    result = ScaleResult((1000, 10_000), 1, {"wire-json": floor, "kgen-full": {1000: Figure(0.3, 20 * KIB)}})
    memory = {row.metric: row.values for row in figures_table(result, "memory").rows}
    sync = {row.metric: row.values for row in figures_table(result, "sync").rows}
    floor_label = "JSON watch-list read, nothing decoded (the server's floor for JSON)"
    assert memory[floor_label] == ("—", "—")
    assert sync[floor_label] == ("200 ms", "2.00 s")
    assert median_figure([Figure(1.0, None), Figure(3.0, None)]) == Figure(1.0 * 2, None)
    assert [p.name for p in write_charts(result, tmp_path)] == [SYNC_CHART, MEMORY_CHART]


def test_a_client_predicted_past_the_memory_left_is_not_run_at_that_count() -> None:
    gib = 1024**3
    runs = {("official", 10_000): [Figure(20.0, 150 * KIB), Figure(21.0, 152 * KIB)],
            ("kgen-full", 10_000): [Figure(2.0, 22 * KIB)], ("wire-json", 10_000): [Figure(2.0, None)]}
    why = scale.too_big("official", 100_000, runs, 18 * gib)
    assert why is not None and why.startswith("not run at 100,000 pods: 152 KiB per Pod at 10,000 predicts 14.5 GiB")
    assert scale.too_big("official", 100_000, runs, 20 * gib) is None  # 14.5 GiB fits 20 less 4
    assert scale.too_big("kgen-full", 100_000, runs, 18 * gib) is None
    assert scale.too_big("wire-json", 100_000, runs, 1 * gib) is None  # keeps nothing
    assert scale.too_big("lightkube", 100_000, runs, 1 * gib) is None  # nothing measured yet
    assert scale.too_big("official", 10_000, runs, 1 * gib) is None  # only smaller counts predict
    assert scale.available_bytes() > 0


#: The docs' content column at a 1280 px window (983 px, docs/stylesheets/extra.css; the width
#: tests/docs/test_site.py measures code blocks in), a little less for safety: the theme scales an
#: image wider than the column down to it, and its text with it.
DOCS_COLUMN_PX = 960
#: The smallest text a chart may show there, in CSS pixels (the docs' own body text is 16 px).
READABLE_PX = 12.0


@pytest.mark.parametrize("measure", ["sync", "memory"])
def test_chart_text_is_readable_at_the_docs_column_width(measure: Measure, tmp_path: Path) -> None:
    """Drawn from the committed figures (docs/bench/scale.json), every legend entry, axis label and
    tick label is at least 12 px once the PNG is scaled to the docs' column; the legend names
    every line drawn and lies outside the plot and its axis label (it hides no line)."""
    from matplotlib.text import Text

    fig = chart(load_result(DOCS_BENCH / "scale.json"), measure)
    [ax] = fig.axes
    legend = ax.get_legend()
    assert legend is not None
    assert [t.get_text() for t in legend.get_texts()] == [str(line.get_label()) for line in ax.get_lines()]
    assert len(ax.get_lines()) >= (11 if measure == "sync" else 9)  # the memory chart has no wire floors
    texts: list[Text] = [*legend.get_texts(), ax.xaxis.label, ax.yaxis.label, ax.title,
                         *ax.get_xticklabels(), *ax.get_yticklabels()]
    fig.draw_without_rendering()
    plot = ax.get_window_extent()
    box = legend.get_window_extent()
    assert box.y1 < plot.y0 and box.y1 < ax.xaxis.label.get_window_extent().y0, (box, plot)
    dpi = fig.dpi
    width, _ = _is_png(save(fig, tmp_path / "chart.png"))
    shown = min(1.0, DOCS_COLUMN_PX / width)  # the PNG's pixels per CSS pixel once in the column
    on_screen = {t.get_text(): t.get_fontproperties().get_size_in_points() * dpi / 72 * shown for t in texts}
    small = {text: round(px, 1) for text, px in on_screen.items() if text and px < READABLE_PX}
    assert not small, f"text under {READABLE_PX} px in a {DOCS_COLUMN_PX} px column ({width} px PNG): {small}"


def test_charts_redraw_from_a_reports_scale_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``python -m bench.scale_charts FOLDER`` reads back what ``scale.write`` wrote, measures
    nothing, and writes both charts; a folder without scale.json is a usage error."""
    counts = (1000, 10_000)
    figures = {"kgen-full": {c: Figure(c / 4000, 23 * KIB) for c in counts},
               "client-go": {c: Figure(c / 8000, 25 * KIB) for c in counts},
               "wire-json": {c: Figure(c / 5000, None) for c in counts}}
    result = ScaleResult(counts, 3, figures, {"lightkube": "not installed"})
    scale.write(result, tmp_path, "machine: test")
    loaded = load_result(tmp_path / "scale.json")
    assert (loaded.counts, loaded.repeats, loaded.figures, loaded.missing) == (
        counts, 3, figures, {"lightkube": "not installed"})
    for name in (SYNC_CHART, MEMORY_CHART):
        (tmp_path / name).unlink()
    assert main([str(tmp_path)]) == 0
    assert capsys.readouterr().out.split() == [str(tmp_path / SYNC_CHART), str(tmp_path / MEMORY_CHART)]
    for name in (SYNC_CHART, MEMORY_CHART):
        width, height = _is_png(tmp_path / name)
        assert width > 100 and height > 100
    assert main([str(tmp_path / "nothing-here")]) == 2
    assert "scale.json: no such file" in capsys.readouterr().err
