"""Version skew without a server (kgen.runtime.gentype.skew): a 404 no handler answered becomes a
``VersionSkewError`` after one discovery look-up per REST client, and a server outside the ±1
minor window of the package's Kubernetes version is warned about once, in the log and as a
``UserWarning``, from the ``/version`` the first call through a REST client reads (once, never
failing the call). Both flavours; /version and discovery are a fake's answers."""

from __future__ import annotations

import asyncio
import logging
import warnings
from collections.abc import Callable

import httpx
import pytest

from kgen.kubernetes.fake import AsyncFakeClientset, FakeClientset
from kgen.runtime.apimachinery import NotFound, VersionSkewError
from kgen.runtime.gentype import AsyncResourceClient, DictCodec, ResourceClient, ResourceInfo, skew
from kgen.runtime.gentype.skew import check_skew_window
from kgen.runtime.rest import AsyncRESTClient, Config, RESTClient

CONFIG = Config(host="https://127.0.0.1:6443")


def _server(git_version: str, seen: list[str], served: dict[str, list[str]] | None = None) -> httpx.MockTransport:
    """A server of ``git_version`` serving ``served`` (group-version path -> plurals) and nothing else:
    the mux's plain-text 404 for any other path, a Status 404 for a missing object."""
    served = served or {}

    def answer(request: httpx.Request) -> httpx.Response:
        path = request.url.path
        seen.append(path)
        if path == "/version":
            major, minor = git_version.removeprefix("v").split(".")[:2]
            return httpx.Response(200, json={"gitVersion": git_version, "major": major, "minor": minor})
        if path in served:
            return httpx.Response(200, json={"kind": "APIResourceList", "resources": [{"name": p} for p in served[path]]})
        for gv, plurals in served.items():
            if any(path.startswith(f"{gv}/namespaces/d/{p}") for p in plurals):
                status = {"kind": "Status", "code": 404, "reason": "NotFound", "message": "not found"}
                return httpx.Response(404, json=status)
        return httpx.Response(404, text="404 page not found\n")

    return httpx.MockTransport(answer)


def _widgets(generated_from: str) -> ResourceInfo:
    return ResourceInfo("skew.example", "v1", "widgets", True, "Widget", generated_from)


def test_an_unserved_group_version_names_both_versions_and_is_looked_up_once(caplog: pytest.LogCaptureFixture) -> None:
    seen: list[str] = []
    with RESTClient(CONFIG, transport=_server("v1.37.2", seen)) as rest:
        widgets = ResourceClient(rest, _widgets("1.37.0"), "d", DictCodec())
        with pytest.raises(VersionSkewError) as e:
            widgets.get("w")
        assert isinstance(e.value, NotFound) and e.value.code == 404
        assert (e.value.group_version, e.value.generated_from, e.value.server_version) == ("skew.example/v1", "1.37.0", "1.37.2")
        assert str(e.value) == (
            "GET /apis/skew.example/v1/namespaces/d/widgets/w: 404 NotFound: skew.example/v1 is not served by this "
            "server (Kubernetes 1.37.2); the client was generated from Kubernetes 1.37.0. Generate the package for "
            "the server's version, or use a group-version it serves (kubectl api-versions lists them)"
        )
        with pytest.raises(VersionSkewError):
            widgets.list()
    # /version before the first call, discovery after its 404: each asked once, the 404's error
    # naming the version read before
    assert seen == ["/version", "/apis/skew.example/v1/namespaces/d/widgets/w", "/apis/skew.example/v1",
                    "/apis/skew.example/v1/namespaces/d/widgets"]
    assert "outside" not in caplog.text  # 1.37.0 and 1.37.2: within the window


def test_a_missing_resource_of_a_served_group_version_is_skew_too() -> None:
    seen: list[str] = []
    with RESTClient(CONFIG, transport=_server("v1.37.2", seen, {"/apis/skew.example/v1": ["gadgets"]})) as rest:
        with pytest.raises(VersionSkewError) as e:
            ResourceClient(rest, _widgets("1.37.2"), "d", DictCodec()).list()
    assert e.value.group_version_served and "skew.example/v1 on this server (Kubernetes 1.37.2) does not serve widgets" in str(e.value)


def test_a_missing_object_is_a_plain_not_found_and_asks_nothing_more() -> None:
    seen: list[str] = []
    with RESTClient(CONFIG, transport=_server("v1.37.2", seen, {"/apis/skew.example/v1": ["widgets"]})) as rest:
        with pytest.raises(NotFound) as e:
            ResourceClient(rest, _widgets("1.37.2"), "d", DictCodec()).get("w")
    assert not isinstance(e.value, VersionSkewError)
    assert seen == ["/version", "/apis/skew.example/v1/namespaces/d/widgets/w"]  # the first call's /version, no discovery


