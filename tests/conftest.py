"""Shared fixtures. ``kube_apiserver`` comes from kgen's pytest plugin (kgen.runtime.testing).

The compatibility suite (marker ``compat``) is defined here: the tests that must pass on every
supported Kubernetes release, run on the one ``$KGEN_ENVTEST_KUBERNETES_VERSION`` names (the
session's ``kube_apiserver`` and ``kube_cluster`` are of that release). ``make test`` runs it on
1.37 with everything else and again on 1.34; ``make test-matrix`` on each supported release.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest

from kgen.runtime.rest.client import RESTClient
from kgen.runtime.testing import KubeAPIServer
from tests.support.apiserver import unthrottled_config
from tests.support.flavours import FLAVOURS, Flavour, flavour_of


# The compatibility suite: whole folders, and modules of tests/integration with the tests of them
# left out (each for a reason: it is no compatibility check, or it is long and proves nothing
# version-specific).
COMPATIBILITY_FOLDERS = ("tests/compat/", "tests/cluster/")
# ... but the workflow pages: docs, whose every call the workflows' own tests check on each release.
COMPATIBILITY_FOLDERS_LEFT_OUT = frozenset({"tests/cluster/test_workflow_pages.py"})
COMPATIBILITY_SUITE: dict[str, frozenset[str]] = {
    # `kgen generate --cluster`: tests/compat/test_generate_kubernetes_version.py (its own release).
    # Typed CRUD, the three patch types, server-side apply (and its oracle), unknown fields.
    "tests/integration/test_rest_verbs.py": frozenset(),
    "tests/integration/test_apiserver_basics.py": frozenset(),
    "tests/integration/test_ssa_oracle_vs_server.py": frozenset(),
    "tests/integration/test_unknown_fields.py": frozenset(),
    # Watch with default options, bookmarks, watch-list and its fallback.
    "tests/integration/test_watch.py": frozenset(),
    "tests/integration/test_watch_list.py": frozenset(),
    # Informers, the metadata informer, leader election.
    "tests/integration/test_informer.py": frozenset(),
    "tests/integration/test_metadata_informer.py": frozenset(),
    # (two minutes of random faults through proxies: the elector's logic, not the server's)
    "tests/integration/test_leaderelection.py": frozenset({"test_three_candidates_through_faulty_proxies_never_lead_at_once"}),
    # CRD validation with CEL rules against the release's dry-run.
    "tests/integration/test_validation_vs_apiserver.py": frozenset(),
    # The CronJob example on the manager; the fake against the real server (fixed seeds).
    "tests/integration/test_example_cronjob.py": frozenset(),
    "tests/integration/test_fake_vs_server.py": frozenset(),
    # Issue 35's fidelity: the fake's metadata validation, write semantics and defaulting; CRD
    # validation's residue, multi-version CRDs, Go regexps and six projects' CRDs; built-in kinds'
    # Go validation; the conversion stanza and webhook configurations `kgen manifests` writes.
    "tests/integration/test_fake_vs_server_meta.py": frozenset(),
    "tests/integration/test_fake_vs_server_writes.py": frozenset(),
    "tests/integration/test_fake_vs_server_defaults.py": frozenset(),
    "tests/integration/test_fake_vs_server_fieldmanager.py": frozenset(),
    "tests/integration/test_fake_vs_server_releases.py": frozenset(),
    "tests/integration/test_fake_vs_server_multiversion.py": frozenset(),
    "tests/integration/test_validation_residue.py": frozenset(),
    "tests/integration/test_validation_multiversion.py": frozenset(),
    "tests/integration/test_regexp_oracle.py": frozenset(),
    "tests/integration/test_validation_projects.py": frozenset(),
    "tests/integration/test_builtin_validation_vs_apiserver.py": frozenset(),
    "tests/integration/test_builtin_validation_services_vs_apiserver.py": frozenset(),
    "tests/integration/test_manifests_conversion_webhook.py": frozenset(),
}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """pytest hook: marks the compatibility suite ``compat`` (``-m compat`` selects it)."""
    for item in items:
        path = item.nodeid.split("::", 1)[0]
        left_out = COMPATIBILITY_SUITE.get(path)
        name = getattr(item, "originalname", item.name)
        in_folder = path.startswith(COMPATIBILITY_FOLDERS) and path not in COMPATIBILITY_FOLDERS_LEFT_OUT
        if in_folder or (left_out is not None and name not in left_out):
            item.add_marker(pytest.mark.compat)


@pytest.fixture(scope="session")
def admin(kube_apiserver: KubeAPIServer) -> Iterator[httpx.Client]:
    """Plain httpx, authenticated as the admin identity."""
    with kube_apiserver.admin_client(timeout=30.0) as client:
        yield client


@pytest.fixture
def namespace(admin: httpx.Client) -> Iterator[str]:
    """A fresh namespace per test (no namespace controller runs, so it is never finalized)."""
    name = f"t-{uuid.uuid4().hex[:10]}"
    admin.post("/api/v1/namespaces", json={"metadata": {"name": name}}).raise_for_status()
    yield name
    admin.delete(f"/api/v1/namespaces/{name}")


@pytest.fixture(scope="session")
def rest(kube_apiserver: KubeAPIServer) -> Iterator[RESTClient]:
    """kgen's REST client as the admin identity, unthrottled."""
    with RESTClient(unthrottled_config(kube_apiserver)) as client:
        yield client


