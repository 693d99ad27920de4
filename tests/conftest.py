"""Shared fixtures. ``kube_apiserver`` comes from kgen's pytest plugin (kgen.runtime.testing)."""

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
