"""Version skew without a server (kgen.runtime.gentype.skew): a 404 no handler answered becomes a
``VersionSkewError`` after one discovery look-up per REST client, and a server outside the ±1
minor window of the package's Kubernetes version is warned about once, in the log and as a
``UserWarning``. Both flavours; /version and discovery are a fake's answers."""

from __future__ import annotations

import asyncio
import logging
import warnings

import httpx
import pytest

from kgen.runtime.apimachinery import NotFound, VersionSkewError
from kgen.runtime.gentype import AsyncResourceClient, DictCodec, ResourceClient, ResourceInfo
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
    assert seen == ["/apis/skew.example/v1/namespaces/d/widgets/w", "/apis/skew.example/v1", "/version",
                    "/apis/skew.example/v1/namespaces/d/widgets"]  # discovery and /version asked once
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
    assert seen == ["/apis/skew.example/v1/namespaces/d/widgets/w"]


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
    assert seen == ["/apis/skew.example/v1/namespaces/d/widgets", "/apis/skew.example/v1", "/version"]


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


@pytest.mark.parametrize(("ours", "theirs", "outside"), [
    ("1.37.2", "1.36.9", False), ("1.37.2", "1.38.0", False), ("1.37.2", "v1.35.4", True), ("1.34.4", "1.37.2", True),
    ("1.37.2", "2.37.2", True), ("", "1.30.0", False), ("1.37.2", "", False),
])
def test_the_window_is_one_minor_version_either_way(ours: str, theirs: str, outside: bool) -> None:
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")
        assert check_skew_window(ours, theirs) is outside
