"""controller-runtime's pkg/predicate: which events reach a controller's queue.

A predicate answers, per event kind, whether the event should enqueue anything; every predicate
of a watch must say yes. The stock ones keep controller-runtime's rules:

- ``GenerationChangedPredicate``: updates only when ``metadata.generation`` changed, i.e. the
  spec did (the apiserver does not bump it for status or metadata writes), so a controller's own
  status updates do not wake it again. Create, delete and generic events pass.
- ``LabelChangedPredicate`` / ``AnnotationChangedPredicate``: updates whose labels/annotations
  differ (compared as they are, so absent and empty differ, as Go's reflect.DeepEqual has it).
- ``ResourceVersionChangedPredicate``: drops resyncs (updates with an unchanged resourceVersion).
- ``LabelSelectorPredicate(selector)``: events whose object's labels a metav1.LabelSelector
  (matchLabels and matchExpressions) selects; an empty selector selects everything.
- ``Funcs`` for custom rules (an unset function passes everything), ``new_predicate_funcs(f)``
  for one filter on every event's object, and ``and_``, ``or_``, ``not_``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, Generic, TypeVar

from kgen.runtime.apimachinery.labels import Requirement, SelectorError, is_label_value, is_qualified_name
from kgen.runtime.apimachinery.meta import resource_version_of
from kgen.runtime.controller.event import CreateEvent, DeleteEvent, GenericEvent, UpdateEvent

__all__ = [
    "AnnotationChangedPredicate", "Funcs", "GenerationChangedPredicate", "LabelChangedPredicate", "LabelSelectorPredicate",
    "Predicate", "label_selector_requirements",
    "ResourceVersionChangedPredicate", "and_", "new_predicate_funcs", "not_", "or_",
]

T = TypeVar("T")


class Predicate(Generic[T]):
    """Every event passes unless a subclass says otherwise (predicate.Funcs with nil functions)."""

    def create(self, event: CreateEvent[T]) -> bool:
        """Whether a create event passes (always, unless overridden)."""
        return True

    def update(self, event: UpdateEvent[T]) -> bool:
        """Whether an update event passes (always, unless overridden)."""
        return True

    def delete(self, event: DeleteEvent[T]) -> bool:
        """Whether a delete event passes (always, unless overridden)."""
        return True

    def generic(self, event: GenericEvent[T]) -> bool:
        """Whether a generic event passes (always, unless overridden)."""
        return True


class Funcs(Predicate[T]):
    """A predicate from functions; an event kind without one passes."""

    def __init__(
        self,
        create: Callable[[CreateEvent[T]], bool] | None = None,
        update: Callable[[UpdateEvent[T]], bool] | None = None,
        delete: Callable[[DeleteEvent[T]], bool] | None = None,
        generic: Callable[[GenericEvent[T]], bool] | None = None,
    ) -> None:
        self._create, self._update, self._delete, self._generic = create, update, delete, generic

    def create(self, event: CreateEvent[T]) -> bool:
        """The ``create`` function's answer (True without one)."""
        return self._create is None or self._create(event)

    def update(self, event: UpdateEvent[T]) -> bool:
        """The ``update`` function's answer (True without one)."""
        return self._update is None or self._update(event)

    def delete(self, event: DeleteEvent[T]) -> bool:
        """The ``delete`` function's answer (True without one)."""
        return self._delete is None or self._delete(event)

    def generic(self, event: GenericEvent[T]) -> bool:
        """The ``generic`` function's answer (True without one)."""
        return self._generic is None or self._generic(event)


def new_predicate_funcs(keep: Callable[[T], bool]) -> Funcs[T]:
    """One filter on the object of every event; an update is judged on its new object."""
    return Funcs(
        create=lambda e: keep(e.object), update=lambda e: keep(e.object_new),
        delete=lambda e: keep(e.object), generic=lambda e: keep(e.object),
    )


def _metadata_field(obj: Any, name: str) -> Any:
    metadata = getattr(obj, "metadata", None)
    return getattr(metadata, name, None) if metadata is not None else None


class GenerationChangedPredicate(Predicate[Any]):
    """Passes updates that change metadata.generation (the spec, for resources with a status
    subresource); other events pass."""

    def update(self, event: UpdateEvent[Any]) -> bool:
        """Whether metadata.generation changed (False when either state is missing)."""
        if event.object_old is None or event.object_new is None:
            return False  # controller-runtime logs "Update event has no old/new object" and drops it
        return bool(_metadata_field(event.object_new, "generation") != _metadata_field(event.object_old, "generation"))


class LabelChangedPredicate(Predicate[Any]):
    """Passes updates that change metadata.labels; other events pass."""

    def update(self, event: UpdateEvent[Any]) -> bool:
        """Whether metadata.labels changed (False when either state is missing)."""
        if event.object_old is None or event.object_new is None:
            return False
        return bool(_metadata_field(event.object_new, "labels") != _metadata_field(event.object_old, "labels"))


class AnnotationChangedPredicate(Predicate[Any]):
    """Passes updates that change metadata.annotations; other events pass."""

    def update(self, event: UpdateEvent[Any]) -> bool:
        """Whether metadata.annotations changed (False when either state is missing)."""
        if event.object_old is None or event.object_new is None:
            return False
        return bool(
            _metadata_field(event.object_new, "annotations") != _metadata_field(event.object_old, "annotations")
        )


