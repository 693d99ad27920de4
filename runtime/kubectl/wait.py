"""``kubectl wait`` for Python (k8s.io/kubectl/pkg/cmd/wait): wait for one object — or each object
a label selector matches now — to meet a condition, to be deleted, or to be created.

``wait_for(client, name, ...)`` takes what ``--for`` takes, as keywords:

- ``condition="Available"`` (``status="True"``): a ``status.conditions`` entry of that type whose
  status is that value, both compared case-insensitively (Unicode simple folding), and not stale:
  an ``observedGeneration`` (the condition's, else the status's) behind ``metadata.generation``
  does not count;
- ``jsonpath="{.status.phase}"``, ``value="Running"``: client-go's jsonpath
  (``kgen.runtime.util.jsonpath``; ``.status.phase`` and ``status.phase`` are accepted too) with
  missing keys allowed; with no value, the path merely has to select something. It must select one
  value, not a map or a list when compared; the value is printed as Go prints it (``3``,
  ``true``) and compared with surrounding spaces trimmed;
- ``predicate=lambda obj: ...``: any test of the typed object;
- ``delete=True``: gone (at once if it is not there); ``create=True``: there, waited for first
  when combined with one of the others.

A DELETED event never meets a condition (the wait goes on: the object may come back). An object
that is not there fails a condition wait at once with ``NotFound``, as kubectl's does. ``timeout``
(30 s, kubectl's default) covers the whole wait; 0 checks once, a negative one waits a week. The
waits are ``until_with_sync`` (``kgen.runtime.tools.watch``) on a field selector for the name:
list + watch with resume, no polling — kubectl polls every 0.5 s for ``--for=create``; here the
watch sees the creation. It returns the object that met the condition (typed as the client's model;
a dict for a dynamic client), None for a deletion.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal, TypeVar, overload

from kgen.runtime.apimachinery.errors import NotFound
from kgen.runtime.apimachinery.meta import list_meta, name_of
from kgen.runtime.rest.watch import WatchEvent
from kgen.runtime.tools.watch import (
    AsyncWatchable,
    WaitTimeout,
    Watchable,
    async_lister_watcher,
    async_until_with_sync,
    lister_watcher,
    until_with_sync,
)
from kgen.runtime.util.jsonpath import JSONPath, format_value, relaxed_jsonpath_expression

__all__ = ["async_wait_for", "async_wait_for_all", "wait_for", "wait_for_all"]

T = TypeVar("T")
"""The type of the waited-for objects."""

A_WEEK = 168 * 3600.0
"""What a negative timeout means (kubectl: "negative means wait for a week")."""


def _as_dict(obj: Any) -> Any:
    to_dict = getattr(obj, "to_dict", None)
    return to_dict() if callable(to_dict) else obj


def _resource(client: Any) -> tuple[str, str]:
    """(plural.group as kubectl names it, group) of the client's resource, or its type's name."""
    info = getattr(getattr(client, "_req", None), "resource", None)
    if info is None:
        return type(client).__name__, ""
    return (f"{info.plural}.{info.group}" if info.group else info.plural), info.group


def _stale(obj: Mapping[str, Any], condition: Mapping[str, Any]) -> bool:
    generation = (obj.get("metadata") or {}).get("generation")
    if not isinstance(generation, int):
        return False
    observed = condition.get("observedGeneration")
    if not isinstance(observed, int):
        observed = (obj.get("status") or {}).get("observedGeneration")
    return isinstance(observed, int) and observed < generation


@dataclass
class _Spec:
    """What to wait for, decided once from the keywords; no I/O."""

    condition: str | None
    status: str
    jsonpath: JSONPath | None
    expression: str
    value: str | None
    predicate: Callable[[Any], bool] | None
    delete: bool
    create: bool
    timeout: float

    @classmethod
    def of(cls, condition: str | None, status: str, jsonpath: str | None, value: str | None,
           predicate: Callable[[Any], bool] | None, delete: bool, create: bool, timeout: float) -> _Spec:
        chosen = [k for k, v in (("condition", condition), ("jsonpath", jsonpath), ("predicate", predicate)) if v is not None]
        if delete:
            chosen.append("delete")
        if value is not None and jsonpath is None:
            raise ValueError("value= goes with jsonpath=: the value the path must select")
        if len(chosen) > 1:
            raise ValueError(f"wait for one of condition=, jsonpath=, predicate= or delete=True, not {' and '.join(chosen)}")
        if not chosen and not create:
            raise ValueError("expected what to wait for: condition=, jsonpath= (with value=), predicate=, delete=True or create=True")
        if delete and create:
            raise ValueError("delete=True cannot be combined with create=True")
        if condition == "":
            raise ValueError("condition must name a condition type, such as 'Available'")
        if value is not None and not value.strip():
            raise ValueError("value must not be empty: leave it out to wait for the path to select anything")
        parsed, expression = None, ""
        if jsonpath is not None:
            if not jsonpath:
                raise ValueError("jsonpath expression cannot be empty")
            expression = relaxed_jsonpath_expression(jsonpath)
            parsed = JSONPath(expression, allow_missing_keys=True)
        return cls(condition, status, parsed, expression, value, predicate, delete, create,
                   A_WEEK if timeout < 0 else float(timeout))

    def what(self, resource: str, name: str) -> str:
        """The ``--for`` this is, on resource/name: what a timeout names."""
        target = f"{resource}/{name}"
        if self.delete:
            return f"delete of {target}"
        if self.condition is not None:
            return f"condition={self.condition}={self.status} on {target}"
        if self.jsonpath is not None:
            return f"jsonpath={self.expression}{'=' + self.value if self.value is not None else ''} on {target}"
        if self.predicate is not None:
            return f"{getattr(self.predicate, '__name__', 'the predicate')} on {target}"
        return f"create of {target}"

    def met(self, obj: Any) -> bool:
        """Whether ``obj`` meets the condition, jsonpath or predicate (kubectl's checkCondition)."""
        if self.predicate is not None:
            return bool(self.predicate(obj))
        data = _as_dict(obj)
        if self.condition is not None:
            return self._condition_met(data)
        if self.jsonpath is not None:
            return self._jsonpath_met(data)
        return True  # create: being there is all

    def _condition_met(self, data: Mapping[str, Any]) -> bool:
        conditions = (data.get("status") or {}).get("conditions")
        for entry in conditions if isinstance(conditions, list) else []:
            if not isinstance(entry, dict) or not isinstance(entry.get("type"), str):
                continue
            if entry["type"].casefold() != self.condition.casefold():  # type: ignore[union-attr]
                continue
            if not isinstance(entry.get("status"), str):
                continue
            if _stale(data, entry):
                return False
            return bool(entry["status"].casefold() == self.status.casefold())
        return False

    def _jsonpath_met(self, data: Any) -> bool:
        assert self.jsonpath is not None
        results = self.jsonpath.find_results(data)
        if not results or not results[0]:
            return False
        if len(results) > 1:
            raise ValueError("given jsonpath expression matches more than one list")
        if len(results[0]) > 1:
            raise ValueError("given jsonpath expression matches more than one value")
        if self.value is None:
            return True
        found = results[0][0]
        if isinstance(found, (dict, list)):
            raise ValueError("jsonpath leads to a nested object or list which is not supported")
        return format_value(found).strip() == self.value.strip()

    def event_met(self, event: WatchEvent[Any]) -> bool:
        if self.delete:
            return event.type == "DELETED"
        return event.type != "DELETED" and self.met(event.object)


def _not_found(resource: str, group: str, name: str) -> NotFound:
    plural = resource.split(".", 1)[0]
    status = {"kind": "Status", "apiVersion": "v1", "status": "Failure", "reason": "NotFound", "code": 404,
              "message": f'{resource} "{name}" not found', "details": {"name": name, "group": group, "kind": plural}}
    return NotFound(status, 404)


def _must_exist(resource: str, group: str, name: str) -> Callable[[Mapping[str, Any]], bool]:
    def precondition(store: Mapping[str, Any]) -> bool:
        if not any(name_of(obj) == name for obj in store.values()):
            raise _not_found(resource, group, name)
        return False
    return precondition


def _gone(name: str) -> Callable[[Mapping[str, Any]], bool]:
    return lambda store: not any(name_of(obj) == name for obj in store.values())


class _Deadline:
    def __init__(self, timeout: float) -> None:
        self.end = time.monotonic() + timeout

    def left(self) -> float:
        return max(0.0, self.end - time.monotonic())


@overload
def wait_for(client: Watchable[T], name: str, *, delete: Literal[True], timeout: float = 30.0) -> None: ...
@overload
def wait_for(
    client: Watchable[T], name: str, *, condition: str | None = None, status: str = "True", jsonpath: str | None = None,
    value: str | None = None, predicate: Callable[[T], bool] | None = None, delete: Literal[False] = False,
    create: bool = False, timeout: float = 30.0,
) -> T: ...
def wait_for(
    client: Watchable[T], name: str, *, condition: str | None = None, status: str = "True", jsonpath: str | None = None,
    value: str | None = None, predicate: Callable[[T], bool] | None = None, delete: bool = False, create: bool = False,
    timeout: float = 30.0,
) -> T | None:
    """Wait until object ``name`` meets what the keywords say (the module's docstring); return it (None
    for ``delete``). ``WaitTimeout`` after ``timeout`` seconds names the wait and the last state seen."""
    spec = _Spec.of(condition, status, jsonpath, value, predicate, delete, create, timeout)
    found: T | None = _wait(lister_watcher(client), name, spec, _Deadline(spec.timeout))
    return found


def _wait(watched: Any, name: str, spec: _Spec, deadline: _Deadline) -> Any:
    resource, group = _resource(watched)
    found: Any = None
    if spec.create:
        event = until_with_sync(watched, lambda e: e.type != "DELETED", name=name, timeout=deadline.left(),
                                waiting_for=f"create of {resource}/{name}")
        found = event.object if event is not None else None
        if spec.condition is None and spec.jsonpath is None and spec.predicate is None:
            return found
    if spec.timeout == 0 and not spec.create:
        return _check_once(spec, watched.list(field_selector=f"metadata.name={name}"), resource, group, name)
    precondition = _gone(name) if spec.delete else _must_exist(resource, group, name)
    event = until_with_sync(watched, spec.event_met, precondition=precondition, name=name, timeout=deadline.left(),
                            waiting_for=spec.what(resource, name))
    return None if spec.delete or event is None else event.object


def _check_once(spec: _Spec, listed: Any, resource: str, group: str, name: str) -> Any:
    """``--timeout=0``: the state now, no wait."""
    items = list_meta(listed)[0]
    if spec.delete:
        if items:
            raise WaitTimeout(spec.what(resource, name), 0.0, WatchEvent("ADDED", items[0]))
        return None
    if not items:
        raise _not_found(resource, group, name)
    if not spec.met(items[0]):
        raise WaitTimeout(spec.what(resource, name), 0.0, WatchEvent("ADDED", items[0]))
    return items[0]


def _names(listed: Any, spec: _Spec, selector: str) -> list[str]:
    names = [name_of(obj) for obj in list_meta(listed)[0]]
    if not names and not spec.delete:
        raise LookupError(f"no matching resources found (label selector {selector!r})")
    return names


def wait_for_all(
    client: Watchable[T], *, label_selector: str, condition: str | None = None, status: str = "True",
    jsonpath: str | None = None, value: str | None = None, predicate: Callable[[T], bool] | None = None,
    delete: bool = False, timeout: float = 30.0,
) -> list[T]:
    """``kubectl wait -l SELECTOR``: each object the selector matches now, in turn, within one
    ``timeout``; their final states (empty for ``delete``). None matching is an error
    ("no matching resources found"), except when waiting for deletion."""
    spec = _Spec.of(condition, status, jsonpath, value, predicate, delete, False, timeout)
    watched = lister_watcher(client)
    deadline = _Deadline(spec.timeout)
    results: list[T] = []
    for name in _names(watched.list(label_selector=label_selector), spec, label_selector):
        found: T | None = _wait(watched, name, spec, deadline)
        if found is not None:
            results.append(found)
    return results


@overload
async def async_wait_for(client: AsyncWatchable[T], name: str, *, delete: Literal[True], timeout: float = 30.0) -> None: ...
@overload
async def async_wait_for(
    client: AsyncWatchable[T], name: str, *, condition: str | None = None, status: str = "True",
    jsonpath: str | None = None, value: str | None = None, predicate: Callable[[T], bool] | None = None,
    delete: Literal[False] = False, create: bool = False, timeout: float = 30.0,
) -> T: ...
async def async_wait_for(
    client: AsyncWatchable[T], name: str, *, condition: str | None = None, status: str = "True",
    jsonpath: str | None = None, value: str | None = None, predicate: Callable[[T], bool] | None = None,
    delete: bool = False, create: bool = False, timeout: float = 30.0,
) -> T | None:
    """``wait_for`` with an async client."""
    spec = _Spec.of(condition, status, jsonpath, value, predicate, delete, create, timeout)
    found: T | None = await _async_wait(async_lister_watcher(client), name, spec, _Deadline(spec.timeout))
    return found


async def _async_wait(watched: Any, name: str, spec: _Spec, deadline: _Deadline) -> Any:
    resource, group = _resource(watched)
    found: Any = None
    if spec.create:
        event = await async_until_with_sync(watched, lambda e: e.type != "DELETED", name=name, timeout=deadline.left(),
                                            waiting_for=f"create of {resource}/{name}")
        found = event.object if event is not None else None
        if spec.condition is None and spec.jsonpath is None and spec.predicate is None:
            return found
    if spec.timeout == 0 and not spec.create:
        listed = await watched.list(field_selector=f"metadata.name={name}")
        return _check_once(spec, listed, resource, group, name)
    precondition = _gone(name) if spec.delete else _must_exist(resource, group, name)
    event = await async_until_with_sync(watched, spec.event_met, precondition=precondition, name=name,
                                        timeout=deadline.left(), waiting_for=spec.what(resource, name))
    return None if spec.delete or event is None else event.object


async def async_wait_for_all(
    client: AsyncWatchable[T], *, label_selector: str, condition: str | None = None, status: str = "True",
    jsonpath: str | None = None, value: str | None = None, predicate: Callable[[T], bool] | None = None,
    delete: bool = False, timeout: float = 30.0,
) -> list[T]:
    """``wait_for_all`` with an async client."""
    spec = _Spec.of(condition, status, jsonpath, value, predicate, delete, False, timeout)
    watched = async_lister_watcher(client)
    deadline = _Deadline(spec.timeout)
    results: list[T] = []
    for name in _names(await watched.list(label_selector=label_selector), spec, label_selector):
        found: T | None = await _async_wait(watched, name, spec, deadline)
        if found is not None:
            results.append(found)
    return results
