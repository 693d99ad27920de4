"""Large real CRD sets: nested schemas shared, names readable, the result independent of input order.

Builds the IR in-process (no formatting, no files) from the CRDs tests/support/corpus.py
fetches; test_crd_packages.py generates, imports and type-checks the same packages.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from kgen.generator import build
from kgen.generator.generate import Options, load_sources
from kgen.generator.ir import Package
from kgen.generator.models import ModelBuilder
from tests.support.corpus import CRD_SOURCES, crd_files

#: Before sharing, prometheus-operator v0.85.0 had 2610 classes, the longest name 137 characters
#: (PrometheusAgentSpecAffinityPodAntiAffinityPreferredDuringSchedulingIgnoredDuringExecution...).
LONGEST_NAME = 60  # Kubernetes' own NodeAffinityPreferredDuringSchedulingIgnoredDuringExecution is 59
#: 268 classes in its group-versions with every embedded object generated (``--no-stock-types``,
#: bench/crd_sets.py); 211 with the stock types typed as kgen.kubernetes' classes (generator/stock.py:
#: Affinity, Toleration, PodSecurityContext, ResourceRequirements, the volume sources...; not
#: Container, from an older Kubernetes than the embedded snapshot's, so one field short).
PROMETHEUS_CLASSES = 240


def _package(files: list[Path]) -> Package:
    return build.build(load_sources(Options(crds=files)), "pkg")


def _crd_classes(package: Package) -> dict[str, list[str]]:
    return {f"{m.group_module}.{m.version_module}": sorted(c.name for c in m.models)
            for m in package.modules if m.group_module != "meta"}


@pytest.mark.parametrize("project", sorted(CRD_SOURCES))
def test_crd_set_classes_are_shared_short_named_and_independent_of_file_order(
    project: str, figure: Callable[[str], None]
) -> None:
    files = crd_files(project)
    package = _package(files)
    classes = _crd_classes(package)
    names = [n for module in classes.values() for n in module]
    longest = max(names, key=len)
    assert len(longest) <= LONGEST_NAME, longest
    if project == "prometheus-operator":
        assert len(names) <= PROMETHEUS_CLASSES, len(names)

    # Reversed input files: the same modules, classes, fields and re-exports.
    reversed_package = _package(list(reversed(files)))
    assert _crd_classes(reversed_package) == classes
    for a, b in zip(package.modules, reversed_package.modules, strict=True):
        assert a.shared == b.shared and a.imports == b.imports
        assert [(c.name, [(f.py_name, f.annotation) for f in c.fields]) for c in a.models] == [
            (c.name, [(f.py_name, f.annotation) for f in c.fields]) for c in b.models
        ]
    shared = sum(len(m.shared) for m in package.modules)
    figure(f"{project}: {len(names)} classes, {shared} re-exported, longest name {len(longest)} ({longest})")


def test_every_identity_is_one_class_on_prometheus_operator(monkeypatch: pytest.MonkeyPatch) -> None:
    """No two classes of the package come from schemas with the same identity."""
    sources = load_sources(Options(crds=crd_files("prometheus-operator")))
    seen: list[ModelBuilder] = []
    original = ModelBuilder.build

    def spy(self: ModelBuilder) -> None:
        seen.append(self)
        original(self)

    monkeypatch.setattr(ModelBuilder, "build", spy)
    package = build.build(sources, "pkg")
    nested = seen[0].nested.by_key.values()
    defined = {(m.group_module, m.version_module, c.name) for m in package.modules for c in m.models}
    owned = [(n.owner[0], n.owner[1], n.name) for n in nested]
    assert len(owned) == len(set(owned)) and set(owned) <= defined
    uses = sum(len(n.uses) for n in nested)
    assert uses > 4 * len(owned), (uses, len(owned))  # each class stands for several places
