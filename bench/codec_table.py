"""The models table: decode, encode and retained memory per pod of kgen, lightkube and the
official client, each measured by ``bench.codec`` in its own interpreter.

The machine may be small and busy (two cores, tests running beside the bench), so kgen and
lightkube are measured in interleaved rounds (kgen, lightkube, kgen, lightkube, ...), a fresh
interpreter per client and round, and each time figure is the median of every sample of every
round: a burst of load lands on both clients instead of skewing one of them. The official client
decodes about 10× slower than the others and runs one round.

The bars are issue 11's: decode ≤ 0.5× lightkube, encode ≤ 1.0× lightkube, retained memory per
pod ≤ 1.0× lightkube; and decode at least 10× faster than the official client.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from .codec import NOT_INSTALLED, Codec
from .generation import REPO
from .report import Row, Table, kib, seconds, times

DECODE_BAR = 0.5
ENCODE_BAR = 1.0
MEMORY_BAR = 1.0
OFFICIAL_SPEED_UP = 10.0

#: Measured in interleaved rounds; the official client once.
ROUND_PEERS = ("kgen", "lightkube")
PEERS = (*ROUND_PEERS, "official")


@dataclass(frozen=True)
class Figures:
    """One client's figures, pooled over its rounds."""

    version: str
    decode: float
    encode: float
    retained_per_pod: float
    round_trip: str
    dropped_nulls: int
    rounds: int
    decode_runs: int
    encode_runs: int


def run_codec(peer: str, fixture: Path, repeats: tuple[int, int], env: dict[str, str]) -> Codec | None:
    """``bench.codec`` for one client, in its own interpreter; ``None``: not installed."""
    command = [sys.executable, "-m", "bench.codec", peer, str(fixture), *(str(n) for n in repeats)]
    done = subprocess.run(command, cwd=REPO, env=env, stdout=subprocess.PIPE, text=True)
    if done.returncode == NOT_INSTALLED:
        return None
    if done.returncode != 0:
        raise RuntimeError(f"bench.codec {peer} failed (exit status {done.returncode}), see above")
    return Codec(**json.loads(done.stdout))


def pool(runs: list[Codec]) -> Figures:
    decode = [t for run in runs for t in run.decode_samples]
    encode = [t for run in runs for t in run.encode_samples]
    first = runs[0]
    return Figures(
        version=first.version,
        decode=statistics.median(decode),
        encode=statistics.median(encode),
        retained_per_pod=statistics.median(run.retained_per_pod for run in runs),
        round_trip=first.round_trip if all(r.round_trip == first.round_trip for r in runs) else "differs",
        dropped_nulls=first.dropped_nulls,
        rounds=len(runs),
        decode_runs=len(decode),
        encode_runs=len(encode),
    )


