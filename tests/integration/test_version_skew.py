"""Version skew on the real apiserver: a package generated for a group-version the server does not
serve raises ``VersionSkewError`` naming the group-version, the package's Kubernetes version and
the server's (not the mux's bare ``404 page not found``), sync and async; a served group-version
costs no discovery request, a missing object included. The first call through a REST client
reads ``/version`` once, and a package two minor versions from the server is warned about once
(a ``UserWarning``), one within the window not at all. Server ``Warning`` headers about fields
the server does not know reach the log."""

from __future__ import annotations

import asyncio
import importlib
import logging
import sys
import uuid
import warnings
from collections.abc import Callable, Iterator
from types import ModuleType
from typing import Any

import pytest

from kgen.kubernetes import Clientset as KubernetesClientset
from kgen.kubernetes.models.core.v1 import ConfigMap
from kgen.runtime.apimachinery import NotFound, VersionSkewError
from kgen.runtime.gentype import skew
from kgen.runtime.rest import AsyncRESTClient, InMemoryRESTMetrics, RESTClient
from kgen.runtime.testing import KubeAPIServer
from tests.support.apiserver import unthrottled_config
from tests.support.packages import generate

#: A CRD whose group the test server never has installed.
CRD = """\
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.skew.kgen.dev
spec:
  group: skew.kgen.dev
  names: {kind: Widget, listKind: WidgetList, plural: widgets, singular: widget}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec: {type: object, properties: {size: {type: integer}}}
"""