def test_async_raises_the_same_error() -> None:
    seen: list[str] = []

    async def main() -> VersionSkewError:
        async with AsyncRESTClient(CONFIG, transport=_server("v1.36.1", seen)) as rest:
            with pytest.raises(VersionSkewError) as e:
                await AsyncResourceClient(rest, _widgets("1.37.2"), "d", DictCodec()).list()
            return e.value

    error = asyncio.run(main())
    assert "skew.example/v1 is not served by this server (Kubernetes 1.36.1)" in str(error)
    assert "generated from Kubernetes 1.37.2" in str(error)
    assert seen == ["/version", "/apis/skew.example/v1/namespaces/d/widgets", "/apis/skew.example/v1"]


def test_a_server_outside_the_window_is_warned_about_once(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, "kgen.runtime.gentype.skew")
    seen: list[str] = []

    async def on_asyncio() -> None:
        async with AsyncRESTClient(CONFIG, transport=_server("v1.33.9", seen)) as rest:
            with pytest.raises(VersionSkewError):
                await AsyncResourceClient(rest, _widgets("1.37.2"), "d", DictCodec()).list()

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with RESTClient(CONFIG, transport=_server("v1.33.9", seen)) as rest, pytest.raises(VersionSkewError):
            ResourceClient(rest, _widgets("1.37.2"), "d", DictCodec()).list()
        asyncio.run(on_asyncio())  # another REST client asks /version again, but is not warned again
    assert seen.count("/version") == 2
    expected = ("the server runs Kubernetes 1.33.9, outside the ±1 minor version window of this client, generated "
                "from Kubernetes 1.37.2: fields and group-versions may differ; generate the package for the "
                "server's version")
    assert [str(w.message) for w in caught if issubclass(w.category, UserWarning)] == [expected]
    assert [r.getMessage() for r in caplog.records if r.name == "kgen.runtime.gentype.skew"] == [expected]


def _serving(version: Callable[[], httpx.Response], seen: list[str]) -> httpx.MockTransport:
    """A server answering ``/version`` with ``version()`` and every other GET with an empty list or
    an object: every resource is served."""

    def answer(request: httpx.Request) -> httpx.Response:
        seen.append(request.url.path)
        if request.url.path == "/version":
            return version()
        name = request.url.path.rsplit("/", 1)[1]
        return httpx.Response(200, json={"items": []} if name.endswith("s") else {"metadata": {"name": name}})

    return httpx.MockTransport(answer)


def _git_version(git_version: str) -> Callable[[], httpx.Response]:
    return lambda: httpx.Response(200, json={"gitVersion": git_version})


def _gadgets(generated_from: str) -> ResourceInfo:
    return ResourceInfo("skew.example", "v1", "gadgets", True, "Gadget", generated_from)


def _three_calls(rest: RESTClient | AsyncRESTClient, generated_from: str) -> list[Callable[[], object]]:
    """Two resource types' calls through one REST client (sync or async: values or awaitables)."""
    client = ResourceClient if isinstance(rest, RESTClient) else AsyncResourceClient
    widgets, gadgets = (client(rest, info, "d", DictCodec()) for info in (_widgets(generated_from), _gadgets(generated_from)))
    return [widgets.list, lambda: widgets.get("w"), gadgets.list]


def _called(transport: httpx.MockTransport, generated_from: str, flavour: str) -> None:
    """The three calls, twice over (two clients of each type), on one REST client of ``flavour``."""
    if flavour == "sync":
        with RESTClient(CONFIG, transport=transport) as rest:
            for call in _three_calls(rest, generated_from) + _three_calls(rest, generated_from):
                call()
        return

    async def main() -> None:
        async with AsyncRESTClient(CONFIG, transport=transport) as rest:
            for call in _three_calls(rest, generated_from) + _three_calls(rest, generated_from):
                await call()  # type: ignore[misc]

    asyncio.run(main())


CALLED = ["/apis/skew.example/v1/namespaces/d/widgets", "/apis/skew.example/v1/namespaces/d/widgets/w",
          "/apis/skew.example/v1/namespaces/d/gadgets"] * 2


