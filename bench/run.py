"""``make bench``: kgen against lightkube and the official client, measured in one run.

Prints the tables on stdout (progress goes to stderr) and exits 0 whatever the figures: it is
a report. It exits 1 only when a client failed the correctness checks (or a measurement
crashed), because then its figures would not mean anything.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import tempfile
import time
from collections.abc import Sequence
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from . import codec_table, imports, informer_sync, rest, scale, scale_report
from .env import subprocess_env
from .generation import (DMCG_FORMATTERS, DMCG_MODEL_TYPE, DmcgGeneration, KgenGeneration, time_dmcg,
                         time_kgen)
from .peers import SPOT_INDEX
from .pods import pod_list_json
from .report import Row, Table, seconds, times


def _progress(message: str) -> None:
    print(f"bench: {message}", file=sys.stderr, flush=True)


def import_table(result: imports.ImportTimes) -> Table:
    t = result.seconds
    models = t[imports.KGEN_MODELS] / t[imports.LIGHTKUBE_MODELS]
    client = t[result.kgen_client] / t[imports.LIGHTKUBE_CLIENT]
    client_label = ("client entry point: Clientset" if result.kgen_client == imports.KGEN_CLIENTSET
                    else "client entry point (Clientset not yet generated: package import)")
    rows = [
        Row("import core/v1 models", (seconds(t[imports.KGEN_MODELS]), seconds(t[imports.LIGHTKUBE_MODELS])),
            times(models), "≤ 0.5× lightkube", models <= 0.5),
        Row(client_label, (seconds(t[result.kgen_client]), seconds(t[imports.LIGHTKUBE_CLIENT])),
            times(client), "≤ 1.0× lightkube", client <= 1.0),
        Row("interpreter start-up alone (included above)",
            (seconds(t[imports.NOTHING]), seconds(t[imports.NOTHING])), "", "", None),
    ]
    return Table("Import, fresh interpreter (median wall time of `python -c ...`)", ("kgen", "lightkube"), rows)


def generation_table(kgen: KgenGeneration, dmcg: DmcgGeneration | None) -> Table:
    rows: list[Row] = []
    if dmcg is not None:
        label = f"{dmcg.documents - len(dmcg.failed)}/{dmcg.documents} documents"
        rows += [
            # datamodel-codegen is one process per document, run one after the other as its CLI
            # runs: that is the goal's comparison. Given both cores as well (kgen formats on
            # both), it is reported as information.
            Row(f"generate, cold cache, vs dmcg run document by document ({label})",
                (seconds(kgen.cold), seconds(dmcg.serial)), times(dmcg.serial / kgen.cold), "≥ 5× faster",
                dmcg.serial / kgen.cold >= 5.0),
            Row(f"generate, cold cache, vs dmcg {dmcg.workers} documents at a time ({label})",
                (seconds(kgen.cold), seconds(dmcg.wall)), times(dmcg.wall / kgen.cold), "(info)", None),
        ]
    else:
        rows.append(Row("generate, cold cache", (seconds(kgen.cold), "skipped"), "", "", None))
    rows.append(Row("regenerate, nothing changed", (seconds(kgen.warm), ""), "", "< 2 s", kgen.warm < 2.0))
    return Table("Generation of the whole stock API from the snapshot, formatting included "
                 "(ratio = datamodel-codegen / kgen)", ("kgen", "datamodel-codegen"), rows)


def _versions() -> str:
    names = ["kgen", "msgspec", "black", "lightkube", "lightkube-models", "kubernetes", "pydantic",
             "datamodel-code-generator"]
    return ", ".join(f"{n} {_version(n)}" for n in names)


def _version(name: str) -> str:
    try:
        return version(name)
    except PackageNotFoundError:
        return "not installed"


#: The tables ``--only`` can pick, in the order they are printed.
TABLES = ("codec", "imports", "generation", "rest", "informer", "scale", "operator", "validation", "portforward")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--pods", type=int, default=5000, help="pods in the PodList (default: 5000)")
    parser.add_argument("--seed", type=int, default=20240301, help="fixture seed")
    parser.add_argument("--repeats", type=int, default=9, help="decode runs per figure, kgen and lightkube")
    parser.add_argument("--encode-repeats", type=int, default=27, help="encode runs per figure, kgen and lightkube")
    parser.add_argument("--rounds", type=int, default=5,
                        help="interleaved rounds (one interpreter per client each) the runs are spread over")
    parser.add_argument("--official-repeats", type=int, default=3, help="decode and encode runs, official")
    parser.add_argument("--only", choices=TABLES, action="append",
                        help="measure only this table (repeatable); default: all of them")
    parser.add_argument("--import-repeats", type=int, default=11, help="fresh interpreters per import figure")
    parser.add_argument("--generate-repeats", type=int, default=3, help="kgen generate runs, cold and warm each")
    parser.add_argument("--skip-dmcg", action="store_true", help="do not run datamodel-codegen")
    parser.add_argument("--rest-requests", type=int, default=500, help="GETs per client in the REST throughput table")
    parser.add_argument("--informer-objects", type=int, default=10_000,
                        help="ConfigMaps, and as many Pods, in the informer initial-sync table (default: 10000)")
    parser.add_argument("--informer-repeats", type=int, default=3, help="runs per client and mode, informer sync")
    parser.add_argument("--scale-counts", type=_counts, default=(1000, 10_000),
                        help="Pods per scale run, comma-separated (default: 1000,10000; add 100000 for the full curve)")
    parser.add_argument("--scale-repeats", type=int, default=3, help="fresh processes per client and count, scale")
    parser.add_argument("--scale-out", type=Path, default=Path("build") / "bench",
                        help="folder for the scale charts and report (default: build/bench)")
    parser.add_argument("--operator-objects", type=int, default=1000,
                        help="Widgets in the operator table, kgen Manager vs controller-runtime and kopf (default: 1000)")
    parser.add_argument("--operator-rounds", type=int, default=3,
                        help="churn passes over all Widgets, one spec update each (default: 3)")
    parser.add_argument("--operator-workers", type=int, default=4,
                        help="kgen max_concurrent_reconciles, controller-runtime's, kopf's handler threads (default: 4)")
    parser.add_argument("--validation-objects", type=int, default=300,
                        help="built-in objects in the validation table, kgen vs kubernetes-validate (default: 300)")
    parser.add_argument("--validation-repeats", type=int, default=5,
                        help="timed passes over them, kgen (default: 5); kubernetes-validate: --validation-peer-repeats")
    parser.add_argument("--validation-peer-repeats", type=int, default=3,
                        help="timed passes over them, kubernetes-validate's validate() (default: 3)")
    parser.add_argument("--pf-megabytes", type=int, default=50,
                        help="MB echoed through one connection, port-forward throughput (default: 50)")
    parser.add_argument("--pf-connections", type=int, default=200,
                        help="sequential connections, port-forward latency (default: 200)")
    parser.add_argument("--pf-rounds", type=int, default=3, help="alternated rounds, kgen then kubectl (default: 3)")
    return parser


def _counts(text: str) -> tuple[int, ...]:
    try:
        return scale.parse_counts(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if args.pods <= SPOT_INDEX:
        parser.error(f"--pods must be more than {SPOT_INDEX}: the spot checks read pod {SPOT_INDEX}")
    chosen = set(args.only or TABLES)
    started = time.perf_counter()
    load_before = os.getloadavg()[0]
    data = b""  # the codec table's fixture, built only for it
    if "codec" in chosen:
        _progress(f"building the PodList fixture ({args.pods} pods, seed {args.seed})")
        data = pod_list_json(args.pods, args.seed)
    tables: list[Table] = []
    notes: list[str] = []
    with subprocess_env() as env, tempfile.TemporaryDirectory(prefix="kgen-bench-") as tmp:
        fixture = Path(tmp) / "podlist.json"
        fixture.write_bytes(data)
        if "codec" in chosen:
            try:
                codecs = codec_table.measure(fixture, args.rounds, (args.repeats, args.encode_repeats),
                                             args.official_repeats, env, _progress)
            except RuntimeError as e:
                print(f"bench: {e}", file=sys.stderr)
                return 1
            tables.append(codec_table.table(codecs))
            notes += [
                "- decode paths: kgen PodList.from_json; lightkube decoders.decode_list (Client.list's path); "
                "official ApiClient.response_deserialize (list_pod_for_all_namespaces's path)",
                "- encode paths: kgen to_json; lightkube generic_client.json_encode (msgspec.json.encode) of its "
                "PodList model; official sanitize_for_serialization + json.dumps",
                "- each client ran in its own interpreters; each decoded all pods and the spot-checked fields",
                *codec_table.notes(codecs),
            ]
        if "imports" in chosen:
            _progress(f"import times, {args.import_repeats} fresh interpreters each")
            tables.append(import_table(imports.measure_imports(args.import_repeats, env)))
            notes.append("- imports and generation ran from bytecode for every tool (a private PYTHONPYCACHEPREFIX, "
                         "warmed by an untimed run)")
        if "generation" in chosen:
            _progress(f"kgen generate, {args.generate_repeats} cold and {args.generate_repeats} warm runs")
            kgen_generation = time_kgen(args.generate_repeats, env)
            dmcg: DmcgGeneration | None = None
            if not args.skip_dmcg:
                workers = os.cpu_count() or 1
                _progress(f"datamodel-codegen on every OpenAPI v3 document, {workers} at a time")
                dmcg = time_dmcg(workers, env)
            tables.append(generation_table(kgen_generation, dmcg))
            notes += _generation_notes(kgen_generation, dmcg)

    if "rest" in chosen:
        _progress(f"REST throughput: {args.rest_requests} GETs per client against a real apiserver")
        tables.append(rest.table(rest.measure(args.rest_requests), args.rest_requests))
    if "informer" in chosen:
        _progress(f"informer initial sync of {args.informer_objects} ConfigMaps and as many Pods, kgen and client-go")
        sync_times = informer_sync.measure(args.informer_objects, args.informer_repeats, args.seed, _progress)
        tables.append(informer_sync.table(sync_times))
        notes += informer_sync.notes(sync_times)
    if "scale" in chosen:
        counts = ", ".join(f"{c:,}" for c in args.scale_counts)
        _progress(f"scale: {counts} Pods; kgen full and metadata-only, client-go, official, lightkube")
        scaled = scale.measure(args.scale_counts, args.scale_repeats, args.seed, _progress)
        tables += [scale_report.ratio_table(scaled), scale_report.figures_table(scaled, "sync"),
                   scale_report.figures_table(scaled, "memory")]
        notes += scale_report.notes(scaled)
    if "operator" in chosen:
        from . import operator_bench, operator_report

        _progress(f"operator: {args.operator_objects:,} Widgets, kgen Manager, controller-runtime, kopf, kopf tuned")
        operator_runs = operator_bench.measure(args.operator_objects, args.operator_rounds, args.seed,
                                               args.operator_workers, _progress)
        tables += operator_report.tables(operator_runs)
        notes += operator_bench.notes(args.operator_workers, operator_runs)
    if "validation" in chosen:
        from . import validation

        _progress(f"validation: {args.validation_objects:,} built-in objects, kgen then kubernetes-validate")
        validated = validation.measure(args.validation_objects, args.seed, args.validation_repeats,
                                       args.validation_peer_repeats, _progress)
        tables.append(validation.table(validated))
        notes += validation.notes(validated)
        from . import validation_crd  # issue 35: kgen validate --crd vs the apiserver's dry-run, same objects

        crd_run = validation_crd.measure(args.validation_objects, min(args.validation_repeats, 3), _progress)
        tables.append(validation_crd.table(crd_run))
        notes += validation_crd.notes(crd_run)
    if "portforward" in chosen:
        from . import portforward

        _progress(f"port-forward: kgen and kubectl, {args.pf_megabytes} MB and {args.pf_connections} connections each")
        pf_kgen, pf_kubectl = portforward.measure(args.pf_megabytes, args.pf_connections, args.pf_rounds, _progress)
        tables.append(portforward.table(pf_kgen, pf_kubectl, args.pf_megabytes, args.pf_connections))
        notes += portforward.notes(args.pf_rounds)
    header = (f"kgen bench — Python {platform.python_version()}, {os.cpu_count()} CPUs, {platform.machine()}; "
              f"1-min load average {load_before:.2f} at start, {os.getloadavg()[0]:.2f} at end")
    if "scale" in chosen:
        written = scale.write(scaled, args.scale_out, header)
        notes.append(f"- scale: charts and report written to {', '.join(str(p) for p in written)}")
    print()
    print(header)
    print(_versions())
    if "codec" in chosen:
        print(f"fixture: PodList of {args.pods} pods, {len(data) / 1e6:.1f} MB of JSON (seed {args.seed}); "
              f"kgen and lightkube: medians of {args.repeats}+ decode and {args.encode_repeats}+ encode runs over "
              f"{args.rounds} interleaved rounds; official: {args.official_repeats} each; GC enabled")
    for table in tables:
        print()
        print(table.render())
    print()
    print("notes:")
    for note in notes:
        print(note)
    if "codec" in chosen:
        print()
        print("issue 11 bars (kgen / lightkube):")
        for line in codec_table.bars(codecs):
            print(line)
    missed = [row.metric for table in tables for row in table.rows if row.met is False]
    print()
    for metric in missed:
        print(f"MISSED: {metric}")
    print(f"{len(missed)} goal(s) missed; bench took {time.perf_counter() - started:.0f} s")
    return 0


def _generation_notes(kgen: KgenGeneration, dmcg: DmcgGeneration | None) -> list[str]:
    notes = [
        "- kgen generate writes models AND typed clients, listers, informers and a fake (all black-formatted, "
        "with docstrings); datamodel-codegen writes models only",
        f"- kgen generate: {kgen.files} files; output identical to the committed "
        f"generated/kubernetes: {'yes' if kgen.matches_committed else 'no'}",
    ]
    if dmcg is not None:
        notes.append(f"- datamodel-codegen {dmcg.version}: --input-file-type openapi --output-model-type "
                     f"{DMCG_MODEL_TYPE} --formatters {' '.join(DMCG_FORMATTERS)}, one process per document, "
                     f"{dmcg.workers} at a time (kgen formats with a process per core)")
        notes += [f"  FAILED on {doc}: {error}" for doc, error in dmcg.failed]
    return notes
