"""The validation schemas of a generated package: what the apiserver validates each kind against.

The generator writes them into ``<package>.validation`` (``generator/validation.py`` describes
the encoding): for every kind, its definition's schema as the source states it (a CRD's own
structural schema, a built-in type's OpenAPI definition) with only what validation and
structural defaulting read, ``$ref``s naming other definitions. This module reads them, one
definition at a time on first use, so importing models or clients never loads it.

    schemas = validation_schemas("kgen.kubernetes")
    pod = schemas.schema_for("v1", "Pod")          # {"type": "object", "properties": {...}}
    spec = schemas.definition(pod["properties"]["spec"]["allOf"][0]["$ref"])

Schemas are shared: callers must not change them.
"""

from __future__ import annotations

import importlib
import json
import threading
from types import ModuleType
from typing import Any


class ValidationSchemas:
    """The validation schemas of one generated package (``"kgen.kubernetes"``, a user's ``"client"``)."""

    def __init__(self, package: str) -> None:
        self.package = package
        self._lock = threading.Lock()
        self._index: ModuleType | None = None
        self._definitions: dict[str, dict[str, Any]] = {}

    def _load_index(self) -> ModuleType:
        if self._index is None:
            self._index = importlib.import_module(f"{self.package}.validation")
        return self._index

    def kinds(self) -> dict[str, dict[str, str]]:
        """apiVersion -> kind -> definition name, for every kind of the package."""
        kinds: dict[str, dict[str, str]] = self._load_index().KINDS
        return kinds

    def definition_of(self, api_version: str, kind: str) -> str | None:
        """The definition name of ``kind`` in ``api_version``; None when the package has no such kind."""
        return self.kinds().get(api_version, {}).get(kind)

    def schema_for(self, api_version: str, kind: str) -> dict[str, Any] | None:
        """The schema of ``kind`` in ``api_version``; None when the package does not have it."""
        name = self.definition_of(api_version, kind)
        return None if name is None else self.definition(name)

    def definition(self, name: str) -> dict[str, Any]:
        """The schema of the definition ``name`` (a ``$ref``'s target). KeyError: no such definition."""
        found = self._definitions.get(name)
        if found is not None:
            return found
        namespace, _, short = name.rpartition(".")
        module = self._load_index().MODULES.get(namespace)
        if module is None:
            raise KeyError(f"{self.package} has no validation schema named {name!r}")
        data = importlib.import_module(f"{self.package}.validation.{module}").SCHEMAS
        if short not in data:
            raise KeyError(f"{self.package} has no validation schema named {name!r}")
        schema: dict[str, Any] = json.loads(data[short])
        with self._lock:
            return self._definitions.setdefault(name, schema)


_packages: dict[str, ValidationSchemas] = {}
_packages_lock = threading.Lock()


def validation_schemas(package: str = "kgen.kubernetes") -> ValidationSchemas:
    """The (shared, lazily loaded) validation schemas of a generated package."""
    with _packages_lock:
        found = _packages.get(package)
        if found is None:
            found = _packages[package] = ValidationSchemas(package)
        return found
