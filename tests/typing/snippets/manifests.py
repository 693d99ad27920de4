"""Manifests and apply as a user writes them: ``load_all_yaml`` gives plain dicts without a
package and models-or-dicts with one (narrowed by ``isinstance``); ``apply``/``delete`` and their
asyncio twins give typed results; wrong arguments are caught."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any, assert_type

import kgen.kubernetes
from kgen.kubernetes.models.apps.v1 import Deployment
from kgen.runtime.apimachinery.model import Model
from kgen.runtime.kubectl import (
    ApplyResult,
    ManifestError,
    apply,
    async_apply,
    async_delete,
    delete,
    dump_all_yaml,
    load_all_yaml,
)
from kgen.runtime.rest import Config, load_kubeconfig


def load_and_scale(folder: Path) -> str:
    objects = load_all_yaml(folder, kgen.kubernetes)
    assert_type(objects, list[Model | dict[str, Any]])
    for obj in objects:
        if isinstance(obj, Deployment) and obj.spec is not None:
            obj.spec.replicas = 3
        elif isinstance(obj, dict):
            print(obj["kind"], obj.get("metadata", {}).get("name"))
    return dump_all_yaml(objects)


def unstructured_only(text: str) -> list[str]:
    objects = load_all_yaml(text)
    assert_type(objects, list[dict[str, Any]])
    return [str(o["kind"]) for o in objects]


def apply_folder(folder: str, namespace: str) -> bool:
    config = load_kubeconfig()
    try:
        objects = load_all_yaml(Path(folder), "kgen.kubernetes")
    except ManifestError as e:
        print(e.where, e.problem)
        return False
    results = apply(config, objects, namespace=namespace, field_manager="me", force=True)
    for result in results:
        assert_type(result, ApplyResult)
        print(result.line, result.action, result.error)
        if result.stored is not None:
            assert_type(result.stored["metadata"], Any)
    gone = delete(config, objects, namespace=namespace, dry_run=True)
    return all(r.ok for r in results + gone)


async def apply_async(config: Config, text: str) -> list[str | None]:
    results = await async_apply(config, load_all_yaml(text), dry_run=True, wait_established_timeout=30)
    await async_delete(config, load_all_yaml(text))
    return [r.action for r in results]


def mistakes(config: Config) -> None:
    apply(config, ["apiVersion: v1"])  # E: list-item
    apply(config, [], field_manager=None)  # E: arg-type
    load_all_yaml(b"apiVersion: v1")  # E: call-overload
    asyncio.run(async_apply(config, [], force="yes"))  # E: arg-type
    unstructured_only("x").append(3)  # E: arg-type
