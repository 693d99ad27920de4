"""The k8s.io/api types a CRD embeds, written as controller-gen writes them.

A CRD that embeds ``batchv1.JobTemplateSpec``, ``corev1.Container`` or ``corev1.Affinity`` gets,
from controller-gen, what k8s.io/api's Go markers and Go types say: ``format: int32`` on integers,
``x-kubernetes-list-type``/``x-kubernetes-list-map-keys`` (containers, env, ports: without them the
apiserver accepts duplicate container names, and server-side apply replaces whole lists instead of
merging them), map types, int-or-string, required lists, bounds and defaults; and no enums
(k8s.io/api's enums are open: a newer cluster adds values). A generated model carries only part of
this, so the schema of such a class comes from ``k8s_schemas.SCHEMAS``: controller-gen v0.23.0's own
output for every k8s.io/api type of the generated package (and meta/v1's label selector and owner
reference), cut back into one entry per class by hack/controller-gen/k8s_schemas.py. Descriptions
are kgen's, from the classes' docstrings. A class of a kgen-generated package that is not in the
data (apiextensions', apiregistration's) is written from its fields, as any model.
"""

from __future__ import annotations

import copy
import importlib
from typing import Any

import msgspec

from .descriptions import type_description
from .k8s_schemas import SCHEMAS

_MODELS = ".models."


def data_key(cls: type) -> str | None:
    """``<group>.<version>.<Kind>`` of a class of a kgen-generated package when the data has it."""
    module = cls.__module__
    if _MODELS not in module:
        return None
    key = f"{module[module.rindex(_MODELS) + len(_MODELS):]}.{cls.__name__}"
    return key if key in SCHEMAS else None


def data_schema(cls: type, key: str, docs: dict[str, str]) -> dict[str, Any]:
    """The schema of ``cls`` (its key ``key``) as controller-gen writes it; ``docs``: a class's
    field descriptions by Python name (``crd_schema``'s reader of docstrings)."""
    return _Render(cls.__module__[: cls.__module__.rindex(_MODELS) + len(_MODELS)]).object(cls, key, docs)


class _Render:
    def __init__(self, package: str) -> None:
        self._package = package  # "kgen.kubernetes.models.": where the $ref'd classes live

    def object(self, cls: type, key: str, docs: dict[str, str]) -> dict[str, Any]:
        entry = SCHEMAS[key]
        schema: dict[str, Any] = {}
        description = type_description(cls)
        if description:
            schema["description"] = description
        schema.update(copy.deepcopy(entry["schema"]))
        wire_docs = {info.encode_name: docs.get(info.name) for info in msgspec.structs.fields(cls)}
        props = {}
        for wire, sub in entry["properties"].items():
            rendered = self._field(sub)
            if wire_docs.get(wire):
                rendered = {"description": wire_docs[wire], **{k: v for k, v in rendered.items() if k != "description"}}
            props[wire] = rendered
        if props:
            schema["properties"] = props
        return schema

    def _field(self, sub: dict[str, Any]) -> dict[str, Any]:
        if "$ref" in sub:
            key = sub["$ref"]
            module, name = key.rsplit(".", 1)
            target = getattr(importlib.import_module(self._package + module), name)
            from .crd_schema import field_docs  # the docstring reader; imported late, crd_schema imports this module

            out = self.object(target, key, field_docs(target))
            out.update(copy.deepcopy({k: v for k, v in sub.items() if k != "$ref"}))
            return out
        out = copy.deepcopy(sub)
        if "items" in sub:
            out["items"] = self._field(sub["items"])
        if "additionalProperties" in sub and isinstance(sub["additionalProperties"], dict):
            out["additionalProperties"] = self._field(sub["additionalProperties"])
        return out