class ResourceVersionChangedPredicate(Predicate[Any]):
    """Passes updates that change metadata.resourceVersion (not a resync's); other events pass."""

    def update(self, event: UpdateEvent[Any]) -> bool:
        """Whether metadata.resourceVersion changed (False when either state is missing)."""
        if event.object_old is None or event.object_new is None:
            return False
        return resource_version_of(event.object_new) != resource_version_of(event.object_old)


_OPERATORS = {"In": "in", "NotIn": "notin", "Exists": "exists", "DoesNotExist": "!"}
"""metav1.LabelSelectorOperator → the labels package's selection.Operator."""


def _field(value: Any, python: str, wire: str) -> Any:
    return value.get(wire) if isinstance(value, dict) else getattr(value, python, None)


def _requirement(key: str, op: str, values: list[str]) -> Requirement:
    """labels.NewRequirement's checks, with its messages; several errors are one aggregate ``[a, b]``."""
    errors = [f'key: Invalid value: "{key}": {e}' for e in is_qualified_name(key)]
    # field.Invalid prints the values as JSON; Go's copy of an empty list is nil, printed null
    shown = json.dumps(values, separators=(",", ":"), ensure_ascii=False) if values else "null"
    if op in ("in", "notin") and not values:
        errors.append(f"values: Invalid value: {shown}: for 'in', 'notin' operators, values set can't be empty")
    if op == "=" and len(values) != 1:
        errors.append(f"values: Invalid value: {shown}: exact-match compatibility requires one single value")
    if op in ("exists", "!") and values:
        errors.append(f"values: Invalid value: {shown}: values set must be empty for exists and does not exist")
    for i, value in enumerate(values):
        errors.extend(f'values[{i}][{key}]: Invalid value: "{value}": {e}' for e in is_label_value(value))
    if errors:
        raise SelectorError(errors[0] if len(errors) == 1 else f"[{', '.join(errors)}]")
    return Requirement(key, op, frozenset(values))


def label_selector_requirements(selector: Any) -> list[Requirement]:
    """metav1.LabelSelectorAsSelector: the requirements of a LabelSelector (a model of any generated
    package, or its JSON as a dict), ``[]`` (everything) for an empty one; SelectorError for an
    operator or a key or value the labels package refuses."""
    requirements = []
    for key, value in sorted((_field(selector, "match_labels", "matchLabels") or {}).items()):
        requirements.append(_requirement(key, "=", [value]))
    for expression in _field(selector, "match_expressions", "matchExpressions") or ():
        operator = _field(expression, "operator", "operator")
        if operator not in _OPERATORS:
            raise SelectorError(f'"{operator}" is not a valid label selector operator')
        key = _field(expression, "key", "key") or ""
        requirements.append(_requirement(key, _OPERATORS[operator], list(_field(expression, "values", "values") or ())))
    return requirements


class LabelSelectorPredicate(Funcs[Any]):
    """predicate.LabelSelectorPredicate: passes the events (every kind; an update by its new object)
    whose object's labels ``selector`` selects, with metav1.LabelSelector's rules: matchLabels and
    every matchExpression must hold (In, NotIn, Exists, DoesNotExist), and an empty selector selects
    everything. Where Go returns an error for a bad selector, the constructor raises SelectorError."""

    def __init__(self, selector: Any) -> None:
        requirements = label_selector_requirements(selector)

        def keep(obj: Any) -> bool:
            labels = _metadata_field(obj, "labels") or {}
            return all(r.matches(labels) for r in requirements)

        super().__init__(
            create=lambda e: keep(e.object), update=lambda e: keep(e.object_new),
            delete=lambda e: keep(e.object), generic=lambda e: keep(e.object),
        )


class _Combined(Predicate[T]):
    def __init__(self, predicates: tuple[Predicate[T], ...], combine: Callable[[Any], bool]) -> None:
        self._predicates, self._combine = predicates, combine

    def create(self, event: CreateEvent[T]) -> bool:
        return self._combine(p.create(event) for p in self._predicates)

    def update(self, event: UpdateEvent[T]) -> bool:
        return self._combine(p.update(event) for p in self._predicates)

    def delete(self, event: DeleteEvent[T]) -> bool:
        return self._combine(p.delete(event) for p in self._predicates)

    def generic(self, event: GenericEvent[T]) -> bool:
        return self._combine(p.generic(event) for p in self._predicates)


def and_(*predicates: Predicate[T]) -> Predicate[T]:
    """Passes when every predicate passes (predicate.And; none given: everything passes)."""
    return _Combined(predicates, all)


def or_(*predicates: Predicate[T]) -> Predicate[T]:
    """Passes when any predicate passes (predicate.Or; none given: nothing passes)."""
    return _Combined(predicates, any)


class _Not(Predicate[T]):
    def __init__(self, predicate: Predicate[T]) -> None:
        self._predicate = predicate

    def create(self, event: CreateEvent[T]) -> bool:
        return not self._predicate.create(event)

    def update(self, event: UpdateEvent[T]) -> bool:
        return not self._predicate.update(event)

    def delete(self, event: DeleteEvent[T]) -> bool:
        return not self._predicate.delete(event)

    def generic(self, event: GenericEvent[T]) -> bool:
        return not self._predicate.generic(event)


def not_(predicate: Predicate[T]) -> Predicate[T]:
    """A predicate passing exactly the events ``predicate`` refuses."""
    return _Not(predicate)
