"""Model mistakes mypy --strict must reject (each ``# E: <code>`` line; tests/typing/test_snippets.py)."""

from __future__ import annotations

from kgen.kubernetes.models.apps.v1 import Deployment
from kgen.kubernetes.models.core.v1 import ConfigMapList, Container, PodCondition


def mistakes(d: Deployment, cms: ConfigMapList, c: Container, cond: PodCondition) -> None:
    print(d.metadata.name)  # E: union-attr
    print(d.spec.template.spec.containers)  # E: union-attr
    print(Container(image="nginx"))  # E: call-arg
    c.name = None  # E: assignment
    if d.spec is not None:  # (spec is optional up to 1.36: tests/compat)
        d.spec.replicas = "3"  # E: assignment
    print(cond.type_)  # E: attr-defined
    print(len(cms.items[0].data))  # E: arg-type
