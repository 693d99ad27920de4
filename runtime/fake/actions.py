"""What a fake clientset was asked (client-go's ``testing.Action`` and ``Fake.Actions()``), and
reactors that answer a request in place of the store (``Fake.PrependReactor``).

Every request the fake serves on a known resource is recorded as an ``Action``: verb, resource,
namespace, name, subresource, the decoded body of a create or update, the patch of a patch (a
server-side apply is a ``patch`` with ``patch_type`` ``application/apply-patch+yaml``, as in
client-go) and the query. ``ObjectTracker.actions()`` hands them out in order;
``clear_actions()`` forgets them. The verbs are client-go's: ``get``, ``list``, ``watch``,
``create``, ``update``, ``patch``, ``delete``, ``delete-collection``.

A reactor is ``(verb, resource, reaction)``; the newest prepended is asked first. It handles an
action when the verb is ``"*"`` or the action's, and the resource is ``"*"``, the action's
plural (its subresources too), or ``"plural/subresource"`` (client-go's ``Action.Matches``). Its
``reaction(action)`` then:

- returns None: not handled, the next reactor (at last the store) answers;
- returns an object (a model or a dict): the answer, 201 for a create, else 200;
- raises an ``ApiError`` (``kgen.runtime.apimachinery.errors``) or one of the apiserver's
  failures this action names (``raise action.conflict()``, ``action.not_found()``,
  ``action.already_exists()``, ``action.failure(code, reason, message)``): answered with that
  ``Status``, so the client raises what it raises against a cluster;
- raises anything else: a 500 ``InternalError`` with its message.

Watches are recorded but not reacted to: the store serves them. A reaction runs outside the
store's lock, so it may read or seed the tracker.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from kgen.runtime.apimachinery.errors import ApiError
from kgen.runtime.fake.errors import Failure, already_exists, conflict, not_found
from kgen.runtime.fake.request import Call, Reply, Route

__all__ = ["Action", "Reaction", "RecordedActions"]


@dataclass(frozen=True)
class Action:
    """One request the fake served (client-go's ``testing.Action`` and its kinds in one)."""

    verb: str
    group: str
    version: str
    resource: str
    namespace: str = ""
    name: str = ""
    subresource: str = ""
    object: Any = None
    """The decoded body of a ``create`` or ``update`` (None for the other verbs)."""
    patch_type: str = ""
    patch: bytes = b""
    params: Mapping[str, str] = field(default_factory=dict)
    """The query: ``labelSelector``, ``fieldSelector``, ``dryRun``, ``fieldManager``..."""
    _route: Route | None = field(default=None, repr=False, compare=False)

    def matches(self, verb: str, resource: str) -> bool:
        """client-go's ``Action.Matches``: ``resource`` is a plural (any subresource of it), or
        ``plural/subresource``; ``"*"`` matches any verb or resource."""
        if verb != "*" and verb.lower() != self.verb:
            return False
        if resource == "*":
            return True
        plural, _, sub = resource.lower().partition("/")
        return plural == self.resource and (not sub or sub == self.subresource)

    def conflict(self) -> Failure:
        """The apiserver's 409 Conflict (a stale resourceVersion) on this action's object."""
        return conflict(self._info(), self.name)

    def not_found(self) -> Failure:
        """The apiserver's 404 NotFound for this action's object."""
        return not_found(self._info(), self.name)

    def already_exists(self) -> Failure:
        """The apiserver's 409 AlreadyExists for this action's object."""
        return already_exists(self._info(), self.name)

    @staticmethod
    def failure(code: int, reason: str, message: str) -> Failure:
        """Any other ``Status``: ``action.failure(429, "TooManyRequests", "slow down")``."""
        return Failure(code, reason, message)

    def _info(self) -> Any:
        if self._route is None:
            raise ValueError("an Action made by hand names no served resource")
        return self._route.info


Reaction = Callable[[Action], Any]
"""``reaction(action)``: None (not handled), the object to answer with, or raises the failure."""


class RecordedActions:
    """client-go's ``testing.Fake`` methods for a fake clientset holding a ``tracker`` (an
    ``ObjectTracker``): the generated ``FakeClientset`` and ``AsyncFakeClientset`` have them."""

    tracker: Any

    def actions(self) -> list[Action]:
        """The requests served so far, in order (client-go's ``Actions()``)."""
        actions: list[Action] = self.tracker.actions()
        return actions

    def clear_actions(self) -> None:
        """Forgets the recorded actions (client-go's ``ClearActions()``)."""
        self.tracker.clear_actions()

    def prepend_reactor(self, verb: str, resource: str, reaction: Reaction) -> None:
        """Asks ``reaction`` first about ``verb`` on ``resource`` (client-go's ``PrependReactor``):
        it returns None to pass, an object to answer with, or raises the failure to answer."""
        self.tracker.prepend_reactor(verb, resource, reaction)

_VERBS = {("GET", True): "get", ("GET", False): "list", ("POST", False): "create", ("PUT", True): "update",
          ("PATCH", True): "patch", ("DELETE", True): "delete", ("DELETE", False): "delete-collection"}


def _verb(call: Call, route: Route) -> str:
    if call.method == "GET" and not route.name and call.params.get("watch") in ("true", "1"):
        return "watch"
    return _VERBS.get((call.method, bool(route.name)), call.method.lower())


class Reactions:
    """The recorded actions and the reactors of one tracker (shared by its transports)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._actions: list[Action] = []
        self._reactors: list[tuple[str, str, Reaction]] = []

    def actions(self) -> list[Action]:
        with self._lock:
            return list(self._actions)

    def clear(self) -> None:
        with self._lock:
            self._actions.clear()

    def prepend(self, verb: str, resource: str, reaction: Reaction) -> None:
        with self._lock:
            self._reactors.insert(0, (verb, resource, reaction))

    def record(self, call: Call, route: Route) -> Action:
        verb = _verb(call, route)
        body: Any = None
        if verb in ("create", "update"):
            try:
                body = call.json()
            except Failure:
                body = None  # the store answers the 400
        info = route.info
        action = Action(
            verb, info.group, info.version, info.plural, route.namespace, route.name, route.subresource, body,
            call.content_type if verb == "patch" else "", call.body if verb == "patch" else b"",
            dict(call.params.multi_items()), route,
        )
        with self._lock:
            self._actions.append(action)
        return action

    def react(self, action: Action) -> Reply | None:
        """The first handling reactor's answer, or None for the store to answer."""
        if action.verb == "watch":
            return None
        with self._lock:
            reactors = list(self._reactors)
        for verb, resource, reaction in reactors:
            if not action.matches(verb, resource):
                continue
            try:
                answer = reaction(action)
            except Failure as failure:
                return Reply(failure.code, failure.status)
            except ApiError as error:
                return Reply(error.code, error.status)
            except Exception as error:  # noqa: BLE001 - a reaction's bug or a chosen failure: a 500
                internal = Failure(500, "InternalError", f"Internal error occurred: {error}",
                                   {"causes": [{"message": str(error)}]})
                return Reply(internal.code, internal.status)
            if answer is not None:
                return Reply(201 if action.verb == "create" else 200, _as_dict(answer))
        return None


def _as_dict(answer: Any) -> dict[str, Any]:
    if isinstance(answer, Mapping):
        return dict(answer)
    to_dict = getattr(answer, "to_dict", None)
    if to_dict is None:
        raise TypeError(f"a reaction answered with {type(answer).__name__}: return a model, a dict or None")
    kind, api_version = getattr(type(answer), "KIND", ""), getattr(type(answer), "API_VERSION", "")
    out: dict[str, Any] = {**({"apiVersion": api_version, "kind": kind} if kind else {}), **to_dict()}
    return out