# -- one test, both flavours (tests/support/flavours.py) -----------------------------------------

#: The modules whose every test must run on threads and on asyncio alike.
FLAVOURED_MODULES = (
    "test_reflector.py", "test_reflector_watch_list.py", "test_delta_fifo.py", "test_shared_informer_unit.py",
)


@pytest.fixture(params=FLAVOURS)
def flavour(request: pytest.FixtureRequest) -> Iterator[Flavour]:
    """The thread or the asyncio flavour of a cache component (see tests/support/flavours.py)."""
    with flavour_of(request.param) as f:
        yield f


#: What tests measured (counts, figures), printed at the end of the run: "figures" below.
_FIGURES: list[tuple[str, str]] = []
Figure = Callable[[str], None]


@pytest.fixture
def figure(request: pytest.FixtureRequest) -> Figure:
    """``figure(line)``: a measured figure (handovers, mismatches, counts) that the run prints in
    its "figures" section, so what a test measured shows in every run's log, not only with -s."""

    def record(line: str) -> None:
        _FIGURES.append((request.node.nodeid, line.strip()))

    return record


def _flavour_of_report(report: pytest.TestReport) -> str | None:
    for name in FLAVOURS:
        if f"[{name}]" in report.nodeid or f"[{name}-" in report.nodeid or f"-{name}]" in report.nodeid \
                or f"-{name}-" in report.nodeid:
            return name
    return None


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Prints, per flavoured module, how many tests passed on each flavour (they must be equal)."""
    counts: dict[str, dict[str, int]] = {}
    for report in terminalreporter.stats.get("passed", []):
        module = report.nodeid.split("::")[0].rsplit("/", 1)[-1]
        if module in FLAVOURED_MODULES and report.when == "call":
            flavour_name = _flavour_of_report(report) or "unflavoured"
            counts.setdefault(module, {}).setdefault(flavour_name, 0)
            counts[module][flavour_name] += 1
    if _FIGURES:
        terminalreporter.section("figures")
        for nodeid, line in _FIGURES:
            terminalreporter.write_line(f"{nodeid}: {line}")
    if counts:
        terminalreporter.section("tests per flavour")
        for module, by in sorted(counts.items()):
            line = ", ".join(f"{name} {by.get(name, 0)}" for name in (*FLAVOURS, "unflavoured") if name in by or name in FLAVOURS)
            terminalreporter.write_line(f"{module}: {line}")