@pytest.mark.parametrize("flavour", ["sync", "asyncio"])
def test_the_first_call_reads_the_version_once_and_warns_outside_the_window(
    flavour: str, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture,
) -> None:
    monkeypatch.setattr(skew, "_warned", set())
    caplog.set_level(logging.WARNING, "kgen.runtime.gentype.skew")
    seen: list[str] = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        _called(_serving(_git_version("v1.35.4"), seen), "1.37.2", flavour)
    assert seen == ["/version", *CALLED]  # no 404, no discovery: only the first call's /version
    expected = ("the server runs Kubernetes 1.35.4, outside the ±1 minor version window of this client, generated "
                "from Kubernetes 1.37.2: fields and group-versions may differ; generate the package for the "
                "server's version")
    assert [str(w.message) for w in caught if issubclass(w.category, UserWarning)] == [expected]
    assert [r.getMessage() for r in caplog.records if r.name == "kgen.runtime.gentype.skew"] == [expected]


def _refused() -> httpx.Response:
    return httpx.Response(403, json={"kind": "Status", "code": 403, "reason": "Forbidden", "message": "forbidden"})


def _no_connection() -> httpx.Response:
    raise httpx.ConnectError("connection refused")


def _unanswered() -> httpx.Response:
    raise AssertionError("this test's transport answers no /version")


UNREADABLE: dict[str, Callable[[], httpx.Response]] = {
    "forbidden": _refused,
    "no-connection": _no_connection,
    "not-json": lambda: httpx.Response(200, text="<html>a proxy's page</html>"),
    "no-git-version": lambda: httpx.Response(200, json={"major": "1"}),
    "a-transport-that-raises": _unanswered,
}


@pytest.mark.parametrize("flavour", ["sync", "asyncio"])
@pytest.mark.parametrize("answer", sorted(UNREADABLE))
def test_a_version_that_cannot_be_read_fails_no_call_and_is_not_asked_again(answer: str, flavour: str) -> None:
    seen: list[str] = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        _called(_serving(UNREADABLE[answer], seen), "1.37.2", flavour)
    assert seen == ["/version", *CALLED]
    assert not [w for w in caught if issubclass(w.category, UserWarning)]


@pytest.mark.parametrize("flavour", ["sync", "asyncio"])
def test_a_package_without_a_kubernetes_version_asks_nothing(flavour: str) -> None:
    seen: list[str] = []
    _called(_serving(_git_version("v1.30.0"), seen), "", flavour)
    assert seen == CALLED


def test_the_version_is_bounded_as_the_call_it_comes_before() -> None:
    """``with_timeout`` bounds every request of the client: the /version its first call reads too."""
    read: dict[str, float | None] = {}

    def answer(request: httpx.Request) -> httpx.Response:
        read[request.url.path] = request.extensions["timeout"]["read"]
        return httpx.Response(200, json={"gitVersion": "v1.37.2", "items": []})

    with RESTClient(CONFIG, transport=httpx.MockTransport(answer)) as rest:
        ResourceClient(rest, _widgets("1.37.2"), "d", DictCodec()).with_timeout(2.5).list()
    assert read == {"/version": 2.5, "/apis/skew.example/v1/namespaces/d/widgets": 2.5}


def test_a_fake_clientset_asks_no_version() -> None:
    """The fake clientsets keep the real REST client over an in-memory tracker, which has no server
    to be skewed from (``watch_list_semantics_unsupported``): only the calls are sent."""
    seen: list[str] = []
    cs = FakeClientset()
    cs.rest.http.event_hooks["request"].append(lambda request: seen.append(request.url.path))
    cs.core_v1.config_maps("d").list()
    cs.core_v1.secrets("d").list()
    assert seen == ["/api/v1/namespaces/d/configmaps", "/api/v1/namespaces/d/secrets"]
    assert [a.verb for a in cs.actions()] == ["list", "list"]

    async def main() -> list[str]:
        paths: list[str] = []

        async def hook(request: httpx.Request) -> None:
            paths.append(request.url.path)

        acs = AsyncFakeClientset()
        acs.rest.http.event_hooks["request"].append(hook)
        await acs.core_v1.config_maps("d").list()
        return paths

    assert asyncio.run(main()) == ["/api/v1/namespaces/d/configmaps"]


@pytest.mark.parametrize(("ours", "theirs", "outside"), [
    ("1.37.2", "1.36.9", False), ("1.37.2", "1.38.0", False), ("1.37.2", "v1.35.4", True), ("1.34.4", "1.37.2", True),
    ("1.37.2", "2.37.2", True), ("", "1.30.0", False), ("1.37.2", "", False),
])
def test_the_window_is_one_minor_version_either_way(ours: str, theirs: str, outside: bool) -> None:
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")
        assert check_skew_window(ours, theirs) is outside