def split(total: int, rounds: int) -> int:
    """Runs per round so that ``rounds`` rounds make at least ``total`` runs."""
    return max(1, -(-total // rounds))


def measure(fixture: Path, rounds: int, repeats: tuple[int, int], official_repeats: int,
            env: dict[str, str], progress: Callable[[str], None]) -> dict[str, Figures | None]:
    """Every client's figures (``None``: not installed). ``repeats`` are kgen's and lightkube's
    decode and encode runs in all, spread over ``rounds`` rounds."""
    per_round = (split(repeats[0], rounds), split(repeats[1], rounds))
    runs: dict[str, list[Codec]] = {peer: [] for peer in PEERS}
    missing: set[str] = set()
    for number in range(1, rounds + 1):
        for peer in ROUND_PEERS:
            if peer in missing:
                continue
            progress(f"round {number}/{rounds}, {peer}: decode {per_round[0]} runs, encode {per_round[1]} runs, "
                     "retained memory")
            result = run_codec(peer, fixture, per_round, env)
            if result is None:
                missing.add(peer)
            else:
                runs[peer].append(result)
    progress(f"official: decode {official_repeats} runs, encode {official_repeats} runs, retained memory")
    official = run_codec("official", fixture, (official_repeats, official_repeats), env)
    if official is not None:
        runs["official"].append(official)
    return {peer: pool(done) if done else None for peer, done in runs.items()}


def _ratio(a: Figures | None, b: Figures | None, value: Callable[[Figures], float]) -> float | None:
    return None if a is None or b is None else value(a) / value(b)


def _at_most(ratio: float | None, bar: float) -> bool | None:
    return None if ratio is None else ratio <= bar


_ROUND_TRIP = {"exact": "exact", "nulls": "nulls dropped", "differs": "DIFFERS"}


def table(results: dict[str, Figures | None]) -> Table:
    k, lk, off = (results.get(peer) for peer in PEERS)
    clients = (k, lk, off)

    def cells(show: Callable[[Figures], str]) -> tuple[str, ...]:
        return tuple("not installed" if c is None else show(c) for c in clients)

    decode = _ratio(k, lk, lambda f: f.decode)
    encode = _ratio(k, lk, lambda f: f.encode)
    memory = _ratio(k, lk, lambda f: f.retained_per_pod)
    speed_up = _ratio(off, k, lambda f: f.decode)
    rows = [
        Row("version measured", cells(lambda f: f.version), "", "", None),
        Row("decode bytes → typed PodList", cells(lambda f: seconds(f.decode)), times(decode),
            f"≤ {DECODE_BAR}× lightkube", _at_most(decode, DECODE_BAR)),
        Row("decode: speed-up over official", ("", "", ""), times(speed_up), f"≥ {OFFICIAL_SPEED_UP:.0f}× faster",
            None if speed_up is None else speed_up >= OFFICIAL_SPEED_UP),
        Row("encode typed PodList → bytes", cells(lambda f: seconds(f.encode)), times(encode),
            f"≤ {ENCODE_BAR}× lightkube", _at_most(encode, ENCODE_BAR)),
        Row("retained memory per pod", cells(lambda f: kib(f.retained_per_pod)), times(memory),
            f"≤ {MEMORY_BAR}× lightkube", _at_most(memory, MEMORY_BAR)),
        Row("round trip encode(decode(x)) (info)", cells(lambda f: _ROUND_TRIP[f.round_trip]), "", "", None),
    ]
    return Table("Models: a PodList of realistic pods (ratio = kgen / lightkube unless stated)",
                 ("kgen", "lightkube", "official"), rows)


def bars(results: dict[str, Figures | None]) -> list[str]:
    """Issue 11's three bars, one line each, with the ratio and the verdict."""
    k, lk = results.get("kgen"), results.get("lightkube")
    lines = []
    for name, value, bar in (("decode", lambda f: f.decode, DECODE_BAR), ("encode", lambda f: f.encode, ENCODE_BAR),
                             ("memory per pod", lambda f: f.retained_per_pod, MEMORY_BAR)):
        ratio = _ratio(k, lk, value)
        if ratio is None:
            lines.append(f"  {name}: not measured (kgen or lightkube not installed)")
        else:
            verdict = "PASS" if ratio <= bar else "FAIL"
            lines.append(f"  {name}: {ratio:.3f}× lightkube, bar ≤ {bar}×: {verdict}")
    return lines


def notes(results: dict[str, Figures | None]) -> list[str]:
    lines = []
    for peer, figures in results.items():
        if figures is None:
            lines.append(f"- {peer}: not installed, not measured (make bench installs the peers)")
        else:
            lines.append(f"- {peer} {figures.version}: medians of {figures.decode_runs} decode and "
                         f"{figures.encode_runs} encode runs over {figures.rounds} interpreter(s)")
    dropped = {f.dropped_nulls for f in results.values() if f is not None and f.round_trip == "nulls"}
    if dropped:
        lines.append(f"- round trip 'nulls dropped': equal to the input once its {', '.join(map(str, dropped))} "
                     "explicit nulls (lastProbeTime: null, a field that is not nullable) are left out, as the "
                     "apiserver's Go types read them")
    return lines
