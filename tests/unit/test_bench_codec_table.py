"""The bench's models table: issue 11's bars judged from the figures, missing peers reported, the
round-trip verdict, and ``python -m bench`` exiting 0 whatever the verdicts."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bench import codec, codec_table, peers, run
from bench.codec import round_trip
from bench.codec_table import Figures, bars, table


def _figures(decode: float, encode: float, memory: float, version: str = "1.0") -> Figures:
    return Figures(version=version, decode=decode, encode=encode, retained_per_pod=memory, round_trip="nulls",
                   dropped_nulls=5, rounds=3, decode_runs=9, encode_runs=27)


def _results(k: Figures | None, lk: Figures | None, off: Figures | None = None) -> dict[str, Figures | None]:
    return {"kgen": k, "lightkube": lk, "official": off or _figures(10.0, 5.0, 100_000.0, "37.0.2")}


def _verdicts(results: dict[str, Figures | None]) -> dict[str, bool | None]:
    return {row.metric: row.met for row in table(results).rows}


@pytest.mark.parametrize(("decode", "encode", "memory", "expected"), [
    (0.50, 1.00, 1.00, (True, True, True)),  # at the bars: met
    (0.51, 1.01, 1.01, (False, False, False)),  # just over: missed
    (0.38, 0.97, 0.95, (True, True, True)),
])
def test_the_three_bars_are_issue_11s(decode: float, encode: float, memory: float,
                                      expected: tuple[bool, bool, bool]) -> None:
    lk = _figures(1.0, 0.1, 20_000.0)
    k = _figures(decode * lk.decode, encode * lk.encode, memory * lk.retained_per_pod)
    verdicts = _verdicts(_results(k, lk))
    got = (verdicts["decode bytes → typed PodList"], verdicts["encode typed PodList → bytes"],
           verdicts["retained memory per pod"])
    assert got == expected
    lines = bars(_results(k, lk))
    assert [line.split(": ")[0].strip() for line in lines] == ["decode", "encode", "memory per pod"]
    assert [line.endswith("PASS") for line in lines] == list(expected)


def test_the_table_names_the_versions_measured() -> None:
    rendered = table(_results(_figures(0.4, 0.1, 1.0, "0.1.0"), _figures(1.0, 0.1, 1.0, "1.0.1 (models 1.37.0.8)"))).render()
    version_line = next(line for line in rendered.splitlines() if line.startswith("| version measured"))
    assert "0.1.0" in version_line and "1.0.1 (models 1.37.0.8)" in version_line and "37.0.2" in version_line


def test_a_peer_that_is_not_installed_is_reported_and_its_ratios_are_not_judged() -> None:
    results = _results(_figures(0.4, 0.1, 1.0), None)
    verdicts = _verdicts(results)
    assert verdicts["decode bytes → typed PodList"] is None and verdicts["encode typed PodList → bytes"] is None
    assert "not installed" in table(results).render()
    assert all("not measured" in line for line in bars(results))


def test_round_trip_verdicts() -> None:
    sent = {"items": [{"a": 1, "b": None, "c": [{"d": None, "e": 2}]}]}
    assert round_trip(sent, sent) == ("exact", 0)
    assert round_trip(sent, {"items": [{"a": 1, "c": [{"e": 2}]}]}) == ("nulls", 2)
    assert round_trip(sent, {"items": [{"a": 2, "c": [{"e": 2}]}]}) == ("differs", 0)


def test_bench_codec_exits_4_for_a_peer_that_is_not_installed(monkeypatch: pytest.MonkeyPatch,
                                                               tmp_path: Path) -> None:
    def missing() -> Any:
        raise ModuleNotFoundError("No module named 'kubernetes'")

    monkeypatch.setitem(peers.PEERS, "official", missing)
    assert codec.main(["official", str(tmp_path / "unused.json"), "1", "1"]) == codec.NOT_INSTALLED


def test_bench_exits_0_and_prints_the_bars_when_they_are_missed(monkeypatch: pytest.MonkeyPatch,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    slow = _results(_figures(0.9, 0.2, 30_000.0), _figures(1.0, 0.1, 20_000.0))
    monkeypatch.setattr(codec_table, "measure", lambda *_, **__: slow)
    assert run.main(["--only", "codec", "--pods", "1300"]) == 0
    out = capsys.readouterr().out
    assert "decode: 0.900× lightkube, bar ≤ 0.5×: FAIL" in out
    assert "encode: 2.000× lightkube, bar ≤ 1.0×: FAIL" in out
    assert "memory per pod: 1.500× lightkube, bar ≤ 1.0×: FAIL" in out
    assert "3 goal(s) missed" in out


def test_bench_refuses_a_fixture_too_small_for_the_spot_checks(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        run.main(["--only", "codec", "--pods", "100"])
    assert exit_info.value.code == 2
    assert "--pods must be more than 1234" in capsys.readouterr().err
