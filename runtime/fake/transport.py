"""The httpx transports the fake clientsets send through, and the routing of each request.

client-go's fake clientset answers typed calls with reactors and never builds a request; this
fake sits under the real ``RESTClient`` instead, so URLs, query parameters, bodies, status codes
and decoding are exercised exactly as against a cluster. A request's path is read as the
apiserver's RequestInfo reads it (group, version, namespace, resource, name, subresource), its
method picks the verb, and a ``Failure`` anywhere becomes its ``Status`` reply. One lock around
each request keeps the store consistent for informers on other threads.
"""

from __future__ import annotations

import httpx
import msgspec

from kgen.runtime.fake.handlers import verbs
from kgen.runtime.fake.actions import Reactions
from kgen.runtime.fake.errors import Failure, method_not_allowed, no_route
from kgen.runtime.fake.handlers.patch import patch
from kgen.runtime.fake.request import Call, Reply, Route
from kgen.runtime.fake.handlers.scale import get_scale, update_scale
from kgen.runtime.fake.store import Store
from kgen.runtime.fake.handlers.watch import AsyncWatchStream, Watch, WatchStream, start

_SUBRESOURCES = frozenset({"status", "scale"})


class Transport(httpx.BaseTransport):
    """An httpx transport that answers every request from the tracker's store, as the apiserver would."""

    watch_list_semantics_unsupported = True
    """Read by the REST client: reflectors on it list and watch (client-go's fakes stream no list)."""

    def __init__(self, store: Store, reactions: Reactions | None = None) -> None:
        self._store = store
        self._reactions = reactions

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        """The store's answer to ``request`` (a watch: a streamed response)."""
        reply = serve(self._store, Call.of(request, request.read()), self._reactions)
        if isinstance(reply, Watch):
            return httpx.Response(200, headers={"Content-Type": "application/json"}, stream=WatchStream(reply))
        return _json_response(reply)


class AsyncTransport(httpx.AsyncBaseTransport):
    """``Transport`` for httpx.AsyncClient."""

    watch_list_semantics_unsupported = True
    """As ``Transport``'s."""

    def __init__(self, store: Store, reactions: Reactions | None = None) -> None:
        self._store = store
        self._reactions = reactions

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        """The store's answer to ``request`` (a watch: a streamed response)."""
        reply = serve(self._store, Call.of(request, await request.aread()), self._reactions)
        if isinstance(reply, Watch):
            return httpx.Response(200, headers={"Content-Type": "application/json"}, stream=AsyncWatchStream(reply))
        return _json_response(reply)


def _json_response(reply: Reply) -> httpx.Response:
    headers = [("Content-Type", "application/json"), *(("Warning", warning) for warning in reply.warnings)]
    return httpx.Response(reply.code, headers=headers, content=msgspec.json.encode(reply.body))


def serve(store: Store, call: Call, reactions: Reactions | None = None) -> Reply | Watch:
    """The answer to one request: a reply, or a watch to stream. With ``reactions``, the request
    is recorded as an action and the reactors may answer it first (outside the store's lock)."""
    try:
        with store.lock:
            route = _route(store, call.path)
        if reactions is not None:
            answer = reactions.react(reactions.record(call, route))
            if answer is not None:
                return answer
        with store.lock:
            return _dispatch(store, call, route)
    except Failure as failure:
        return Reply(failure.code, failure.status, failure.warnings)


def _dispatch(store: Store, call: Call, route: Route) -> Reply | Watch:
    method, named, sub = call.method, bool(route.name), route.subresource
    if method == "GET" and named:
        return get_scale(store, route) if sub == "scale" else verbs.get(store, route)
    if method == "GET":
        return start(store, route, call) if call.params.get("watch") in ("true", "1") else verbs.list_(store, route, call)
    if method == "POST" and not named:
        return verbs.create(store, route, call)
    if method == "PUT" and named:
        return update_scale(store, route, call) if sub == "scale" else verbs.update(store, route, call)
    if method == "PATCH" and named:
        return patch(store, route, call)
    if method == "DELETE" and named and not sub:
        return verbs.delete(store, route, call)
    if method == "DELETE" and not named:
        return verbs.delete_collection(store, route, call)
    raise method_not_allowed()


def _route(store: Store, path: str) -> Route:
    parts = path.strip("/").split("/")
    if len(parts) >= 2 and parts[0] == "api":
        group, version, rest = "", parts[1], parts[2:]
    elif len(parts) >= 3 and parts[0] == "apis":
        group, version, rest = parts[1], parts[2], parts[3:]
    else:
        raise no_route()
    namespace = ""
    # apiserver's RequestInfo rule: namespaces/{ns}/{resource}... unless it is a namespace subresource
    if len(rest) >= 3 and rest[0] == "namespaces" and rest[2] not in ("status", "finalize"):
        namespace, rest = rest[1], rest[2:]
    info = store.resources.get((group, version, rest[0])) if 1 <= len(rest) <= 3 else None
    if info is None or any(not part for part in rest):
        raise no_route()
    name = rest[1] if len(rest) > 1 else ""
    subresource = rest[2] if len(rest) > 2 else ""
    if (info.namespaced and name and not namespace) or (namespace and not info.namespaced):
        raise no_route()
    if subresource and (subresource not in _SUBRESOURCES or (subresource == "status" and info in store.without_status)):
        raise no_route()
    return Route(info, namespace, name, subresource)
