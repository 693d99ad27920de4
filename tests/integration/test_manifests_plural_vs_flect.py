"""A kind's plural (the CRD's resource name) against flect, which controller-gen uses (issue 35:
``kgen manifests`` equals controller-gen).

The oracle is github.com/gobuffalo/flect at the version controller-tools v0.23.0 requires, run by
hack/controller-gen/flect on every word of a corpus: every kind of the Kubernetes API (the
generated package's models), flect's own dictionary words (singular, plural, alternative,
capitalized or not, alone and at the end of a CamelCase name), a word ending in each of its
suffix rules, its acronyms alone and inside names, and kinds seen in operators. The count of
differences is printed and must be 0.
"""

from __future__ import annotations

import importlib
import os
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

import kgen.kubernetes.models as stock
from kgen.generator.manifests.plural import plural_of
from kgen.generator.manifests.flect_tables import ACRONYMS, DICTIONARY, SUFFIXES

HACK = Path(__file__).resolve().parents[2] / "hack" / "controller-gen"
SEEN_IN_OPERATORS = [
    "Gizmo", "Gear", "Widget", "CronJob", "Memcached", "Redis", "Kafka", "KafkaTopic", "Certificate", "Issuer",
    "ClusterIssuer", "Prometheus", "Alertmanager", "ServiceMonitor", "PodMonitor", "Probe", "ThanosRuler", "Rollout",
    "Analysis", "AnalysisRun", "Experiment", "Application", "AppProject", "VirtualService", "DestinationRule",
    "Gateway", "HTTPRoute", "GRPCRoute", "TLSRoute", "ReferenceGrant", "BackendTLSPolicy", "Policy", "Status",
    "Index", "Matrix", "Vertex", "Person", "Child", "Bus", "Box", "Quiz", "Hero", "Potato", "Photo", "Video",
    "Radio", "Cactus", "Octopus", "Datum", "Medium", "Criterion", "Thesis", "Leaf", "Knife", "Life", "Wolf",
    "Proxy", "Key", "Day", "Toy", "Guy", "Buy", "Money", "Info", "News", "Series", "Species", "Sheep",
    "OAuthClient", "DNSRecord", "IPPool", "URLMap", "APIService", "Schema", "Ox", "Axe", "Move", "Shoe", "Toe",
]


def corpus() -> list[str]:
    words: set[str] = set(SEEN_IN_OPERATORS)
    for info in pkgutil.walk_packages(stock.__path__, stock.__name__ + "."):
        module = importlib.import_module(info.name)
        words.update(k for obj in vars(module).values() if isinstance(k := getattr(obj, "KIND", None), str) and k)
    for singular, plural, alternative, *_ in DICTIONARY:
        for word in filter(None, (singular, plural, alternative)):
            words.update({word, word.capitalize(), "My" + word.capitalize(), word.upper()})
    for singular, plural in SUFFIXES:
        words.update({"Thing" + singular, "thing" + singular, "Thing" + plural, "Big" + singular.capitalize()})
    for acronym in ACRONYMS:
        words.update({acronym, "My" + acronym, acronym + "Policy", acronym.capitalize()})
    return sorted(w for w in words if "\n" not in w)


@pytest.fixture(scope="module")
def flect_plurals() -> dict[str, str]:
    words = corpus()
    env = {**os.environ, "GOFLAGS": "-mod=mod", "GOTOOLCHAIN": "local"}
    done = subprocess.run(["go", "run", "./flect"], cwd=HACK, input="\n".join(words) + "\n", capture_output=True,
                          text=True, check=True, env=env)
    answers = done.stdout.splitlines()
    assert len(answers) == len(words)
    return dict(zip(words, answers, strict=True))


def test_plural_of_equals_flect_on_the_corpus(flect_plurals: dict[str, str]) -> None:
    found = [f"{w}: flect {p!r}, kgen {plural_of(w)!r}" for w, p in flect_plurals.items() if plural_of(w) != p]
    for line in found:
        print(line)
    print(f"plural_of vs flect v1.0.3: {len(found)} differences in {len(flect_plurals)} words")
    assert len(flect_plurals) > 1500
    assert found == []


def test_flect_tables_are_what_the_script_extracts_now(tmp_path: Path) -> None:
    out = tmp_path / "flect_tables.py"
    subprocess.run([sys.executable, str(HACK / "flect_tables.py"), str(out)], check=True, capture_output=True)
    assert out.read_text(encoding="utf-8") == (HACK.parents[1] / "generator" / "manifests" / "flect_tables.py").read_text(encoding="utf-8")