@pytest.fixture(scope="module")
def skewclient(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    out = tmp_path_factory.mktemp("skew")
    (out / "crd.yaml").write_text(CRD)
    generate(out, "skewclient", "--crd", str(out / "crd.yaml"))
    sys.path.insert(0, str(out))
    try:
        yield importlib.import_module("skewclient")
    finally:
        sys.path.remove(str(out))


def _requests(metrics: InMemoryRESTMetrics) -> list[tuple[str, str]]:
    """(status code, URL template) of each request the REST client made, in order."""
    templates = [url.split("://", 1)[1].split("/", 1)[1] for _, url, _ in metrics.request_latency.observations]
    return [(code, path) for (code, _, _), path in zip(metrics.request_result.events, templates, strict=True)]


def _expected(kube_apiserver: KubeAPIServer, package: ModuleType) -> str:
    server = kube_apiserver.version.removeprefix("v")
    return (f"skew.kgen.dev/v1 is not served by this server (Kubernetes {server}); the client was generated from "
            f"Kubernetes {package.KUBERNETES_VERSION}. Generate the package for the server's version, or use a "
            "group-version it serves (kubectl api-versions lists them)")


def test_an_unserved_group_version_raises_the_skew_error(kube_apiserver: KubeAPIServer, skewclient: ModuleType) -> None:
    config = unthrottled_config(kube_apiserver)
    metrics = InMemoryRESTMetrics()
    assert skewclient.KUBERNETES_VERSION == "1.37.2"  # the embedded snapshot the CRD package stands on
    with skewclient.Clientset(config, rest=RESTClient(config, metrics=metrics.metrics())) as cs:
        widgets = cs.skew_kgen_dev_v1.widgets("default")
        with pytest.raises(VersionSkewError) as e:
            widgets.list()
        assert isinstance(e.value, NotFound)
        assert str(e.value) == "GET /apis/skew.kgen.dev/v1/namespaces/default/widgets: 404 NotFound: " + _expected(
            kube_apiserver, skewclient)
        assert (e.value.group_version, e.value.resource) == ("skew.kgen.dev/v1", "widgets")
        with pytest.raises(VersionSkewError):
            widgets.get("w")
    # /version was asked once, before the first call; discovery once, after its 404; the second
    # call only failed.
    assert _requests(metrics) == [
        ("200", "version"), ("404", "apis/skew.kgen.dev/v1/namespaces/{namespace}/widgets"),
        ("404", "apis/skew.kgen.dev/v1"), ("404", "apis/skew.kgen.dev/v1/namespaces/{namespace}/widgets/{name}"),
    ]


def test_an_unserved_group_version_raises_the_skew_error_on_asyncio(
    kube_apiserver: KubeAPIServer, skewclient: ModuleType,
) -> None:
    config = unthrottled_config(kube_apiserver)

    async def main() -> VersionSkewError:
        async with skewclient.AsyncClientset(config, rest=AsyncRESTClient(config)) as cs:
            with pytest.raises(VersionSkewError) as e:
                await cs.skew_kgen_dev_v1.widgets("default").get("w")
            return e.value

    error = asyncio.run(main())
    assert error.message == _expected(kube_apiserver, skewclient)
    assert error.request == "GET /apis/skew.kgen.dev/v1/namespaces/default/widgets/w"


def test_a_served_group_version_costs_no_discovery_request(kube_apiserver: KubeAPIServer, namespace: str) -> None:
    config = unthrottled_config(kube_apiserver)
    metrics = InMemoryRESTMetrics()
    with KubernetesClientset(config, rest=RESTClient(config, metrics=metrics.metrics())) as cs:
        cms = cs.core_v1.config_maps(namespace)
        cms.list()
        with pytest.raises(NotFound) as e:  # a missing object: a Status, so no discovery
            cms.get("missing")
        assert not isinstance(e.value, VersionSkewError)
    assert _requests(metrics) == [  # the first call's /version (once per REST client), then only the calls
        ("200", "version"), ("200", "api/v1/namespaces/{namespace}/configmaps"),
        ("404", "api/v1/namespaces/{namespace}/configmaps/{name}"),
    ]


@pytest.fixture(scope="module")
def core_package(kube_apiserver: KubeAPIServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Callable[[int], ModuleType]]:
    """The core group's package generated from the embedded release ``offset`` minor versions from
    the test apiserver's (``kgen generate --kubernetes``), generated and imported once per offset."""
    major, minor = skew.minor_version(kube_apiserver.version) or (0, 0)
    out = tmp_path_factory.mktemp("skew-releases")
    made: dict[int, ModuleType] = {}

    def package(offset: int) -> ModuleType:
        if offset not in made:
            name = f"skew_core_{minor + offset}"
            generate(out, name, "--kubernetes", f"{major}.{minor + offset}", "--groups", "v1")
            made[offset] = importlib.import_module(name)
        return made[offset]

    sys.path.insert(0, str(out))
    try:
        yield package
    finally:
        sys.path.remove(str(out))


def _calls(cs: Any, package: ModuleType, namespace: str) -> list[Callable[[], Any]]:
    """Calls of two resource types on one clientset, sync or async alike (each returns a value or
    an awaitable): a ConfigMap's create and get, a Secret list, and last a missing Secret's get
    (``NotFound``)."""
    ConfigMap = importlib.import_module(f"{package.__name__}.models.core.v1").ConfigMap  # noqa: N806
    name = f"skew-{uuid.uuid4().hex[:8]}"
    configmaps, secrets = cs.core_v1.config_maps(namespace), cs.core_v1.secrets(namespace)
    return [
        lambda: configmaps.create(ConfigMap.from_dict({"metadata": {"name": name}, "data": {"a": "b"}})),
        lambda: configmaps.get(name), lambda: secrets.list(), lambda: secrets.get("missing"),
    ]


def _call_all(cs: Any, package: ModuleType, namespace: str) -> None:
    *calls, missing = _calls(cs, package, namespace)
    for call in calls:
        call()
    with pytest.raises(NotFound):
        missing()


async def _await_all(cs: Any, package: ModuleType, namespace: str) -> None:
    *calls, missing = _calls(cs, package, namespace)
    for call in calls:
        await call()
    with pytest.raises(NotFound):
        await missing()


def _skew_warnings(caught: list[warnings.WarningMessage]) -> list[str]:
    return [str(w.message) for w in caught if issubclass(w.category, UserWarning)]


@pytest.mark.parametrize("flavour", ["sync", "asyncio"])
def test_a_server_two_minor_versions_away_is_warned_about_once(
    kube_apiserver: KubeAPIServer, namespace: str, core_package: Callable[[int], ModuleType], flavour: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    package = core_package(-2)
    server = kube_apiserver.version.removeprefix("v")
    monkeypatch.setattr(skew, "_warned", set())  # once per process: this pair is not warned about yet
    config = unthrottled_config(kube_apiserver)
    metrics = InMemoryRESTMetrics()

    async def on_asyncio() -> None:
        async with package.AsyncClientset(config, rest=AsyncRESTClient(config, metrics=metrics.metrics())) as cs:
            await _await_all(cs, package, namespace)

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        if flavour == "sync":
            with package.Clientset(config, rest=RESTClient(config, metrics=metrics.metrics())) as cs:
                _call_all(cs, package, namespace)
        else:
            asyncio.run(on_asyncio())
    [message] = _skew_warnings(caught)
    assert f"the server runs Kubernetes {server}, outside the ±1 minor version window" in message
    assert f"generated from Kubernetes {package.KUBERNETES_VERSION}" in message
    requests = _requests(metrics)
    assert [path for _, path in requests].count("version") == 1
    assert requests[0] == ("200", "version") and len(requests) == 5  # then the four calls: no discovery


@pytest.mark.parametrize("offset", [0, -1], ids=["same-release", "one-minor-older"])
def test_a_server_within_the_window_is_not_warned_about(
    kube_apiserver: KubeAPIServer, namespace: str, core_package: Callable[[int], ModuleType], offset: int,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    package = core_package(offset)
    monkeypatch.setattr(skew, "_warned", set())
    config = unthrottled_config(kube_apiserver)
    metrics = InMemoryRESTMetrics()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with package.Clientset(config, rest=RESTClient(config, metrics=metrics.metrics())) as cs:
            _call_all(cs, package, namespace)
    assert _skew_warnings(caught) == []
    assert [path for _, path in _requests(metrics)].count("version") == 1  # read, and found within


def test_a_field_the_server_does_not_know_is_logged_as_its_warning(
    kube_apiserver: KubeAPIServer, namespace: str, caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.WARNING, "kgen.runtime.rest.client")
    config = unthrottled_config(kube_apiserver)
    with KubernetesClientset(config) as cs:
        cm = ConfigMap.from_dict({"metadata": {"name": "unknown-field"}, "data": {"a": "b"}, "futureField": 1})
        cs.core_v1.config_maps(namespace).create(cm, field_validation="Warn")
    assert [r.getMessage() for r in caplog.records if r.name == "kgen.runtime.rest.client"] == [
        'server warning: unknown field "futureField"'
    ]
