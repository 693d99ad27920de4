"""Unit tests of the generator: no apiserver. black's cache lives in a per-session temp folder."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tests.unit.helpers import MODULE, generate, imported, write_json, write_yaml


@pytest.fixture(scope="session", autouse=True)
def _private_format_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("KGEN_CACHE_DIR", str(tmp_path_factory.mktemp("kgen-cache")))
        yield


@pytest.fixture
def load(tmp_path: Path) -> Iterator[Callable[..., ModuleType]]:
    """``load(document=None, crds=(), suffix=".json", module=MODULE)``: generate a package from an
    OpenAPI document (written as JSON, or YAML for ``suffix=".yaml"``) and CRDs, import it, and
    return one of its models modules. Everything imported is forgotten after the test."""
    with ExitStack() as stack:
        runs = itertools.count()

        def load(
            document: dict[str, Any] | None = None,
            *,
            crds: Sequence[dict[str, Any]] = (),
            suffix: str = ".json",
            module: tuple[str, str] = MODULE,
        ) -> ModuleType:
            folder = tmp_path / f"run{next(runs)}"
            args: list[str] = []
            if document is not None:
                source = folder / f"openapi{suffix}"
                (write_json if suffix == ".json" else write_yaml)(source, document)
                args += ["--from", str(source)]
            for i, doc in enumerate(crds):
                args += ["--crd", str(write_yaml(folder / f"crd{i}.yaml", doc))]
            gen = generate(folder / "out", *args)
            return stack.enter_context(imported(gen)).models(*module)

        yield load
