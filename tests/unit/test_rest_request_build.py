"""The REST client builds each httpx.Request itself (runtime/rest/client.py ``_Pipeline.build``):
the same URL, headers and timeout as httpx's own ``Client.build_request`` with the client's
base_url, for seeded random paths and queries (names, selectors with spaces, commas, ``!``,
unicode, ``%``, ``+``, ``&``, ``=``), on both flavours and under a base URL with a path."""

from __future__ import annotations

import random

import pytest

from kgen.runtime.rest import Config
from kgen.runtime.rest.client import AsyncRESTClient, Request, RESTClient

ALPHABET = "abcXYZ09-._~ !$&'()*+,;=:@/?#[]%ü€\"<>^`{|}"


def _text(rng: random.Random, size: int) -> str:
    return "".join(rng.choice(ALPHABET) for _ in range(rng.randrange(size)))


def _requests(rng: random.Random, count: int) -> list[Request]:
    made = []
    for _ in range(count):
        name = _text(rng, 12).replace("/", "").replace("?", "").replace("#", "") or "x"
        path = f"/api/v1/namespaces/ns-{rng.randrange(9)}/configmaps/{name}"
        params = [(rng.choice(["labelSelector", "fieldSelector", "resourceVersion", "watch", "limit", "x y"]),
                   _text(rng, 16)) for _ in range(rng.randrange(4))]
        made.append(Request(rng.choice(["GET", "PUT", "PATCH"]), path, params, body=b"{}" if rng.random() < 0.5 else None,
                            content_type="application/merge-patch+json" if rng.random() < 0.3 else None,
                            timeout=rng.choice([None, 3.0]), stream=rng.random() < 0.2, headers={"X-A": "b"}))
    return made


@pytest.mark.parametrize("host", ["https://127.0.0.1:6443", "https://example.test:443/prefix/", "http://h"])
@pytest.mark.parametrize("client_class", [RESTClient, AsyncRESTClient])
def test_requests_are_built_as_httpx_build_request_would(host: str, client_class: type[RESTClient | AsyncRESTClient]) -> None:
    client = client_class(Config(host=host, user_agent="kgen-test"))
    rng = random.Random(1404)
    for req in _requests(rng, 400):
        built = client.build(client.http, req)
        expected = client.http.build_request(
            req.method, req.path, params=list(req.params), content=req.body,
            headers={"Accept": req.accept, **req.headers, **({"Content-Type": req.content_type} if req.content_type else {})},
            extensions={"timeout": built.extensions["timeout"]},
        )
        assert str(built.url) == str(expected.url), req
        assert built.url.raw_path == expected.url.raw_path
        assert list(built.headers.multi_items()) == list(expected.headers.multi_items())
        assert built.content == expected.content
    # No bound of kgen's for a stream (request_timeout is None): the client's, as build_request
    # defaults it; a request's own timeout wins.
    streamed = client.build(client.http, Request("GET", "/api", stream=True))
    assert streamed.extensions["timeout"] == client.http.build_request("GET", "/api").extensions["timeout"]
    assert client.build(client.http, Request("GET", "/api", timeout=3.0)).extensions["timeout"]["read"] == 3.0
    assert streamed.headers["User-Agent"] == "kgen-test"


def _plain_requests(rng: random.Random, count: int) -> list[Request]:
    """Requests with the names and queries a controller sends: those build() makes from the base
    URL's parsed form without parsing them (and a few with dots, escapes, ``+``)."""
    plain = "abcxyz0189-"
    made = []
    for _ in range(count):
        name = "".join(rng.choice(plain + ".") for _ in range(rng.randrange(1, 20)))
        path = rng.choice([f"/api/v1/namespaces/ns-{rng.randrange(9)}/configmaps/{name}",
                           f"/apis/bench.kgen.dev/v1/namespaces/n/widgets/{name}/status", "/api", "/version", "/api/",
                           f"/api/v1/namespaces/{name}/./x", f"/api/v1/{name}/../x"])
        params = [(rng.choice(["resourceVersion", "watch", "limit", "fieldManager", "labelSelector"]),
                   rng.choice(["true", "12345", "a=b,c!=d", "a+b", "x%2Fy", "kgen-manager", ""])) for _ in range(rng.randrange(4))]
        made.append(Request(rng.choice(["GET", "PUT", "POST", "PATCH", "DELETE"]), path, params,
                            body=rng.choice([None, b"", b'{"a":1}']), headers={}))
    return made


@pytest.mark.parametrize("host", ["https://127.0.0.1:6443", "https://example.test:443/prefix/", "http://h", "https://h:8443/p"])
@pytest.mark.parametrize("client_class", [RESTClient, AsyncRESTClient])
def test_plain_paths_and_queries_are_built_as_httpx_build_request_would(
    host: str, client_class: type[RESTClient | AsyncRESTClient]
) -> None:
    client = client_class(Config(host=host, user_agent="kgen-test"))
    for req in _plain_requests(random.Random(36), 600):
        built = client.build(client.http, req)
        expected = client.http.build_request(req.method, req.path, params=list(req.params), content=req.body,
                                             headers={"Accept": req.accept})
        assert str(built.url) == str(expected.url), req
        assert built.url == expected.url and built.url.raw_path == expected.url.raw_path, req
        assert (built.url.scheme, built.url.host, built.url.port, built.url.query) == \
            (expected.url.scheme, expected.url.host, expected.url.port, expected.url.query)
        assert list(built.headers.multi_items()) == list(expected.headers.multi_items()), req
        assert built.content == expected.content
        assert b"".join(built.stream) == expected.content  # type: ignore[arg-type]
